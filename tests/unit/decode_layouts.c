// SPDX-License-Identifier: LGPL-2.1
/*
 * Where each field of the kmem events is in the kernels the decoding
 * tests cover, as their format files (tests/formats/) say, and a check
 * of a parsed format file against them.
 */
#include <string.h>

#include <event-parse.h>

#include "decode_util.h"
#include "unit.h"


const struct layout linux_2_6_32 = {
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

const struct layout linux_5_15 = {
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

const struct layout linux_6_0 = {
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
const struct layout linux_6_1_ppc32 = {
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

const struct layout linux_6_18 = {
	.label = "6.18 x86_64",
	.file = "linux-6.18-x86_64.txt",
	.long_size = 8,
	.names = NAMES_BOTH,
	.site_base = 0xffffffff81000000ULL,
	.ptr_base = 0xffff888100000000ULL,
	.ev = EV_6_18,
};

/* The same format read as a 64-bit big-endian (s390x-style) trace */
const struct layout linux_6_18_be64 = {
	.label = "6.18 s390x-style (64-bit big-endian)",
	.file = "linux-6.18-x86_64.txt",
	.long_size = 8,
	.big_endian = true,
	.names = NAMES_BOTH,
	.site_base = 0x0000000000100000ULL,
	.ptr_base = 0x0000000080000000ULL,
	.ev = EV_6_18,
};

const struct layout synthetic_rel_loc = {
	.label = "6.18 with __rel_loc names (synthetic)",
	.file = "synthetic-rel_loc-x86_64.txt",
	.long_size = 8,
	.rel_loc = true,
	.names = NAMES_BOTH,
	.site_base = 0xffffffff81000000ULL,
	.ptr_base = 0xffff888100000000ULL,
	.ev = EV_6_18,
};

/**
 * check_fields - the events of @tep against the layout table, and their
 * kmem_fields
 * @L: the layout
 * @tep: the events of its format file
 * @fields: KMEM_NR_SLOTS of them, set up from @tep
 */
void check_fields(const struct layout *L, struct tep_handle *tep,
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
