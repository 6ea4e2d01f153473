// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Python-literal reader (src/formats/pyfile.c) on real generated files: torch/version.py
 * as tools/generate_torch_version.py writes it (2.4.0+cu124, 2.7.1+cu126 with xpu, ROCm,
 * the pre-1.8 unannotated form, Debian's 1.13 build), jax's version.py as its wheel build
 * rewrites it (0.5.0), and TensorFlow build_info.py in both generator forms (OrderedDict,
 * TF >= 2.4; dict literal, older). Then the truncated and hostile variants.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pyfile.h"

static const char torch_24[] = "from typing import Optional\n"
			       "\n"
			       "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
			       "__version__ = '2.4.0+cu124'\n"
			       "debug = False\n"
			       "cuda: Optional[str] = '12.4'\n"
			       "git_version = 'e4ee3be4063b7c430974252fdf7db42273388d86'\n"
			       "hip: Optional[str] = None\n";

static const char torch_old[] = "__version__ = '1.7.1'\n"
				"debug = False\n"
				"cuda = '10.2'\n"
				"git_version = '57bffc3a8e4fee0cce31e1ff1f662ccf7b16db57'\n"
				"hip = None\n";

static const char jax_050[] =
	"from __future__ import annotations\n"
	"\n"
	"import datetime\n"
	"_version = \"0.5.0\"\n"
	"# The following line is overwritten by build scripts in distributions &\n"
	"_release_version: str = '0.5.0'\n"
	"_git_hash: str | None = None\n"
	"\n"
	"def _write_version(fname: str) -> None:\n"
	"  old_version_string = \"_release_version: str = '0.5.0'\"\n"
	"__version__ = _get_version_string()\n"
	"_minimum_jaxlib_version = \"0.5.0\"\n";

static const char tf_ordered[] =
	"\"\"\"Auto-generated module providing information about the build.\"\"\"\n"
	"import collections\n"
	"\n"
	"build_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-16/bin/clang'), "
	"('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', "
	"'compute_80']), "
	"('cuda_version', '12.2'), ('cudnn_version', '8'), ('is_cuda_build', True), "
	"('is_rocm_build', False), ('is_tensorrt_build', True)])\n";

static const char tf_dict[] =
	"from __future__ import print_function\n"
	"\n"
	"build_info = {'cuda_version': '64_101', 'cudnn_version': '64_7', "
	"'cuda_compute_capabilities': ['sm_35', 'sm_37', 'sm_52', 'sm_60', 'sm_61', 'compute_70'], "
	"'is_rocm_build': False, 'is_cuda_build': True}\n";

static void get_str(const char *text, const char *name, const char *want)
{
	char *s = NULL;
	bool none = true;

	assert_int_equal(pyfile_get_string(text, strlen(text), name, &s, &none), 0);
	assert_false(none);
	assert_string_equal(s, want);
	free(s);
}

static void get_none(const char *text, const char *name)
{
	char *s = (char *)"x";
	bool none = false;

	assert_int_equal(pyfile_get_string(text, strlen(text), name, &s, &none), 0);
	assert_true(none);
	assert_null(s);
}

static void test_torch_version(void **state)
{
	struct pyval v;

	get_str(torch_24, "__version__", "2.4.0+cu124");
	get_str(torch_24, "cuda", "12.4");
	get_str(torch_24, "git_version", "e4ee3be4063b7c430974252fdf7db42273388d86");
	get_none(torch_24, "hip");
	assert_int_equal(pyfile_get_assign(torch_24, strlen(torch_24), "debug", &v), 0);
	assert_int_equal(v.kind, PYVAL_BOOL);
	assert_string_equal(v.text, "False");
	pyval_done(&v);
	assert_int_equal(pyfile_get_assign(torch_24, strlen(torch_24), "__all__", &v), 0);
	assert_int_equal(v.kind, PYVAL_LIST);
	assert_int_equal(v.n, 5);
	assert_string_equal(v.items[4].text, "hip");
	pyval_done(&v);
	/* "xpu" is not in 2.4; "cud" is a prefix of "cuda", not an assignment. */
	assert_int_equal(pyfile_get_assign(torch_24, strlen(torch_24), "xpu", &v), -ENOENT);
	assert_int_equal(pyfile_get_assign(torch_24, strlen(torch_24), "cud", &v), -ENOENT);
	/* Pre-1.8: no annotation. */
	get_str(torch_old, "cuda", "10.2");
	get_none(torch_old, "hip");
}

static void test_jax_version(void **state)
{
	struct pyval v;

	get_str(jax_050, "_release_version", "0.5.0");
	get_str(jax_050, "_version", "0.5.0");
	get_none(jax_050, "_git_hash");
	/* A call is not a literal: OTHER, and not a string. */
	assert_int_equal(pyfile_get_assign(jax_050, strlen(jax_050), "__version__", &v), 0);
	assert_int_equal(v.kind, PYVAL_OTHER);
	pyval_done(&v);
	char *s = NULL;
	bool none;
	assert_int_equal(pyfile_get_string(jax_050, strlen(jax_050), "__version__", &s, &none),
			 -EBADMSG);
}

static void check_tf(const char *text, const char *cuda, size_t ncaps, const char *last_cap)
{
	struct pyval v;
	const struct pyval *x;

	assert_int_equal(pyfile_get_assign(text, strlen(text), "build_info", &v), 0);
	assert_int_equal(v.kind, PYVAL_DICT);
	x = pyval_dict_get(&v, "cuda_version");
	assert_non_null(x);
	assert_string_equal(x->text, cuda);
	x = pyval_dict_get(&v, "cuda_compute_capabilities");
	assert_non_null(x);
	assert_int_equal(x->kind, PYVAL_LIST);
	assert_int_equal(x->n, ncaps);
	assert_string_equal(x->items[ncaps - 1].text, last_cap);
	x = pyval_dict_get(&v, "is_cuda_build");
	assert_int_equal(x->kind, PYVAL_BOOL);
	assert_string_equal(x->text, "True");
	assert_null(pyval_dict_get(&v, "rocm_version"));
	pyval_done(&v);
}

static void test_tf_build_info(void **state)
{
	check_tf(tf_ordered, "12.2", 6, "compute_80");
	check_tf(tf_dict, "64_101", 6, "compute_70");
}

/* TF 1.13 to 2.2 on Linux: tf_py_build_info_genrule()'s --key_value pairs as module-level
 * variables (tensorflow/tensorflow.bzl; gen_build_info.py writes `%s = %r` per pair). */
static const char tf_module_vars[] =
	"# Copyright 2017 The TensorFlow Authors. All Rights Reserved.\n"
	"\"\"\"Generates a Python module containing information about the build.\"\"\"\n"
	"from __future__ import absolute_import\n"
	"from __future__ import division\n"
	"from __future__ import print_function\n\n"
	"is_rocm_build = False\n"
	"is_cuda_build = True\n\n"
	"cuda_version_number = '10.0'\n"
	"cudnn_version_number = '7'\n";

#define TF_BI(text) pyfile_tf_build_info(text, strlen(text), &v, &form)

static void test_tf_build_info_forms(void **state)
{
	const struct pyval *x;
	const char *form = NULL;
	struct pyval v;

	/* 1.x: the module-level names become the dict's keys. */
	assert_int_equal(pyfile_tf_build_info(tf_module_vars, strlen(tf_module_vars), &v, &form),
			 0);
	assert_string_equal(form, "module-variables");
	assert_int_equal(v.kind, PYVAL_DICT);
	x = pyval_dict_get(&v, "cudnn_version");
	assert_non_null(x);
	assert_string_equal(x->text, "7");
	assert_string_equal(pyval_dict_get(&v, "cuda_version")->text, "10.0");
	assert_string_equal(pyval_dict_get(&v, "is_cuda_build")->text, "True");
	assert_string_equal(pyval_dict_get(&v, "is_rocm_build")->text, "False");
	assert_null(pyval_dict_get(&v, "cuda_compute_capabilities"));
	pyval_done(&v);
	/* Before the genrule passed versions (TF <= 1.12): is_cuda_build alone. */
	assert_int_equal(TF_BI("is_cuda_build = False\n"), 0);
	assert_int_equal(v.n, 1);
	assert_null(pyval_dict_get(&v, "cudnn_version"));
	pyval_done(&v);
	/* 2.3 dict and 2.4+ OrderedDict. */
	assert_int_equal(pyfile_tf_build_info(tf_dict, strlen(tf_dict), &v, &form), 0);
	assert_string_equal(form, "dict");
	assert_string_equal(pyval_dict_get(&v, "cudnn_version")->text, "64_7");
	pyval_done(&v);
	assert_int_equal(pyfile_tf_build_info(tf_ordered, strlen(tf_ordered), &v, &form), 0);
	assert_string_equal(pyval_dict_get(&v, "cudnn_version")->text, "8");
	pyval_done(&v);
	/* Neither form; a build_info that is no dict; a variable cut short. */
	assert_int_equal(TF_BI("x = 1\n"), -ENOENT);
	assert_int_equal(TF_BI("build_info = [1]\n"), -EBADMSG);
	assert_int_equal(TF_BI("is_cuda_build = True\ncudnn_version_number = '7\n"), -EBADMSG);
}

static void test_escapes_and_layout(void **state)
{
	static const char t[] = "a = 'x\\'y\\\\z\\x41'  # comment\n"
				"b=\"q\"\n"
				"c = (1, -2, [None],)\n"
				"d = {\n  'k': 'v',  # note\n  'l': ['m',\n        'n'],\n}\n"
				"e = OrderedDict()\n"
				"a = 'second'\n";
	struct pyval v;

	get_str(t, "a", "second"); /* the last assignment wins */
	get_str(t, "b", "q");
	assert_int_equal(pyfile_get_assign(t, strlen(t), "c", &v), 0);
	assert_int_equal(v.kind, PYVAL_LIST);
	assert_int_equal(v.n, 3);
	assert_string_equal(v.items[1].text, "-2");
	assert_int_equal(v.items[2].items[0].kind, PYVAL_NONE);
	pyval_done(&v);
	assert_int_equal(pyfile_get_assign(t, strlen(t), "d", &v), 0);
	assert_int_equal(v.n, 2);
	assert_int_equal(pyval_dict_get(&v, "l")->n, 2);
	pyval_done(&v);
	assert_int_equal(pyfile_get_assign(t, strlen(t), "e", &v), 0);
	assert_int_equal(v.kind, PYVAL_DICT);
	assert_int_equal(v.n, 0);
	pyval_done(&v);
	static const char esc[] = "a = 'x\\'y\\\\z\\x41'\n";
	get_str(esc, "a", "x'y\\zA");
}

static void test_truncated(void **state)
{
	static const char *const bad[] = {
		"__version__ = '2.4.0+cu",	/* cut inside the string */
		"__version__ = '2.4.0+cu124\n", /* newline inside the string */
		"__version__ = '2.4.0' 'x'\n",	/* junk after the literal */
		"__version__ = '2.4.0' + suffix\n",
		"__version__: str\n",	     /* annotation without a value */
		"__version__ = ['a', 'b'\n", /* list never closed */
		"__version__ = {'a': }\n",
		"__version__ = {1: 'a'}\n", /* non-string key */
		"__version__ = OrderedDict([('a',)])\n",
		"__version__ = ('a', foo)\n", /* a name inside a literal */
		"__version__ = 'x\\",
		"__version__ = 'x\\x4'\n",
		"__version__ = 'a\0b'\n",
	};
	struct pyval v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = i == 12 ? 20 : strlen(bad[i]);

		assert_int_equal(pyfile_get_assign(bad[i], len, "__version__", &v), -EBADMSG);
	}
	/* Cut before the cuda line: absent, not a crash. */
	assert_int_equal(pyfile_get_assign(torch_24, 60, "cuda", &v), -ENOENT);
	/* Cut in the middle of every position: never more than a clean error. */
	for (size_t n = 0; n <= strlen(tf_ordered); n++) {
		int r = pyfile_get_assign(tf_ordered, n, "build_info", &v);

		assert_true(r == 0 || r == -ENOENT || r == -EBADMSG);
		if (r == 0)
			pyval_done(&v);
	}
}

