// SPDX-License-Identifier: LGPL-2.1
/*
 * libtracecmd reads each CPU's data a page at a time, from offsets that
 * are multiples of the page size, and gives each record the offset of
 * its header (rec->offset) and the size of its header and data
 * (rec->record_size, kbuffer_curr_size()): where its data ends within
 * the page follows.  A damaged length word makes a record that runs past
 * its page, and past the buffer libtracecmd holds the page in (a
 * zstd/zlib chunk, a mapping of the file), with a size no larger than a
 * page: its data must not be read.
 */
#include <event-parse.h>

#include "extent.h"

static bool pow2(int v)
{
	return v > 0 && !(v & (v - 1));
}

/**
 * kmem_page_bound - the page size to check records against
 * @tep: the handle of the trace the records are from
 *
 * libtracecmd reads a CPU's data in pages of the file's page size
 * (tep_get_page_size(), which the front ends set from the file's header:
 * libtracecmd leaves it out).  The bound is that page size, or the ring
 * buffer's sub-buffer size (header_page) when it is a smaller power of
 * two: a power of two no larger than the page size divides it, and a
 * record that fits in it fits in the page.  Without a page size that is
 * a power of two no bound is safe: a sub-buffer size alone may be larger
 * than the pages libtracecmd reads.
 *
 * Return: the bound, or 0 (no record passes kmem_record_in_page()).
 */
unsigned int kmem_page_bound(struct tep_handle *tep)
{
	int page = tep_get_page_size(tep);
	int sub = tep_get_sub_buffer_size(tep);

	if (!pow2(page))
		return 0;
	return pow2(sub) && sub < page ? (unsigned int)sub : (unsigned int)page;
}

/**
 * kmem_record_in_page - whether a record's data lies within its page
 * @rec: a record from libtracecmd
 * @page: kmem_page_bound() of its trace
 *
 * Return: true if rec->data and rec->size bytes after it lie within the
 * page the record was read from; false if they may not (then the
 * record is damaged and its data must not be read), or @page is 0.
 */
bool kmem_record_in_page(const struct tep_record *rec, unsigned int page)
{
	unsigned long long at;

	/* record_size is the header (4 bytes, 8 with a length word) and
	 * the data: less than 4 bytes over the data is no record libtracecmd
	 * makes, and would let the data end past what is checked */
	if (!pow2((int)page) || !rec->data || rec->size < 0 ||
	    rec->record_size < rec->size + 4)
		return false;
	at = rec->offset & (page - 1); /* the record's header */
	return at + (unsigned int)rec->record_size <= page;
}
