// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel driver layer: loaded modules, the NVIDIA and AMD kernel drivers, their
 * device nodes, Secure Boot and the nouveau blacklist. Formats: proc(5) /proc/modules
 * ("name size refcount deps state address"); /sys/module/<m>/version (sysfs-module ABI);
 * NVIDIA's /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX x86_64 Kernel Module
 * 550.54.15 ..." or "... Open Kernel Module for x86_64  560.35.03 ...", then "GCC version:")
 * and /proc/driver/nvidia/gpus/<bus>/information ("Key: \t value" lines), as written by
 * open-gpu-kernel-modules kernel-open/nvidia/nv-procfs.c; the nvidia.ko of the running kernel,
 * found through modules.dep(5) or in the directories distributions install it to, and read
 * as bytes by formats/kmodule.h (its .modinfo version and its signature); the EFI variable
 * SecureBoot-8be4df61-...
 * (efivarfs: 4 attribute bytes then the data byte) and the enrolled keys of MokListRT (shim's
 * mirror of the Machine Owner Keys, efivarfs or the kernel's mok-variables table) and db, as
 * formats/efi-siglist.h reads them; modprobe.d(5); the amdkfd topology through
 * probe-amd-kfd.c; the
 * device nodes' stat(2) mode and owner with group names from group(5) /etc/group.
 * Writes "driver".
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "core/host.h"
#include "formats/efi-siglist.h"
#include "formats/kmodule.h"
#include "formats/nvidia-module-name.h"
#include "probe-text.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/strv.h"

static const char *const module_names[] = { "nvidia",	      "nvidia_uvm", "nvidia_drm",
					    "nvidia_modeset", "nouveau",    "amdgpu" };

void probe_parse_proc_modules(struct snap_node *km, const char *text, size_t len, const char *path)
{
	bool present[ARRAY_SIZE(module_names)];

	if (proc_modules_parse(text, len, module_names, ARRAY_SIZE(module_names), present) < 0) {
		snap_set_errno(km, "modules_supported", -ENOMEM, path);
		return;
	}
	snap_set_bool(km, "modules_supported", true, path);
	for (size_t i = 0; i < ARRAY_SIZE(module_names); i++)
		snap_set_bool(km, module_names[i], present[i], path);
}

static void probe_modules(struct probe_env *pe, struct snap_node *drv)
{
	static const char path[] = "/proc/modules";
	struct snap_node *km = snap_object(drv, "kernel_modules");
	_cleanup_free_ char *text = NULL;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err == -ENOENT) {
		/* A kernel built without CONFIG_MODULES: nothing is a module, not a failure. */
		snap_set_bool(km, "modules_supported", false, path);
		for (size_t i = 0; i < ARRAY_SIZE(module_names); i++)
			snap_set_state(km, module_names[i], FACT_ABSENT, path,
				       "kernel has no module support");
		return;
	}
	if (err < 0) {
		snap_set_errno(km, "modules_supported", err, path);
		for (size_t i = 0; i < ARRAY_SIZE(module_names); i++)
			snap_set_errno(km, module_names[i], err, path);
		return;
	}
	probe_parse_proc_modules(km, text, strlen(text), path);
}

static void set_attr(struct probe_env *pe, struct snap_node *obj, const char *key, const char *path)
{
	_cleanup_free_ char *text = NULL;
	int err = root_read_text(pe->root, path, ROOT_CAP_ATTR, &text);

	if (err < 0)
		snap_set_errno(obj, key, err, path);
	else if (!*strstrip(text))
		snap_set_malformed(obj, key, text, path, "empty");
	else
		snap_set_str(obj, key, text, path);
}

void probe_parse_nvidia_version(struct snap_node *nv, const char *text, size_t len,
				const char *path)
{
	struct nvidia_version v;
	int err = nvidia_version_parse(text, len, &v);

	if (err < 0) {
		nvidia_version_done(&v);
		snap_set_errno(nv, "proc_version", err, path);
		return;
	}
	if (v.flavor) {
		snap_set_str(nv, "proc_version", v.version, path);
		snap_set_str(nv, "flavor", v.flavor, path);
	} else {
		_cleanup_free_ char *raw = text_ndup(text, len);

		snap_set_malformed(nv, "proc_version", raw, path,
				   "no parsable \"NVRM version:\" line");
		snap_set_state(nv, "flavor", FACT_MALFORMED, path,
			       "no parsable \"NVRM version:\" line");
	}
	if (v.gcc_version)
		snap_set_str(nv, "gcc_version", v.gcc_version, path);
	else
		snap_set_state(nv, "gcc_version", FACT_ABSENT, path, "no \"GCC version:\" line");
	nvidia_version_done(&v);
}

static void probe_nvidia_proc_version(struct probe_env *pe, struct snap_node *nv)
{
	static const char path[] = "/proc/driver/nvidia/version";
	_cleanup_free_ char *text = NULL;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(nv, "proc_version", err, path);
		return;
	}
	probe_parse_nvidia_version(nv, text, strlen(text), path);
}

void probe_parse_nvidia_gpu_info(struct snap_node *g, const char *text, size_t len,
				 const char *path)
{
	struct nvidia_gpu_info info;

	if (nvidia_gpu_info_parse(text, len, &info) < 0) {
		nvidia_gpu_info_done(&info);
		snap_set_errno(g, "model", -ENOMEM, path);
		return;
	}
	for (size_t i = 0; i < NVIDIA_GPU_INFO_N; i++)
		if (info.value[i])
			snap_set_str(g, nvidia_gpu_info_keys[i].name, info.value[i], path);
		else
			snap_set_state(g, nvidia_gpu_info_keys[i].name, FACT_ABSENT, path,
				       "line missing");
	nvidia_gpu_info_done(&info);
}

