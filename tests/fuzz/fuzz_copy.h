/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * fuzz_copy's KernelShark side (fuzz_copy_ks.c), apart because
 * libkshark's headers (json-c's json.h) and cli/'s (lib/json.h) do not
 * mix in one file.
 */
#ifndef FUZZ_COPY_H
#define FUZZ_COPY_H

#include <stdbool.h>
#include <stdint.h>

struct tep_record;
struct fz_ks;

struct fz_ks *fz_ks_new(int cpus, int max_size, unsigned int page);
bool fz_ks_copy(struct fz_ks *k, const struct tep_record *rec, int cpu,
		uintptr_t entry);
void fz_ks_read_free(struct fz_ks *k);
void fz_read(const void *data, int size);

#endif
