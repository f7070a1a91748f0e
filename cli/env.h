/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The environment variables of a few words, checked once (env.c).
 */
#ifndef TRACE_KMEM_ENV_H
#define TRACE_KMEM_ENV_H

void tk_env_check(void);

#endif
