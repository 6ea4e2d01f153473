// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `python -m torch.utils.collect_env` output (`gpuenv explain`), every form
 * since PyTorch 1.0 (torch/utils/collect_env.py, env_info_fmt): "Key: value" lines, Linux,
 * Windows and macOS alike. A report starts at one of the lines only collect_env prints
 * ("PyTorch version:", "Is debug build:", "CUDA used to build PyTorch:", "ROCM used to build
 * PyTorch:") and ends at "Versions of relevant libraries:" (the "[pip3] torch==…" and
 * "[conda] …" lines after it are the packages reader's). Two keys continue on the next lines
 * when their value has several (maybe_start_on_next_line): "GPU models and configuration:"
 * ("GPU 0: …" as nvidia-smi -L prints them, UUIDs removed) and "cuDNN version: Probably one of
 * the following:" (the realpath of each libcudnn that `ldconfig -p` lists).
 * Values collect_env writes when it learned nothing ("Could not collect", "N/A", "No CUDA")
 * give no fact. "CUDA used to build PyTorch: None" (torch.version.cuda is None: a CPU or ROCm
 * build) is kept as the value "None", which the explain command records as the torch probe
 * does (absent, "None").
 * A CPU build is told by its local version ("2.1.0+cpu", the download.pytorch.org/whl/cpu
 * wheels), or by no CUDA ("None"; "Could not collect" before collect_env stopped replacing
 * None) on a release version: a ROCm build writes "N/A" there (its HIP branch), and XPU and
 * source builds carry a local version ("+xpu", "+git…").
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define TORCH "framework.python_envs.0.packages.torch"

enum cont { CONT_NONE, CONT_GPUS, CONT_CUDNN };

struct report {
	bool in, macos;
	bool torch_release; /* "PyTorch version:" without a local version ("2.2.2") */
	enum cont cont;
	unsigned cudnn; /* libcudnn paths read */
};

static bool starts_report(const char *key)
{
	return strcmp(key, "PyTorch version") == 0 || strcmp(key, "Is debug build") == 0 ||
	       strcmp(key, "CUDA used to build PyTorch") == 0 ||
	       strcmp(key, "ROCM used to build PyTorch") == 0;
}

static bool no_value(const char *v)
{
	return pasted_no_value(v) || strcmp(v, "No CUDA") == 0;
}

/* "Ubuntu 20.04.2 LTS (x86_64)": collect_env appends the machine to the Linux and macOS name
 * since 1.7; os-release's PRETTY_NAME has no such suffix. */
static void put_os(struct pasted_out *o, unsigned no, char *v)
{
	static const char *const machines[] = { " (x86_64)", " (aarch64)", " (ppc64le)",
						" (s390x)",  " (arm64)",   NULL };
	size_t l = strlen(v);

	for (size_t i = 0; machines[i]; i++) {
		size_t m = strlen(machines[i]);

		if (l > m && strcmp(v + l - m, machines[i]) == 0) {
			v[l - m] = '\0';
			break;
		}
	}
	pasted_put(o, no, v, "host.os.pretty_name");
}

/* "Linux-5.15.0-57-generic-x86_64-with-glibc2.35" (platform.platform()): the kernel release
 * between "Linux-" and the machine. */
static void put_platform(struct pasted_out *o, unsigned no, char *v)
{
	static const char *const machines[] = { "-x86_64", "-aarch64", "-ppc64le", "-s390x", NULL };
	char *m = NULL, *p;

	if (strncmp(v, "Linux-", 6) != 0)
		return;
	for (size_t i = 0; machines[i]; i++)
		for (p = v + 6; (p = strstr(p, machines[i])); p++)
			if (p[strlen(machines[i])] == '-' || !p[strlen(machines[i])])
				m = p;
	if (!m || m == v + 6)
		return;
	*m = '\0';
	pasted_put(o, no, v + 6, "host.kernel_release");
}

/* "3.10.8 (main, Nov 24 2022, …) [GCC 11.2.0] (64-bit runtime)" or "3.8 (64-bit runtime)":
 * major.minor, the name of the environment's lib/python3.N. */
static void put_python(struct pasted_out *o, unsigned no, const char *v)
{
	char ver[32], *dot;

	if (!pasted_version_token(v, ver, sizeof(ver)) || !(dot = strchr(ver, '.')))
		return;
	if ((dot = strchr(dot + 1, '.')))
		*dot = '\0';
	pasted_put(o, no, ver, "framework.python_envs.0.python_versions.0");
}

/* "GPU 0: Tesla T4" (nvidia-smi -L with the UUID removed). */
static bool put_gpu(struct pasted_out *o, unsigned no, const char *v)
{
	const char *e;
	unsigned idx;

	if (strncmp(v, "GPU ", 4) != 0 || !pasted_index(v + 4, &idx, &e) || e[0] != ':')
		return false;
	pasted_put(o, no, e + 1, "driver.nvml.devices.%u.name", idx);
	return true;
}

/* "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.1.0": a loadable cuDNN and its version (the file
 * name past ".so."); the other cuDNN 8 libraries (libcudnn_adv_infer.so.8 …) are parts. */
static bool put_cudnn(struct pasted_out *o, struct report *r, unsigned no, const char *v)
{
	const char *base = strrchr(v, '/');

	if (v[0] != '/' || !base)
		return false;
	if (strncmp(base + 1, "libcudnn.so.", 12) == 0) {
		pasted_put(o, no, v, "runtime.libraries.libcudnn.%u.path", r->cudnn);
		pasted_put(o, no, base + 13, "runtime.libraries.libcudnn.%u.version", r->cudnn);
		r->cudnn++;
	}
	return true;
}

static void key_value(struct pasted_out *o, struct report *r, unsigned no, const char *key, char *v)
{
	r->cont = CONT_NONE;
	/* the first letters of the keys below: a line of another key (most of a long log's
	 * "x: y" lines) is passed without the comparisons */
	if (!strchr("GcCPRON", key[0]))
		return;
	if (strcmp(key, "GPU models and configuration") == 0) {
		if (!*v)
			r->cont = CONT_GPUS;
		else
			put_gpu(o, no, v);
		return;
	}
	if (strcmp(key, "cuDNN version") == 0) {
		if (strncmp(v, "Probably one of the following", 29) == 0)
			r->cont = CONT_CUDNN;
		else
			put_cudnn(o, r, no, v);
		return;
	}
	if (strcmp(key, "CUDA used to build PyTorch") == 0 && r->torch_release &&
	    (strcmp(v, "None") == 0 || strcmp(v, "Could not collect") == 0))
		pasted_put(o, no, "true", TORCH ".cpu_only");
	if (no_value(v))
		return;
	if (strcmp(key, "PyTorch version") == 0) {
		char *plus = strchr(v, '+');

		pasted_put(o, no, v, TORCH ".version");
		r->torch_release = !plus;
		if (plus)
			pasted_put(o, no, plus + 1, TORCH ".local_version");
		if (plus && strcmp(plus + 1, "cpu") == 0)
			pasted_put(o, no, "true", TORCH ".cpu_only");
	} else if (strcmp(key, "CUDA used to build PyTorch") == 0) {
		pasted_put(o, no, v, TORCH ".cuda");
	} else if (strcmp(key, "ROCM used to build PyTorch") == 0) {
		pasted_put(o, no, v, TORCH ".hip");
	} else if (strcmp(key, "OS") == 0) {
		r->macos = strncmp(v, "Mac OSX", 7) == 0 || strncmp(v, "macOS", 5) == 0;
		put_os(o, no, v);
	} else if (strcmp(key, "Python version") == 0) {
		put_python(o, no, v);
	} else if (strcmp(key, "Python platform") == 0) {
		put_platform(o, no, v);
	} else if (strcmp(key, "CUDA runtime version") == 0) {
		/* `nvcc --version`'s "V12.1.105" field */
		pasted_put(o, no, v, "runtime.cuda_toolkits.0.nvcc_version");
	} else if (strcmp(key, "Nvidia driver version") == 0 && !r->macos) {
		/* nvidia-smi's "Driver Version:"; on macOS the CUDA kext's version ("1.1.0") */
		pasted_put(o, no, v, "driver.nvml.driver_version");
	}
}

/* Outside a report, a line (p[0..n), as the text holds it) that cannot start one: its key,
 * the text before the first ':', holds none of starts_report's keys. Most lines of a long
 * log: passed without the copy and the key's split. */
static bool outside(const char *p, size_t n)
{
	const char *colon = memchr(p, ':', n);
	size_t k = colon ? (size_t)(colon - p) : 0;

	return !memmem(p, k, "PyTorch", 7) && !memmem(p, k, "Is debug build", 14);
}

/* Inside a report, with no list of values open, a line (p[0..n), as the text holds it) that
 * changes nothing: no ':' (no key), or a key whose first letter none of key_value()'s keys
 * nor "Versions of relevant libraries:" has. A long log after a report that never reached
 * its library list (a paste cut short) is read so without the copy and the key's split. */
static bool idle(const char *p, size_t n)
{
	const char *s = p, *e = p + n;

	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f'))
		s++;
	return s == e || !memchr("GcCPRONV", *s, 8) || !memchr(s, ':', (size_t)(e - s));
}

int pasted_read_collect_env(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "collect-env" };
	struct pasted_lines it;
	struct report r = { 0 };
	char *line, *key, *v;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	for (;;) {
		const char *p;
		size_t n;

		if (pasted_lines_peek(&it, &p, &n) &&
		    (r.in ? r.cont == CONT_NONE && idle(p, n) : outside(p, n))) {
			pasted_lines_skip(&it, n);
			continue;
		}
		if (!(line = pasted_lines_next(&it)))
			break;
		char *s = pasted_strip(line);

		if (r.in && r.cont != CONT_NONE) {
			if (r.cont == CONT_GPUS &&
			    (put_gpu(&o, it.no, s) || strncmp(s, "MIG ", 4) == 0))
				continue;
			if (r.cont == CONT_CUDNN && put_cudnn(&o, &r, it.no, s))
				continue;
			r.cont = CONT_NONE;
		}
		if (strcmp(s, "Versions of relevant libraries:") == 0) {
			r.in = false;
			continue;
		}
		if (!pasted_kv(s, ':', &key, &v))
			continue;
		if (!r.in && starts_report(key)) {
			r = (struct report){ .in = true };
		}
		if (r.in)
			key_value(&o, &r, it.no, key, v);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
