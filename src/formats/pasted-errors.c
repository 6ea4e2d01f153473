/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The "errors" reader of pasted text (pasted.h): error messages and codes, each a symptom
 * fact "symptoms.<rule id>" (the line that shows it; explain's rules say the rule's symptom
 * was seen) and, where the message carries a value, the snapshot fact it reads
 * (docs/snapshot-schema.md). Values are the text as read; where a number is written in a
 * documented encoding it is written as the schema's (cudaDriverGetVersion's 1000 * major +
 * 10 * minor as "major.minor", "sm_86" as "8.6"), never looked up in the knowledge base.
 * Messages, as their writers print them:
 * - CUDA runtime / driver API error names and numbers (cudaError_t, CUresult: CUDA Runtime
 *   and Driver API reference, "Data types"); a bare number counts only next to "CUDA" and in
 *   an error context ("error 209", "(209)", "code=209").
 * - PyTorch torch/cuda/__init__.py: _check_driver "The NVIDIA driver on your system is too
 *   old (found version %d)"; the capability warning "<name> with CUDA capability sm_XY is not
 *   compatible with the current PyTorch installation.\nThe current PyTorch install supports
 *   CUDA capabilities sm_37 sm_50 …".
 * - TensorFlow stream_executor/cuda/cuda_dnn.cc "Loaded runtime CuDNN library: X but source
 *   was compiled with: Y."; dso_loader.cc "Could not load dynamic library 'libcudart.so.11.0'".
 * - cuDNN 8, whose libcudnn.so dlopen()s its split libraries on first use (cuDNN 8 API
 *   reference, "Overview"): "Could not load library libcudnn_cnn_infer.so.8. Error: <dlerror>".
 * - moby daemon: "could not select device driver \"\" with capabilities: [[gpu]]".
 * - nvidia-smi: "Failed to initialize NVML: <nvmlErrorString()>"; pynvml's exception names
 *   (pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded), as symptoms only: any NVML call
 *   may raise them, not only nvmlInit.
 * - the kernel log's Xid and API mismatch lines, read by kernel-log.c.
 * - kmod: "modprobe: ERROR: could not insert 'nvidia': Required key not available" (ENOKEY)
 *   or "Key was rejected by service" (EKEYREJECTED): module signature checks.
 * - XLA's (and TensorFlow's) CUDA diagnostics after a failed cuInit
 *   (xla/stream_executor/cuda/cuda_diagnostics.cc): "libcuda reported version is: X" (the
 *   version in the file name of the libcuda.so the process loaded), "kernel reported version
 *   is: Y" (/proc/driver/nvidia/version's), and "kernel version Y does not match DSO version X
 *   -- cannot find working devices in this configuration". Each side is printed as three
 *   numbers without the driver's zero padding ("470.182.3" for 470.182.03), or as the error
 *   that kept it from being read (then nothing is read from it).
 * - ld.so's "<library>: undefined symbol: __nvJitLinkComplete_12_4, version
 *   libnvJitLink.so.12" (glibc elf/dl-lookup.c; pytorch/pytorch#144244): a CUDA library
 *   needs an nvJitLink entry point whose name carries the CUDA release it was built with
 *   (nvJitLink.h), which the libnvJitLink it got does not define; and the same line for
 *   another CUDA library's versioned name ("undefined symbol: cublasSetEnvironmentMode,
 *   version libcublas.so.12", int-brain-lab/ibl-sorter#41): a sibling's copy lacks it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-errors-kernel.h"
#include "formats/pasted-errors-symptom.h"
#include "formats/pasted-errors.h"
#include "formats/pasted-scan.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define READER	       "errors"
#define SYMPTOM_MAX    240   /* bytes of the line kept as a symptom's value */
#define WRAP_LINES_MAX 4u    /* continuation lines of one kernel message read joined */
#define WRAP_BYTES_MAX 1024u /* and the bytes of the joined message */

/* Case-sensitive, as the programs print them: the rows of pasted-errors-symptoms.inc, as
 * offsets into symptom_text[] (pasted-errors-symptom.h; the table is generated from the .inc
 * at build time). Every rule id here is checked against the rule table by
 * tests/unit/test-pasted-errors.c. */
#include "pasted-errors-symptoms-table.h"

/* A row's string at off, NULL for none. */
static const char *symptom_str(uint16_t off)
{
	return off ? symptom_text + off : NULL;
}

/* CUDA error names and numbers: runtime (cudaError_t) and driver (CUresult) spell the same
 * number, the messages are cudaGetErrorString()'s. The symptom comes from the message row
 * above when it is printed too; a name or a number alone still names it. */
struct cuda_error {
	int code;
	const char *runtime, *driver;
	const char *rules[ERRORS_MAX_IDS];
	bool init;   /* cuInit answers it: driver.cuda.init reads "<NAME> (<code>)" */
	bool unsure; /* the rules are candidates the text alone cannot choose between */
};

