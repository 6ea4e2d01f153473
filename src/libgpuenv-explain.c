// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public struct gpuenv_explain (include/gpuenv/gpuenv.h, docs/explain.md): pasted text
 * cleaned (src/formats/pasted-input.c), read by every reader of pasted_readers[], the facts
 * read made a snapshot (source "pasted:LINE", everything else unprobed), the rule table run
 * over it (src/rules/), and from the rules that could not judge, the commands that would
 * give them their facts. Rendered by src/output/out-explain.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-gz-windows.h"
#include "formats/pasted-gzip.h"
#include "formats/pasted-input.h"
#include "formats/pasted-merge.h"
#include "formats/pasted-dispatch.h"
#include "formats/pasted.h"
#include "gpuenv/gpuenv.h"
#include "output/output.h"
#include "rules/rules.h"
#include "shared/fact-state.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/strv.h"
#include "snapshot/snapshot.h"
#include "vendor/lazy-isal.h"

/* With --this-machine: what the machine's snapshot says at each pasted fact's path. */
struct machine_view {
	char *value;  /* the machine's value as text, or its state's name; NULL: no fact */
	char *source; /* where the machine read it (a probe's file, NVML …) */
	enum explain_origin origin;
};

struct gpuenv_explain {
	struct pasted_facts facts;
	struct machine_view *machine; /* one per fact; NULL: the text alone was judged */
	struct explain_read *read;
	struct gpuenv_doctor *doc;
	char **ask;
	struct explain_stated *stated;
	size_t n_stated;
	size_t n_conflicts;
	bool this_machine;
};

/* The snapshot sections doctor's schema requires (docs/schema/snapshot.json): present and
 * empty when the text says nothing of them, so every fact in them reads unprobed and the layer
 * is judged unknown (rules_judge), never ok. */
static const char *const sections[] = { "host",	     "hardware",  "driver",	"runtime",
					"framework", "container", "environment" };

/* Schema keys whose values are integers (docs/snapshot-schema.md); every other value read is
 * a string, but "true"/"false", which are bools. Asked for every fact read: the names are
 * held in their rows (no pointer for the loader to relocate) and a key is compared only with
 * those of its first letter. */
static bool int_key(const char *key)
{
	static const char keys[][28] = { "code",
					 "count",
					 "pid",
					 "device_count",
					 "minor_number",
					 "last_line",
					 "index",
					 "node",
					 "pci_devices",
					 "link",
					 "clocks_event_reasons",
					 "remapped_rows_correctable",
					 "remapped_rows_uncorrectable",
					 "retired_pages_sbe",
					 "retired_pages_dbe",
					 "current_link_width",
					 "max_link_width",
					 "gpu_instance_id",
					 "compute_instance_id",
					 "platform_count",
					 "gpu_devices" };
	static const char suffixes[][5] = { "_mib", "_mw", "_c", "_pct" };
	size_t n = strlen(key);

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (key[0] == keys[i][0] && streq(key, keys[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && streq(key + n - k, suffixes[i]))
			return true;
	}
	return false;
}

static bool is_index(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s) && strlen(s) < 6;
}

/* The node for path's components before the last, created as objects, or as arrays where the
 * next component is an index ("arch_targets.0.target"); elements appended up to the index. */
static struct snap_node *parent_of(struct snap_node *root, char **parts, size_t n)
{
	struct snap_node *node = root;

	for (size_t i = 0; i + 1 < n && node; i++) {
		if (is_index(parts[i]))
			continue; /* handled with the array before it */
		if (is_index(parts[i + 1])) {
			unsigned long want = strtoul(parts[i + 1], NULL, 10);
			struct snap_node *a = snap_array(node, parts[i]);

			if (i + 2 == n)
				return a; /* an array of strings: put_fact appends */
			while (a && snap_count(a) <= want)
				if (!snap_append_object(a))
					return NULL;
			node = a ? (struct snap_node *)snap_at(a, want) : NULL;
			i++;
		} else {
			node = snap_object(node, parts[i]);
		}
	}
	return node;
}

/* "pasted:LINE", the source of a fact read at LINE, without formatting it for every fact. */
static void pasted_source(char buf[static 32], unsigned line)
{
	char num[16];
	size_t k = sizeof(num);

	for (; k == sizeof(num) || line; line /= 10)
		num[--k] = (char)('0' + line % 10);
	memcpy(buf, "pasted:", 7);
	memcpy(buf + 7, num + k, sizeof(num) - k);
	buf[7 + sizeof(num) - k] = '\0';
}

/* s's components, cut in place at its dots, empty ones dropped (as strv_split cuts it): how
 * many, or more than max when they do not fit. */
static size_t split_dots(char *s, char **parts, size_t max)
{
	size_t n = 0;

	for (char *p = s;;) {
		char *dot = strchr(p, '.');

		if (dot)
			*dot = '\0';
		if (*p && n++ < max)
			parts[n - 1] = p;
		if (!dot)
			return n;
		p = dot + 1;
	}
}