static void probe_nvidia_gpus(struct probe_env *pe, struct snap_node *nv)
{
	static const char dir[] = "/proc/driver/nvidia/gpus";
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *arr;
	int err = root_list_dir(pe->root, dir, ROOT_DIR_MAX_ENTRIES, &names);

	if (err < 0) {
		snap_set_errno(nv, "gpus", err, dir);
		return;
	}
	arr = snap_array(nv, "gpus");
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *path = NULL, *text = NULL;
		struct snap_node *g = snap_append_object(arr);

		if (!g)
			return;
		if (asprintf(&path, "%s/%s/information", dir, *n) < 0) {
			path = NULL;
			return;
		}
		snap_set_str(g, "proc_dir", *n, dir);
		err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);
		if (err < 0) {
			snap_set_errno(g, "model", err, path);
			continue;
		}
		probe_parse_nvidia_gpu_info(g, text, strlen(text), path);
	}
}

static void set_node(struct probe_env *pe, struct snap_node *obj, const char *key, const char *path,
		     bool want_dir)
{
	struct stat st;
	int err = root_stat(pe->root, path, &st);

	if (err < 0)
		snap_set_errno(obj, key, err, path);
	else if (want_dir ? S_ISDIR(st.st_mode) : S_ISCHR(st.st_mode))
		snap_set_bool(obj, key, true, path);
	else
		snap_set_state(obj, key, FACT_ABSENT, path,
			       want_dir ? "not a directory" : "not a character device");
}

#define DEVICE_NODES_MAX 512u

/* One node's type, numbers, permission bits and owner, for "may this process open it". */
static void add_node(struct probe_env *pe, struct snap_node *arr, const char *path,
		     const char *group_text, int group_err)
{
	struct snap_node *o;
	struct stat st;
	const char *type;
	char name[256];
	int err;

	if (snap_count(arr) >= DEVICE_NODES_MAX)
		return;
	o = snap_append_object(arr);
	if (!o)
		return;
	snap_set_str(o, "path", path, path);
	err = root_stat(pe->root, path, &st);
	if (err < 0) {
		snap_set_errno(o, "type", err, path);
		return;
	}
	/* A bind mount of a missing node leaves a regular file: say so, never "present". */
	type = S_ISCHR(st.st_mode)   ? "char"
	       : S_ISBLK(st.st_mode) ? "block"
	       : S_ISDIR(st.st_mode) ? "directory"
	       : S_ISREG(st.st_mode) ? "file"
				     : "other";
	snap_set_str(o, "type", type, path);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		snap_set_int(o, "major", major(st.st_rdev), path);
		snap_set_int(o, "minor", minor(st.st_rdev), path);
	}
	snap_set_strf(o, "mode", path, "%04o", (unsigned)(st.st_mode & 07777));
	snap_set_int(o, "uid", st.st_uid, path);
	snap_set_int(o, "gid", st.st_gid, path);
	if (!group_text && group_err != -ENOENT)
		snap_set_errno(o, "group", group_err, "/etc/group");
	else if (!group_text)
		snap_set_state(o, "group", FACT_ABSENT, "/etc/group", "no group database");
	else if (group_name(group_text, st.st_gid, name, sizeof(name)) == 0)
		snap_set_str(o, "group", name, "/etc/group");
	else
		snap_set_state(o, "group", FACT_ABSENT, "/etc/group", "gid not in /etc/group");
}

/* Every /dev/nvidia*, /dev/nvidia-caps/nvidia-cap*, /dev/kfd, /dev/dri/{renderD,card}*: modes.
 * dev and dri are the caller's listings of /dev and /dev/dri (NULL: not listable). */
static void probe_node_modes(struct probe_env *pe, struct snap_node *dn, char **dev, char **dri)
{
	enum { DEV, CAPS, DRI };
	static const struct {
		const char *dir, *prefix;
		unsigned list;
	} globs[] = {
		{ "/dev", "nvidia", DEV },   { "/dev/nvidia-caps", "nvidia-cap", CAPS },
		{ "/dev", "kfd", DEV },	     { "/dev/dri", "renderD", DRI },
		{ "/dev/dri", "card", DRI },
	};
	struct snap_node *arr = snap_array(dn, "nodes");
	_cleanup_free_ char *groups = NULL;
	_cleanup_strv_free_ char **caps = NULL;
	char **lists[] = { [DEV] = dev, [CAPS] = NULL, [DRI] = dri };
	int group_err = root_read_text(pe->root, "/etc/group", ROOT_CAP_TEXT, &groups);

	if (group_err < 0)
		groups = NULL;
	if (root_list_dir(pe->root, "/dev/nvidia-caps", ROOT_DIR_MAX_ENTRIES, &caps) == 0)
		lists[CAPS] = caps;
	for (size_t g = 0; g < ARRAY_SIZE(globs); g++) {
		STRV_FOREACH(n, lists[globs[g].list]) {
			_cleanup_free_ char *p = NULL;

			if (!startswith(*n, globs[g].prefix) ||
			    (streq(globs[g].prefix, "kfd") && !streq(*n, "kfd")))
				continue;
			if (asprintf(&p, "%s/%s", globs[g].dir, *n) < 0) {
				p = NULL;
				return;
			}
			add_node(pe, arr, p, groups, group_err);
		}
	}
}

