// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The readers of formats/pasted for the software stack above the driver: ldd, docker info,
 * PyTorch's device queries, TensorFlow's build info, and the gzip input
 * (nvidia-bug-report.log.gz), over real pastes (tests/fuzz/corpus/pasted-<reader>/, each
 * copied from the page named above its test) and edge cases as strings.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "formats/pasted-gz-feed.h"
#include "formats/pasted-gzip.h"
#include "formats/pasted-input.h"
#include "formats/pasted-readers.h"
#include "pasted-test-util.h"

static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/NVIDIA/TorchFort/issues/47 (no GPU library in the part pasted: nothing);
 * the rest as glibc's rtld prints its trace (elf/rtld.c) */
static void test_ldd(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_ldd, "pasted-ldd",
					   "torchfort-libtorch-cuda-missing.txt", &f),
			 0);
	pasted_run_text(pasted_read_ldd,
			"\tlinux-vdso.so.1 (0x00007ffe920c8000)\n"
			"\tlibcudart.so.12 => /usr/local/cuda/lib64/libcudart.so.12 (0x00007f1)\n"
			"\tlibcudnn.so.9 => not found\n"
			"\tlibcuda.so.1 => /usr/local/cuda/lib64/stubs/libcuda.so.1 (0x00007f2)\n"
			"\tlibnvidia-ml.so.1 => not found\n"
			"\tlibfoo.so.1 => not found\n"
			"the libcublas.so.12 => not found\n",
			&f);
	pasted_expect(&f, "symptoms.runtime.library-not-found", "libcudnn.so.9 => not found", 3);
	pasted_expect(&f, "driver.userspace.libcuda.path",
		      "/usr/local/cuda/lib64/stubs/libcuda.so.1", 4);
	pasted_expect(&f, "driver.userspace.libcuda.is_stub", "true", 4);
	pasted_expect_none(&f, "driver.userspace.libnvidia_ml.path");
	assert_int_equal(f.n, 4);
}

/* https://github.com/docker/for-linux/issues/1531 (`docker info | grep -i runtime`: no nvidia
 * runtime) and https://github.com/kata-containers/runtime/issues/394 (Docker 17.12, no
 * indentation); CDI directories as Docker 25+ prints them (docker/cli info.go) */
static void test_docker_info(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_docker_info, "pasted-docker-info",
			  "grep-runtime-no-nvidia.txt", &f);
	pasted_expect(&f, "container.host.docker.runtimes.0.name", "io.containerd.runc.v2", 3);
	pasted_expect(&f, "container.host.docker.runtimes.1.name", "runc", 3);
	pasted_expect_none(&f, "container.host.docker.runtimes.2.name");
	pasted_expect(&f, "container.host.docker.default_runtime", "runc", 4);
	pasted_run_sample(pasted_read_docker_info, "pasted-docker-info", "docker-17.12-kata.txt",
			  &f);
	pasted_expect(&f, "container.host.docker.runtimes.2.name", "cc-runtime", 18);
	pasted_expect(&f, "container.host.docker.default_runtime", "runc", 19);
	assert_int_equal(f.n, 4);
	pasted_run_text(pasted_read_docker_info,
			" Runtimes: io.containerd.runc.v2 nvidia runc\n Default Runtime: nvidia\n"
			" Init Binary: docker-init\n CDI spec directories:\n  /etc/cdi\n"
			"  /var/run/cdi\n Swarm: inactive\n  /not/a/cdi/dir\n",
			&f);
	pasted_expect(&f, "container.host.docker.default_runtime", "nvidia", 2);
	pasted_expect(&f, "container.host.docker.cdi_spec_dirs.0", "/etc/cdi", 5);
	pasted_expect(&f, "container.host.docker.cdi_spec_dirs.1", "/var/run/cdi", 6);
	pasted_expect_none(&f, "container.host.docker.cdi_spec_dirs.2");
	/* "Runtimes:" without docker info's "Default Runtime:" is anyone's word */
	assert_int_equal(pasted_run_text(pasted_read_docker_info, "Runtimes: a b c\n", &f), 0);
}

/* https://github.com/pytorch/pytorch/issues/182250 (two environments: the last is read) and
 * https://github.com/pytorch/pytorch/pull/158700 (a PTX entry) */
