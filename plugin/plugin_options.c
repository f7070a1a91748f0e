// SPDX-License-Identifier: LGPL-2.1
/*
 * The -O kmem:NAME options: a per-load copy of lib/'s option table in
 * libtraceevent's form, read back into struct kmem_opts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "plugin.h"

/**
 * plugin_options_new - this load's copy of the option table
 *
 * libtraceevent writes the user's -O values into the table it is given,
 * so each tep handle gets its own (a toggled flag would flip back on
 * the second file otherwise).
 *
 * Return: the table (free() it), or NULL.
 */
struct tep_plugin_option *plugin_options_new(void)
{
	const struct kmem_opt_def *d;
	struct tep_plugin_option *o;
	size_t n = 0;

	for (d = kmem_opt_defs; d->name; d++)
		n++;
	o = calloc(n + 1, sizeof(*o));
	if (!o)
		return NULL;
	for (n = 0, d = kmem_opt_defs; d->name; d++, n++) {
		o[n].file = "plugin_kmem";
		o[n].plugin_alias = "kmem";
		o[n].name = (char *)d->name;
		o[n].description = (char *)d->desc;
		o[n].value = d->arg ? d->def : NULL;
	}
	return o;
}

/**
 * plugin_options_read - the options the user gave, parsed
 * @kp: the plugin state; its options table was passed to libtraceevent
 *
 * A bad value is reported on stderr in one line; the default stays.
 */
void plugin_options_read(struct kmem_plugin *kp)
{
	const struct kmem_opt_def *d;
	size_t i;

	kmem_opts_init(&kp->opts);
	for (i = 0, d = kmem_opt_defs; d->name; d++, i++) {
		const struct tep_plugin_option *op = &kp->options[i];

		/* libtraceevent replaces .value only when the user set it */
		if (!d->arg && op->set)
			kmem_opts_set(&kp->opts, d->name, NULL, stderr);
		else if (d->arg && op->value != d->def)
			kmem_opts_set(&kp->opts, d->name, op->value, stderr);
	}
}
