/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Asking a trace's own event formats: print a crafted record through an
 * event's print fmt and read one value back.  Used once per trace (or
 * per distinct value shown), never per event.
 */
#ifndef KMEM_FMTPROBE_H
#define KMEM_FMTPROBE_H

#include <stddef.h>

#include <event-parse.h>

int fmt_probe(struct tep_event *event, const char *field, unsigned long long v,
	      const char *key, char *out, size_t len);
size_t fmt_probe_too_long(struct tep_event *event);
int fmt_pageblock_order(struct tep_event *extfrag);
unsigned long long fmt_account_bit(struct tep_event *alloc);

#endif
