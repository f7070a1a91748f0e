/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reports as a pprof profile (pprof/pprof.h): a sample per call-site row
 * of each allocator, the rows the JSON document holds, so the profile
 * has the tables' filters, time window and instance.
 *
 * Sample types are Go's heap profile's: alloc_objects/count,
 * alloc_space/bytes (the default), inuse_objects/count and
 * inuse_space/bytes (live at the end of the trace), and wasted_space/
 * bytes (a slab row's bytes allocated beyond those requested; 0 for the
 * other allocators).  A sample's stack is its call site, one location
 * in the kernel's mapping: the function its symbol names, the offset as
 * the line.  String labels: allocator, and of a page row order,
 * migratetype and gfp; trace (the input's name) when the profile holds
 * several; the user's (pprof-label=KEY=VALUE).  A number label bytes
 * (unit bytes) is an object's mean size, as in Go's heap profiles.
 * Comments name each trace, its host and kernel release where it says,
 * and what of it was damaged or left out.
 */
#ifndef KMEM_REPORT_PPROF_H
#define KMEM_REPORT_PPROF_H

#include <stdbool.h>
#include <stddef.h>

#include "pprof/pprof.h"
#include "report.h"

struct kmem_pprof *kmem_pprof_for_reports(void);
int kmem_pprof_add_report(struct kmem_pprof *p, const struct kmem_report_ctx *r,
			  bool several, const struct kmem_label *labels,
			  size_t nr_labels);

#endif
