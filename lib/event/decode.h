/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Decoding libtraceevent records of the kmem events into struct
 * kmem_event.  Fields are looked up once per event type (struct
 * kmem_fields) and read with libtraceevent's endian-aware readers, so
 * traces from other architectures and older kernels decode the same.
 */
#ifndef KMEM_DECODE_H
#define KMEM_DECODE_H

#include <event-parse.h>

#include "kmem_event.h"

enum kmem_slot {
	KMEM_SLOT_KMALLOC,
	KMEM_SLOT_KMALLOC_NODE,
	KMEM_SLOT_CACHE_ALLOC,
	KMEM_SLOT_CACHE_ALLOC_NODE,
	KMEM_SLOT_KFREE,
	KMEM_SLOT_CACHE_FREE,
	KMEM_NR_SLAB_SLOTS,
	KMEM_SLOT_PAGE_ALLOC = KMEM_NR_SLAB_SLOTS,
	KMEM_SLOT_PAGE_FREE,
	KMEM_SLOT_PAGE_FREE_BATCHED,
	KMEM_SLOT_PAGE_FREE_DIRECT,	/* before 3.3 */
	KMEM_SLOT_PAGEVEC_FREE,		/* before 3.3 */
	KMEM_SLOT_PAGE_ZONE_LOCKED,
	KMEM_SLOT_PAGE_PCPU_DRAIN,
	KMEM_SLOT_PAGE_EXTFRAG,
	KMEM_SLOT_KERNEL_STACK,		/* system "ftrace" */
	KMEM_SLOT_PERCPU_ALLOC,		/* system "percpu" */
	KMEM_SLOT_PERCPU_FREE,
	KMEM_SLOT_PERCPU_FAIL,
	KMEM_SLOT_PERCPU_CREATE_CHUNK,
	KMEM_SLOT_PERCPU_DESTROY_CHUNK,
	KMEM_NR_SLOTS,
};

/* The fields of one event type, found once. */
struct kmem_fields {
	struct tep_event *event;
	enum kmem_slot slot;
	bool usable;		/* all required fields present */
	bool swap;		/* the file's byte order is not ours */
	struct tep_format_field *pid;	/* common_pid */
	/* slab */
	struct tep_format_field *call_site;
	struct tep_format_field *ptr;
	struct tep_format_field *bytes_req;
	struct tep_format_field *bytes_alloc;
	struct tep_format_field *gfp_flags;
	struct tep_format_field *node;	/* optional */
	struct tep_format_field *accounted;	/* optional (6.0) */
	unsigned long long account_bit;	/* else __GFP_ACCOUNT, 0: unknown */
	struct tep_format_field *name;	/* optional */
	/* page allocator: pfn, or page on old kernels */
	struct tep_format_field *page;
	bool page_ptr;
	struct tep_format_field *order;	/* absent: order 0 */
	struct tep_format_field *migratetype;
	struct tep_format_field *percpu_refill;
	struct tep_format_field *fallback_order;
	struct tep_format_field *fallback_migratetype;
	struct tep_format_field *change_ownership;
	int pageblock_order;		/* -1: unknown */
	/* kernel_stack */
	struct tep_format_field *stack_size;
	struct tep_format_field *caller;
	int long_size;
	/* per-CPU allocator (size: bytes_req) */
	struct tep_format_field *align;
	struct tep_format_field *reserved;
	struct tep_format_field *is_atomic;
};

const char *kmem_slot_system(enum kmem_slot slot);
const char *kmem_slot_event_name(enum kmem_slot slot);
bool kmem_slot_is_slab(enum kmem_slot slot);
bool kmem_slot_is_percpu(enum kmem_slot slot);
int kmem_slot_by_name(const char *system, const char *name);
void kmem_fields_init(struct kmem_fields *f, struct tep_event *event,
		      enum kmem_slot slot);
int kmem_decode(const struct kmem_fields *f, const struct tep_record *rec,
		struct kmem_event *ev);

/* decode_page.c */
void kmem_page_fields_init(struct kmem_fields *f);
int kmem_page_decode(const struct kmem_fields *f,
		     const struct tep_record *rec, struct kmem_event *ev);
int kmem_read_call_site(const struct kmem_fields *f,
			const struct tep_record *rec, unsigned long long *val);

/* decode_percpu.c */
void kmem_percpu_fields_init(struct kmem_fields *f);
int kmem_percpu_decode(const struct kmem_fields *f,
		       const struct tep_record *rec, struct kmem_event *ev);

#endif
