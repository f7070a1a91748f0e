/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A pprof profile (lib/pprof/profile.proto) built in memory and written
 * gzip-compressed, as go tool pprof, Pyroscope, Parca and Perfetto read
 * it.  Strings, functions and locations are interned (one entry each,
 * found by hash); samples are appended.  The encoding is protobuf-c's,
 * from the .proto compiled at build time; the compression is zlib's.
 *
 * Memory grows with samples, distinct strings and distinct locations.
 * Out of memory is sticky: the calls after it do nothing and
 * kmem_pprof_write() fails.
 */
#ifndef KMEM_PPROF_H
#define KMEM_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KMEM_PPROF_MAX_TYPES 8

struct kmem_pprof;

/* A label of a sample: a string, or a number in a unit (NULL: none). */
struct kmem_pprof_label {
	const char *key;
	const char *str; /* NULL: a number label */
	int64_t num;
	const char *unit;
};

struct kmem_pprof *kmem_pprof_new(void);
void kmem_pprof_free(struct kmem_pprof *p);
int kmem_pprof_add_type(struct kmem_pprof *p, const char *type,
			const char *unit, bool is_default);
uint64_t kmem_pprof_mapping(struct kmem_pprof *p, uint64_t start,
			    uint64_t limit, const char *file);
uint64_t kmem_pprof_location(struct kmem_pprof *p, uint64_t mapping,
			     uint64_t addr, const char *function, int64_t line);
int kmem_pprof_sample(struct kmem_pprof *p, const uint64_t *locs,
		      size_t nr_locs, const int64_t *values,
		      const struct kmem_pprof_label *labels, size_t nr_labels);
int kmem_pprof_comment(struct kmem_pprof *p, const char *text);
void kmem_pprof_span(struct kmem_pprof *p, int64_t start_ns, int64_t end_ns);
size_t kmem_pprof_nr_samples(const struct kmem_pprof *p);
int kmem_pprof_write(const struct kmem_pprof *p, FILE *out);

#endif
