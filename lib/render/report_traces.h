/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The inputs of one report over many traces (stat --merge), listed: each
 * one's machine, time span, records and losses.
 */
#ifndef KMEM_REPORT_TRACES_H
#define KMEM_REPORT_TRACES_H

#include <stdio.h>

#include "base/json.h"
#include "report.h"

void kmem_merged_render_cfg(struct kmem_render_cfg *rc);
void kmem_report_traces_text(const struct kmem_report_ctx *r, FILE *out);
void kmem_report_traces_json(const struct kmem_report_ctx *r, struct json *j);

#endif
