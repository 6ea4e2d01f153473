/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test harness: the locale a program using the library would run under. A unit test's main()
 * calls test_locale_from_env() first; tests/tools/with-comma-locale.sh runs it with
 * LC_NUMERIC in a comma-decimal locale.
 */
#pragma once

/* setlocale(LC_ALL, "") as a program would; under GPUENV_TEST_COMMA_LOCALE also checks that
 * the decimal point is a comma, so a run that failed to switch cannot pass. Returns 0, or -1
 * after saying why on stderr. */
int test_locale_from_env(void);
