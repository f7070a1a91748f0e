// SPDX-License-Identifier: LGPL-2.1
/*
 * The per-process registry of plugin states (see registry.h).
 *
 * An entry is (tep handle, owner, state): the owner tells the copies of
 * the plugin apart (each passes an address in its own code).  The
 * registry is looked up from the main program's handle (dlopen(NULL)):
 * libtraceevent loads plugins RTLD_GLOBAL, so a copy loaded later finds
 * the first one's.  (Not with RTLD_DEFAULT: this .so is linked
 * -Bsymbolic, and glibc then searches the caller itself first.)
 * The copy loaded last has the event handlers, is unloaded first and
 * reports; the handle's entries note that, so the earlier copies stay
 * silent.  The note goes with the handle's last entry: a handle freed
 * and another allocated at the same address starts afresh.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#include "registry.h"

#define EXPORT __attribute__((visibility("default")))

struct entry {
	struct entry *next;
	struct tep_handle *tep;
	const void *owner;
	void *state;
};

struct registry {
	pthread_mutex_t lock;
	struct entry *head;
	/* handles whose statistics were printed, while entries remain */
	struct entry *reported;
};

/* The name is the interface between copies: change it with the layout. */
EXPORT struct registry kmem_plugin_registry_v1 = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

static struct registry *registry(void)
{
	void *main_prog = dlopen(NULL, RTLD_LAZY);
	struct registry *r = NULL;

	if (main_prog) {
		r = dlsym(main_prog, "kmem_plugin_registry_v1");
		dlclose(main_prog);
	}
	return r ? r : &kmem_plugin_registry_v1;
}

/**
 * kmem_registry_add - keep a load's state
 * @tep: the handle it was loaded into
 * @owner: an address in the loading copy's code
 * @state: the state
 *
 * Return: 0, or -1 when memory ran out.
 */
int kmem_registry_add(struct tep_handle *tep, const void *owner, void *state)
{
	struct registry *r = registry();
	struct entry *e = malloc(sizeof(*e));

	if (!e)
		return -1;
	e->tep = tep;
	e->owner = owner;
	e->state = state;
	pthread_mutex_lock(&r->lock);
	e->next = r->head;
	r->head = e;
	pthread_mutex_unlock(&r->lock);
	return 0;
}

static bool has_tep(struct entry *list, struct tep_handle *tep)
{
	for (; list; list = list->next)
		if (list->tep == tep)
			return true;
	return false;
}

/**
 * kmem_registry_others - is state kept for another handle?
 * @tep: the handle being unloaded
 *
 * trace-cmd loads the plugins into every input's handle before it reads
 * and unloads them in input order: another handle in the registry is a
 * later input that has yet to report.
 *
 * Return: true if there is one.
 */
bool kmem_registry_others(struct tep_handle *tep)
{
	struct registry *r = registry();
	struct entry *e;
	bool others = false;

	pthread_mutex_lock(&r->lock);
	for (e = r->head; e && !others; e = e->next)
		others = e->tep != tep;
	pthread_mutex_unlock(&r->lock);
	return others;
}

static void drop_reported(struct registry *r, struct tep_handle *tep)
{
	struct entry **p = &r->reported, *e;

	while ((e = *p)) {
		if (e->tep == tep) {
			*p = e->next;
			free(e);
		} else {
			p = &e->next;
		}
	}
}

/**
 * kmem_registry_take - a load's state, removed from the registry
 * @tep: the handle being unloaded
 * @owner: the unloading copy's address, as given to kmem_registry_add()
 * @report: set when this copy is the first to unload from @tep (it
 *	reports; the handle is then noted as reported)
 *
 * Return: the state, or NULL when this copy has none on @tep.
 */
void *kmem_registry_take(struct tep_handle *tep, const void *owner,
			 bool *report)
{
	struct registry *r = registry();
	struct entry **p, *e;
	void *state = NULL;

	*report = false;
	pthread_mutex_lock(&r->lock);
	for (p = &r->head; (e = *p); p = &e->next) {
		if (e->tep == tep && e->owner == owner) {
			*p = e->next;
			state = e->state;
			free(e);
			break;
		}
	}
	if (state && !has_tep(r->reported, tep)) {
		e = malloc(sizeof(*e));
		*report = true;
		if (e) {
			e->tep = tep;
			e->owner = NULL;
			e->state = NULL;
			e->next = r->reported;
			r->reported = e;
		}
	}
	if (!has_tep(r->head, tep))
		drop_reported(r, tep);
	pthread_mutex_unlock(&r->lock);
	return state;
}

/**
 * kmem_registry_take_any - a load's state on any handle, removed
 * @owner: the copy's address, as given to kmem_registry_add()
 * @report: as kmem_registry_take()'s
 *
 * At exit, for the loads trace-cmd never unloaded.
 *
 * Return: a state of @owner, or NULL when it has none left.
 */
void *kmem_registry_take_any(const void *owner, bool *report)
{
	struct registry *r = registry();
	struct tep_handle *tep = NULL;
	struct entry *e;

	*report = false;
	pthread_mutex_lock(&r->lock);
	for (e = r->head; e && !tep; e = e->next)
		if (e->owner == owner)
			tep = e->tep;
	pthread_mutex_unlock(&r->lock);
	return tep ? kmem_registry_take(tep, owner, report) : NULL;
}
