// SPDX-License-Identifier: LGPL-2.1
/*
 * libtraceevent's format parser (1.7.1, and 1.8.4 still) crashes on
 * texts no kernel writes: it dereferences NULL for an operator it does
 * not know ('.', or "->" after anything but REC: process_op()) and for
 * a REC->NAME after __print_flags( or __print_symbolic( when the event
 * has no field NAME (process_entry()); it divides by 0 for a constant
 * divisor of 0 (folded while parsing) and for a field divisor (when
 * printing, as lib/fmtprobe.c does).  So before a text goes to
 * tep_parse_event(), its two parts (up to "print fmt:", and after)
 * must look like the kernel's: printable ASCII, quotes closed, brackets
 * balanced; the print fmt a string then complete arguments, with known
 * operators, divisions by constants, and fields of the event only.  A
 * print fmt that does not is left out (the event keeps its fields, with
 * an empty print fmt); a text whose first part does not is left out.
 *
 * Found by fuzzing the reader: tests/fuzz/corpus/reader/tep-*.dat are
 * the reproducers.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char pf_tag[] = "\nprint fmt:";
static const char pf_empty[] = "\nprint fmt: \"\"\n";

static bool ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* Past blanks, as libtraceevent's tokens skip them (not a newline). */
static const char *blanks(const char *s, const char *end)
{
	while (s < end && *s != '\n' && isspace((unsigned char)*s))
		s++;
	return s;
}

/*
 * Does the text start with the name line libtraceevent reads: the word
 * "name", ':' and a word?  Without one, tep_parse_format() fails with
 * TEP_ERRNO__MEM_ALLOC_FAILED (1.7.1 and 1.8.4, event_read_name()),
 * which would be taken for memory running out.
 */
static bool name_line(const char *s, const char *end)
{
	s = blanks(s, end);
	if (end - s < 4 || memcmp(s, "name", 4) ||
	    (end - s > 4 && ident_char(s[4])))
		return false;
	s = blanks(s + 4, end);
	if (s == end || *s != ':')
		return false;
	s = blanks(s + 1, end);
	return s < end && ident_char(*s);
}

/* Printable, quotes closed, brackets balanced?  *@last: last non-space */
static bool kernel_like(const char *s, const char *end, char *last)
{
	char close[64], q;
	size_t depth = 0;

	*last = 0;
	for (; s < end; s++) {
		if (*s == '\n' || *s == '\t' || *s == ' ')
			continue;
		if (*s < 0x20 || *s > 0x7e)
			return false;
		*last = *s;
		switch (*s) {
		case '"':
		case '\'':
			for (q = *s++; s < end && *s != q; s++) {
				if (*s == '\\' && ++s == end)
					break;
				if ((*s < 0x20 || *s > 0x7e) && *s != '\n')
					return false;
			}
			if (s == end)
				return false;
			break;
		case '(':
		case '[':
		case '{':
			if (depth == sizeof(close))
				return false;
			/* ')' follows '(' in ASCII, ']' and '}' come 2 after */
			close[depth++] = (char)(*s == '(' ? ')' : *s + 2);
			break;
		case ')':
		case ']':
		case '}':
			if (!depth || close[--depth] != *s)
				return false;
			break;
		}
	}
	return !depth;
}

/*
 * What follows '/' or '%' from @s: a number other than 0, or sizeof of
 * a type?  libtraceevent divides when it folds constants while parsing
 * and when it prints, without looking at the divisor (SIGFPE); the
 * kernel only divides by constants (jiffies / 250, len / sizeof(u64)).
 */
static bool divisor_ok(const char *s, const char *end)
{
	const char *id;
	char num[32];

	while (s < end && isspace((unsigned char)*s))
		s++;
	for (id = s; s < end && ident_char(*s); s++)
		;
	if (s - id >= (long)sizeof(num) || s == id)
		return false;
	if (isdigit((unsigned char)*id)) {
		memcpy(num, id, (size_t)(s - id));
		num[s - id] = '\0';
		return strtoull(num, NULL, 0) != 0;
	}
	if (s - id != 6 || memcmp(id, "sizeof", 6))
		return false;
	while (s < end && isspace((unsigned char)*s))
		s++;
	if (s == end || *s++ != '(')
		return false;
	for (; s < end && *s != ')'; s++) /* a type: words, no REC */
		if (!ident_char(*s) && !isspace((unsigned char)*s))
			return false;
	return s < end && !memmem(id, (size_t)(s - id), "REC", 3);
}

/*
 * Only operators libtraceevent knows, outside the strings of a
 * kernel_like() print fmt, and "->" only after REC or (REC)?  (Its
 * error path for another one, a '.' say, crashes too.)  The tokens are
 * cut as its tokenizer cuts them.
 */
