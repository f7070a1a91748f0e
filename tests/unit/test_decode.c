// SPDX-License-Identifier: LGPL-2.1
/*
 * Decoding kmem records of several kernel generations and machines.
 *
 * The event formats (tests/formats/, see the README there) are parsed
 * into a tep handle as the trace would carry them; records are built
 * byte by byte at the offsets those formats give, in the byte order of
 * the traced machine, then go through kmem_fields_init(), kmem_decode()
 * and kmem_agg_event().  Every layout replays the same 15-record stream,
 * whose statistics were counted by hand (see stream[] and
 * check_stream_stats()).
 *
 * Records that end early are decoded with their last byte just before
 * an unreadable page, so any read past the record faults; the fault is
 * caught and reported as a failure instead of killing the program.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <event-parse.h>

#include "analysis/agg.h"
#include "event/decode.h"
#include "unit.h"

/* ------------------------------------------------------------------ */
/* Format files                                                        */

static char formats_dir[4096];

static bool dir_has_formats(const char *dir)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/linux-6.18-x86_64.txt", dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	fclose(f);
	return true;
}

/* $TOP/tests/formats (tests/run.sh), ./tests/formats, or next to argv[0] */
static void find_formats_dir(const char *argv0)
{
	const char *top = getenv("TOP");
	const char *slash;

	if (top) {
		snprintf(formats_dir, sizeof(formats_dir), "%s/tests/formats",
			 top);
		if (dir_has_formats(formats_dir))
			return;
	}
	snprintf(formats_dir, sizeof(formats_dir), "tests/formats");
	if (dir_has_formats(formats_dir))
		return;
	slash = strrchr(argv0, '/');
	snprintf(formats_dir, sizeof(formats_dir), "%.*s/../../tests/formats",
		 slash ? (int)(slash - argv0) : 1, slash ? argv0 : ".");
}

static char *read_text(const char *name)
{
	char path[4400];
	char *buf;
	long len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", formats_dir, name);
	f = fopen(path, "rb");
	if (!f) {
		printf("  cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[len] = '\0';
	fclose(f);
	return buf;
}

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

static struct tep_handle *new_tep(int long_size, bool big_endian)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_long_size(tep, long_size);
	tep_set_file_bigendian(tep, big_endian ? TEP_BIG_ENDIAN :
						 TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big_endian() ? TEP_BIG_ENDIAN :
							 TEP_LITTLE_ENDIAN);
	return tep;
}

/* Parse one event format given as a string; counts a failure if bad. */
static void parse_one(struct tep_handle *tep, const char *text, size_t len)
{
	enum tep_errno err = tep_parse_event(tep, text, len, "kmem");

	if (err) {
		char msg[128];

		tep_strerror(tep, err, msg, sizeof(msg));
		printf("  tep_parse_event: %s in:\n%.*s\n", msg,
		       (int)(len > 200 ? 200 : len), text);
		unit_failed++;
	}
}

/* A tep handle with every event of a format file. */
static struct tep_handle *load_formats(const char *file, int long_size,
				       bool big_endian)
{
	struct tep_handle *tep;
	char *text = read_text(file);
	char *p, *next;

	if (!text) {
		unit_failed++;
		return NULL;
	}
	tep = new_tep(long_size, big_endian);
	for (p = text; tep && *p; p = next) {
		next = strstr(p, "\nname: ");
		next = next ? next + 1 : p + strlen(p);
		parse_one(tep, p, (size_t)(next - p));
	}
	free(text);
	return tep;
}

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

static const struct layout linux_2_6_32 = {
	.label = "2.6.32 x86_64",
	.file = "linux-2.6.32-x86_64.txt",
	.long_size = 8,
	.lock_depth = 8,
	.names = NAMES_NONE,
	.site_base = 0xffffffff81000000ULL,
	.ptr_base = 0xffff880037000000ULL,
	.ev = {
		[KMEM_SLOT_KMALLOC] = { .id = 212, .end = 56,
			.call_site = F(16, 8), .ptr = F(24, 8),
			.bytes_req = F(32, 8), .bytes_alloc = F(40, 8),
			.gfp = F(48, 4) },
		[KMEM_SLOT_CACHE_ALLOC] = { .id = 211, .end = 56,
			.call_site = F(16, 8), .ptr = F(24, 8),
			.bytes_req = F(32, 8), .bytes_alloc = F(40, 8),
			.gfp = F(48, 4) },
		[KMEM_SLOT_KMALLOC_NODE] = { .id = 210, .end = 56,
			.call_site = F(16, 8), .ptr = F(24, 8),
			.bytes_req = F(32, 8), .bytes_alloc = F(40, 8),
			.gfp = F(48, 4), .node = F(52, 4) },
		[KMEM_SLOT_CACHE_ALLOC_NODE] = { .id = 209, .end = 56,
			.call_site = F(16, 8), .ptr = F(24, 8),
			.bytes_req = F(32, 8), .bytes_alloc = F(40, 8),
			.gfp = F(48, 4), .node = F(52, 4) },
		[KMEM_SLOT_KFREE] = { .id = 208, .end = 32,
			.call_site = F(16, 8), .ptr = F(24, 8) },
		[KMEM_SLOT_CACHE_FREE] = { .id = 207, .end = 32,
			.call_site = F(16, 8), .ptr = F(24, 8) },
	},
};

static const struct layout linux_5_15 = {
	.label = "5.15 x86_64",
	.file = "linux-5.15-x86_64.txt",
	.long_size = 8,
	.names = NAMES_FREE,
	.site_base = 0xffffffff81000000ULL,
	.ptr_base = 0xffff888100000000ULL,
	.ev = {
		[KMEM_SLOT_KMALLOC] = { .id = 488, .end = 48,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),
			.gfp = F(40, 4) },
		[KMEM_SLOT_CACHE_ALLOC] = { .id = 487, .end = 48,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),
			.gfp = F(40, 4) },
		[KMEM_SLOT_KMALLOC_NODE] = { .id = 486, .end = 48,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),
			.gfp = F(40, 4), .node = F(44, 4) },
		[KMEM_SLOT_CACHE_ALLOC_NODE] = { .id = 485, .end = 48,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),
			.gfp = F(40, 4), .node = F(44, 4) },
		[KMEM_SLOT_KFREE] = { .id = 484, .end = 24,
			.call_site = F(8, 8), .ptr = F(16, 8) },
		[KMEM_SLOT_CACHE_FREE] = { .id = 483, .end = 32,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.name = F(24, 4) },
	},
};

static const struct layout linux_6_0 = {
	.label = "6.0 x86_64",
	.file = "linux-6.0-x86_64.txt",
	.long_size = 8,
	.names = NAMES_FREE,
	.site_base = 0xffffffff81000000ULL,
	.ptr_base = 0xffff888100000000ULL,
	.ev = {
		[KMEM_SLOT_KMALLOC] = { .id = 570, .end = 56,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),
			.gfp = F(40, 8), .accounted = F(48, 1) },
		[KMEM_SLOT_CACHE_ALLOC] = { .id = 569, .end = 56,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),
			.gfp = F(40, 8), .accounted = F(48, 1) },
		[KMEM_SLOT_KMALLOC_NODE] = { .id = 568, .end = 56,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),
			.gfp = F(40, 8), .node = F(48, 4),
			.accounted = F(52, 1) },
		[KMEM_SLOT_CACHE_ALLOC_NODE] = { .id = 567, .end = 56,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),
			.gfp = F(40, 8), .node = F(48, 4),
			.accounted = F(52, 1) },
		[KMEM_SLOT_KFREE] = { .id = 566, .end = 24,
			.call_site = F(8, 8), .ptr = F(16, 8) },
		[KMEM_SLOT_CACHE_FREE] = { .id = 565, .end = 32,
			.call_site = F(8, 8), .ptr = F(16, 8),
			.name = F(24, 4) },
	},
};

