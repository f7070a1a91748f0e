/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The leak tables of an allocator's section, text and JSON.
 */
#ifndef KMEM_REPORT_LEAKS_H
#define KMEM_REPORT_LEAKS_H

#include <stdio.h>

#include "analysis/leaks.h"
#include "base/json.h"
#include "report.h"

void leaks_print(const struct kmem_report_ctx *r, FILE *out,
		 enum kmem_alloc_id which);
void leaks_json(const struct kmem_report_ctx *r, struct json *j,
		enum kmem_alloc_id which);

#endif