static bool known_ops(const char *s, const char *end)
{
	const char *id;
	bool rec = false; /* the last token is the item REC */
	char q, next;

	for (; s < end; s++) {
		if (ident_char(*s)) {
			for (id = s; s + 1 < end && ident_char(s[1]); s++)
				;
			rec = s - id == 2 && !memcmp(id, "REC", 3);
			continue;
		}
		next = s + 1 < end ? s[1] : 0;
		switch (*s) {
		case ' ':
		case '\t':
		case '\n':
			continue; /* keeps rec */
		case '"':
		case '\'':
			for (q = *s++; *s != q; s++)
				if (*s == '\\')
					s++;
			break;
		case '-':
			if (next == '>') {
				if (!rec)
					return false;
				s++;
				break;
			}
			/* fall through */
		case '+':
			if (next == *s || next == '=')
				return false; /* ++ -- += -= */
			break;
		case '&':
		case '|':
			if (next == *s)
				s++;
			else if (next == '=')
				return false;
			break;
		case '<':
		case '>':
			if (next == *s) {
				if (++s + 1 < end && s[1] == '=')
					return false; /* <<= >>= */
			} else if (next == '=') {
				s++; /* <= >= */
			}
			break;
		case '!':
		case '=':
			if (next == '=')
				s++;
			else if (*s == '=')
				return false;
			break;
		case '/':
		case '%':
			if (!divisor_ok(s + 1, end))
				return false;
			break;
		case '*':
		case '^':
		case '~':
		case '?':
		case ':':
		case ')':
			if (rec)
				continue; /* (REC)->NAME */
			break;
		case '(':
		case '[':
		case ']':
		case '{':
		case '}':
		case ',':
			break;
		default:
			return false;
		}
		rec = false;
	}
	return true;
}

/* After "REC" at @s: NAME of REC->NAME, (REC)->NAME (*len bytes), or NULL */
static const char *rec_field(const char *s, const char *end, size_t *len)
{
	const char *q = s + 3, *name;

	while (q < end && isspace((unsigned char)*q))
		q++;
	if (q < end && *q == ')')
		while (++q < end && isspace((unsigned char)*q))
			;
	if (end - q < 2 || q[0] != '-' || q[1] != '>')
		return NULL;
	for (q += 2; q < end && isspace((unsigned char)*q); q++)
		;
	for (name = q; q < end && ident_char(*q); q++)
		;
	*len = (size_t)(q - name);
	return name;
}

/*
 * Does every REC->NAME from @pf to @end name a field of @head (the text
 * with an empty print fmt)?  libtraceevent itself finds the fields, in
 * a scratch handle.  Sets *@oom when memory ran out for it.
 */
static bool fields_known(const char *head, size_t hlen, const char *pf,
			 const char *end, bool *oom)
{
	struct tep_event *ev = NULL;
	struct tep_handle *tep;
	const char *s, *name;
	bool ok = true;
	char buf[128];
	size_t len;

	for (s = pf; (s = memmem(s, (size_t)(end - s), "REC", 3)); s += 3)
		if (!ident_char(s[-1]) && rec_field(s, end, &len))
			break;
	if (!s)
		return true; /* no field named */
	tep = tep_alloc();
	if (!tep) {
		*oom = true;
		return false;
	}
	if (tep_parse_format(tep, &ev, head, hlen, "scratch") ==
	    TEP_ERRNO__MEM_ALLOC_FAILED)
		*oom = true;
	for (; ok && (s = memmem(s, (size_t)(end - s), "REC", 3)); s += 3) {
		if (ident_char(s[-1]) || !(name = rec_field(s, end, &len)))
			continue;
		ok = ev && len && len < sizeof(buf);
		if (ok) {
			memcpy(buf, name, len);
			buf[len] = '\0';
			ok = tep_find_any_field(ev, buf) != NULL;
		}
	}
	tep_free(tep);
	return ok;
}

/* The number after "@key:" in [@s, @eol), or -1. */
static long line_num(const char *s, const char *eol, const char *key)
{
	size_t klen = strlen(key);
	long v = 0;

	for (; s + klen < eol; s++)
		if (!memcmp(s, key, klen) && s[klen] == ':')
			break;
	if (s + klen >= eol)
		return -1;
	for (s += klen + 1; s < eol && isdigit((unsigned char)*s) && v < 65536;
	     s++)
		v = v * 10 + (*s - '0');
	return s < eol && *s == ';' ? v : -1;
}

/* The number at @s, before a ';' and below 2^24, or -1; *@s past it. */
static long semi_num(const char **s, const char *end)
{
	const char *p = *s;
	long v = 0;

	for (; p < end && isdigit((unsigned char)*p) && v < 1L << 24; p++)
		v = v * 10 + (*p - '0');
	if (p == *s || p == end || *p != ';')
		return -1;
	*s = p + 1;
	return v;
}

/* Past @key at @s, after the blanks before it; NULL when it is not there. */
static const char *after_key(const char *s, const char *end, const char *key,
			     size_t klen)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return (size_t)(end - s) >= klen && !memcmp(s, key, klen) ? s + klen
								  : NULL;
}

/*
 * How long a record of the event of format text [@s, @end) is: at least
 * the end (offset + size) of its last field, the struct the kernel
 * writes.  At most that end rounded up to 8 (the struct's padding), with
 * 8 bytes to spare, unless the event has data of its own after the
 * struct: a dynamic field (__data_loc, __rel_loc), an array of no size;
 * or it is one of ftrace's own (a stack holds as many frames as it has)
 * or a user event (its writer chooses its length): @open.  lib/'s
 * kmem_event_len() says the same of a parsed format.  One pass over the
 * field lines ("field:DECL;  offset:N;  size:N;"): a line of another
 * shape leaves the lengths unknown (1, UINT32_MAX).
 */
