// SPDX-License-Identifier: LGPL-2.1
/*
 * Call sites from kernel stacks (see frames.h).
 */
#include <stdlib.h>
#include <string.h>

#include "frames.h"

/**
 * kmem_frames_init - an empty frame cache with its skip rules
 * @fr: the cache
 * @sym: resolves frames (kept; may be NULL: no frame is skipped)
 * @regex: frames to skip (POSIX extended), NULL for @def
 * @def: the allocator's default rules
 * @err: set to the regex error, if any
 * @errlen: size of @err
 *
 * Return: 0, or -1 if @regex does not compile (@def applies then).
 */
int kmem_frames_init(struct kmem_frames *fr, const struct kmem_symbolizer *sym,
		     const char *regex, const char *def, char *err,
		     size_t errlen)
{
	memset(fr, 0, sizeof(*fr));
	fr->sym = sym;
	fr->def = def;
	return kmem_stackskip_init(&fr->skip, regex, def, err, errlen);
}

/**
 * kmem_frames_configure - new symbols and skip rules, the same default
 * @fr: the cache, kmem_frames_init() done (what it holds is dropped)
 * @sym: resolves frames (kept; may be NULL: no frame is skipped)
 * @regex: frames to skip (POSIX extended), NULL for the default rules
 *	kmem_frames_init() was given
 * @err: set to the regex error, if any
 * @errlen: size of @err
 *
 * Return: 0, or -1 if @regex does not compile (the default applies then).
 */
int kmem_frames_configure(struct kmem_frames *fr,
			  const struct kmem_symbolizer *sym, const char *regex,
			  char *err, size_t errlen)
{
	const char *def = fr->def;

	kmem_frames_release(fr);
	return kmem_frames_init(fr, sym, regex, def, err, errlen);
}

/**
 * kmem_frames_release - free the cache and its rules
 * @fr: the cache
 */
void kmem_frames_release(struct kmem_frames *fr)
{
	u64_index_free(&fr->ix);
	free(fr->v);
	kmem_stackskip_release(&fr->skip);
	memset(fr, 0, sizeof(*fr));
}

/**
 * kmem_frames_info - what is known of a frame address
 * @fr: the cache
 * @addr: the address
 *
 * Resolved and matched against the skip rules the first time only (each
 * time when there is no memory to keep the answer).
 *
 * Return: its entry, valid until the next call.
 */
const struct kmem_frame *kmem_frames_info(struct kmem_frames *fr,
					  uint64_t addr)
{
	const char *name = NULL;
	uint64_t start = addr;
	struct kmem_frame *f;
	bool added;
	uint32_t i = index_get(&fr->ix, (void **)&fr->v, &fr->cap, &fr->nr,
			       sizeof(*fr->v), addr, &added);

	if (i != U64_INDEX_NONE && !added)
		return &fr->v[i];
	f = i == U64_INDEX_NONE ? &fr->scratch : &fr->v[i];
	if (fr->sym && fr->sym->resolve)
		name = fr->sym->resolve(fr->sym->priv, addr, &start);
	f->skip = name && kmem_stackskip_match(&fr->skip, name);
	return f;
}

/**
 * kmem_frames_skipped - is a stack frame tracing or allocator internals?
 * @fr: the cache (its skip rules and symbols)
 * @addr: the frame's address
 *
 * Return: true if the skip rules match its function (the call site is
 * further out); false for an unknown address too.
 */
bool kmem_frames_skipped(struct kmem_frames *fr, uint64_t addr)
{
	return kmem_frames_info(fr, addr)->skip;
}

/**
 * kmem_frames_caller - the call site of a stack
 * @fr: the cache
 * @frames: the stack, innermost first
 * @n: its frames
 * @none: what a stack without a call site gives
 *
 * Return: the first frame that is neither tracing nor allocator
 * internals (its return address, sym+0xoff), the last if all are;
 * @none for an empty stack.
 */
uint64_t kmem_frames_caller(struct kmem_frames *fr, const uint64_t *frames,
			    unsigned int n, uint64_t none)
{
	uint64_t cs = none;
	unsigned int i;

	for (i = 0; i < n; i++) {
		cs = frames[i];
		if (!kmem_frames_info(fr, frames[i])->skip)
			break;
	}
	return cs;
}

/**
 * kmem_cpu_slot - a CPU's slot in an array grown on demand
 * @slots: the array (may be moved)
 * @nr: its slots (grown: new ones are zero)
 * @size: the size of a slot
 * @cpu: the CPU
 *
 * Return: the slot, or NULL: a CPU out of range, or memory ran out.
 */
void *kmem_cpu_slot(void **slots, size_t *nr, size_t size, int cpu)
{
	size_t n = *nr;
	char *p;

	if (cpu < 0 || cpu >= 65536)
		return NULL;
	if ((size_t)cpu >= n) {
		while (n <= (size_t)cpu)
			n = n ? n * 2 : 64;
		p = realloc(*slots, n * size);
		if (!p)
			return NULL;
		memset(p + *nr * size, 0, (n - *nr) * size);
		*slots = p;
		*nr = n;
	}
	return (char *)*slots + (size_t)cpu * size;
}
