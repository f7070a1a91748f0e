/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Where a record libtracecmd hands over ends: within its page, or past
 * it (a damaged length word), for the readers over libtracecmd (cli/,
 * kernelshark/).
 */
#ifndef KMEM_EXTENT_H
#define KMEM_EXTENT_H

#include <stdbool.h>

struct tep_handle;
struct tep_record;

unsigned int kmem_page_bound(struct tep_handle *tep);
bool kmem_record_in_page(const struct tep_record *rec, unsigned int page);

#endif
