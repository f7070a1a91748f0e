/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The small, front-end independent description of one kmem record.
 *
 * Decoders (lib/event/decode.c for libtraceevent records, or a test feeding
 * crafted events) fill it in; the aggregators read it.  Nothing here
 * points outside the record it was decoded from.
 */
#ifndef KMEM_EVENT_H
#define KMEM_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum kmem_ev_kind {
	KMEM_EV_NONE = 0,
	KMEM_EV_SLAB_ALLOC, /* kmalloc*, kmem_cache_alloc* */
	KMEM_EV_SLAB_FREE,  /* kfree, kmem_cache_free */
	KMEM_EV_PAGE_ALLOC, /* mm_page_alloc */
	KMEM_EV_PAGE_FREE,  /* mm_page_free; before 3.3 mm_page_free_direct
			     * and mm_pagevec_free (batched set) */
	KMEM_EV_PAGE_FREE_BATCHED, /* mm_page_free_batched (3.3+): marks the
				    * batched path of a page mm_page_free
				    * also reports; not a free of its own */
	KMEM_EV_PAGE_ZONE_LOCKED,  /* mm_page_alloc_zone_locked */
	KMEM_EV_PAGE_PCPU_DRAIN,   /* mm_page_pcpu_drain */
	KMEM_EV_PAGE_EXTFRAG,	   /* mm_page_alloc_extfrag */
	KMEM_EV_STACK,		   /* ftrace kernel_stack */
	/* the per-CPU allocator's */
	KMEM_EV_PERCPU_ALLOC,	  /* percpu_alloc_percpu */
	KMEM_EV_PERCPU_FREE,	  /* percpu_free_percpu */
	KMEM_EV_PERCPU_FAIL,	  /* percpu_alloc_percpu_fail */
	KMEM_EV_PERCPU_CHUNK_NEW, /* percpu_create_chunk */
	KMEM_EV_PERCPU_CHUNK_DEL, /* percpu_destroy_chunk */
	/* the vmalloc allocator's (vmap areas) */
	KMEM_EV_VMALLOC_ALLOC, /* alloc_vmap_area */
	KMEM_EV_VMALLOC_FREE,  /* free_vmap_area_noflush */
	KMEM_EV_VMALLOC_PURGE, /* purge_vmap_area_lazy */
	KMEM_NR_KINDS,
};

/* Pointers at or below this value are NULL or ZERO_SIZE_PTR. */
#define KMEM_ZERO_SIZE_PTR 16ULL
/*
 * Beyond any kernel (NR_CPUS is at most 8192; the largest kmalloc() is
 * 2^(MAX_PAGE_ORDER + PAGE_SHIFT), 512 MB with 64 KB pages): a record
 * holding more is damaged, and the per-address state is sized for these.
 */
#define KMEM_MAX_CPU 65534
#define KMEM_MAX_OBJECT 0xffffffffULL
/* ... and the largest vmap area: 2^56 bytes, all a 5-level x86-64 has */
#define KMEM_MAX_VMAP (1ULL << 56)

/* How a slab allocation's memory cgroup charge is known. */
#define KMEM_ACCT_UNKNOWN 0	/* the format tells nothing */
#define KMEM_ACCT_FIELD 1	/* its "accounted" field */
#define KMEM_ACCT_GFP 2		/* __GFP_ACCOUNT in gfp_flags */

/* Node value used when the event carries no node field. */
#define KMEM_NO_NODE (-1)

/* Frames kept of a kernel_stack record. */
#define KMEM_MAX_FRAMES 64

struct kmem_event {
	enum kmem_ev_kind kind;
	bool is_cache;		/* kmem_cache_* rather than kmalloc/kfree */
	int cpu;
	int pid;
	int node;		/* requested node, KMEM_NO_NODE if none */
	uint64_t ts;
	uint64_t call_site;
	uint64_t ptr;
	uint64_t bytes_req;
	uint64_t bytes_alloc;
	uint64_t gfp_flags;
	const char *name;	/* cache name inside the record, or NULL */
	bool accounted;		/* charged to a memory cgroup */
	uint8_t acct_how;	/* KMEM_ACCT_*: how that is known */
	/* the bytes the record gives @name, its NUL and any bytes after
	 * it included: kmem_event_name_len() is the name's length */
	unsigned int name_len;

	/* where the record lies in its CPU's buffer (stack adjacency) */
	uint64_t rec_offset;
	unsigned int rec_size;
	bool after_loss;	/* the ring buffer lost events before it */

	/* page allocator events */
	uint64_t pfn;		/* pfn, or struct page address (page_ptr) */
	bool page_ptr;		/* old kernels: a struct page address */
	bool page_valid;	/* false: the allocation failed */
	bool batched;		/* mm_pagevec_free (before 3.3) */
	bool percpu_refill;	/* mm_page_alloc_zone_locked */
	bool change_ownership;	/* mm_page_alloc_extfrag */
	bool fragmenting;	/* ... fallback order < pageblock order */
	bool frag_known;	/* ... the format told the pageblock order */
	int order;
	int migratetype;
	int fallback_order;	/* mm_page_alloc_extfrag */
	int fallback_migratetype;

	/* per-CPU allocator events (bytes_req: the size asked, per CPU) */
	uint64_t align;
	bool reserved;		/* served from the reserved chunk */
	bool atomic;		/* is_atomic: may not sleep */
	bool has_call_site;	/* the format has these fields (6.0+) */
	bool has_bytes_alloc;	/* else bytes_alloc holds bytes_req */
	bool has_align;

	/*
	 * vmalloc events (ptr: the area's start, bytes_req: its size, align;
	 * a purge's range in ptr and pfn): nr_lazy and nr_lazy_max of a
	 * free, the areas purged
	 */
	bool failed;		/* alloc_vmap_area found no room */
	uint32_t npurged;
	uint64_t nr_lazy;	/* pages freed lazily, not yet purged */
	uint64_t nr_lazy_max;	/* ... beyond which a purge runs */

	/* kernel_stack: frames[0] is the innermost */
	unsigned int nr_frames;
	uint64_t frames[KMEM_MAX_FRAMES];
};

/**
 * kmem_event_name_len - the length of an event's cache name
 * @ev: the event
 *
 * Return: the bytes of @ev->name before its first NUL (all of its
 * @ev->name_len bytes when it has none); 0 without a name.
 */
static inline unsigned int kmem_event_name_len(const struct kmem_event *ev)
{
	const char *end;

	if (!ev->name)
		return 0;
	end = (const char *)memchr(ev->name, '\0', ev->name_len);
	return end ? (unsigned int)(end - ev->name) : ev->name_len;
}

/*
 * Zero everything but the frames.  In pieces of 64 bytes, which compilers
 * inline as vector stores: one memset of the whole prefix became
 * "rep stos", 11% of the counting thread of trace-kmem stat (perf).
 */
static inline void kmem_event_clear(struct kmem_event *ev)
{
	char *p = (char *)ev;
	size_t n = offsetof(struct kmem_event, frames), i;

	for (i = 0; i + 64 <= n; i += 64)
		__builtin_memset(p + i, 0, 64);
	__builtin_memset(p + i, 0, n - i);
}

#endif
