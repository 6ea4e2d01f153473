// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * METADATA / PKG-INFO headers, RECORD rows and dist-info directory names
 * (src/formats/dist-metadata.c), on the texts pip and setuptools write: torch 2.4.0+cu124's
 * METADATA head with its nvidia-* pins, an nvidia-cuda-runtime-cu12 METADATA, Debian's
 * torch PKG-INFO, a RECORD with quoted and hash-less rows. Then broken variants.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/dist-metadata.h"
#include "shared/strv.h"

static const char torch_meta[] =
	"Metadata-Version: 2.1\n"
	"Name: torch\n"
	"Version: 2.4.0+cu124\n"
	"Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n"
	"Home-page: https://pytorch.org/\n"
	"License: BSD-3\n"
	"Classifier: Programming Language :: Python :: 3.12\n"
	"Requires-Python: >=3.8.0\n"
	"Description-Content-Type: text/markdown\n"
	"License-File: LICENSE\n"
	"Requires-Dist: filelock\n"
	"Requires-Dist: nvidia-cuda-runtime-cu12==12.4.99; platform_system == \"Linux\" and "
	"platform_machine == \"x86_64\"\n"
	"Requires-Dist: nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and "
	"platform_machine == \"x86_64\"\n"
	"Provides-Extra: opt-einsum\n"
	"Requires-Dist: opt-einsum>=3.3; extra == \"opt-einsum\"\n"
	"\n"
	"![PyTorch "
	"Logo](https://github.com/pytorch/pytorch/raw/main/docs/source/_static/img/"
	"pytorch-logo-dark.png)\n"
	"Name: not-a-header\n";

static void test_metadata(void **state)
{
	struct dist_metadata *m = NULL;

	assert_int_equal(dist_metadata_parse(torch_meta, strlen(torch_meta), &m), 0);
	assert_string_equal(m->metadata_version, "2.1");
	assert_string_equal(m->name, "torch");
	assert_string_equal(m->version, "2.4.0+cu124");
	assert_int_equal(m->n_requires, 4);
	assert_string_equal(m->requires_dist[1],
			    "nvidia-cuda-runtime-cu12==12.4.99; platform_system == \"Linux\" and "
			    "platform_machine == \"x86_64\"");
	dist_metadata_free(m);

	/* Debian PKG-INFO (distutils), CRLF and a folded header. */
	static const char pkg[] =
		"Metadata-Version: 2.1\r\nName: torch\r\nVersion: 1.13.0a0+gitunknown\r\n"
		"Summary: Tensors and Dynamic neural networks\r\n  continued\r\n";
	assert_int_equal(dist_metadata_parse(pkg, strlen(pkg), &m), 0);
	assert_string_equal(m->version, "1.13.0a0+gitunknown");
	assert_int_equal(m->n_requires, 0);
	assert_null(m->requires_dist);
	dist_metadata_free(m);

	static const char fold[] = "Name: a\nVersion: 1.0\n  .post1\n";
	assert_int_equal(dist_metadata_parse(fold, strlen(fold), &m), 0);
	assert_string_equal(m->version, "1.0 .post1");
	dist_metadata_free(m);
}

static void test_metadata_broken(void **state)
{
	static const char *const bad[] = {
		"",					 /* empty file */
		"Metadata-Version: 2.1\nName: torch\n",	 /* no Version (truncated) */
		"Metadata-Version: 2.1\nVersion: 1.0\n", /* no Name */
		"Name: torch\nVersion:\n",		 /* empty Version */
		"Name torch\nVersion: 1.0\n",		 /* no colon */
		"  leading continuation\nName: a\nVersion: 1\n",
		": value\nName: a\nVersion: 1\n",
		"\x7f"
		"ELF\x02\x01\x01", /* a binary */
	};
	struct dist_metadata *m = (struct dist_metadata *)0x1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dist_metadata_parse(bad[i], strlen(bad[i]), &m), -EBADMSG);
	static const char nul[] = "Name: a\0\nVersion: 1\n";
	assert_int_equal(dist_metadata_parse(nul, sizeof(nul) - 1, &m), -EBADMSG);
	assert_ptr_equal(m, (struct dist_metadata *)0x1); /* untouched on failure */
}

