// SPDX-License-Identifier: LGPL-2.1
/*
 * Could a kernel have written an event format (see fmtsound.h)?
 *
 * A tracepoint's record is a C struct, and the kernel prints its format
 * from the struct: the fields in order, each after the end of the one
 * before (the common fields first), a number of 2, 4 or 8 bytes at an
 * offset that its size (or 4, for 8 bytes on 32-bit kernels) divides,
 * of the size of its C type.  Every one of 31,754 formats kept to it:
 * those of the 12 sample recordings, the 21 recordings of others
 * (../shared/wild: arm32, arm64, i686, x86_64; Linux 4.x to 7.1) and
 * tests/formats (Linux 2.6.32 to 6.18, ppc32 among them), all events,
 * the types of the kmem events' own fields; but the system call events,
 * whose arguments are kept as longs whatever their type, so the type's
 * size is asked only of the fields a decoder reads.  A format that
 * breaks it is damaged: records read through it would be read from the
 * wrong bytes, without a sign.
 */
#include <string.h>

#include "fmtsound.h"

/* Fields that are not one number: arrays, strings, dynamic data. */
#define NOT_A_NUMBER                                                           \
	(TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC |     \
	 TEP_FIELD_IS_RELATIVE)

static int type_size(const struct tep_format_field *fl);

/* Does @size (2, 4 or 8 bytes) lie aligned at @offset? */
static bool aligned(int offset, int size)
{
	if (size != 2 && size != 4 && size != 8)
		return true; /* a byte, or a struct: no rule */
	return offset % (size < 4 ? size : 4) == 0;
}

/*
 * Is @fl placed where it can be, after @end (the end of the one before)?
 * A dynamic field is its 4-byte offset and length word; an array of
 * numbers of known size holds its count of them, aligned as one.
 */
static bool placed(const struct tep_format_field *fl, long long *end)
{
	int elem;

	if (fl->offset < 0 || fl->size < 0 || fl->offset < *end)
		return false;
	*end = (long long)fl->offset + fl->size;
	if (fl->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE))
		return fl->size == 4 && fl->offset % 4 == 0;
	if (fl->flags & TEP_FIELD_IS_ARRAY) {
		elem = fl->arraylen && !(fl->flags & TEP_FIELD_IS_STRING)
			       ? type_size(fl)
			       : 0;
		if (elem <= 0)
			return true; /* caller[] of old kernels, a string */
		return (long long)fl->size == (long long)fl->arraylen * elem &&
		       aligned(fl->offset, elem);
	}
	if (fl->flags & NOT_A_NUMBER)
		return true;
	return aligned(fl->offset, fl->size);
}

/**
 * kmem_format_sound - are an event's fields laid out as a kernel lays them?
 * @ev: the event, its format parsed
 *
 * Return: true when each field, the common ones first, starts at or
 * after the end of the one before, and each number lies aligned; each
 * common field is of the size of its type (they are every event's, and
 * common_type is read as the file's), each array of numbers holds its
 * count of them, and each dynamic field is a 4-byte word.
 */
bool kmem_format_sound(const struct tep_event *ev)
{
	const struct tep_format_field *fl;
	long long end = 0;

	for (fl = ev->format.common_fields; fl; fl = fl->next)
		if (!placed(fl, &end) || !kmem_field_sound(fl))
			return false;
	for (fl = ev->format.fields; fl; fl = fl->next)
		if (!placed(fl, &end))
			return false;
	return true;
}

/*
 * The size a kernel gives a number of C type @type: 0 when the type is
 * not one of these, -1 for a long or a pointer (4 or 8 bytes).
 */
static int c_type_size(const char *type)
{
	static const struct {
		const char *type;
		int size;
	} known[] = {
		{ "bool", 1 },
		{ "char", 1 },
		{ "unsigned char", 1 },
		{ "u8", 1 },
		{ "s8", 1 },
		{ "short", 2 },
		{ "unsigned short", 2 },
		{ "u16", 2 },
		{ "s16", 2 },
		{ "int", 4 },
		{ "unsigned int", 4 },
		{ "u32", 4 },
		{ "s32", 4 },
		{ "gfp_t", 4 },
		{ "pid_t", 4 },
		{ "long long", 8 },
		{ "unsigned long long", 8 },
		{ "u64", 8 },
		{ "s64", 8 },
		{ "long", -1 },
		{ "unsigned long", -1 },
		{ "size_t", -1 },
		{ "ssize_t", -1 },
	};
	size_t i, len = strcspn(type, "[");

	if (memchr(type, '*', len))
		return -1;
	if (!strncmp(type, "const ", 6)) {
		type += 6;
		len -= 6;
	}
	while (len && type[len - 1] == ' ')
		len--; /* "unsigned long [8]" */
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i].type) == len &&
		    !memcmp(type, known[i].type, len))
			return known[i].size;
	return 0;
}

/*
 * The size of one number of @fl's type (an array's element): 0 when
 * unknown; for a long or a pointer the recording kernel's, the size of
 * its ring-buffer page's commit word (a local_t, a long), or -1 when the
 * file does not say.
 */
static int type_size(const struct tep_format_field *fl)
{
	int size = fl->type ? c_type_size(fl->type) : 0, klong;

	if (size >= 0)
		return size;
	klong = fl->event ? tep_get_header_page_size(fl->event->tep) : 0;
	return klong == 4 || klong == 8 ? klong : -1;
}

/**
 * kmem_field_sound - is a number field of the size of its type?
 * @fl: a field a decoder reads as a number, or NULL (absent)
 *
 * Return: false when @fl's C type is one of the common ones and its size
 * is not that type's (a long or a pointer: the recording kernel's, 4 or
 * 8 bytes when the file does not say).
 */
bool kmem_field_sound(const struct tep_format_field *fl)
{
	int size;

	if (!fl || !fl->type || (fl->flags & NOT_A_NUMBER))
		return true;
	size = type_size(fl);
	if (size < 0)
		return fl->size == 4 || fl->size == 8;
	return !size || fl->size == size;
}
