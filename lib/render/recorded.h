/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What a trace recorded, as a report must say it: which of its figures
 * rest on events the trace holds none of (shown "-", JSON null), and
 * whether a free of an object already freed is surely a double free or
 * may be a free whose allocation the recording did not see.
 */
#ifndef KMEM_RECORDED_H
#define KMEM_RECORDED_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

/* Room for kmem_free_doubt()'s reason. */
#define KMEM_DOUBT_LEN 160

enum kmem_slot kmem_kind_slot(enum kmem_ev_kind kind);
uint64_t kmem_unrecorded_slots(const struct kmem_report_ctx *r,
			       enum kmem_ev_kind kind);
bool kmem_recorded(const struct kmem_report_ctx *r, enum kmem_ev_kind kind);
const char *kmem_free_doubt(const struct kmem_report_ctx *r,
			    enum kmem_alloc_id id, char *buf, size_t len);

#endif