static void test_caps(void **state)
{
	char *deep = malloc(64 + 2 * (PYFILE_MAX_DEPTH + 2));
	char *wide = malloc(16 + 3 * (PYFILE_MAX_ITEMS + 1));
	struct pyval v;
	size_t o;

	/* Nesting past the cap is refused. */
	o = (size_t)sprintf(deep, "x = ");
	for (int i = 0; i < PYFILE_MAX_DEPTH + 1; i++)
		deep[o++] = '[';
	for (int i = 0; i < PYFILE_MAX_DEPTH + 1; i++)
		deep[o++] = ']';
	deep[o] = '\0';
	assert_int_equal(pyfile_get_assign(deep, o, "x", &v), -EBADMSG);
	/* Too many elements are refused. */
	o = (size_t)sprintf(wide, "x = [");
	for (int i = 0; i < PYFILE_MAX_ITEMS + 1; i++)
		o += (size_t)sprintf(wide + o, "1,");
	wide[o++] = ']';
	wide[o] = '\0';
	assert_int_equal(pyfile_get_assign(wide, o, "x", &v), -EBADMSG);
	free(deep);
	free(wide);
	/* A very long string is refused, not truncated silently. */
	size_t big = PYFILE_MAX_STRING + 16;
	char *s = malloc(big + 16);
	memcpy(s, "x = '", 5);
	memset(s + 5, 'a', big);
	memcpy(s + 5 + big, "'\n", 3);
	assert_int_equal(pyfile_get_assign(s, strlen(s), "x", &v), -EBADMSG);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torch_version),
		cmocka_unit_test(test_jax_version),
		cmocka_unit_test(test_tf_build_info),
		cmocka_unit_test(test_tf_build_info_forms),
		cmocka_unit_test(test_escapes_and_layout),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
