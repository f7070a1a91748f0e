// SPDX-License-Identifier: LGPL-2.1
/*
 * kallsyms left where the file has it, and resolved through the tep
 * handle's function resolver.
 *
 * The answers are libtraceevent's (tep_parse_kallsyms() and its lookup)
 * for every address: the same lines are symbols (types 'A'/'a' and names
 * starting with '$' are left out; the first line that does not parse
 * ends the table; the text ends at a NUL), the same order among symbols
 * at one address (the last registered, i.e. the first in the file,
 * sorts first), the same binary search.
 *
 * Memory follows the symbols asked for, not the section: once a front
 * end knows which addresses its report names (tdat_want_symbols()), one
 * pass over the text keeps, for each gap between two of them, the
 * highest symbol in it, and for each, the symbols exactly there; the
 * text is read where the file is mapped (its pages dropped behind the
 * pass) or decompressed through a small buffer.  A compressed section
 * of up to KS_HOLD bytes is held decompressed until then instead, so
 * that it is decompressed once (trace-kmem stat announces the frames of
 * kernel stacks too: it chooses page call sites after counting).  It is
 * decompressed on a thread of its own while the file is opened and its
 * records counted; a pass that starts before the thread is done (a small
 * trace) follows it, the lines written so far, then each step's
 * (ksyms_inflate_wait()), instead of waiting for the whole text.
 * Lookups nobody announced get a pass of their own, the first few; past
 * that (a front end looking frames up while counting, as plot does),
 * every symbol is indexed as before: 24 bytes a symbol, no allocation a
 * line, a name copied out only when it is first asked for.
 *
 * This file sets the section up, releases it and registers the
 * resolver; the text is streamed and parsed in ksyms_text.c, indexed in
 * ksyms_index.c, and the addresses asked for resolved in one pass in
 * ksyms_resolve.c (with the resolver itself, ksyms_resolve()).
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zstd.h>

#include "ksyms.h"

/* trace-cmd's kallsyms block is its size word and the text, to the byte */
#define KS_LONG_WHY                                                            \
	"the kallsyms section holds bytes after its text (a damaged size?)"

/* The decompressed block's size and its first four bytes. */
struct check {
	uint64_t total;
	uint8_t head[4];
};

static int check_piece(void *priv, const uint8_t *p, size_t n)
{
	struct check *ck = priv;

	for (; n && ck->total < 4; n--)
		ck->head[ck->total++] = *p++;
	ck->total += n;
	return 0;
}

/*
 * A compressed block of up to this much is decompressed once, when the
 * file is opened, and held until the lookups are known (then parsed twice
 * in memory); a larger one is decompressed through a small buffer each
 * time it is read.
 */
#define KS_HOLD (16U << 20)

static int check_block(struct tdat_file *f, struct tdat_kallsyms *k)
{
	struct check ck = { 0 };
	int ret;

	/* as tdat_section_block() and the size word would be checked */
	ret = ksyms_inflate_stream(k, check_piece, &ck);
	if (ret == TDAT_INFLATE_NOMEM)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	if (ret)
		return tdat_fail(f, TDAT_BAD,
				 "a compressed section does not decompress");
	k->tsize = tdat_num(ck.head, 4, k->big);
	if (ck.total < 4 || k->tsize > ck.total - 4)
		return tdat_fail(f, TDAT_BAD, "kallsyms truncated");
	if (k->tsize != ck.total - 4)
		return tdat_fail(f, TDAT_BAD, KS_LONG_WHY);
	return TDAT_OK;
}

/* What hold_block()'s thread found (struct tdat_kallsyms.inflate_err). */
enum {
	KS_INFLATE_OK,
	KS_INFLATE_BAD,	  /* does not decompress */
	KS_INFLATE_SHORT, /* its size word claims more than there is */
	KS_INFLATE_LONG,  /* bytes after the text (trace-cmd writes none) */
	KS_INFLATE_NOMEM, /* memory ran out */
};