static void probe_device_nodes(struct probe_env *pe, struct snap_node *drv)
{
	static const struct {
		const char *key, *path;
		bool dir;
	} fixed[] = {
		{ "nvidiactl", "/dev/nvidiactl", false },
		{ "nvidia_uvm", "/dev/nvidia-uvm", false },
		{ "nvidia_uvm_tools", "/dev/nvidia-uvm-tools", false },
		{ "nvidia_caps", "/dev/nvidia-caps", true },
		{ "kfd", "/dev/kfd", false },
	};
	struct snap_node *dn = snap_object(drv, "device_nodes");
	_cleanup_strv_free_ char **dev = NULL, **dri = NULL;
	struct snap_node *gpus, *render;

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		set_node(pe, dn, fixed[i].key, fixed[i].path, fixed[i].dir);

	/* /dev and /dev/dri are listed once, here, for probe_node_modes() too. */
	gpus = snap_array(dn, "nvidia_gpus");
	root_list_dir(pe->root, "/dev", ROOT_DIR_MAX_ENTRIES, &dev); /* dev stays NULL on error */
	STRV_FOREACH(n, dev) {
		unsigned idx;
		struct stat st;
		_cleanup_free_ char *p = NULL;

		if (!startswith(*n, "nvidia") || parse_uint(*n + 6, 10, &idx) < 0)
			continue;
		if (asprintf(&p, "/dev/%s", *n) < 0) {
			p = NULL;
			return;
		}
		if (root_stat(pe->root, p, &st) == 0 && S_ISCHR(st.st_mode))
			snap_append_str(gpus, *n, p);
	}
	render = snap_array(dn, "dri_render");
	root_list_dir(pe->root, "/dev/dri", ROOT_DIR_MAX_ENTRIES, &dri);
	STRV_FOREACH(n, dri) {
		struct stat st;
		_cleanup_free_ char *p = NULL;

		if (!startswith(*n, "renderD"))
			continue;
		if (asprintf(&p, "/dev/dri/%s", *n) < 0) {
			p = NULL;
			return;
		}
		if (root_stat(pe->root, p, &st) == 0 && S_ISCHR(st.st_mode))
			snap_append_str(render, *n, p);
	}
	probe_node_modes(pe, dn, dev, dri);
}

#define EFI_KEYS_MAX ((size_t)1 << 20) /* db with a vendor's dozens of certificates: ~50 KiB */

/* One key variable: "<name>" = [{subject, issuer, serial}], or the state of the read. The
 * first readable of `paths` (skip: its attribute bytes before the data) is taken. */
static void probe_key_var(struct probe_env *pe, struct snap_node *sb, const char *name,
			  const char *const *paths, const size_t *skip, size_t n_paths)
{
	_cleanup_free_ char *data = NULL, *why = NULL;
	struct efi_siglist l;
	struct snap_node *arr;
	const char *path = paths[0];
	size_t len = 0, i;
	int err = -ENOENT;

	for (i = 0; i < n_paths && err == -ENOENT; i++) {
		path = paths[i];
		err = root_read_file(pe->root, path, EFI_KEYS_MAX, &data, &len);
	}
	if (err < 0) {
		snap_set_errno(sb, name, err, path);
		return;
	}
	i--;
	if (len < skip[i]) {
		snap_set_malformed(sb, name, NULL, path, "shorter than the 4 attribute bytes");
		return;
	}
	err = efi_siglist_parse((const uint8_t *)data + skip[i], len - skip[i], &l, &why);
	if (err == -ENOMEM) {
		snap_set_errno(sb, name, err, path);
		return;
	}
	if (err < 0) {
		snap_set_malformed(sb, name, NULL, path, why ?: "not an EFI_SIGNATURE_LIST");
		return;
	}
	arr = snap_array(sb, name);
	for (size_t j = 0; arr && j < l.n_certs; j++) {
		struct snap_node *o = snap_append_object(arr);
		const struct efi_cert *c = &l.certs[j];

		if (!o)
			break;
		if (c->subject_cn)
			snap_set_str(o, "subject", c->subject_cn, path);
		else
			snap_set_state(o, "subject", FACT_ABSENT, path, "no commonName");
		if (c->issuer_cn)
			snap_set_str(o, "issuer", c->issuer_cn, path);
		else
			snap_set_state(o, "issuer", FACT_ABSENT, path, "no commonName");
		snap_set_str(o, "serial", c->serial, path);
	}
	efi_siglist_done(&l);
}

/* The keys Secure Boot trusts for modules besides the kernel's own: the Machine Owner Keys
 * shim mirrors into MokListRT (efivarfs; since Linux 5.12 also the mok-variables table,
 * Documentation/ABI/testing/sysfs-firmware-efi) and the firmware's db. */
static void probe_enrolled_keys(struct probe_env *pe, struct snap_node *sb)
{
	static const char *const mok[] = {
		"/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23",
		"/sys/firmware/efi/mok-variables/MokListRT",
	};
	static const size_t mok_skip[] = { 4, 0 };
	static const char *const db[] = {
		"/sys/firmware/efi/efivars/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f",
	};
	static const size_t db_skip[] = { 4 };

	probe_key_var(pe, sb, "mok_keys", mok, mok_skip, ARRAY_SIZE(mok));
	probe_key_var(pe, sb, "db_keys", db, db_skip, ARRAY_SIZE(db));
}

