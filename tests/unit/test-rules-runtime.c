// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the rules of the runtime layer (src/rules/rules-table-runtime.inc): every runtime.*
 * rule fires on a snapshot built in C that shows its problem (positive) and stays quiet on the same
 * snapshot with the problem fixed (negative); unreadable inputs give "skipped" records, never
 * silence. The builders and assertions: rules-test-util.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "locale-fx.h"
#include "rules-test-util.h"

static void test_no_driver_for_toolkit(void **state)
{
	struct gpuenv_snapshot *s = base();

	NO(s, "runtime.no-driver-for-toolkit");
	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-13.0", "13.0.96");
	YES(s, "runtime.no-driver-for-toolkit", GPUENV_SEVERITY_ERROR, ">= 580.65.06");
	driver_loaded(s, "580.95.05");
	NO(s, "runtime.no-driver-for-toolkit");
	snapshot_unref(s);
}

/* WSL2 and containers: the driver is another system's. No module and no /proc/driver/nvidia
 * there is normal, and "install a driver" would break WSL2 (NVIDIA's CUDA on WSL guide). */
static void test_no_driver_elsewhere(void **state)
{
	struct gpuenv_snapshot *s = base();

	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.1", "12.1.1");
	YES(s, "runtime.no-driver-for-toolkit", GPUENV_SEVERITY_ERROR, "no NVIDIA kernel driver");
	snap_set_str(node(s, "host"), "kernel_release", "5.15.167.4-microsoft-standard-WSL2",
		     "/proc/sys/kernel/osrelease");
	NO(s, "runtime.no-driver-for-toolkit");
	/* the driver version cannot be read there: rules that need it say so */
	SKIPPED(s, "runtime.toolkit-needs-newer-driver");
	snap_set_str(node(s, "host"), "kernel_release", "6.8.0-45-generic", "x");
	snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", true, "/dev/dxg");
	NO(s, "runtime.no-driver-for-toolkit");
	snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", false, "/dev/dxg");
	YES(s, "runtime.no-driver-for-toolkit", GPUENV_SEVERITY_ERROR, "no NVIDIA kernel driver");
	/* in a container the runtime gave the GPU, the driver is the host's; in one it did not
	 * give it, there is no driver to use */
	snap_set_str(node(s, "container"), "dockerenv", "", "/.dockerenv");
	YES(s, "runtime.no-driver-for-toolkit", GPUENV_SEVERITY_ERROR, "no NVIDIA kernel driver");
	snap_set_str(snap_object(node(s, "container"), "requested"), "NVIDIA_VISIBLE_DEVICES",
		     "all", "environment");
	NO(s, "runtime.no-driver-for-toolkit");
	snapshot_unref(s);
}

static void test_toolkit_needs_newer_driver(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *tk;

	driver_loaded(s, "535.183.01");
	tk = toolkit(s, "/usr/local/cuda-12.2", "/usr/local/cuda-12.2", "12.2.0");
	NO(s, "runtime.toolkit-needs-newer-driver");
	/* 12.4 on R535: minor-version compatibility (>= 525.60.13, < 580). */
	snap_set_str(tk, "version", "12.4.1", "x");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_WARNING,
	    "minor-version compatibility");
	/* 13.0 on R535: no rescue across majors. */
	snap_set_str(tk, "version", "13.0.0", "x");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_ERROR, "580.65.06");
	/* 12.4 on R470 (below the 12.x floor). */
	snap_set_str(tk, "version", "12.4.1", "x");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_ERROR, "550.54.15");
	/* 13.2 on R580: through the 13.x minor-version compatibility floor, which
	 * cuda_driver_min.tsv marks unconfirmed; the message says so. */
	snap_set_str(tk, "version", "13.2.0", "x");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "580.95.05", "x");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_WARNING,
	    "(CUDA 13.x on >= 580, unconfirmed)");
	snapshot_unref(s);
}

/* A paste from Windows: its mark, a toolkit's nvcc --version and the Windows driver's version
 * (nvidia-smi's, or read from the WDDM form when wddm is given; NULL: none), nothing of a kernel module
 * (unprobed, as explain leaves it). */
static struct gpuenv_snapshot *windows_toolkit_paste(const char *driver, const char *wddm,
						     const char *cuda)
{
	struct gpuenv_snapshot *s;
	struct snap_node *root, *tk;

	assert_int_equal(snapshot_new(&s), 0);
	root = snapshot_root(s);
	snap_set_str(snap_object(snap_object(root, "messages"), "platform"), "windows", "C:\\",
		     "pasted:1");
	if (wddm) {
		struct snap_node *w = snap_object(snap_object(root, "driver"), "windows");

		snap_set_str(w, "wddm_version", wddm, "pasted:3");
		snap_set_str(w, "driver_version", driver, "pasted:3");
	} else if (driver) {
		snap_set_str(snap_object(snap_object(root, "driver"), "nvml"), "driver_version",
			     driver, "pasted:3");
	}
	tk = snap_append_object(snap_array(snap_object(root, "runtime"), "cuda_toolkits"));
	snap_set_str(tk, "version", cuda, "pasted:9");
	return s;
}

/* A paste from Windows names the Windows driver, never a kernel module: the toolkit is judged on
 * the Windows column of Table 3 and of the minor-version floors alone. 551.23 is past Linux's
 * 550.54.14 for CUDA 12.4 but short of Windows's 551.61 (minor-version compatibility, >=
 * 528.33); 516.94 is below 12.x's Windows floor; 411.31 runs CUDA 10.0 (>= 411.31 on
 * Windows) though Linux's 410.48 is lower. */
static void test_toolkit_needs_newer_driver_windows(void **state)
{
	struct gpuenv_snapshot *s = windows_toolkit_paste("551.23", NULL, "12.4.131");

	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_WARNING,
	    "needs Windows driver >= 551.61");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_WARNING, "on >= 528.33");
	NO_TEXT(s, "runtime.toolkit-needs-newer-driver", "550.54");
	snapshot_unref(s);

	s = windows_toolkit_paste("516.94", NULL, "12.1.105");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_ERROR,
	    "the Windows driver 516.94 is older");
	FIX(s, "runtime.toolkit-needs-newer-driver", "install the Windows driver 531.14 or newer");
	snapshot_unref(s);

	s = windows_toolkit_paste("411.31", NULL, "10.0.130");
	NO(s, "runtime.toolkit-needs-newer-driver");
	snapshot_unref(s);

	/* read from Device Manager's WDDM form: the message says so */
	s = windows_toolkit_paste("528.49", "31.0.15.2849", "12.4.131");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_WARNING,
	    "the Windows driver 528.49 (read from Windows's WDDM form of it, 31.0.15.2849");
	snapshot_unref(s);

	/* no driver version in the text: the rule says it could not judge */
	s = windows_toolkit_paste(NULL, NULL, "12.4.131");
	SKIPPED(s, "runtime.toolkit-needs-newer-driver");
	snapshot_unref(s);
}

