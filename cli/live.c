// SPDX-License-Identifier: LGPL-2.1
#include <stdio.h>
#include "cli.h"
int tk_live(struct tk_args *a)
{
	(void)a;
	return TK_ENV;
}
