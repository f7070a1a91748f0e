/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Number formatting for the tables: thousands separators, '.' for zero,
 * percentages and durations.
 */
#ifndef KMEM_NUMFMT_H
#define KMEM_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

#define NUMFMT_LEN 32
#define NUMFMT_PAIR_LEN (2 * NUMFMT_LEN + 2)

char *fmt_count(char *buf, uint64_t v);
char *fmt_count_dot(char *buf, uint64_t v);
char *fmt_signed(char *buf, int64_t v);
char *fmt_pct(char *buf, double pct);
char *fmt_duration(char *buf, uint64_t ns);
char *fmt_mean_duration(char *buf, uint64_t sum, uint64_t n);
double pct_of(uint64_t part, uint64_t whole);
char *fmt_total_size(char *buf, uint64_t total, uint64_t n);
char *fmt_count_bytes(char *buf, uint64_t count, uint64_t bytes);

#endif