static bool want_so(const char *p)
{
	return strstr(p, ".so") != NULL;
}

static void test_record(void **state)
{
	static const char rec[] =
		"nvidia/__init__.py,sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU,0\n"
		"nvidia/__pycache__/__init__.cpython-310.pyc,,\n"
		"nvidia/cuda_runtime/lib/libcudart.so.12,sha256=AAAA,707904\r\n"
		"\"nvidia/odd,name/lib/libx.so.1\",sha256=BBBB,10\n"
		"\"a\"\"b.so\",,\n"
		"nvidia_cuda_runtime_cu12-12.4.99.dist-info/RECORD,,";
	char **paths = NULL;

	assert_int_equal(dist_record_paths(rec, strlen(rec), NULL, 100, &paths), 0);
	assert_int_equal(strv_length(paths), 6);
	assert_string_equal(paths[5], "nvidia_cuda_runtime_cu12-12.4.99.dist-info/RECORD");
	strv_free(paths);
	assert_int_equal(dist_record_paths(rec, strlen(rec), want_so, 100, &paths), 0);
	assert_int_equal(strv_length(paths), 3);
	assert_string_equal(paths[0], "nvidia/cuda_runtime/lib/libcudart.so.12");
	assert_string_equal(paths[1], "nvidia/odd,name/lib/libx.so.1");
	assert_string_equal(paths[2], "a\"b.so");
	strv_free(paths);
	assert_int_equal(dist_record_paths(rec, strlen(rec), want_so, 2, &paths), -E2BIG);
	assert_int_equal(dist_record_paths("", 0, NULL, 10, &paths), 0);
	assert_null(paths[0]);
	strv_free(paths);
	assert_int_equal(dist_record_paths("\"unterminated,,\n", 16, NULL, 10, &paths), -EBADMSG);
	assert_int_equal(dist_record_paths(",sha256=x,1\n", 12, NULL, 10, &paths), -EBADMSG);
}

static void test_dirname(void **state)
{
	static const struct {
		const char *in, *name, *version;
	} ok[] = {
		{ "torch-2.4.0+cu124.dist-info", "torch", "2.4.0+cu124" },
		{ "nvidia_cuda_runtime_cu12-12.4.99.dist-info", "nvidia_cuda_runtime_cu12",
		  "12.4.99" },
		{ "torch-1.13.0a0+gitunknown.egg-info", "torch", "1.13.0a0+gitunknown" },
		{ "cupy_cuda12x-13.3.0-py3.11.egg-info", "cupy_cuda12x", "13.3.0" },
	};
	static const char *const bad[] = { "torch",	     "torch.dist-info",
					   "-1.0.dist-info", "torch-.dist-info",
					   ".dist-info",     "a-.egg-info" };
	char *n, *v;
	char buf[64];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(dist_dirname_split(ok[i].in, &n, &v), 0);
		assert_string_equal(n, ok[i].name);
		assert_string_equal(v, ok[i].version);
		free(n);
		free(v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dist_dirname_split(bad[i], &n, &v), -EINVAL);
	dist_name_normalize("Jax_CUDA12__Plugin", buf, sizeof(buf));
	assert_string_equal(buf, "jax-cuda12-plugin");
	dist_name_normalize("nvidia.cuda-runtime_cu12", buf, sizeof(buf));
	assert_string_equal(buf, "nvidia-cuda-runtime-cu12");
	dist_name_normalize("abcdef", buf, 4);
	assert_string_equal(buf, "abc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metadata),
		cmocka_unit_test(test_metadata_broken),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_dirname),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
