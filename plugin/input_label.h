/* SPDX-License-Identifier: LGPL-2.1 */
#ifndef KMEM_INPUT_LABEL_H
#define KMEM_INPUT_LABEL_H

#include <stddef.h>

int input_label(char *buf, size_t len, char *path, size_t path_len);

#endif
