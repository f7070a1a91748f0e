// SPDX-License-Identifier: LGPL-2.1
/*
 * The memory bound around libtracecmd (see memlimit.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "memlimit.h"

#if defined(__SANITIZE_ADDRESS__)
#define TK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TK_SANITIZED 1
#endif
#endif

static unsigned long long limit;	/* bytes; 0: none set */
static char note[160];

static unsigned long long ram_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || size <= 0)
		return 0;
	return (unsigned long long)pages * (unsigned long long)size;
}

/**
 * tk_memlimit_apply - bound the address space before libtracecmd reads
 * @inputs_bytes: the size of the files it reads (they may be mapped)
 *
 * Once per process; a lower limit already in place is kept.
 *
 * Return: 0, or -1 if $TRACE_KMEM_MEMORY_LIMIT is not a number (said
 * on stderr).
 */
int tk_memlimit_apply(unsigned long long inputs_bytes)
{
	const char *v = getenv("TRACE_KMEM_MEMORY_LIMIT");
	unsigned long long want;
	struct rlimit r;
	char *end;

	if (limit)
		return 0;
	if (v && *v) {
		errno = 0;
		want = strtoull(v, &end, 10);
		if (errno || *end || want > (1ULL << 40)) {
			fprintf(stderr, TK_NAME ": TRACE_KMEM_MEMORY_LIMIT=%s: "
					"not a number of MB\n", v);
			return -1;
		}
		want <<= 20;
	} else {
		want = ram_bytes();
		if (want < (4ULL << 30))
			want = 4ULL << 30;
		want += inputs_bytes;
	}
#ifdef TK_SANITIZED
	want = 0;
#endif
	if (!want || getrlimit(RLIMIT_AS, &r))
		return 0;
	if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur <= want)
		return 0;
	r.rlim_cur = want;
	if (r.rlim_max != RLIM_INFINITY && r.rlim_cur > r.rlim_max)
		r.rlim_cur = r.rlim_max;
	if (setrlimit(RLIMIT_AS, &r))
		return 0;
	limit = r.rlim_cur;
	snprintf(note, sizeof(note),
		 " (out of memory: the limit of %llu MB was reached; "
		 "TRACE_KMEM_MEMORY_LIMIT)", limit >> 20);
	return 0;
}

/* VmPeak of /proc/self/status in bytes, read with read(2) only. */
static unsigned long long vm_peak(void)
{
	char buf[4096], *p;
	unsigned long long kb = 0;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strstr(buf, "VmPeak:");
	if (!p)
		return 0;
	for (p += 7; *p == ' ' || *p == '\t'; p++)
		;
	for (; *p >= '0' && *p <= '9'; p++)
		kb = kb * 10 + (unsigned long long)(*p - '0');
	return kb << 10;
}

/**
 * tk_memlimit_hit - did libtracecmd run into the limit?
 *
 * Async-signal-safe (the fault guard asks): an allocation failed just
 * now (errno ENOMEM), or the address space came within a tenth of it.
 *
 * Return: true if it probably did.
 */
bool tk_memlimit_hit(void)
{
	if (!limit)
		return false;
	return errno == ENOMEM || vm_peak() >= limit - limit / 10;
}

/**
 * tk_memlimit_note - the words to add to a libtracecmd failure
 *
 * Return: "" when the limit was not hit, else " (out of memory: the
 * limit of N MB was reached; TRACE_KMEM_MEMORY_LIMIT)".
 */
const char *tk_memlimit_note(void)
{
	return tk_memlimit_hit() ? note : "";
}

/**
 * tk_memlimit_hit_note - a message line as it reads when the limit is hit
 * @buf: where to
 * @len: its size
 * @msg: the line, ending in a newline
 *
 * For the fault guard, which cannot format in its handler: @msg with
 * the note of tk_memlimit_note() before its newline.
 */
void tk_memlimit_hit_note(char *buf, size_t len, const char *msg)
{
	size_t n = strcspn(msg, "\n");

	snprintf(buf, len, "%.*s%s\n", (int)n, msg, note);
}
