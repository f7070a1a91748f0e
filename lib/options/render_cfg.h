/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The options as the renderers see them (struct kmem_render_cfg), the
 * width of the terminal a table goes to, and one report written to the
 * destinations the options name.
 */
#ifndef KMEM_RENDER_CFG_H
#define KMEM_RENDER_CFG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "output.h"
#include "render/report.h"

size_t kmem_term_width(FILE *out);
void kmem_opts_render_cfg(const struct kmem_opts *o, FILE *tables,
			  struct kmem_render_cfg *c);
uint64_t kmem_agg_oom_say(const struct kmem_agg *a, const char *label,
			  FILE *err);
int kmem_outputs_end(struct kmem_outputs *outs, FILE *err);
int kmem_outputs_report(const struct kmem_report_ctx *r,
			struct kmem_outputs *outs, FILE *err);

#endif