static void put_fact(struct snap_node *root, const struct pasted_fact *f)
{
	_cleanup_strv_free_ char **many = NULL;
	char source[32], copy[256], *few[24], **parts = few;
	struct snap_node *obj;
	const char *key;
	size_t n = SIZE_MAX;
	int64_t v;
	char *end;

	/* a path's parts cut on the stack: most are short; a long one as strv_split cuts it */
	if (strlen(f->path) < sizeof(copy))
		n = split_dots(strcpy(copy, f->path), few, ARRAY_SIZE(few));
	if (n > ARRAY_SIZE(few)) {
		if (strv_split(f->path, ".", &many) < 0)
			return;
		parts = many;
		n = strv_length(many);
	}
	if (!n)
		return;
	obj = parent_of(root, parts, n);
	pasted_source(source, f->line);
	if (obj && snap_kind(obj) == SNAP_ARRAY) {
		/* "cdi_spec_dirs.1": readers number a list's strings in order from 0 */
		if (!f->failed && !f->absent && strtoul(parts[n - 1], NULL, 10) == snap_count(obj))
			snap_append_str(obj, f->value, source);
		return;
	}
	if (!obj || snap_kind(obj) != SNAP_OBJECT)
		return;
	key = parts[n - 1];
	if (f->failed || f->absent) {
		snap_set_state(obj, key, f->failed ? FACT_ERROR : FACT_ABSENT, source, f->value);
		return;
	}
	if (streq(f->value, "true") || streq(f->value, "false")) {
		snap_set_bool(obj, key, streq(f->value, "true"), source);
		return;
	}
	if (int_key(key) && *f->value) {
		errno = 0;
		v = strtoll(f->value, &end, 10);
		if (!*end && errno == 0) {
			snap_set_int(obj, key, v, source);
			return;
		}
	}
	snap_set_str(obj, key, f->value, source);
}

/* The machine's fact at a pasted path, as text to set beside the pasted value: a present
 * value as the paste would spell it, else the state's name ("absent", "error: …"). NULL when
 * the machine has nothing to say there (unprobed, or unreadable: a dmesg it may not read). */
static char *machine_text(const struct snap_node *n)
{
	enum fact_state st = snap_state(n);
	const char *str;
	int64_t i;
	bool b;
	char *t = NULL;

	if (!n || st == FACT_UNPROBED || st == FACT_UNREADABLE || snap_kind(n) != SNAP_FACT)
		return NULL;
	if ((str = snap_str(n)))
		return strdup(str);
	if (snap_int(n, &i))
		return asprintf(&t, "%lld", (long long)i) < 0 ? NULL : t;
	if (snap_bool(n, &b))
		return strdup(b ? "true" : "false");
	if (st == FACT_PRESENT)
		return NULL; /* an array or object: nothing to compare a line of text with */
	if (asprintf(&t, "%s%s%s", fact_state_to_string(st), snap_error(n) ? ": " : "",
		     snap_error(n) ? snap_error(n) : "") < 0)
		return NULL;
	return t;
}

/*
 * --this-machine: each pasted fact set beside the machine's at its path. The machine's
 * present value, when it differs, stays (it is what the machine is now) and the two are a
 * conflict, listed; a fact the machine could not read or did not look at is the paste's; a
 * failure the paste shows (nvmlInit's error) where the machine's call works is a conflict too.
 * Returns whether the pasted fact goes into the snapshot.
 */
static int compare_with_machine(const struct snap_node *root, const struct pasted_fact *f,
				struct machine_view *m)
{
	const struct snap_node *n = snap_get(root, f->path);
	enum fact_state st = snap_state(n);

	m->value = machine_text(n);
	if (!m->value) {
		m->origin = EXPLAIN_FROM_PASTE;
		return 1;
	}
	m->source = snap_source(n) ? strdup(snap_source(n)) : NULL;
	if (f->failed	? st == FACT_ERROR
	    : f->absent ? st == FACT_ABSENT
			: st == FACT_PRESENT && streq(m->value, f->value))
		m->origin = EXPLAIN_BOTH_AGREE;
	else
		m->origin = EXPLAIN_CONFLICT;
	return 0;
}

static int build_snapshot(const struct pasted_facts *facts, const struct gpuenv_snapshot *machine,
			  struct machine_view *views, struct gpuenv_snapshot **ret)
{
	struct gpuenv_snapshot *s;
	int r;

	if (machine) { /* a copy of the machine's, the pasted facts put in */
		_cleanup_free_ char *json = NULL;

		r = snapshot_to_json(machine, SNAP_JSON_COMPACT, &json);
		if (r >= 0)
			r = snapshot_from_json(json, strlen(json), &s, NULL);
	} else {
		r = snapshot_new(&s);
	}
	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++)
		snap_object(snapshot_root(s), sections[i]);
	for (size_t i = 0; i < facts->n; i++)
		if (!machine ||
		    compare_with_machine(snapshot_root_const(s), &facts->v[i], &views[i]))
			put_fact(snapshot_root(s), &facts->v[i]);
	r = snapshot_error(s);
	if (r < 0) {
		snapshot_unref(s);
		return r;
	}
	*ret = s;
	return 0;
}

/* What to run for a snapshot key a rule needs, by the key's longest prefix: on Linux, and on
 * Windows (NULL: nothing there answers it; a kernel module, a device node and Secure Boot's
 * MOK state are Linux's; "\n" parts two commands). Windows commands run in cmd and in
 * PowerShell alike: `where.exe`
 * (PowerShell's `where` is Where-Object), `cmd /c set`, `py` (the launcher, which takes the
 * active virtual environment). */
