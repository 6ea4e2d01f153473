// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.nvml-version-mismatch: the three versions of one NVIDIA driver that must agree, the
 * loaded kernel module (driver.nvidia.module_version, proc_version), the nvidia.ko on disk
 * for the running kernel (driver.nvidia.module_file.version) and the user-space libraries
 * ld.so resolves (driver.userspace.libnvidia_ml / libcuda), with the vendor libraries' own
 * verdicts (nvmlInit NVML_ERROR_LIB_RM_VERSION_MISMATCH, cuInit
 * CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)) and the kernel's "NVRM: API mismatch" log lines
 * (driver.kernel_log.api_mismatch). Which of them disagree decides the fix: a reboot, the
 * module rebuilt for the running kernel, or the user space reinstalled.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"

/* Which of the three versions (loaded module, nvidia.ko on disk, user space) disagree. */
enum mismatch {
	MISMATCH_SIGNALS,      /* only NVML/CUDA/kernel-log errors say so */
	MISMATCH_REBOOT,       /* disk = user space != loaded: a reboot loads the new module */
	MISMATCH_USER_OLDER,   /* user space older than the loaded module */
	MISMATCH_DISK_OLD,     /* disk = loaded != user space: the new module was not built */
	MISMATCH_THREE,	       /* all three differ */
	MISMATCH_DISK_UNKNOWN, /* the module on disk could not be read */
};

/* libnvidia-ml.so.1 is the ld.so cache's, in a system library directory, and NVIDIA's .run
 * left its uninstaller: the user space the loader finds is the one the .run installed. */
static bool runfile_user_space(const struct snap_node *root)
{
	static const char *const dirs[] = { "/usr/lib/x86_64-linux-gnu/", "/usr/lib64/",
					    "/usr/lib/aarch64-linux-gnu/", "/usr/lib/" };
	const struct snap_node *ml = snap_get(root, "driver.userspace.libnvidia_ml");
	const char *p = snap_get_str(ml, "resolved_path") ?: snap_get_str(ml, "path");

	if (!snap_get_bool_default(root, "driver.nvidia.runfile_uninstaller", false) || !p ||
	    !streq(snap_get_str(ml, "found_via") ?: "", "ld.so.cache"))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (startswith(p, dirs[i]) && !strchr(p + strlen(dirs[i]), '/'))
			return true;
	return false;
}

/* A library's version as the rule compares it: the probe's (userspace_lib_version()), or one
 * that pasted text gave without saying where the library is (XLA's "libcuda reported version
 * is: 470.57.2", the libcuda.so its process loaded; `gpuenv explain`): the probe always looks
 * at the path, so a path not looked at is the text's. A stub or a compat copy says so in its
 * path, which such a text does not give. */
static const char *lib_version(const struct snap_node *lib, bool *ret_pathless)
{
	const char *v = userspace_lib_version(lib);

	*ret_pathless = false;
	if (v || !lib || snap_state(snap_child(lib, "path")) != FACT_UNPROBED)
		return v;
	v = snap_get_str(lib, "version");
	*ret_pathless = v != NULL;
	return v;
}

/* The versions on both sides and the vendor libraries' own verdicts. */
static void mismatch_evidence(struct finding *f, const struct snap_node *root,
			      const char *const *libs, size_t n_libs, bool rm_mismatch,
			      bool both_versions)
{
	const struct snap_node *mod = snap_get(root, "driver.nvidia.module_version");
	const struct snap_node *proc = snap_get(root, "driver.nvidia.proc_version");
	const struct snap_node *cuda_init = snap_get(root, "driver.cuda.init");

	finding_fact(f, "driver.nvidia.module_version", mod);
	if (both_versions || snap_state(proc) != FACT_ABSENT)
		finding_fact(f, "driver.nvidia.proc_version", proc);
	for (size_t i = 0; i < n_libs; i++) {
		char name[96];

		snprintf(name, sizeof(name), "%s.version", libs[i]);
		if (snap_present(snap_get(root, name)))
			finding_fact(f, name, snap_get(root, name));
	}
	if (snap_present(snap_get(root, "driver.nvml.nvml_version")))
		finding_fact(f, "driver.nvml.nvml_version",
			     snap_get(root, "driver.nvml.nvml_version"));
	if (rm_mismatch)
		finding_fact(f, "driver.nvml.init", snap_get(root, "driver.nvml.init"));
	if (error_names(cuda_init, "(803)"))
		finding_fact(f, "driver.cuda.init", cuda_init);
}

