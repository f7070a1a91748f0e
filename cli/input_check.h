/* SPDX-License-Identifier: LGPL-2.1 */
#ifndef TRACE_KMEM_INPUT_CHECK_H
#define TRACE_KMEM_INPUT_CHECK_H

#include <stdbool.h>

int tk_check_input(const char *path);
bool tk_is_trace(const char *path);
int tk_check_distinct(const char **paths, int n);

#endif
