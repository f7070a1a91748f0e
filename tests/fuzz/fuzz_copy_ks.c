// SPDX-License-Identifier: LGPL-2.1
/*
 * fuzz_copy's KernelShark side: each record through kmem_ks_copy() as
 * kernelshark/plugin.c's keep() gives it, then every copy read back with
 * kmem_ks_copy_read(), every byte, and the counts compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "event/extent.h"
#include "fuzz_copy.h"
#include "kmem_ks.h"

#define MAX_CPUS 8

struct fz_ks {
	struct kmem_ks_copies copies[MAX_CPUS];
	int cpus;
	int max_size;
	unsigned int page;
	uint64_t kept, kept_bytes, kept_bad;
};

struct fz_ks *fz_ks_new(int cpus, int max_size, unsigned int page)
{
	struct fz_ks *k = calloc(1, sizeof(*k));

	if (!k || cpus > MAX_CPUS)
		abort();
	k->cpus = cpus;
	k->max_size = max_size;
	k->page = page;
	return k;
}

/* Return: whether the copy holds the record's data (else: damaged). */
bool fz_ks_copy(struct fz_ks *k, const struct tep_record *rec, int cpu,
		uintptr_t entry)
{
	bool ok = rec->size >= 0 && rec->size <= k->max_size && rec->data &&
		  kmem_record_in_page(rec, k->page);

	if (kmem_ks_copy(&k->copies[cpu], rec, (struct kshark_entry *)entry,
			 k->max_size, k->page))
		abort();
	k->kept++;
	if (ok)
		k->kept_bytes += (uint64_t)rec->size;
	else
		k->kept_bad++;
	return ok;
}

void fz_ks_read_free(struct fz_ks *k)
{
	struct kmem_ks_cursor c;
	struct tep_record rec;
	uint64_t n = 0, bytes = 0, bad = 0;
	size_t i;
	int cpu;

	for (cpu = 0; cpu < k->cpus; cpu++) {
		memset(&c, 0, sizeof(c));
		for (i = 0; i < k->copies[cpu].count; i++) {
			kmem_ks_copy_read(&c, &k->copies[cpu], &rec);
			n++;
			if (rec.size < 0) {
				bad++;
				continue;
			}
			fz_read(rec.data, rec.size);
			bytes += (uint64_t)rec.size;
		}
		kmem_ks_copies_free(&k->copies[cpu]);
	}
	if (n != k->kept || bytes != k->kept_bytes || bad != k->kept_bad) {
		fprintf(stderr,
			"copies read back: %llu (%llu bytes, %llu damaged), "
			"kept %llu (%llu, %llu)\n",
			(unsigned long long)n, (unsigned long long)bytes,
			(unsigned long long)bad, (unsigned long long)k->kept,
			(unsigned long long)k->kept_bytes,
			(unsigned long long)k->kept_bad);
		abort();
	}
	free(k);
}
