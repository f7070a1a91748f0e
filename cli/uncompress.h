/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Compressed trace.dat files (format 7 with zstd or zlib, trace-cmd
 * 3.x's default) read slowly through libtracecmd before 3.2: it keeps
 * every decompressed chunk in a list it searches linearly and never
 * frees, so time grows with the square of the trace and memory with its
 * size (fixed upstream by "libtracecmd: Use an rbtree for mapping of
 * cache pages").  trace-kmem first has `trace-cmd convert` write an
 * uncompressed copy to $TMPDIR, reads that, and deletes it.
 */
#ifndef TRACE_KMEM_UNCOMPRESS_H
#define TRACE_KMEM_UNCOMPRESS_H

#include <stdbool.h>

#include <trace-cmd.h>

/*
 * Compressed files at least this large are converted first: below, the
 * chunks libtracecmd keeps (never freed) stay under about 25 MB.
 */
#define TK_CONVERT_MIN (4LL << 20)

struct tracecmd_input *tk_open_input(const char *path, bool as_is);

#endif
