// SPDX-License-Identifier: LGPL-2.1
/*
 * Streaming JSON writer (see json.h).  A NULL key writes an array
 * element; a key writes an object member.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "utf8.h"

/**
 * json_init - start writing a document
 * @j: the writer
 * @out: where to
 */
void json_init(struct json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

/**
 * json_init_inside - go on writing inside a container written before
 * @j: the writer
 * @out: where to
 * @depth: how many containers are open (1: inside the top level's)
 * @has_items: whether the innermost holds items already (a comma first)
 *
 * For a document written in parts, each by its own writer: the parts
 * come out indented and separated as one writer would have written them.
 */
void json_init_inside(struct json *j, FILE *out, int depth, bool has_items)
{
	int i;

	json_init(j, out);
	j->depth = depth < JSON_MAX_DEPTH ? depth : JSON_MAX_DEPTH - 1;
	for (i = 0; i < j->depth; i++) /* each holds the one inside it */
		j->has_items[i] = true;
	j->has_items[j->depth] = has_items;
}

/**
 * json_init_tree - start capturing a document in memory
 * @j: the writer; j->root is the document when it is closed (jt_free()
 *	it; j->oom says a part was left out)
 */
void json_init_tree(struct json *j)
{
	memset(j, 0, sizeof(*j));
}

/* Capture mode: a node for the next item, or NULL (left out). */
static struct jt_node *node(struct json *j, const char *key,
			    enum jt_type type)
{
	struct jt_node *n;

	if (j->depth && !j->cap[j->depth - 1])
		return NULL;	/* inside a container left out */
	n = jt_add(j->depth ? j->cap[j->depth - 1] : NULL, type, key);
	if (!n)
		j->oom = true;
	else if (!j->depth)
		j->root = n;
	return n;
}

/*
 * A string as JSON text: valid UTF-8 kept, U+FFFD for each byte that
 * starts no valid sequence (utf8.h), '"' and '\\' escaped, control
 * characters as \u00XX (\n as itself).
 */
static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	int n;

	fputc('"', out);
	while (*p) {
		n = utf8_seq((const char *)p, &cp);
		if (!n) {
			fputs(UTF8_REPLACEMENT, out);
			p++;
			continue;
		}
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fwrite(p, 1, (size_t)n, out);
		p += n;
	}
	fputc('"', out);
}

static void item(struct json *j, const char *key)
{
	if (j->has_items[j->depth])
		fputc(',', j->out);
	if (j->depth && !j->compact)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	j->has_items[j->depth] = true;
	if (key) {
		put_string(j->out, key);
		fputs(j->compact ? ":" : ": ", j->out);
	}
}

/**
 * json_open - open an object ('{') or an array ('[')
 * @j: the writer
 * @key: member name, or NULL inside an array or at top level
 * @bracket: '{' or '['
 */
