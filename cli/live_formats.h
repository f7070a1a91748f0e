/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * trace-kmem live's tep handle, read from this machine (live_formats.c).
 */
#ifndef TRACE_KMEM_LIVE_FORMATS_H
#define TRACE_KMEM_LIVE_FORMATS_H

#include <event-parse.h>

struct tep_handle *live_local_tep(const char *const *systems);

#endif