static const struct {
	const char *prefix, *command, *windows;
} asks[] = {
	{ "hardware", "lspci -nnk | grep -iA3 -E 'vga|3d|display'",
	  "powershell -c \"Get-CimInstance Win32_VideoController | Format-List Name, "
	  "DriverVersion, PNPDeviceID\"" },
	{ "driver.kernel_modules", "lsmod | grep -E 'nvidia|nouveau|amdgpu'", NULL },
	{ "driver.nvidia.module_file", "modinfo nvidia", NULL },
	{ "driver.nvidia", "cat /proc/driver/nvidia/version", "nvidia-smi" },
	{ "driver.secure_boot", "mokutil --sb-state", NULL },
	{ "driver.amdgpu",
	  "ls /sys/class/kfd/kfd/topology/nodes/; sudo dmesg | grep -iE 'amdgpu|kfd'", NULL },
	{ "driver.intel", "sudo dmesg | grep -iE 'i915|guc|huc'", NULL },
	/* an amdgpu or Intel rule's own layer: the kernel module it names, not NVIDIA's version
	 * file (modinfo shows where the module is from, DKMS's updates/ or the kernel's;
	 * /sys/module/amdgpu/version is there for AMD's amdgpu-dkms only; lspci -nnk the bound
	 * driver; uname the kernel the module must match) */
	{ "driver.amdgpu.kernel_module",
	  "modinfo amdgpu | head\ncat /sys/module/amdgpu/version\nsudo dmesg | grep -i amdgpu\n"
	  "lspci -nnk | grep -iA3 -E 'vga|3d|display'\nuname -a",
	  NULL },
	{ "driver.intel.kernel_module",
	  "modinfo i915 | head\nmodinfo xe | head\nsudo dmesg | grep -i -E 'i915|xe '\n"
	  "lspci -nnk | grep -iA3 -E 'vga|3d|display'\nuname -a",
	  NULL },
	{ "driver.device_nodes", "ls -l /dev/nvidia* /dev/kfd", NULL },
	{ "driver.xid_events", "sudo dmesg | grep -iE 'nvrm|xid'",
	  "powershell -c \"Get-WinEvent -ProviderName nvlddmkm -MaxEvents 20 | Format-List\"" },
	{ "driver.kernel_log", "sudo dmesg | grep -iE 'nvrm|xid'",
	  "powershell -c \"Get-WinEvent -ProviderName nvlddmkm -MaxEvents 20 | Format-List\"" },
	{ "driver.userspace", "ldconfig -p | grep -E 'libcuda|libnvidia-ml'",
	  "where.exe nvcuda.dll nvml.dll" },
	{ "driver.nvml", "nvidia-smi", "nvidia-smi" },
	{ "driver.cuda", "nvidia-smi", "nvidia-smi" },
	{ "driver", "cat /proc/driver/nvidia/version", "nvidia-smi" },
	{ "host.kernel_release", "uname -a", "cmd /c ver" },
	/* WSL2's marks (probe-host.c): the kernel release says WSL2, /dev/dxg and
	 * /usr/lib/wsl/lib whether Windows passed the GPU in; from Windows, its build (WSL GPU
	 * support from Windows 10 21H2) and each distribution's WSL version */
	{ "host.wsl", "uname -r\nls -ld /dev/dxg /usr/lib/wsl/lib", "cmd /c ver\nwsl -l -v" },
	{ "host", "cat /etc/os-release", "cmd /c ver" },
	{ "environment", "env | grep -E '^(CUDA|LD_|NVIDIA|HIP|HSA|ROCR|PATH=)'",
	  "cmd /c \"set CUDA & set PATH\"" },
	{ "container", "docker info | grep -iE 'runtime|cdi'", "docker info" },
	{ "framework",
	  "python -c 'import torch; print(torch.__version__, torch.version.cuda, "
	  "torch.cuda.get_arch_list())'",
	  "py -m torch.utils.collect_env" },
	/* the OpenCL rules: the platforms the loader lists, the ICD files, the GPU's driver */
	{ "runtime.opencl",
	  "clinfo -l\nls /etc/OpenCL/vendors\nlspci -nnk | grep -iA3 -E 'vga|3d|display'",
	  "clinfo -l" },
	{ "runtime", "nvcc --version; ldconfig -p | grep -E 'libcudart|libcudnn'",
	  "where.exe nvcc\nnvcc --version" },
};

/* The commands that tell a container's lost device access (make_ask): the cgroup version
 * (cgroup2fs for v2), the engines' cgroup driver, the toolkit's no-cgroups setting, and the
 * /dev/char links runc needs to re-apply a device rule to a node (NVIDIA/nvidia-docker#1730). */
static const char *const cgroup_asks[] = {
	"stat -fc %T /sys/fs/cgroup   # on the host: cgroup2fs is cgroup v2",
	"docker info --format '{{.CgroupDriver}} {{.CgroupVersion}}'",
	"grep -n SystemdCgroup /etc/containerd/config.toml",
	"grep -n no-cgroups /etc/nvidia-container-runtime/config.toml",
	"ls -l /dev/char | grep -i nvidia   # empty: no /dev/char links to the NVIDIA nodes",
};

/* The text shows nvmlInit answering NVML_ERROR_UNKNOWN ("Failed to initialize NVML: Unknown
 * Error", pasted-errors.c). */
static bool nvml_unknown_error(const struct snap_node *root)
{
	const struct snap_node *init = snap_get(root, "driver.nvml.init");
	const char *e = snap_error(init);

	return !snap_present(init) && e && strstr(e, "NVML_ERROR_UNKNOWN");
}

static const char *ask_for(const char *key, bool windows)
{
	size_t best = 0;
	const char *cmd = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(asks); i++) {
		size_t k;

		if (key[0] != asks[i].prefix[0]) /* most rows: measured only past this */
			continue;
		k = strlen(asks[i].prefix);
		if (k > best && strncmp(key, asks[i].prefix, k) == 0 &&
		    (key[k] == '\0' || key[k] == '.')) {
			best = k;
			cmd = windows ? asks[i].windows : asks[i].command;
		}
	}
	return cmd;
}

