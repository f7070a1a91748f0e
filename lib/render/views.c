// SPDX-License-Identifier: LGPL-2.1
/*
 * The allocators as the report shows them (see views.h).
 */
#include "report_page.h"
#include "report_percpu.h"
#include "report_slab.h"
#include "report_vmalloc.h"
#include "views.h"

const struct kmem_alloc_view kmem_alloc_views[KMEM_NR_ALLOC] = {
	[KMEM_ALLOC_SLAB] = {
		.section = "Slab allocator",
		.section_events = "kmalloc, kmem_cache_alloc, kfree, "
				  "kmem_cache_free",
		.none_name = "slab",
		.none_events = "kmem:kmalloc, kmem:kfree ...",
		.unavailable = "Slab statistics unavailable: no slab event "
			       "reached this plugin.",
		.freed_sites = &slab_freed_site_cols,
		.sites = slab_sites,
		.plot_colour = "#1f3f7a",
		.site_dash_more = "10 3 2 3",
		.site_legend = "slab call site",
		.ks_rgb = 0x2962ff,
		.print = slab_print,
		.json = slab_json,
	},
	[KMEM_ALLOC_PAGE] = {
		.section = "Page allocator",
		.section_events = "mm_page_alloc, mm_page_free and the others",
		.none_name = "page",
		.none_events = "kmem:mm_page_alloc, kmem:mm_page_free ...",
		.plot_colour = "#b35000",
		.plot_dash = "8 4",
		.site_dash = "6 3",
		.site_dash_more = "2 3",
		.site_legend = "page call site",
		.ks_rgb = 0x2e7d32,
		.print = page_print,
		.json = page_json,
	},
	[KMEM_ALLOC_PERCPU] = {
		.section = "Per-CPU allocator",
		.section_events = "percpu_alloc_percpu, percpu_free_percpu and "
				  "the others",
		.none_name = "per-CPU",
		.none_events = "percpu:percpu_alloc_percpu, "
			       "percpu:percpu_free_percpu ...",
		.freed_sites = &percpu_freed_sites,
		.sites = percpu_sites,
		.plot_colour = "#7b1fa2",
		.plot_dash = "4 2",
		.site_dash = "4 2",
		.site_dash_more = "4 2 1 2",
		.site_legend = "per-CPU call site",
		.ks_rgb = 0x7b1fa2,
		.print = percpu_print,
		.json = percpu_json,
	},
	[KMEM_ALLOC_VMALLOC] = {
		.section = "vmalloc allocator",
		.section_events = "alloc_vmap_area, free_vmap_area_noflush, "
				  "purge_vmap_area_lazy",
		.none_name = "vmalloc",
		.none_events = "vmalloc:alloc_vmap_area, "
			       "vmalloc:free_vmap_area_noflush ...",
		.freed_sites = &vmalloc_freed_sites,
		.sites = vmalloc_sites,
		.plot_colour = "#5d4037",
		.plot_dash = "12 3 3 3",
		.site_dash = "12 3 3 3",
		.site_dash_more = "12 3 3 3 3 3",
		.site_legend = "vmalloc call site",
		.ks_rgb = 0x795548,
		.print = vmalloc_print,
		.json = vmalloc_json,
	},
};