void tdat_text_len(const char *s, const char *end, bool open, uint32_t *lo,
		   uint32_t *hi)
{
	const char *eol, *p, *decl;
	long last = 0, off, size;

	*lo = 1;
	*hi = UINT32_MAX; /* unknown: every length */
	for (; s < end; s = eol + 1) {
		eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			eol = end;
		if ((size_t)(eol - s) >= 10 && !memcmp(s, "print fmt:", 10))
			break;
		decl = after_key(s, eol, "field:", 6);
		if (!decl)
			continue;
		p = memchr(decl, ';', (size_t)(eol - decl));
		if (!p || !(p = after_key(p + 1, eol, "offset:", 7)) ||
		    (off = semi_num(&p, eol)) < 0 ||
		    !(p = after_key(p, eol, "size:", 5)) ||
		    (size = semi_num(&p, eol)) < 0)
			return;
		if (off + size > 1L << 24) /* no struct is that large */
			return;
		if (!size || !strncmp(decl, "__data_loc ", 11) ||
		    !strncmp(decl, "__rel_loc ", 10))
			open = true;
		last = off + size > last ? off + size : last;
	}
	if (!last)
		return;
	*lo = (uint32_t)last;
	if (!open)
		*hi = (uint32_t)((last + 7) / 8 * 8 + 8);
}

/*
 * Is common_type in [@s, @end) where every kernel puts it: the unsigned
 * short at offset 0?  libtraceevent reads every record's id where the
 * format of the lowest id it holds says (get_common_info()): one damaged
 * there would hide every record from its lookups (the account probe's,
 * lib/fmtprobe.c).  A text without the field is not ours to judge.
 */
static bool common_type_placed(const char *s, const char *end)
{
	static const char tag[] = "common_type;";
	const char *at = memmem(s, (size_t)(end - s), tag, sizeof(tag) - 1);
	const char *eol;

	if (!at)
		return true;
	eol = memchr(at, '\n', (size_t)(end - at));
	if (!eol)
		eol = end;
	return line_num(at, eol, "offset") == 0 &&
	       line_num(at, eol, "size") == 2;
}

/*
 * @text into @tep: the event it added, or NULL (none, or freed again);
 * sets *@oom when libtraceevent ran out of memory.
 */
static struct tep_event *parse_one(struct tep_handle *tep, const char *text,
				   size_t len, const char *system, bool *oom)
{
	struct tep_event *ev = NULL;
	int before = tep_get_events_count(tep);

	if (tep_parse_format(tep, &ev, text, (unsigned long)len, system) ==
	    TEP_ERRNO__MEM_ALLOC_FAILED)
		*oom = true;
	return tep_get_events_count(tep) == before + 1 ? ev : NULL;
}

/**
 * tdat_parse_format - parse one event format into the tep handle, as
 *	far as it is safe for libtraceevent (see the top of this file)
 * @tep: the handle
 * @p: the format text (not NUL-terminated)
 * @size: its length
 * @system: the event's system
 * @fields_only: its fields alone, with an empty print format
 * @oom: set when memory ran out (the event, or its print format, may
 *	then be left out: not a format to leave out, a failure)
 *
 * Return: the event added to @tep, or NULL when none was (the text, or
 * its first part, is left out; or memory ran out).
 */
struct tep_event *tdat_parse_format(struct tep_handle *tep, const uint8_t *p,
				    uint64_t size, const char *system,
				    bool fields_only, bool *oom)
{
	const char *s = (const char *)p, *end = s + size, *pf;
	struct tep_event *ev;
	char last, *head;
	size_t hlen;

	pf = memmem(s, (size_t)size, pf_tag, sizeof(pf_tag) - 1);
	if (!pf || !name_line(s, pf) || !kernel_like(s, pf, &last) ||
	    !common_type_placed(s, pf))
		return NULL;
	hlen = (size_t)(pf - s) + sizeof(pf_empty) - 1;
	head = malloc(hlen + 1);
	if (!head) {
		*oom = true;
		return NULL;
	}
	memcpy(head, s, (size_t)(pf - s));
	memcpy(head + (pf - s), pf_empty, sizeof(pf_empty));
	for (s = pf + sizeof(pf_tag) - 1; s < end && isspace((unsigned char)*s);
	     s++)
		;
	/* a format libtraceevent cannot parse is left out, as libtracecmd
	 * leaves it out */
	if (!fields_only && s < end && *s == '"' &&
	    kernel_like(s, end, &last) &&
	    (ident_char(last) || strchr(")]}\"'", last)) && known_ops(s, end) &&
	    fields_known(head, hlen, pf, end, oom))
		ev = parse_one(tep, (const char *)p, (size_t)size, system, oom);
	else if (*oom)
		ev = NULL;
	else
		ev = parse_one(tep, head, hlen, system, oom);
	free(head);
	return ev;
}
