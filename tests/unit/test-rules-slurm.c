// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the rules of Slurm's GPU configuration (src/rules/rules-runtime-slurm.c):
 * runtime.slurm-nvml-autodetect-unbuilt, runtime.slurm-gres-file-missing,
 * runtime.slurm-gres-duplicate-records and runtime.slurm-autodetect-unknown each fire on a
 * runtime.slurm built in C as probe-slurm.c writes it for the public report
 * (NVIDIA/deepops#1214, fgci-org/ansible-role-cuda#3, ComputeCanada/puppet-magic_castle#27,
 * SlinkyProject/slurm-operator#57), stay quiet once it is fixed, and are skipped, never
 * silent, where a fact they need could not be read. The builders: rules-test-util.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "locale-fx.h"
#include "rules-test-util.h"

#define NVML	"runtime.slurm-nvml-autodetect-unbuilt"
#define FILES	"runtime.slurm-gres-file-missing"
#define DUPS	"runtime.slurm-gres-duplicate-records"
#define UNKNOWN "runtime.slurm-autodetect-unknown"

/* runtime.slurm as the probe writes it for /etc/slurm with a gres.conf. */
static struct snap_node *slurm(struct gpuenv_snapshot *s)
{
	struct snap_node *sl = snap_object(node(s, "runtime"), "slurm");

	snap_set_str(sl, "config_dir", "/etc/slurm", "/etc/slurm");
	snap_set_str(sl, "gres_conf", "/etc/slurm/gres.conf", "/etc/slurm/gres.conf");
	return sl;
}

/* One gres.conf record of this node: Name=name [Type=type] [File=files…], at line `line`;
 * absent: the files the node lacks (NULL: every one there). */
static struct snap_node *record(struct snap_node *sl, unsigned line, const char *name,
				const char *type, const char *const *files,
				const char *const *absent)
{
	struct snap_node *e = snap_append_object(snap_array(sl, "gres"));
	char src[64];

	snprintf(src, sizeof(src), "/etc/slurm/gres.conf:%u", line);
	snap_set_str(e, "line", src, src);
	snap_set_str(e, "name", name, src);
	if (type)
		snap_set_str(e, "type", type, src);
	if (files) {
		struct snap_node *arr = snap_array(e, "files"),
				 *miss = snap_array(e, "files_absent");

		for (size_t i = 0; files[i]; i++)
			snap_append_str(arr, files[i], src);
		for (size_t i = 0; absent && absent[i]; i++)
			snap_append_str(miss, absent[i], absent[i]);
	}
	return e;
}

#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* NVIDIA/deepops#1214: AutoDetect=nvml on a Slurm built from source without NVML. */
static void test_nvml_autodetect_unbuilt(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *sl;

	(void)state;
	NO(s, NVML); /* no Slurm on this machine: nothing to judge, nothing skipped */
	driver_loaded(s, "515.65.01");
	snap_append_str(node(s, "driver.device_nodes.nvidia_gpus"), "nvidia1", "/dev/nvidia1");
	sl = slurm(s);
	snap_set_str(sl, "autodetect", "nvml", "/etc/slurm/gres.conf:1");
	snap_set_str(sl, "plugin_dir", "/usr/local/lib/slurm", "/usr/local/lib/slurm/gres_gpu.so");
	snap_set_bool(sl, "gpu_nvml_plugin", false, "/usr/local/lib/slurm/gpu_nvml.so");
	YES(s, NVML, GPUENV_SEVERITY_ERROR, "/usr/local/lib/slurm has no gpu_nvml.so");
	FIX(s, NVML, "Name=gpu File=/dev/nvidia[0-1]");
	/* slurm.conf's Gres= for this node: the drain it will show, with its count
	 * (SlinkyProject/containers#14: Gres=gpu:4, "(0 < 4)") */
	snap_set_str(sl, "node_gres", "gpu:4", "/etc/slurm/slurm.conf:9");
	snap_set_int(sl, "node_gres_gpus", 4, "/etc/slurm/slurm.conf:9");
	YES(s, NVML, GPUENV_SEVERITY_ERROR,
	    "none of the 4 GPU(s) slurm.conf's Gres=gpu:4 gives this node, and slurmctld "
	    "drains it: \"gres/gpu count reported lower than configured (0 < 4)\"");
	snap_set_int(sl, "node_gres_gpus", 0, "/etc/slurm/slurm.conf:9");
	YES(s, NVML, GPUENV_SEVERITY_ERROR, "register none, and the node drains");
	/* Slurm's keys are case-insensitive, and so is the value */
	snap_set_str(sl, "autodetect", "NVML", "/etc/slurm/gres.conf:1");
	YES(s, NVML, GPUENV_SEVERITY_ERROR, "AutoDetect=nvml");
	snap_set_bool(sl, "gpu_nvml_plugin", true, "/usr/local/lib/slurm/gpu_nvml.so");
	NO(s, NVML);
	snap_set_bool(sl, "gpu_nvml_plugin", false, "/usr/local/lib/slurm/gpu_nvml.so");
	snap_set_str(sl, "autodetect", "off", "/etc/slurm/gres.conf:1");
	NO(s, NVML);
	/* could not tell whether the plugin is there: skipped, never "fine" */
	snap_set_str(sl, "autodetect", "nvml", "/etc/slurm/gres.conf:1");
	snap_set_errno(sl, "gpu_nvml_plugin", -EACCES, "/usr/local/lib/slurm/gpu_nvml.so");
	SKIPPED(s, NVML);
	snap_set_errno(sl, "gres_conf", -EACCES, "/etc/slurm/gres.conf");
	SKIPPED(s, NVML);
	snapshot_unref(s);
}

/* fgci-org/ansible-role-cuda#3: the nvidia module loaded, no /dev/nvidia0 made at boot,
 * gres.conf's File=/dev//nvidia0. */
static void test_gres_file_missing(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *sl, *e;

	(void)state;
	NO(s, FILES); /* no Slurm on this machine: nothing to judge, nothing skipped */
	sl = slurm(s);
	record(sl, 1, "gpu", NULL, LIST("/dev//nvidia0"), LIST("/dev//nvidia0"));
	YES(s, FILES, GPUENV_SEVERITY_ERROR, "can't stat gres.conf file /dev//nvidia0");
	/* no driver loaded: nvidia-modprobe may not exist here, the driver comes first */
	FIX(s, FILES, "load the NVIDIA driver first");
	NO_FIX(s, FILES, "nvidia-modprobe");
	/* loaded, its device files never made (the report): make them before slurmd */
	driver_loaded(s, "515.65.01");
	snap_set_state(node(s, "driver.device_nodes"), "nvidia_gpus", FACT_ABSENT, "/dev", NULL);
	FIX(s, FILES, "nvidia-modprobe -c 0 -u");
	snapshot_unref(s);

	/* every File= there */
	s = base();
	driver_loaded(s, "515.65.01");
	sl = slurm(s);
	e = record(sl, 1, "gpu", NULL, LIST("/dev/nvidia0"), NULL);
	NO(s, FILES);
	/* a line naming no device (Count= only) is no device file to look for */
	record(sl, 2, "mps", NULL, NULL, NULL);
	NO(s, FILES);
	/* gres.conf names two GPUs, the node has one: its own device files in the fix */
	e = record(sl, 3, "gpu", "a100", LIST("/dev/nvidia1"), LIST("/dev/nvidia1"));
	YES(s, FILES, GPUENV_SEVERITY_ERROR, "names /dev/nvidia1, which this node does not have");
	FIX(s, FILES, "Name=gpu File=/dev/nvidia0 (and Gres=gpu:1");
	/* whether a File= exists could not be read: skipped */
	snap_set_errno(e, "files_absent", -EACCES, "/dev/nvidia1");
	SKIPPED(s, FILES);
	snapshot_unref(s);
}

/* The driver's missing device files explain slurmd's missing File= (the ranking's edge). */
static void test_gres_file_missing_caused_by_driver(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;
	const struct finding *f;

	(void)state;
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "515.65.01");
	snap_set_state(node(s, "driver.device_nodes"), "nvidiactl", FACT_ABSENT, "/dev/nvidiactl",
		       NULL);
	snap_set_state(node(s, "driver.device_nodes"), "nvidia_uvm", FACT_ABSENT, "/dev/nvidia-uvm",
		       NULL);
	snap_set_state(node(s, "driver.device_nodes"), "nvidia_gpus", FACT_ABSENT, "/dev", NULL);
	record(slurm(s), 1, "gpu", NULL, LIST("/dev/nvidia0"), LIST("/dev/nvidia0"));
	d = diag(s);
	f = find(d, FILES, 0);
	assert_non_null(f);
	assert_non_null(find(d, "driver.device-nodes-missing", 0));
	assert_int_not_equal(f->cause, 0);
	assert_string_equal(d->findings[f->cause - 1].rule->id, "driver.device-nodes-missing");
	assert_string_equal(diagnosis_root_cause(d)->rule->id, "driver.device-nodes-missing");
	diagnosis_free(d);
	snapshot_unref(s);
}

