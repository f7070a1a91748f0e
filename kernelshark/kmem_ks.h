/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The KernelShark plugin "kmem": allocations linked to their frees on
 * the graph, the allocations never freed marked, live memory drawn over
 * time.  Shared by its C side (the event handler while KernelShark
 * loads, the follow pass over lib/) and its C++ side (drawing, menu).
 *
 * While KernelShark loads a trace it calls our handler for every entry
 * of an allocator event, CPU by CPU in file order: the handler keeps the
 * entry and a copy of its record.  The follow pass gives the records to
 * lib/, the code of the tables, in time order: what it matches becomes
 * links and leaks, its live bytes the curves.  It runs in a thread of
 * its own from the moment the last CPU's entries come, and the first
 * drawing waits for it; the copies are freed as it reads them.
 * Following again (another call site in the dialog) reads the records
 * from the file through libtracecmd, each tied to the entry KernelShark
 * made of it by CPU and file offset.
 */
#ifndef KMEM_KS_H
#define KMEM_KS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc_view.h"
#include "event/events.h"
#include "libkshark.h"
#include "libkshark-plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tep_handle;

/* The event types whose entries the handler keeps (lib's slots). */
#define KMEM_KS_MAX_EVENTS 24

/* What became of an allocation. */
enum kmem_ks_fate {
	KMEM_KS_LIVE,  /* not freed (yet), or its free was missed */
	KMEM_KS_FREED, /* a link */
	KMEM_KS_LEAK,  /* live at the end of the trace */
};

/* One allocation, with its free or without (a leak): 40 bytes. */
struct kmem_ks_pair {
	struct kshark_entry *alloc;
	struct kshark_entry *free; /* NULL: never freed in the trace */
	uint64_t bytes;		   /* as the tables count them */
	uint64_t call_site;	   /* 0: not known (pages without stacks) */
	uint8_t allocator;	   /* enum kmem_alloc_id */
	uint8_t fate;		   /* enum kmem_ks_fate */
	uint16_t order;		   /* KMEM_CAP_ORDERS: the order */
};

/* The allocations of one CPU, in time order. */
struct kmem_ks_list {
	struct kmem_ks_pair *p;
	size_t n, cap;
};

/* A CPU's record copies (copies.c), until the first follow pass. */
struct kmem_ks_block;
struct kmem_ks_copies {
	struct kmem_ks_block *head, *tail;
	size_t count; /* copies written */
};

/* Where the reader of copies is. */
struct kmem_ks_cursor {
	struct kmem_ks_block *b;
	size_t pos;
};

struct kmem_ks_worker;

/* Live bytes after each event that changed them (16 bytes a change). */
struct kmem_ks_point {
	int64_t ts;
	uint64_t bytes;
};

struct kmem_ks_series {
	struct kmem_ks_point *p;
	size_t n, cap;
	uint64_t max;
};

/* A call site the dialog offers, by its highest live bytes. */
struct kmem_ks_site {
	uint64_t call_site;
	uint64_t peak_bytes;
	uint32_t allocator; /* enum kmem_alloc_id */
	char name[128];	    /* "sym+0xoff", or the address */
};

struct kmem_ks_counts {
	uint64_t pairs[KMEM_NR_ALLOC];	  /* matched allocation -> free */
	uint64_t pingpong[KMEM_NR_ALLOC]; /* ... freed on another CPU */
	uint64_t leaks[KMEM_NR_ALLOC];	  /* live at the end of the trace */
	uint64_t leak_bytes[KMEM_NR_ALLOC];
	uint64_t live_bytes[KMEM_NR_ALLOC]; /* at the last entry */
	uint64_t records;		    /* allocator records followed */
	uint64_t undecodable;
};

/* Which marks are drawn (the dialog's check boxes). */
#define KMEM_KS_SHOW_LINKS 1
#define KMEM_KS_SHOW_LEAKS 2
#define KMEM_KS_SHOW_LIVE 4

/* The colour of the chosen call site's curve (0xRRGGBB). */
#define KMEM_KS_SITE_RGB 0xff6f00

struct kmem_ks_ctx {
	int sd;
	struct kshark_data_stream *stream;
	int ids[KMEM_KS_MAX_EVENTS]; /* event ids with our handler */
	int nr_ids;

	/* kept by the handler: the allocator entries of each CPU */
	int n_cpus;
	struct kshark_entry ***cpu_ents;
	size_t *cpu_len, *cpu_cap;
	int64_t *cpu_last;		/* the offset of each CPU's last kept */
	struct kmem_ks_copies *cpu_raw; /* their records, until followed */
	struct kmem_ks_worker *worker;	/* the pass beside the loading */
	int max_size;			/* no record is larger than a page */
	unsigned int page;		/* nor runs past it: kmem_page_bound() */
	bool oom;

