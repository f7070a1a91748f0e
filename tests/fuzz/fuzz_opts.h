/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The report options a fuzzing input picks with one byte, for both
 * targets: bit 0 caller, 1 alloc, 2 cache, 3 page, 4 live and
 * lifetimes, 5 per-process and leaks (an age of 1 us with bit 0, else
 * 0), 6 merge-pids, 7 raw-ip; all rows when caller or alloc, else 5;
 * a pprof profile with bit 3 (stacks kept live, as pprof= keeps them).  The
 * aggregate keeps per-address rows or not from the same options
 * (kmem_agg_keep_rows()), before its first event.
 */
#ifndef FUZZ_OPTS_H
#define FUZZ_OPTS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options/options.h"

static inline void fuzz_opts(struct kmem_opts *o, uint8_t flags)
{
	kmem_opts_init(o);
	o->stat = true;
	o->caller = flags & 1;
	o->alloc = flags & 2;
	o->cache = flags & 4;
	o->allocator[KMEM_ALLOC_PAGE] = flags & 8;
	o->live = flags & 16;
	o->per_process = flags & 32;
	o->merge_pids = flags & 64;
	o->raw_ip = flags & 128;
	o->lifetimes = flags & 16;
	o->leaks = flags & 32;
	o->leak_age = flags & 1 ? 1000 : 0;
	o->lines = flags & 3 ? 0 : 5;
	if (flags & 8) {
		o->pprof = strdup("-");
		if (!o->pprof)
			abort(); /* out of memory: not the input's doing */
	}
}

#endif
