// SPDX-License-Identifier: LGPL-2.1
/*
 * Number formatting (see numfmt.h).  All buffers are NUMFMT_LEN bytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "numfmt.h"

/**
 * fmt_count - format an unsigned number with thousands separators
 * @buf: NUMFMT_LEN bytes
 * @v: the number
 *
 * Return: @buf, e.g. "51,630,080".
 */
char *fmt_count(char *buf, uint64_t v)
{
	char tmp[NUMFMT_LEN];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	int i, o = 0;

	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

/**
 * fmt_count_dot - like fmt_count(), but "." for zero
 * @buf: NUMFMT_LEN bytes
 * @v: the number
 *
 * Used in columns where zero is common, so that non-zero values stand
 * out (Ingo Molnar's review of perf kmem's output).
 *
 * Return: @buf.
 */
char *fmt_count_dot(char *buf, uint64_t v)
{
	if (!v) {
		strcpy(buf, ".");
		return buf;
	}
	return fmt_count(buf, v);
}

/**
 * fmt_signed - format a signed number with thousands separators
 * @buf: NUMFMT_LEN bytes
 * @v: the number
 *
 * Return: @buf, e.g. "-4,096".
 */
char *fmt_signed(char *buf, int64_t v)
{
	if (v >= 0)
		return fmt_count(buf, (uint64_t)v);
	buf[0] = '-';
	fmt_count(buf + 1, (uint64_t)0 - (uint64_t)v);
	return buf;
}

/**
 * pct_of - a percentage, 0 when the whole is 0
 * @part: the part
 * @whole: the whole
 *
 * Return: 100 * @part / @whole.
 */
double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/**
 * fmt_pct - format a percentage with two decimals, "." for exactly zero
 * @buf: NUMFMT_LEN bytes
 * @pct: the percentage
 *
 * Return: @buf, e.g. "12.50%".
 */
char *fmt_pct(char *buf, double pct)
{
	if (pct == 0.0)
		strcpy(buf, ".");
	else
		snprintf(buf, NUMFMT_LEN, "%.2f%%", pct);
	return buf;
}

/**
 * fmt_duration - format a duration in trace clock units (ns) for humans
 * @buf: NUMFMT_LEN bytes
 * @ns: the duration
 *
 * Return: @buf, e.g. "850ns", "12.3us", "4.56ms", "2.10s".
 */
char *fmt_duration(char *buf, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, NUMFMT_LEN, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, NUMFMT_LEN, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, NUMFMT_LEN, "%.2fms", ns / 1e6);
	else
		snprintf(buf, NUMFMT_LEN, "%.2fs", ns / 1e9);
	return buf;
}

/**
 * fmt_mean_duration - the mean of durations, or "-" if there are none
 * @buf: NUMFMT_LEN bytes
 * @sum: the sum of the durations (ns)
 * @n: how many
 *
 * Return: @buf, as fmt_duration() of @sum / @n.
 */
char *fmt_mean_duration(char *buf, uint64_t sum, uint64_t n)
{
	if (!n)
		return strcpy(buf, "-");
	return fmt_duration(buf, sum / n);
}

/**
 * fmt_total_size - "total/mean size" for a TBL_PAIR cell
 * @buf: NUMFMT_PAIR_LEN bytes
 * @total: the total bytes
 * @n: how many allocations (the mean is total / n, truncated)
 *
 * Return: @buf, e.g. "65,536/16,384".
 */
char *fmt_total_size(char *buf, uint64_t total, uint64_t n)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

	snprintf(buf, NUMFMT_PAIR_LEN, "%s/%s", fmt_count(a, total),
		 fmt_count(b, n ? total / n : 0));
	return buf;
}

/**
 * fmt_count_bytes - "count/bytes" for a TBL_PAIR cell, "." for none
 * @buf: NUMFMT_PAIR_LEN bytes
 * @count: how many objects
 * @bytes: their bytes
 *
 * Return: @buf, e.g. "24/139,776".
 */
char *fmt_count_bytes(char *buf, uint64_t count, uint64_t bytes)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

	if (!count)
		return strcpy(buf, ".");
	snprintf(buf, NUMFMT_PAIR_LEN, "%s/%s", fmt_count(a, count),
		 fmt_count(b, bytes));
	return buf;
}
