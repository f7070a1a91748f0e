/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The one line on stderr that says what damaged data a reader skipped,
 * or that kept libtracecmd from opening a file.
 */
#ifndef TRACE_KMEM_DAMAGE_H
#define TRACE_KMEM_DAMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "tdat.h"

void tk_say_time_back(const char *label, const struct tdat_damage *d);
void tk_say_damage(const char *label, uint64_t records,
		   const struct tdat_damage *d, uint64_t unread);
void tk_refused_line(char *buf, size_t len, const char *label,
		     const struct tdat_damage *d);

#endif
