// SPDX-License-Identifier: LGPL-2.1
/*
 * The environment variables that choose among a few words
 * (trace-kmem(1), ENVIRONMENT): a value that is none of them is said in
 * one line at the start, and the default applies, rather than being
 * taken silently for the default.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "env.h"

#define ENV_WORDS 2

struct env_words {
	const char *name;
	const char *words[ENV_WORDS + 1]; /* NULL-terminated */
	const char *said;		  /* what the line calls them */
};

static const struct env_words env_words[] = {
	{ "TRACE_KMEM_THREADS", { "1", "2" }, "1 or 2" },
	{ "TRACE_KMEM_CONVERT", { "never", "always" }, "never or always" },
	{ "TRACE_KMEM_VALIDATE", { "never" }, "never" },
	{ "TRACE_KMEM_TEST_FAULT", { "count" }, "count" },
};

/**
 * tk_env_check - say the environment's values that mean nothing here
 *
 * Once, at the start.  An empty value is unset.
 */
void tk_env_check(void)
{
	size_t i;
	int k;

	for (i = 0; i < sizeof(env_words) / sizeof(env_words[0]); i++) {
		const struct env_words *e = &env_words[i];
		const char *v = getenv(e->name);
		bool known = false;

		if (!v || !*v)
			continue;
		for (k = 0; e->words[k] && !known; k++)
			known = !strcmp(v, e->words[k]);
		if (!known)
			fprintf(stderr,
				TK_NAME ": %s=%s: not %s; the default "
					"applies\n",
				e->name, v, e->said);
	}
}
