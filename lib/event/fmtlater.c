// SPDX-License-Identifier: LGPL-2.1
/*
 * The handles whose print formats and comms are parsed when asked for,
 * and what parses them (see fmtlater.h).  A short list under a lock: it
 * is looked at once per print format read (a probe, a comparison) and
 * per task named (a report's row, a --comm test of a new pid), never
 * per record, and holds one entry a file open with the native reader.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "fmtlater.h"

struct later {
	struct tep_handle *tep;
	struct kmem_fmt_source src;
	bool failed; /* a print format could not be parsed: no memory */
	unsigned int said; /* kmem_fmt_first_say()'s bits */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct later *list;
static size_t nr, cap;

/**
 * kmem_fmt_later - register what parses a handle's deferred parts
 * @tep: the handle, its events' print formats (and its comms, when
 *	@src->comms) left for later
 * @src: what parses a print format (called under a lock; it must tell
 *	an event it parsed already), bounds its length and registers the
 *	comms (copied)
 *
 * Until kmem_fmt_later_done(@tep), kmem_fmt_need(), kmem_fmt_bound()
 * and kmem_comms_need() on @tep or its events ask @src.
 *
 * Return: 0, or -1 when memory ran out.
 */
int kmem_fmt_later(struct tep_handle *tep, const struct kmem_fmt_source *src)
{
	int ret = 0;

	pthread_mutex_lock(&lock);
	if (nr == cap) {
		size_t c = cap ? 2 * cap : 8;
		struct later *v = realloc(list, c * sizeof(*v));

		if (v) {
			list = v;
			cap = c;
		}
	}
	if (nr < cap)
		list[nr++] = (struct later){ tep, *src, false, 0 };
	else
		ret = -1;
	pthread_mutex_unlock(&lock);
	return ret;
}

/**
 * kmem_fmt_later_done - forget a handle (before it is freed)
 * @tep: the handle given to kmem_fmt_later(), or any other (no effect)
 */
void kmem_fmt_later_done(struct tep_handle *tep)
{
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < nr; i++)
		if (list[i].tep == tep) {
			list[i] = list[--nr];
			break;
		}
	if (!nr) {
		free(list);
		list = NULL;
		cap = 0;
	}
	pthread_mutex_unlock(&lock);
}

/* The entry of @tep, the lock held; NULL: none. */
static struct later *find(const struct tep_handle *tep)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (list[i].tep == tep)
			return &list[i];
	return NULL;
}

/**
 * kmem_fmt_need - an event's print format, before it is read
 * @ev: the event, or NULL
 *
 * Parses @ev's print format if its handle left it for later
 * (kmem_fmt_later()); else nothing to do.  Never on the per-record path.
 */
void kmem_fmt_need(struct tep_event *ev)
{
	struct later *l;

	if (!ev)
		return;
	pthread_mutex_lock(&lock);
	l = find(ev->tep);
	if (l && l->src.load(l->src.priv, ev))
		l->failed = true;
	pthread_mutex_unlock(&lock);
}

/**
 * kmem_fmt_failed - did memory run out for a part left for later?
 * @tep: the handle
 *
 * An event whose print format could not be parsed keeps an empty one,
 * and what reads it (its GFP flag names, the probes of fmtprobe.c) may
 * then read what another kernel would mean; symbols that could not be
 * indexed print as addresses: its front end fails the report rather
 * than print one that might be wrong.
 *
 * Return: true once a kmem_fmt_need() on @tep's events could not parse
 * one, or its source says another part failed; false for a handle
 * never registered.
 */
bool kmem_fmt_failed(const struct tep_handle *tep)
{
	const struct later *l;
	bool failed;

	pthread_mutex_lock(&lock);
	l = find(tep);
	failed = l &&
		 (l->failed || (l->src.failed && l->src.failed(l->src.priv)));
	pthread_mutex_unlock(&lock);
	return failed;
}

/**
 * kmem_fmt_bound - a bound on an event's print format, unparsed
 * @ev: the event
 *
 * Return: at least the length its print format has, or will have once
 * parsed (its text's), when its handle left it for later and it is
 * still to be parsed; else SIZE_MAX (the event's own print format is the
 * one to look at).
 */
size_t kmem_fmt_bound(const struct tep_event *ev)
{
	const struct later *l;
	size_t b = SIZE_MAX;

	pthread_mutex_lock(&lock);
	l = find(ev->tep);
	if (l)
		b = l->src.bound(l->src.priv, ev);
	pthread_mutex_unlock(&lock);
	return b;
}

/**
 * kmem_comms_need - a handle's saved comms, before a task is named
 * @tep: the handle
 *
 * Registers the comms the trace saved in @tep if its front end left
 * them for later (&struct kmem_fmt_source.comms); else nothing to do.
 * Never on the per-record path.
 */
void kmem_comms_need(struct tep_handle *tep)
{
	const struct later *l;

	pthread_mutex_lock(&lock);
	l = find(tep);
	if (l && l->src.comms)
		l->src.comms(l->src.priv);
	pthread_mutex_unlock(&lock);
}

/**
 * kmem_fmt_first_say - is a line about a handle's formats said yet?
 * @tep: the handle
 * @what: which line, a bit
 *
 * A handle whose print formats are parsed later (kmem_fmt_later()) has
 * its reports of several buffers made from it: such a line is said once.
 *
 * Return: false when @what was said for @tep before; true (and noted)
 * the first time, and always for a handle never registered.
 */
bool kmem_fmt_first_say(const struct tep_handle *tep, unsigned int what)
{
	struct later *l;
	bool first = true;

	pthread_mutex_lock(&lock);
	l = find(tep);
	if (l) {
		first = !(l->said & what);
		l->said |= what;
	}
	pthread_mutex_unlock(&lock);
	return first;
}
