/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The follow pass's state, shared by follow.c (the records through lib/),
 * follow_result.c (leaks, call sites and links made of what it found)
 * and follow_thread.c (the pass beside KernelShark's loading).
 */
#ifndef KMEM_KS_FOLLOW_H
#define KMEM_KS_FOLLOW_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

#include "analysis/agg.h"
#include "event/symbols.h"
#include "feed/loop.h"
#include "kmem_ks.h"

struct follow {
	struct kmem_ks_ctx *ks;
	struct tep_handle *tep;
	struct kmem_feed feed; /* event id -> decode -> agg */
	size_t *next;	       /* [cpu]: the next kept entry */
	struct kmem_agg agg;
	struct kmem_symbolizer sym;
	struct kmem_match m;
	/*
	 * [allocator][object]: its latest allocation, CPU << 32 | index in
	 * ks->links[CPU], where every allocation is kept until the end
	 */
	uint64_t *obj_alloc[KMEM_NR_ALLOC];
	size_t obj_cap[KMEM_NR_ALLOC];
	uint32_t site_row; /* the chosen site's row, or NONE */
	size_t seen;	   /* the last CPU's copies published */
	int max_size;	   /* no record is larger than a page */
	bool oom;
	uint64_t unmatched; /* records without their entry */
};

/*
 * The pass beside KernelShark's loading: started when the last CPU's
 * first entry comes, it reads the other CPUs' copies, complete by then,
 * and the last CPU's as the event handler publishes them (every 256).
 */
struct kmem_ks_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more;
	size_t published; /* copies of the last CPU it may read */
	bool closed;	  /* no more will come */
	bool abort;	  /* stop: the result is thrown away */
	struct follow *fw;
	int ret;
};

uint64_t kmem_ks_site_address(const struct follow *fw, int a, uint32_t site);
struct kmem_ks_pair *kmem_ks_alloc_of(struct follow *fw, int a, uint32_t obj);
int kmem_ks_read_copies(struct follow *fw);
struct follow *kmem_ks_begin(struct kmem_ks_ctx *ks);
int kmem_ks_finish(struct kmem_ks_ctx *ks, struct follow *fw, int ret);
void kmem_ks_teardown(struct follow *fw);
int kmem_ks_split_links(struct follow *fw);
void kmem_ks_find_leaks(struct follow *fw);
void kmem_ks_list_sites(struct follow *fw);

#endif
