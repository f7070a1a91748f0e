/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A compressed buffer's chunks inflated ahead, on a thread of their own,
 * while tdat_iterate() (iter.c) walks the pages of those it took
 * (prefetch.c).  Only the decompression moves: which chunks are damage,
 * what they count and what is said of them stays iter.c's.
 */
#ifndef TDAT_PREFETCH_H
#define TDAT_PREFETCH_H

#include <stdint.h>

#include "internal.h"

/* Chunks inflated ahead of the one walked, a CPU. */
#define TDAT_PF_AHEAD 2

/*
 * Chunks smaller than this on average, no thread: handing a chunk over
 * then costs more than walking it (120,000 one-page chunks of 5,000 CPUs
 * took 1.0 s against 0.57 s with the records copied between threads).
 */
#define TDAT_PF_MIN_CHUNK (16U << 10)

/* At most this many bytes of buffers, all CPUs: beyond, no thread. */
#define TDAT_PF_BUDGET (64ULL << 20)

/* A CPU's chunk table, where next_chunk() starts reading it. */
struct tdat_pf_cpu {
	struct tcur chunks; /* after the count of chunks */
	uint64_t nchunks;   /* to read */
	uint64_t max_size;  /* the largest chunk's size, up to TDAT_MAX_CHUNK */
};

struct tdat_prefetch;

struct tdat_prefetch *tdat_prefetch_start(const struct tdat_file *f,
					  const struct tdat_pf_cpu *cpus,
					  int n);
int tdat_prefetch_take(struct tdat_prefetch *pf, int cpu, uint64_t index,
		       uint8_t **buf, size_t *out);
void tdat_prefetch_stop(struct tdat_prefetch *pf);

#endif
