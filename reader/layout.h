/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What layout.c (the options both versions share, and version 7's
 * sections) and layout_v6.c (version 6's fixed parts) share.
 */
#ifndef TDAT_LAYOUT_H
#define TDAT_LAYOUT_H

#include "internal.h"

enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_BUFFER = 3,
	OPT_UNAME = 5,
	OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
	OPT_STRINGS = 15,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
};

struct sections;

int tdat_init_buffers(struct tdat_file *f);
struct tdat_buffer *tdat_add_buffer(struct tdat_file *f, const char *name);
int tdat_layout_option(struct tdat_file *f, int id, const uint8_t *p,
		       uint64_t size, struct sections *s, uint64_t *next);

#endif
