/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Minimal unit-test harness.  Each test function runs its checks; the
 * runner (tests/run.sh) counts the "PASS name" and "FAIL name" lines.
 */
#ifndef KMEM_UNIT_H
#define KMEM_UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/*
 * Weak, so that the files of one test program (a test_*.c and the
 * tests/unit/ files it shares with others) count in the same ones.
 */
int unit_failed __attribute__((weak));	     /* failures in the current test */
int unit_total_failed __attribute__((weak)); /* failed tests in this program */

#define CHECK(cond)                                                         \
	do {                                                                \
		if (!(cond)) {                                              \
			printf("  %s:%d: check failed: %s\n", __FILE__,     \
			       __LINE__, #cond);                            \
			unit_failed++;                                      \
		}                                                           \
	} while (0)

#define CHECK_U64(got, want)                                                \
	do {                                                                \
		uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);       \
		if (g_ != w_) {                                             \
			printf("  %s:%d: %s = %" PRIu64 ", want %" PRIu64   \
			       "\n", __FILE__, __LINE__, #got, g_, w_);     \
			unit_failed++;                                      \
		}                                                           \
	} while (0)

#define CHECK_STR(got, want)                                                \
	do {                                                                \
		const char *g_ = (got), *w_ = (want);                       \
		if (!g_ || strcmp(g_, w_)) {                                \
			printf("  %s:%d: %s = \"%s\", want \"%s\"\n",       \
			       __FILE__, __LINE__, #got, g_ ? g_ : "(null)", \
			       w_);                                         \
			unit_failed++;                                      \
		}                                                           \
	} while (0)

#define RUN(fn)                                                             \
	do {                                                                \
		unit_failed = 0;                                            \
		fn();                                                       \
		printf("%s %s\n", unit_failed ? "FAIL" : "PASS", #fn);      \
		unit_total_failed += !!unit_failed;                         \
	} while (0)

#define UNIT_EXIT() return unit_total_failed ? 1 : 0

#endif
