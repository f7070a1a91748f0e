// SPDX-License-Identifier: LGPL-2.1
/*
 * kshark_session PLUGIN FILE OUT [FROM TO]: a KernelShark session file that
 * opens FILE with the KernelShark plugin PLUGIN registered and enabled on it
 * and every CPU plotted, written by libkshark's own export functions as
 * KernelShark writes its sessions (KsSession.cpp): "data streams",
 * "User Plugins", the CPU and task plots of each stream, no marker set,
 * and the window's size (1200x640, the graph 420 pixels high); with FROM
 * and TO (trace clock, ns), the graph shows that time only.  For
 * tests/e2e/kshark_gui.sh: kernelshark -s OUT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkshark.h"
#include "libkshark-model.h"
#include "libkshark-plugin.h"

/* The plots of each stream in the session's "data streams". */
static int add_plots(struct kshark_config_doc *conf, int n_cpus)
{
	struct kshark_config_doc *streams = kshark_config_alloc(KS_CONFIG_JSON);
	json_object *all, *cpus, *tasks;
	size_t i;
	int cpu;

	if (!streams || !kshark_config_doc_get(conf, "data streams", streams)) {
		free(streams);
		return -1;
	}
	all = streams->conf_doc;
	for (i = 0; i < json_object_array_length(all); i++) {
		json_object *s = json_object_array_get_idx(all, i);

		cpus = json_object_new_array();
		tasks = json_object_new_array();
		for (cpu = 0; cpu < n_cpus; cpu++)
			json_object_array_add(cpus, json_object_new_int(cpu));
		json_object_object_add(s, "CPUPlots", cpus);
		json_object_object_add(s, "TaskPlots", tasks);
	}
	free(streams);
	return 0;
}

static int add_user_plugin(struct kshark_config_doc *conf,
			   struct kshark_plugin_list *pl)
{
	struct kshark_config_doc *plugins =
		kshark_config_new("kshark.config.plugins", KS_CONFIG_JSON);
	struct kshark_config_doc *lib =
		kshark_export_plugin_file(pl, KS_CONFIG_JSON);
	json_object *list = json_object_new_array();

	if (!plugins || !lib)
		return -1;
	json_object_array_add(list, lib->conf_doc);
	free(lib);
	json_object_object_add(plugins->conf_doc, "obj. files", list);
	return kshark_config_doc_add(conf, "User Plugins", plugins) ? 0 : -1;
}

/* No marker set (KernelShark 2.2.1 crashes loading a session without). */
static int add_markers(struct kshark_config_doc *conf)
{
	struct kshark_config_doc *m =
		kshark_config_new("kshark.config.markers", KS_CONFIG_JSON);
	const char *const names[] = { "markA", "markB" };
	size_t i;

	if (!m)
		return -1;
	for (i = 0; i < 2; i++) {
		json_object *jm = json_object_new_object();

		json_object_object_add(jm, "isSet",
				       json_object_new_boolean(false));
		json_object_object_add(m->conf_doc, names[i], jm);
	}
	json_object_object_add(m->conf_doc, "Active",
			       json_object_new_string("A"));
	return kshark_config_doc_add(conf, "Markers", m) ? 0 : -1;
}

/* "MainWindow" and "Splitter": two sizes */
static int add_sizes(struct kshark_config_doc *conf, const char *key, int a,
		     int b)
{
	struct kshark_config_doc *d = kshark_config_alloc(KS_CONFIG_JSON);
	json_object *j = json_object_new_array();

	if (!d)
		return -1;
	json_object_array_put_idx(j, 0, json_object_new_int(a));
	json_object_array_put_idx(j, 1, json_object_new_int(b));
	d->conf_doc = j;
	return kshark_config_doc_add(conf, key, d) ? 0 : -1;
}

/* The graph's time range, as KernelShark saves its model. */
static int add_range(struct kshark_config_doc *conf, const char *from,
		     const char *to)
{
	struct kshark_trace_histo h;
	struct kshark_config_doc *m;

	memset(&h, 0, sizeof(h));
	h.min = strtoll(from, NULL, 0);
	h.max = strtoll(to, NULL, 0);
	h.n_bins = 1000;
	if (h.max <= h.min)
		return -1;
	m = kshark_export_model(&h, KS_CONFIG_JSON);
	return m && kshark_config_doc_add(conf, "Model", m) ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct kshark_config_doc *conf = NULL;
	struct kshark_context *ctx = NULL;
	struct kshark_data_stream *stream;
	struct kshark_plugin_list *pl;
	int sd, ret = 0;

	if (argc != 4 && argc != 6) {
		fprintf(stderr,
			"usage: kshark_session PLUGIN FILE OUT [FROM TO]\n");
		return 1;
	}
	if (!kshark_instance(&ctx))
		return 2;
	sd = kshark_open(ctx, argv[2]);
	stream = sd >= 0 ? kshark_get_data_stream(ctx, sd) : NULL;
	pl = stream ? kshark_register_plugin(ctx, "kmem", argv[1]) : NULL;
	if (!pl || !pl->process_interface) {
		fprintf(stderr, "kshark_session: cannot open %s with %s\n",
			argv[2], argv[1]);
		kshark_free(ctx);
		return 2;
	}
	kshark_register_plugin_to_stream(stream, pl->process_interface, true);
	if (!kshark_export_all_dstreams(ctx, &conf) ||
	    add_plots(conf, stream->n_cpus) || add_user_plugin(conf, pl) ||
	    add_markers(conf) || add_sizes(conf, "MainWindow", 1200, 640) ||
	    add_sizes(conf, "Splitter", 420, 180) ||
	    (argc == 6 && add_range(conf, argv[4], argv[5])) ||
	    !kshark_save_config_file(argv[3], conf)) {
		fprintf(stderr, "kshark_session: cannot write %s\n", argv[3]);
		ret = 2;
	}
	kshark_free_config_doc(conf);
	kshark_close(ctx, sd);
	kshark_free(ctx);
	return ret;
}