RULE_CHECK(check_nvml_version_mismatch)
{
	static const char *const libs[] = { "driver.userspace.libnvidia_ml",
					    "driver.userspace.libcuda" };
	const struct snap_node *nvml_init = snap_get(root, "driver.nvml.init");
	const struct snap_node *cuda_init = snap_get(root, "driver.cuda.init");
	const struct snap_node *am = snap_get(root, "driver.kernel_log.api_mismatch");
	const struct snap_node *libcuda = snap_get(root, "driver.userspace.libcuda");
	const struct snap_node *fact;
	const char *ver, *user = NULL, *user_lib = NULL, *user_dir = NULL;
	const char *nvml_ver = snap_get_str(root, "driver.nvml.nvml_version");
	const struct snap_node *disk_fact = snap_get(root, "driver.nvidia.module_file.version");
	const char *disk;
	enum mismatch why = MISMATCH_SIGNALS;
	bool rm_mismatch, cu_mismatch, log_mismatch = false, container = in_container(root);
	char nvml_user[64] = "", on_disk[96] = "", pkg_note[600] = "";
	const struct snap_node *pkg = NULL;
	size_t pkg_i = 0;
	struct finding *f;
	int64_t count = 0;

	rm_mismatch = error_names(nvml_init, "LIB_RM_VERSION_MISMATCH");
	cu_mismatch = error_names(cuda_init, "(803)") &&
		      !snap_get_bool_default(libcuda, "in_compat_dir", false);
	/* NVML and libcuda compare themselves with the loaded module: their answer holds even
	 * where its version file cannot be read. */
	if (nvidia_driver(root, &ver, &fact) == DRIVER_UNKNOWN && (rm_mismatch || cu_mismatch)) {
		char state[256];

		fact_describe(fact, state, sizeof(state));
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "the user-space driver does not match the loaded kernel module "
				 "(its version could not be read: %s): %s",
				 state,
				 rm_mismatch ? "nvmlInit answers NVML_ERROR_LIB_RM_VERSION_MISMATCH"
					     : "cuInit answers CUDA_ERROR_SYSTEM_DRIVER_MISMATCH "
					       "(803)");
		mismatch_evidence(f, root, libs, ARRAY_SIZE(libs), rm_mismatch, false);
		finding_rule_fix(f);
		finding_rule_verify(f);
		return;
	}
	if (!rule_nvidia_driver(c, root, "the NVIDIA kernel module version", &ver, NULL))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(libs); i++) {
		const struct snap_node *lib = snap_get(root, libs[i]);
		bool pathless;
		const char *v = lib_version(lib, &pathless);

		/* A forward-compatibility libcuda is runtime.cuda-compat-unsupported's. */
		if (v && libcuda_is_compat(root, lib, ver, NULL))
			continue;
		if (v && version_cmp_str(v, ver) != 0) {
			user = v;
			user_lib = pathless ? "the process's libcuda, its path not shown"
					    : snap_get_str(lib, "resolved_path") ?:
						      snap_get_str(lib, "path");
			user_dir = pathless ? NULL : snap_source(snap_child(lib, "path"));
			break;
		}
	}
	/* nvmlSystemGetNVMLVersion: "<CUDA major>.<driver version>" */
	if (nvml_ver && strchr(nvml_ver, '.'))
		snprintf(nvml_user, sizeof(nvml_user), "%s", strchr(nvml_ver, '.') + 1);
	if (snap_get_int(am, "count", &count) && count > 0 &&
	    version_cmp_str(snap_get_str(am, "kernel_version") ?: "", ver) == 0 &&
	    version_cmp_str(snap_get_str(am, "client_version") ?: "", ver) != 0)
		log_mismatch = true;
	if (!user && !rm_mismatch && !cu_mismatch && !log_mismatch)
		return;
	if (!user && nvml_user[0] && version_cmp_str(nvml_user, ver) != 0) {
		user = nvml_user;
		user_lib = snap_get_str(root, "driver.nvml.library");
	}
	if (!user && log_mismatch) {
		user = snap_get_str(am, "client_version");
		user_lib = "the client's, as the kernel log's NVRM API mismatch reports it";
	}
	disk = snap_present(disk_fact) ? snap_str(disk_fact) : NULL;
	/* The package manager's log: which package put this user space in place, and when. */
	if (user && !container && (pkg = pkg_event_for(root, user, &pkg_i))) {
		char what[512];

		pkg_event_describe(pkg, what, sizeof(what));
		snprintf(pkg_note, sizeof(pkg_note), "; %s", what);
	}
	if (container && user && user_dir) {
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"in the container ld.so loads the %s driver libraries (%s%s%s), but the "
			"host's kernel module is %s: driver libraries the image carries, %s than "
			"the host's, shadow the ones the NVIDIA runtime injects (\"Failed to "
			"initialize NVML: Driver/library version mismatch\")",
			user, user_lib ?: "?",
			user_lib && startswith(user_lib, user_dir) ? "" : ", through ",
			user_lib && startswith(user_lib, user_dir) ? "" : user_dir, ver,
			version_cmp_str(user, ver) > 0 ? "newer" : "older");
	} else if (container && user) {
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"the host's kernel module is %s, but the user-space driver in the "
			"container is %s (%s): \"Failed to initialize NVML: Driver/library "
			"version mismatch\"",
			ver, user, user_lib ?: "?");
	} else if (user && disk && version_cmp_str(disk, user) == 0) {
		/* The only case a reboot fixes: the module on disk is the libraries' version. */
		why = MISMATCH_REBOOT;
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"kernel module %s is loaded, but the user-space driver is %s (%s%s) "
			"and so is the nvidia.ko on disk: \"Failed to initialize NVML: "
			"Driver/library version mismatch\" until the module is reloaded "
			"(a reboot loads the %s module)",
			ver, user, user_lib ?: "?", pkg_note, disk);
	} else if (user && version_cmp_str(user, ver) < 0) {
		why = MISMATCH_USER_OLDER;
		if (disk)
			snprintf(on_disk, sizeof(on_disk), " (on disk: %s)", disk);
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"the user-space driver %s (%s%s) is older than the loaded kernel "
			"module %s%s: a reboot does not fix this; the libraries of an older "
			"driver release are installed or found first (a leftover copy, a "
			"half-done downgrade, or user space and module installed from "
			"different releases)",
			user, user_lib ?: "?", pkg_note, ver, on_disk);
	} else if (user && disk && version_cmp_str(disk, ver) == 0) {
		why = MISMATCH_DISK_OLD;
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"the user-space driver is %s (%s%s) but the nvidia.ko on disk for the "
			"running kernel is still %s, the loaded one: a reboot loads %s "
			"again; the new kernel module was not built or installed for this "
			"kernel",
			user, user_lib ?: "?", pkg_note, disk, disk);
	} else if (user && disk) {
		why = MISMATCH_THREE;
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "three driver versions: kernel module %s loaded, %s on disk, "
				 "user-space driver %s (%s%s): a reboot would load %s, which still "
				 "does not match the libraries",
				 ver, disk, user, user_lib ?: "?", pkg_note, disk);
	} else if (user) {
		char state[256];

		why = MISMATCH_DISK_UNKNOWN;
		fact_describe(disk_fact, state, sizeof(state));
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"kernel module %s is loaded, but the user-space driver is %s (%s%s): "
			"\"Failed to initialize NVML: Driver/library version mismatch\"; a "
			"reboot helps only if the nvidia.ko on disk is %s (its version is "
			"not known: %s)",
			ver, user, user_lib ?: "?", pkg_note, user,
			state[0] ? state : "not probed");
	} else {
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"kernel module %s is loaded and the user-space driver does not match "
			"it: %s",
			ver,
			rm_mismatch ? "nvmlInit answers NVML_ERROR_LIB_RM_VERSION_MISMATCH"
				    : "cuInit answers CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)");
	}
	mismatch_evidence(f, root, libs, ARRAY_SIZE(libs), rm_mismatch, true);
	pkg_event_evidence(f, pkg, pkg_i);
	if (log_mismatch) {
		finding_fact(f, "driver.kernel_log.api_mismatch.client_version",
			     snap_child(am, "client_version"));
		finding_fact(f, "driver.kernel_log.api_mismatch.count", snap_child(am, "count"));
	}
	if (container) {
		const struct snap_node *inj = snap_get(root, "container.injected_libraries");

		for (size_t i = 0; i < snap_count(inj); i++) {
			char name[96];

			snprintf(name, sizeof(name), "container.injected_libraries.%zu.version", i);
			finding_fact(f, name, snap_child(snap_at(inj, i), "version"));
		}
		finding_fact(f, "environment.LD_LIBRARY_PATH",
			     snap_get(root, "environment.LD_LIBRARY_PATH"));
		if (user_dir && streq(user_dir, "/etc/ld.so.cache") && user_lib &&
		    strrchr(user_lib, '/')) {
			/* Found through the cache: ldconfig, which the toolkit runs at container
			 * start, linked the SONAME to the image's file (the newest version wins;
			 * NVIDIA/libnvidia-container#266). */
			const char *base = strrchr(user_lib, '/');

			finding_fix(f,
				    "rm %.*s/lib*.so.%s && ldconfig   # the image's own driver "
				    "libraries (%s and its kind): the runtime mounts the host's %s",
				    (int)(base - user_lib), user_lib, user, base + 1, ver);
		} else if (user_dir) {
			finding_fix(
				f,
				"# drop %s from LD_LIBRARY_PATH, or delete the driver libraries "
				"the image carries there (libcuda.so*, libnvidia-*.so*)",
				user_dir);
		}
		finding_fix(f, "# never COPY driver libraries into an image: the NVIDIA Container "
			       "Toolkit injects the host's own at start");
		finding_verify(f, "ldconfig -p | grep -E 'libcuda.so.1|libnvidia-ml.so.1'");
		finding_verify(f, "cat /proc/driver/nvidia/version   # the host's kernel module");
		finding_verify(f, "nvidia-smi");
		return;
	}
	finding_fact(f, "driver.nvidia.module_file.version", disk_fact);
	switch (why) {
	case MISMATCH_USER_OLDER:
		/* The older libraries are the system's own, those the ld.so cache lists, and
		 * NVIDIA's .run installed a driver here: they are that .run's user space, not a
		 * leftover copy; removing them leaves no NVML at all. The module came from
		 * elsewhere (a .run with --no-kernel-modules beside modules built from source:
		 * tinygrad/open-gpu-kernel-modules#47, 570.124.04 user space, 570.124.06 P2P
		 * module; the answer: nvidia-uninstall, then the 570.124.06 user space). */
		if (runfile_user_space(root)) {
			finding_fix(f,
				    "sudo nvidia-uninstall   # the .run's %s user space (NVIDIA's "
				    "uninstaller is here)",
				    user);
			finding_fix(
				f,
				"sudo sh NVIDIA-Linux-x86_64-%s.run --no-kernel-modules   # the "
				"user space of the loaded module's version, keeping the module",
				ver);
			break;
		}
		finding_fix(f, "ldconfig -p | grep -E 'libcuda.so.1|libnvidia-ml.so.1'   # which "
			       "copies the loader finds, in order");
		finding_fix(f,
			    "# remove the older copy%s%s, or install the user-space driver of "
			    "version %s, the loaded module's (the same packages or .run as the "
			    "module)",
			    user_lib ? " " : "", user_lib ?: "", ver);
		break;
	case MISMATCH_DISK_OLD:
	case MISMATCH_THREE:
		distro_fix(f, root, FIX_BUILD_MODULE, user);
		finding_fix(f, "sudo reboot   # once the module on disk is %s", user);
		finding_verify(f, "modinfo -F version nvidia   # must print %s", user);
		break;
	case MISMATCH_DISK_UNKNOWN:
		finding_fix(f,
			    "modinfo -F version nvidia   # a reboot helps only if this prints %s",
			    user);
		finding_rule_fix(f);
		break;
	default:
		finding_rule_fix(f);
	}
	/* The libraries where this machine has them (/usr/lib64 on RHEL, Fedora, SUSE), not
	 * Debian's multiarch directory (stackhpc/ansible-slurm-appliance#287, Rocky 8). */
	finding_verify(f, "cat /proc/driver/nvidia/version");
	if (user_lib && user_lib[0] == '/' && strrchr(user_lib, '/') != user_lib)
		finding_verify(f, "ls %.*s/libnvidia-ml.so.*",
			       (int)(strrchr(user_lib, '/') - user_lib), user_lib);
	else
		finding_verify(f, "ldconfig -p | grep libnvidia-ml.so.1");
	finding_verify(f, "nvidia-smi");
}