static void test_torch_arch(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_torch_arch, "pasted-torch-arch",
			  "interactive-cu126-cu128.txt", &f);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.version", "2.11.0+cu128", 11);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.local_version", "cu128", 11);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.arch_targets.0.target", "sm_75",
		      13);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.arch_targets.5.target", "sm_120",
		      13);
	pasted_expect_none(&f, "framework.python_envs.0.packages.torch.arch_targets.6.target");
	pasted_run_sample(pasted_read_torch_arch, "pasted-torch-arch", "sm50-warning-with-ptx.txt",
			  &f);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.arch_targets.7.target",
		      "compute_120", 2);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.arch_targets.7.kind", "ptx", 2);
	/* the command explain asks for; the device queries; a ROCm list; TensorFlow's list */
	pasted_run_text(pasted_read_torch_arch,
			"2.1.0+cu121 12.1 ['sm_50', 'sm_60', 'sm_70', 'sm_75', 'sm_80', 'sm_86', "
			"'sm_90']\n"
			">>> torch.cuda.get_device_capability()\n(8, 9)\n"
			"print(torch.cuda.get_device_name(1))\n'NVIDIA GeForce RTX 4090'\n"
			"torch.cuda.get_device_capability(1) (7, 5)\n"
			"('cuda_compute_capabilities', ['sm_35', 'sm_50']),\n",
			&f);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.version", "2.1.0+cu121", 1);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.cuda", "12.1", 1);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.arch_targets.6.target", "sm_90",
		      1);
	pasted_expect(&f, "driver.cuda.devices.0.compute_capability", "8.9", 3);
	pasted_expect(&f, "driver.cuda.devices.1.name", "NVIDIA GeForce RTX 4090", 5);
	pasted_expect(&f, "driver.cuda.devices.1.compute_capability", "7.5", 6);
	pasted_run_text(pasted_read_torch_arch,
			"2.3.0+rocm6.0 None ['gfx900', 'gfx906', 'gfx942:sramecc+:xnack-']\n", &f);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.cuda", "None", 1);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.arch_targets.2.kind", "amdgcn",
		      1);
	pasted_expect(&f, "framework.python_envs.0.packages.torch.arch_targets.2.gfx", "gfx942", 1);
	assert_int_equal(
		pasted_run_text(pasted_read_torch_arch, "['sm_80', 'x86_64']\n['a']\n(8, 6)\n", &f),
		0);
}

/* https://github.com/conda-forge/tensorflow-feedstock/pull/157 (pprint over lines); the
 * Python 3.12 one-line form and Windows' cuda_version as TensorFlow writes them */
static void test_tf_build_info(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_tf_build_info, "pasted-tf-build-info",
			  "conda-forge-cuda112-pretty.txt", &f);
#define BI "framework.python_envs.0.packages.tensorflow.build_info."
	pasted_expect(&f, BI "cuda_version", "11.2", 14);
	pasted_expect(&f, BI "cudnn_version", "8", 15);
	pasted_expect(&f, BI "is_cuda_build", "true", 16);
	pasted_expect(&f, BI "is_tensorrt_build", "false", 18);
	pasted_expect(&f, BI "cuda_compute_capabilities.0", "sm_35", 3);
	pasted_expect(&f, BI "cuda_compute_capabilities.9", "compute_86", 3);
	pasted_run_text(pasted_read_tf_build_info,
			"OrderedDict({'cpu_compiler': '/usr/lib/llvm-17/bin/clang', "
			"'cuda_compute_capabilities': ['sm_50', 'sm_60', 'compute_90'], "
			"'cuda_version': '64_112', 'cudnn_version': '64_8', 'is_cuda_build': True, "
			"'is_rocm_build': False, 'is_tensorrt_build': False})\n",
			&f);
	pasted_expect(&f, BI "cuda_version", "64_112", 1);
	pasted_expect(&f, BI "cuda_compute_capabilities.2", "compute_90", 1);
	pasted_expect(&f, BI "form", "dict", 1);
#undef BI
	assert_int_equal(pasted_run_text(pasted_read_tf_build_info, "'cuda_version': '11.2'\n", &f),
			 0);
}

static char *slurp(const char *name, size_t *ret_len)
{
	char path[512];
	FILE *fp;
	char *buf = malloc(1 << 20);

	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/pasted-gzip/%s", GPUENV_TEST_SOURCE_ROOT,
		 name);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_non_null(buf);
	*ret_len = fread(buf, 1, 1 << 20, fp);
	fclose(fp);
	return buf;
}

