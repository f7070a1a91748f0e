// SPDX-License-Identifier: LGPL-2.1
/*
 * The damage line, the same whichever reader read the file (damage.h).
 */
#include <stdio.h>

#include "cli.h"
#include "damage.h"

static const char *s(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/**
 * tk_say_time_back - say that a CPU's time went back, in one line
 * @label: the file (and instance)
 * @d: the native reader's count of such pages (or its scan's)
 *
 * Such a page is read, in file order, as libtracecmd reads it; but its
 * records and those after it are merged with the other CPUs' at the
 * wrong place, so what pairs frees with allocations may be off.
 * Nothing when time never went back.
 */
void tk_say_time_back(const char *label, const struct tdat_damage *d)
{
	unsigned long long n = d->time_back;

	if (!n)
		return;
	fprintf(stderr,
		TK_NAME ": %s: time goes back by more than 1 ms at %llu "
			"ring-buffer page%s (the first on CPU %d at offset "
			"%#llx): the records are read in file order, and the "
			"pairing of frees with allocations may be off\n",
		label, n, s(n), d->back_cpu,
		(unsigned long long)d->back_offset);
}

/**
 * tk_say_damage - say what damaged data was skipped in one buffer
 * @label: the file (and instance) it was in
 * @records: records of impossible sizes (libtracecmd's), if any
 * @d: the pages and chunks skipped and where the first was: the native
 *     reader's, or its scan for libtracecmd (whose first record of an
 *     impossible size is in d->first_* when d counts nothing else)
 * @unread: records the scan read that libtracecmd did not hand over
 *
 * Nothing when nothing was skipped.  Pages whose time goes back are
 * said at the end of the line, or in one of their own
 * (tk_say_time_back()).
 */
void tk_say_damage(const char *label, uint64_t records,
		   const struct tdat_damage *d, uint64_t unread)
{
	unsigned long long p = d->pages, c = d->chunks, r = records;

	if (!p && !c && !r && !unread) {
		tk_say_time_back(label, d);
		return;
	}
	fprintf(stderr, TK_NAME ": %s: ", label);
	if (!p && !c && !r) {
		fprintf(stderr,
			"libtracecmd left %llu record%s unread that "
			"the native reader reads",
			(unsigned long long)unread, s(unread));
		goto end;
	}
	fprintf(stderr, "damaged data skipped: ");
	if (p || c)
		fprintf(stderr, "%llu ring-buffer page%s, %llu compressed "
				"chunk%s%s", p, s(p), c, s(c), r ? ", " : "");
	if (r)
		fprintf(stderr, "%llu %s", r,
			r == 1 ? "record of an impossible size"
			       : "records of impossible sizes");
	fprintf(stderr, " (the first on CPU %d at offset %#llx)",
		d->first_cpu, (unsigned long long)d->first_offset);
	if (unread)
		fprintf(stderr, "; libtracecmd stopped at the damage and "
				"left %llu record%s unread (the native reader "
				"reads them)",
			(unsigned long long)unread, s(unread));
end:
	if (d->time_back)
		fprintf(stderr, "; time goes back at %llu ring-buffer page%s",
			(unsigned long long)d->time_back, s(d->time_back));
	fputc('\n', stderr);
}

/**
 * tk_refused_line - the line for a damaged file libtracecmd refuses
 * @buf: where to
 * @len: its size
 * @label: the file
 * @d: the damage the native reader's scan found in it
 *
 * libtracecmd refuses a file whose first page of a CPU it cannot read
 * (tracecmd_init_data(); libtracecmd 3.1.6 then faults in
 * tracecmd_close(), which the fault guard catches); the native reader
 * skips that damage and reads the rest, and the line says so.  Without
 * its newline: the fault guard's line (tk_fault_guard_line()).
 */
void tk_refused_line(char *buf, size_t len, const char *label,
		     const struct tdat_damage *d)
{
	unsigned long long p = d->pages, c = d->chunks;

	snprintf(buf, len,
		 TK_NAME ": %s: cannot read the trace: libtracecmd refused "
			 "it, and the native reader found damaged data (%llu "
			 "ring-buffer page%s, %llu compressed chunk%s; the "
			 "first on CPU %d at offset %#llx): without "
			 "--reader=libtracecmd the damage is skipped and the "
			 "rest read",
		 label, p, s(p), c, s(c), d->first_cpu,
		 (unsigned long long)d->first_offset);
}
