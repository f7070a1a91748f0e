// SPDX-License-Identifier: LGPL-2.1
/*
 * Topology files and the cross-node figures they give.
 */
#include <stdlib.h>
#include <unistd.h>

#include "analysis/agg.h"
#include "agg_util.h"
#include "unit.h"

static char *write_tmp(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/kmem-numa-%d.txt", (int)getpid());
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static int load(struct kmem_numa *n, const char *text, char *msg,
		size_t len)
{
	FILE *err = fmemopen(msg, len, "w");
	int ret = kmem_numa_load(n, write_tmp(text), err);

	fclose(err);
	return ret;
}

static void test_load(void)
{
	struct kmem_numa n;
	char msg[256] = "";

	CHECK(load(&n, "# two nodes\ncpu 0 node 0\ncpu 3 node 1\n\n"
		       "mem 0x100-0x200 node 1\nmem 0-256 node 0\n",
		   msg, sizeof(msg)) == 0);
	CHECK_U64(kmem_numa_cpu(&n, 0), 0);
	CHECK_U64(kmem_numa_cpu(&n, 3), 1);
	CHECK(kmem_numa_cpu(&n, 1) == -1);	/* not named */
	CHECK(kmem_numa_cpu(&n, 9) == -1);
	CHECK_U64(kmem_numa_pfn(&n, 0xff), 0);
	CHECK_U64(kmem_numa_pfn(&n, 0x100), 1);	/* ranges sorted */
	CHECK(kmem_numa_pfn(&n, 0x200) == -1);	/* end exclusive */
	kmem_numa_release(&n);

	memset(msg, 0, sizeof(msg));
	CHECK(load(&n, "cpu 0 node 0\nmem 0x0-0x100 node zero\n", msg,
		   sizeof(msg)) == -1);
	CHECK(strstr(msg, ":2: bad line") != NULL);
	kmem_numa_release(&n);
	/* well formed, out of range: said as such */
	memset(msg, 0, sizeof(msg));
	CHECK(load(&n, "cpu 65536 node 0\n", msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, ":1: a CPU number above 65535") != NULL);
	kmem_numa_release(&n);
	memset(msg, 0, sizeof(msg));
	CHECK(load(&n, "cpu 65535 node 0\nmem 0x0-0x10000000000000000 node 0\n",
		   msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, ":2: a number too large") != NULL);
	kmem_numa_release(&n);
	memset(msg, 0, sizeof(msg));
	CHECK(load(&n, "cpu 0 node 2147483648\n", msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, ":1: a number too large") != NULL);
	kmem_numa_release(&n);
	memset(msg, 0, sizeof(msg));
	CHECK(load(&n, "cpu 0 node 0\nmem 0x10-0x10 node 0\n", msg,
		   sizeof(msg)) == -1);
	CHECK(strstr(msg, ":2: a memory range whose END is not above") != NULL);
	kmem_numa_release(&n);
	memset(msg, 0, sizeof(msg));
	CHECK(load(&n, "cpu -1 node 0\n", msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, ":1: bad line") != NULL);
	kmem_numa_release(&n);
	/* a leading 0 is decimal, not octal */
	CHECK(load(&n, "cpu 0 node 0\nmem 0100-0200 node 0\n", msg,
		   sizeof(msg)) == 0);
	CHECK_U64(kmem_numa_pfn(&n, 150), 0);
	CHECK(kmem_numa_pfn(&n, 70) == -1);
	kmem_numa_release(&n);
	/* tabs, CRLF and the largest 64-bit pfn still read */
	CHECK(load(&n,
		   "cpu\t1\tnode 0\r\nmem 0x0-0xffffffffffffffff node 0\r\n",
		   msg, sizeof(msg)) == 0);
	CHECK_U64(kmem_numa_cpu(&n, 1), 0);
	kmem_numa_release(&n);
	memset(msg, 0, sizeof(msg));
	CHECK(load(&n, "cpu 0 node 0\nmem 0-100 node 0\nmem 50-150 node 1\n",
		   msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, "overlap") != NULL);
	kmem_numa_release(&n);
	memset(msg, 0, sizeof(msg));
	CHECK(load(&n, "cpu 0 node 0\n", msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, "no mem lines") != NULL);
	kmem_numa_release(&n);
	unlink(write_tmp(""));
}

static struct kmem_event ev(enum kmem_ev_kind kind, int cpu, uint64_t pfn)
{
	struct kmem_event e = { 0 };

	e.kind = kind;
	e.cpu = cpu;
	e.pfn = pfn;
	e.page_valid = true;
	e.node = KMEM_NO_NODE;
	return e;
}

static void test_cross_node(void)
{
	struct kmem_numa n;
	struct kmem_agg a;
	struct kmem_event e;
	char msg[256];

	CHECK(load(&n, "cpu 0 node 0\ncpu 1 node 1\nmem 0-0x1000 node 0\n"
		       "mem 0x1000-0x2000 node 1\n", msg, sizeof(msg)) == 0);
	kmem_agg_init(&a);
	kmem_agg_set_numa(&a, &n);
	e = ev(KMEM_EV_PAGE_ALLOC, 0, 0x1500);	/* node 1 page, CPU node 0 */
	kmem_agg_event(&a, &e);
	e = ev(KMEM_EV_PAGE_ALLOC, 1, 0x1600);	/* local */
	kmem_agg_event(&a, &e);
	e = ev(KMEM_EV_PAGE_FREE, 0, 0x1600);	/* freed on node 0 */
	kmem_agg_event(&a, &e);
	e = ev(KMEM_EV_PAGE_FREE, 1, 0x1500);	/* local free */
	kmem_agg_event(&a, &e);
	e = ev(KMEM_EV_PAGE_ALLOC, 5, 0x10);	/* CPU 5: unknown node */
	kmem_agg_event(&a, &e);
	e = ev(KMEM_EV_SLAB_ALLOC, 0, 0);	/* kmalloc_node(.., 1) */
	e.ptr = 0x5000;
	e.node = 1;
	kmem_agg_event(&a, &e);
	e.ptr = 0x6000;				/* NUMA_NO_NODE */
	e.node = KMEM_NO_NODE;
	kmem_agg_event(&a, &e);
	kmem_agg_finish(&a);

	CHECK_U64(agg_page(&a)->sum.remote_allocs, 1);
	CHECK_U64(agg_page(&a)->sum.remote_alloc_bytes, 4096);
	CHECK_U64(agg_page(&a)->sum.cross_frees, 1);
	CHECK_U64(agg_page(&a)->sum.cross_free_bytes, 4096);
	CHECK_U64(agg_slab(&a)->sum.cross_node_allocs, 1);
	kmem_agg_release(&a);
	kmem_numa_release(&n);
	unlink(write_tmp(""));
}

int main(void)
{
	RUN(test_load);
	RUN(test_cross_node);
	UNIT_EXIT();
}