/* n zeros, gzip -9: a stream that inflates far beyond its size (*ret_len bytes, malloc()ed). */
static char *gzip_zeros(size_t n, size_t *ret_len)
{
	char *zeros = calloc(n, 1), *gz = malloc(1 << 20);
	z_stream z = { 0 };

	assert_non_null(zeros);
	assert_non_null(gz);
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
			 Z_OK);
	z.next_in = (Bytef *)zeros;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)gz;
	z.avail_out = 1 << 20;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*ret_len = z.total_out;
	deflateEnd(&z);
	free(zeros);
	return gz;
}

/* The dmesg of https://github.com/NVIDIA/k8s-device-plugin/issues/480 compressed with gzip -9n;
 * the same cut after 100 bytes; a member that inflates past the cap */
static void test_gzip(void **state)
{
	const char *why = NULL;
	char *out = NULL, *gz;
	size_t n, len, zlen;

	(void)state;
	gz = slurp("dmesg-525-k8s.txt.gz", &len);
	assert_true(pasted_is_gzip(gz, len));
	assert_int_equal(pasted_gunzip(gz, len, 1 << 20, &out, &n, &why), 0);
	assert_non_null(strstr(out, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  525.147.05"));
	assert_int_equal(pasted_read_kernel_log(out, n, &f), 2);
	pasted_expect(&f, "driver.kernel_log.loaded_versions.0", "525.147.05", 7);
	free(out);
	free(gz);
	gz = slurp("dmesg-525-k8s-truncated.gz", &len);
	assert_int_equal(pasted_gunzip(gz, len, 1 << 20, &out, &n, &why), -EBADMSG);
	assert_string_equal(why, "the gzip file is truncated");
	free(gz);
	assert_false(pasted_is_gzip("plain text", 10));
	/* 4 MiB of zeros in a few KiB: refused at a 1 MiB cap, never inflated whole */
	gz = gzip_zeros(4 << 20, &zlen);
	assert_int_equal(pasted_gunzip(gz, zlen, 1 << 20, &out, &n, &why), -EFBIG);
	assert_int_equal(pasted_gunzip(gz, zlen, 8 << 20, &out, &n, &why), 0);
	assert_int_equal(n, 4 << 20);
	free(out);
	free(gz);
}

/* Everything pasted_gz_read gives at cap max, a window of 2 MiB at a time; its last return. */
static int gz_read_all(const char *gz, size_t len, size_t max, size_t *ret_total,
		       const char **ret_why)
{
	static char window[2 << 20];
	struct pasted_gz g;
	size_t n = 0;
	int r = pasted_gz_init(&g, gz, len, max, ret_why);

	*ret_total = 0;
	while (r >= 0) {
		r = pasted_gz_read(&g, window, sizeof(window), &n, ret_why);
		if (r < 0 || n == 0)
			break;
		*ret_total += n;
	}
	pasted_gz_done(&g);
	return r;
}

/* Read a window at a time (explain's nvidia-bug-report.log.gz), the text may pass the 64 MiB
 * that a paste, or gzip inflated whole, may hold: memory is the window's, the cap 256 MiB. */
static void test_gzip_windowed_cap(void **state)
{
	const size_t text = (size_t)65 << 20;
	const char *why = NULL;
	size_t total = 0, len;
	char *gz = gzip_zeros(text, &len);

	(void)state;
	assert_int_equal(gz_read_all(gz, len, PASTED_INPUT_MAX, &total, &why), -EFBIG);
	assert_non_null(strstr(why, "more than 64 MiB"));
	assert_int_equal(gz_read_all(gz, len, PASTED_GZ_WINDOWED_MAX, &total, &why), 0);
	assert_int_equal(total, text);
	assert_int_equal(gz_read_all(gz, len, 1 << 20, &total, &why), -EFBIG);
	assert_non_null(strstr(why, "more than its cap"));
	free(gz);
}

/* data[0..n) as one gzip member appended to out at *at (out holds cap bytes). */
static void gzip_member(const char *data, size_t n, char *out, size_t cap, size_t *at)
{
	z_stream z = { 0 };

	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
			 Z_OK);
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)out + *at;
	z.avail_out = (uInt)(cap - *at);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*at += z.total_out;
	deflateEnd(&z);
}

