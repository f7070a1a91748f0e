// SPDX-License-Identifier: LGPL-2.1
/*
 * The name lib/'s messages start with (see msg.h).
 */
#include "msg.h"

const char *kmem_prog = "kmem";