static void probe_secure_boot(struct probe_env *pe, struct snap_node *drv)
{
	static const char path[] =
		"/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
	struct snap_node *sb = snap_object(drv, "secure_boot");
	_cleanup_free_ char *data = NULL;
	size_t len;
	int err = root_read_file(pe->root, path, ROOT_CAP_ATTR, &data, &len);

	if (err < 0) {
		snap_set_errno(sb, "enabled", err, path);
		return;
	}
	if (len != 5) {
		snap_set_malformed(sb, "enabled", NULL, path,
				   "expected 4 attribute bytes + 1 data byte");
		return;
	}
	snap_set_bool(sb, "enabled", data[4] == 1, path);
	if (data[4] == 1)
		probe_enrolled_keys(pe, sb);
}

/* Whether a "<param>=a,b" word of the kernel command line names nouveau. */
static bool cmdline_names_nouveau(char **words, const char *const *params)
{
	STRV_FOREACH(w, words)
		for (const char *const *p = params; *p; p++) {
			_cleanup_strv_free_ char **mods = NULL;

			if (!startswith(*w, *p) || strv_split(*w + strlen(*p), ",", &mods) < 0)
				continue;
			STRV_FOREACH(m, mods)
				if (streq(*m, "nouveau"))
					return true;
		}
	return false;
}

/* The kernel command line's blacklists of nouveau: dracut's rd.driver.blacklist= (and its old
 * spelling rdblacklist=) applies inside the initramfs only (dracut.cmdline(7)); kmod's
 * modprobe.blacklist= applies wherever modprobe runs, initramfs and root file system alike
 * (modprobe(8)); the kernel's module_blacklist= refuses the module outright
 * (Documentation/admin-guide/kernel-parameters.txt). negativo17/nvidia-driver#73: nouveau bound
 * with only rd.driver.blacklist=nouveau, fixed by modprobe.blacklist=nouveau. */
static void probe_nouveau_cmdline(struct probe_env *pe, struct snap_node *nb)
{
	static const char *const initramfs[] = { "rd.driver.blacklist=", "rdblacklist=", NULL };
	static const char *const everywhere[] = { "modprobe.blacklist=", "module_blacklist=",
						  NULL };
	_cleanup_free_ char *cmdline = NULL;
	_cleanup_strv_free_ char **words = NULL;

	/* Recorded only where the command line names nouveau: elsewhere (and where it cannot
	 * be read) the modprobe.d keys say all there is. */
	if (root_read_text(pe->root, "/proc/cmdline", ROOT_CAP_TEXT, &cmdline) < 0 ||
	    strv_split(cmdline, " \t\n", &words) < 0)
		return;
	if (cmdline_names_nouveau(words, initramfs))
		snap_set_bool(nb, "cmdline_initramfs", true, "/proc/cmdline");
	if (cmdline_names_nouveau(words, everywhere))
		snap_set_bool(nb, "cmdline", true, "/proc/cmdline");
}

static void probe_nouveau_blacklist(struct probe_env *pe, struct snap_node *drv)
{
	struct snap_node *nb = snap_object(drv, "nouveau_blacklisted");
	_cleanup_strv_free_ char **paths = NULL;
	bool blacklist = false, modeset0 = false;

	if (probe_modprobe_conf_paths(pe, NULL, &paths) < 0)
		return;
	STRV_FOREACH(path, paths) {
		_cleanup_free_ char *text = NULL;
		char *state, *line;

		if (root_read_text(pe->root, *path, ROOT_CAP_TEXT, &text) < 0)
			continue;
		state = text;
		while ((line = line_next(&state))) {
			_cleanup_strv_free_ char **w = NULL;

			line[strcspn(line, "#")] = '\0';
			if (strv_split(line, " \t", &w) < 0 || !w || !w[0] || !w[1])
				continue;
			if (!blacklist && streq(w[0], "blacklist") && streq(w[1], "nouveau")) {
				blacklist = true;
				snap_set_bool(nb, "blacklist", true, *path);
			}
			if (!modeset0 && streq(w[0], "options") && streq(w[1], "nouveau"))
				for (size_t i = 2; w[i]; i++)
					if (streq(w[i], "modeset=0")) {
						modeset0 = true;
						snap_set_bool(nb, "modeset0", true, *path);
					}
		}
	}
	if (!blacklist)
		snap_set_bool(nb, "blacklist", false, "/etc/modprobe.d");
	if (!modeset0)
		snap_set_bool(nb, "modeset0", false, "/etc/modprobe.d");
	probe_nouveau_cmdline(pe, nb);
}

/* A file that may be the core module under another name (nvidia_module_file_ubuntu()'s
 * Ubuntu DKMS names among them), taken by its .modinfo name=: "nvidia" and '_' or '-', the
 * last part not one of the companions' (nvidia_384_uvm.ko, nvidia-drm.ko …). */
static bool nvidia_module_maybe(const char *name)
{
	static const char *const companions[] = { "drm", "modeset", "uvm", "peermem", "fs" };
	enum kmodule_compression c;
	const char *tail;
	size_t stem;

	if (!startswith(name, "nvidia") || (name[6] != '_' && name[6] != '-') ||
	    kmodule_compression_from_name(name, &c) < 0)
		return false;
	stem = strstr(name, ".ko") - name;
	for (tail = name + stem; tail > name && tail[-1] != '_' && tail[-1] != '-'; tail--)
		;
	for (size_t i = 0; i < ARRAY_SIZE(companions); i++)
		if (strncmp(tail, companions[i], stem - (size_t)(tail - name)) == 0 &&
		    strlen(companions[i]) == stem - (size_t)(tail - name))
			return false;
	return true;
}

static ssize_t module_pread(void *userdata, uint64_t off, void *buf, size_t n)
{
	return root_file_pread(userdata, buf, n, off);
}