/* Everything the feed gives, asked for `step` bytes at a time, into a malloc()ed buffer. */
static int feed_all(const char *gz, size_t len, size_t max, size_t step, char **ret, size_t *ret_n,
		    const char **ret_why)
{
	struct pasted_gz_feed feed;
	size_t have = 0, got = 0;
	char *buf = NULL;
	int r = pasted_gz_feed_init(&feed, gz, len, max, ret_why);
	bool live = r >= 0;

	while (r >= 0) {
		buf = realloc(buf, have + step);
		assert_non_null(buf);
		r = pasted_gz_feed_read(&feed, buf + have, step, &got, ret_why);
		if (r < 0 || got == 0)
			break;
		have += got;
		if (got < step) { /* fewer than asked only at the end, as pasted_gz_read */
			char more[16];

			assert_int_equal(
				pasted_gz_feed_read(&feed, more, sizeof(more), &got, ret_why), 0);
			assert_int_equal(got, 0);
			break;
		}
	}
	if (live)
		pasted_gz_feed_done(&feed);
	*ret = buf;
	*ret_n = have;
	return r;
}

/* The feed (inflating on a thread of its own, a chunk ahead) gives the bytes pasted_gunzip
 * gives, over members and chunks whatever the reader's step, and its errors: a truncated
 * member, text that is not gzip, a stream past its cap; stopped before the end, it ends. */
static void test_gz_feed(void **state)
{
	const size_t text = 3 * PASTED_GZ_FEED_CHUNK + 12345;
	static const size_t steps[] = { 1000, 65536 + 7, PASTED_GZ_FEED_CHUNK, (size_t)2 << 20 };
	const char *why = NULL;
	char *plain = malloc(text), *gz = malloc(4 << 20), *dmesg, *whole = NULL, *out = NULL;
	size_t len = 0, dlen, n = 0, wn = 0;
	struct pasted_gz_feed feed;

	(void)state;
	assert_non_null(plain);
	assert_non_null(gz);
	for (size_t i = 0; i < text; i++) /* lines a counter makes distinct */
		plain[i] = (i % 61 == 60) ? '\n' : (char)('a' + (i / 61 * 7 + i) % 26);
	/* three members: text, the k8s-device-plugin#480 dmesg, text again */
	gzip_member(plain, text, gz, 4 << 20, &len);
	dmesg = slurp("dmesg-525-k8s.txt.gz", &dlen);
	memcpy(gz + len, dmesg, dlen);
	len += dlen;
	gzip_member(plain, text / 2, gz, 4 << 20, &len);
	assert_int_equal(pasted_gunzip(gz, len, PASTED_GZ_WINDOWED_MAX, &whole, &wn, &why), 0);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		assert_int_equal(
			feed_all(gz, len, PASTED_GZ_WINDOWED_MAX, steps[i], &out, &n, &why), 0);
		assert_int_equal(n, wn);
		assert_memory_equal(out, whole, wn);
		free(out);
	}
	/* cut short: the text before it, then the error pasted_gz_read gives */
	assert_int_equal(feed_all(gz, len - 100, PASTED_GZ_WINDOWED_MAX, 4096, &out, &n, &why),
			 -EBADMSG);
	assert_string_equal(why, "the gzip file is truncated");
	free(out);
	assert_int_equal(pasted_gz_feed_init(&feed, "plain text", 10, 1 << 20, &why), -EBADMSG);
	assert_string_equal(why, "the input is not a gzip file");
	/* past the cap */
	assert_int_equal(feed_all(gz, len, 1 << 20, 65536, &out, &n, &why), -EFBIG);
	assert_non_null(strstr(why, "more than its cap"));
	free(out);
	/* stopped after one read, the inflater a chunk ahead: it ends, nothing leaks */
	assert_int_equal(pasted_gz_feed_init(&feed, gz, len, PASTED_GZ_WINDOWED_MAX, &why), 0);
	out = malloc(100);
	assert_non_null(out);
	assert_int_equal(pasted_gz_feed_read(&feed, out, 100, &n, &why), 0);
	assert_int_equal(n, 100);
	assert_memory_equal(out, whole, 100);
	pasted_gz_feed_done(&feed);
	free(out);
	free(whole);
	free(dmesg);
	free(plain);
	free(gz);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ldd, teardown),
		cmocka_unit_test_teardown(test_docker_info, teardown),
		cmocka_unit_test_teardown(test_torch_arch, teardown),
		cmocka_unit_test_teardown(test_tf_build_info, teardown),
		cmocka_unit_test_teardown(test_gzip, teardown),
		cmocka_unit_test(test_gzip_windowed_cap),
		cmocka_unit_test(test_gz_feed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