/* WSL1 (on_wsl1(): "4.4.0-19041-Microsoft"): no Linux driver can load there and WSL1 passes no
 * GPU, so a kernel module's, a device node's or the loader's command tells nothing. What
 * tells is Windows's, each run from cmd, PowerShell or (WSL's interop runs Windows programs
 * by their .exe name) the distribution's shell: each distribution's WSL version and WSL's
 * own state (`wsl.exe -l -v`, `wsl.exe --status`: Microsoft's "Basic commands for WSL"), and
 * the Windows driver (nvidia-smi.exe). What is the distribution's own (a framework, a
 * toolkit, the environment) is asked as on Linux. */
static const char *ask_for_wsl1(const char *key)
{
	static const char *const windows_side[] = { "driver", "hardware", "host" };

	for (size_t i = 0; i < ARRAY_SIZE(windows_side); i++) {
		size_t k = strlen(windows_side[i]);

		if (strncmp(key, windows_side[i], k) != 0 || (key[k] != '\0' && key[k] != '.'))
			continue;
		if (i == 2)
			return "wsl.exe -l -v\nwsl.exe --status";
		/* the Windows driver's version and GPUs; nothing of Linux's driver applies */
		return streq(key, "driver") || strncmp(key, "driver.nvml", 11) == 0 ||
				       strncmp(key, "driver.cuda", 11) == 0 ||
				       streq(key, "driver.nvidia") || i == 1
			       ? "nvidia-smi.exe"
			       : NULL;
	}
	return ask_for(key, false);
}

static int ask_push(char ***ask, const char *cmd)
{
	const char *nl = cmd ? strchr(cmd, '\n') : NULL;

	if (nl) { /* two commands: each once */
		_cleanup_free_ char *first = strndup(cmd, (size_t)(nl - cmd));
		int r = first ? ask_push(ask, first) : -ENOMEM;

		return r < 0 ? r : ask_push(ask, nl + 1);
	}
	return !cmd || strv_contains(*ask, cmd) ? 0 : strv_push(ask, cmd);
}

/* The text is from Windows: the windows reader saw one of its marks (pasted-windows.c) and
 * nothing read shows Linux (a kernel release, os-release, the kernel module's version file,
 * lsmod): WSL2 pastes show both, and are Linux's commands. */
static bool windows_text(const struct snap_node *root)
{
	return snapshot_os(root) == DRIVER_OS_WINDOWS;
}

/* The text names GPUs (hardware.gpus[].vendor) and none of them is NVIDIA's: nvidia-smi and
 * the NVIDIA driver's version file are not what tells about them. */
static bool other_vendor_gpus_only(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	size_t named = 0;

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const char *v = snap_get_str(snap_at(gpus, i), "vendor");

		if (!v || streq(v, "NVIDIA"))
			return false;
		named++;
	}
	return named > 0;
}

/* The text names a Debian or Ubuntu system (os-release's ID or ID_LIKE, a PRETTY_NAME as
 * collect_env's "OS:" or hostnamectl print it): dpkg is its package manager. */
static bool debian_family(const struct snap_node *root)
{
	static const char *const names[] = { "debian", "ubuntu", "Debian", "Ubuntu" };
	const char *v[] = { snap_get_str(root, "host.os.id"), snap_get_str(root, "host.os.id_like"),
			    snap_get_str(root, "host.os.pretty_name") };

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		for (size_t k = 0; v[i] && k < ARRAY_SIZE(names); k++)
			if (strstr(v[i], names[k]))
				return true;
	return false;
}

/* The text shows the GPU of Intel's (every GPU it names is Intel's). */
static bool intel_gpus_only(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const char *v = snap_get_str(snap_at(gpus, i), "vendor");

		if (!v || !streq(v, "Intel"))
			return false;
	}
	return snap_count(gpus) > 0;
}

/*
 * Commands that tell what a rule's symptom leaves open where the corpus shows a paste cannot
 * decide, asked besides its keys' (Linux only: each is a Linux command; "\n" parts them).
 * `mark`: only where the symptom's line holds it (NULL: any line); `debian`: only on a text
 * naming Debian or Ubuntu.
 *  - WSL2 with a Linux driver's user space installed (numba/numba#9032: libnvidia-compute-510
 *    from apt put /lib/x86_64-linux-gnu/libcuda.so.1 before WSL's): which libcuda the loader
 *    finds, and WSL's own in /usr/lib/wsl/lib (Microsoft's and NVIDIA's CUDA on WSL guide).
 *  - ollama's discovery skipping a gfx target (ollama/ollama#8679: HSA_OVERRIDE_GFX_VERSION in
 *    the unit's Environment=, the server started by hand): the unit and its drop-ins as
 *    systemd runs it (ollama's docs/linux.md and docs/faq.md set variables there).
 *  - Intel's driver and Level Zero rules: the render nodes i915 or xe made, and what the
 *    OpenCL ICD loader and oneAPI's SYCL runtime list (intel/compute-runtime's and Intel's
 *    client GPU installation guides check with clinfo and sycl-ls).
 *  - cuDNN's rules, and a missing libcudnn: which cuDNN packages apt installed (NVIDIA's
 *    cuDNN installation guide for Debian and Ubuntu: libcudnn8/libcudnn9-cuda-12).
 *  - nvidia-container-cli refused the device cgroup: whether the engine runs rootless (Docker
 *    lists "name=rootless" in its security options; a user namespace's uid_map is not
 *    "0 0 4294967295") and the toolkit's no-cgroups (NVIDIA/libnvidia-container#154).
 */
