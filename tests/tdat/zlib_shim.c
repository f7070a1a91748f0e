// SPDX-License-Identifier: LGPL-2.1
/*
 * zlib_shim.so: registers the "zlib" compression with libtracecmd, the
 * way trace-cmd's own lib/trace-cmd/trace-compress-zlib.c does (compress2
 * at Z_BEST_COMPRESSION, uncompress, compressBound, the major version
 * check), for a libtracecmd built without zlib (Debian's 1.3.1 has only
 * zstd: it cannot read zlib-compressed trace.dat files at all).
 *
 *   cc -shared -fPIC -o zlib_shim.so zlib_shim.c -ltracecmd -lz
 *   LD_PRELOAD=./zlib_shim.so trace-cmd report -i zlib.dat
 *
 * libtracecmd's constructor registers zstd before this one runs (the
 * library is a dependency of this object); a libtracecmd that has zlib
 * already refuses the second registration, which is harmless.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* trace-cmd 3.1.6 lib/trace-cmd/include/private/trace-cmd-private.h */
struct tracecmd_compression_proto {
	int weight;
	const char *name;
	const char *version;
	int (*compress)(void *ctx, const void *in, int in_bytes, void *out, int out_bytes);
	int (*uncompress)(void *ctx, const void *in, int in_bytes, void *out, int out_bytes);
	unsigned int (*compress_size)(void *ctx, unsigned int bytes);
	bool (*is_supported)(const char *name, const char *version);
	void *(*new_context)(void);
	void (*free_context)(void *ctx);
};

int tracecmd_compress_proto_register(struct tracecmd_compression_proto *proto);

static int shim_compress(void *ctx, const void *in, int in_bytes, void *out, int out_bytes)
{
	uLongf obytes = out_bytes;

	(void)ctx;
	if (compress2(out, &obytes, in, in_bytes, Z_BEST_COMPRESSION) != Z_OK)
		return -1;
	return obytes;
}

static int shim_uncompress(void *ctx, const void *in, int in_bytes, void *out, int out_bytes)
{
	uLongf obytes = out_bytes;

	(void)ctx;
	if (uncompress(out, &obytes, in, in_bytes) != Z_OK)
		return -1;
	return obytes;
}

static unsigned int shim_bound(void *ctx, unsigned int bytes)
{
	(void)ctx;
	return compressBound(bytes);
}

static bool shim_supported(const char *name, const char *version)
{
	if (!name || strcmp(name, "zlib"))
		return false;
	if (!version)
		return true;
	return atoi(version) <= atoi(zlibVersion());
}

__attribute__((constructor)) static void shim_init(void)
{
	static struct tracecmd_compression_proto proto;

	proto.weight = 10;
	proto.name = "zlib";
	proto.version = zlibVersion();
	proto.compress = shim_compress;
	proto.uncompress = shim_uncompress;
	proto.compress_size = shim_bound;
	proto.is_supported = shim_supported;
	tracecmd_compress_proto_register(&proto);
}
