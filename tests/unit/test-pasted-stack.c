// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The readers of formats/pasted for the software stack above the driver: ldd, docker info,
 * PyTorch's device queries, TensorFlow's build info, and the gzip input
 * (nvidia-bug-report.log.gz), over real pastes (tests/fuzz/corpus/pasted-<reader>/, each
 * copied from the page named above its test) and edge cases as strings.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "gpuenv/gpuenv.h"

#include "formats/pasted-dispatch.h"
#include "formats/pasted-gz-windows.h"
#include "formats/pasted-gzip.h"
#include "formats/pasted-input.h"
#include "formats/pasted-readers.h"
#include "formats/pasted.h"
#include "pasted-test-util.h"
#include "vendor/lazy-isal.h"

/* Set: the gzip tests run with zlib's inflate, explain's fallback where libisal cannot be
 * loaded (pasted_gz_init with no ISA-L table). */
static bool zlib_fallback;

/* ISA-L's inflate, as explain loads it (src/vendor/lazy-isal.h): installed with the build's
 * dependencies, so a failure to load it fails the test. NULL under zlib_fallback. */
static const struct isal_inflate_api *isal(void)
{
	const struct isal_inflate_api *api = NULL;
	const char *why = NULL;

	if (zlib_fallback)
		return NULL;
	if (vendor_isal(&api, &why) < 0)
		fail_msg("libisal: %s", why ? why : "not loaded");
	return api;
}

static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	zlib_fallback = false;
	return 0;
}