static const struct {
	const char *rule; /* an id, or a prefix ending in '-' */
	const char *mark;
	bool debian;
	const char *command;
} rule_asks[] = {
	{ "driver.wsl-linux-driver-installed", NULL, false,
	  "ldconfig -p | grep libcuda\nls -l /usr/lib/wsl/lib" },
	{ "runtime.override-not-inherited", "amdgpu is not supported", false,
	  "systemctl cat ollama" },
	{ "driver.intel-", NULL, false, "ls -l /dev/dri\nclinfo -l\nsycl-ls" },
	{ "runtime.level-zero-", NULL, false, "ls -l /dev/dri\nclinfo -l\nsycl-ls" },
	{ "runtime.cudnn-", NULL, true, "dpkg -l | grep cudnn" },
	{ "runtime.library-not-found", "cudnn", true, "dpkg -l | grep cudnn" },
	{ "container.rootless-no-cgroups", NULL, false,
	  "docker info --format '{{.SecurityOptions}}'   # name=rootless: a rootless daemon\n"
	  "cat /proc/self/uid_map   # not 0 0 4294967295: a user namespace (an unprivileged "
	  "container)\ngrep -n no-cgroups /etc/nvidia-container-runtime/config.toml" },
};

/* rule_asks' commands for a rule whose symptom the text shows at `line` (its value). */
static int ask_for_rule(char ***ask, const struct snap_node *root, const char *id, const char *line)
{
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(rule_asks) && r >= 0; i++) {
		size_t k = strlen(rule_asks[i].rule);
		bool prefix = rule_asks[i].rule[k - 1] == '-';

		if (prefix ? strncmp(id, rule_asks[i].rule, k) != 0 : !streq(id, rule_asks[i].rule))
			continue;
		if (rule_asks[i].mark && (!line || !strcasestr(line, rule_asks[i].mark)))
			continue;
		if (rule_asks[i].debian && !debian_family(root))
			continue;
		r = ask_push(ask, rule_asks[i].command);
	}
	return r;
}

/* The key whose commands tell about a rule's own layer: the vendor's kernel module for the
 * amdgpu and Intel driver rules, the layer's for the others (NVIDIA's, in the driver layer). */
static const char *layer_key(const struct rule *rule)
{
	if (strncmp(rule->id, "driver.amdgpu-", 14) == 0)
		return "driver.amdgpu.kernel_module";
	if (strncmp(rule->id, "driver.intel-", 13) == 0)
		return "driver.intel.kernel_module";
	if (strncmp(rule->id, "runtime.opencl-", 15) == 0)
		return "runtime.opencl";
	return rule_layer_name(rule->layer);
}

/*
 * The commands that would let the rules the text points at judge: for every rule whose symptom
 * the text shows, the commands for each key it needs that the text did not give, and its
 * layer's own (the driver's version file, torch's build); Windows's where the text is from
 * Windows. Nothing shown: the usual three (two on Windows).
 */
static int make_ask(struct gpuenv_explain *e, const struct snap_node *root)
{
	bool win = windows_text(root), wsl1 = on_wsl1(root, NULL);
	int r = 0;

#define ASK_FOR(key) (wsl1 ? ask_for_wsl1(key) : ask_for((key), win))
	/* WSL1: which WSL each distribution runs first, whatever the text shows */
	if (wsl1)
		r = ask_push(&e->ask, ASK_FOR("host.wsl"));

	const struct snap_node *shown = snap_get(root, "symptoms");
	const struct snap_node *unsure = snap_get(root, "symptoms.unsure");

	for (size_t i = 0; i < rule_table_len && r >= 0 && shown; i++) {
		const struct rule *rule = &rule_table[i];

		/* "symptoms.<rule id>" or "symptoms.unsure.<rule id>" (the id's dots nest too) */
		if (!snap_present(snap_get(shown, rule->id)) &&
		    !(unsure && snap_present(snap_get(unsure, rule->id))))
			continue;
		for (size_t k = 0; rule->needs && rule->needs[k] && r >= 0; k++) {
			const struct snap_node *have;
			char key[160];
			size_t n;

			snprintf(key, sizeof(key), "%s", rule->needs[k]);
			n = strlen(key);
			if (n && (key[n - 1] == '?' || key[n - 1] == '~'))
				key[n - 1] = '\0';
			/* an empty subtree ("environment": {} where no env line was read) gives
			 * nothing either */
			have = snap_get(root, key);
			if (!snap_present(have) ||
			    (snap_kind(have) == SNAP_OBJECT && snap_count(have) == 0))
				r = ask_push(&e->ask, ASK_FOR(key));
		}
		/* a rule judged only from an active check's fact (rule.only_with: doctor --launch's
		 * driver.cuda.launch, which the text of CUDA_ERROR_JIT_COMPILER_NOT_FOUND points
		 * at) is told by the command that makes it, its verify line; gpuenv runs on
		 * Linux */
		if (r >= 0 && rule->only_with && !win && !wsl1 && rule->verify && rule->verify[0] &&
		    !snap_present(snap_get(root, rule->only_with)))
			r = ask_push(&e->ask, rule->verify[0]);
		if (r >= 0)
			r = ask_push(&e->ask, ASK_FOR(layer_key(rule)));
		if (r >= 0 && !win && !wsl1) {
			const struct snap_node *at = snap_get(shown, rule->id);

			if (!snap_present(at))
				at = snap_get(unsure, rule->id);
			r = ask_for_rule(&e->ask, root, rule->id, snap_str(at));
		}
	}
	/* NVML's Unknown Error at init has a cause the snapshot cannot show: a container whose
	 * device cgroup lost /dev/nvidia* when systemd re-applied its device rules (`systemctl
	 * daemon-reload` on a host with cgroup v2 and Docker's or containerd's systemd cgroup
	 * driver; NVIDIA/nvidia-docker#1730, NVIDIA/nvidia-container-toolkit#48 and #1227; the
	 * toolkit's troubleshooting page). Inside, the nodes are listed but cannot be opened, which
	 * no file there records (cgroup v2 enforces device access by an eBPF program): these tell
	 * it on the host. */
	if (r >= 0 && !win && nvml_unknown_error(root))
		for (size_t i = 0; i < ARRAY_SIZE(cgroup_asks) && r >= 0; i++)
			r = ask_push(&e->ask, cgroup_asks[i]);
	if (r >= 0 && !e->ask && other_vendor_gpus_only(root)) {
		/* an AMD or Intel GPU, no symptom: its driver binding and the kernel tell */
		r = ask_push(&e->ask, ASK_FOR("hardware"));
		if (r >= 0)
			r = ask_push(&e->ask, ASK_FOR("host.kernel_release"));
		/* an Intel GPU: whether a driver made its render node, and what the compute
		 * runtimes list (rule_asks) */
		if (r >= 0 && !win && !wsl1 && intel_gpus_only(root))
			r = ask_for_rule(&e->ask, root, "driver.intel-", NULL);
	}
	if (r >= 0 && !e->ask) {
		r = ask_push(&e->ask, ASK_FOR("driver.nvml"));
		if (r >= 0)
			r = ask_push(&e->ask, ASK_FOR("driver.nvidia"));
		if (r >= 0)
			r = ask_push(&e->ask, ASK_FOR("framework"));
	}
	return r;
}
#undef ASK_FOR

