// SPDX-License-Identifier: LGPL-2.1
/*
 * Records of the kmem decoding tests: built byte by byte at the offsets
 * of a layout (decode_layouts.c), in the byte order of the traced
 * machine, and decoded with their last byte just before an unreadable
 * page, so any read past the record faults; the fault is caught and
 * reported instead of killing the program.  And the stream of kmem
 * calls every layout replays.
 */
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decode_util.h"

/* ------------------------------------------------------------------ */
/* Building records                                                    */

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

/**
 * site_addr - the address of call site number @site
 * @L: the layout, for its kernel text
 * @site: the number
 *
 * Return: the address.
 */
uint64_t site_addr(const struct layout *L, int site)
{
	return L->site_base + 0x1000ULL * (uint64_t)site + 0x1a;
}

/**
 * obj_addr - the address of object number @obj
 * @L: the layout, for its slab objects
 * @obj: the number, or P_NULL or P_ZERO
 *
 * Return: the address.
 */
uint64_t obj_addr(const struct layout *L, int obj)
{
	if (obj == P_NULL)
		return 0;
	if (obj == P_ZERO)
		return 16;
	return L->ptr_base + 0x1000ULL * (uint64_t)obj;
}

/**
 * op_slot - which event the kernel of @L traces for @o
 * @L: the layout
 * @o: the kmem call
 *
 * Return: its slot.
 */
enum kmem_slot op_slot(const struct layout *L, const struct op *o)
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

/**
 * build - the record of @o, as the kernel of @L writes it
 * @L: the layout
 * @slot: the event (op_slot())
 * @o: the kmem call
 * @r: the record
 */
void build(const struct layout *L, enum kmem_slot slot, const struct op *o,
	   struct rec *r)
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

/**
 * set_record - a tep_record of @len bytes at @data, with @o's CPU and time
 * @tr: the record
 * @data: its bytes
 * @len: their number
 * @o: the kmem call
 */
void set_record(struct tep_record *tr, void *data, int len,
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

/**
 * guard_init - map the readable page and the dead one after it, and catch
 * faults
 *
 * Return: 0, or -1 if they cannot be mapped.
 */
int guard_init(void)
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

/**
 * guarded_call_site - kmem_read_call_site() of @len bytes ending at the
 * dead page
 * @f: the event's fields
 * @bytes: the record
 * @len: its length
 * @val: the call site read
 *
 * Return: what kmem_read_call_site() returns, or FAULTED if it read past
 * the bytes.
 */
int guarded_call_site(const struct kmem_fields *f, const void *bytes, int len,
		      unsigned long long *val)
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

/**
 * decode_bytes - kmem_decode() of @len bytes ending at the dead page, as
 * CPU 3 at 123456789 ns
 * @f: the event's fields
 * @bytes: the record
 * @len: its length
 * @ev: the decoded event
 *
 * Return: what kmem_decode() returns, or FAULTED if it read past the
 * bytes.
 */
int decode_bytes(const struct kmem_fields *f, const void *bytes, int len,
		 struct kmem_event *ev)
{
	static const struct op o = { .cpu = 3, .ts = 123456789 };

	return guarded_decode(f, bytes, len, &o, ev);
}

/* ------------------------------------------------------------------ */
/* The stream                                                          */

/*
 * Sites 1-3 allocate; 4 (kfree) and 5 (kmem_cache_free) free.  Objects
 * P1-P4 are allocated, P9 and P10 never are.
 */
const struct op stream[] = {
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