static void test_stub(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *tk = toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1");

	NO(s, "runtime.stub-libcuda");
	snap_set_str(tk, "stub_libcuda",
		     "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so",
		     "/usr/local/cuda-12.4/lib64/stubs/libcuda.so");
	YES(s, "runtime.stub-libcuda", GPUENV_SEVERITY_INFO, "off the loader path");
	env(s, "LD_LIBRARY_PATH", "/opt/lib:/usr/local/cuda/lib64/stubs/");
	YES(s, "runtime.stub-libcuda", GPUENV_SEVERITY_ERROR, "LD_LIBRARY_PATH contains");
	env(s, "LD_LIBRARY_PATH", "/usr/local/cuda-12.4/lib64");
	env(s, "LD_PRELOAD", "/usr/local/cuda-12.4/lib64/stubs/libcuda.so");
	YES(s, "runtime.stub-libcuda", GPUENV_SEVERITY_ERROR, "LD_PRELOAD");
	snapshot_unref(s);
}

static void test_toolkits_disagree(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *a, *b;

	a = toolkit(s, "/usr/local/cuda-11.8", "/usr/local/cuda-11.8", "11.8.0");
	b = toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1");
	env(s, "PATH", "/usr/local/cuda-12.4/bin:/usr/bin");
	NO(s, "runtime.toolkits-disagree");
	env(s, "PATH", "/usr/local/cuda-11.8/bin:/usr/bin");
	/* nvcc of another major than /usr/local/cuda: a build mixing them fails (spconv#186) */
	YES(s, "runtime.toolkits-disagree", GPUENV_SEVERITY_ERROR, "nvcc on PATH: CUDA 11.8");
	YES(s, "runtime.toolkits-disagree", GPUENV_SEVERITY_ERROR, "for another CUDA major");
	/* the fix points at what the configuration needs, not at the nvcc first on PATH */
	FIX(s, "runtime.toolkits-disagree", "CUDA_HOME=/usr/local/cuda-12.4 ");
	FIX(s, "runtime.toolkits-disagree", "the newest of them");
	driver_loaded(s, "535.183.01"); /* R535 runs 11.8 and (minor-version compat) 12.4 */
	FIX(s, "runtime.toolkits-disagree", "CUDA_HOME=/usr/local/cuda-12.4 ");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	FIX(s, "runtime.toolkits-disagree", "CUDA_HOME=/usr/local/cuda-11.8 ");
	torch_env(s, "2.4.0+cu124", "12.4", NULL);
	FIX(s, "runtime.toolkits-disagree", "what torch 2.4.0+cu124");
	FIX(s, "runtime.toolkits-disagree", "CUDA_HOME=/usr/local/cuda-12.4 ");
	/* Another minor of the same major: a warning. */
	snap_set_str(a, "version", "12.1.1", "x");
	YES(s, "runtime.toolkits-disagree", GPUENV_SEVERITY_WARNING, "nvcc on PATH: CUDA 12.1.1");
	/* Another major between CUDA_HOME and /usr/local/cuda, no nvcc on PATH: nothing says
	 * which compiler a build takes, a warning. */
	snap_set_str(a, "version", "11.8.0", "x");
	env(s, "PATH", "/usr/bin");
	env(s, "CUDA_HOME", "/usr/local/cuda-11.8");
	YES(s, "runtime.toolkits-disagree", GPUENV_SEVERITY_WARNING, "CUDA_HOME: CUDA 11.8.0");
	env(s, "PATH", "/usr/local/cuda-11.8/bin:/usr/bin");
	/* Same version in two places: only a note. */
	snap_set_str(a, "version", "12.4.1", "x");
	YES(s, "runtime.toolkits-disagree", GPUENV_SEVERITY_INFO, "/usr/local/cuda: CUDA 12.4.1");
	(void)b;
	snapshot_unref(s);
}

static void test_cannot_target(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *tk;

	gpu(s, "0x1db1", "nvidia"); /* Tesla V100, 7.0 */
	tk = toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1");
	NO(s, "runtime.toolkit-cannot-target-gpu");
	snap_set_str(tk, "version", "13.0.0", "x");
	YES(s, "runtime.toolkit-cannot-target-gpu", GPUENV_SEVERITY_ERROR, "nvcc rejects sm_70");
	snapshot_unref(s);
	s = base();
	gpu(s, NULL, "nvidia"); /* H100, 9.0 */
	toolkit(s, "/usr/local/cuda-11.7", "/usr/local/cuda-11.7", "11.7.1");
	YES(s, "runtime.toolkit-cannot-target-gpu", GPUENV_SEVERITY_WARNING, "only PTX");
	snapshot_unref(s);
}