static const struct cuda_error cuda_errors[] = {
	{ 34, "cudaErrorStubLibrary", "CUDA_ERROR_STUB_LIBRARY", { "runtime.stub-libcuda" }, true },
	{ 35,
	  "cudaErrorInsufficientDriver",
	  NULL,
	  { "runtime.toolkit-needs-newer-driver", "framework.cuda-newer-than-driver" } },
	/* no GPU on the bus, or a CUDA_VISIBLE_DEVICES that leaves none (TensorFlow's "failed
	 * call to cuInit: CUDA_ERROR_NO_DEVICE" is what CUDA_VISIBLE_DEVICES=-1 prints), or a
	 * MIG device CUDA cannot match: as "No CUDA GPUs are available", which torch derives
	 * from it; under WSL2, a Linux driver's libcuda, which finds no /dev/nvidia* (the
	 * Windows driver's is the one that reaches the GPU: numba/numba#9032) */
	{ 100,
	  "cudaErrorNoDevice",
	  "CUDA_ERROR_NO_DEVICE",
	  { "hardware.no-gpu", "runtime.mig-device-selection", "runtime.visible-devices-none",
	    "driver.wsl-linux-driver-installed" },
	  true,
	  true },
	{ 209,
	  "cudaErrorNoKernelImageForDevice",
	  "CUDA_ERROR_NO_BINARY_FOR_GPU",
	  { "framework.no-kernel-image" } },
	{ 214,
	  "cudaErrorECCUncorrectable",
	  "CUDA_ERROR_ECC_UNCORRECTABLE",
	  { "hardware.ecc-uncorrectable", "driver.xid-errors" } },
	/* a PTX JIT compilation failed: PTX from a toolkit newer than the driver (before CUDA
	 * 11.1 added 222 drivers answered it so: Rust-GPU/rust-cuda#34, CUDA 11.4 PTX on a
	 * Jetson Nano's JetPack driver) or PTX the JIT rejects (huggingface/candle#3210): the
	 * text cannot tell which; runtime.kernel-launch-failed's symptom quotes it */
	{ 218,
	  "cudaErrorInvalidPtx",
	  "CUDA_ERROR_INVALID_PTX",
	  { "framework.ptx-too-new-for-driver", "runtime.kernel-launch-failed" },
	  false,
	  true },
	/* libnvidia-ptxjitcompiler.so.1 could not be loaded: not installed with libcuda
	 * (anduril/jetpack-nixos#184: l4t-cuda without l4t-3d-core) or not loadable where it is
	 * (jax-ml/jax#9644). Only `gpuenv doctor --launch` judges it (runtime.kernel-launch-failed,
	 * whose symptom quotes it): unsure, so explain asks rather than names a rule it cannot
	 * run. */
	{ 221,
	  "cudaErrorJitCompilerNotFound",
	  "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
	  { "runtime.kernel-launch-failed" },
	  false,
	  true },
	{ 222,
	  "cudaErrorUnsupportedPtxVersion",
	  "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	  { "framework.ptx-too-new-for-driver" } },
	{ 802,
	  "cudaErrorSystemNotReady",
	  "CUDA_ERROR_SYSTEM_NOT_READY",
	  { "driver.system-not-ready" },
	  true },
	/* the driver's libcuda not yet matched by its module, or a cuda-compat libcuda: unsure, as
	 * its message row in pasted-errors-symptoms.inc says */
	{ 803,
	  "cudaErrorSystemDriverMismatch",
	  "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
	  { "driver.nvml-version-mismatch", "runtime.cuda-compat-unsupported" },
	  true,
	  true },
	{ 804,
	  "cudaErrorCompatNotSupportedOnDevice",
	  "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
	  { "runtime.cuda-compat-unsupported" },
	  true },
	{ 999, "cudaErrorUnknown", "CUDA_ERROR_UNKNOWN", { "driver.device-nodes-missing" } },
};

/* nvmlErrorString() texts after "Failed to initialize NVML: " (nvml.h nvmlReturn_t). */
static const struct {
	const char *text, *name;
} nvml_errors[] = {
	{ "Driver/library version mismatch", "NVML_ERROR_LIB_RM_VERSION_MISMATCH" },
	{ "Insufficient Permissions", "NVML_ERROR_NO_PERMISSION" },
	{ "GPU access blocked by the operating system", "NVML_ERROR_GPU_IS_LOST" },
	{ "Unknown Error", "NVML_ERROR_UNKNOWN" },
	{ "Driver Not Loaded", "NVML_ERROR_DRIVER_NOT_LOADED" },
};

struct line {
	const char *p;
	size_t n;
	unsigned no;
};

/* The signs that are not a symptom's needle (pasted_errors_signs: after the symptoms'), and
 * after them the words read_line's readers key on: the one scan of a line finds them all
 * (pasted_scan_mark), and a reader runs only on a line that holds the word without which it
 * reads nothing, rather than each searching every line for its own. */
enum {
	MARK_TOO_OLD,	  /* read_driver_too_old */
	MARK_NVML_INIT,	  /* read_nvml_init */
	MARK_NVRM,	  /* the kernel log's lines, read_wrapped */
	MARK_CUDA,	  /* read_cuda_errors: every name holds it, a code counts only with it */
	MARK_XLA_LIBCUDA, /* read_xla_versions */
	MARK_XLA_KERNEL,
	MARK_XLA_MISMATCH,
	MARKS,			   /* the signs end here */
	LOOK_RUNTIME_NAME = MARKS, /* the runtime's error names all start so */
	LOOK_DRIVER_NAME,	   /* the driver's */
	LOOK_ERROR,		   /* the contexts of a bare code (line_codes) */
	LOOK_CODE,
	LOOK_CAPABILITY, /* read_torch_capability */
	LOOK_ARCH_LIST,	 /* read_torch_arch_list */
	LOOK_TF_CUDNN,	 /* read_tf_cudnn */
	LOOK_JAX_CHECK,	 /* read_jax_version_check */
	LOOK_NVJITLINK,	 /* read_nvjitlink_symbol */
	LOOK_LIB_SYMBOL, /* read_library_symbol */
	LOOKS,
};
static const struct pasted_needle marks[LOOKS] = {
	[MARK_TOO_OLD] = { "driver on your system is too old", false },
	[MARK_NVML_INIT] = { "Failed to initialize NVML: ", false },
	[MARK_NVRM] = { "NVRM: ", false },
	[MARK_CUDA] = { "cuda", true },
	[MARK_XLA_LIBCUDA] = { "libcuda reported version is: ", false },
	[MARK_XLA_KERNEL] = { "kernel reported version is: ", false },
	[MARK_XLA_MISMATCH] = { " does not match DSO version ", false },
	[LOOK_RUNTIME_NAME] = { "cudaError", false },
	[LOOK_DRIVER_NAME] = { "CUDA_ERROR_", false },
	[LOOK_ERROR] = { "error", true },
	[LOOK_CODE] = { "code", true },
	[LOOK_CAPABILITY] = { " with CUDA capability sm_", false },
	[LOOK_ARCH_LIST] = { "PyTorch install supports CUDA capabilities ", false },
	[LOOK_TF_CUDNN] = { "Loaded runtime CuDNN library: ", false },
	[LOOK_JAX_CHECK] = { ", but JAX was built against version ", false },
	[LOOK_NVJITLINK] = { "undefined symbol: __nvJitLink", false },
	[LOOK_LIB_SYMBOL] = { ", version libcu", false },
};

/* The line scan holds every symptom's needle and every word of marks[]: a row or a word more
 * than one scan holds fails the build here, not every paste at run time. */
_Static_assert(ARRAY_SIZE(symptoms) + LOOKS <= PASTED_SCAN_MAX,
	       "the symptoms of pasted-errors-symptoms.inc and marks[] pass PASTED_SCAN_MAX "
	       "(pasted-scan.h): one line scan cannot hold them");

/* Which of the symptoms' needles, then of marks[], the line holds (the line scan's answer). */
static bool holds(const bool *found, size_t mark)
{
	return found[ARRAY_SIZE(symptoms) + mark];
}

/* The first k bytes `needle` in p[0..n), or NULL: memmem's answer, found with memchr on the
 * needle's first byte and memcmp there; on a line of a log that is cheaper than memmem's
 * set-up for a long needle, which explain paid for every needle on every line. */
static const char *find_in(const char *p, size_t n, const char *needle, size_t k)
{
	const char *end = p + n;

	while ((size_t)(end - p) >= k && (p = memchr(p, needle[0], (size_t)(end - p) - k + 1))) {
		if (memcmp(p, needle, k) == 0)
			return p;
		p++;
	}
	return NULL;
}

static const char *find(const struct line *l, const char *needle)
{
	return find_in(l->p, l->n, needle, strlen(needle));
}

/* The line, trimmed and cut at SYMPTOM_MAX on a UTF-8 boundary. */
static void line_text(const struct line *l, char *buf, size_t len)
{
	const char *s = l->p, *e = l->p + l->n;
	size_t n;

	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	n = (size_t)(e - s);
	if (n >= len)
		n = len - 1;
	while (n > 0 && n < (size_t)(e - s) && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

static int add_symptoms(struct pasted_facts *out, const char *const *rules, bool unsure,
			const struct line *l)
{
	char text[SYMPTOM_MAX + 1], path[128];
	int n = 0;

	line_text(l, text, sizeof(text));
	for (size_t i = 0; i < ERRORS_MAX_IDS && rules[i]; i++) {
		int r;

		/* "symptoms.[unsure.]<rule id>", cut as snprintf would cut it */
		const char *pre = unsure ? "symptoms.unsure." : "symptoms.";
		size_t a = strlen(pre), b = strlen(rules[i]);

		if (a + b >= sizeof(path))
			b = sizeof(path) - 1 - a;
		memcpy(path, pre, a);
		memcpy(path + a, rules[i], b);
		path[a + b] = '\0';
		r = pasted_facts_add(out, READER, path, text, l->no);
		if (r < 0)
			return r;
		n++;
	}
	return n;
}

/* A decimal number at p (up to end), or -1. */
static long number_at(const char *p, const char *end, const char **ret_end)
{
	long v = 0;
	const char *s = p;

	while (s < end && isdigit((unsigned char)*s) && v < 100000000)
		v = v * 10 + (*s++ - '0');
	if (s == p)
		return -1;
	if (ret_end)
		*ret_end = s;
	return v;
}

/* Is the decimal number at p (n digits, the whole run of them) written in an error context:
 * after one of these words? */
static bool in_error_context(const struct line *l, const char *p)
{
	static const char *const before[] = { "error ", "error: ", "error code ", "error code: ",
					      "code=",	"code: ",  "error=",	  "(" };

	/* each of them ends with one of these: a number after anything else (a version's
	 * "12.1.105", most numbers of a log) is not compared with each */
	if (p == l->p || (p[-1] != ' ' && p[-1] != '=' && p[-1] != '('))
		return false;
	for (size_t b = 0; b < ARRAY_SIZE(before); b++) {
		size_t bl = strlen(before[b]);

		if ((size_t)(p - l->p) >= bl && strncasecmp(p - bl, before[b], bl) == 0)
			return true;
	}
	return false;
}

/* The numbers below CODE_BITS written in an error context on the line, a bit each: one walk
 * over its runs of digits for every code of cuda_errors[] at once. A run is a number as the
 * code is printed: no digit on either side, no leading zero. */
#define CODE_BITS 1024u
struct codes {
	bool read; /* the bits are filled in (on first use) */
	uint64_t bits[CODE_BITS / 64];
};

static void line_codes(const struct line *l, struct codes *c)
{
	const char *p = l->p, *end = l->p + l->n;

	memset(c->bits, 0, sizeof(c->bits));
	c->read = true;
	while (p < end) {
		const char *s;
		unsigned v = 0;

		while (p < end && !isdigit((unsigned char)*p))
			p++;
		for (s = p; p < end && isdigit((unsigned char)*p); p++)
			if (v < CODE_BITS)
				v = v * 10 + (unsigned)(*p - '0');
		if (p == s || v >= CODE_BITS || (*s == '0' && p - s > 1))
			continue;
		if (in_error_context(l, s))
			c->bits[v / 64] |= (uint64_t)1 << (v % 64);
	}
}

/* Is the number `code` written in an error context on the line (one that names CUDA)? */
static bool line_has_code(const struct line *l, int code, struct codes *c)
{
	char num[16];
	size_t k = sizeof(num);

	if (code >= 0 && (unsigned)code < CODE_BITS) {
		if (!c->read)
			line_codes(l, c);
		return c->bits[code / 64] & ((uint64_t)1 << (code % 64));
	}
	/* a code past the bits: its digits searched for, right to left (snprintf's cost) */
	for (unsigned v = (unsigned)code; k == sizeof(num) || v; v /= 10)
		num[--k] = (char)('0' + v % 10);
	memmove(num, num + k, sizeof(num) - k);
	k = sizeof(num) - k;
	for (const char *p = l->p; (p = find_in(p, (size_t)(l->p + l->n - p), num, k)); p += k) {
		const char *after = p + k;

		if (after < l->p + l->n && isdigit((unsigned char)*after))
			continue;
		if (p > l->p && isdigit((unsigned char)p[-1]))
			continue;
		if (in_error_context(l, p))
			return true;
	}
	return false;
}

static int read_cuda_errors(const struct line *l, const bool *found, struct pasted_facts *out)
{
	struct codes c = { .read = false };
	int n = 0, r;

	/* every name holds "cuda" or "CUDA", and a bare code counts only on a line naming CUDA */
	if (!holds(found, MARK_CUDA))
		return 0;
	/* the runtime's names all start "cudaError", the driver's "CUDA_ERROR_" */
	bool names = holds(found, LOOK_RUNTIME_NAME) || holds(found, LOOK_DRIVER_NAME);
	/* every context line_has_code takes holds "(", "error" or "code": most lines that name
	 * CUDA (a pip list row, a path) have none, and the search for each code is skipped */
	bool codes = holds(found, LOOK_ERROR) || holds(found, LOOK_CODE) || memchr(l->p, '(', l->n);

	if (!names && !codes)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(cuda_errors); i++) {
		const struct cuda_error *e = &cuda_errors[i];
		bool named = names && (find(l, e->runtime) || (e->driver && find(l, e->driver)));

		if (!named && !(codes && line_has_code(l, e->code, &c)))
			continue;
		r = add_symptoms(out, e->rules, e->unsure, l);
		if (r < 0)
			return r;
		n += r;
		if (e->init && e->driver && find(l, e->driver)) {
			char buf[96];

			/* the failed call's answer, as the cuda probe writes it */
			snprintf(buf, sizeof(buf), "%s (%d)", e->driver, e->code);
			r = pasted_facts_add_error(out, READER, "driver.cuda.init", buf, l->no);
			if (r < 0)
				return r;
			n++;
		}
	}
	return n;
}

/* "found version 11040": cudaDriverGetVersion's 1000 * major + 10 * minor. */
static int read_driver_too_old(const struct line *l, struct pasted_facts *out)
{
	const char *p = find(l, "(found version ");
	long v;

	if (!p || !find(l, "driver on your system is too old"))
		return 0;
	v = number_at(p + strlen("(found version "), l->p + l->n, NULL);
	if (v < 1000)
		return 0;
	return pasted_facts_addf(out, READER, "driver.cuda.driver_version", l->no, "%ld.%ld",
				 v / 1000, v % 1000 / 10) < 0
		       ? -ENOMEM
		       : 1;
}

/* "sm_86" → "8.6", "sm_120" → "12.0": the last digit is the minor (nvcc's -arch naming). */
static bool sm_to_cc(const char *p, const char *end, char *buf, size_t len)
{
	const char *e;
	long v = number_at(p, end, &e);

	if (v < 10 || v > 999)
		return false;
	snprintf(buf, len, "%ld.%ld", v / 10, v % 10);
	return true;
}

/* "<name> with CUDA capability sm_86 is not compatible with the current PyTorch
 * installation." */
static int read_torch_capability(const struct line *l, struct pasted_facts *out)
{
	static const char mark[] = " with CUDA capability sm_";
	const char *p = find(l, mark), *name;
	char cc[16], buf[256];
	size_t n;
	int r;

	if (!p || !find(l, "is not compatible with the current PyTorch installation"))
		return 0;
	if (!sm_to_cc(p + strlen(mark), l->p + l->n, cc, sizeof(cc)))
		return 0;
	r = pasted_facts_add(out, READER, "driver.cuda.devices.0.compute_capability", cc, l->no);
	if (r < 0)
		return r;
	/* the name starts the line (after "UserWarning: " when the warning is on one line) */
	name = l->p;
	for (const char *w = l->p; (w = memmem(w, (size_t)(p - w), "Warning: ", 9)); w += 9)
		name = w + 9;
	while (name < p && isspace((unsigned char)*name))
		name++;
	n = (size_t)(p - name);
	if (n == 0 || n >= sizeof(buf))
		return 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
	r = pasted_facts_add(out, READER, "driver.cuda.devices.0.name", buf, l->no);
	return r < 0 ? r : 2;
}

/* "The current PyTorch install supports CUDA capabilities sm_37 sm_50 … compute_37." */
static int read_torch_arch_list(const struct line *l, struct pasted_facts *out)
{
	static const char mark[] = "PyTorch install supports CUDA capabilities ";
	const char *p = find(l, mark), *end = l->p + l->n;
	char path[128], tok[32];
	unsigned i = 0;
	int r;

	if (!p)
		return 0;
	for (p += strlen(mark); p < end;) {
		size_t n;

		while (p < end && (*p == ' ' || *p == ','))
			p++;
		n = 0;
		while (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_'))
			n++;
		if (n == 0 || n >= sizeof(tok))
			break;
		memcpy(tok, p, n);
		tok[n] = '\0';
		p += n;
		if (strncmp(tok, "sm_", 3) != 0 && strncmp(tok, "compute_", 8) != 0)
			break;
		snprintf(path, sizeof(path),
			 "framework.python_envs.0.packages.torch.arch_targets.%u.target", i++);
		r = pasted_facts_add(out, READER, path, tok, l->no);
		if (r < 0)
			return r;
	}
	return (int)i;
}

/* "Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0." */
static int read_tf_cudnn(const struct line *l, struct pasted_facts *out)
{
	static const char a[] = "Loaded runtime CuDNN library: ", b[] = "source was compiled with";
	const char *p = find(l, a), *q = find(l, b), *end = l->p + l->n;
	char v[2][32];
	const char *at[2];
	int r;

	if (!p || !q)
		return 0;
	at[0] = p + strlen(a);
	at[1] = q + strlen(b);
	if (at[1] < end && *at[1] == ':')
		at[1]++;
	for (int k = 0; k < 2; k++) {
		size_t n = 0;

		while (at[k] < end && *at[k] == ' ')
			at[k]++;
		while (at[k] + n < end && (isdigit((unsigned char)at[k][n]) || at[k][n] == '.'))
			n++;
		while (n > 0 && at[k][n - 1] == '.')
			n--;
		if (n == 0 || n >= sizeof(v[k]))
			return 0;
		memcpy(v[k], at[k], n);
		v[k][n] = '\0';
	}
	r = pasted_facts_add(out, READER,
			     "framework.python_envs.0.packages.tensorflow.cudnn.version", v[0],
			     l->no);
	if (r >= 0)
		r = pasted_facts_add(out, READER,
				     "framework.python_envs.0.packages.tensorflow.build_info."
				     "cudnn_version",
				     v[1], l->no);
	return r < 0 ? r : 2;
}

/* The decimal number at p (up to end), as an unsigned below 10^7; its length, 0 for none. */
static size_t jax_number(const char *p, const char *end, unsigned *ret)
{
	size_t n = 0;
	unsigned v = 0;

	while (p + n < end && isdigit((unsigned char)p[n]) && n < 7)
		v = v * 10 + (unsigned)(p[n++] - '0');
	if (n == 0 || (p + n < end && isdigit((unsigned char)p[n])))
		return 0;
	*ret = v;
	return n;
}

/* A version JAX prints as the library's own number, written major.minor(.patch): the CUDA
 * runtime's cudaRuntimeGetVersion() is 1000 * major + 10 * minor (12010: 12.1); cuDNN's
 * cudnnGetVersion() is CUDNN_VERSION, 1000 * major + 100 * minor + patch before cuDNN 9
 * (8906: 8.9.6) and 10000 * major + 100 * minor + patch from 9 on (90100: 9.1.0; cuDNN's
 * cudnn_version.h). */
void pasted_jax_version_text(bool cudnn, unsigned v, char *buf, size_t len)
{
	if (!cudnn)
		snprintf(buf, len, "%u.%u", v / 1000, v % 1000 / 10);
	else if (v >= 90000)
		snprintf(buf, len, "%u.%u.%u", v / 10000, v % 10000 / 100, v % 100);
	else
		snprintf(buf, len, "%u.%u.%u", v / 1000, v % 1000 / 100, v % 100);
}

/* JAX's check of the CUDA libraries at backend start (jax/_src/xla_bridge.py and, from 0.4.26,
 * jax_plugins/xla_cuda12/__init__.py, _version_check, until "Outdated … installation found"
 * replaced the wording): "Found {name} version {version}, but JAX was built against version
 * {build_version}, which is newer." Of the names, CUDA (the runtime, cudaRuntimeGetVersion) and
 * cuDNN are read: "Found CUDA version 12010, but JAX was built against version 12020"
 * (jax-ml/jax#18027), "Found cuDNN version 8600, but JAX was built against version 8906"
 * (MIT-REALM/gcbfplus#1). cuBLAS, cuSOLVER, cuSPARSE, cuFFT and cuPTI are left: no rule judges
 * them. */
static int read_jax_version_check(const struct line *l, struct pasted_facts *out)
{
	static const char found[] = "Found ", mid[] = " version ";
	const char *end = l->p + l->n, *at = find(l, marks[LOOK_JAX_CHECK].s), *p, *name;
	unsigned v[2];
	char text[2][32], path[2][96];
	bool cudnn;
	size_t n;
	int r;

	if (!at)
		return 0;
	/* "Found <name> version <number>" ends where the mark starts */
	p = at;
	n = 0;
	while (p > l->p && isdigit((unsigned char)p[-1]) && n < 8) {
		p--;
		n++;
	}
	if (n == 0 || jax_number(p, at, &v[0]) != n)
		return 0;
	if ((size_t)(p - l->p) < strlen(mid) || memcmp(p - strlen(mid), mid, strlen(mid)) != 0)
		return 0;
	name = p - strlen(mid);
	if ((size_t)(name - l->p) >= strlen(found) + 4 && memcmp(name - 4, "CUDA", 4) == 0 &&
	    memcmp(name - 4 - strlen(found), found, strlen(found)) == 0)
		cudnn = false;
	else if ((size_t)(name - l->p) >= strlen(found) + 5 && memcmp(name - 5, "cuDNN", 5) == 0 &&
		 memcmp(name - 5 - strlen(found), found, strlen(found)) == 0)
		cudnn = true;
	else
		return 0;
	p = at + strlen(marks[LOOK_JAX_CHECK].s);
	if (!jax_number(p, end, &v[1]))
		return 0;
	for (int k = 0; k < 2; k++)
		pasted_jax_version_text(cudnn, v[k], text[k], sizeof(text[k]));
	snprintf(path[0], sizeof(path[0]), "framework.python_envs.0.packages.jax.%s",
		 cudnn ? "cudnn.version" : "cudart.version");
	snprintf(path[1], sizeof(path[1]), "framework.python_envs.0.packages.jax.build_info.%s",
		 cudnn ? "cudnn_version" : "cuda_version");
	r = pasted_facts_add(out, READER, path[0], text[0], l->no);
	if (r >= 0)
		r = pasted_facts_add(out, READER, path[1], text[1], l->no);
	return r < 0 ? r : 2;
}

/* The text from p up to the first of the stop bytes (or end), trimmed, into buf: its
 * length, 0 when empty or too long. */
static size_t token_at(const char *p, const char *end, const char *stop, char *buf, size_t len)
{
	size_t n = 0;

	while (p < end && *p == ' ')
		p++;
	while (p + n < end && !strchr(stop, p[n]))
		n++;
	while (n > 0 && p[n - 1] == ' ')
		n--;
	if (n == 0 || n >= len)
		return 0;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

/* "<library>: undefined symbol: <name>, version <node>" into ns.symbol, ns.version and
 * ns.library (the path before ": undefined symbol", after an exception's "Error: "), and
 * with release, ns.release: the CUDA release an nvJitLink name carries ("_12_4" as 12.4). */
static int read_undefined_symbol(const struct line *l, struct pasted_facts *out, const char *ns,
				 bool release)
{
	static const char mark[] = "undefined symbol: ", ver[] = ", version ";
	const char *p = find(l, mark), *end = l->p + l->n, *v, *lib;
	char sym[128], rel[32], version[128], path[512], key[64];
	unsigned ma, mi;
	int n = 0, r;

	if (!p || !token_at(p + strlen(mark), end, ", ", sym, sizeof(sym)))
		return 0;
	snprintf(key, sizeof(key), "%s.symbol", ns);
	r = pasted_facts_add(out, READER, key, sym, l->no);
	if (r < 0)
		return r;
	n++;
	v = strrchr(sym, '_');
	if (release && v && v > sym && sscanf(v, "_%u", &mi) == 1) {
		const char *m = v - 1;

		while (m > sym && *m != '_')
			m--;
		if (*m == '_' && sscanf(m, "_%u_%u", &ma, &mi) == 2) {
			snprintf(rel, sizeof(rel), "%u.%u", ma, mi);
			snprintf(key, sizeof(key), "%s.release", ns);
			r = pasted_facts_add(out, READER, key, rel, l->no);
			if (r < 0)
				return r;
			n++;
		}
	}
	v = find(l, ver);
	if (v && v > p && token_at(v + strlen(ver), end, " ,", version, sizeof(version))) {
		snprintf(key, sizeof(key), "%s.version", ns);
		r = pasted_facts_add(out, READER, key, version, l->no);
		if (r < 0)
			return r;
		n++;
	}
	/* the library: from the last "Error: " (or the line's start) to ": undefined symbol" */
	lib = l->p;
	for (const char *e = l->p; (e = find_in(e, (size_t)(p - e), "Error: ", 7)); e += 7)
		lib = e + 7;
	if (p - lib >= 2 && memcmp(p - 2, ": ", 2) == 0 &&
	    token_at(lib, p - 2, "", path, sizeof(path)) && path[0] == '/') {
		snprintf(key, sizeof(key), "%s.library", ns);
		r = pasted_facts_add(out, READER, key, path, l->no);
		if (r < 0)
			return r;
		n++;
	}
	return n;
}

/* "<library>: undefined symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12". */
static int read_nvjitlink_symbol(const struct line *l, struct pasted_facts *out)
{
	return read_undefined_symbol(l, out, "messages.nvjitlink", true);
}

/* "<library>: undefined symbol: cublasSetEnvironmentMode, version libcublas.so.12": a CUDA
 * library's name a sibling's copy lacks (int-brain-lab/ibl-sorter#41); nvJitLink's are
 * read_nvjitlink_symbol's. */
static int read_library_symbol(const struct line *l, struct pasted_facts *out)
{
	if (find(l, "undefined symbol: __nvJitLink"))
		return 0;
	return read_undefined_symbol(l, out, "messages.library_symbol", false);
}

/* A driver version as XLA prints one at p (up to end): digits and dots, two dots at least
 * ("535.104.5", "352.63.0"), then the end of the line or a blank; its length, 0 for none (an
 * error status in its place: "NOT_FOUND: was unable to find libcuda.so DSO …"). */
static size_t xla_version(const char *p, const char *end)
{
	size_t n = 0, dots = 0;

	while (p + n < end && (isdigit((unsigned char)p[n]) || p[n] == '.')) {
		dots += p[n] == '.';
		n++;
	}
	if (n == 0 || dots < 2 || !isdigit((unsigned char)p[0]) || p[n - 1] == '.' ||
	    (p + n < end && !isspace((unsigned char)p[n])))
		return 0;
	return n;
}

/* XLA's CUDA diagnostics: the libcuda the process loaded and the loaded kernel module, each
 * read as the fact the probe writes (driver.userspace.libcuda.version; the module's version
 * file, driver.nvidia.proc_version and module_version, as the nvidia-version reader reads it).
 * The "does not match" line gives both; where both are versions and differ (XLA compares them
 * as three numbers), it is driver.nvml-version-mismatch's symptom. */
static int read_xla_versions(const struct line *l, const bool *found, struct pasted_facts *out)
{
	static const char *const mismatch_rules[ERRORS_MAX_IDS] = {
		"driver.nvml-version-mismatch"
	};
	static const char kernel_mark[] = "kernel version ";
	const char *end = l->p + l->n, *p, *kernel = NULL, *dso = NULL;
	size_t kn = 0, dn = 0;
	char kv[32], dv[32];
	int n = 0, r;

	if (holds(found, MARK_XLA_LIBCUDA) && (p = find(l, marks[MARK_XLA_LIBCUDA].s))) {
		dso = p + strlen(marks[MARK_XLA_LIBCUDA].s);
		dn = xla_version(dso, end);
	}
	if (holds(found, MARK_XLA_KERNEL) && (p = find(l, marks[MARK_XLA_KERNEL].s))) {
		kernel = p + strlen(marks[MARK_XLA_KERNEL].s);
		kn = xla_version(kernel, end);
	}
	if (holds(found, MARK_XLA_MISMATCH) && (p = find(l, marks[MARK_XLA_MISMATCH].s))) {
		const char *k = find_in(l->p, (size_t)(p - l->p), kernel_mark, strlen(kernel_mark));

		dso = p + strlen(marks[MARK_XLA_MISMATCH].s);
		dn = xla_version(dso, end);
		kernel = k ? k + strlen(kernel_mark) : NULL;
		/* the kernel's version is all that stands between the two phrases */
		kn = kernel ? xla_version(kernel, p) : 0;
		if (kn && kernel + kn != p)
			kn = 0;
	}
	if (kn && kn < sizeof(kv)) {
		memcpy(kv, kernel, kn);
		kv[kn] = '\0';
		if (pasted_facts_add(out, READER, "driver.nvidia.proc_version", kv, l->no) < 0 ||
		    pasted_facts_add(out, READER, "driver.nvidia.module_version", kv, l->no) < 0)
			return -ENOMEM;
		n += 2;
	}
	if (dn && dn < sizeof(dv)) {
		memcpy(dv, dso, dn);
		dv[dn] = '\0';
		if (pasted_facts_add(out, READER, "driver.userspace.libcuda.version", dv, l->no) <
		    0)
			return -ENOMEM;
		n++;
	}
	if (holds(found, MARK_XLA_MISMATCH) && kn && dn && kn < sizeof(kv) && dn < sizeof(dv) &&
	    strcmp(kv, dv) != 0) {
		r = add_symptoms(out, mismatch_rules, false, l);
		if (r < 0)
			return r;
		n += r;
	}
	return n;
}

/* "Failed to initialize NVML: <error>": nvmlInit's answer. */
static int read_nvml_init(const struct line *l, struct pasted_facts *out)
{
	static const char mark[] = "Failed to initialize NVML: ";
	const char *p = find(l, mark);

	if (!p)
		return 0;
	p += strlen(mark);
	for (size_t i = 0; i < ARRAY_SIZE(nvml_errors); i++) {
		size_t k = strlen(nvml_errors[i].text);
		char buf[128];

		if ((size_t)(l->p + l->n - p) < k || strncasecmp(p, nvml_errors[i].text, k) != 0)
			continue;
		snprintf(buf, sizeof(buf), "%s (%s)", nvml_errors[i].text, nvml_errors[i].name);
		return pasted_facts_add_error(out, READER, "driver.nvml.init", buf, l->no) < 0
			       ? -ENOMEM
			       : 1;
	}
	return 0;
}

/* found: which needles the line holds (symptoms[i]'s is needle i, pasted_read_errors' scan),
 * or NULL to look each up. */
/* found: the needles the line holds (pasted_scan_mark), symptoms[] first. */
static int read_symptoms(const struct line *l, const bool *found, struct pasted_facts *out)
{
	int n = 0, r;

	for (size_t i = 0; i < ARRAY_SIZE(symptoms); i++) {
		/* on to the next needle the line holds */
		const bool *f = memchr(found + i, true, ARRAY_SIZE(symptoms) - i);

		if (!f)
			break;
		i = (size_t)(f - found);
		const struct symptom_row *row = &symptoms[i];
		const char *rules[ERRORS_MAX_IDS];

		if ((row->also && !find(l, symptom_str(row->also))) ||
		    (row->unless && find(l, symptom_str(row->unless))))
			continue;
		for (size_t k = 0; k < ERRORS_MAX_IDS; k++)
			rules[k] = symptom_str(row->rules[k]);
		r = add_symptoms(out, rules, row->unsure, l);
		if (r < 0)
			return r;
		n += r;
		if (symptoms[i].last)
			break;
	}
	return n;
}

/* A kernel message printed with embedded newlines comes out as several lines ("NVRM: The
 * NVIDIA GPU %04x:%02x:%02x.%x\nNVRM: (PCI ID: %04x:%04x) installed in this system has\nNVRM:
 * fallen off the bus and is not responding to commands.\n", NVIDIA/open-gpu-kernel-modules
 * kernel-open/nvidia/nv.c): its symptoms are read over the lines joined, at the first line's
 * number. Conservative: only NVRM lines, at most WRAP_LINES_MAX, only while the text so far
 * ends mid-sentence. Each line is still read on its own by read_line; *ret_lines: the lines
 * joined to this one (not read as a message's start themselves). */
static int read_wrapped(const struct line *l, const char *end, const struct pasted_scan *sc,
			struct pasted_facts *out, size_t *ret_lines)
{
	char buf[WRAP_BYTES_MAX];
	bool found[PASTED_SCAN_MAX] = { false };
	struct line joined = { .p = buf, .no = l->no };

	joined.n = pasted_nvrm_join(l->p, l->n, end, buf, sizeof(buf), WRAP_LINES_MAX, ret_lines);
	if (!joined.n)
		return 0;
	/* the joined message's needles in one pass, as a line's (not a search per symptom) */
	pasted_scan_mark(sc, joined.p, joined.n, found);
	return read_symptoms(&joined, found, out);
}

static int read_line(const struct line *l, const bool *found, struct pasted_facts *out)
{
	/* each with the word (marks[]) without which it reads nothing */
	static const struct {
		int (*read)(const struct line *, struct pasted_facts *);
		size_t mark;
	} readers[] = {
		{ read_driver_too_old, MARK_TOO_OLD },
		{ read_torch_capability, LOOK_CAPABILITY },
		{ read_torch_arch_list, LOOK_ARCH_LIST },
		{ read_tf_cudnn, LOOK_TF_CUDNN },
		{ read_jax_version_check, LOOK_JAX_CHECK },
		{ read_nvjitlink_symbol, LOOK_NVJITLINK },
		{ read_library_symbol, LOOK_LIB_SYMBOL },
		{ read_nvml_init, MARK_NVML_INIT },
	};
	int n, r;

	n = read_symptoms(l, found, out);
	if (n < 0)
		return n;
	r = read_cuda_errors(l, found, out);
	if (r < 0)
		return r;
	n += r;
	if (holds(found, MARK_XLA_LIBCUDA) || holds(found, MARK_XLA_KERNEL) ||
	    holds(found, MARK_XLA_MISMATCH)) {
		r = read_xla_versions(l, found, out);
		if (r < 0)
			return r;
		n += r;
	}
	for (size_t i = 0; i < ARRAY_SIZE(readers); i++) {
		if (!holds(found, readers[i].mark))
			continue;
		r = readers[i].read(l, out);
		if (r < 0)
			return r;
		n += r;
	}
	return n;
}

/* The needles of pasted_errors_signs() (pasted-errors.h), for the lines read here. A line
 * holding none is skipped without running read_line's readers (pasted-scan.h): most of a long
 * log is such lines. */
size_t pasted_errors_signs(struct pasted_needle *needles, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(symptoms) && n < max; i++)
		needles[n++] = (struct pasted_needle){ symptom_text + symptoms[i].needle, false };
	for (size_t i = 0; i < MARKS && n < max; i++)
		needles[n++] = marks[i];
	return n;
}

/* The signs, then the words the line readers key on (marks[]): all of them, as the
 * _Static_assert above holds. How many signs, or -EINVAL (a needle under 4 bytes). */
static int line_scan_init(struct pasted_scan *sc, struct pasted_needle *needles)
{
	size_t n = pasted_errors_signs(needles, PASTED_SCAN_MAX), signs = n;
	int r;

	for (size_t i = MARKS; i < LOOKS; i++)
		needles[n++] = marks[i];
	r = pasted_scan_init(sc, needles, n);
	return r < 0 ? r : (int)signs;
}

int pasted_read_errors(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_needle needles[PASTED_SCAN_MAX];
	bool found[PASTED_SCAN_MAX];
	struct line l = { .p = text, .no = 1 };
	const char *end = text + len;
	size_t inside = 0; /* lines left of a wrapped kernel message */
	struct pasted_nvrm_text kt;
	struct pasted_scan sc;
	bool may;
	int n = 0, r, signs;

	signs = line_scan_init(&sc, needles);
	if (signs < 0)
		return signs;
	pasted_nvrm_text_init(&kt, text, len);
	while (l.p < end) {
		const char *nl = memchr(l.p, '\n', (size_t)(end - l.p));

		l.n = (size_t)((nl ? nl : end) - l.p);
		/* a line none of the signs is in holds nothing read_wrapped or read_line would
		 * find: that is most lines of a log */
		memset(found, 0, sc.n); /* the needles' (sc.n), not all PASTED_SCAN_MAX */
		pasted_scan_mark(&sc, l.p, l.n, found);
		may = memchr(found, true, (size_t)signs) != NULL;
		r = pasted_nvrm_text_line(&kt, l.p, l.n, l.no, holds(found, MARK_NVRM));
		if (r < 0)
			goto out;
		if (inside > 0) {
			inside--;
		} else if (holds(found, MARK_NVRM)) {
			r = read_wrapped(&l, end, &sc, out, &inside);
			if (r < 0)
				goto out;
			n += r;
		}
		if (may) {
			r = read_line(&l, found, out);
			if (r < 0)
				goto out;
			n += r;
		}
		if (!nl)
			break;
		l.p = nl + 1;
		l.no++;
	}
	r = pasted_nvrm_text_read(&kt, READER, out);
	if (r >= 0)
		r += n;
out:
	pasted_nvrm_text_done(&kt);
	return r;
}
