// SPDX-License-Identifier: LGPL-2.1-or-later
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locale-fx.h"

int test_locale_from_env(void)
{
	const char *point;

	setlocale(LC_ALL, "");
	point = localeconv()->decimal_point;
	if (getenv("GPUENV_TEST_COMMA_LOCALE") && strcmp(point, ",") != 0) {
		fprintf(stderr, "FAIL: the comma locale is not in effect (decimal point \"%s\")\n",
			point);
		return -1;
	}
	return 0;
}
