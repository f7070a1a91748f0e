/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The vmalloc allocator's section: its tables, summary and JSON.
 */
#ifndef KMEM_REPORT_VMALLOC_H
#define KMEM_REPORT_VMALLOC_H

#include <stdio.h>

#include "alloc/vmalloc.h"
#include "base/json.h"
#include "cols.h"
#include "report.h"

void vmalloc_print(const struct kmem_report_ctx *r, FILE *out);
void vmalloc_json(const struct kmem_report_ctx *r, struct json *j);
extern const struct cols_def vmalloc_freed_sites;
void vmalloc_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		   const struct cols_def *def);

#endif