static void test_cudnn(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *tk = toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1");

	snap_set_state(tk, "cudnn_version", FACT_ABSENT, "x", NULL);
	NO(s, "runtime.cudnn-cuda-mismatch");
	snap_set_str(tk, "cudnn_version", "9.5.1", "/usr/local/cuda-12.4/include/cudnn_version.h");
	NO(s, "runtime.cudnn-cuda-mismatch"); /* 9.5.x cuda12 lists 12.4 */
	snap_set_str(tk, "cudnn_version", "8.9.6", "x");
	YES(s, "runtime.cudnn-cuda-mismatch", GPUENV_SEVERITY_WARNING, "not CUDA 12.4");
	snap_set_str(tk, "version", "11.8.0", "x");
	NO(s, "runtime.cudnn-cuda-mismatch"); /* the cuda11 package lists 11.8 */
	snap_set_str(tk, "cudnn_version", "9.17.0", "x");
	YES(s, "runtime.cudnn-cuda-mismatch", GPUENV_SEVERITY_ERROR, "only for other CUDA majors");
	/* Not in the table, or only majors known: skipped with the reason, never passed. */
	snap_set_str(tk, "cudnn_version", "9.19.0", "x");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "runtime.cudnn-cuda-mismatch"), 0);
		assert_non_null(strstr(skip_of(d, "runtime.cudnn-cuda-mismatch")->reason,
				       "not in the knowledge base"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_cuda_compat(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *l, *ml;

	driver_loaded(s, "550.54.15");
	l = userspace(s, "libcuda", "/usr/local/cuda-12.2/compat/libcuda.so.1", "535.104.05");
	/* Older and not a compat file: a stale libcuda (driver.nvml-version-mismatch's). */
	NO(s, "runtime.cuda-compat-unsupported");
	snap_set_bool(l, "in_compat_dir", true, "x");
	YES(s, "runtime.cuda-compat-unsupported", GPUENV_SEVERITY_ERROR,
	    "older than the kernel module 550.54.15");
	NO(s, "runtime.library-shadowed"); /* reported once, by its own rule */
	/* The fix names what put the compat directory first: not known, both places. */
	FIX(s, "runtime.cuda-compat-unsupported", "off LD_LIBRARY_PATH / ld.so.conf.d");
	snap_set_str(l, "found_via", "LD_LIBRARY_PATH", "/usr/local/cuda-12.2/compat");
	FIX(s, "runtime.cuda-compat-unsupported",
	    "# take /usr/local/cuda-12.2/compat off LD_LIBRARY_PATH (");
	/* Through the cache, with the ld.so.conf.d file(s) that list its directory. */
	snap_set_str(l, "found_via", "ld.so.cache", "/etc/ld.so.cache");
	snap_append_str(snap_array(l, "ld_so_conf"), "/etc/ld.so.conf.d/000_cuda_compat.conf",
			"/etc/ld.so.conf.d/000_cuda_compat.conf");
	FIX(s, "runtime.cuda-compat-unsupported",
	    "sudo rm /etc/ld.so.conf.d/000_cuda_compat.conf && sudo ldconfig   # what lists "
	    "/usr/local/cuda-12.2/compat for ldconfig");
	snap_append_str(snap_array(l, "ld_so_conf"), "/etc/ld.so.conf.d/zz-compat.conf",
			"/etc/ld.so.conf.d/zz-compat.conf");
	FIX(s, "runtime.cuda-compat-unsupported",
	    "sudo rm /etc/ld.so.conf.d/000_cuda_compat.conf /etc/ld.so.conf.d/zz-compat.conf && ");
	/* Which file lists it could not be told (unreadable): the general fix. */
	snap_set_errno(l, "ld_so_conf", -EACCES, "/etc/ld.so.conf.d/000_cuda_compat.conf");
	FIX(s, "runtime.cuda-compat-unsupported", "off LD_LIBRARY_PATH / ld.so.conf.d");
	snap_set_str(l, "found_via", "default", "/usr/lib/x86_64-linux-gnu");
	/* Newer compat on a data-center GPU over a branch NVIDIA's table does not list for its
	 * package (cuda-compat-13-0 on R550, end of life): not a supported target, a warning. */
	snap_set_str(l, "version", "580.95.05", "x");
	gpu(s, NULL, "nvidia");
	YES(s, "runtime.cuda-compat-unsupported", GPUENV_SEVERITY_WARNING,
	    "lists cuda-compat-13-0 on R535, R570 only");
	/* On a branch the table lists (R535): what forward compatibility is for. */
	driver_loaded(s, "535.183.01");
	NO(s, "runtime.cuda-compat-unsupported");
	/* A package the table has no row of (R565's CUDA 12.7, never released as a package):
	 * whether NVIDIA supports it could not be told. */
	snap_set_str(l, "version", "565.57.01", "x");
	SKIPPED(s, "runtime.cuda-compat-unsupported");
	snap_set_str(l, "version", "580.95.05", "x");
	driver_loaded(s, "550.54.15");
	snap_set_str(node(s, "hardware.gpus.0"), "device_id", "0x2684", "x"); /* RTX 4090 */
	YES(s, "runtime.cuda-compat-unsupported", GPUENV_SEVERITY_ERROR, "(804)");
	/* Bind-mounted outside any compat/ directory (a container's multiarch dir): known by
	 * its version against the driver's own libnvidia-ml. */
	l = userspace(s, "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "580.95.05");
	snap_set_bool(l, "in_compat_dir", false, "x");
	NO(s, "runtime.cuda-compat-unsupported"); /* NVML unknown: no proof */
	ml = userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
		       "550.54.15");
	snap_set_bool(ml, "in_compat_dir", false, "x");
	YES(s, "runtime.cuda-compat-unsupported", GPUENV_SEVERITY_ERROR,
	    "newer than the driver's own libnvidia-ml");
	/* ...and that copy is not also a user-space/module mismatch (said once, as compat). */
	NO(s, "driver.nvml-version-mismatch");
	/* Both newer than the module: a user-space upgrade without a reboot, not compat. */
	snap_set_str(ml, "version", "580.95.05", "x");
	NO(s, "runtime.cuda-compat-unsupported");
	/* Unknown GPU segment: could not tell. */
	snap_set_str(ml, "version", "550.54.15", "x");
	snap_set_str(node(s, "hardware.gpus.0"), "device_id", "0x0001", "x");
	SKIPPED(s, "runtime.cuda-compat-unsupported");
	snapshot_unref(s);
}

/* A conda env with one framework package whose library `names` (dlopen) nothing loads; one
 * copy of it in `dir`, found there as `where` (NULL: no copy). */
static struct snap_node *not_found_env(struct gpuenv_snapshot *s, const char *key,
				       const char *version, const char *names, const char *dir,
				       const char *where)
{
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *p, *nf;

	snap_set_str(e, "prefix", "/home/user/anaconda3/envs/tf", "x");
	snap_set_str(e, "kind", "conda", "x");
	p = snap_object(snap_object(e, "packages"), key);
	snap_set_str(p, "dist_version", version, "x");
	nf = snap_append_object(snap_array(p, "not_found"));
	snap_set_str(nf, "name", names, "x"); /* the first of them, for these tests */
	snap_set_str(nf, "names", names, "x");
	snap_set_str(nf, "request", "dlopen", "x");
	snap_array(nf, "copies");
	if (dir) {
		struct snap_node *c = snap_append_object(snap_array(nf, "copies"));
		char path[256];

		snprintf(path, sizeof(path), "%s/%s", dir, names);
		snap_set_str(c, "path", path, path);
		snap_set_str(c, "dir", dir, path);
		snap_set_str(c, "where", where, path);
	}
	return p;
}

static void test_library_not_found(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *p;

	(void)state;
	SKIPPED(s, "runtime.library-not-found"); /* no framework.python_envs */
	p = not_found_env(s, "tensorflow", "2.9.0", "libcudart.so.11.0",
			  "/home/user/anaconda3/envs/tf/lib", "PATH");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "its directory is on PATH, which the dynamic loader never searches");
	FIX(s, "runtime.library-not-found",
	    "export LD_LIBRARY_PATH=/home/user/anaconda3/envs/tf/lib");
	snapshot_unref(s);

	/* Everything it opens loads: nothing to say. */
	s = base();
	p = snap_object(
		snap_object(snap_append_object(snap_array(node(s, "framework"), "python_envs")),
			    "packages"),
		"tensorflow");
	snap_set_str(p, "dist_version", "2.9.0", "x");
	snap_array(p, "not_found");
	NO(s, "runtime.library-not-found");
	snapshot_unref(s);

	/* A conda env's lib/ that is not activated: the activate.d fix. */
	s = base();
	not_found_env(s, "tensorflow", "2.7.0", "libcudnn.so.8", "/home/user/anaconda3/envs/tf/lib",
		      "conda env lib");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR, "a conda environment's lib/");
	FIX(s, "runtime.library-not-found", "conda activate /home/user/anaconda3/envs/tf");
	snapshot_unref(s);

	/* Only cuDNN 7 is missing, nowhere a copy (tensorflow/tensorflow#44040: cuDNN 8 installed,
	 * libcudart.so.10.1 opened): the fix installs cuDNN, not the CUDA libraries again. */
	s = base();
	not_found_env(s, "tensorflow", "2.3.1", "libcudnn.so.7", NULL, NULL);
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR, "no copy was found");
	FIX(s, "runtime.library-not-found", "# cuDNN 7.6 for CUDA 10.1");
	NO_FIX(s, "runtime.library-not-found", "cuda-libraries");
	snapshot_unref(s);
	/* A nightly of the 2.4 line is built like 2.4 (CUDA 11.0), tensorflow/tensorflow#44012. */
	s = base();
	not_found_env(s, "tensorflow", "2.4.0.dev20201012", "libcusparse.so.11", NULL, NULL);
	FIX(s, "runtime.library-not-found", "cuda-libraries-11-0");
	snapshot_unref(s);
	/* libcudart missing too: the CUDA libraries as well. */
	s = base();
	not_found_env(s, "tensorflow", "2.3.1", "libcudart.so.10.1", NULL, NULL);
	FIX(s, "runtime.library-not-found", "cuda-libraries-10-1");
	snapshot_unref(s);

	/* Listed in ld.so.conf.d, not in the cache: ldconfig. */
	s = base();
	not_found_env(s, "tensorflow", "2.9.0", "libcublas.so.11", "/usr/local/cuda-11.2/lib64",
		      "ld.so.conf");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR, "ldconfig was not run");
	FIX(s, "runtime.library-not-found", "sudo ldconfig");
	snapshot_unref(s);

	/* Warp before 0.8 opens only the unversioned libcuda.so; the driver's libcuda.so.1. */
	s = base();
	driver_loaded(s, "550.54.15");
	not_found_env(s, "warp", "0.3.1", "libcuda.so", "/usr/lib/x86_64-linux-gnu",
		      "versioned only");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "only the versioned libcuda.so.1 is installed");
	FIX(s, "runtime.library-not-found", "pip install -U 'warp-lang>=0.8'");
	snapshot_unref(s);

	/* No libcuda anywhere and no driver: the driver rules say it, not this one. */
	s = base();
	not_found_env(s, "numba", "0.60.0", "libcuda.so|libcuda.so.1", NULL, NULL);
	NO(s, "runtime.library-not-found");
	/* With the driver loaded, a libcuda nowhere is this rule's. */
	driver_loaded(s, "550.54.15");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "libcuda.so or libcuda.so.1 (opened by name)");
	snapshot_unref(s);

	/* The framework library's DT_NEEDED could not be read: could not tell. */
	s = base();
	p = snap_object(
		snap_object(snap_append_object(snap_array(node(s, "framework"), "python_envs")),
			    "packages"),
		"torch");
	snap_set_errno(p, "needed_missing", -EACCES, "/x/torch/lib/libtorch_cuda.so");
	SKIPPED(s, "runtime.library-not-found");
	snapshot_unref(s);

	/* CuPy's extension links libcudart.so.12 (cupy/cupy#7772); no _version.py and no
	 * dist-info: its release is not recorded, which is not "unreadable". */
	s = base();
	p = not_found_env(s, "cupy", "x", "libcudart.so.12", NULL, NULL);
	snap_set_state(p, "dist_version", FACT_ABSENT, "x", "no cupy*.dist-info");
	snap_set_state(p, "version", FACT_ABSENT, "x/cupy/_version.py", NULL);
	snap_set_str((struct snap_node *)snap_at(snap_child(p, "not_found"), 0), "request",
		     "DT_NEEDED", "x");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "CuPy cannot load libcudart.so.12 (DT_NEEDED)");
	/* _version.py there but unreadable: said so. */
	snap_set_errno(p, "version", -EACCES, "x/cupy/_version.py");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "CuPy (version unreadable) cannot load");
	snapshot_unref(s);

	/* cupy-cuda11x opens CUDA 11's NVRTC by name; on a system moved to CUDA 12 the wheel
	 * for CUDA 12 is the fix (BLAST-WarpX/warpx#4621). */
	s = base();
	p = not_found_env(s, "cupy", "13.0.0", "libnvrtc.so.11.2", NULL, NULL);
	snap_set_str(p, "dist_name", "cupy-cuda11x", "x");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "CuPy 13.0.0 cannot load libnvrtc.so.11.2 (opened by name)");
	FIX(s, "runtime.library-not-found", "pip install cupy-cuda12x");
	FIX(s, "runtime.library-not-found", "pip install nvidia-cuda-nvrtc-cu11");
	snapshot_unref(s);
}

