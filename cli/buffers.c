// SPDX-License-Identifier: LGPL-2.1
/*
 * Which buffer a one-buffer command reads.  stat reads every buffer of
 * a file; plot and diff read one: the instance --instance names, else
 * the top-level buffer, unless it holds no kmem record and exactly one
 * instance does (a recording into an instance only).  The choice is
 * said on stderr when it is not the top-level buffer by default, and
 * when it cannot be made.
 */
#include <stdio.h>
#include <string.h>

#include "buffers.h"
#include "feed/loop.h"
#include "native.h"

/**
 * tk_buffer_count - how many buffers a file has
 * @in: the file, opened
 *
 * Return: 1 (the top-level buffer) plus its instances.
 */
int tk_buffer_count(const struct tk_input *in)
{
	return in->f ? tdat_nr_buffers(in->f) : in->ninst + 1;
}

/**
 * tk_buffer_name - a buffer's instance name
 * @in: the file
 * @buffer: 0 for the top-level buffer, then the instances
 *
 * Return: the name, "" for the top-level buffer.
 */
const char *tk_buffer_name(const struct tk_input *in, int buffer)
{
	const char *n;

	if (!buffer)
		return "";
	if (in->f)
		n = tdat_buffer_name(in->f, buffer);
	else
		n = buffer <= in->nnames ? in->names[buffer - 1] : NULL;
	return n ? n : "";
}

static struct tracecmd_input *handle(const struct tk_input *in, int buffer)
{
	return buffer ? in->inst[buffer - 1] : in->h;
}

/**
 * tk_buffer_tep - the event formats of a buffer
 * @in: the file
 * @buffer: the buffer
 *
 * Return: its tep handle.
 */
struct tep_handle *tk_buffer_tep(const struct tk_input *in, int buffer)
{
	return in->f ? tdat_tep(in->f) :
		       tracecmd_get_tep(handle(in, buffer));
}

/* Stop at the first kmem record. */
static int probe_native(void *priv, const struct tep_record *rec)
{
	return kmem_feed_slot(priv, rec) >= 0;
}

static int probe_tracecmd(struct tracecmd_input *h, struct tep_record *rec,
			  int cpu, void *priv)
{
	(void)h;
	(void)cpu;
	return kmem_feed_slot(priv, rec) >= 0;
}

/*
 * Does a buffer hold a kmem record?  Reads up to its first one (all of
 * a buffer without any: an empty top-level buffer costs nothing).  A
 * libtracecmd handle is read once: *@used says one was.
 */
static bool has_kmem(const struct tk_input *in, int buffer, bool *used)
{
	struct tdat_damage damage;
	struct kmem_feed fd;
	char why[128];
	int ret;

	if (kmem_feed_init(&fd, tk_buffer_tep(in, buffer), NULL,
			   KMEM_FEED_MAP_IDS | KMEM_FEED_SLOTS_ONLY)) {
		kmem_feed_release(&fd);
		return true;	/* out of memory: as if it had */
	}
	if (in->f)
		ret = tdat_iterate(in->f, buffer, NULL, 0, probe_native, &fd,
				   &damage, why, sizeof(why));
	else
		ret = tracecmd_iterate_events(handle(in, buffer), NULL, 0,
					      probe_tracecmd, &fd);
	*used |= !in->f;
	kmem_feed_release(&fd);
	return ret > 0;
}

/**
 * tk_buffer_pick - the buffer a one-buffer command reads
 * @in: the file, opened
 * @path: its name, for the messages
 * @instance: --instance NAME, or NULL
 * @reopen: set when libtracecmd's handles were read to choose: the
 *	caller opens the file anew (tk_open_inputs()) before reading it
 *
 * With @instance, that buffer (an error when the file has none of that
 * name, naming those it has).  Else the top-level buffer, unless it
 * holds no kmem record: then the one instance that does, said on
 * stderr; several such instances are an error naming them.
 *
 * Return: the buffer (0: top level), or -1 after one line on stderr.
 */
int tk_buffer_pick(const struct tk_input *in, const char *path,
		   const char *instance, bool *reopen)
{
	int i, n = tk_buffer_count(in), found = -1, with = 0;
	char list[512];
	size_t k = 0;

	list[0] = '\0';
	*reopen = false;
	if (instance) {
		for (i = 1; i < n; i++)
			if (!strcmp(tk_buffer_name(in, i), instance))
				return i;
		for (i = 1; i < n && k < sizeof(list); i++)
			k += (size_t)snprintf(list + k, sizeof(list) - k,
					      "%s%s", i > 1 ? ", " : "",
					      tk_buffer_name(in, i));
		fprintf(stderr,
			TK_NAME ": %s: no buffer instance '%s' (%s%s)\n", path,
			instance, n > 1 ? "its instances: " : "it has none",
			list);
		return -1;
	}
	if (n == 1 || has_kmem(in, 0, reopen))
		return 0;
	for (i = 1; i < n; i++) {
		if (!has_kmem(in, i, reopen))
			continue;
		if (k < sizeof(list))
			k += (size_t)snprintf(list + k, sizeof(list) - k,
					      "%s%s", with ? ", " : "",
					      tk_buffer_name(in, i));
		with++;
		found = i;
	}
	if (with == 1) {
		fprintf(stderr,
			TK_NAME ": %s: no kmem records in the top-level "
				"buffer; reading instance %s\n",
			path, tk_buffer_name(in, found));
		return found;
	}
	if (with > 1) {
		fprintf(stderr,
			TK_NAME ": %s: no kmem records in the top-level "
				"buffer; instances %s have some: choose one "
				"with --instance NAME\n",
			path, list);
		return -1;
	}
	return 0;	/* none has: the top-level buffer's report says so */
}
