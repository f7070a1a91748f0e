/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the kmem decoding tests (test_decode.c, test_decode_fields.c,
 * test_decode_cut.c) share: the format files (decode_formats.c), the
 * field layouts of each kernel (decode_layouts.c), and records built
 * from them, decoded before an unreadable page, and the stream every
 * layout replays (decode_records.c).
 */
#ifndef KMEM_TEST_DECODE_UTIL_H
#define KMEM_TEST_DECODE_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include <event-parse.h>

#include "event/decode.h"

/* ------------------------------------------------------------------ */
/* Layouts: where each field is, as the format files say               */

struct fpos {
	int off;
	int size;	/* 0: the event has no such field */
};

struct ev_layout {
	int id;		/* 0: the kernel has no such event */
	int end;	/* size of the fixed part; a string follows it */
	struct fpos call_site, ptr, name, bytes_req, bytes_alloc, gfp, node,
		accounted;
};

enum names {
	NAMES_NONE,	/* no event names its cache */
	NAMES_FREE,	/* only kmem_cache_free (5.12 - 6.17) */
	NAMES_BOTH,	/* kmem_cache_alloc and kmem_cache_free (6.18) */
};

struct layout {
	const char *label;
	const char *file;
	int long_size;
	bool big_endian;
	int lock_depth;		/* offset of common_lock_depth, 0: none */
	bool rel_loc;		/* names are __rel_loc, not __data_loc */
	enum names names;
	uint64_t site_base;	/* kernel text */
	uint64_t ptr_base;	/* slab objects */
	struct ev_layout ev[KMEM_NR_SLOTS];
};

#define F(o, s) { (o), (s) }

/* decode_layouts.c */
extern const struct layout linux_2_6_32, linux_5_15, linux_6_0, linux_6_1_ppc32,
	linux_6_18, linux_6_18_be64, synthetic_rel_loc;

void check_fields(const struct layout *L, struct tep_handle *tep,
		  struct kmem_fields *fields);

/* Records */

struct rec {
	unsigned char d[512];
	int len;
};

enum op_kind { OP_KMALLOC, OP_CACHE_ALLOC, OP_KFREE, OP_CACHE_FREE };

#define NO_NODE (-1)	/* NUMA_NO_NODE, as the kernel traces it */
#define P_NULL 0	/* object numbers: 0 is NULL, */
#define P_ZERO (-1)	/* -1 is ZERO_SIZE_PTR */
#define GFP_KERNEL 0xcc0ULL
#define GFP_ATOMIC 0xa20ULL

/* One kmem call of the stream, independent of the kernel's layout. */
struct op {
	enum op_kind kind;
	uint64_t ts;
	int cpu;
	int pid;
	int site;	/* call site number, see site_addr() */
	int obj;	/* object number, see obj_addr() */
	uint64_t req;
	uint64_t alloc;
	uint64_t gfp;
	int node;	/* NO_NODE: kmalloc / kmem_cache_alloc */
	const char *cache;
};

#define FAULTED (-100)

/* decode_records.c: the stream, see there */
extern const struct op stream[15];

#define NR_STREAM ((int)(sizeof(stream) / sizeof(stream[0])))

uint64_t site_addr(const struct layout *L, int site);
uint64_t obj_addr(const struct layout *L, int obj);
enum kmem_slot op_slot(const struct layout *L, const struct op *o);
void build(const struct layout *L, enum kmem_slot slot, const struct op *o,
	   struct rec *r);
void set_record(struct tep_record *tr, void *data, int len, const struct op *o);
int guard_init(void);
int guarded_call_site(const struct kmem_fields *f, const void *bytes, int len,
		      unsigned long long *val);
int decode_bytes(const struct kmem_fields *f, const void *bytes, int len,
		 struct kmem_event *ev);

/* decode_formats.c */
void find_formats_dir(const char *argv0);
struct tep_handle *new_tep(int long_size, bool big_endian);
void parse_one(struct tep_handle *tep, const char *text, size_t len);
struct tep_handle *load_formats(const char *file, int long_size,
				bool big_endian);

#endif
