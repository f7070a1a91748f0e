/* SPDX-License-Identifier: LGPL-2.1 */
#ifndef TRACE_KMEM_INPUT_CHECK_H
#define TRACE_KMEM_INPUT_CHECK_H

int tk_check_input(const char *path);

#endif
