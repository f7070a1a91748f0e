/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A native-reader file's print formats and saved comms, which its
 * opening left for later (&tdat_hooks.lazy_print_fmt, .lazy_cmdlines),
 * registered with lib/'s registry (lib/event/fmtlater.h): lib/ then
 * asks the file for them when it first reads one.
 */
#ifndef TK_LATER_H
#define TK_LATER_H

#include "tdat.h"

int tk_later_register(struct tdat_file *f);
void tk_later_done(struct tdat_file *f);

#endif