/* The line of a fact read from the text ("pasted:12"); 0 for the machine's. */
static unsigned pasted_line(const struct snap_node *n)
{
	const char *src = snap_source(n);

	return src && strncmp(src, "pasted:", 7) == 0 ? (unsigned)strtoul(src + 7, NULL, 10) : 0;
}

/*
 * "No NVIDIA GPU", where the text shows it: a whole lspci listing (hardware.pci_devices, which
 * the lspci reader gives only for one unbroken listing from 00:00.0 holding every GPU read)
 * whose GPUs all name another vendor. A listing cut by grep, or a GPU whose vendor is not
 * read, tells nothing. No GPU at all is hardware.no-gpu's. Stated with the first GPU's line.
 */
static int stated_no_nvidia(struct gpuenv_explain *e, const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *count = snap_get(root, "hardware.pci_devices");
	const struct snap_node *first;
	struct strbuf sb = STRBUF_INIT;
	int64_t n = 0;
	unsigned line;
	int r;

	if (!pasted_line(count) || !snap_int(count, &n) || n <= 0 || !snap_count(gpus))
		return 0;
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const char *vid = snap_get_str(g, "vendor_id"), *vendor = snap_get_str(g, "vendor");

		if (!vid && !vendor)
			return 0; /* a GPU of an unknown vendor: it may be NVIDIA's */
		if ((vid && streq(vid, "0x10de")) || (vendor && streq(vendor, "NVIDIA")))
			return 0;
	}
	first = snap_at(gpus, 0);
	line = pasted_line(snap_child(first, "bus_id"));
	strbuf_printf(&sb,
		      "no NVIDIA GPU: the lspci listing (%lld devices, from line %u) shows %zu "
		      "GPU%s, none NVIDIA's (vendor 10de):",
		      (long long)n, pasted_line(count), snap_count(gpus),
		      snap_count(gpus) == 1 ? "" : "s");
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);

		strbuf_printf(&sb, "%s %s at %s (line %u)", i ? "," : "",
			      snap_get_str(g, "vendor") ?: snap_get_str(g, "vendor_id"),
			      snap_get_str(g, "bus_id") ?: "?",
			      pasted_line(snap_child(g, "bus_id")));
	}
	e->stated = calloc(1, sizeof(*e->stated));
	if (!e->stated) {
		strbuf_done(&sb);
		return -ENOMEM;
	}
	e->stated[0] = (struct explain_stated){ .id = "no-nvidia-gpu",
						.line = line ? line : pasted_line(count) };
	r = strbuf_finish(&sb, 0, &e->stated[0].message);
	if (r >= 0)
		e->n_stated = 1;
	return r;
}

/* A layer none of whose facts the text gave is not ✓: a rule of it skipped for a fact that
 * was never looked at (unprobed) makes it "could not tell", whatever the rules that did run
 * found nothing against (the driver layer with no module version, no device nodes). */
static void unjudged_layers(struct gpuenv_doctor *d)
{
	for (size_t i = 0; i < d->n_skips; i++) {
		enum gpuenv_layer l = d->skips[i].rule->layer;

		if (d->skips[i].cause == FACT_UNPROBED && d->status[l] <= LAYER_INFO)
			d->status[l] = LAYER_UNKNOWN;
	}
}

/* Every reader's facts in a list of its own, over one or more windows of the input, then one
 * list: lspci's gpus.0 and rocm-smi's gpus.0 may be two GPUs, nvidia-smi's devices.1 and
 * collect_env's devices.0 one (pasted-merge.c). */
struct reading {
	struct pasted_facts *each; /* one per reader of pasted_readers[] */
	size_t n_readers;
	unsigned lines; /* lines of the windows read so far */
	struct pasted_dispatch dispatch;
};

