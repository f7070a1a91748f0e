// SPDX-License-Identifier: LGPL-2.1
/*
 * LD_PRELOAD=failalloc.so: the Nth allocation of the program's own code
 * fails (tests/e2e/oom.sh).
 *
 *   FAILALLOC_AT=N     malloc, calloc, realloc, strdup or strndup call N
 *                      returns NULL with errno ENOMEM (N from 1; unset
 *                      or 0: none fails)
 *   FAILALLOC_COUNT=1  at exit, "failalloc: N calls" on stderr
 *   FAILALLOC_BT=1     the failing call's backtrace on stderr
 *   FAILALLOC_IN=NAME  only calls from the objects whose path holds NAME
 *                      count (plugin_kmem.so inside trace-cmd)
 *
 * Only calls from the program and the libraries it reads files with
 * (libzstd, zlib) are counted and failed: not those of libc (stdio, the
 * loader) nor of libtraceevent and libtracecmd, whose parsers do not
 * check every allocation (libtraceevent 1.7's tokenizer strcmp()s the
 * NULL a failed strdup() gave); this tests trace-kmem, not them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static unsigned long calls, at;
static const char *only;
static bool ready;
static __thread bool in_dladdr;

/*
 * counted()'s answers by caller, direct-mapped (dladdr() is slow): the
 * caller's address shifted left once, its answer in bit 0, in one word
 * (threads allocate too)
 */
#define MEMO_SIZE 4096
static uint64_t memo[MEMO_SIZE];

static bool look_up(const void *caller);

static bool counted(const void *caller)
{
	uint64_t a = (uint64_t)(uintptr_t)caller, m;
	size_t h = (size_t)((a * 0x9E3779B97F4A7C15ULL) >> 52);
	bool c;

	m = __atomic_load_n(&memo[h], __ATOMIC_RELAXED);
	if (m >> 1 == a)
		return m & 1;
	c = look_up(caller);
	if (!in_dladdr)
		__atomic_store_n(&memo[h], a << 1 | c, __ATOMIC_RELAXED);
	return c;
}

static bool look_up(const void *caller)
{
	static const char *const spared[] = { "/libc.so", "/ld-linux",
					      "/libtraceevent.so",
					      "/libtracecmd.so", "/libgcc_s.so",
					      "/libstdc++.so" };
	Dl_info d;
	size_t i;
	int ok;

	if (in_dladdr)
		return false;
	in_dladdr = true;
	ok = dladdr(caller, &d);
	in_dladdr = false;
	if (!ok || !d.dli_fname)
		return false;
	if (only)
		return strstr(d.dli_fname, only) != NULL;
	for (i = 0; i < sizeof(spared) / sizeof(spared[0]); i++)
		if (strstr(d.dli_fname, spared[i]))
			return false;
	return true;
}

/* Is this call, from @caller, the one to fail? */
static bool fails(const void *caller)
{
	if (!ready) {
		const char *e = getenv("FAILALLOC_AT");

		at = e ? strtoul(e, NULL, 10) : 0;
		only = getenv("FAILALLOC_IN");
		ready = true;
	}
	if (!counted(caller) ||
	    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) != at)
		return false;
	if (getenv("FAILALLOC_BT")) {
		void *bt[24];

		backtrace_symbols_fd(bt, backtrace(bt, 24), 2);
	}
	errno = ENOMEM;
	return true;
}

void *malloc(size_t n)
{
	return fails(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	return fails(__builtin_return_address(0)) ? NULL
						  : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	return fails(__builtin_return_address(0)) ? NULL
						  : __libc_realloc(p, n);
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d;

	if (fails(__builtin_return_address(0)))
		return NULL;
	d = __libc_malloc(n);
	return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *d;

	if (fails(__builtin_return_address(0)))
		return NULL;
	d = __libc_malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

__attribute__((destructor)) static void report(void)
{
	if (getenv("FAILALLOC_COUNT"))
		fprintf(stderr, "failalloc: %lu calls\n",
			__atomic_load_n(&calls, __ATOMIC_RELAXED));
}
