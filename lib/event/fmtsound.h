/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Could a kernel have written an event format?  Checked once per event
 * type, never per event.
 */
#ifndef KMEM_FMTSOUND_H
#define KMEM_FMTSOUND_H

#include <stdbool.h>

#include <event-parse.h>

bool kmem_format_sound(const struct tep_event *ev);
bool kmem_field_sound(const struct tep_format_field *fl);

#endif