/* CuPy's cuSOLVER module links libcusolver.so.11, found nowhere: cupy.linalg fails, the import
 * does not; CuPy 14 with the library in an nvidia-* wheel here preloads it (cupy/cupy#9444). */
static void test_cupy_module_missing(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *env, *p, *e, *w;

	(void)state;
	env = snap_append_object(snap_array(node(s, "framework"), "python_envs"));
	p = snap_object(snap_object(env, "packages"), "cupy");
	snap_set_str(p, "dist_name", "cupy-cuda12x", "x");
	snap_set_str(p, "dist_version", "13.3.0", "x");
	snap_array(p, "needed_missing");
	NO(s, "runtime.library-not-found");
	e = snap_append_object(snap_array(p, "module_missing"));
	snap_set_str(e, "module", "cupy_backends.cuda.libs.cusolver", "x");
	snap_set_str(e, "library", "/v/cupy_backends/cuda/libs/cusolver.so", "x");
	snap_set_str(e, "name", "libcusolver.so.11", "x");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "cupy.linalg will fail: /v/cupy_backends/cuda/libs/cusolver.so needs libcusolver.so.11");
	FIX(s, "runtime.library-not-found", "pip install nvidia-cusolver-cu12");
	/* The same name missing from the core extension: the import's failure, said once. */
	snap_append_str(snap_array(p, "needed_missing"), "libcusolver.so.11", "x");
	NO(s, "runtime.library-not-found");
	snapshot_unref(s);

	/* CuPy 14, the nvidia-cusolver wheel here: cuda-pathfinder loads it first. */
	s = base();
	env = snap_append_object(snap_array(node(s, "framework"), "python_envs"));
	w = snap_append_object(snap_array(env, "nvidia_wheels"));
	snap_append_str(snap_array(w, "libraries"), "nvidia/cu13/lib/libcusolver.so.12", "x");
	p = snap_object(snap_object(env, "packages"), "cupy");
	snap_set_str(p, "dist_version", "14.0.1", "x");
	e = snap_append_object(snap_array(p, "module_missing"));
	snap_set_str(e, "module", "cupy_backends.cuda.libs.cusolver", "x");
	snap_set_str(e, "library", "/v/cusolver.so", "x");
	snap_set_str(e, "name", "libcusolver.so.12", "x");
	NO(s, "runtime.library-not-found");
	/* A module that could not be read: could not tell. */
	e = snap_append_object(snap_array(p, "module_missing"));
	snap_set_str(e, "module", "cupy.cuda.cufft", "x");
	snap_set_errno(e, "name", -EACCES, "/v/cupy/cuda/cufft.so");
	SKIPPED(s, "runtime.library-not-found");
	snapshot_unref(s);
}