	/* made by the follow pass */
	bool followed;
	bool failed;		    /* said why on stderr, draws nothing */
	bool said_undecodable;	    /* ... that records were left out */
	bool said_skipped;	    /* ... that records were skipped */
	struct kmem_ks_list *links; /* [allocating CPU] */
	struct kmem_ks_list *leaks; /* [allocating CPU] */
	struct kmem_ks_series live[KMEM_NR_ALLOC];
	struct kmem_ks_series site_live; /* of the chosen call site */
	int64_t max_life;		 /* the longest matched lifetime */
	int64_t end_ts;			 /* the last allocator entry's time */
	struct kmem_ks_counts counts;
	struct kmem_ks_site *sites; /* by peak (kmem_alloc_site_ix()) */
	size_t nr_sites;

	/* the dialog's choices */
	uint64_t site; /* call site to draw, 0: none */
	uint32_t site_allocator;
	unsigned int show; /* KMEM_KS_SHOW_* */
};

/* What tools reading traces through libkshark may dlsym() (tests). */
#define KMEM_KS_EXPORT __attribute__((visibility("default")))

/* plugin.c: the context of a stream */
struct kmem_ks_ctx *kmem_ks_of(int sd);

/* plugin.c */
void kmem_ks_drop_copies(struct kmem_ks_ctx *ks);
bool kmem_ks_check_file(const char *path, struct tep_handle *tep);

/* copies.c */
struct tep_record;
int kmem_ks_copy(struct kmem_ks_copies *a, const struct tep_record *rec,
		 struct kshark_entry *e, int max_size, unsigned int page);
struct kshark_entry *kmem_ks_copy_read(struct kmem_ks_cursor *c,
				       struct kmem_ks_copies *a,
				       struct tep_record *rec);
void kmem_ks_copies_free(struct kmem_ks_copies *a);

/* follow.c */
int kmem_ks_follow(struct kmem_ks_ctx *ks);
void kmem_ks_unfollow(struct kmem_ks_ctx *ks);
bool kmem_ks_ready(struct kmem_ks_ctx *ks);
void kmem_ks_follow_start(struct kmem_ks_ctx *ks);
void kmem_ks_follow_publish(struct kmem_ks_ctx *ks);
void kmem_ks_follow_stop(struct kmem_ks_ctx *ks);

/* plugin.c, for the dialog and tools: the context of a stream, followed */
KMEM_KS_EXPORT const struct kmem_ks_ctx *kmem_ks_stream(int sd);
KMEM_KS_EXPORT int kmem_ks_choose_site(int sd, uint64_t call_site,
				       uint32_t allocator);

/* describe.c */
KMEM_KS_EXPORT int kmem_ks_describe(const struct kmem_ks_ctx *ks,
				    const struct kmem_ks_pair *p, char *buf,
				    size_t len);
KMEM_KS_EXPORT int kmem_ks_describe_curve(const struct kmem_ks_ctx *ks,
					  unsigned int which, char *buf,
					  size_t len);
KMEM_KS_EXPORT const struct kmem_ks_pair *
kmem_ks_find(const struct kmem_ks_ctx *ks, const struct kshark_entry *e);

/* A graph's time range cut in bins, as KernelShark's histogram has it. */
struct kmem_ks_view {
	int64_t min, max; /* the first and last time in view, ns */
	int64_t bin_size; /* ns */
	int n_bins;
};

/* The links allocated in one bin of a view (density.c). */
struct kmem_ks_bin {
	uint32_t allocs;		    /* links that start in the bin */
	uint32_t pingpong;		    /* of those, freed on another CPU */
	const struct kmem_ks_pair *longest; /* the longest lived, or NULL */
};

/* density.c */
KMEM_KS_EXPORT int kmem_ks_bin_of(const struct kmem_ks_view *v, int64_t ts);
KMEM_KS_EXPORT uint32_t kmem_ks_bins(const struct kmem_ks_pair *const *in,
				     size_t n, const struct kmem_ks_view *v,
				     struct kmem_ks_bin *out);

/* draw.cpp */
void kmem_ks_draw(struct kshark_cpp_argv *argv, int sd, int val,
		  int draw_action);

/* gui.cpp */
void *kmem_ks_add_menu(void *gui);
void kmem_ks_show_numbers(const struct kmem_ks_ctx *ks,
			  const struct kmem_ks_pair *p);

#ifdef __cplusplus
}
#endif

#endif
