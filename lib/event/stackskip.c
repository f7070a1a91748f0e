// SPDX-License-Identifier: LGPL-2.1
/*
 * The frames a call site is not (see stackskip.h).
 */
#include "stackskip.h"

/*
 * Frames that are not the caller: the tracing machinery that records
 * the stack, and the page allocator's own layers, old and new (perf's
 * 2015 rule was ^_?_?(alloc|get_free|get_zeroed)_pages?).
 */
const char kmem_default_skip[] =
	"^_*(alloc|get_free|get_zeroed)_pages?"
	"|^_*alloc_frozen_pages|^_*folio_alloc|^vma_alloc_folio"
	"|^alloc_page_interleave|^alloc_pages_exact|^get_page_from_freelist"
	"|^_*rmqueue|^prep_new_page|^post_alloc_hook"
	"|^_*traceiter_|^trace_event_|^perf_trace_|^_*bpf_trace_"
	"|^_*ftrace_trace_stack|^_*trace_stack|^ftrace_|^stack_trace_"
	"|^event_trigger|^stacktrace_trigger|^trace_buffer_|^trace_call_bpf"
	"|^_*ring_buffer_";

/*
 * The vmalloc allocator's: the tracing frames above, then vmalloc's own
 * layers (the _noprof names of 6.10 and later match too) and the APIs
 * built on vmap areas (ioremap, execmem): the caller is further out.
 */
const char kmem_vmalloc_skip[] =
	"^_*traceiter_|^trace_event_|^perf_trace_|^_*bpf_trace_"
	"|^_*ftrace_trace_stack|^_*trace_stack|^ftrace_|^stack_trace_"
	"|^event_trigger|^stacktrace_trigger|^trace_buffer_|^trace_call_bpf"
	"|^_*ring_buffer_"
	"|^_*alloc_vmap_area|^_*get_vm_area|^_*vmalloc|^_*vzalloc|^vmalloc_"
	"|^_*kvmalloc|^_*kvzalloc|^_*kvrealloc|^_*vmap|^vm_map_ram"
	"|^_*ioremap|^execmem_";

/**
 * kmem_stackskip_init - compile the skip rules
 * @s: the rules
 * @regex: frames to skip (POSIX extended), NULL for @def
 * @def: the default rules (kmem_default_skip, kmem_vmalloc_skip)
 * @err: set to the regex error, if any
 * @errlen: size of @err
 *
 * Return: 0 on success, -1 if @regex does not compile (@def is used
 * then).
 */
int kmem_stackskip_init(struct kmem_stackskip *s, const char *regex,
			const char *def, char *err, size_t errlen)
{
	int ret = 0, rc;

	if (regex) {
		rc = regcomp(&s->re, regex, KMEM_SKIP_REGFLAGS);
		if (!rc) {
			s->have = true;
			return 0;
		}
		regerror(rc, &s->re, err, errlen);
		ret = -1;
	}
	s->have = !regcomp(&s->re, def, KMEM_SKIP_REGFLAGS);
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
}
