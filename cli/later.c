// SPDX-License-Identifier: LGPL-2.1
/*
 * The reader's deferred parts offered to lib/ (see later.h): lib/'s
 * registry calls through void pointers, the reader takes its file.
 */
#include "event/fmtlater.h"
#include "later.h"

static int load_print_fmt(void *f, struct tep_event *ev)
{
	return tdat_print_fmt(f, ev);
}

static size_t print_fmt_bound(void *f, const struct tep_event *ev)
{
	return tdat_print_fmt_bound(f, ev);
}

static int load_comms(void *f)
{
	return tdat_comms(f);
}

static bool symbols_failed(void *f)
{
	return tdat_kallsyms_failed(f);
}

/**
 * tk_later_register - let lib/ parse a file's deferred parts when needed
 * @f: the file, opened with lazy_print_fmt and lazy_cmdlines
 *
 * Until tk_later_done(@f), lib/ parses an event's print
 * format (kmem_fmt_need()) and registers the saved comms
 * (kmem_comms_need()) through @f.
 *
 * Return: 0, or -1 when memory ran out.
 */
int tk_later_register(struct tdat_file *f)
{
	const struct kmem_fmt_source src = { .load = load_print_fmt,
					     .bound = print_fmt_bound,
					     .comms = load_comms,
					     .failed = symbols_failed,
					     .priv = f };

	return kmem_fmt_later(tdat_tep(f), &src);
}

/**
 * tk_later_done - the file is about to be closed: lib/ forgets it
 * @f: the file (tk_later_register()), or NULL
 */
void tk_later_done(struct tdat_file *f)
{
	if (f)
		kmem_fmt_later_done(tdat_tep(f));
}