/* packages.<fw>.cudnn: the copies of libcudnn.so.<major> on the framework's search path, in
 * order (the first one loaded), each with its version (NULL: not readable). */
static struct snap_node *cudnn_copies(struct snap_node *pkg, const char *soname,
				      const char *const *paths, const char *const *versions)
{
	struct snap_node *o = snap_object(pkg, "cudnn"), *arr = snap_array(o, "copies");

	snap_set_str(o, "soname", soname, "ld.so search");
	snap_set_str(o, "request", "dlopen", "ld.so search");
	snap_set_str(o, "resolved_path", paths[0], paths[0]);
	for (size_t i = 0; paths[i]; i++) {
		struct snap_node *e = snap_append_object(arr);

		snap_set_str(e, "path", paths[i], "LD_LIBRARY_PATH");
		snap_set_str(e, "resolved_path", paths[i], paths[i]);
		snap_set_str(e, "found_via", i ? "ld.so.cache" : "LD_LIBRARY_PATH", "x");
		snap_set_bool(e, "loaded", i == 0, "ld.so search");
		if (versions[i])
			snap_set_str(e, "cudnn_version", versions[i], paths[i]);
		else
			snap_set_errno(e, "cudnn_version", -EACCES, "/x/include/cudnn_version.h");
	}
	return o;
}

/* A venv with tensorflow (dist_version) whose build_info says cuDNN bi_cudnn. */
static struct snap_node *tf_env(struct gpuenv_snapshot *s, const char *version,
				const char *bi_cudnn)
{
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *t, *bi;
	const char *bp =
		"/home/user/venv/lib/python3.8/site-packages/tensorflow/python/platform/build_info.py";

	snap_set_str(e, "prefix", "/home/user/venv", "/home/user/venv");
	t = snap_object(snap_object(e, "packages"), "tensorflow");
	snap_set_str(t, "dist_version", version, "METADATA");
	bi = snap_object(t, "build_info");
	snap_set_str(bi, "cudnn_version", bi_cudnn, bp);
	snap_set_bool(bi, "is_cuda_build", true, bp);
	snap_set_bool(t, "cpu_only", false, bp);
	return t;
}

#define PATHS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* A machine whose one environment is judged completely, with driver.userspace read. */
static struct gpuenv_snapshot *fw_base(void)
{
	struct gpuenv_snapshot *s = base();

	snap_set_bool(node(s, "framework"), "python_envs_complete", true, "x");
	snap_set_state(snap_object(node(s, "driver"), "userspace"), "libcuda", FACT_ABSENT,
		       "ld.so search", "not found");
	return s;
}

/* TensorFlow `version` with build_info cuDNN bi, and libcudnn copies paths/versions. */
static struct gpuenv_snapshot *tf_case(const char *version, const char *bi, const char *soname,
				       const char *const *paths, const char *const *versions)
{
	struct gpuenv_snapshot *s = fw_base();
	struct snap_node *t = tf_env(s, version, bi);

	if (paths)
		cudnn_copies(t, soname, paths, versions);
	return s;
}

static void test_cudnn_older(void **state)
{
	static const char *const old8 = "/usr/local/cuda/lib64/libcudnn.so.8.0.4",
				 *new8 = "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.1.0";
	const char *id = "runtime.cudnn-older-than-framework";
	struct gpuenv_snapshot *s = base();
	struct snap_node *t;

	SKIPPED(s, id); /* no framework.python_envs */
	snapshot_unref(s);
	/* TF 2.6: build_info says '8', its release line was tested (and built) with 8.1. */
	s = tf_case("2.6.0", "8", NULL, NULL, NULL);
	NO(s, id); /* no cudnn recorded: nothing asked for */
	snapshot_unref(s);
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(old8), PATHS("8.0.4"));
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.");
	NO(s, "runtime.library-shadowed"); /* one copy */
	snapshot_unref(s);
	/* The newer copy later on the path: the shadowing explains it, and the fix says so. */
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(old8, new8), PATHS("8.0.4", "8.1.0"));
	YES(s, "runtime.library-shadowed", GPUENV_SEVERITY_WARNING,
	    "before the newer /usr/lib/x86_64-linux-gnu/libcudnn.so.8.1.0 (cuDNN 8.1.0");
	FIX(s, id, "drop /usr/local/cuda/lib64/libcudnn.so.8.0.4");
	snapshot_unref(s);
	/* Same minor with another patch, a newer minor: the frameworks accept both. */
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(new8), PATHS("8.1.0"));
	NO(s, id);
	snapshot_unref(s);
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(new8), PATHS("8.9.7"));
	NO(s, id);
	snapshot_unref(s);
	/* build_info with a minor (a source build) wins over the knowledge base. */
	s = tf_case("2.6.0", "8.2", "libcudnn.so.8", PATHS(new8), PATHS("8.1.0"));
	YES(s, id, GPUENV_SEVERITY_ERROR, "compiled with: 8.2.0");
	snapshot_unref(s);
	/* The loaded copy's version cannot be read: could not tell. */
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(old8), PATHS(NULL));
	SKIPPED(s, id);
	snapshot_unref(s);
	/* TF 1.15 (module-level build_info '7'): the tested configuration says 7.4, the binary
	 * was compiled with 7.6.0 (tensorflow_builds.tsv); 7.4.1 from cudnn.h is too old. */
	s = tf_case("1.15.0", "7", "libcudnn.so.7",
		    PATHS("/usr/local/cuda/lib64/libcudnn.so.7.4.1"), PATHS("7.4.1"));
	YES(s, id, GPUENV_SEVERITY_ERROR, "compiled with: 7.6.0");
	snapshot_unref(s);
	/* A release line the knowledge base knows only by its major: could not tell. */
	s = tf_case("1.9.0", "7", "libcudnn.so.7", PATHS("/usr/local/cuda/lib64/libcudnn.so.7.0.5"),
		    PATHS("7.0.5"));
	SKIPPED(s, id);
	snapshot_unref(s);
	/* torch 1.12.0+cu113 bundles cuDNN 8.3.2; LD_LIBRARY_PATH's 8.0.3 comes first. */
	s = fw_base();
	t = torch_env(s, "1.12.0+cu113", "11.3", NULL);
	snap_set_str(t, "lib_dir", "/home/user/venv/lib/python3.12/site-packages/torch/lib", "x");
	cudnn_copies(t, "libcudnn.so.8",
		     PATHS("/public/apps/cudnn/v8.0.3.33-cuda.11.0/cuda/lib64/libcudnn.so.8.0.3",
			   "/home/user/venv/lib/python3.12/site-packages/torch/lib/libcudnn.so.8"),
		     PATHS("8.0.3", "8.3.2"));
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "PyTorch was compiled  against (8, 3, 2) but found runtime version (8, 0, 3)");
	YES(s, "runtime.library-shadowed", GPUENV_SEVERITY_WARNING, "cuDNN 8.3.2");
	snapshot_unref(s);
	/* No framework: the main program's search (runtime.libraries) shows the same. */
	s = fw_base();
	t = snap_append_object(snap_array(
		snap_object(snap_object(snapshot_root(s), "runtime"), "libraries"), "libcudnn"));
	snap_set_str(t, "soname", "libcudnn.so.8", "ld.so search");
	snap_set_str(t, "resolved_path", old8, old8);
	snap_set_str(t, "version", "8.0.4", old8);
	snap_set_str(t, "found_via", "LD_LIBRARY_PATH", "x");
	NO(s, "runtime.library-shadowed");
	t = snap_append_object(snap_array(t, "shadowed"));
	snap_set_str(t, "path", new8, new8);
	snap_set_str(t, "version", "8.1.0", new8);
	snap_set_str(t, "verdict", "loadable", new8);
	YES(s, "runtime.library-shadowed", GPUENV_SEVERITY_WARNING,
	    "takes /usr/local/cuda/lib64/libcudnn.so.8.0.4 (cuDNN 8.0.4, via LD_LIBRARY_PATH) before");
	snap_set_str(t, "version", "8.0.3", new8); /* the older one second: fine */
	NO(s, "runtime.library-shadowed");
	snapshot_unref(s);
}