static int with_zlib(void **state)
{
	(void)state;
	zlib_fallback = true;
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
	/* a whole docker info (Docker 24.0.7) of a host with the NVIDIA runtime registered, not
	 * the default: https://github.com/longpt233/hello-k8s/blob/main/06-kube-gpu/mig/docker.sh */
	assert_int_equal(pasted_run_sample(pasted_read_docker_info, "pasted-docker-info",
					   "docker-24-nvidia-runtime-listed.txt", &f),
			 4);
	pasted_expect(&f, "container.host.docker.runtimes.0.name", "io.containerd.runc.v2", 35);
	pasted_expect(&f, "container.host.docker.runtimes.1.name", "nvidia", 35);
	pasted_expect(&f, "container.host.docker.runtimes.2.name", "runc", 35);
	pasted_expect(&f, "container.host.docker.default_runtime", "runc", 36);
	pasted_expect_no_prefix(&f, "container.host.docker.cdi_spec_dirs");
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

/* `docker context ls`: NVIDIA/nvidia-container-toolkit#814 (Docker Desktop's desktop-linux
 * starred) and docker/for-win#13685 (the default context starred, with TYPE and Kubernetes
 * columns); no row read above the header, after an empty line, or without a star. */
static void test_docker_context(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_docker_context, "pasted-docker-context",
					   "desktop-linux-current-814.txt", &f),
			 2);
	pasted_expect(&f, "container.host.docker_cli.current_context", "desktop-linux", 3);
	pasted_expect(&f, "container.host.docker_cli.context_host",
		      "unix:///home/user/.docker/desktop/docker.sock", 3);
	pasted_run_sample(pasted_read_docker_context, "pasted-docker-context",
			  "windows-default-current-13685.txt", &f);
	pasted_expect(&f, "container.host.docker_cli.current_context", "default", 2);
	pasted_expect(&f, "container.host.docker_cli.context_host",
		      "npipe:////./pipe/docker_engine", 2);
	/* docker info's Client section (docker/desktop-linux#213) and docker version's
	 * (docker/for-mac#7402): the context's name, no endpoint */
	assert_int_equal(pasted_run_sample(pasted_read_docker_context, "pasted-docker-context",
					   "docker-info-client-desktop-213.txt", &f),
			 1);
	pasted_expect(&f, "container.host.docker_cli.current_context", "desktop-linux", 6);
	assert_int_equal(pasted_run_sample(pasted_read_docker_context, "pasted-docker-context",
					   "docker-version-client-desktop-7402.txt", &f),
			 1);
	pasted_expect(&f, "container.host.docker_cli.current_context", "desktop-linux", 8);
	/* not in a Client section: after its end, under Server:, or no name */
	assert_int_equal(pasted_run_text(pasted_read_docker_context,
					 "Client:\n Version: 25.0.2\n\n Context: a\nServer:\n"
					 " Context: b\nClient:\n Context: desktop linux\n"
					 "Client: x\nServer: y\n Context: c\n",
					 &f),
			 0);
	assert_int_equal(pasted_run_text(pasted_read_docker_context,
					 "desktop-linux *   Docker Desktop   unix:///x\n"
					 "NAME   DESCRIPTION   DOCKER ENDPOINT\n"
					 "default   Current   unix:///var/run/docker.sock\n\n"
					 "other *   x   unix:///y\n",
					 &f),
			 0);
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
	pasted_expect(&f, BI "cuda_compute_capabilities.0", "sm_35", 4);
	pasted_expect(&f, BI "cuda_compute_capabilities.9", "compute_86", 13);
	pasted_run_text(pasted_read_tf_build_info,
			"OrderedDict({'cpu_compiler': '/usr/lib/llvm-17/bin/clang', "
			"'cuda_compute_capabilities': ['sm_50', 'sm_60', 'compute_90'], "
			"'cuda_version': '64_112', 'cudnn_version': '64_8', 'is_cuda_build': True, "
			"'is_rocm_build': False, 'is_tensorrt_build': False})\n",
			&f);
	pasted_expect(&f, BI "cuda_version", "64_112", 1);
	pasted_expect(&f, BI "cuda_compute_capabilities.2", "compute_90", 1);
	pasted_expect(&f, BI "form", "dict", 1);
	/* Windows wheels: get_build_info() is the wheel's generated build_info.py dict, printed
	 * here by Python 3.11 from the dict of tf-gpu 2.9.1 (pypi-data/pypi-mirror-154,
	 * packages/tf-gpu/tf_gpu-2.9.1-cp38-cp38-win_amd64.whl/tensorflow/python/platform/
	 * build_info.py: the DLL names, cuda_version '64_116', PTX only) and of a TensorFlow 2.3
	 * Windows build (NgaAdrain/TEAM_Enter_Text_Here, Show_Program_exe/predictModelUI/
	 * tensorflow/python/platform/build_info.py: a plain dict, no is_tensorrt_build) */
	assert_int_equal(pasted_run_sample(pasted_read_tf_build_info, "pasted-tf-build-info",
					   "windows-tf-gpu-2.9.1-wheel.txt", &f),
			 13);
	pasted_expect(&f, BI "cuda_version", "64_116", 1);
	pasted_expect(&f, BI "cudnn_version", "64_8", 1);
	pasted_expect(&f, BI "cuda_compute_capabilities.0", "compute_50", 1);
	pasted_expect(&f, BI "cuda_compute_capabilities.6", "compute_86", 1);
	pasted_expect_none(&f, BI "cuda_compute_capabilities.7");
	pasted_expect(&f, BI "is_cuda_build", "true", 1);
	pasted_expect(&f, BI "is_rocm_build", "false", 1);
	pasted_expect(&f, BI "is_tensorrt_build", "false", 1);
	pasted_run_sample(pasted_read_tf_build_info, "pasted-tf-build-info",
			  "windows-2.3-plain-dict.txt", &f);
	pasted_expect(&f, BI "cuda_version", "64_101", 1);
	pasted_expect(&f, BI "cudnn_version", "64_7", 1);
	pasted_expect(&f, BI "cuda_compute_capabilities.5", "compute_70", 1);
	pasted_expect(&f, BI "is_cuda_build", "true", 1);
	pasted_expect_none(&f, BI "is_tensorrt_build");
#undef BI
	assert_int_equal(pasted_run_text(pasted_read_tf_build_info, "'cuda_version': '11.2'\n", &f),
			 0);
}

/* A sample of tests/fuzz/corpus/<dir>/ (up to 1 MiB, malloc()ed). */
static char *slurp_in(const char *dir, const char *name, size_t *ret_len)
{
	char path[512];
	FILE *fp;
	char *buf = malloc(1 << 20);

	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/%s/%s", GPUENV_TEST_SOURCE_ROOT, dir,
		 name);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_non_null(buf);
	*ret_len = fread(buf, 1, 1 << 20, fp);
	fclose(fp);
	return buf;
}

