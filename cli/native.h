/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * trace-kmem stat through reader/ (the native trace.dat reader): which
 * event formats it parses, and one buffer's records into a session.
 */
#ifndef TRACE_KMEM_NATIVE_H
#define TRACE_KMEM_NATIVE_H

#include "progress.h"
#include "session.h"
#include "tdat.h"

int tk_native_open(const char *path, struct tdat_file **f, bool late,
		   char *left, size_t len);
int tk_native_ready(struct tdat_file *f, const char *path);
int tk_native_validate(const char *path, struct tdat_scan **scan);
int tk_native_check_aligned(const char *path);
void tk_native_modules(struct kmem_symbolizer *sym, struct tdat_file *f);
int tk_native_run(struct tdat_file *f, int buffer, struct tk_session *s,
		  struct tk_progress *progress);

#endif
