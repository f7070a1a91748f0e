/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Print formats and comms parsed when first asked for.  A front end
 * whose reader gives its events their fields at once and their print
 * formats later (trace-kmem's native reader: reader/fmtlater.c), and
 * registers the saved comms only when asked (reader/cmdlines.c),
 * registers for its tep handle what parses them; everything here that
 * reads a print format (fmtprobe.c, and merge's comparison of formats)
 * asks for it first with kmem_fmt_need(), and what names a task
 * (tep_names.c) calls kmem_comms_need().  Handles nobody registered have
 * both already (libtracecmd's, the plugin's, KernelShark's): nothing to
 * do.
 */
#ifndef KMEM_FMTLATER_H
#define KMEM_FMTLATER_H

#include <event-parse.h>

#include <stdbool.h>
#include <stddef.h>

/* What parses a handle's print formats and saved comms when asked for. */
struct kmem_fmt_source {
	/* parses @ev's print format into it, if it is still to be parsed:
	 * 0, or -1 (it stays empty) */
	int (*load)(void *priv, struct tep_event *ev);
	/* a bound on the length of @ev's print format, still to be parsed
	 * (its whole text's); SIZE_MAX: look at the event itself */
	size_t (*bound)(void *priv, const struct tep_event *ev);
	/* registers the handle's saved comms, if still to be registered:
	 * 0, or -1 (those before a bad line are); NULL: registered already */
	int (*comms)(void *priv);
	/* did memory run out for another deferred part (the symbols)?
	 * NULL: none */
	bool (*failed)(void *priv);
	void *priv;
};

int kmem_fmt_later(struct tep_handle *tep, const struct kmem_fmt_source *src);
bool kmem_fmt_first_say(const struct tep_handle *tep, unsigned int what);
void kmem_fmt_later_done(struct tep_handle *tep);
void kmem_fmt_need(struct tep_event *ev);
bool kmem_fmt_failed(const struct tep_handle *tep);
size_t kmem_fmt_bound(const struct tep_event *ev);
void kmem_comms_need(struct tep_handle *tep);

#endif
