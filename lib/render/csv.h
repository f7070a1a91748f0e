/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The tables as CSV (csv=FILE): RFC 4180, every row of every table the
 * JSON document holds, with the JSON's members as columns.
 *
 * Layout: tables one after another, each a header row and then its
 * rows.  The first two columns name the table and the input on every
 * row: "table" is the JSON path of the table's array ("percpu.callsites",
 * "slab.leaks", "percpu.summary.failures.requests"), "file" the input
 * as the JSON's "file" says it; a header row holds "table" and "file"
 * there, so a header is told from a row by its first field.  Then one
 * column per member of the rows' JSON objects, in their order and under
 * their names (a { "count", "bytes" } member as two, KEY.count and
 * KEY.bytes): the same numbers, raw (no separators, no units); null is
 * an empty field; true and false stay words; a percentage has the
 * JSON's four decimals.  Members that are no single value (a call
 * site's lifetime histogram) are left out; a leak's stack is one field,
 * as the text table shows it (innermost first, " <- " between frames).  Lines
 * end in CRLF; a field holding a comma, a quote, CR or LF is quoted, its quotes
 * doubled.
 */
#ifndef KMEM_CSV_H
#define KMEM_CSV_H

#include <stdio.h>

#include "base/json.h"
#include "cols.h"

/* Where the CSV goes, and the input its rows name. */
struct csv {
	FILE *out;
	const char *file;
};

struct kmem_report_ctx;

int kmem_report_csv(const struct kmem_report_ctx *r, FILE *out);
void csv_table(struct csv *w, const struct json *j, const char *key,
	       const struct cols_ctx *c, const struct sort_set *s);

#endif
