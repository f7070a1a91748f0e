/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Where each load of the plugin finds its state again: a registry in
 * the process, keyed by the tep handle, that nothing in a trace file
 * can reach (the file fills the handle's pid -> comm table, which is
 * why the state is not kept there).  Copies of this plugin loaded from
 * two directories into one process share one registry, the first-loaded
 * copy's, so that only one of them reports on a handle.
 */
#ifndef KMEM_PLUGIN_REGISTRY_H
#define KMEM_PLUGIN_REGISTRY_H

#include <stdbool.h>

#include <event-parse.h>

int kmem_registry_add(struct tep_handle *tep, const void *owner, void *state);
bool kmem_registry_others(struct tep_handle *tep);
void *kmem_registry_take(struct tep_handle *tep, const void *owner,
			 bool *report);
void *kmem_registry_take_any(const void *owner, bool *report);

#endif