/* 32-bit big-endian: every long and pointer is 4 bytes */
static const struct layout linux_6_1_ppc32 = {
	.label = "6.1 ppc32 (32-bit big-endian)",
	.file = "linux-6.1-ppc32.txt",
	.long_size = 4,
	.big_endian = true,
	.names = NAMES_FREE,
	.site_base = 0xc0000000ULL,
	.ptr_base = 0xdf000000ULL,
	.ev = {
		[KMEM_SLOT_KMALLOC] = { .id = 409, .end = 32,
			.call_site = F(8, 4), .ptr = F(12, 4),
			.bytes_req = F(16, 4), .bytes_alloc = F(20, 4),
			.gfp = F(24, 4), .node = F(28, 4) },
		[KMEM_SLOT_CACHE_ALLOC] = { .id = 408, .end = 36,
			.call_site = F(8, 4), .ptr = F(12, 4),
			.bytes_req = F(16, 4), .bytes_alloc = F(20, 4),
			.gfp = F(24, 4), .node = F(28, 4),
			.accounted = F(32, 1) },
		[KMEM_SLOT_KFREE] = { .id = 407, .end = 16,
			.call_site = F(8, 4), .ptr = F(12, 4) },
		[KMEM_SLOT_CACHE_FREE] = { .id = 406, .end = 20,
			.call_site = F(8, 4), .ptr = F(12, 4),
			.name = F(16, 4) },
	},
};

#define EV_6_18 {							\
	[KMEM_SLOT_KMALLOC] = { .id = 658, .end = 56,			\
		.call_site = F(8, 8), .ptr = F(16, 8),			\
		.bytes_req = F(24, 8), .bytes_alloc = F(32, 8),		\
		.gfp = F(40, 8), .node = F(48, 4) },			\
	[KMEM_SLOT_CACHE_ALLOC] = { .id = 659, .end = 64,		\
		.call_site = F(8, 8), .ptr = F(16, 8),			\
		.name = F(24, 4),					\
		.bytes_req = F(32, 8), .bytes_alloc = F(40, 8),		\
		.gfp = F(48, 8), .node = F(56, 4),			\
		.accounted = F(60, 1) },				\
	[KMEM_SLOT_KFREE] = { .id = 657, .end = 24,			\
		.call_site = F(8, 8), .ptr = F(16, 8) },		\
	[KMEM_SLOT_CACHE_FREE] = { .id = 656, .end = 32,		\
		.call_site = F(8, 8), .ptr = F(16, 8),			\
		.name = F(24, 4) },					\
}

static const struct layout linux_6_18 = {
	.label = "6.18 x86_64",
	.file = "linux-6.18-x86_64.txt",
	.long_size = 8,
	.names = NAMES_BOTH,
	.site_base = 0xffffffff81000000ULL,
	.ptr_base = 0xffff888100000000ULL,
	.ev = EV_6_18,
};

/* The same format read as a 64-bit big-endian (s390x-style) trace */
static const struct layout linux_6_18_be64 = {
	.label = "6.18 s390x-style (64-bit big-endian)",
	.file = "linux-6.18-x86_64.txt",
	.long_size = 8,
	.big_endian = true,
	.names = NAMES_BOTH,
	.site_base = 0x0000000000100000ULL,
	.ptr_base = 0x0000000080000000ULL,
	.ev = EV_6_18,
};

static const struct layout synthetic_rel_loc = {
	.label = "6.18 with __rel_loc names (synthetic)",
	.file = "synthetic-rel_loc-x86_64.txt",
	.long_size = 8,
	.rel_loc = true,
	.names = NAMES_BOTH,
	.site_base = 0xffffffff81000000ULL,
	.ptr_base = 0xffff888100000000ULL,
	.ev = EV_6_18,
};

/* ------------------------------------------------------------------ */
/* Building records                                                    */

struct rec {
	unsigned char d[512];
	int len;
};

/* Store @v in @size bytes at @off, in the traced machine's byte order. */
static void put(const struct layout *L, struct rec *r, struct fpos p,
		uint64_t v)
{
	int i;

	for (i = 0; i < p.size; i++) {
		int shift = L->big_endian ? (p.size - 1 - i) * 8 : i * 8;

		r->d[p.off + i] = (unsigned char)(v >> shift);
	}
}

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

static uint64_t site_addr(const struct layout *L, int site)
{
	return L->site_base + 0x1000ULL * (uint64_t)site + 0x1a;
}

static uint64_t obj_addr(const struct layout *L, int obj)
{
	if (obj == P_NULL)
		return 0;
	if (obj == P_ZERO)
		return 16;
	return L->ptr_base + 0x1000ULL * (uint64_t)obj;
}

/* Which event the kernel of @L traces for @o. */
static enum kmem_slot op_slot(const struct layout *L, const struct op *o)
{
	switch (o->kind) {
	case OP_KMALLOC:
		return o->node != NO_NODE && L->ev[KMEM_SLOT_KMALLOC_NODE].id ?
			       KMEM_SLOT_KMALLOC_NODE :
			       KMEM_SLOT_KMALLOC;
	case OP_CACHE_ALLOC:
		return o->node != NO_NODE &&
				       L->ev[KMEM_SLOT_CACHE_ALLOC_NODE].id ?
			       KMEM_SLOT_CACHE_ALLOC_NODE :
			       KMEM_SLOT_CACHE_ALLOC;
	case OP_KFREE:
		return KMEM_SLOT_KFREE;
	case OP_CACHE_FREE:
		break;
	}
	return KMEM_SLOT_CACHE_FREE;
}

static void build(const struct layout *L, enum kmem_slot slot,
		  const struct op *o, struct rec *r)
{
	const struct ev_layout *e = &L->ev[slot];

	memset(r, 0, sizeof(*r));
	put(L, r, (struct fpos)F(0, 2), (uint64_t)e->id);	/* common_type */
	put(L, r, (struct fpos)F(2, 1), 0x01);		/* common_flags */
	put(L, r, (struct fpos)F(4, 4), (uint64_t)o->pid);	/* common_pid */
	if (L->lock_depth)
		put(L, r, (struct fpos)F(L->lock_depth, 4), 0xffffffffULL);
	put(L, r, e->call_site, site_addr(L, o->site));
	put(L, r, e->ptr, obj_addr(L, o->obj));
	put(L, r, e->bytes_req, o->req);
	put(L, r, e->bytes_alloc, o->alloc);
	put(L, r, e->gfp, o->gfp);
	put(L, r, e->node, (uint64_t)(int64_t)o->node);
	put(L, r, e->accounted, 0);
	r->len = e->end;
	if (e->name.size && o->cache) {
		unsigned int n = (unsigned int)strlen(o->cache) + 1;
		unsigned int off = (unsigned int)e->end;

		if (L->rel_loc)	/* relative to the end of the field */
			off -= (unsigned int)(e->name.off + e->name.size);
		put(L, r, e->name, (uint64_t)n << 16 | off);
		memcpy(r->d + e->end, o->cache, n);
		r->len += (int)n;
	}
}

