// SPDX-License-Identifier: LGPL-2.1
/*
 * The per-address table: every key found again after the index grew
 * many times, absent keys not found, entries in the order added, keys
 * that share the slot bits, and the bytes an entry costs.
 */
#include <stdlib.h>
#include <string.h>

#include "base/addrtab.h"
#include "unit.h"

struct ent {
	uint64_t key;
	uint64_t val;
};

static void test_many(void)
{
	struct addr_table t;
	uint64_t i, n = 300000;
	int bad = 0;

	addr_table_init(&t, sizeof(struct ent));
	CHECK_U64(addr_table_find(&t, 1), ADDR_NONE);
	for (i = 0; i < n; i++) {
		/* kernel pointers: a 64-byte stride, the same high bits */
		uint64_t k = 0xffff888100000000ULL + i * 64;
		uint32_t e = addr_table_add(&t, k);

		if (e != i) {
			bad++;
			continue;
		}
		((struct ent *)addr_table_at(&t, e))->val = i * 3;
	}
	CHECK(bad == 0);
	CHECK_U64(t.len, n);
	for (i = 0; i < n; i++) {
		uint64_t k = 0xffff888100000000ULL + i * 64;
		uint32_t e = addr_table_find(&t, k);

		if (e != i)
			bad++;
		else if (((struct ent *)addr_table_at(&t, e))->val != i * 3)
			bad++;
		/* between two keys: absent */
		if (addr_table_find(&t, k + 8) != ADDR_NONE)
			bad++;
	}
	CHECK(bad == 0);
	/* 16-byte entries and 4-byte slots at most three quarters full */
	CHECK(t.size == 16);
	CHECK(((size_t)1 << t.bits) * 4 <= n * 4 * 8 / 3);
	CHECK(((size_t)1 << t.bits) * 3 >= n * 4);
	addr_table_release(&t);
	CHECK_U64(addr_table_find(&t, 0xffff888100000000ULL), ADDR_NONE);
	addr_table_release(&t);
}

/*
 * Multiples of 2^58: their hashes differ in the top 6 bits only, so they
 * crowd 64 slots and share the tag (zero): found by comparing keys.
 */
static void test_collisions(void)
{
	struct addr_table t;
	uint64_t keys[64];
	int i, bad = 0;

	addr_table_init(&t, sizeof(uint64_t));
	for (i = 0; i < 64; i++) {
		keys[i] = (uint64_t)i << 58;
		if (addr_table_add(&t, keys[i]) != (uint32_t)i)
			bad++;
	}
	for (i = 0; i < 64; i++)
		if (addr_table_find(&t, keys[i]) != (uint32_t)i)
			bad++;
	CHECK(bad == 0);
	CHECK_U64(addr_table_find(&t, 1), ADDR_NONE);
	addr_table_release(&t);
}

int main(void)
{
	RUN(test_many);
	RUN(test_collisions);
	UNIT_EXIT();
}
