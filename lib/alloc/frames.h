/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Call sites from kernel stacks, for the allocators that read them
 * (KMEM_CAP_STACKS: page, vmalloc): each frame address resolved and
 * matched against the allocator's skip rules once, then found again by
 * hash; the first frame that is not the allocator's own or tracing's is
 * the call site.  And the per-CPU slot of an allocation waiting for the
 * kernel_stack record that follows it.
 */
#ifndef KMEM_FRAMES_H
#define KMEM_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hashtab.h"
#include "event/stackskip.h"
#include "event/symbols.h"

/* A stack frame address, resolved once. */
struct kmem_frame {
	bool skip;		/* allocator or tracing internals */
};

struct kmem_frames {
	struct kmem_frame *v;
	size_t nr, cap;
	struct u64_index ix;	/* by address */
	const struct kmem_symbolizer *sym;
	struct kmem_stackskip skip;
	const char *def;	/* the allocator's default rules */
	struct kmem_frame scratch; /* an answer not cached: no memory */
};

int kmem_frames_init(struct kmem_frames *fr, const struct kmem_symbolizer *sym,
		     const char *regex, const char *def, char *err,
		     size_t errlen);
int kmem_frames_configure(struct kmem_frames *fr,
			  const struct kmem_symbolizer *sym, const char *regex,
			  char *err, size_t errlen);
void kmem_frames_release(struct kmem_frames *fr);
const struct kmem_frame *kmem_frames_info(struct kmem_frames *fr,
					  uint64_t addr);
bool kmem_frames_skipped(struct kmem_frames *fr, uint64_t addr);
uint64_t kmem_frames_caller(struct kmem_frames *fr, const uint64_t *frames,
			    unsigned int n, uint64_t none);
void *kmem_cpu_slot(void **slots, size_t *nr, size_t size, int cpu);

#endif