void json_open(struct json *j, const char *key, char bracket)
{
	if (!j->out) {
		struct jt_node *n = node(j, key, bracket == '{' ? JT_OBJ : JT_ARR);

		if (j->depth < JSON_MAX_DEPTH)
			j->cap[j->depth] = n;
		if (j->depth + 1 < JSON_MAX_DEPTH)
			j->depth++;
		return;
	}
	item(j, key);
	fputc(bracket, j->out);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

/**
 * json_close - close what json_open() opened
 * @j: the writer
 * @bracket: '}' or ']'
 */
void json_close(struct json *j, char bracket)
{
	bool had = j->has_items[j->depth];

	if (!j->out) {
		if (j->depth)
			j->depth--;
		return;
	}
	if (j->depth)
		j->depth--;
	if (had && !j->compact)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	fputc(bracket, j->out);
	if (!j->depth)
		fputc('\n', j->out);
}

/**
 * json_u64 - write an unsigned integer
 * @j: the writer
 * @key: member name or NULL
 * @v: the value
 */
void json_u64(struct json *j, const char *key, uint64_t v)
{
	struct jt_node *n;

	if (!j->out) {
		n = node(j, key, JT_U64);
		if (n)
			n->v.u = v;
		return;
	}
	item(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

/**
 * json_i64 - write a signed integer
 * @j: the writer
 * @key: member name or NULL
 * @v: the value
 */
void json_i64(struct json *j, const char *key, int64_t v)
{
	struct jt_node *n;

	if (!j->out) {
		n = node(j, key, JT_I64);
		if (n)
			n->v.i = v;
		return;
	}
	item(j, key);
	fprintf(j->out, "%" PRId64, v);
}

/**
 * json_pct - write a percentage, rounded to four decimals
 * @j: the writer
 * @key: member name or NULL
 * @v: the value
 */
void json_pct(struct json *j, const char *key, double v)
{
	struct jt_node *n;

	if (!j->out) {
		n = node(j, key, JT_PCT);
		if (n) {	/* as it would be written: four decimals */
			char buf[64];

			snprintf(buf, sizeof(buf), "%.4f", v);
			n->v.d = strtod(buf, NULL);
		}
		return;
	}
	item(j, key);
	fprintf(j->out, "%.4f", v);
}

/**
 * json_str - write a string, or null for NULL
 * @j: the writer
 * @key: member name or NULL
 * @s: the string
 */
void json_str(struct json *j, const char *key, const char *s)
{
	struct jt_node *n;

	if (!j->out) {
		n = node(j, key, s ? JT_STR : JT_NULL);
		if (n && s && !(n->v.s = strdup(s))) {
			n->type = JT_NULL;
			j->oom = true;
		}
		return;
	}
	item(j, key);
	if (s)
		put_string(j->out, s);
	else
		fputs("null", j->out);
}

/**
 * json_bool - write true or false
 * @j: the writer
 * @key: member name or NULL
 * @v: the value
 */
void json_bool(struct json *j, const char *key, bool v)
{
	struct jt_node *n;

	if (!j->out) {
		n = node(j, key, JT_BOOL);
		if (n)
			n->v.b = v;
		return;
	}
	item(j, key);
	fputs(v ? "true" : "false", j->out);
}

/**
 * json_count_bytes - write { "count": N, "bytes": B }
 * @j: the writer
 * @key: member name or NULL
 * @n: the count
 * @bytes: the bytes
 */
void json_count_bytes(struct json *j, const char *key, uint64_t n,
		      uint64_t bytes)
{
	json_open(j, key, '{');
	json_u64(j, "count", n);
	json_u64(j, "bytes", bytes);
	json_close(j, '}');
}

/**
 * json_mean - write the mean of @n values, or null if there are none
 * @j: the writer
 * @key: member name or NULL
 * @sum: the sum of the values
 * @n: how many (the mean is @sum / @n, truncated)
 */
void json_mean(struct json *j, const char *key, uint64_t sum, uint64_t n)
{
	if (n)
		json_u64(j, key, sum / n);
	else
		json_str(j, key, NULL);
}

/**
 * jt_write_as - write a document held in memory under another key
 * @n: the node
 * @key: the member name it is written with (NULL in an array)
 * @j: the writer
 */
void jt_write_as(const struct jt_node *n, const char *key, struct json *j)
{
	size_t i;

	switch (n->type) {
	case JT_OBJ:
	case JT_ARR:
		json_open(j, key, n->type == JT_OBJ ? '{' : '[');
		for (i = 0; i < n->n; i++)
			jt_write_as(n->kids[i], n->kids[i]->key, j);
		json_close(j, n->type == JT_OBJ ? '}' : ']');
		break;
	case JT_U64:
		json_u64(j, key, n->v.u);
		break;
	case JT_I64:
		json_i64(j, key, n->v.i);
		break;
	case JT_PCT:
		json_pct(j, key, n->v.d);
		break;
	case JT_STR:
		json_str(j, key, n->v.s);
		break;
	case JT_BOOL:
		json_bool(j, key, n->v.b);
		break;
	case JT_NULL:
		json_str(j, key, NULL);
		break;
	}
}

/**
 * jt_write - write a document held in memory
 * @n: the node (written with its own key)
 * @j: the writer
 */
void jt_write(const struct jt_node *n, struct json *j)
{
	jt_write_as(n, n->key, j);
}