static void set_record(struct tep_record *tr, void *data, int len,
		       const struct op *o)
{
	memset(tr, 0, sizeof(*tr));
	tr->data = data;
	tr->size = len;
	tr->cpu = o->cpu;
	tr->ts = o->ts;
}

/* ------------------------------------------------------------------ */
/* Fault-guarded decoding                                              */

static unsigned char *guard_area;	/* a readable page, then a dead one */
static long guard_page;
static sigjmp_buf fault_jmp;
static volatile sig_atomic_t fault_armed;

static void on_fault(int sig)
{
	if (fault_armed)
		siglongjmp(fault_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int guard_init(void)
{
	struct sigaction sa;

	guard_page = sysconf(_SC_PAGESIZE);
	guard_area = mmap(NULL, (size_t)guard_page * 2, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard_area == MAP_FAILED ||
	    mprotect(guard_area + guard_page, (size_t)guard_page, PROT_NONE))
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fault;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	return 0;
}

/* Copy @len bytes so that they end where the unreadable page begins. */
static void *guarded_copy(const void *bytes, int len)
{
	unsigned char *p = guard_area + guard_page - len;

	memcpy(p, bytes, (size_t)len);
	return p;
}

#define FAULTED (-100)

/* kmem_decode() of @len bytes ending at the dead page; FAULTED if it
 * read past them. */
static int guarded_decode(const struct kmem_fields *f, const void *bytes,
			  int len, const struct op *o, struct kmem_event *ev)
{
	struct tep_record tr;
	volatile int ret = FAULTED;

	set_record(&tr, guarded_copy(bytes, len), len, o);
	if (sigsetjmp(fault_jmp, 1) == 0) {
		fault_armed = 1;
		ret = kmem_decode(f, &tr, ev);
	}
	fault_armed = 0;
	return ret;
}

static int guarded_call_site(const struct kmem_fields *f, const void *bytes,
			     int len, unsigned long long *val)
{
	struct tep_record tr;
	struct op o = { 0 };
	volatile int ret = FAULTED;

	set_record(&tr, guarded_copy(bytes, len), len, &o);
	if (sigsetjmp(fault_jmp, 1) == 0) {
		fault_armed = 1;
		ret = kmem_read_call_site(f, &tr, val);
	}
	fault_armed = 0;
	return ret;
}

/* ------------------------------------------------------------------ */
/* The stream                                                          */

/*
 * Sites 1-3 allocate; 4 (kfree) and 5 (kmem_cache_free) free.  Objects
 * P1-P4 are allocated, P9 and P10 never are.
 */
static const struct op stream[] = {
	/*  #1 */ { OP_KMALLOC, 1000, 0, 100, 1, 1, 100, 128, GFP_KERNEL,
		    NO_NODE, NULL },
	/*  #2 */ { OP_KMALLOC, 2000, 0, 100, 1, 2, 60, 64, GFP_ATOMIC,
		    1, NULL },
	/*  #3 */ { OP_CACHE_ALLOC, 3000, 1, 200, 2, 3, 192, 192, GFP_KERNEL,
		    NO_NODE, "dentry" },
	/*  #4: P1 freed on CPU 1, allocated on CPU 0 */
		  { OP_KFREE, 4000, 1, 200, 4, 1, 0, 0, 0, NO_NODE, NULL },
	/*  #5: P3 freed on CPU 0, allocated on CPU 1 */
		  { OP_CACHE_FREE, 5000, 0, 100, 5, 3, 0, 0, 0, NO_NODE,
		    "dentry" },
	/*  #6: kfree(NULL) */
		  { OP_KFREE, 6000, 0, 100, 4, P_NULL, 0, 0, 0, NO_NODE, NULL },
	/*  #7: P9 was never allocated */
		  { OP_KFREE, 7000, 2, 300, 4, 9, 0, 0, 0, NO_NODE, NULL },
	/*  #8: neither was P10 */
		  { OP_CACHE_FREE, 8000, 2, 300, 5, 10, 0, 0, 0, NO_NODE,
		    "dentry" },
	/*  #9: P1 again: double free */
		  { OP_KFREE, 9000, 1, 200, 4, 1, 0, 0, 0, NO_NODE, NULL },
	/* #10: allocation failure */
		  { OP_KMALLOC, 10000, 3, 400, 3, P_NULL, 4096, 4096,
		    GFP_KERNEL, NO_NODE, NULL },
	/* #11: P2 is still live (from #2): its free was missed */
		  { OP_KMALLOC, 11000, 0, 100, 3, 2, 50, 64, GFP_KERNEL,
		    NO_NODE, NULL },
	/* #12 */ { OP_CACHE_ALLOC, 12000, 1, 200, 2, 4, 192, 192,
		    GFP_KERNEL, 0, "dentry" },
	/* #13: kmalloc(0) */
		  { OP_KMALLOC, 13000, 1, 200, 1, P_ZERO, 0, 0, GFP_KERNEL,
		    NO_NODE, NULL },
	/* #14: kfree(ZERO_SIZE_PTR) */
		  { OP_KFREE, 14000, 2, 300, 4, P_ZERO, 0, 0, 0, NO_NODE,
		    NULL },
	/* #15: P2 (from #11) freed on its own CPU */
		  { OP_KFREE, 15000, 0, 100, 4, 2, 0, 0, 0, NO_NODE, NULL },
};

#define NR_STREAM ((int)(sizeof(stream) / sizeof(stream[0])))

static bool is_alloc_op(const struct op *o)
{
	return o->kind == OP_KMALLOC || o->kind == OP_CACHE_ALLOC;
}

/* Every decoded field against what build() wrote. */
static void check_decoded(const struct layout *L, enum kmem_slot slot,
			  const struct op *o, const struct kmem_event *ev)
{
	const struct ev_layout *e = &L->ev[slot];
	bool alloc = is_alloc_op(o);

	CHECK(ev->kind == (alloc ? KMEM_EV_SLAB_ALLOC : KMEM_EV_SLAB_FREE));
	CHECK(ev->is_cache ==
	      (o->kind == OP_CACHE_ALLOC || o->kind == OP_CACHE_FREE));
	CHECK(ev->cpu == o->cpu);
	CHECK(ev->pid == o->pid);
	CHECK_U64(ev->ts, o->ts);
	CHECK_U64(ev->call_site, site_addr(L, o->site));
	CHECK_U64(ev->ptr, obj_addr(L, o->obj));
	CHECK_U64(ev->bytes_req, alloc ? o->req : 0);
	CHECK_U64(ev->bytes_alloc, alloc ? o->alloc : 0);
	CHECK_U64(ev->gfp_flags, alloc ? o->gfp : 0);
	/* NO_NODE when the event has no node field, too */
	CHECK(ev->node == (alloc ? o->node : KMEM_NO_NODE));
	if (e->name.size && o->cache) {
		CHECK(ev->name != NULL);
		CHECK_U64(ev->name_len, strlen(o->cache));
		CHECK(ev->name && !memcmp(ev->name, o->cache, ev->name_len));
	} else {
		CHECK(ev->name == NULL);
		CHECK_U64(ev->name_len, 0);
	}
}

static const struct slab_site *find_site(const struct slab_stats *st,
					 uint64_t call_site)
{
	size_t i;

	for (i = 0; i < st->nr_sites; i++)
		if (st->sites[i].call_site == call_site)
			return &st->sites[i];
	return NULL;
}

static const struct slab_obj_row *find_ptr(const struct slab_stats *st,
					   uint64_t ptr)
{
	uint32_t i = addr_table_find(&st->objs, ptr);

	return i == ADDR_NONE ? NULL : slab_row_at(st, i);
}

struct cache_want {
	const char *name;
	uint64_t allocs, bytes_req, bytes_alloc, frees, free_only;
	uint64_t live_count, live_bytes;
};

/* The cache rows, in the order they first appeared. */
static void check_caches(const struct slab_stats *st,
			 const struct cache_want *want, size_t n)
{
	char name[64];
	size_t i;

	CHECK_U64(st->nr_caches, n);
	for (i = 0; i < n && i < st->nr_caches; i++) {
		const struct slab_cache *c = &st->caches[i];

		snprintf(name, sizeof(name), "%s", slab_cache_name(st, c));
		CHECK_STR(name, want[i].name);
		CHECK_U64(c->allocs, want[i].allocs);
		CHECK_U64(c->bytes_req, want[i].bytes_req);
		CHECK_U64(c->bytes_alloc, want[i].bytes_alloc);
		CHECK_U64(c->frees, want[i].frees);
		CHECK_U64(c->free_only, want[i].free_only);
		CHECK_U64(c->live_count, want[i].live_count);
		CHECK_U64(c->live_bytes, want[i].live_bytes);
	}
}

/* The statistics of stream[], counted by hand. */
static void check_stream_stats(const struct layout *L,
			       const struct kmem_agg *a)
{
	const struct slab_stats *st = &a->slab;
	const struct slab_summary *s = &st->sum;
	const struct slab_site *site;
	const struct slab_obj_row *p;

	CHECK_U64(a->slab_events, 15);		/* every record */
	CHECK_U64(a->undecodable, 0);
	CHECK_U64(st->oom, 0);

	CHECK_U64(s->allocs, 6);		/* #1 #2 #3 #11 #12 #13 */
	CHECK_U64(s->alloc_failures, 1);	/* #10 */
	CHECK_U64(s->zero_size_allocs, 1);	/* #13 */
	CHECK_U64(s->bytes_req, 594);		/* 100+60+192+50+192+0 */
	CHECK_U64(s->bytes_alloc, 640);		/* 128+64+192+64+192+0 */
	CHECK_U64(s->frees, 6);			/* #4 #5 #7 #8 #9 #15 */
	CHECK_U64(s->null_frees, 2);		/* #6 #14 */
	CHECK_U64(s->alloc_freed_count, 3);	/* #4:P1 #5:P3 #15:P2 */
	CHECK_U64(s->alloc_freed_bytes, 384);	/* 128+192+64 */
	CHECK_U64(s->free_only, 2);		/* #7:P9 #8:P10 */
	CHECK_U64(s->double_frees, 1);		/* #9:P1 */
	CHECK_U64(s->missed_frees, 1);		/* #11 over #2 */
	CHECK_U64(s->missed_free_bytes, 64);	/* #2's object */
	CHECK_U64(s->cross_cpu_frees, 2);	/* #4 0->1, #5 1->0; not #15 */
	CHECK_U64(s->live_count, 1);		/* P4 from #12 */
	CHECK_U64(s->live_bytes, 192);
	/* #2 (missed), #12, #13: 64+192+0 bytes */
	CHECK_U64(kmem_lc_alloc_only_count(&s->lc), 3);
	CHECK_U64(kmem_lc_alloc_only_bytes(&s->lc, s->bytes_alloc), 256);

	CHECK_U64(st->nr_sites, 3);		/* frees make no site rows */
	site = find_site(st, site_addr(L, 1));	/* #1 #2 #13 */
	CHECK(site != NULL);
	if (site) {
		CHECK_U64(site->hits, 3);
		CHECK_U64(site->failures, 0);
		CHECK_U64(site->bytes_req, 160);	/* 100+60+0 */
		CHECK_U64(site->bytes_alloc, 192);	/* 128+64+0 */
		CHECK_U64(site->frees, 1);		/* #4 */
		CHECK_U64(site->pingpong, 1);
		CHECK_U64(site->lifetime_sum, 3000);	/* 4000-1000 */
		CHECK_U64(site->live_count, 0);	/* #2's object: missed */
		CHECK_U64(site->live_bytes, 0);
		CHECK_U64(site->peak_bytes, 192);	/* after #2: 128+64 */
	}
	site = find_site(st, site_addr(L, 2));	/* #3 #12 */
	CHECK(site != NULL);
	if (site) {
		CHECK_U64(site->hits, 2);
		CHECK_U64(site->failures, 0);
		CHECK_U64(site->bytes_req, 384);
		CHECK_U64(site->bytes_alloc, 384);
		CHECK_U64(site->frees, 1);		/* #5 */
		CHECK_U64(site->pingpong, 1);
		CHECK_U64(site->lifetime_sum, 2000);	/* 5000-3000 */
		CHECK_U64(site->live_count, 1);	/* P4 */
		CHECK_U64(site->live_bytes, 192);
		CHECK_U64(site->peak_bytes, 192);
	}
	site = find_site(st, site_addr(L, 3));	/* #10 (NULL) #11 */
	CHECK(site != NULL);
	if (site) {
		CHECK_U64(site->hits, 1);
		CHECK_U64(site->failures, 1);
		CHECK_U64(site->bytes_req, 50);
		CHECK_U64(site->bytes_alloc, 64);
		CHECK_U64(site->frees, 1);		/* #15 */
		CHECK_U64(site->pingpong, 0);		/* CPU 0 both */
		CHECK_U64(site->lifetime_sum, 4000);	/* 15000-11000 */
		CHECK_U64(site->live_count, 0);
		CHECK_U64(site->live_bytes, 0);
		CHECK_U64(site->peak_bytes, 64);
	}

	CHECK_U64(st->objs.len, 4);	/* P1-P4 allocated (not NULL or
					   ZERO_SIZE_PTR) */
	CHECK_U64(st->freed_only.len, 2);	/* P9 P10 freed only */
	p = find_ptr(st, obj_addr(L, 2));	/* #2 #11 #15 */
	CHECK(p != NULL);
	if (p) {
		CHECK_U64(p->hits, 2);
		CHECK_U64(p->bytes_req, 110);		/* 60+50 */
		CHECK_U64(p->bytes_alloc, 128);		/* 64+64 */
		CHECK_U64(p->frees, 1);
		CHECK_U64(p->pingpong, 0);
		CHECK_U64(p->lifetime_sum, 4000);
		CHECK(!(p->o.flags & SLAB_OBJ_LIVE));
	}
	p = find_ptr(st, obj_addr(L, 1));	/* #1 #4 (#9 double) */
	CHECK(p != NULL);
	if (p) {
		CHECK_U64(p->hits, 1);
		CHECK_U64(p->frees, 1);
		CHECK_U64(p->pingpong, 1);
		CHECK_U64(p->lifetime_sum, 3000);
		CHECK(!(p->o.flags & SLAB_OBJ_LIVE));
	}
	p = find_ptr(st, obj_addr(L, 4));
	CHECK(p != NULL);
	if (p) {
		CHECK_U64(p->hits, 1);
		CHECK_U64(p->frees, 0);
		CHECK(p->o.flags & SLAB_OBJ_LIVE);
		CHECK_U64(p->o.bytes, 192);
	}

	switch (L->names) {
	case NAMES_BOTH: {
		/* #3 #12 name the cache; #5 frees P3, #8 frees unknown P10 */
		static const struct cache_want want[] = {
			{ "kmalloc-128", 1, 100, 128, 1, 0, 0, 0 },  /* #1 #4 */
			{ "kmalloc-64", 2, 110, 128, 1, 0, 0, 0 }, /* #2 #11 #15 */
			{ "dentry", 2, 384, 384, 1, 1, 1, 192 },  /* #3 #12 #5 #8 */
		};
		check_caches(st, want, 3);
		break;
	}
	case NAMES_FREE: {
		/*
		 * allocations are unnamed; #5's named free of P3 moves #3 to
		 * "dentry", #12 stays live and unnamed; #8's free_only names
		 * "dentry"
		 */
		static const struct cache_want want[] = {
			{ "kmalloc-128", 1, 100, 128, 1, 0, 0, 0 },
			{ "kmalloc-64", 2, 110, 128, 1, 0, 0, 0 },
			{ "(unnamed)", 1, 192, 192, 0, 0, 1, 192 }, /* #12 */
			{ "dentry", 1, 192, 192, 1, 1, 0, 0 },	/* #3 #5 #8 */
		};
		check_caches(st, want, 4);
		break;
	}
	case NAMES_NONE: {
		/* #8 names no cache: a free_only with no row */
		static const struct cache_want want[] = {
			{ "kmalloc-128", 1, 100, 128, 1, 0, 0, 0 },
			{ "kmalloc-64", 2, 110, 128, 1, 0, 0, 0 },
			{ "(unnamed)", 2, 384, 384, 1, 0, 1, 192 },
		};
		check_caches(st, want, 3);
		break;
	}
	}
}

/* The events of @tep against the layout table, and their kmem_fields. */
static void check_fields(const struct layout *L, struct tep_handle *tep,
			 struct kmem_fields *fields)
{
	static const char *const names[] = { "call_site", "ptr", "name",
					     "bytes_req", "bytes_alloc",
					     "gfp_flags", "node", "accounted" };
	int slot, i;

	for (slot = 0; slot < KMEM_NR_SLOTS; slot++) {
		const struct ev_layout *e = &L->ev[slot];
		const char *evname = kmem_slot_event_name(slot);
		struct tep_event *event;
		const struct fpos *pos[8];

		event = tep_find_event_by_name(tep, "kmem", evname);
		memset(&fields[slot], 0, sizeof(fields[slot]));
		if (!e->id) {
			CHECK(event == NULL);
			continue;
		}
		CHECK(event != NULL);
		if (!event)
			continue;
		CHECK(event->id == e->id);
		CHECK(kmem_slot_by_name(event->system, event->name) == slot);

		pos[0] = &e->call_site;
		pos[1] = &e->ptr;
		pos[2] = &e->name;
		pos[3] = &e->bytes_req;
		pos[4] = &e->bytes_alloc;
		pos[5] = &e->gfp;
		pos[6] = &e->node;
		pos[7] = &e->accounted;
		for (i = 0; i < 8; i++) {
			struct tep_format_field *ff =
				tep_find_field(event, names[i]);

			if (!pos[i]->size) {
				CHECK(ff == NULL);
				continue;
			}
			CHECK(ff != NULL);
			if (!ff)
				continue;
			CHECK(ff->offset == pos[i]->off);
			CHECK(ff->size == pos[i]->size);
		}

		kmem_fields_init(&fields[slot], event, slot);
		CHECK(fields[slot].usable);
		CHECK(fields[slot].slot == (enum kmem_slot)slot);
		CHECK((fields[slot].name != NULL) == (e->name.size != 0));
		CHECK((fields[slot].node != NULL) == (e->node.size != 0));
	}
}

static void run_layout(const struct layout *L)
{
	struct kmem_fields fields[KMEM_NR_SLOTS];
	struct tep_handle *tep;
	struct kmem_agg a;
	int i;

	printf("  layout %s (%s)\n", L->label, L->file);
	tep = load_formats(L->file, L->long_size, L->big_endian);
	if (!tep)
		return;
	check_fields(L, tep, fields);

	kmem_agg_init(&a);
	for (i = 0; i < NR_STREAM; i++) {
		const struct op *o = &stream[i];
		enum kmem_slot slot = op_slot(L, o);
		int before = unit_failed;
		struct tep_record tr;
		struct kmem_event ev;
		struct rec r;
		void *copy;

		build(L, slot, o, &r);
		/* exactly the record's bytes, so ASan sees any overrun */
		copy = malloc((size_t)r.len);
		if (!copy)
			break;
		memcpy(copy, r.d, (size_t)r.len);
		set_record(&tr, copy, r.len, o);
		CHECK(kmem_decode(&fields[slot], &tr, &ev) == 0);
		check_decoded(L, slot, o, &ev);
		if (unit_failed != before)
			printf("  ... in record #%d (%s)\n", i + 1,
			       kmem_slot_event_name(slot));
		kmem_agg_event(&a, &ev);
		free(copy);
	}
	check_stream_stats(L, &a);
	kmem_agg_release(&a);
	tep_free(tep);
}

static void test_layout_2_6_32_x86_64(void)
{
	run_layout(&linux_2_6_32);
}

static void test_layout_5_15_x86_64(void)
{
	run_layout(&linux_5_15);
}

static void test_layout_6_0_x86_64(void)
{
	run_layout(&linux_6_0);
}

static void test_layout_6_1_ppc32_big_endian(void)
{
	run_layout(&linux_6_1_ppc32);
}

static void test_layout_6_18_x86_64(void)
{
	run_layout(&linux_6_18);
}

static void test_layout_6_18_big_endian_64(void)
{
	run_layout(&linux_6_18_be64);
}

static void test_layout_rel_loc(void)
{
	run_layout(&synthetic_rel_loc);
}

/* ------------------------------------------------------------------ */
/* Records written out byte by byte                                    */

static struct kmem_fields fields_of(struct tep_handle *tep, const char *name)
{
	struct kmem_fields f;
	struct tep_event *event = tep_find_event_by_name(tep, "kmem", name);

	memset(&f, 0, sizeof(f));
	CHECK(event != NULL);
	if (event)
		kmem_fields_init(&f, event, kmem_slot_by_name("kmem", name));
	return f;
}

static int decode_bytes(const struct kmem_fields *f, const void *bytes,
			int len, struct kmem_event *ev)
{
	static const struct op o = { .cpu = 3, .ts = 123456789 };

	return guarded_decode(f, bytes, len, &o, ev);
}

/* A kmem_cache_alloc record of this 6.18 x86_64 machine. */
static void test_bytes_6_18_kmem_cache_alloc(void)
{
	static const unsigned char rec[] = {
		0x93, 0x02, 0x00, 0x00,	/* common_type 659, flags, preempt */
		0xd2, 0x04, 0x00, 0x00,	/* common_pid 1234 */
		0xc4, 0xb3, 0xa2, 0x81, 0xff, 0xff, 0xff, 0xff, /* call_site */
		0x00, 0x70, 0x5e, 0x04, 0x81, 0x88, 0xff, 0xff, /* ptr */
		0x40, 0x00, 0x07, 0x00,	/* name: 7 bytes at 64 */
		0x00, 0x00, 0x00, 0x00,	/* hole */
		0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* req 192 */
		0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* alloc 256 */
		0xc0, 0x0c, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* gfp */
		0x01, 0x00, 0x00, 0x00,	/* node 1 */
		0x01, 0x00, 0x00, 0x00,	/* accounted, hole */
		'd', 'e', 'n', 't', 'r', 'y', '\0',
	};
	struct tep_handle *tep = load_formats("linux-6.18-x86_64.txt", 8,
					      false);
	struct kmem_fields f;
	struct kmem_event ev;

	if (!tep)
		return;
	f = fields_of(tep, "kmem_cache_alloc");
	CHECK(f.usable);
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == 0);
	CHECK(ev.kind == KMEM_EV_SLAB_ALLOC);
	CHECK(ev.is_cache);
	CHECK(ev.cpu == 3);
	CHECK(ev.pid == 1234);
	CHECK_U64(ev.ts, 123456789);
	CHECK_U64(ev.call_site, 0xffffffff81a2b3c4ULL);
	CHECK_U64(ev.ptr, 0xffff8881045e7000ULL);
	CHECK_U64(ev.bytes_req, 192);
	CHECK_U64(ev.bytes_alloc, 256);
	CHECK_U64(ev.gfp_flags, 0x400cc0);	/* GFP_KERNEL_ACCOUNT */
	CHECK(ev.node == 1);
	CHECK_U64(ev.name_len, 6);
	CHECK(ev.name && !memcmp(ev.name, "dentry", 6));
	tep_free(tep);
}

/* kmalloc and kmem_cache_free records of a 32-bit big-endian machine. */
static void test_bytes_ppc32(void)
{
	static const unsigned char km[] = {
		0x01, 0x99, 0x00, 0x00,	/* common_type 409 */
		0x00, 0x00, 0x00, 0x4d,	/* common_pid 77 */
		0xc0, 0x1a, 0x2b, 0x3c,	/* call_site */
		0xdf, 0x5e, 0x71, 0x00,	/* ptr */
		0x00, 0x00, 0x00, 0x64,	/* bytes_req 100 */
		0x00, 0x00, 0x00, 0x80,	/* bytes_alloc 128 */
		0x00, 0x00, 0x0c, 0xc0,	/* gfp_flags GFP_KERNEL */
		0xff, 0xff, 0xff, 0xff,	/* node NUMA_NO_NODE */
	};
	static const unsigned char kcf[] = {
		0x01, 0x96, 0x00, 0x00,	/* common_type 406 */
		0x00, 0x00, 0x00, 0x4d,	/* common_pid 77 */
		0xc0, 0x1a, 0x2b, 0x40,	/* call_site */
		0xdf, 0x5e, 0x70, 0x00,	/* ptr */
		0x00, 0x0c, 0x00, 0x14,	/* name: 12 bytes at 20 */
		't', 'a', 's', 'k', '_', 's', 't', 'r', 'u', 'c', 't', '\0',
	};
	struct tep_handle *tep = load_formats("linux-6.1-ppc32.txt", 4, true);
	struct kmem_fields f;
	struct kmem_event ev;

	if (!tep)
		return;
	f = fields_of(tep, "kmalloc");
	CHECK(decode_bytes(&f, km, (int)sizeof(km), &ev) == 0);
	CHECK(ev.kind == KMEM_EV_SLAB_ALLOC);
	CHECK(!ev.is_cache);
	CHECK(ev.pid == 77);
	CHECK_U64(ev.call_site, 0xc01a2b3cULL);	/* not sign-extended */
	CHECK_U64(ev.ptr, 0xdf5e7100ULL);
	CHECK_U64(ev.bytes_req, 100);
	CHECK_U64(ev.bytes_alloc, 128);
	CHECK_U64(ev.gfp_flags, 0xcc0);
	CHECK(ev.node == KMEM_NO_NODE);
	CHECK(ev.name == NULL);

	f = fields_of(tep, "kmem_cache_free");
	CHECK(decode_bytes(&f, kcf, (int)sizeof(kcf), &ev) == 0);
	CHECK(ev.kind == KMEM_EV_SLAB_FREE);
	CHECK(ev.is_cache);
	CHECK(ev.pid == 77);
	CHECK_U64(ev.call_site, 0xc01a2b40ULL);
	CHECK_U64(ev.ptr, 0xdf5e7000ULL);
	CHECK_U64(ev.bytes_req, 0);
	CHECK(ev.node == KMEM_NO_NODE);
	CHECK_U64(ev.name_len, 11);
	CHECK(ev.name && !memcmp(ev.name, "task_struct", 11));
	tep_free(tep);
}

/* ------------------------------------------------------------------ */
/* Formats lacking fields                                              */

#define COMMON_FIELDS                                                    \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"   \
	"\tsigned:0;\n"                                                     \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define FLD(decl, off, size)                                             \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:0;\n"
#define CALL_SITE FLD("unsigned long call_site", 8, 8)
#define PTR FLD("const void * ptr", 16, 8)

/* kmalloc without bytes_alloc */
static const char fmt_no_bytes_alloc[] =
	"name: kmalloc\nID: 11\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("size_t bytes_req", 24, 8) FLD("unsigned long gfp_flags", 32, 8)
	"\nprint fmt: \"call_site=%pS ptr=%p bytes_req=%zu\", "
	"(void *)REC->call_site, REC->ptr, REC->bytes_req\n";

/* kmem_cache_alloc without bytes_req */
static const char fmt_no_bytes_req[] =
	"name: kmem_cache_alloc\nID: 12\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("size_t bytes_alloc", 24, 8)
	"\nprint fmt: \"call_site=%pS ptr=%p bytes_alloc=%zu\", "
	"(void *)REC->call_site, REC->ptr, REC->bytes_alloc\n";

/* kfree without ptr */
static const char fmt_no_ptr[] =
	"name: kfree\nID: 13\nformat:\n" COMMON_FIELDS CALL_SITE
	"\nprint fmt: \"call_site=%pS\", (void *)REC->call_site\n";

/* kmem_cache_free without call_site */
static const char fmt_no_call_site[] =
	"name: kmem_cache_free\nID: 14\nformat:\n" COMMON_FIELDS
	FLD("const void * ptr", 8, 8)
	"\nprint fmt: \"ptr=%p\", REC->ptr\n";

/* kmalloc_node without gfp_flags and node: both optional */
static const char fmt_no_optional[] =
	"name: kmalloc_node\nID: 15\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("size_t bytes_req", 24, 8) FLD("size_t bytes_alloc", 32, 8)
	"\nprint fmt: \"call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu\", "
	"(void *)REC->call_site, REC->ptr, REC->bytes_req, REC->bytes_alloc\n";

static void expect_unusable(const char *fmt, const char *name)
{
	struct tep_handle *tep = new_tep(8, false);
	unsigned char rec[48];
	struct kmem_fields f;
	struct kmem_event ev;
	struct kmem_agg a;
	int i;

	if (!tep)
		return;
	parse_one(tep, fmt, strlen(fmt));
	f = fields_of(tep, name);
	CHECK(f.event != NULL);
	CHECK(!f.usable);
	for (i = 0; i < (int)sizeof(rec); i++)
		rec[i] = (unsigned char)(0x41 + i);
	memset(&ev, 0x5a, sizeof(ev));
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == -1);
	CHECK(ev.kind == KMEM_EV_NONE);
	kmem_agg_init(&a);
	kmem_agg_event(&a, &ev);	/* a KMEM_EV_NONE is ignored */
	CHECK_U64(a.slab_events, 0);
	CHECK_U64(a.slab.sum.allocs + a.slab.sum.frees, 0);
	kmem_agg_release(&a);
	tep_free(tep);
}