/* Opens the module file at path through core/root (a symlink resolves inside the root, a FIFO
 * or device is refused unread: -EINVAL) into f, and in to read it, its compression from the
 * name: root_file_open()'s result. */
static int module_open(struct probe_env *pe, const char *path, struct root_file *f,
		       struct kmodule_input *in)
{
	const char *slash = strrchr(path, '/');
	int err;

	*in = (struct kmodule_input){ module_pread, f, 0, KMODULE_PLAIN };
	(void)kmodule_compression_from_name(slash ? slash + 1 : path, &in->compression);
	err = root_file_open(pe->root, path,
			     in->compression == KMODULE_PLAIN ? SIZE_MAX : KMODULE_MAX_INPUT, f);
	in->size = err >= 0 ? f->size : 0;
	return err;
}

/* Is the module at path named "nvidia" by its .modinfo name= field? 1, 0, or the -errno of a
 * file that could not be read (then it may be: "could not tell"). */
static int module_named_nvidia(struct probe_env *pe, const char *path)
{
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	_cleanup_free_ char *why = NULL;
	struct kmodule_input in;
	struct kmodule_info m;
	int err = module_open(pe, path, &f, &in);

	if (err < 0)
		return err == -EINVAL ? 0 : err; /* not a regular file: no module */
	err = kmodule_read(&in, &m, &why);
	if (err < 0)
		return err == -EBADMSG || err == -EFBIG ? 0 : err;
	err = m.name && streq(m.name, "nvidia");
	kmodule_info_done(&m);
	return err;
}

/* Is the file at path (its name is the last component) the core module: by its file name, or
 * (nvidia_module_maybe()) by the name its .modinfo gives? 1, 0 or -ENOMEM; one that could not
 * be read is taken (1): its facts then record why. */
static int module_is_nvidia(struct probe_env *pe, const char *path)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	int r;

	if (nvidia_module_file_named(name))
		return 1;
	if (!nvidia_module_maybe(name))
		return 0;
	r = module_named_nvidia(pe, path);
	return r == -ENOMEM ? r : r != 0;
}

/* modules.dep (depmod(8), modules.dep(5)): "path: dependencies" lines, paths relative to
 * /lib/modules/<release> (absolute for modules outside it): nvidia.ko's, or -ENOENT. */
static int module_from_dep(struct probe_env *pe, const char *base, char **ret)
{
	_cleanup_free_ char *dep = NULL, *text = NULL;
	char *state, *line;
	int err;

	if (asprintf(&dep, "%s/modules.dep", base) < 0) {
		dep = NULL;
		return -ENOMEM;
	}
	err = root_read_text(pe->root, dep, ROOT_CAP_BIG, &text);
	if (err < 0)
		return err;
	state = text;
	while ((line = line_next(&state))) {
		char *colon = strchr(line, ':'), *slash;

		if (!colon)
			continue;
		*colon = '\0';
		slash = strrchr(line, '/');
		if (!startswith(slash ? slash + 1 : line, "nvidia"))
			continue;
		if (line[0] == '/')
			*ret = strdup(line);
		else if (asprintf(ret, "%s/%s", base, line) < 0)
			*ret = NULL;
		err = *ret ? module_is_nvidia(pe, *ret) : -ENOMEM;
		if (err != 0)
			return err < 0 ? err : 0;
		free(TAKE_PTR(*ret));
	}
	return -ENOENT;
}

/* Where each distribution installs nvidia.ko, searched in depmod's default order
 * (depmod.d(5): "search updates built-in"; RHEL's weak-updates after them): DKMS
 * (updates/dkms; Debian's nvidia-current.ko), akmods and RPM Fusion's kmod-nvidia
 * (extra/nvidia), RHEL's kmod-nvidia for other kernels of the same ABI (weak-updates/nvidia,
 * symlinks into the kernel it was built for), NVIDIA's precompiled RHEL kmod packages
 * (yum-packaging-precompiled-kmod: kmod_module_path .../extra/drivers/video/nvidia, and its
 * weak-updates links), Arch (extramodules), Ubuntu's prebuilt linux-modules-nvidia-NNN
 * (kernel/nvidia-NNN), NVIDIA's .run installer (kernel/drivers/video). */
static const char *const module_dirs[] = {
	"updates/dkms",
	"updates",
	"extra/nvidia",
	"extra/drivers/video/nvidia",
	"extra",
	"weak-updates/nvidia",
	"weak-updates/drivers/video/nvidia",
	"weak-updates",
	"extramodules",
	"kernel/drivers/video",
	"kernel/drivers/gpu/drm/nvidia",
};

/* The first name in dir that module_is_nvidia() accepts: 0 (*ret its path), -ENOENT (none,
 * or no such directory), or the -errno of a directory that could not be listed. */
static int module_in_dir(struct probe_env *pe, const char *dir, char **ret)
{
	_cleanup_strv_free_ char **names = NULL;
	int r = root_list_dir(pe->root, dir, ROOT_DIR_MAX_ENTRIES, &names);

	if (r == -ENOTDIR)
		return -ENOENT;
	if (r < 0)
		return r;
	STRV_FOREACH(n, names) {
		if (!startswith(*n, "nvidia"))
			continue;
		if (asprintf(ret, "%s/%s", dir, *n) < 0) {
			*ret = NULL;
			return -ENOMEM;
		}
		r = module_is_nvidia(pe, *ret);
		if (r != 0)
			return r < 0 ? r : 0;
		free(TAKE_PTR(*ret));
	}
	return -ENOENT;
}

