// SPDX-License-Identifier: LGPL-2.1
/*
 * Decompression of a version 7 file's compressed sections and data
 * chunks, with libzstd or zlib, as trace-cmd's compression plugins
 * write them: one zstd frame or one zlib stream per block.
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_d_stableOutBuffer */
#include <zstd.h>

#include "internal.h"

/**
 * tdat_inflate_ctx - decompress one block with a context of the caller's
 * @compress: the file's compression
 * @zctx: the zstd context, made here the first time (free it with
 *	tdat_inflate_ctx_free()); one a thread
 * @src: the compressed bytes
 * @srclen: their number
 * @dst: where to write
 * @dstlen: room at @dst
 * @out: the number of bytes written
 *
 * Return: 0, -1 when the data does not decompress into @dstlen bytes, or
 * TDAT_INFLATE_NOMEM when memory ran out (no context could be made).
 */
int tdat_inflate_ctx(enum tdat_compress compress, void **zctx,
		     const uint8_t *src, size_t srclen, uint8_t *dst,
		     size_t dstlen, size_t *out)
{
	if (compress == TDAT_Z_ZSTD) {
		size_t n;

		if (!*zctx)
			*zctx = ZSTD_createDCtx();
		if (!*zctx)
			return TDAT_INFLATE_NOMEM;
		n = ZSTD_decompressDCtx(*zctx, dst, dstlen, src, srclen);
		if (ZSTD_isError(n))
			return -1;
		*out = n;
		return 0;
	}
	if (compress == TDAT_Z_ZLIB) {
		uLongf n = (uLongf)dstlen;
		int err;

		if (srclen > UINT32_MAX)
			return -1;
		err = uncompress(dst, &n, src, (uLong)srclen);
		if (err == Z_MEM_ERROR)
			return TDAT_INFLATE_NOMEM;
		if (err != Z_OK)
			return -1;
		*out = (size_t)n;
		return 0;
	}
	return -1;
}

/* Compressed bytes handed to libzstd per step of tdat_inflate_steps(). */
#define TDAT_STEP_IN (64U << 10)

/**
 * tdat_inflate_steps - tdat_inflate_ctx() of one zstd frame, its progress told
 * @zctx: the zstd context, made here the first time (free it with
 *	tdat_inflate_ctx_free()); reset here after use
 * @src: the compressed bytes
 * @srclen: their number
 * @dst: where to write
 * @dstlen: room at @dst
 * @out: the number of bytes written
 * @step: told, after each step, how many bytes of @dst are written and
 *	stay as they are
 * @priv: for @step
 *
 * For a reader of @dst that follows the decompression on another thread:
 * the frame is decompressed straight into @dst (libzstd's stable output
 * buffer), TDAT_STEP_IN compressed bytes at a time.  Only the plain case
 * is taken: one frame that ends with @src and fits @dst.  Anything else
 * (more frames, bytes after the frame, damage, an output too small, a
 * libzstd without the stable output buffer) returns 1, and the caller
 * then decompresses the block with tdat_inflate_ctx(), whose success or
 * failure is the block's.
 *
 * Return: 0 when @dst holds the frame, whole; 1 when it was not taken;
 * TDAT_INFLATE_NOMEM when no context could be made.
 */
int tdat_inflate_steps(void **zctx, const uint8_t *src, size_t srclen,
		       uint8_t *dst, size_t dstlen, size_t *out,
		       void (*step)(void *priv, size_t done), void *priv)
{
	ZSTD_outBuffer o = { dst, dstlen, 0 };
	ZSTD_inBuffer in = { src, 0, 0 };
	ZSTD_DCtx *d = *zctx;
	size_t ret, ip, op;
	int taken = 1;

	if (!d)
		d = *zctx = ZSTD_createDCtx();
	if (!d)
		return TDAT_INFLATE_NOMEM;
	if (ZSTD_isError(ZSTD_DCtx_setParameter(d, ZSTD_d_stableOutBuffer, 1)))
		goto out;
	do {
		ip = in.pos;
		op = o.pos;
		in.size = srclen - in.size > TDAT_STEP_IN
				  ? in.size + TDAT_STEP_IN
				  : srclen;
		ret = ZSTD_decompressStream(d, &o, &in);
		if (ZSTD_isError(ret))
			goto out;
		if (o.pos != op)
			step(priv, o.pos);
		/* all of it given, and no step taken: cut short */
		if (ret && in.size == srclen && in.pos == ip && o.pos == op)
			goto out;
	} while (ret);
	if (in.pos != srclen)
		goto out; /* more after the frame */
	*out = o.pos;
	taken = 0;
out:
	ZSTD_DCtx_reset(d, ZSTD_reset_session_and_parameters);
	return taken;
}

