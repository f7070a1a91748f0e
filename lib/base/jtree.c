// SPDX-License-Identifier: LGPL-2.1
/*
 * JSON documents in memory (see jtree.h).
 */
#include <stdlib.h>
#include <string.h>

#include "jtree.h"

/**
 * jt_add - a new node, appended to @parent
 * @parent: an object or array, or NULL for a root
 * @type: the node's type
 * @key: its member name (copied), or NULL
 *
 * Return: the node (zeroed value), or NULL when memory ran out.
 */
struct jt_node *jt_add(struct jt_node *parent, enum jt_type type,
		       const char *key)
{
	struct jt_node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->type = type;
	if (key && !(n->key = strdup(key))) {
		free(n);
		return NULL;
	}
	if (!parent)
		return n;
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 8;
		struct jt_node **k = realloc(parent->kids, cap * sizeof(*k));

		if (!k) {
			jt_free(n);
			return NULL;
		}
		parent->kids = k;
		parent->cap = cap;
	}
	parent->kids[parent->n++] = n;
	return n;
}

/**
 * jt_free - free a node and everything below it
 * @n: the node, or NULL
 */
void jt_free(struct jt_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++)
		jt_free(n->kids[i]);
	free(n->kids);
	if (n->type == JT_STR)
		free(n->v.s);
	free(n->key);
	free(n);
}

/**
 * jt_get - an object's member
 * @obj: the object (anything else has no members)
 * @key: the member's name
 *
 * Objects have tens of members at most; this runs at report time only.
 *
 * Return: the member, or NULL.
 */
const struct jt_node *jt_get(const struct jt_node *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != JT_OBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (obj->kids[i]->key && !strcmp(obj->kids[i]->key, key))
			return obj->kids[i];
	return NULL;
}

/**
 * jt_is_num - is a node a number?
 * @n: the node, or NULL
 *
 * Return: true for integers and percentages.
 */
bool jt_is_num(const struct jt_node *n)
{
	return n && (n->type == JT_U64 || n->type == JT_I64 ||
		     n->type == JT_PCT);
}

/**
 * jt_num - a number node's value
 * @n: a node for which jt_is_num() holds
 *
 * Return: its value as a double (integers up to 2^53 exactly).
 */
double jt_num(const struct jt_node *n)
{
	if (n->type == JT_U64)
		return (double)n->v.u;
	if (n->type == JT_I64)
		return (double)n->v.i;
	return n->v.d;
}
