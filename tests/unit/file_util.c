// SPDX-License-Identifier: LGPL-2.1
/* Files for the unit tests. */
#include <stdio.h>
#include <stdlib.h>

#include "file_util.h"

/**
 * unit_slurp - a whole file in memory
 * @path: the file
 * @len: set to its size (0 on failure)
 *
 * Return: its bytes (free() them), or NULL when it cannot be read or is
 * empty.
 */
uint8_t *unit_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!fp) {
		*len = 0;
		return NULL;
	}
	if (!fseek(fp, 0, SEEK_END) && (n = ftell(fp)) > 0 &&
	    !fseek(fp, 0, SEEK_SET) && (buf = malloc((size_t)n)) &&
	    fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*len = buf ? (size_t)n : 0;
	fclose(fp);
	return buf;
}