static void test_missing_required_fields(void)
{
	expect_unusable(fmt_no_bytes_alloc, "kmalloc");
	expect_unusable(fmt_no_bytes_req, "kmem_cache_alloc");
	expect_unusable(fmt_no_ptr, "kfree");
	expect_unusable(fmt_no_call_site, "kmem_cache_free");
}

static void test_missing_optional_fields(void)
{
	static const unsigned char rec[] = {
		15, 0, 0, 0, 7, 0, 0, 0,
		0x10, 0x20, 0x30, 0x81, 0xff, 0xff, 0xff, 0xff,
		0x00, 0x10, 0x00, 0x00, 0x81, 0x88, 0xff, 0xff,
		8, 0, 0, 0, 0, 0, 0, 0,
		16, 0, 0, 0, 0, 0, 0, 0,
	};
	struct tep_handle *tep = new_tep(8, false);
	struct kmem_fields f;
	struct kmem_event ev;

	if (!tep)
		return;
	parse_one(tep, fmt_no_optional, strlen(fmt_no_optional));
	f = fields_of(tep, "kmalloc_node");
	CHECK(f.usable);
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == 0);
	CHECK(ev.kind == KMEM_EV_SLAB_ALLOC);
	CHECK(!ev.is_cache);
	CHECK(ev.pid == 7);
	CHECK_U64(ev.call_site, 0xffffffff81302010ULL);
	CHECK_U64(ev.ptr, 0xffff888100001000ULL);
	CHECK_U64(ev.bytes_req, 8);
	CHECK_U64(ev.bytes_alloc, 16);
	CHECK_U64(ev.gfp_flags, 0);
	CHECK(ev.node == KMEM_NO_NODE);
	tep_free(tep);
}