static char *slurp(const char *name, size_t *ret_len)
{
	return slurp_in("pasted-gzip", name, ret_len);
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
	assert_int_equal(pasted_gunzip(isal(), gz, len, 1 << 20, &out, &n, &why), 0);
	assert_non_null(strstr(out, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  525.147.05"));
	assert_int_equal(pasted_read_kernel_log(out, n, &f), 2);
	pasted_expect(&f, "driver.kernel_log.loaded_versions.0", "525.147.05", 7);
	free(out);
	free(gz);
	gz = slurp("dmesg-525-k8s-truncated.gz", &len);
	assert_int_equal(pasted_gunzip(isal(), gz, len, 1 << 20, &out, &n, &why), -EBADMSG);
	assert_string_equal(why, "the gzip file is truncated");
	free(gz);
	assert_false(pasted_is_gzip("plain text", 10));
	/* 4 MiB of zeros in a few KiB: refused at a 1 MiB cap, never inflated whole */
	gz = gzip_zeros(4 << 20, &zlen);
	assert_int_equal(pasted_gunzip(isal(), gz, zlen, 1 << 20, &out, &n, &why), -EFBIG);
	assert_int_equal(pasted_gunzip(isal(), gz, zlen, 8 << 20, &out, &n, &why), 0);
	assert_int_equal(n, 4 << 20);
	free(out);
	free(gz);
}

/* A gzip member of text[0..n) built by hand (RFC 1952 2.3): the header with flags flg (FEXTRA,
 * FNAME, FCOMMENT, FHCRC as set), method cm, zlib's raw deflate, the trailer; appended at *at. */
static void gzip_framed(const char *text, size_t n, unsigned char flg, unsigned char cm, char *out,
			size_t cap, size_t *at)
{
	unsigned char *h = (unsigned char *)out + *at, *p = h;
	z_stream z = { 0 };
	uint32_t crc = (uint32_t)crc32(0, (const Bytef *)text, (uInt)n);

	*p++ = 0x1f, *p++ = 0x8b, *p++ = cm, *p++ = flg;
	memset(p, 0, 6);
	p[5] = 3; /* OS: Unix */
	p += 6;
	if (flg & 0x04) { /* XLEN 4, one subfield "AB" of 0 bytes */
		memcpy(p,
		       "\x04\x00"
		       "AB\x00\x00",
		       6);
		p += 6;
	}
	if (flg & 0x08)
		p = (unsigned char *)stpcpy((char *)p, "nvidia-bug-report.log") + 1;
	if (flg & 0x10)
		p = (unsigned char *)stpcpy((char *)p, "a comment") + 1;
	if (flg & 0x02) {
		uint32_t hc = (uint32_t)crc32(0, h, (uInt)(p - h));

		*p++ = (unsigned char)hc, *p++ = (unsigned char)(hc >> 8);
	}
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)n;
	z.next_out = p;
	z.avail_out = (uInt)(cap - (size_t)((char *)p - out) - 8);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	p += z.total_out;
	deflateEnd(&z);
	for (int i = 0; i < 4; i++)
		*p++ = (unsigned char)(crc >> (8 * i));
	for (int i = 0; i < 4; i++)
		*p++ = (unsigned char)(n >> (8 * i));
	*at = (size_t)((char *)p - out);
}

/* What pasted_gunzip makes of gz[0..len): 0 with the text equal to want, or the error and why. */
static int gunzip_as(const char *gz, size_t len, const char *want, const char **ret_why)
{
	char *out = NULL;
	size_t n = 0;
	int r = pasted_gunzip(isal(), gz, len, 1 << 20, &out, &n, ret_why);

	if (r >= 0) {
		assert_int_equal(n, strlen(want));
		assert_memory_equal(out, want, n);
		free(out);
	}
	return r;
}

/* The gzip framing read around ISA-L's raw inflate (pasted-gzip.c) accepts and refuses what
 * zlib's gzip mode did: every optional header field, a header CRC checked; a wrong method, a
 * reserved flag, a wrong header CRC, CRC-32 or length corrupt; a header or trailer cut short
 * truncated; members one after the other, zeros after the last. */
static void test_gzip_framing(void **state)
{
	static const char text[] = "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  525.147.05\n";
	const size_t tn = sizeof(text) - 1;
	char gz[4096], twice[2 * sizeof(text)];
	const char *why = NULL;
	size_t len = 0, one;

	(void)state;
	for (unsigned flg = 0; flg < 0x20; flg++) { /* FTEXT FHCRC FEXTRA FNAME FCOMMENT */
		len = 0;
		gzip_framed(text, tn, (unsigned char)flg, 8, gz, sizeof(gz), &len);
		assert_int_equal(gunzip_as(gz, len, text, &why), 0);
		/* cut anywhere before the end: truncated, whatever part it is in */
		for (size_t cut = 2; cut < len; cut += cut < 40 ? 1 : 17) {
			why = NULL;
			assert_int_equal(gunzip_as(gz, cut, text, &why), -EBADMSG);
			assert_string_equal(why, "the gzip file is truncated");
		}
	}
	struct {
		size_t at; /* from the end when > 1000: len - (at - 1000) */
		unsigned char flip;
	} bad[] = {
		{ 2, 0x01 },	{ 3, 0x20 },
		{ 3, 0x40 },	{ 3, 0x80 },	/* method 9, reserved flags */
		{ 1008, 0x01 }, { 1005, 0x80 }, /* CRC-32 */
		{ 1004, 0x01 }, { 1001, 0x01 }, /* ISIZE */
	};
	len = 0;
	gzip_framed(text, tn, 0, 8, gz, sizeof(gz), &len);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t at = bad[i].at > 1000 ? len - (bad[i].at - 1000) : bad[i].at;

		gz[at] ^= (char)bad[i].flip;
		why = NULL;
		assert_int_equal(gunzip_as(gz, len, text, &why), -EBADMSG);
		assert_string_equal(why, "the gzip file is corrupt");
		gz[at] ^= (char)bad[i].flip;
	}
	/* judged in zlib's order: a wrong method or flag before the header's end, a wrong CRC-32
	 * before the length, corrupt though cut short after them (found by a differential fuzz
	 * run against zlib's gzip mode) */
	gz[2] = 0;
	assert_int_equal(gunzip_as(gz, 5, text, &why), -EBADMSG);
	assert_string_equal(why, "the gzip file is corrupt");
	gz[2] = 8;
	gz[len - 8] ^= 1;
	assert_int_equal(gunzip_as(gz, len - 2, text, &why), -EBADMSG);
	assert_string_equal(why, "the gzip file is corrupt");
	gz[len - 8] ^= 1;
	assert_int_equal(gunzip_as(gz, len - 2, text, &why), -EBADMSG);
	assert_string_equal(why, "the gzip file is truncated");
	len = 0; /* a wrong header CRC */
	gzip_framed(text, tn, 0x0a, 8, gz, sizeof(gz), &len);
	gz[10 + sizeof("nvidia-bug-report.log")] ^= 1;
	assert_int_equal(gunzip_as(gz, len, text, &why), -EBADMSG);
	assert_string_equal(why, "the gzip file is corrupt");
	/* two members, the second with a name; zeros after them */
	len = 0;
	gzip_framed(text, tn, 0, 8, gz, sizeof(gz), &len);
	one = len;
	gzip_framed(text, tn, 0x08, 8, gz, sizeof(gz), &len);
	memcpy(twice, text, tn);
	memcpy(twice + tn, text, tn + 1);
	memset(gz + len, 0, 512);
	assert_int_equal(gunzip_as(gz, len + 512, twice, &why), 0);
	/* a second member of another method: corrupt, as zlib's inflateReset of it was */
	gz[one + 2] = 7;
	assert_int_equal(gunzip_as(gz, len, twice, &why), -EBADMSG);
	assert_string_equal(why, "the gzip file is corrupt");
}