/* Looks for the module in dir: as module_in_dir(), and the -errno of a directory that could not
 * be listed is kept with *ret_dir (its path). */
static int module_try_dir(struct probe_env *pe, char *dir, char **ret, char **ret_dir)
{
	int err = module_in_dir(pe, dir, ret);

	if (err < 0 && err != -ENOENT && err != -ENOMEM && !*ret_dir)
		*ret_dir = strdup(dir);
	return err;
}

/* 0 with *ret, -ENOENT, or the -errno of the first directory in depmod's order that could not
 * be listed (*ret_dir): the module there would win, so nothing after it is taken instead. */
static int module_search(struct probe_env *pe, const char *base, char **ret, char **ret_dir)
{
	_cleanup_strv_free_ char **kernel = NULL;
	_cleanup_free_ char *kdir = NULL;
	int err;

	for (size_t d = 0; d < ARRAY_SIZE(module_dirs); d++) {
		_cleanup_free_ char *dir = NULL;

		if (asprintf(&dir, "%s/%s", base, module_dirs[d]) < 0) {
			dir = NULL;
			return -ENOMEM;
		}
		err = module_try_dir(pe, dir, ret, ret_dir);
		if (err != -ENOENT)
			return err;
	}
	/* Ubuntu: kernel/nvidia-535/, kernel/nvidia-550-server/ … */
	if (asprintf(&kdir, "%s/kernel", base) < 0) {
		kdir = NULL;
		return -ENOMEM;
	}
	err = root_list_dir(pe->root, kdir, ROOT_DIR_MAX_ENTRIES, &kernel);
	if (err == -ENOENT || err == -ENOTDIR)
		return -ENOENT;
	if (err < 0) {
		if (err != -ENOMEM)
			*ret_dir = TAKE_PTR(kdir);
		return err;
	}
	STRV_FOREACH(n, kernel) {
		_cleanup_free_ char *dir = NULL;

		if (!startswith(*n, "nvidia-"))
			continue;
		if (asprintf(&dir, "%s/%s", kdir, *n) < 0) {
			dir = NULL;
			return -ENOMEM;
		}
		err = module_try_dir(pe, dir, ret, ret_dir);
		if (err != -ENOENT)
			return err;
	}
	return -ENOENT;
}

/* The module facts that come from reading the file (module_facts()). */
static const char *const module_keys[] = { "version", "vermagic", "signature", "signer" };

/* The facts read from the module's bytes (formats/kmodule.h); the file is opened through
 * core/root, so a symlink resolves inside the root and a FIFO or device is refused unread. */
static void module_facts(struct probe_env *pe, struct snap_node *mf, const char *path)
{
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	_cleanup_free_ char *why = NULL;
	struct kmodule_input in;
	struct kmodule_info m;
	const char *slash = strrchr(path, '/');
	int err = module_open(pe, path, &f, &in);

	snap_set_str(mf, "compression", kmodule_compression_name(in.compression), path);
	if (err == -EINVAL)
		why = strdup("not a regular file");
	else if (err == -EFBIG && asprintf(&why, "compressed file larger than %" PRIu64 " MiB",
					   KMODULE_MAX_INPUT >> 20) < 0)
		why = NULL;
	else if (err >= 0)
		err = kmodule_read(&in, &m, &why);
	if (err < 0) {
		/* too large (-EFBIG) or malformed: the parser's reason; else the errno */
		for (size_t i = 0; i < ARRAY_SIZE(module_keys); i++)
			if (err == -EBADMSG || err == -EINVAL || err == -EFBIG)
				snap_set_malformed(mf, module_keys[i], NULL, path,
						   why ?: "malformed");
			else
				snap_set_errno(mf, module_keys[i], err, path);
		return;
	}
	/* a file taken by its .modinfo name (nvidia_module_maybe()): that name said */
	if (m.name && !nvidia_module_file_named(slash ? slash + 1 : path))
		snap_set_str(mf, "name", m.name, path);
	if (m.version)
		snap_set_str(mf, "version", m.version, path);
	else
		snap_set_state(mf, "version", FACT_ABSENT, path,
			       m.has_modinfo ? "no version= in .modinfo" : "no .modinfo section");
	if (m.vermagic)
		snap_set_str(mf, "vermagic", m.vermagic, path);
	else
		snap_set_state(mf, "vermagic", FACT_ABSENT, path, "no vermagic= in .modinfo");
	if (!m.sig.present) {
		snap_set_state(mf, "signature", FACT_ABSENT, path, "module is not signed");
		snap_set_state(mf, "signer", FACT_ABSENT, path, "module is not signed");
	} else if (m.sig_error) {
		snap_set_malformed(mf, "signature", m.sig.id_type, path, m.sig_error);
		snap_set_malformed(mf, "signer", NULL, path, m.sig_error);
	} else {
		snap_set_str(mf, "signature", m.sig.id_type, path);
		if (m.sig.signer)
			snap_set_str(mf, "signer", m.sig.signer, path);
		else
			snap_set_state(mf, "signer", FACT_ABSENT, path,
				       "the signature names a key id, not an issuer");
		if (m.sig.key_id)
			snap_set_str(mf, "sig_key", m.sig.key_id, path);
		if (m.sig.hash_algo)
			snap_set_str(mf, "sig_hashalgo", m.sig.hash_algo, path);
	}
	kmodule_info_done(&m);
}

/*
 * The .run installer's mark: nvidia-installer installs /usr/bin/nvidia-uninstall beside the
 * driver it installs (NVIDIA's Linux driver README, "Installing the NVIDIA Driver": the
 * uninstaller it leaves). Such a driver's nvidia.ko is built for the kernel the installer ran
 * on only, unless it was run with --dkms: after a kernel update the distribution's packages
 * have no module of it to install.
 */