/**
 * ksyms_hold_free - unmap the held block
 * @k: the section
 */
void ksyms_hold_free(struct tdat_kallsyms *k)
{
	tdat_unmap_big(k->hold, (size_t)k->zsize);
	k->hold = NULL;
}

/* tdat_inflate_steps()'s step: @done bytes of the held block stay. */
static void told(void *priv, size_t done)
{
	struct tdat_kallsyms *k = priv;

	pthread_mutex_lock(&k->prog_lock);
	k->inflated = done;
	pthread_cond_broadcast(&k->prog_cond);
	pthread_mutex_unlock(&k->prog_lock);
}

/*
 * No more progress is told: @stepped, the block was whole in steps.
 * Before hold is written again (@rewrite), a pass that follows it has
 * let go of it.
 */
static void told_end(struct tdat_kallsyms *k, bool stepped, bool rewrite)
{
	pthread_mutex_lock(&k->prog_lock);
	k->steps_off = true;
	k->stepped = stepped;
	pthread_cond_broadcast(&k->prog_cond);
	while (rewrite && k->following)
		pthread_cond_wait(&k->prog_cond, &k->prog_lock);
	pthread_mutex_unlock(&k->prog_lock);
}

/**
 * ksyms_inflate_wait - wait for more of the held block
 * @k: the section, its block being decompressed on the thread
 * @seen: the bytes of hold already taken
 * @avail: set to the bytes of hold written, which stay as they are
 *
 * For a pass over the text that follows the decompression (see
 * ksyms_resolve.c): between a true return and the next call, the first
 * *@avail bytes of hold may be read; @k->lock may be held, the thread
 * never takes it.  A pass that stops before a false return says so with
 * ksyms_inflate_leave().
 *
 * Return: true with more than @seen bytes; false once no more are told
 * (the thread is done, or decompresses the block again in one go): join
 * it, and see @k->stepped.
 */
bool ksyms_inflate_wait(struct tdat_kallsyms *k, size_t seen, size_t *avail)
{
	bool on;

	pthread_mutex_lock(&k->prog_lock);
	while (k->inflated <= seen && !k->steps_off)
		pthread_cond_wait(&k->prog_cond, &k->prog_lock);
	*avail = k->inflated;
	on = !k->steps_off;
	k->following = on;
	if (!on)
		pthread_cond_broadcast(&k->prog_cond);
	pthread_mutex_unlock(&k->prog_lock);
	return on;
}

/**
 * ksyms_inflate_leave - a pass stops following the held block
 * @k: the section
 */
void ksyms_inflate_leave(struct tdat_kallsyms *k)
{
	pthread_mutex_lock(&k->prog_lock);
	k->following = false;
	pthread_cond_broadcast(&k->prog_cond);
	pthread_mutex_unlock(&k->prog_lock);
}

/*
 * The block decompressed into k->hold, its text found (a thread's).  A
 * zstd block is decompressed in steps, each told (ksyms_inflate_wait()),
 * when it is one plain frame; any other, in one go.
 */
static void *inflate_block(void *arg)
{
	struct tdat_kallsyms *k = arg;
	void *zctx = NULL;
	size_t len;
	struct tcur c;
	bool stepped;
	int ret = 1;

	tdat_thread_started(); /* on the main thread (no thread): no change */
	if (k->z == TDAT_Z_ZSTD)
		ret = tdat_inflate_steps(&zctx, k->zsrc, k->zsrclen, k->hold,
					 (size_t)k->zsize, &len, told, k);
	stepped = !ret;
	if (ret == 1) {
		told_end(k, false, true);
		ret = tdat_inflate_ctx(k->z, &zctx, k->zsrc, k->zsrclen,
				       k->hold, (size_t)k->zsize, &len);
	}
	if (ret) {
		k->inflate_err = ret == TDAT_INFLATE_NOMEM ? KS_INFLATE_NOMEM
							   : KS_INFLATE_BAD;
	} else {
		tc_init(&c, k->hold, len, k->big);
		k->tsize = tc_num(&c, 4);
		k->src = tc_take(&c, k->tsize);
		k->srclen = (size_t)k->tsize;
		if (c.bad)
			k->inflate_err = KS_INFLATE_SHORT;
		else if (c.pos != c.len)
			k->inflate_err = KS_INFLATE_LONG;
	}
	if (zctx)
		ZSTD_freeDCtx(zctx);
	told_end(k, stepped && !k->inflate_err, false);
	return NULL;
}