/* Everything pasted_gz_read gives at cap max, a window of 2 MiB at a time; its last return. */
static int gz_read_all(const char *gz, size_t len, size_t max, size_t *ret_total,
		       const char **ret_why)
{
	static char window[2 << 20];
	struct pasted_gz g;
	size_t n = 0;
	int r = pasted_gz_init(&g, isal(), gz, len, max, ret_why);

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

/* Every window of gz (its texts joined into *ret, their lines counted into *ret_lines),
 * each split as pasted_dispatch_split splits it in line; stop_after: stop after that many;
 * drop: gz handed over, its pages given back as they are inflated (drop_input). */
static int windows_drop(const char *gz, size_t len, size_t stop_after, bool drop, char **ret,
			size_t *ret_n, unsigned *ret_lines, const char **ret_why)
{
	struct pasted_dispatch d;
	struct pasted_gz_windows w;
	struct pasted_gz_window *win = NULL;
	size_t have = 0, made = 0;
	unsigned lines = 0;
	char *buf = NULL;
	int r;

	assert_int_equal(pasted_dispatch_init(&d, pasted_readers), 0);
	r = pasted_gz_windows_start(&w, isal(), gz, len, &d, 0, NULL, drop, ret_why);
	if (r < 0) {
		pasted_dispatch_done(&d);
		return r;
	}
	while (made < stop_after && (r = pasted_gz_windows_next(&w, &win, ret_why)) >= 0 &&
	       !win->end && !win->utf16) {
		struct pasted_split in_line = { 0 };

		assert_false(win->split.done); /* begun on the maker's thread, finished here */
		assert_int_equal(pasted_dispatch_split_finish(&d, win->text, win->n, &win->split),
				 0);
		assert_int_equal(pasted_dispatch_split(&d, win->text, win->n, &in_line), 0);
		assert_int_equal(in_line.newlines, win->split.newlines);
		assert_true(in_line.seen == win->split.seen);
		for (size_t i = 0; i < d.n_readers; i++) {
			assert_int_equal(in_line.parts[i].n, win->split.parts[i].n);
			assert_memory_equal(in_line.parts[i].v, win->split.parts[i].v,
					    in_line.parts[i].n * sizeof(*in_line.parts[i].v));
		}
		pasted_split_done(&in_line);
		buf = realloc(buf, have + win->n + 1);
		assert_non_null(buf);
		memcpy(buf + have, win->text, win->n);
		have += win->n;
		lines += win->split.newlines;
		made++;
	}
	if (r >= 0 && made < stop_after) { /* after the end, the end again */
		struct pasted_gz_window *again = NULL;

		assert_int_equal(pasted_gz_windows_next(&w, &again, ret_why), 0);
		assert_ptr_equal(again, win);
	}
	pasted_gz_windows_done(&w);
	pasted_dispatch_done(&d);
	*ret = buf;
	*ret_n = have;
	*ret_lines = lines;
	return r < 0 ? r : win && win->utf16 ? 1 : 0;
}

static int windows_all(const char *gz, size_t len, size_t stop_after, char **ret, size_t *ret_n,
		       unsigned *ret_lines, const char **ret_why)
{
	return windows_drop(gz, len, stop_after, false, ret, ret_n, ret_lines, ret_why);
}

/* The windows (made on a thread of their own, a window ahead) join into the text
 * pasted_gunzip gives, over members, each split as in line, each but the last ending at a
 * line end; and the errors: a truncated member after the windows before it, text that is not
 * gzip; UTF-16 is left to be inflated whole; stopped before the end, the maker ends. */
static void test_gz_windows(void **state)
{
	const size_t text = 5 * PASTED_GZ_WINDOW + 12345;
	const char *why = NULL;
	char *plain = malloc(text), *gz = malloc(8 << 20), *dmesg, *whole = NULL, *out = NULL;
	size_t len = 0, dlen, n = 0, wn = 0, ulen = 0;
	unsigned lines = 0, want = 0;
	struct pasted_dispatch d;
	struct pasted_gz_windows w;
	static const char utf16[] = "\xFF\xFEN\0V\0R\0M\0\n\0";
	char ugz[256];

	(void)state;
	assert_non_null(plain);
	assert_non_null(gz);
	for (size_t i = 0; i < text;
	     i++) /* lines a counter makes distinct, a blank one now and then */
		plain[i] = (i % 61 == 60 || i % 4999 == 0) ? '\n'
							   : (char)('a' + (i / 61 * 7 + i) % 26);
	/* three members: text, the k8s-device-plugin#480 dmesg, text again */
	gzip_member(plain, text, gz, 8 << 20, &len);
	dmesg = slurp("dmesg-525-k8s.txt.gz", &dlen);
	memcpy(gz + len, dmesg, dlen);
	len += dlen;
	gzip_member(plain, text / 2, gz, 8 << 20, &len);
	assert_int_equal(pasted_gunzip(isal(), gz, len, PASTED_GZ_WINDOWED_MAX, &whole, &wn, &why),
			 0);
	for (size_t i = 0; i < wn; i++)
		want += whole[i] == '\n';
	assert_int_equal(windows_all(gz, len, SIZE_MAX, &out, &n, &lines, &why), 0);
	assert_int_equal(n, wn);
	assert_memory_equal(out, whole, wn);
	assert_int_equal(lines, want);
	free(out);
	{ /* handed over: the same windows, and the input's pages read given back (zeros) */
		char *handed = malloc(len), zero[4096] = { 0 };
		size_t page = 4096, first = page - (uintptr_t)handed % page;

		assert_non_null(handed);
		memcpy(handed, gz, len);
		assert_int_equal(windows_drop(handed, len, SIZE_MAX, true, &out, &n, &lines, &why),
				 0);
		assert_int_equal(n, wn);
		assert_memory_equal(out, whole, wn);
		assert_int_equal(lines, want);
		/* the first whole page, read by the end */
		assert_true(first + page <= len);
		if ((size_t)sysconf(_SC_PAGESIZE) == page)
			assert_memory_equal(handed + first, zero, page);
		free(out);
		free(handed);
	}
	/* cut short: the windows before it, then the error pasted_gz_read gives */
	assert_int_equal(windows_all(gz, len - 100, SIZE_MAX, &out, &n, &lines, &why), -EBADMSG);
	assert_string_equal(why, "the gzip file is truncated");
	assert_true(n > 0 && n < wn);
	assert_memory_equal(out, whole, n);
	free(out);
	assert_int_equal(pasted_dispatch_init(&d, pasted_readers), 0);
	assert_int_equal(
		pasted_gz_windows_start(&w, isal(), "plain text", 10, &d, 0, NULL, false, &why),
		-EBADMSG);
	assert_string_equal(why, "the input is not a gzip file");
	pasted_dispatch_done(&d);
	/* UTF-16 with its BOM: no window, left to be inflated whole */
	gzip_member(utf16, sizeof(utf16) - 1, ugz, sizeof(ugz), &ulen);
	assert_int_equal(windows_all(ugz, ulen, SIZE_MAX, &out, &n, &lines, &why), 1);
	assert_int_equal(n, 0);
	free(out);
	out = NULL; /* GCC -O3 (-Wuse-after-free) cannot tell windows_all sets it again */
	/* stopped after one window, the maker a window ahead: it ends, nothing leaks */
	assert_int_equal(windows_all(gz, len, 1, &out, &n, &lines, &why), 0);
	assert_true(n > PASTED_GZ_WINDOW && n <= 2 * PASTED_GZ_WINDOW);
	assert_memory_equal(out, whole, n);
	assert_int_equal(out[n - 1], '\n');
	free(out);
	free(whole);
	free(dmesg);
	free(plain);
	free(gz);
}

/* This test is linked with -Wl,--wrap=pthread_create (tests/meson.build): while
 * fail_thread_create is set, a thread cannot be created (EAGAIN, as when a process is at its
 * RLIMIT_NPROC), which the gzip windows' maker meets with making them in line. */
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
static bool fail_thread_create;
static unsigned thread_create_failed;

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	if (fail_thread_create) {
		thread_create_failed++;
		return EAGAIN;
	}
	return __real_pthread_create(t, a, fn, arg);
}