static void probe_runfile(struct probe_env *pe, struct snap_node *nv)
{
	static const char path[] = "/usr/bin/nvidia-uninstall";
	struct stat st;
	int err = root_stat(pe->root, path, &st);

	if (err < 0)
		snap_set_errno(nv, "runfile_uninstaller", err, path);
	else
		snap_set_bool(nv, "runfile_uninstaller", true, path);
}

/* The line after `head` in `text` (its blank lines skipped), copied; NULL when missing. */
static char *line_after(const char *text, const char *head)
{
	const char *p = strstr(text, head);
	size_t n;

	if (!p)
		return NULL;
	p += strlen(head);
	p += strspn(p, "\n");
	n = strcspn(p, "\n");
	return n ? strndup(p, n) : NULL;
}

/*
 * A DKMS build of the driver for the running kernel that its compiler check stopped: the
 * driver refuses to build with a compiler other than the kernel's ("Compiler version check
 * failed", make.log of /var/lib/dkms/nvidia/<version>/build, headed "DKMS make.log for
 * nvidia-<version> for kernel <release> (<arch>)"), as after a distribution updated gcc
 * before its kernel (clearlinux/distribution#1970, #1133). Recorded only when found: the
 * missing module's why, not a fact every machine has.
 */
static void probe_dkms_cc_check(struct probe_env *pe, struct snap_node *nv, const char *release)
{
	static const char dir[] = "/var/lib/dkms/nvidia";
	_cleanup_strv_free_ char **versions = NULL;
	_cleanup_free_ char *want = NULL;

	int r = root_list_dir(pe->root, dir, 64, &versions);

	/* Not there: no DKMS build to tell of. Not listable: which build stopped, and why, is
	 * unknown, and the snapshot says so. */
	if (r < 0) {
		if (r != -ENOENT && r != -ENOTDIR && r != -ENOMEM)
			snap_set_errno(snap_object(nv, "dkms_cc_check"), "make_log", r, dir);
		return;
	}
	if (asprintf(&want, " for kernel %s (", release) < 0)
		return;
	for (char **v = versions; *v; v++) {
		_cleanup_free_ char *path = NULL, *log = NULL, *kernel_cc = NULL, *cc = NULL;
		struct snap_node *b;
		const char *nl;

		if (asprintf(&path, "%s/%s/build/make.log", dir, *v) < 0)
			return;
		r = root_read_text(pe->root, path, 256 * 1024, &log);
		if (r < 0) {
			if (r != -ENOENT && r != -ENOTDIR && r != -ENOMEM) {
				snap_set_errno(snap_object(nv, "dkms_cc_check"), "make_log", r,
					       path);
				return;
			}
			continue;
		}
		nl = strchr(log, '\n');
		if (!strstr(log, want) || (nl && strstr(log, want) > nl) ||
		    !strstr(log, "Compiler version check failed"))
			continue;
		kernel_cc = line_after(log, "compile the kernel:\n");
		cc = line_after(log, "does not match the compiler used here:\n");
		b = snap_object(nv, "dkms_cc_check");
		snap_set_str(b, "make_log", path, path);
		if (kernel_cc)
			snap_set_str(b, "kernel_compiler", kernel_cc, path);
		if (cc)
			snap_set_str(b, "compiler", cc, path);
		return;
	}
}

/*
 * The running kernel's module directory, where modprobe looks: kmod's module directories in
 * its order. NixOS builds kmod with --with-modulesdirs naming the system generations' trees
 * before /lib/modules, which NixOS does not have (nixpkgs
 * pkgs/os-specific/linux/kmod/default.nix: /run/current-system/kernel-modules/lib/modules,
 * /run/booted-system/kernel-modules/lib/modules); elsewhere those do not exist and the
 * directory is /lib/modules/<release>, there or not.
 */