static int reading_init(struct reading *rd)
{
	int r;

	/* the dispatcher is set by its init alone: zeroed here too, its 15 KB were stored twice */
	rd->each = NULL;
	rd->n_readers = 0;
	rd->lines = 0;
	r = pasted_dispatch_init(&rd->dispatch, pasted_readers);
	if (r < 0)
		return r;
	rd->n_readers = rd->dispatch.n_readers;
	rd->each = calloc(rd->n_readers, sizeof(*rd->each));
	return rd->each ? 0 : -ENOMEM;
}

static void reading_done(struct reading *rd)
{
	for (size_t i = 0; rd->each && i < rd->n_readers; i++)
		pasted_facts_done(&rd->each[i]);
	free(rd->each);
	rd->each = NULL;
	pasted_dispatch_done(&rd->dispatch);
}

/* One window of cleaned text (whole lines) through the readers, each given its lines
 * (pasted-dispatch.h). */
static int read_window(struct reading *rd, const char *text, size_t n)
{
	int r = pasted_dispatch_read(&rd->dispatch, text, n, rd->lines, rd->each);

	rd->lines += rd->dispatch.newlines;
	return r;
}

/* Raw bytes cleaned (pasted-input.h) and read as one window. *owned (NULL: none), the raw
 * bytes when they are ours to free: cleaned in their own buffer (pasted_input_clean_take), not
 * copied into a second one of their size, pages first touched (docs/explain.md, "Performance:
 * a typical paste"). */
static int read_raw(struct reading *rd, const char *data, size_t len, char **owned,
		    const char **ret_why)
{
	_cleanup_free_ char *text = NULL;
	size_t n = 0;
	int r;

	if (owned && *owned) {
		r = pasted_input_clean_take(*owned, len, &text, &n, ret_why);
		*owned = NULL;
	} else {
		r = pasted_input_clean(data ? data : "", len, &text, &n, ret_why);
	}
	return r < 0 ? r : read_window(rd, text, n);
}

/*
 * A gzip input (nvidia-bug-report.log.gz) inflated a window at a time, never whole: each
 * window of PASTED_GZ_WINDOW bytes or so, cut at a line end (pasted_gz_window_cut), is cleaned
 * and read like a paste of its own, its lines numbered on from the windows before. What the
 * readers keep from line to line does not cross a cut, which falls between the report's
 * sections where it can. The windows are made a window ahead on a thread of their own
 * (pasted-gz-windows.h): the same windows, read while the next one is made. UTF-16 (a BOM:
 * PowerShell's redirect) is inflated whole.
 */
/* The readers the maker's thread runs itself over each window (pasted-gz-windows.h): those of
 * the whole text without signs (nvidia-smi, lspci), which need no split. The readers' thread
 * was the busier one (callgrind --separate-threads, the 5,030 KiB stand-in: 1,022 M
 * instructions against the maker's 757 M); these were 232 M of it (docs/explain.md). */
#define READ_APART(d) pasted_dispatch_whole(d)

/* owned: data is ours (gpuenv_explain_text_take), its pages given back as they are inflated
 * (pasted_gz_windows_start's drop_input): the input held whole to the end was most of the
 * peak memory of a large report (docs/explain.md). */
static int read_gzip(struct reading *rd, const char *data, size_t len, bool owned,
		     const char **ret_why)
{
	const struct isal_inflate_api *isal;
	const char *not_loaded = NULL;
	struct pasted_gz_windows w;
	struct pasted_gz_window *win;
	int r = vendor_isal(&isal, &not_loaded);

	if (r == -ENOMEM)
		return r;
	/* libisal2 missing (a package dependency, not always installed where a report is
	 * read): zlib's inflate instead (isal NULL, pasted-gzip.h), the same text and checks */
	if (r < 0)
		isal = NULL;
	r = pasted_gz_windows_start(&w, isal, data, len, &rd->dispatch, READ_APART(&rd->dispatch),
				    rd->each, owned, ret_why);
	if (r < 0)
		return r;
	while ((r = pasted_gz_windows_next(&w, &win, ret_why)) >= 0 && !win->end) {
		if (win->utf16) {
			_cleanup_free_ char *whole = NULL;
			size_t n = 0;

			pasted_gz_windows_done(&w);
			r = pasted_gunzip(isal, data, len, PASTED_INPUT_MAX, &whole, &n, ret_why);
			return r < 0 ? r : read_raw(rd, whole, n, NULL, ret_why);
		}
		r = pasted_dispatch_run_some(&rd->dispatch, &win->split, win->text, win->n,
					     rd->lines, rd->each, ~w.apart);
		rd->lines += win->split.newlines;
		if (r < 0)
			break;
	}
	pasted_gz_windows_done(&w);
	return r < 0 ? r : w.apart_err;
}