/* ComputeCanada/puppet-magic_castle#27: AutoDetect=nvml and a Name=gpu line per GPU. */
static void test_gres_duplicate_records(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *sl, *second;

	(void)state;
	NO(s, DUPS); /* no Slurm on this machine */
	sl = slurm(s);
	snap_set_str(sl, "autodetect", "nvml", "/etc/slurm/gres.conf:6");
	record(sl, 7, "gpu", NULL, NULL, NULL);
	NO(s, DUPS);					 /* one record is no duplicate */
	second = record(sl, 8, "GPU", NULL, NULL, NULL); /* names compare as Slurm's do */
	YES(s, DUPS, GPUENV_SEVERITY_ERROR, "duplicate records for gpu");
	FIX(s, DUPS, "remove the Name=gpu lines; AutoDetect=nvml");
	/* a third record: still one finding, at the first line */
	record(sl, 9, "gpu", NULL, NULL, NULL);
	YES(s, DUPS, GPUENV_SEVERITY_ERROR, "3 lines Name=gpu");
	/* a Type= tells the records apart */
	snap_set_str(second, "type", "a100", "/etc/slurm/gres.conf:8");
	NO(s, DUPS);
	snapshot_unref(s);

	/* without AutoDetect: the fix names one record per device, or one Count= line */
	s = base();
	sl = slurm(s);
	record(sl, 1, "gpu", NULL, NULL, NULL);
	record(sl, 2, "gpu", NULL, NULL, NULL);
	FIX(s, DUPS, "Name=gpu Count=2");
	snapshot_unref(s);

	/* one File= per record tells them apart: quiet */
	s = base();
	sl = slurm(s);
	record(sl, 1, "gpu", NULL, LIST("/dev/nvidia0"), NULL);
	record(sl, 2, "gpu", NULL, LIST("/dev/nvidia1"), NULL);
	NO(s, DUPS);
	/* gres.conf unreadable: skipped */
	snap_set_errno(sl, "gres_conf", -EACCES, "/etc/slurm/gres.conf");
	SKIPPED(s, DUPS);
	snapshot_unref(s);
}