/* ------------------------------------------------------------------ */
/* Name fields: variants and corrupt locations                         */

static const char fmt_static_name[] =
	"name: kmem_cache_free\nID: 16\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("char name[16]", 24, 16)
	"\nprint fmt: \"call_site=%pS ptr=%p name=%s\", "
	"(void *)REC->call_site, REC->ptr, REC->name\n";

static const char fmt_int_name[] =
	"name: kmem_cache_free\nID: 17\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("int name", 24, 4)
	"\nprint fmt: \"call_site=%pS ptr=%p name=%d\", "
	"(void *)REC->call_site, REC->ptr, REC->name\n";

static void test_name_static_and_numeric(void)
{
	unsigned char rec[40];
	struct tep_handle *tep = new_tep(8, false);
	struct kmem_fields f;
	struct kmem_event ev;

	if (!tep)
		return;
	parse_one(tep, fmt_static_name, strlen(fmt_static_name));
	memset(rec, 0, sizeof(rec));
	rec[0] = 16;
	rec[8] = 0x42;
	rec[16] = 0x80;
	memcpy(rec + 24, "kmalloc-rcl-64", 15);
	f = fields_of(tep, "kmem_cache_free");
	CHECK(f.usable);
	CHECK(f.name != NULL);
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == 0);
	CHECK_U64(ev.name_len, 14);
	CHECK(ev.name && !memcmp(ev.name, "kmalloc-rcl-64", 14));
	/* all 16 bytes used, no NUL: the name stops at the field's end */
	memcpy(rec + 24, "0123456789abcdefXYZ", 16);
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == 0);
	CHECK_U64(ev.name_len, 16);
	tep_free(tep);

	tep = new_tep(8, false);
	if (!tep)
		return;
	parse_one(tep, fmt_int_name, strlen(fmt_int_name));
	f = fields_of(tep, "kmem_cache_free");
	CHECK(f.usable);
	CHECK(f.name == NULL);	/* not a string: ignored */
	memset(rec, 0, sizeof(rec));
	rec[0] = 17;
	rec[16] = 0x80;
	rec[24] = 5;
	CHECK(decode_bytes(&f, rec, 28, &ev) == 0);
	CHECK(ev.name == NULL);
	CHECK_U64(ev.ptr, 0x80);
	tep_free(tep);
}