/* owned: data is ours to free (freed once read, and on every return); NULL: the caller's. */
static int explain(const char *data, size_t len, char **owned,
		   const struct gpuenv_snapshot *machine, struct gpuenv_explain **ret,
		   const char **ret_why)
{
	struct gpuenv_snapshot *snap = NULL;
	struct gpuenv_explain *e;
	struct reading rd;
	int r;

	if ((!data && len) || !ret)
		return -EINVAL;
	r = reading_init(&rd);
	if (r >= 0) /* nvidia-bug-report.log.gz, or a paste */
		r = pasted_is_gzip(data, len) ? read_gzip(&rd, data, len, owned && *owned, ret_why)
					      : read_raw(&rd, data, len, owned, ret_why);
	if (r < 0) {
		reading_done(&rd);
		return r;
	}
	e = calloc(1, sizeof(*e));
	if (e)
		r = pasted_facts_merge(rd.each, rd.n_readers, &e->facts);
	reading_done(&rd);
	if (!e)
		return -ENOMEM;
	e->this_machine = machine != NULL;
	if (r >= 0 && machine && e->facts.n) {
		e->machine = calloc(e->facts.n, sizeof(*e->machine));
		if (!e->machine)
			r = -ENOMEM;
	}
	if (r >= 0)
		r = build_snapshot(&e->facts, machine, e->machine, &snap);
	if (r >= 0)
		r = rules_diagnose(snap, &e->doc);
	if (r >= 0)
		unjudged_layers(e->doc);
	if (r >= 0)
		r = make_ask(e, snapshot_root_const(snap));
	if (r >= 0)
		r = stated_no_nvidia(e, snapshot_root_const(snap));
	snapshot_unref(snap);
	if (r >= 0 && e->facts.n) {
		e->read = calloc(e->facts.n, sizeof(*e->read));
		if (!e->read)
			r = -ENOMEM;
		for (size_t i = 0; e->read && i < e->facts.n; i++) {
			const struct pasted_fact *f = &e->facts.v[i];

			e->read[i] = (struct explain_read){ .path = f->path,
							    .value = f->value,
							    .reader = f->reader,
							    .line = f->line,
							    .failed = f->failed,
							    .absent = f->absent };
			if (e->machine) {
				e->read[i].machine_value = e->machine[i].value;
				e->read[i].machine_source = e->machine[i].source;
				e->read[i].origin = e->machine[i].origin;
				e->n_conflicts += e->machine[i].origin == EXPLAIN_CONFLICT;
			}
		}
	}
	if (r < 0) {
		gpuenv_explain_free(e);
		return r;
	}
	*ret = e;
	return 0;
}

GPUENV_API int gpuenv_explain_text(const char *data, size_t len, struct gpuenv_explain **ret,
				   const char **ret_why)
{
	return explain(data, len, NULL, NULL, ret, ret_why);
}

GPUENV_API int gpuenv_explain_text_take(char *data, size_t len, struct gpuenv_explain **ret,
					const char **ret_why)
{
	char *owned = data;
	int r = explain(data, len, &owned, NULL, ret, ret_why);

	free(owned); /* NULL where read_raw took it */
	return r;
}

GPUENV_API int gpuenv_explain_with_machine(const char *data, size_t len,
					   const struct gpuenv_snapshot *machine,
					   struct gpuenv_explain **ret, const char **ret_why)
{
	if (!machine)
		return -EINVAL;
	return explain(data, len, NULL, machine, ret, ret_why);
}

GPUENV_API struct gpuenv_explain *gpuenv_explain_free(struct gpuenv_explain *e)
{
	if (!e)
		return NULL;
	for (size_t i = 0; e->machine && i < e->facts.n; i++) {
		free(e->machine[i].value);
		free(e->machine[i].source);
	}
	free(e->machine);
	diagnosis_free(e->doc);
	pasted_facts_done(&e->facts);
	free(e->read);
	strv_free(e->ask);
	for (size_t i = 0; i < e->n_stated; i++)
		free(e->stated[i].message);
	free(e->stated);
	free(e);
	return NULL;
}

GPUENV_API enum gpuenv_verdict gpuenv_explain_get_verdict(const struct gpuenv_explain *e)
{
	return e && e->doc ? e->doc->verdict : GPUENV_VERDICT_UNEVALUATED;
}

GPUENV_API const struct gpuenv_doctor *gpuenv_explain_get_doctor(const struct gpuenv_explain *e)
{
	return e ? e->doc : NULL;
}

static int render_into(const struct gpuenv_explain *e, enum gpuenv_format format, unsigned flags,
		       struct strbuf *sb)
{
	struct explain_view v = { .d = e->doc,
				  .read = e->read,
				  .n_read = e->facts.n,
				  .dropped = e->facts.dropped,
				  .ask = e->ask,
				  .stated = e->stated,
				  .n_stated = e->n_stated,
				  .this_machine = e->this_machine,
				  .n_conflicts = e->n_conflicts };

	switch (format) {
	case GPUENV_FORMAT_TEXT:
		return out_explain_text(&v, flags, sb);
	case GPUENV_FORMAT_JSON:
		return out_explain_json(&v, flags, sb);
	case GPUENV_FORMAT_MARKDOWN:
		return out_explain_markdown(&v, flags, sb);
	default:
		return -EOPNOTSUPP;
	}
}

GPUENV_API int gpuenv_explain_render(const struct gpuenv_explain *e, enum gpuenv_format format,
				     unsigned flags, char **ret)
{
	struct strbuf sb = STRBUF_INIT;

	if (!e || !ret)
		return -EINVAL;
	return strbuf_finish(&sb, render_into(e, format, flags, &sb), ret);
}

GPUENV_API int gpuenv_explain_render_to(const struct gpuenv_explain *e, enum gpuenv_format format,
					unsigned flags,
					int (*write)(void *userdata, const char *p, size_t n),
					void *userdata)
{
	struct strbuf sb;
	int r;

	if (!e || !write)
		return -EINVAL;
	strbuf_init_sink(&sb, 0, write, userdata);
	r = render_into(e, format, flags, &sb);
	if (r >= 0)
		r = strbuf_flush(&sb);
	strbuf_done(&sb);
	return r;
}