/**
 * tdat_inflate - decompress one block
 * @f: the file (its compression and decompression context)
 * @src: the compressed bytes
 * @srclen: their number
 * @dst: where to write
 * @dstlen: room at @dst
 * @out: the number of bytes written
 *
 * Return: 0, -1 when the data does not decompress into @dstlen bytes, or
 * TDAT_INFLATE_NOMEM when memory ran out.
 */
int tdat_inflate(struct tdat_file *f, const uint8_t *src, size_t srclen,
		 uint8_t *dst, size_t dstlen, size_t *out)
{
	void *ctx = f->zctx;
	int ret = tdat_inflate_ctx(f->compress, &ctx, src, srclen, dst, dstlen,
				   out);

	f->zctx = ctx;
	return ret;
}

/**
 * tdat_section_head - the sizes of a compressed section's block, checked
 * @f: the file
 * @c: the cursor at the block's sizes (after the section header)
 * @src: set to the compressed bytes (in the file)
 * @zsize: set to their number
 * @size: set to the size they claim to inflate to, within the bounds
 *
 * Return: TDAT_OK, or TDAT_BAD after saying why.
 */
int tdat_section_head(struct tdat_file *f, struct tcur *c,
		      const uint8_t **src, uint64_t *zsize, uint64_t *size)
{
	*zsize = tc_num(c, 4);
	*size = tc_num(c, 4);
	*src = tc_take(c, *zsize);
	if (c->bad)
		return tdat_fail(f, TDAT_BAD, "compressed section truncated");
	if (*size > TDAT_MAX_SECTION ||
	    *size > *zsize * TDAT_MAX_RATIO + TDAT_RATIO_SLACK)
		return tdat_fail(f, TDAT_BAD,
				 "compressed section claims "
				 "%llu bytes from %llu",
				 (unsigned long long)*size,
				 (unsigned long long)*zsize);
	return TDAT_OK;
}

/**
 * tdat_section_block - decompress a compressed section's block
 * @f: the file
 * @c: the cursor at the block's sizes (after the section header)
 * @buf: set to the decompressed bytes, to be freed by the caller with
 *       tdat_unmap_big(*@buf, *@cap)
 * @len: set to their number
 * @cap: set to the size @buf was mapped for
 *
 * Return: TDAT_OK, or TDAT_BAD after saying why.
 */
int tdat_section_block(struct tdat_file *f, struct tcur *c, uint8_t **buf,
		       size_t *len, size_t *cap)
{
	uint64_t zsize, size;
	const uint8_t *src;
	int ret;

	*buf = NULL;
	if (tdat_section_head(f, c, &src, &zsize, &size))
		return TDAT_BAD;
	*buf = tdat_map_big((size_t)size);
	if (!*buf)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	*cap = (size_t)size;
	ret = tdat_inflate(f, src, (size_t)zsize, *buf, (size_t)size, len);
	if (ret) {
		tdat_unmap_big(*buf, *cap);
		*buf = NULL;
		if (ret == TDAT_INFLATE_NOMEM)
			return tdat_fail(f, TDAT_BAD, "out of memory");
		return tdat_fail(f, TDAT_BAD,
				 "a compressed section does not "
				 "decompress");
	}
	return TDAT_OK;
}

/**
 * tdat_inflate_ctx_free - free a context of tdat_inflate_ctx()
 * @zctx: the context, or NULL
 */
void tdat_inflate_ctx_free(void *zctx)
{
	if (zctx)
		ZSTD_freeDCtx(zctx);
}

/**
 * tdat_inflate_release - free the decompression context
 * @f: the file
 */
void tdat_inflate_release(struct tdat_file *f)
{
	if (f->zctx)
		ZSTD_freeDCtx(f->zctx);
	f->zctx = NULL;
}