/*
 * Decompress the block into memory of its own, on a thread: the file's
 * other sections are read meanwhile, and tdat_kallsyms_wait() joins it
 * before the file is said to be open.
 */
static int hold_block(struct tdat_file *f, struct tdat_kallsyms *k)
{
	pthread_attr_t attr, *at;
	int err;

	k->hold = tdat_map_big((size_t)k->zsize);
	if (!k->hold)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	if (tdat_usable_cpus() < 2) {
		inflate_block(k); /* one CPU: a thread would only take turns */
		return TDAT_OK;
	}
	at = tdat_thread_attr(&attr);
	err = pthread_create(&k->inflater, at, inflate_block, k);
	if (at)
		pthread_attr_destroy(at);
	if (err) {
		inflate_block(k); /* no thread: here */
		return TDAT_OK;
	}
	k->inflating = true;
	return TDAT_OK;
}

/**
 * ksyms_join - wait for the decompression of the held block, if any
 * @k: the section, its lock held (or one thread only)
 *
 * A failed decompression leaves no text: a pass finds no symbol.
 */
void ksyms_join(struct tdat_kallsyms *k)
{
	if (!k->inflating)
		return;
	pthread_join(k->inflater, NULL);
	k->inflating = false;
}

/**
 * tdat_ready - the end of the file's opening, with late_kallsyms
 * @f: the file
 * @why: TDAT_WHY_LEN bytes for the reason of a failure
 * @why_len: the size of @why
 *
 * With &tdat_hooks.late_kallsyms, tdat_open() returns while a compressed
 * kallsyms section is still being decompressed; this waits for it and
 * says whether it was whole.  Records can be read before it (symbols
 * looked up meanwhile wait for the text); nothing read from the file
 * should be shown before it.  Without late_kallsyms, it has nothing to
 * do.  May be called again.
 *
 * Return: TDAT_OK, or TDAT_BAD (then @why says why, as tdat_open()
 * would have).
 */
int tdat_ready(struct tdat_file *f, char *why, size_t why_len)
{
	int ret;

	if (why && why_len)
		why[0] = '\0';
	f->why = why;
	f->why_len = why_len;
	ret = tdat_kallsyms_wait(f);
	f->why = NULL;
	f->why_len = 0;
	return ret;
}

/**
 * tdat_kallsyms_wait - the end of the kallsyms section's decompression
 * @f: the file
 *
 * A compressed kallsyms section is decompressed on a thread of its own
 * from tdat_kallsyms_set() on; this waits for it.  Nothing reads the
 * text before.
 *
 * Return: TDAT_OK, or TDAT_BAD after saying why (as when it was
 * decompressed in tdat_kallsyms_set()).
 */
int tdat_kallsyms_wait(struct tdat_file *f)
{
	struct tdat_kallsyms *k = f->ksyms;

	if (!k)
		return TDAT_OK;
	pthread_mutex_lock(&k->lock);
	ksyms_join(k);
	pthread_mutex_unlock(&k->lock);
	switch (k->inflate_err) {
	case KS_INFLATE_BAD:
		return tdat_fail(f, TDAT_BAD,
				 "a compressed section does not decompress");
	case KS_INFLATE_SHORT:
		return tdat_fail(f, TDAT_BAD, "kallsyms truncated");
	case KS_INFLATE_LONG:
		return tdat_fail(f, TDAT_BAD, KS_LONG_WHY);
	case KS_INFLATE_NOMEM:
		return tdat_fail(f, TDAT_BAD, "out of memory");
	}
	return TDAT_OK;
}

