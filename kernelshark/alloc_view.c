// SPDX-License-Identifier: LGPL-2.1
/*
 * An allocator's name and colour in the KernelShark plugin: its view's
 * (lib/render/views.c), so that no file of the plugin names one.
 */
#include "alloc_view.h"
#include "render/views.h"

/**
 * kmem_ks_alloc_name - what the plugin calls an allocator
 * @allocator: its enum kmem_alloc_id
 *
 * Return: "slab", "page", "per-CPU", "vmalloc" (its view's none_name),
 * "?" for none.
 */
const char *kmem_ks_alloc_name(uint32_t allocator)
{
	return allocator < KMEM_NR_ALLOC ? kmem_alloc_views[allocator].none_name
					 : "?";
}

/**
 * kmem_ks_alloc_rgb - the colour of an allocator's live-bytes curve
 * @allocator: its enum kmem_alloc_id, below KMEM_NR_ALLOC
 *
 * Return: 0xRRGGBB (its view's ks_rgb).
 */
uint32_t kmem_ks_alloc_rgb(uint32_t allocator)
{
	return kmem_alloc_views[allocator].ks_rgb;
}