static int module_base(struct probe_env *pe, const char *release, char **ret)
{
	static const char *const dirs[] = { "/run/current-system/kernel-modules/lib/modules",
					    "/run/booted-system/kernel-modules/lib/modules" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		_cleanup_free_ char *dir = NULL;
		int r;

		if (asprintf(&dir, "%s/%s", dirs[i], release) < 0)
			return -ENOMEM;
		r = root_test(pe->root, dir, S_IFDIR);
		if (r < 0 && r != -EACCES)
			return r;
		if (r > 0) {
			*ret = TAKE_PTR(dir);
			return 0;
		}
	}
	if (asprintf(ret, "/lib/modules/%s", release) < 0) {
		*ret = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void probe_module_file(struct probe_env *pe, struct snap_node *nv)
{
	struct snap_node *mf = snap_object(nv, "module_file");
	_cleanup_free_ char *release = NULL, *base = NULL, *path = NULL, *bad_dir = NULL;
	const char *found_by = "modules.dep";
	int err = host_kernel_release(pe->root, &release);

	if (err < 0) {
		snap_set_errno(mf, "path", err, "/proc/sys/kernel/osrelease");
		for (size_t i = 0; i < ARRAY_SIZE(module_keys); i++)
			snap_set_errno(mf, module_keys[i], err, "/proc/sys/kernel/osrelease");
		return;
	}
	err = module_base(pe, release, &base);
	if (err < 0) {
		snap_set_errno(mf, "path", err, "/lib/modules");
		for (size_t i = 0; i < ARRAY_SIZE(module_keys); i++)
			snap_set_errno(mf, module_keys[i], err, "/lib/modules");
		return;
	}
	err = module_from_dep(pe, base, &path);
	if (err == -ENOMEM)
		return;
	if (err < 0) {
		found_by = "search";
		err = module_search(pe, base, &path, &bad_dir);
	}
	if (err == -ENOMEM)
		return;
	if (err < 0 && bad_dir) {
		/* A directory depmod searches could not be listed: the module may be there. */
		snap_set_errno(mf, "path", err, bad_dir);
		for (size_t i = 0; i < ARRAY_SIZE(module_keys); i++)
			snap_set_errno(mf, module_keys[i], err, bad_dir);
		return;
	}
	if (err < 0) {
		snap_set_state(mf, "path", FACT_ABSENT, base,
			       "no nvidia.ko* (nor Debian's nvidia-current, nvidia-legacy-NNNxx, "
			       "nvidia-tesla-NNN) in modules.dep nor under updates/dkms, updates, "
			       "extra/nvidia, extra/drivers/video/nvidia, extra, weak-updates, "
			       "extramodules, kernel/nvidia-*, kernel/drivers/video");
		for (size_t i = 0; i < ARRAY_SIZE(module_keys); i++)
			snap_set_state(mf, module_keys[i], FACT_ABSENT, base, "no module file");
		probe_dkms_cc_check(pe, nv, release);
		return;
	}
	snap_set_str(mf, "path", path, path);
	snap_set_str(mf, "found_by", found_by, base);
	module_facts(pe, mf, path);
}

/* Where no /sys/module/amdgpu/version tells the amdgpu loaded (the kernel's own has none), the
 * taint flags /proc/modules prints after it still tell an out-of-tree build ("(OE)": O is
 * TAINT_OOT_MODULE, Documentation/admin-guide/tainted-kernels.rst), such as rock-dkms's
 * (ROCm/rocminfo#40): recorded only then, as driver.amdgpu.out_of_tree = true. */
static void probe_amdgpu_out_of_tree(struct probe_env *pe, struct snap_node *amd)
{
	static const char path[] = "/proc/modules";
	_cleanup_free_ char *text = NULL;
	char *state, *line;

	if (snap_state(snap_child(amd, "module_version")) != FACT_ABSENT ||
	    root_read_text(pe->root, path, ROOT_CAP_TEXT, &text) < 0)
		return;
	state = text;
	while ((line = line_next(&state))) {
		const char *flags;

		if (!startswith(line, "amdgpu "))
			continue;
		flags = strrchr(line, '(');
		if (flags && strchr(flags, ')') && strchr(flags, 'O'))
			snap_set_bool(amd, "out_of_tree", true, path);
		return;
	}
}

/* The version of the amdgpu-dkms package ("1:6.8.5.60200-2009582.24.04": the module's kernel
 * base 6.8.5, then the ROCm release it came with, 60200 = 6.2.0), looked up where a versioned
 * amdgpu is loaded: the kernel's own amdgpu has no /sys/module/amdgpu/version. */
static void probe_amdgpu_dkms(struct probe_env *pe, struct snap_node *amd)
{
	char ver[128];
	int r;

	if (!snap_present(snap_child(amd, "module_version")))
		return;
	r = probe_dpkg_version(pe, "amdgpu-dkms", ver, sizeof(ver));
	if (r == 0)
		snap_set_str(amd, "dkms_package", ver, PROBE_DPKG_STATUS);
	else if (r == 1)
		snap_set_state(amd, "dkms_package", FACT_ABSENT, PROBE_DPKG_STATUS,
			       "amdgpu-dkms is not installed");
	else
		snap_set_errno(amd, "dkms_package", r, PROBE_DPKG_STATUS);
}

/* The NVSwitches the nvidia-nvswitch driver has taken: one directory per switch, named by its
 * PCI address, under /proc/driver/nvidia-nvswitch/devices (open-gpu-kernel-modules
 * kernel-open/nvidia/procfs_nvswitch.c). Recorded only where that directory exists. */
static void probe_nvswitch_devices(struct probe_env *pe, struct snap_node *nv)
{
	static const char dir[] = "/proc/driver/nvidia-nvswitch/devices";
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *arr;
	int err = root_list_dir(pe->root, dir, ROOT_DIR_MAX_ENTRIES, &names);

	if (err == -ENOENT)
		return;
	if (err < 0) {
		snap_set_errno(nv, "nvswitch_devices", err, dir);
		return;
	}
	arr = snap_array(nv, "nvswitch_devices");
	STRV_FOREACH(n, names)
		snap_append_str(arr, *n, dir);
}

int probe_nvidia_driver(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *drv = snap_object(snapshot_root(s), "driver");
	struct snap_node *nv = snap_object(drv, "nvidia");
	struct snap_node *amd = snap_object(drv, "amdgpu");

	probe_modules(pe, drv);
	set_attr(pe, nv, "module_version", "/sys/module/nvidia/version");
	probe_nvidia_proc_version(pe, nv);
	probe_nvidia_gpus(pe, nv);
	probe_nvswitch_devices(pe, nv);
	probe_module_file(pe, nv);
	probe_runfile(pe, nv);
	probe_device_nodes(pe, drv);
	probe_secure_boot(pe, drv);
	probe_nouveau_blacklist(pe, drv);
	probe_module_blacklist(pe, drv);
	set_attr(pe, amd, "module_version", "/sys/module/amdgpu/version");
	probe_amdgpu_out_of_tree(pe, amd);
	probe_amdgpu_dkms(pe, amd);
	probe_amd_kfd(pe, amd);
	return snapshot_error(s);
}
