// SPDX-License-Identifier: LGPL-2.1
/*
 * A compressed kallsyms section decompressed in steps, and the pass over
 * its text that follows them (reader/kallsyms.c, ksyms_resolve.c):
 *  - tdat_inflate_steps() takes only one plain zstd frame, and gives its
 *    bytes as tdat_inflate_ctx() does, its steps told in order; any other
 *    block (two frames, bytes after the frame, a cut frame, too little
 *    room, no block) it leaves to tdat_inflate_ctx(), which decides;
 *  - the symbols a pass finds while the thread still decompresses the
 *    section are those it finds on the whole text: a sample trace opened
 *    late (its kallsyms still being inflated) and opened whole, the same
 *    addresses asked for in both, every answer compared.  Whether the pass
 *    did follow the thread is timing; the test says SKIP when in five
 *    tries it never did.
 */
#include <stdlib.h>

#include <zstd.h>

#include "ksyms.h"
#include "tdat.h"
#include "unit.h"

#define SAMPLE "sample-data/slab-fork-exec.dat"

/* kallsyms-like text, @n lines */
static char *text_of(size_t n, size_t *len)
{
	char *t = malloc(n * 48 + 1), *p = t;
	size_t i;

	if (!t)
		return NULL;
	for (i = 0; i < n; i++)
		p += sprintf(p, "%016llx %c sym_%zu_%zx\n",
			     0xffffffff81000000ULL + i * 0x40, "tTdD"[i % 4], i,
			     i * 7919);
	*len = (size_t)(p - t);
	return t;
}

struct told {
	size_t last, calls;
	bool backwards;
};

static void told(void *priv, size_t done)
{
	struct told *t = priv;

	t->backwards |= done <= t->last;
	t->last = done;
	t->calls++;
}

/* One frame without its content size, as trace-cmd writes them. */
static size_t frame(const char *text, size_t len, uint8_t *dst, size_t cap)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t n;

	ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
	n = ZSTD_compress2(c, dst, cap, text, len);
	ZSTD_freeCCtx(c);
	return ZSTD_isError(n) ? 0 : n;
}

/*
 * tdat_inflate_steps() on @src, against tdat_inflate_ctx() into @room
 * bytes: taken (and then the same bytes) as @taken says.
 */
static void same_as_one_go(const uint8_t *src, size_t srclen, size_t room,
			   int taken, const char *what)
{
	uint8_t *a = malloc(room + 1), *b = malloc(room + 1);
	void *za = NULL, *zb = NULL;
	struct told t = { 0 };
	size_t na = 0, nb = 0;
	int ra, rb;

	ra = tdat_inflate_steps(&za, src, srclen, a, room, &na, told, &t);
	rb = tdat_inflate_ctx(TDAT_Z_ZSTD, &zb, src, srclen, b, room, &nb);
	if (ra != taken)
		printf("  %s: tdat_inflate_steps() gave %d, want %d\n", what,
		       ra, taken);
	CHECK(ra == taken);
	if (ra == 0) {
		CHECK(rb == 0);
		CHECK_U64(na, nb);
		CHECK(!memcmp(a, b, na));
		CHECK_U64(t.last, na);
		CHECK(!t.backwards);
		CHECK(t.calls >= 2);
	}
	/* the same context again, in one go: left as it was found */
	if (ra == 1)
		CHECK(tdat_inflate_ctx(TDAT_Z_ZSTD, &za, src, srclen, a, room,
				       &na) == rb);
	tdat_inflate_ctx_free(za);
	tdat_inflate_ctx_free(zb);
	free(a);
	free(b);
}

static void test_steps(void)
{
	size_t len, zn, cap;
	char *text = text_of(60000, &len);
	uint8_t *z, *two;

	CHECK(text != NULL);
	if (!text)
		return;
	cap = ZSTD_compressBound(len) + 64;
	z = malloc(2 * cap);
	two = malloc(2 * cap);
	zn = frame(text, len, z, cap);
	CHECK(zn > 0);
	if (!z || !two || !zn)
		goto out;
	same_as_one_go(z, zn, len, 0, "one frame");
	same_as_one_go(z, zn, len + 4096, 0, "one frame, more room");
	/* with its content size, as ZSTD_compress() writes it */
	zn = ZSTD_compress(z, cap, text, len, 3);
	CHECK(!ZSTD_isError(zn));
	same_as_one_go(z, zn, len, 0, "one frame with its size");
	zn = frame(text, len, z, cap);
	same_as_one_go(z, zn, len - 1, 1, "too little room");
	same_as_one_go(z, zn - 7, len, 1, "a cut frame");
	same_as_one_go(z, 0, len, 1, "no block");
	memcpy(two, z, zn);
	memcpy(two + zn, "garbage!", 8);
	same_as_one_go(two, zn + 8, len, 1, "bytes after the frame");
	memcpy(two + zn, z, zn);
	same_as_one_go(two, 2 * zn, 2 * len, 1, "two frames");
	z[zn / 2] ^= 0x5a;
	same_as_one_go(z, zn, len,
		       ZSTD_isError(ZSTD_decompress(two, 2 * len, z, zn)) ? 1
									  : 0,
		       "a damaged frame");
out:
	free(z);
	free(two);
	free(text);
}

