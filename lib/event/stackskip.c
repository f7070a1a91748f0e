// SPDX-License-Identifier: LGPL-2.1
/*
 * The frames a call site is not (see stackskip.h).
 */
#include "stackskip.h"

/**
 * kmem_stackskip_init - compile the skip rules
 * @s: the rules
 * @regex: frames to skip (POSIX extended), NULL for @def
 * @def: the allocator's default rules
 * @err: set to the regex error, if any
 * @errlen: size of @err
 *
 * A @regex is compiled now; @def, by the first kmem_stackskip_match().
 *
 * Return: 0 on success, -1 if @regex does not compile (@def is used
 * then).
 */
int kmem_stackskip_init(struct kmem_stackskip *s, const char *regex,
			const char *def, char *err, size_t errlen)
{
	int ret = 0, rc;

	s->have = false;
	s->def = NULL;
	if (regex) {
		rc = regcomp(&s->re, regex, KMEM_SKIP_REGFLAGS);
		if (!rc) {
			s->have = true;
			return 0;
		}
		regerror(rc, &s->re, err, errlen);
		ret = -1;
	}
	s->def = def; /* compiled when first needed */
	return ret;
}

/**
 * kmem_stackskip_release - free the compiled rules
 * @s: the rules
 */
void kmem_stackskip_release(struct kmem_stackskip *s)
{
	if (s->have)
		regfree(&s->re);
	s->have = false;
	s->def = NULL;
}
