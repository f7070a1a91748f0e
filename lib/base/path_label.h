/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * How an input file is named in titles and JSON: its real path,
 * relative to the current directory when below it.  Both front ends
 * name a file the same way, so their reports are byte-identical.
 */
#ifndef KMEM_PATH_LABEL_H
#define KMEM_PATH_LABEL_H

#include <stddef.h>

const char *kmem_relative_path(const char *abs);
void kmem_path_label(char *buf, size_t len, const char *path);

#endif
