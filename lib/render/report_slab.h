/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The slab allocator's section: its tables, summary and JSON.
 */
#ifndef KMEM_REPORT_SLAB_H
#define KMEM_REPORT_SLAB_H

#include <stdint.h>
#include <stdio.h>

#include "alloc/slab.h"
#include "base/json.h"
#include "report.h"
#include "sort.h"

void slab_print(const struct kmem_report_ctx *r, FILE *out);
void slab_json(const struct kmem_report_ctx *r, struct json *j);
void slab_site_sort_keys(struct sort_set *set, const struct slab_site *s,
			 uint32_t idx);

#endif
