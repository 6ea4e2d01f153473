// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv labels` (docs/labels.md): Kubernetes node labels from a diagnosis, for Node Feature
 * Discovery's local source (features.d files of `name=value` lines,
 * https://kubernetes-sigs.github.io/node-feature-discovery/v0.14/usage/customization-guide).
 *
 * Where GPU Feature Discovery has a label for the same fact, its name and value format are
 * used (docs/gpu-feature-discovery/README.md "Generated Labels" of NVIDIA/k8s-device-plugin,
 * and internal/lm/: nvml.go newVersionLabeler, resource.go getArchFamily and sanitise), so
 * node selectors written for GFD keep working. gpuenv's own labels are under one prefix,
 * LABEL_PREFIX. A label is written only for a fact the snapshot shows; a value that does not
 * fit Kubernetes' syntax (63 characters, [A-Za-z0-9] at both ends, [-_.A-Za-z0-9] between)
 * is sanitised as GFD does, never invented.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "rules/rules.h"
#include "shared/macro.h"

#define LABEL_PREFIX	"feature.node.kubernetes.io/gpuenv."
#define LABEL_VALUE_MAX 63

struct label {
	const char *name;
	char value[LABEL_VALUE_MAX + 1];
};

struct labels {
	struct label l[40];
	size_t n;
};

static bool value_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_' || c == '.';
}

static bool alnum(char c)
{
	return value_char(c) && c != '-' && c != '_' && c != '.';
}

/* GFD's sanitise(): characters outside [A-Za-z0-9-_. ] dropped, runs of blanks one '-'; then
 * cut to 63 and trimmed to alphanumeric ends (Kubernetes' label value syntax). */
static void sanitise(const char *in, char *out)
{
	size_t n = 0;
	bool blank = false;

	for (; *in && n < LABEL_VALUE_MAX; in++) {
		if (*in == ' ' || *in == '\t') {
			blank = n > 0;
			continue;
		}
		if (!value_char(*in))
			continue;
		if (blank && n < LABEL_VALUE_MAX - 1)
			out[n++] = '-';
		blank = false;
		out[n++] = *in;
	}
	while (n > 0 && !alnum(out[n - 1]))
		n--;
	out[n] = '\0';
	/* a leading non-alphanumeric is dropped too */
	while (out[0] && !alnum(out[0]))
		memmove(out, out + 1, strlen(out));
}

static void add(struct labels *ls, const char *name, const char *value)
{
	struct label *l;

	if (!value || ls->n == ARRAY_SIZE(ls->l))
		return;
	l = &ls->l[ls->n];
	l->name = name;
	sanitise(value, l->value);
	if (l->value[0])
		ls->n++;
}

/* "550.54.15" → its dot-separated fields (GFD: two or three). */
static int split_version(const char *v, char fields[3][16])
{
	int n = 0;

	memset(fields, 0, 3 * 16);
	while (v && *v && n < 3) {
		size_t len = strcspn(v, ".");

		if (len == 0 || len >= 16)
			return -EINVAL;
		memcpy(fields[n++], v, len);
		v += len + (v[len] == '.');
	}
	return n;
}

/* internal/lm/resource.go getArchFamily(). */
static const char *arch_family(int major, int minor)
{
	switch (major) {
	case 1:
		return "tesla";
	case 2:
		return "fermi";
	case 3:
		return "kepler";
	case 5:
		return "maxwell";
	case 6:
		return "pascal";
	case 7:
		return minor < 5 ? "volta" : "turing";
	case 8:
		return minor < 9 ? "ampere" : "ada-lovelace";
	case 9:
		return "hopper";
	case 10:
	case 12:
		return "blackwell";
	case 13:
		return "rubin";
	}
	return "undefined";
}

static bool has_finding(const struct gpuenv_doctor *d, const char *rule)
{
	for (size_t i = 0; i < d->n_findings; i++)
		if (streq(d->findings[i].rule->id, rule))
			return true;
	return false;
}

static const char *framework_coverage(const struct gpuenv_doctor *d)
{
	static const char *const none[] = { "framework.no-kernel-image",
					    "framework.ptx-too-new-for-driver",
					    "framework.gpu-too-old-for-build",
					    "framework.rocm-gfx-unsupported" };

	for (size_t i = 0; i < ARRAY_SIZE(none); i++)
		if (has_finding(d, none[i]))
			return "none";
	if (has_finding(d, "framework.ptx-jit-only"))
		return "ptx-jit";
	switch (d->status[GPUENV_LAYER_FRAMEWORK]) {
	case LAYER_ABSENT:
		return NULL;
	case LAYER_OK:
	case LAYER_INFO:
	case LAYER_WARNING:
		return "native";
	default:
		return "unknown";
	}
}

