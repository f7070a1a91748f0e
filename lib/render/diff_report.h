/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The two outputs of trace-kmem diff: the text report (diff_text.c) and
 * the JSON document (diff_json.c), written from the comparison of
 * analysis/diff.h.
 */
#ifndef KMEM_DIFF_REPORT_H
#define KMEM_DIFF_REPORT_H

#include <stdio.h>

#include "analysis/diff.h"
#include "base/json.h"

void kmem_diff_json(const struct kmem_diff *d, struct json *j);
void kmem_diff_text(const struct kmem_diff *d, FILE *out);

#endif