/* packages.jax as explain reads JAX's own check ("Found CUDA version 12010, but JAX was built
 * against version 12020", jax-ml/jax#18027): the loaded runtime and the build's, source the
 * pasted line. */
static struct gpuenv_snapshot *jax_cudart_case(const char *loaded, const char *built)
{
	struct gpuenv_snapshot *s = fw_base();
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *j = snap_object(snap_object(snap_append_object(envs), "packages"), "jax");

	if (loaded)
		snap_set_str(snap_object(j, "cudart"), "version", loaded, "pasted:1");
	if (built)
		snap_set_str(snap_object(j, "build_info"), "cuda_version", built, "pasted:1");
	return s;
}

static void test_cudart_older(void **state)
{
	const char *id = "runtime.cudart-older-than-framework";
	struct gpuenv_snapshot *s;

	(void)state;
	s = jax_cudart_case("12.1", "12.2");
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "JAX was built against CUDA runtime 12.2; the CUDA runtime it loads is 12.1");
	FIX(s, id, "pip install -U \"jax[cuda12]\"");
	snapshot_unref(s);
	/* the same minor, a newer one, a newer major: JAX accepts each */
	s = jax_cudart_case("12.2", "12.2");
	NO(s, id);
	snapshot_unref(s);
	s = jax_cudart_case("12.4", "12.2");
	NO(s, id);
	snapshot_unref(s);
	s = jax_cudart_case("13.0", "12.8");
	NO(s, id);
	snapshot_unref(s);
	/* an older major */
	s = jax_cudart_case("11.8", "12.0");
	YES(s, id, GPUENV_SEVERITY_ERROR, "the CUDA runtime it loads is 11.8");
	snapshot_unref(s);
	/* the build's version without the loaded one: could not tell */
	s = jax_cudart_case(NULL, "12.2");
	SKIPPED(s, id);
	snapshot_unref(s);
	/* no build version (a live machine: jaxlib writes it in no file): not judged at all */
	s = jax_cudart_case("12.1", NULL);
	NO(s, id);
	snapshot_unref(s);
}

/* An A100 in NVML's devices[]: MIG mode and its MIG devices ("uuid gi ci" each). */
static struct snap_node *nvml_gpu(struct gpuenv_snapshot *s, const char *uuid, bool mig,
				  const char *const *migs)
{
	struct snap_node *nv = snap_object(node(s, "driver"), "nvml");
	struct snap_node *d = snap_append_object(snap_array(nv, "devices")), *a;

	snap_set_str(d, "uuid", uuid, "nvml:nvmlDeviceGetUUID");
	snap_set_bool(d, "mig_mode", mig, "nvml:nvmlDeviceGetMigMode");
	if (!mig)
		return d;
	a = snap_array(d, "mig_devices");
	for (size_t i = 0; migs && migs[i]; i++) {
		struct snap_node *m = snap_append_object(a);
		char u[64];
		int gi, ci;

		assert_int_equal(sscanf(migs[i], "%63s %d %d", u, &gi, &ci), 3);
		snap_set_str(m, "uuid", u, "nvml:nvmlDeviceGetUUID");
		snap_set_int(m, "gpu_instance_id", gi, "nvml:nvmlDeviceGetGpuInstanceId");
		snap_set_int(m, "compute_instance_id", ci, "nvml:nvmlDeviceGetComputeInstanceId");
	}
	snap_set_int(d, "mig_device_count", (int64_t)snap_count(a), "nvml");
	return d;
}

#define MIG_A "MIG-89c850dc-38e3-57df-85c7-690c186b68e9"
#define MIG_B "MIG-f2b5fbbd-850e-51bb-8ffa-ac9fb48126da"
#define GPU_0 "GPU-5a88edbe-90c4-2449-8c43-70c57591cca1"

/* CUDA_VISIBLE_DEVICES on a GPU not in MIG mode: Slurm's NoDevFiles (a job allocated none
 * of the node's GPUs, ray-project/ray#7014) is asked of Slurm, never unset; another word
 * keeps the general fixes. */
/* torch with the toolkit's libcusolver.so.11 loaded and the libcublas.so.12 it gets, `via`
 * (mapped: mapped first by the framework's library), lacking `missing` (NULL: none); the
 * nvidia-cublas-cu12 12.8.4.1 wheel holds the wheel copy (int-brain-lab/ibl-sorter#41). */
static struct gpuenv_snapshot *sibling_case(const char *copy, const char *via, bool mapped,
					    const char *missing)
{
	static const char *const site = "/home/user/venv/lib/python3.12/site-packages";
	struct gpuenv_snapshot *s = fw_base();
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *t, *l, *sib, *w, *m;
	char dir[256];

	snap_set_str(e, "prefix", "/home/user/venv", "x");
	t = snap_object(snap_object(e, "packages"), "torch");
	snap_set_str(t, "version", "2.7.1+cu128", "x");
	snap_set_str(t, "cuda", "12.8", "x");
	snap_set_bool(t, "cpu_only", false, "x");
	w = snap_append_object(snap_array(e, "nvidia_wheels"));
	snap_set_str(w, "name", "nvidia-cublas-cu12", "x");
	snap_set_str(w, "version", "12.8.4.1", "x");
	snprintf(dir, sizeof(dir), "%s/nvidia/cublas/lib", site);
	snap_set_str(w, "lib_dir", dir, "x");
	l = snap_object(snap_object(t, "loads"), "libcusolver.so.11");
	snap_set_str(l, "path", "/usr/local/cuda/targets/x86_64-linux/lib/libcusolver.so.11", "x");
	sib = snap_object(snap_object(l, "siblings"), "libcublas.so.12");
	snap_set_str(sib, "path", copy, "x");
	snap_set_str(sib, "found_via", mapped ? "mapped by the framework's library" : via, "x");
	if (mapped)
		snap_set_str(sib, "mapped_via", via, "x");
	snap_set_int(sib, "symbols_checked", 120, "x");
	m = snap_array(sib, "symbols_missing");
	if (missing) {
		snap_append_str(m, missing, copy);
		snap_set_str(sib, "symbol_version", "libcublas.so.12", copy);
	}
	snap_set_str(snap_object(snapshot_root(s), "environment"), "LD_LIBRARY_PATH",
		     "/usr/local/cuda/lib64", "x");
	return s;
}