/* gpuenv explain --json of gz (its document, or "error N: why"), as the CLI would print it. */
static char *explain_json(const char *gz, size_t len)
{
	struct gpuenv_explain *e = NULL;
	const char *why = NULL;
	char *out = NULL;
	int r = gpuenv_explain_text(gz, len, &e, &why);

	if (r >= 0) {
		assert_int_equal(gpuenv_explain_render(e, GPUENV_FORMAT_JSON, 0, &out), 0);
	} else {
		out = malloc(256);
		assert_non_null(out);
		snprintf(out, 256, "error %d: %s", r, why ? why : "");
	}
	gpuenv_explain_free(e);
	return out;
}

/* explain of a Windows TensorFlow build's get_build_info() (the samples of test_tf_build_info):
 * cuda_version '64_116' is the suffix of its 'cudart64_116.dll', so the build is CUDA 11.6 (and
 * '64_101', cudart64_101.dll, CUDA 10.1); the Linux form is taken as written. */
static void test_tf_windows_cuda_version(void **state)
{
	static const struct {
		const char *file, *want;
	} cases[] = {
		{ "windows-tf-gpu-2.9.1-wheel.txt", "CUDA 11.6 build" },
		{ "windows-2.3-plain-dict.txt", "CUDA 10.1 build" },
		{ "conda-forge-cuda112-pretty.txt", "CUDA 11.2 build" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *text = slurp_in("pasted-tf-build-info", cases[i].file, &len);
		char *json = explain_json(text, len);

		if (!strstr(json, cases[i].want))
			fail_msg("%s: no \"%s\" in %s", cases[i].file, cases[i].want, json);
		assert_null(strstr(json, "CUDA 64_"));
		free(json);
		free(text);
	}
}

/* The driver a build's CUDA needs, as the paste's system numbers it (NVIDIA's Table 3 has a
 * Linux and a Windows column): the Windows TensorFlow wheel's get_build_info() (a "C:/…"
 * compiler path, DLL names) is answered with Windows's 511.23 for CUDA 11.6, never Linux's
 * 510.39.01 alone; a build whose system the text does not show (conda-forge's, no mark read)
 * with both, each named. */
static void test_driver_floor_by_system(void **state)
{
	static const struct {
		const char *file, *want, *never;
	} cases[] = {
		{ "windows-tf-gpu-2.9.1-wheel.txt", "needs a driver >= 511.23 (CUDA 11.6 GA",
		  "510.39.01" },
		{ "windows-2.3-plain-dict.txt", "needs a driver >= 418.96 (CUDA 10.1", "418.39" },
		{ "conda-forge-cuda112-pretty.txt",
		  "needs a driver >= 460.27.03 (Linux) / 460.82 (Windows) (CUDA 11.2.0 GA", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *text = slurp_in("pasted-tf-build-info", cases[i].file, &len);
		char *json = explain_json(text, len);

		if (!strstr(json, cases[i].want))
			fail_msg("%s: no \"%s\" in %s", cases[i].file, cases[i].want, json);
		if (cases[i].never && strstr(json, cases[i].never))
			fail_msg("%s: Linux's floor %s in %s", cases[i].file, cases[i].never, json);
		free(json);
		free(text);
	}
}

/* Where no thread can be made, the windows are made in line (pasted_gz_windows_start): the
 * same windows, splits, line counts and errors as the maker's thread gives, and the same
 * explain document, over a report of several windows (text, the k8s-device-plugin#480 dmesg,
 * text) whole and cut short. */
static void test_gz_windows_without_a_thread(void **state)
{
	const size_t text = 2 * PASTED_GZ_WINDOW + 777;
	char *plain = malloc(text), *gz = malloc(8 << 20), *dmesg;
	size_t len = 0, dlen;

	(void)state;
	assert_non_null(plain);
	assert_non_null(gz);
	for (size_t i = 0; i < text; i++)
		plain[i] = (i % 53 == 52 || i % 3001 == 0) ? '\n' : (char)('a' + (i / 53 + i) % 26);
	gzip_member(plain, text, gz, 8 << 20, &len);
	dmesg = slurp("dmesg-525-k8s.txt.gz", &dlen);
	memcpy(gz + len, dmesg, dlen);
	len += dlen;
	gzip_member(plain, text / 3, gz, 8 << 20, &len);
	for (size_t cut = 0; cut <= 100; cut += 100) { /* whole, then truncated */
		char *out[2], *json[2];
		size_t n[2];
		unsigned lines[2];
		const char *why[2] = { NULL, NULL };
		int r[2];

		for (int no_thread = 0; no_thread < 2; no_thread++) {
			fail_thread_create = no_thread;
			thread_create_failed = 0;
			r[no_thread] =
				windows_all(gz, len - cut, SIZE_MAX, &out[no_thread], &n[no_thread],
					    &lines[no_thread], &why[no_thread]);
			json[no_thread] = explain_json(gz, len - cut);
			fail_thread_create = false;
			/* the fallback was taken: by windows_all, then by explain */
			assert_int_equal(thread_create_failed, no_thread ? 2 : 0);
		}
		assert_int_equal(r[0], cut ? -EBADMSG : 0);
		assert_int_equal(r[1], r[0]);
		if (cut)
			assert_string_equal(why[1], why[0]);
		assert_int_equal(n[1], n[0]);
		assert_true(n[0] > (cut ? 0 : 2 * PASTED_GZ_WINDOW));
		assert_memory_equal(out[1], out[0], n[0]);
		assert_int_equal(lines[1], lines[0]);
		assert_string_equal(json[1], json[0]);
		assert_non_null(strstr(json[0], cut ? "truncated" : "525.147.05"));
		for (int i = 0; i < 2; i++) {
			free(out[i]);
			free(json[i]);
		}
	}
	free(dmesg);
	free(plain);
	free(gz);
}

/* What pasted_gunzip gives of gz[0..len) with ISA-L and with zlib's fallback: the same answer,
 * text and sentence. */
static void gunzip_both_agree(const char *gz, size_t len)
{
	char *out[2] = { NULL, NULL };
	const char *why[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };
	int r[2];

	for (int i = 0; i < 2; i++) {
		zlib_fallback = i == 1;
		r[i] = pasted_gunzip(isal(), gz, len, 1 << 20, &out[i], &n[i], &why[i]);
	}
	zlib_fallback = false;
	assert_int_equal(r[1], r[0]);
	if (r[0] < 0) {
		assert_string_equal(why[1], why[0]);
		return;
	}
	assert_int_equal(n[1], n[0]);
	assert_memory_equal(out[1], out[0], n[0]);
	free(out[0]);
	free(out[1]);
}

/* The fallback of a machine without libisal2 reads the readers' gzip samples as ISA-L does,
 * whole, cut at every 97th byte, and with a byte of the deflate data or trailer changed. */
static void test_gzip_zlib_fallback_agrees(void **state)
{
	static const char *const names[] = { "dmesg-525-k8s.txt.gz", "dmesg-525-k8s-truncated.gz",
					     "dmesg-525-k8s-header-fields.gz",
					     "nvidia-bug-report-titanx-352.63.log.gz" };
	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len;
		char *gz = slurp(names[i], &len);

		gunzip_both_agree(gz, len);
		for (size_t cut = 1; cut < len; cut += 97)
			gunzip_both_agree(gz, cut);
		for (size_t at = 10; at < len; at += 131) {
			gz[at] ^= 0x5a;
			gunzip_both_agree(gz, len);
			gz[at] ^= 0x5a;
		}
		free(gz);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ldd, teardown),
		cmocka_unit_test_teardown(test_docker_info, teardown),
		cmocka_unit_test_teardown(test_docker_context, teardown),
		cmocka_unit_test_teardown(test_torch_arch, teardown),
		cmocka_unit_test_teardown(test_tf_build_info, teardown),
		cmocka_unit_test(test_tf_windows_cuda_version),
		cmocka_unit_test(test_driver_floor_by_system),
		cmocka_unit_test_teardown(test_gzip, teardown),
		cmocka_unit_test(test_gzip_framing),
		cmocka_unit_test(test_gzip_windowed_cap),
		cmocka_unit_test(test_gz_windows),
		cmocka_unit_test(test_gz_windows_without_a_thread),
		/* the same, inflated by zlib where libisal cannot be loaded */
		cmocka_unit_test_setup_teardown(test_gzip, with_zlib, teardown),
		cmocka_unit_test_setup_teardown(test_gzip_framing, with_zlib, teardown),
		cmocka_unit_test_setup_teardown(test_gzip_windowed_cap, with_zlib, teardown),
		cmocka_unit_test_setup_teardown(test_gz_windows, with_zlib, teardown),
		cmocka_unit_test(test_gzip_zlib_fallback_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
