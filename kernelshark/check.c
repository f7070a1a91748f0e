// SPDX-License-Identifier: LGPL-2.1
/*
 * Before the plugin reads a stream's records (copies while KernelShark
 * loads, the file again when following anew, both through libtracecmd),
 * the file gets trace-kmem's structural checks, those that stand before
 * libtracecmd in trace-kmem stat --reader=libtracecmd (cli/native.c
 * tk_native_validate()): the native reader's tdat_open() and
 * tdat_check_chunks().  A file they refuse gets one line and no plugin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "event/decode.h"
#include "kmem_ks.h"
#include "tdat.h"

static bool wanted_event(const char *system, const char *name)
{
	return kmem_slot_by_name(system, name) >= 0;
}

static const struct tdat_hooks hooks = {
	.want = wanted_event,
};

/**
 * kmem_ks_check_file - may the plugin read a stream's file?
 * @path: the file KernelShark opened
 * @tep: the stream's handle: given the file's page size if it has none
 *	(libtracecmd leaves it out; kmem_page_bound() needs it)
 *
 * $TRACE_KMEM_VALIDATE=never skips the checks, as it does for
 * trace-kmem, but for the alignment of the CPUs' data
 * (tdat_check_aligned()) when the native reader can open the file.
 *
 * Return: true, or false after one line on stderr saying why.
 */
bool kmem_ks_check_file(const char *path, struct tep_handle *tep)
{
	const char *v = getenv("TRACE_KMEM_VALIDATE");
	bool never = v && !strcmp(v, "never");
	struct tdat_hooks h = hooks;
	char why[TDAT_WHY_LEN];
	struct tdat_file *f = NULL;
	int ret;

	if (!path)
		return true;
	h.keep_unaligned = never;
	ret = tdat_open(path, &h, &f, why, sizeof(why));
	if (never && ret != TDAT_OK)
		ret = TDAT_OK;
	else if (ret == TDAT_OK &&
		 (never ? tdat_check_aligned(f, why, sizeof(why))
			: tdat_check_chunks(f, why, sizeof(why))))
		ret = TDAT_BAD;
	tdat_close(f);
	if (ret == TDAT_BAD) {
		fprintf(stderr,
			"kmem plugin: %s: %s; the plugin is off for "
			"this file\n",
			path, why);
		return false;
	}
	if (tep_get_page_size(tep) <= 0)
		tep_set_page_size(tep, (int)tdat_header_page_size(path));
	return true;
}
