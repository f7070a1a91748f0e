/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * An allocator as the KernelShark plugin shows it, read from its view
 * (lib/render/views.h), which cannot be included beside libkshark.h
 * (its json_bool and json-c's differ).
 */
#ifndef KMEM_KS_ALLOC_VIEW_H
#define KMEM_KS_ALLOC_VIEW_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

const char *kmem_ks_alloc_name(uint32_t allocator);
uint32_t kmem_ks_alloc_rgb(uint32_t allocator);

#ifdef __cplusplus
}
#endif

#endif