static void test_cuda_library_symbol_missing(void **state)
{
	static const char *const wheel = "/home/user/venv/lib/python3.12/site-packages/nvidia/"
					 "cublas/lib/libcublas.so.12",
				 *toolkit = "/usr/local/cuda-12.9/lib64/libcublas.so.12";
	const char *id = "runtime.cuda-library-symbol-missing";
	struct gpuenv_snapshot *s;

	(void)state;
	s = base();
	SKIPPED(s, id); /* no framework.python_envs */
	snapshot_unref(s);
	/* The wheel's older cuBLAS, mapped first: the toolkit's cuSOLVER lacks a name. */
	s = sibling_case(wheel, "runpath", true, "cublasSetEnvironmentMode");
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "needs cublasSetEnvironmentMode (version libcublas.so.12) from libcublas.so.12");
	YES(s, id, GPUENV_SEVERITY_ERROR, "from the wheel nvidia-cublas-cu12 12.8.4.1");
	FIX(s, id, "install -U nvidia-cublas-cu12");
	NO(s, "runtime.nvjitlink-older-than-library");
	snapshot_unref(s);
	/* An older copy on LD_LIBRARY_PATH: the fix drops its directory. */
	s = sibling_case("/opt/cuda-12.8/lib64/libcublas.so.12", "LD_LIBRARY_PATH", false,
			 "cublasSetEnvironmentMode");
	FIX(s, id, "drop /opt/cuda-12.8/lib64 from LD_LIBRARY_PATH");
	snapshot_unref(s);
	/* The same names all defined (the toolkit's own cuBLAS 12.9): nothing to say. */
	s = sibling_case(toolkit, "LD_LIBRARY_PATH", false, NULL);
	NO(s, id);
	snapshot_unref(s);
	/* The sibling's symbols could not be read: could not tell. */
	s = sibling_case(wheel, "runpath", true, NULL);
	{
		struct snap_node *t = node(s, "framework.python_envs.0.packages.torch.loads");
		struct snap_node *sib =
			snap_object(snap_object(snap_object(t, "libcusolver.so.11"), "siblings"),
				    "libcublas.so.12");

		snap_set_errno(sib, "symbols_missing", -EACCES, wheel);
	}
	SKIPPED(s, id);
	snapshot_unref(s);
	/* CuPy's cusolver module, imported after the core mapped the wheel's older cuBLAS: the
	 * toolkit's cuSOLVER only that module links gets it (int-brain-lab/ibl-sorter#41). */
	s = sibling_case(wheel, "runpath", true, NULL); /* torch's cuSOLVER: nothing missing */
	NO(s, id);
	{
		struct snap_node *p = node(s, "framework.python_envs.0.packages");
		struct snap_node *cp = snap_object(p, "cupy");
		struct snap_node *ml = snap_object(cp, "module_loads");
		struct snap_node *m = snap_object(ml, "libcusolver.so.11");
		struct snap_node *sib = snap_object(snap_object(m, "siblings"), "libcublas.so.12");

		snap_set_str(cp, "version", "13.4.1", "x");
		snap_set_str(m, "path",
			     "/usr/local/cuda/targets/x86_64-linux/lib/libcusolver.so.11", "x");
		snap_set_str(sib, "path", wheel, "x");
		snap_set_str(sib, "found_via", "mapped by the framework's library", "x");
		snap_set_str(sib, "mapped_via", "runpath", "x");
		snap_append_str(snap_array(sib, "symbols_missing"), "cublasSetEnvironmentMode",
				wheel);
		snap_set_str(sib, "symbol_version", "libcublas.so.12", wheel);
	}
	YES(s, id, GPUENV_SEVERITY_ERROR, "CuPy 13.4.1 in /home/user/venv loads");
	FIX(s, id, "install -U nvidia-cublas-cu12");
	snapshot_unref(s);
}

static void test_visible_devices_cuda(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	driver_loaded(s, "535.104.05");
	nvml_gpu(s, GPU_0, false, NULL);
	env(s, "CUDA_VISIBLE_DEVICES", "0");
	NO(s, "runtime.visible-devices-none");
	env(s, "CUDA_VISIBLE_DEVICES", "NoDevFiles");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "NoDevFiles is what Slurm sets for a job allocated none of this node's GPUs");
	FIX(s, "runtime.visible-devices-none", "srun --gres=gpu:1");
	NO_FIX(s, "runtime.visible-devices-none", "unset CUDA_VISIBLE_DEVICES");
	env(s, "CUDA_VISIBLE_DEVICES", "bash");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "CUDA programs see 0 of the 1");
	FIX(s, "runtime.visible-devices-none", "unset CUDA_VISIBLE_DEVICES");
	NO_FIX(s, "runtime.visible-devices-none", "srun");
	snapshot_unref(s);
}

/* A Slurm job without cgroup.conf's ConstrainDevices=yes gets the node's number of its GPU
 * (/dev/nvidia2: "2") in a container that has that GPU alone (NVIDIA/pyxis#47): named as
 * Slurm's, with ConstrainDevices=yes, only where the job is Slurm's and the number is the
 * minor of a GPU the process sees. */
static void test_visible_devices_slurm_node_index(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g;

	(void)state;
	driver_loaded(s, "460.73.01");
	g = nvml_gpu(s, GPU_0, false, NULL);
	snap_set_int(g, "minor_number", 2, "nvml:nvmlDeviceGetMinorNumber");
	env(s, "CUDA_VISIBLE_DEVICES", "2");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "CUDA programs see 0 of the 1");
	FIX(s, "runtime.visible-devices-none", "unset CUDA_VISIBLE_DEVICES");
	NO_FIX(s, "runtime.visible-devices-none", "ConstrainDevices"); /* no Slurm job */
	env(s, "SLURM_JOB_ID", "2093");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "2 is the node's number of the GPU Slurm allocated it (/dev/nvidia2, NVML's GPU 0");
	FIX(s, "runtime.visible-devices-none", "ConstrainDevices=yes");
	NO_FIX(s, "runtime.visible-devices-none", "unset CUDA_VISIBLE_DEVICES");
	env(s, "CUDA_VISIBLE_DEVICES", "3"); /* no GPU the process sees is /dev/nvidia3 */
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "CUDA programs see 0 of the 1");
	NO_FIX(s, "runtime.visible-devices-none", "ConstrainDevices");
	env(s, "CUDA_VISIBLE_DEVICES", "0"); /* what Slurm sets under ConstrainDevices=yes */
	NO(s, "runtime.visible-devices-none");
	snapshot_unref(s);
}