/**
 * tdat_kallsyms_set - keep where the kallsyms text is, resolve through it
 * @f: the file (its tep handle gets the resolver)
 * @c: the cursor at the section's content: its size word and the text,
 *	or, when @z, the compressed block's sizes
 * @z: the section is compressed
 *
 * Nothing is copied: the text is read where the file is mapped, or
 * decompressed again, each time symbols are resolved.  A compressed block
 * is decompressed once here (through a small buffer) so that damage is
 * found now, as when it was kept; not at all with
 * &tdat_hooks.no_kallsyms (no resolver then: no symbol is looked up).
 *
 * Return: TDAT_OK, or TDAT_BAD after saying why.
 */
int tdat_kallsyms_set(struct tdat_file *f, struct tcur *c, bool z)
{
	struct tdat_kallsyms *k;
	uint64_t zsize = 0, size;
	const uint8_t *p;
	int ret;

	tdat_kallsyms_release(f);
	if (z) {
		if (tdat_section_head(f, c, &p, &zsize, &size))
			return TDAT_BAD;
		if (f->no_kallsyms)
			return TDAT_OK; /* left compressed, unread */
	} else {
		size = tc_num(c, 4);
		p = tc_take(c, size);
		if (c->bad)
			return tdat_fail(f, TDAT_BAD, "kallsyms truncated");
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	pthread_mutex_init(&k->lock, NULL);
	pthread_mutex_init(&k->prog_lock, NULL);
	pthread_cond_init(&k->prog_cond, NULL);
	f->ksyms = k;
	k->big = f->big;
	k->tsize = size;
	if (!z) {
		k->src = p;
		k->srclen = (size_t)size;
		k->drop = f->owned;
	} else {
		k->z = f->compress;
		k->zsrc = p;
		k->zsrclen = (size_t)zsize;
		k->zsize = size;
		ret = size <= KS_HOLD ? hold_block(f, k) : check_block(f, k);
		if (ret)
			return ret;
	}
	if (tep_set_function_resolver(f->tep, ksyms_resolve, k))
		return tdat_fail(f, TDAT_BAD, "out of memory");
	return TDAT_OK;
}

/**
 * tdat_kallsyms_bytes - the size of the kallsyms text
 * @f: the file
 *
 * Return: the size the file gives its kallsyms text, or 0.
 */
uint64_t tdat_kallsyms_bytes(const struct tdat_file *f)
{
	return f->ksyms ? f->ksyms->tsize : 0;
}

/**
 * tdat_kallsyms_failed - did memory run out for the symbols' index?
 * @f: the file
 *
 * Lookups then found no symbol: names printed as addresses.
 *
 * Return: true once the index could not be built.
 */
bool tdat_kallsyms_failed(const struct tdat_file *f)
{
	bool failed = false;

	if (f->ksyms) {
		pthread_mutex_lock(&f->ksyms->lock);
		failed = f->ksyms->failed;
		pthread_mutex_unlock(&f->ksyms->lock);
	}
	return failed;
}

/**
 * tdat_kallsyms_release - drop the answers, the index and the names
 * @f: the file
 */
void tdat_kallsyms_release(struct tdat_file *f)
{
	struct tdat_kallsyms *k = f->ksyms;
	size_t i;

	if (!k)
		return;
	ksyms_join(k);
	if (f->tep)
		tep_reset_function_resolver(f->tep);
	for (i = 0; i < k->nres; i++) {
		free(k->res[i].name);
		free(k->res[i].mod);
	}
	free(k->res);
	for (i = 0; k->syms && i < k->count; i++) {
		free(k->syms[i].copy);
		free(k->syms[i].mod);
	}
	free(k->syms);
	free(k->owned);
	ksyms_hold_free(k);
	pthread_mutex_destroy(&k->lock);
	pthread_mutex_destroy(&k->prog_lock);
	pthread_cond_destroy(&k->prog_cond);
	free(k);
	f->ksyms = NULL;
}
