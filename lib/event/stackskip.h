/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Which kernel stack frames are not the caller: the tracing machinery
 * that records the stack and the allocator's own layers, matched by
 * function name against a POSIX extended regex (kmem:skip=, or the
 * allocator's default rules).
 */
#ifndef KMEM_STACKSKIP_H
#define KMEM_STACKSKIP_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* how skip= regexes compile */
#define KMEM_SKIP_REGFLAGS (REG_EXTENDED | REG_NOSUB)

/*
 * The frames of the tracing machinery that records a stack, in every
 * allocator's default rules (which its own file under alloc/ holds, with
 * its own layers).
 */
#define KMEM_SKIP_TRACING                                                      \
	"^_*traceiter_|^trace_event_|^perf_trace_|^_*bpf_trace_"               \
	"|^_*ftrace_trace_stack|^_*trace_stack|^ftrace_|^stack_trace_"         \
	"|^event_trigger|^stacktrace_trigger|^trace_buffer_|^trace_call_bpf"   \
	"|^_*ring_buffer_"

struct kmem_stackskip {
	regex_t re;
	bool have; /* re compiled: frames can be skipped */
	/* the default rules, compiled at the first frame matched: most
	 * traces have no stacks, and a compilation is 0.3 M instructions */
	const char *def;
};

int kmem_stackskip_init(struct kmem_stackskip *s, const char *regex,
			const char *def, char *err, size_t errlen);
void kmem_stackskip_release(struct kmem_stackskip *s);

/**
 * kmem_stackskip_match - is a frame's function one to skip?
 * @s: the rules
 * @name: the function's name
 *
 * Return: true if the rules match @name.
 */
static inline bool kmem_stackskip_match(struct kmem_stackskip *s,
					const char *name)
{
	if (s->def) {
		s->have = !regcomp(&s->re, s->def, KMEM_SKIP_REGFLAGS);
		s->def = NULL;
	}
	return s->have && !regexec(&s->re, name, 0, NULL, 0);
}

#endif