/*
 * 6.18 kmem_cache_free (name loc at 24, fixed part 32 bytes) and the
 * __rel_loc variant (offset counted from 28) with bad locations.
 */
static void test_name_bad_locations(void)
{
	static const struct {
		bool rel;
		uint32_t loc;
		const char *tail;	/* bytes from 32 on */
		int tail_len;
		int want_len;		/* -1: no name */
	} cases[] = {
		{ false, 7 << 16 | 32, "dentry", 7, 6 },	/* good */
		{ false, 9 << 16 | 32, "dentry\0xy", 9, 6 },	/* stops at NUL */
		{ false, 6 << 16 | 32, "dentry", 6, 6 },	/* no NUL */
		{ false, 0 << 16 | 32, "dentry", 7, -1 },	/* empty */
		{ false, 8 << 16 | 32, "dentry", 7, -1 },	/* 1 past end */
		{ false, 7 << 16 | 200, "dentry", 7, -1 },	/* off past end */
		{ false, 0xffffffffu, "dentry", 7, -1 },	/* garbage */
		{ true, 7 << 16 | 4, "dentry", 7, 6 },		/* 28 + 4 */
		{ true, 7 << 16 | 5, "dentry", 7, -1 },	/* 1 past end */
		{ true, 7 << 16 | 0xfff0, "dentry", 7, -1 },
		{ true, 0xffffffffu, "dentry", 7, -1 },
	};
	struct tep_handle *tep_abs = load_formats("linux-6.18-x86_64.txt", 8,
						  false);
	struct tep_handle *tep_rel =
		load_formats("synthetic-rel_loc-x86_64.txt", 8, false);
	struct kmem_fields fa, fr;
	size_t i;

	if (!tep_abs || !tep_rel)
		goto out;
	fa = fields_of(tep_abs, "kmem_cache_free");
	fr = fields_of(tep_rel, "kmem_cache_free");
	CHECK(fa.name && !(fa.name->flags & TEP_FIELD_IS_RELATIVE));
	CHECK(fr.name && (fr.name->flags & TEP_FIELD_IS_RELATIVE));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned char rec[64];
		struct kmem_event ev;
		int before = unit_failed;
		int len = 32 + cases[i].tail_len;
		int ret;

		memset(rec, 0, sizeof(rec));
		rec[0] = 0x90;	/* 656 */
		rec[1] = 0x02;
		rec[16] = 0x40;
		rec[24] = (unsigned char)cases[i].loc;
		rec[25] = (unsigned char)(cases[i].loc >> 8);
		rec[26] = (unsigned char)(cases[i].loc >> 16);
		rec[27] = (unsigned char)(cases[i].loc >> 24);
		memcpy(rec + 32, cases[i].tail, (size_t)cases[i].tail_len);
		ret = decode_bytes(cases[i].rel ? &fr : &fa, rec, len, &ev);
		CHECK(ret != FAULTED);
		CHECK(ret == 0);
		if (ret == 0 && cases[i].want_len < 0) {
			CHECK(ev.name == NULL);
		} else if (ret == 0) {
			CHECK_U64(ev.name_len, cases[i].want_len);
			CHECK(ev.name && !memcmp(ev.name, "dentry", 6));
		}
		CHECK_U64(ev.ptr, 0x40);
		if (unit_failed != before)
			printf("  ... in case %zu\n", i);
	}
