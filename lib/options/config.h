/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The plain configuration structs of the layers below, filled from the
 * parsed options: nothing under options/ sees struct kmem_opts.
 */
#ifndef KMEM_CONFIG_H
#define KMEM_CONFIG_H

#include "analysis/agg.h"
#include "options.h"

struct kmem_collect_cfg kmem_opts_collect_cfg(const struct kmem_opts *o);

#endif
