/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What lib/'s messages start with: "kmem: ..." from the trace-cmd and
 * KernelShark plugins, "trace-kmem: ..." from the front end, which sets
 * kmem_prog before anything is read.
 */
#ifndef KMEM_MSG_H
#define KMEM_MSG_H

/* what lib/'s messages start with: "kmem" (the plugin), or "trace-kmem" */
extern const char *kmem_prog;

#endif