static void collect(const struct gpuenv_doctor *d, struct labels *ls)
{
	static const char *const health[] = { "ok", "warning", "error", "unknown" };
	const struct snap_node *root = snapshot_root_const(d->snap);
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const char *name = snap_get_str(root, "driver.nvml.devices.0.name");
	const char *cc = snap_get_str(root, "driver.nvml.devices.0.compute_capability");
	const char *driver = snap_get_str(root, "driver.nvml.driver_version");
	const char *cuda = snap_get_str(root, "driver.nvml.cuda_driver_version");
	const struct finding *rc = diagnosis_root_cause(d);
	char buf[64], f[3][16];
	int64_t v;
	int major, minor;

	if (!name)
		name = snap_get_str(root, "driver.cuda.devices.0.name");
	if (!driver)
		driver = snap_get_str(root, "driver.nvidia.module_version");
	if (!cuda)
		cuda = snap_get_str(root, "driver.cuda.driver_version");
	/* the count: NVML's, else the NVIDIA GPUs on the PCI bus */
	if (snap_get_int(root, "driver.nvml.device_count", &v)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)v);
		add(ls, "nvidia.com/gpu.count", buf);
	} else if (gpus) {
		size_t n = 0;

		for (size_t i = 0; i < snap_count(gpus); i++) {
			const char *vendor = snap_get_str(snap_at(gpus, i), "vendor");

			n += vendor && streq(vendor, "NVIDIA");
			if (!cc && vendor && streq(vendor, "NVIDIA"))
				cc = snap_get_str(snap_at(gpus, i), "compute_capability");
		}
		if (n) {
			snprintf(buf, sizeof(buf), "%zu", n);
			add(ls, "nvidia.com/gpu.count", buf);
		}
	}
	add(ls, "nvidia.com/gpu.product", name);
	if (snap_get_int(root, "driver.nvml.devices.0.memory_total_mib", &v) ||
	    snap_get_int(root, "driver.cuda.devices.0.memory_total_mib", &v)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)v);
		add(ls, "nvidia.com/gpu.memory", buf);
	}
	if (cc && sscanf(cc, "%d.%d", &major, &minor) == 2 && major > 0) {
		snprintf(buf, sizeof(buf), "%d", major);
		add(ls, "nvidia.com/gpu.compute.major", buf);
		snprintf(buf, sizeof(buf), "%d", minor);
		add(ls, "nvidia.com/gpu.compute.minor", buf);
		add(ls, "nvidia.com/gpu.family", arch_family(major, minor));
	}
	if (driver && split_version(driver, f) >= 2) {
		add(ls, "nvidia.com/cuda.driver.major", f[0]);
		add(ls, "nvidia.com/cuda.driver.minor", f[1]);
		add(ls, "nvidia.com/cuda.driver.rev", f[2]);
		add(ls, "nvidia.com/cuda.driver-version.major", f[0]);
		add(ls, "nvidia.com/cuda.driver-version.minor", f[1]);
		add(ls, "nvidia.com/cuda.driver-version.revision", f[2]);
		add(ls, "nvidia.com/cuda.driver-version.full", driver);
	}
	if (cuda && split_version(cuda, f) == 2) {
		add(ls, "nvidia.com/cuda.runtime.major", f[0]);
		add(ls, "nvidia.com/cuda.runtime.minor", f[1]);
		add(ls, "nvidia.com/cuda.runtime-version.major", f[0]);
		add(ls, "nvidia.com/cuda.runtime-version.minor", f[1]);
		add(ls, "nvidia.com/cuda.runtime-version.full", cuda);
	}
	add(ls, LABEL_PREFIX "health", health[d->verdict <= 3 ? d->verdict : 3]);
	if (rc)
		add(ls, LABEL_PREFIX "root-cause", rc->rule->id);
	add(ls, LABEL_PREFIX "driver-max-cuda", d->chain.driver_cuda);
	add(ls, LABEL_PREFIX "framework-coverage", framework_coverage(d));
	for (enum gpuenv_severity s = GPUENV_SEVERITY_WARNING; s <= GPUENV_SEVERITY_ERROR; s++) {
		size_t n = 0;

		for (size_t i = 0; i < d->n_findings; i++)
			n += d->findings[i].severity == s;
		snprintf(buf, sizeof(buf), "%zu", n);
		add(ls,
		    s == GPUENV_SEVERITY_ERROR ? LABEL_PREFIX "errors" : LABEL_PREFIX "warnings",
		    buf);
	}
}

int out_labels_text(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb)
{
	struct labels ls = { .n = 0 };

	collect(d, &ls);
	for (size_t i = 0; i < ls.n; i++)
		strbuf_printf(sb, "%s=%s\n", ls.l[i].name, ls.l[i].value);
	return sb->err;
}

int out_labels_json(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb)
{
	struct labels ls = { .n = 0 };
	json_t *o = json_object();

	collect(d, &ls);
	for (size_t i = 0; i < ls.n; i++)
		json_object_set_new(o, ls.l[i].name, json_string(ls.l[i].value));
	return out_json_put(json_pack("{s:i, s:o}", "schema_version", 1, "labels", o), sb);
}
