/* SPDX-License-Identifier: LGPL-2.1 */
/* Files for the unit tests (file_util.c). */
#ifndef UNIT_FILE_UTIL_H
#define UNIT_FILE_UTIL_H

#include <stddef.h>
#include <stdint.h>

uint8_t *unit_slurp(const char *path, size_t *len);

#endif