static void test_mig_device_selection(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g;

	driver_loaded(s, "535.104.05");
	NO(s, "runtime.mig-device-selection"); /* no CUDA_VISIBLE_DEVICES, no NVML */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A);
	NO(s, "runtime.mig-device-selection"); /* NVML not asked: no MIG id can match... */
	snap_set_errno(snap_object(node(s, "driver"), "nvml"), "devices", -EIO, "nvml:x");
	SKIPPED(s, "runtime.mig-device-selection"); /* ...NVML that failed might have MIG on */
	snapshot_unref(s);

	s = base();
	driver_loaded(s, "535.104.05");
	g = nvml_gpu(s, GPU_0, true, TARGETS(MIG_A " 1 0", MIG_B " 2 0"));
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A);
	NO(s, "runtime.mig-device-selection"); /* one MIG device: what CUDA gives */
	env(s, "CUDA_VISIBLE_DEVICES", "MIG-GPU-5a88edbe-90c4-2449-8c43-70c57591cca1/2/0");
	NO(s, "runtime.mig-device-selection"); /* the older form, an existing instance */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A "," MIG_B);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "names 2 MIG devices, but a CUDA process enumerates only one");
	env(s, "CUDA_VISIBLE_DEVICES", "0");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "one MIG device of it, not the GPU");
	env(s, "CUDA_VISIBLE_DEVICES", "MIG-GPU-5a88edbe-90c4-2449-8c43-70c57591cca1/3/0");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR,
	    "instance pair that does not exist");
	env(s, "CUDA_VISIBLE_DEVICES", "MIG-5a88edbe-90c4," MIG_A);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR,
	    "entry 1 of CUDA_VISIBLE_DEVICES matches no MIG device");
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A ",MIG-GPU-5a88edbe");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "entry 2 of CUDA_VISIBLE_DEVICES is not of the form");
	/* torch 1.13 counts no device for a MIG id (facts framework_mig_bugs). */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A);
	torch_env(s, "1.13.1+cu117", "11.7", NULL);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "torch.cuda.device_count() returns 0");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "version", "2.0.1+cu117",
		     "x");
	NO(s, "runtime.mig-device-selection");
	snapshot_unref(s);
	/* MIG on with no MIG device created: the GPU gives nothing. */
	s = base();
	driver_loaded(s, "535.104.05");
	g = nvml_gpu(s, GPU_0, true, NULL);
	env(s, "CUDA_VISIBLE_DEVICES", "0");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR,
	    "nothing on a GPU with no MIG device created");
	/* MIG off: indices and GPU UUIDs are plain GPUs. */
	snap_set_bool(g, "mig_mode", false, "x");
	env(s, "CUDA_VISIBLE_DEVICES", GPU_0);
	NO(s, "runtime.mig-device-selection");
	/* ...but a MIG id then matches nothing. */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR, "matches no MIG device");
	/* An unreadable MIG mode might be on: skipped. */
	snap_set_errno(g, "mig_mode", -EACCES, "nvml:nvmlDeviceGetMigMode");
	SKIPPED(s, "runtime.mig-device-selection");
	snapshot_unref(s);
}

#define GPU_1 "GPU-7b1e0d92-3f4a-4c68-b2d1-5a9e8c7f6b21"

/* CUDA_VISIBLE_DEVICES unset on a MIG machine (pytorch/pytorch#131650). */
static void test_mig_unset(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	driver_loaded(s, "550.54.15");
	nvml_gpu(s, GPU_0, true, TARGETS(MIG_A " 1 0"));
	NO(s, "runtime.mig-device-selection"); /* one MIG device: the process gets it */
	snapshot_unref(s);

	/* Two MIG devices: the process sees the first only. */
	s = base();
	driver_loaded(s, "550.54.15");
	nvml_gpu(s, GPU_0, true, TARGETS(MIG_A " 1 0", MIG_B " 2 0"));
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "of the 2 MIG devices created, the process sees one");
	FIX(s, "runtime.mig-device-selection", "export CUDA_VISIBLE_DEVICES=" MIG_A);
	/* torch >= 1.13 with one physical GPU: NVML's count (1) is CUDA's. */
	torch_env(s, "2.4.0", "12.4", NULL);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING, "sees one");
	snapshot_unref(s);

	/* Two GPUs in MIG mode: CUDA enumerates one MIG device, NVML counts 2 GPUs. */
	s = base();
	driver_loaded(s, "550.54.15");
	nvml_gpu(s, GPU_0, true, TARGETS(MIG_A " 1 0"));
	nvml_gpu(s, GPU_1, true, TARGETS(MIG_B " 1 0"));
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING, "sees one");
	torch_env(s, "2.4.0", "12.4", NULL);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR, "INTERNAL ASSERT FAILED");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "version", "1.12.1+cu116",
		     "x");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING, "sees one");
	/* Set to one MIG device: what CUDA gives, nothing to say. */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_B);
	NO(s, "runtime.mig-device-selection");
	snapshot_unref(s);

	/* MIG on, no MIG device created, no other GPU: nothing is visible. */
	s = base();
	driver_loaded(s, "550.54.15");
	nvml_gpu(s, GPU_0, true, NULL);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR, "no MIG device created");
	snapshot_unref(s);
}

static void test_stub_loader(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *l =
		userspace(s, "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "550.54.15");

	NO(s, "runtime.stub-libcuda");
	/* ld.so.cache names a stubs directory: flagged without any LD_LIBRARY_PATH. */
	snap_set_str(l, "path", "/usr/local/cuda-12.4/lib64/stubs/libcuda.so.1",
		     "/etc/ld.so.cache");
	snap_set_bool(l, "is_stub", true, "x");
	YES(s, "runtime.stub-libcuda", GPUENV_SEVERITY_ERROR, "ld.so loads libcuda.so.1");
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_driver_for_toolkit),
		cmocka_unit_test(test_no_driver_elsewhere),
		cmocka_unit_test(test_toolkit_needs_newer_driver),
		cmocka_unit_test(test_toolkit_needs_newer_driver_windows),
		cmocka_unit_test(test_stub),
		cmocka_unit_test(test_toolkits_disagree),
		cmocka_unit_test(test_cannot_target),
		cmocka_unit_test(test_cudnn),
		cmocka_unit_test(test_cuda_compat),
		cmocka_unit_test(test_library_not_found),
		cmocka_unit_test(test_cupy_module_missing),
		cmocka_unit_test(test_visible_devices_cuda),
		cmocka_unit_test(test_visible_devices_slurm_node_index),
		cmocka_unit_test(test_mig_device_selection),
		cmocka_unit_test(test_mig_unset),
		cmocka_unit_test(test_cudnn_older),
		cmocka_unit_test(test_cudart_older),
		cmocka_unit_test(test_cuda_library_symbol_missing),
		cmocka_unit_test(test_stub_loader),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