out:
	tep_free(tep_abs);
	tep_free(tep_rel);
}

/* ------------------------------------------------------------------ */
/* Truncated records                                                   */

/* Reads past the record, by record length. */
struct overruns {
	int count;
	int first, last;	/* record lengths */
};

static void note_overrun(struct overruns *o, int len)
{
	if (!o->count++)
		o->first = len;
	o->last = len;
}

static void report_overruns(const char *what, const struct overruns *o,
			    const struct layout *L, enum kmem_slot slot,
			    int full)
{
	if (!o->count)
		return;
	printf("  %s read past the end of %d of the cut %s records (%s, "
	       "%d bytes in full), lengths %d..%d\n",
	       what, o->count, kmem_slot_event_name(slot), L->label, full,
	       o->first, o->last);
	unit_failed++;
}

/*
 * Decode the prefixes of @r of lengths @from..@to, each ending at the
 * dead page: no read may go past them; a record too short for a field
 * the statistics need (call_site, ptr, and bytes_req and bytes_alloc of
 * an allocation) is refused (-1, counted as undecodable), and an
 * optional field is read only if all of it is there (else 0).
 */
static void decode_prefixes(const struct layout *L, enum kmem_slot slot,
			    const struct op *o, const struct rec *r,
			    const struct kmem_fields *f, int from, int to)
{
	const struct ev_layout *e = &L->ev[slot];
	struct overruns over = { 0 };
	struct kmem_event full, ev;
	int len;

	CHECK(decode_bytes(f, r->d, r->len, &full) == 0);
	for (len = from; len <= to; len++) {
		int before = unit_failed;
		int ret = decode_bytes(f, r->d, len, &ev);

		if (ret == FAULTED) {
			note_overrun(&over, len);
			continue;
		}
#define WHOLE(p) ((p).off + (p).size <= len)
		if (!WHOLE(e->call_site) || !WHOLE(e->ptr) ||
		    (e->bytes_req.size && !WHOLE(e->bytes_req)) ||
		    (e->bytes_alloc.size && !WHOLE(e->bytes_alloc))) {
			CHECK(ret == -1);
			goto next;
		}
		CHECK(ret == 0);
		CHECK_U64(ev.call_site, full.call_site);
		CHECK_U64(ev.ptr, full.ptr);
		CHECK_U64(ev.bytes_req, full.bytes_req);
		CHECK_U64(ev.bytes_alloc, full.bytes_alloc);
		CHECK_U64(ev.gfp_flags, WHOLE(e->gfp) ? full.gfp_flags : 0);
#undef WHOLE
		if (len >= 8)
			CHECK(ev.pid == o->pid);
		/* the name only if all its bytes are there */
		CHECK((ev.name != NULL) == (e->name.size && len == r->len));
next:
		if (unit_failed != before)
			printf("  ... %s, %s cut to %d of %d bytes\n", L->label,
			       kmem_slot_event_name(slot), len, r->len);
	}
	report_overruns("kmem_decode", &over, L, slot, r->len);
}

