// SPDX-License-Identifier: LGPL-2.1
/*
 * The event table (lib/event/events.c): what trace-kmem live enables,
 * what the decoder and the front ends find in it, against the lists
 * they were written out as before the table.
 */
#include "event/decode.h"
#include "event/events.h"
#include "unit.h"

/* trace-kmem live's lists as cli/live.c spelt them out, with systems */
static const char *const slab_events[] = {
	"kmalloc",
	"kmalloc_node",
	"kmem_cache_alloc",
	"kmem_cache_alloc_node",
	"kfree",
	"kmem_cache_free",
	NULL,
};
static const char *const page_events[] = {
	"mm_page_alloc",
	"mm_page_free",
	"mm_page_free_batched",
	"mm_page_alloc_zone_locked",
	"mm_page_pcpu_drain",
	"mm_page_alloc_extfrag",
	NULL,
};
static const char *const percpu_events[] = {
	"percpu_alloc_percpu",	    "percpu_free_percpu",
	"percpu_alloc_percpu_fail", "percpu_create_chunk",
	"percpu_destroy_chunk",	    NULL,
};

static void check_live(enum kmem_alloc_id a, const char *sys,
		       const char *const *want)
{
	enum kmem_slot slots[KMEM_NR_SLOTS];
	int n = kmem_events_select(a, KMEM_EVF_LIVE, slots, KMEM_NR_SLOTS);
	int i;

	for (i = 0; want[i]; i++) {
		CHECK(i < n);
		if (i >= n)
			return;
		CHECK_STR(kmem_event_defs[slots[i]].name, want[i]);
		CHECK_STR(kmem_event_defs[slots[i]].system, sys);
	}
	CHECK(n == i);
}

static void test_live_lists(void)
{
	check_live(KMEM_ALLOC_SLAB, "kmem", slab_events);
	check_live(KMEM_ALLOC_PAGE, "kmem", page_events);
	check_live(KMEM_ALLOC_PERCPU, "percpu", percpu_events);
}

static void test_systems(void)
{
	const char *sys[5], *few[2];

	CHECK(kmem_events_systems(sys, 5) == 4);
	CHECK_STR(sys[0], "kmem");
	CHECK_STR(sys[1], "ftrace");
	CHECK_STR(sys[2], "percpu");
	CHECK_STR(sys[3], "vmalloc");
	CHECK(sys[4] == NULL);
	/* too little room: what fits, and the count */
	CHECK(kmem_events_systems(few, 2) == 4);
	CHECK_STR(few[0], "kmem");
	CHECK(few[1] == NULL);
}

/* every event of an allocator, the pre-3.3 ones too; none too many */
static void test_select(void)
{
	enum kmem_slot slots[KMEM_NR_SLOTS], two[2];

	CHECK(kmem_events_select(KMEM_ALLOC_PAGE, 0, slots, KMEM_NR_SLOTS) == 8);
	CHECK(slots[3] == KMEM_SLOT_PAGE_FREE_DIRECT);
	CHECK(kmem_events_select(KMEM_NR_ALLOC, 0, slots, KMEM_NR_SLOTS) == 1);
	CHECK(slots[0] == KMEM_SLOT_KERNEL_STACK);
	CHECK(kmem_events_select(KMEM_ALLOC_SLAB, 0, two, 2) == 6);
	CHECK(two[0] == KMEM_SLOT_KMALLOC && two[1] == KMEM_SLOT_KMALLOC_NODE);
}

/* the slot lookups, as decode.c had them before the table */
static void test_slots(void)
{
	int i;

	for (i = 0; i < KMEM_NR_SLOTS; i++) {
		const struct kmem_event_def *d = &kmem_event_defs[i];
		const char *sys = i >= KMEM_SLOT_VMAP_ALLOC	? "vmalloc"
				  : i >= KMEM_SLOT_PERCPU_ALLOC ? "percpu"
				  : i == KMEM_SLOT_KERNEL_STACK ? "ftrace"
								: "kmem";

		CHECK_STR(kmem_slot_system(i), sys);
		CHECK(kmem_slot_event_name(i) == d->name);
		CHECK(kmem_slot_by_name(sys, d->name) == i);
		CHECK((d->alloc == KMEM_ALLOC_SLAB) ==
		      (i < KMEM_NR_SLAB_SLOTS));
		CHECK((d->alloc == KMEM_ALLOC_PERCPU) ==
		      (i >= KMEM_SLOT_PERCPU_ALLOC &&
		       i < KMEM_SLOT_VMAP_ALLOC));
		CHECK(d->fields_init && d->decode);
	}
	CHECK(kmem_slot_by_name("percpu", "kmalloc") == -1);
	CHECK(kmem_slot_by_name("kmem", "kernel_stack") == -1);
	CHECK(kmem_slot_by_name("kmem", "nothing") == -1);
}

int main(void)
{
	RUN(test_live_lists);
	RUN(test_systems);
	RUN(test_select);
	RUN(test_slots);
	UNIT_EXIT();
}
