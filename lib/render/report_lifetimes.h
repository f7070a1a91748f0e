/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The lifetime histograms of an allocator's section, text and JSON.
 */
#ifndef KMEM_REPORT_LIFETIMES_H
#define KMEM_REPORT_LIFETIMES_H

#include <stdio.h>

#include "alloc/lifetime.h"
#include "base/json.h"
#include "report.h"

void lifetimes_print(const struct kmem_report_ctx *r, FILE *out,
		     enum kmem_alloc_id id);
void lifetimes_json_site(struct json *j, const struct kmem_lifetimes *l,
			 uint32_t site);

#endif