static void call_site_prefixes(const struct layout *L, enum kmem_slot slot,
			       const struct rec *r,
			       const struct kmem_fields *f)
{
	struct overruns over = { 0 };
	int len;

	for (len = 0; len <= r->len; len++) {
		unsigned long long cs = 0;

		if (guarded_call_site(f, r->d, len, &cs) == FAULTED)
			note_overrun(&over, len);
	}
	report_overruns("kmem_read_call_site", &over, L, slot, r->len);
}

enum cut { CUT_DECODE, CUT_DECODE_HEADER, CUT_CALL_SITE };

static void cut_one(const struct layout *L, enum kmem_slot slot,
		    const struct op *o, enum cut how)
{
	struct kmem_fields fields[KMEM_NR_SLOTS];
	struct tep_handle *tep;
	struct rec r;

	tep = load_formats(L->file, L->long_size, L->big_endian);
	if (!tep)
		return;
	check_fields(L, tep, fields);
	build(L, slot, o, &r);
	switch (how) {
	case CUT_DECODE:	/* the common header is there */
		decode_prefixes(L, slot, o, &r, &fields[slot], 8, r.len);
		break;
	case CUT_DECODE_HEADER:	/* not even that */
		decode_prefixes(L, slot, o, &r, &fields[slot], 0, 7);
		break;
	case CUT_CALL_SITE:
		call_site_prefixes(L, slot, &r, &fields[slot]);
		break;
	}
	tep_free(tep);
}

static void cut_all(enum cut how)
{
	/* #12: kmem_cache_alloc with node and name */
	cut_one(&linux_6_18, KMEM_SLOT_CACHE_ALLOC, &stream[11], how);
	cut_one(&synthetic_rel_loc, KMEM_SLOT_CACHE_ALLOC, &stream[11], how);
	/* #5: kmem_cache_free with name, 32-bit big-endian */
	cut_one(&linux_6_1_ppc32, KMEM_SLOT_CACHE_FREE, &stream[4], how);
	/* #2: kmalloc_node of 2.6.32 */
	cut_one(&linux_2_6_32, KMEM_SLOT_KMALLOC_NODE, &stream[1], how);
}

/* Records cut anywhere after the common header (8 bytes). */
static void test_truncated_records(void)
{
	cut_all(CUT_DECODE);
}

/*
 * Records shorter than the common header: common_pid is not there, and
 * kmem_decode() must not read it anyway (as of this writing it does,
 * through tep_data_pid(), which does not check the record size).
 */
static void test_truncated_below_common_header(void)
{
	cut_all(CUT_DECODE_HEADER);
}

/*
 * kmem_read_call_site() on records cut anywhere: it must not read a
 * call_site that is not all there (as of this writing it reads it
 * without looking at the record size, unlike kmem_decode()).
 */
static void test_truncated_call_site(void)
{
	cut_all(CUT_CALL_SITE);
}

int main(int argc, char **argv)
{
	(void)argc;
	find_formats_dir(argv[0]);
	if (guard_init()) {
		printf("FAIL guard_init: cannot map a guard page\n");
		return 1;
	}
	RUN(test_layout_2_6_32_x86_64);
	RUN(test_layout_5_15_x86_64);
	RUN(test_layout_6_0_x86_64);
	RUN(test_layout_6_1_ppc32_big_endian);
	RUN(test_layout_6_18_x86_64);
	RUN(test_layout_6_18_big_endian_64);
	RUN(test_layout_rel_loc);
	RUN(test_bytes_6_18_kmem_cache_alloc);
	RUN(test_bytes_ppc32);
	RUN(test_missing_required_fields);
	RUN(test_missing_optional_fields);
	RUN(test_name_static_and_numeric);
	RUN(test_name_bad_locations);
	RUN(test_truncated_records);
	RUN(test_truncated_below_common_header);
	RUN(test_truncated_call_site);
	UNIT_EXIT();
}