/* SlinkyProject/slurm-operator#57: AutoDetect=amdgpu, which no Slurm knows, on AMD GPUs. */
static void test_autodetect_unknown(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *sl, *g;
	static const char *const known[] = { "rsmi", "NVML", "nvidia", "oneapi",
					     "nrt",  "full", "off",    "Off" };

	(void)state;
	NO(s, UNKNOWN); /* no Slurm on this machine */
	for (size_t i = 0; i < 8; i++) {
		g = gpu(s, "0x74a1", "amdgpu");
		snap_set_str(g, "vendor_id", "0x1002", "/sys/bus/pci/devices");
		snap_set_str(g, "vendor", "AMD", "/sys/bus/pci/devices");
	}
	sl = slurm(s);
	NO(s, UNKNOWN); /* no AutoDetect= at all */
	snap_set_str(sl, "autodetect", "amdgpu", "/etc/slurm/gres.conf:1");
	YES(s, UNKNOWN, GPUENV_SEVERITY_ERROR, "unknown autodetect flag 'amdgpu'");
	YES(s, UNKNOWN, GPUENV_SEVERITY_ERROR, "or ROCR_VISIBLE_DEVICES");
	FIX(s, UNKNOWN, "AutoDetect=rsmi");
	snap_set_str(sl, "node_gres", "gpu:8", "/etc/slurm/slurm.conf:9");
	snap_set_int(sl, "node_gres_gpus", 8, "/etc/slurm/slurm.conf:9");
	YES(s, UNKNOWN, GPUENV_SEVERITY_ERROR, "GPUs (slurm.conf's Gres=gpu:8) are a count");
	/* the values Slurm's gres.c knows, as substrings in any case; "off" only whole */
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		snap_set_str(sl, "autodetect", known[i], "/etc/slurm/gres.conf:1");
		NO(s, UNKNOWN);
	}
	snap_set_str(sl, "autodetect", "offline", "/etc/slurm/gres.conf:1");
	YES(s, UNKNOWN, GPUENV_SEVERITY_ERROR, "AutoDetect=offline");
	/* a File= line names the GPUs: they work, the value only logs its error */
	record(sl, 2, "gpu", NULL, LIST("/dev/dri/renderD128"), NULL);
	YES(s, UNKNOWN, GPUENV_SEVERITY_WARNING, "the GPUs are those File= names");
	/* gres.conf unreadable: skipped */
	snap_set_errno(sl, "gres_conf", -EACCES, "/etc/slurm/gres.conf");
	SKIPPED(s, UNKNOWN);
	snapshot_unref(s);

	/* GPUs of two vendors: no one mechanism to name */
	s = base();
	gpu(s, NULL, "nvidia");
	g = gpu(s, "0x74a1", "amdgpu");
	snap_set_str(g, "vendor_id", "0x1002", "/sys/bus/pci/devices");
	snap_set_str(slurm(s), "autodetect", "gpu", "/etc/slurm/gres.conf:1");
	YES(s, UNKNOWN, GPUENV_SEVERITY_ERROR, "unknown autodetect flag 'gpu'");
	NO_FIX(s, UNKNOWN, "AutoDetect=rsmi (this");
	NO_FIX(s, UNKNOWN, "AutoDetect=nvml (this");
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvml_autodetect_unbuilt),
		cmocka_unit_test(test_gres_file_missing),
		cmocka_unit_test(test_gres_file_missing_caused_by_driver),
		cmocka_unit_test(test_gres_duplicate_records),
		cmocka_unit_test(test_autodetect_unknown),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