/* Addresses to ask for: every 50th symbol's, and those beside it. */
static uint64_t *addresses(const struct tdat_file *f, size_t *n)
{
	const struct tdat_kallsyms *k = f->ksyms;
	const char *s = (const char *)k->src, *end = s + k->srclen, *nl;
	size_t line = 0, cap = 1024;
	uint64_t *v = malloc(cap * sizeof(*v)), a;

	*n = 0;
	for (; v && s < end; s = nl + 1, line++) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			break;
		if (line % 50)
			continue;
		if (*n + 3 > cap) {
			uint64_t *w = realloc(v, 2 * cap * sizeof(*v));

			if (!w)
				break;
			v = w;
			cap *= 2;
		}
		a = strtoull(s, NULL, 16);
		v[(*n)++] = a;
		v[(*n)++] = a + 1;
		v[(*n)++] = a - 1;
	}
	return v;
}

/*
 * One try: the answers of a handle whose pass followed the thread against
 * those of a whole one.  Return: the text bytes the pass took while
 * following; -1 when the sample could not be read (a failure).
 */
static bool kmem_only(const char *system, const char *name)
{
	return !strcmp(system, "kmem");
}

static long follow_once(void)
{
	/* as trace-kmem opens a file: little to do before the records */
	static const struct tdat_hooks late = { .want = kmem_only,
						.late_kallsyms = true,
						.lazy_print_fmt = true,
						.lazy_cmdlines = true };
	struct tdat_file *whole = NULL, *followed = NULL;
	char why[TDAT_WHY_LEN];
	uint64_t *v = NULL;
	size_t n = 0, i, bad = 0;
	long took = -1;

	if (tdat_open(SAMPLE, NULL, &whole, why, sizeof(why)) != TDAT_OK ||
	    !whole->ksyms || !whole->ksyms->src) {
		printf("  %s: %s\n", SAMPLE, whole ? "no kallsyms text" : why);
		goto out;
	}
	v = addresses(whole, &n);
	if (!v || n < 300) {
		printf("  %s: %zu addresses\n", SAMPLE, n);
		goto out;
	}
	if (tdat_open(SAMPLE, &late, &followed, why, sizeof(why)) != TDAT_OK) {
		printf("  %s, late: %s\n", SAMPLE, why);
		goto out;
	}
	CHECK(!tdat_want_symbols(followed, v, n));
	CHECK(tdat_ready(followed, why, sizeof(why)) == TDAT_OK);
	CHECK(!tdat_want_symbols(whole, v, n));
	for (i = 0; i < n; i++) {
		struct tep_handle *a = tdat_tep(followed), *b = tdat_tep(whole);
		const char *fa = tep_find_function(a, v[i]);
		const char *fb = tep_find_function(b, v[i]);
		const char *ma = tdat_symbol_module(followed, v[i]);
		const char *mb = tdat_symbol_module(whole, v[i]);

		if ((!fa != !fb) || (fa && strcmp(fa, fb)) ||
		    tep_find_function_address(a, v[i]) !=
			    tep_find_function_address(b, v[i]) ||
		    (!ma != !mb) || (ma && strcmp(ma, mb))) {
			if (bad++ < 5)
				printf("  %#llx: %s [%s] against %s [%s]\n",
				       (unsigned long long)v[i], fa ? fa : "-",
				       ma ? ma : "", fb ? fb : "-",
				       mb ? mb : "");
		}
	}
	CHECK_U64(bad, 0);
	took = (long)followed->ksyms->followed;
	printf("  %zu addresses; the pass took %ld of %llu text bytes while "
	       "following\n",
	       n, took, (unsigned long long)whole->ksyms->tsize);
out:
	if (took < 0)
		unit_failed++;
	free(v);
	if (followed)
		tdat_close(followed);
	if (whole)
		tdat_close(whole);
	return took;
}

int main(void)
{
	long took = 0;
	int i;

	RUN(test_steps);
	if (tdat_usable_cpus() < 2) {
		printf("SKIP test_follow: one CPU: the section is inflated "
		       "before the file is open\n");
		UNIT_EXIT();
	}
	unit_failed = 0;
	for (i = 0; i < 5 && !took && !unit_failed; i++)
		took = follow_once();
	if (unit_failed)
		printf("FAIL test_follow\n");
	else if (!took)
		printf("SKIP test_follow: in %d tries, the thread was done "
		       "before the pass\n",
		       i);
	else
		printf("PASS test_follow\n");
	unit_total_failed += !!unit_failed;
	UNIT_EXIT();
}
