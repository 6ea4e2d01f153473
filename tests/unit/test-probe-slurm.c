// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Slurm probe (src/probe/probe-slurm.c, runtime.slurm) against trees built in a temp dir:
 * gres.conf lines as gres.conf(5) writes them (this node's by NodeName=, bracketed host and
 * device lists, AutoDetect= global and per node), whether each File= device exists, slurm.conf's
 * GresTypes, PluginDir and Include, cgroup.conf's ConstrainDevices, /etc/slurm-llnl, and the
 * plugin directory's gres_gpu.so / gpu_nvml.so; unreadable inputs are recorded as such.
 * The gres.conf texts follow the public reports the fixtures come from (NVIDIA/deepops#1214,
 * fgci-org/ansible-role-cuda#3, ComputeCanada/puppet-magic_castle#27).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "probe/probe.h"
#include "probe-fx.h"

static int setup(void **state)
{
	*state = probe_fx_new("slurm");
	return 0;
}

static int teardown(void **state)
{
	probe_fx_free(*state);
	return 0;
}

static void puts_(struct probe_fx *f, const char *rel, const char *text)
{
	tmptree_puts(f->dir, rel, text);
}

/* runtime.slurm after the probe ran over the tree (inject: root errors, or NULL). */
static const struct snap_node *run(struct probe_fx *f, const char *inject)
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir };

	probe_fx_open(f, &o);
	probe_fx_inject(f, inject);
	return snap_get(probe_fx_run(f, probe_slurm), "runtime.slurm");
}

static const char *str_at(const struct snap_node *n, const char *path, size_t i)
{
	return snap_str(snap_at(snap_get(n, path), i));
}

static void test_no_slurm(void **state)
{
	struct probe_fx *f = *state;

	puts_(f, "/etc/os-release", "ID=debian\n");
	assert_null(run(f, NULL)); /* no configuration directory: no key at all */
}

/* This node's lines only, device lists expanded, and which of their files exist. */
static void test_gres_lines_of_this_node(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *sl, *e;

	puts_(f, "/proc/sys/kernel/hostname", "gpu02.cluster\n");
	puts_(f, "/etc/slurm/gres.conf",
	      "# two nodes, four GPUs each\n"
	      "NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-2]\n"
	      "NodeName=cpu01 Name=gpu File=/dev/nvidia7\n"
	      "Name=mps Count=100\n");
	puts_(f, "/dev/nvidia0", "");
	puts_(f, "/dev/nvidia1", "");
	sl = run(f, NULL);
	assert_non_null(sl);
	assert_string_equal(snap_get_str(sl, "gres_conf"), "/etc/slurm/gres.conf");
	assert_int_equal(snap_count(snap_get(sl, "gres")), 2); /* cpu01's line is not ours */
	e = snap_at(snap_get(sl, "gres"), 0);
	assert_string_equal(snap_get_str(e, "name"), "gpu");
	assert_string_equal(snap_get_str(e, "type"), "a100");
	assert_string_equal(snap_get_str(e, "line"), "/etc/slurm/gres.conf:2");
	assert_int_equal(snap_count(snap_get(e, "files")), 3);
	assert_string_equal(str_at(e, "files", 2), "/dev/nvidia2");
	assert_int_equal(snap_count(snap_get(e, "files_absent")), 1);
	assert_string_equal(str_at(e, "files_absent", 0), "/dev/nvidia2");
	e = snap_at(snap_get(sl, "gres"), 1);
	assert_string_equal(snap_get_str(e, "name"), "mps");
	assert_string_equal(snap_get_str(e, "count"), "100");
	assert_null(snap_get(e, "files"));
	assert_null(snap_get(e, "files_absent"));
	/* no AutoDetect anywhere: absent, not unknown */
	assert_int_equal(snap_get_state(sl, "autodetect"), FACT_ABSENT);
}

/* fgci-org/ansible-role-cuda#3's path, with its doubled slash, and no /dev/nvidia0. */
static void test_gres_file_absent(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *e;

	puts_(f, "/etc/slurm/gres.conf", "Name=gpu File=/dev//nvidia0\n");
	puts_(f, "/dev/nvidiactl", "");
	e = snap_at(snap_get(run(f, NULL), "gres"), 0);
	assert_string_equal(str_at(e, "files", 0), "/dev//nvidia0");
	assert_int_equal(snap_count(snap_get(e, "files_absent")), 1);
	assert_string_equal(str_at(e, "files_absent", 0), "/dev//nvidia0");
}

/* A File= that could not be looked at is unreadable, never "there" nor "absent". */
static void test_gres_file_unreadable(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *e;

	puts_(f, "/etc/slurm/gres.conf", "Name=gpu File=/dev/nvidia0\n");
	puts_(f, "/dev/nvidia0", "");
	e = snap_at(snap_get(run(f, "/dev/nvidia0=EACCES"), "gres"), 0);
	assert_int_equal(snap_get_state(e, "files_absent"), FACT_UNREADABLE);
}

/* ComputeCanada/puppet-magic_castle#27: AutoDetect=nvml and two bare Name=gpu lines. */
static void test_gres_bare_records(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *sl;

	puts_(f, "/etc/slurm/gres.conf",
	      "###########################################################\n"
	      "# Slurm's Generic Resource (GRES) configuration file\n"
	      "AutoDetect=nvml\nName=gpu\nName=gpu\n");
	sl = run(f, NULL);
	assert_string_equal(snap_get_str(sl, "autodetect"), "nvml");
	assert_int_equal(snap_count(snap_get(sl, "gres")), 2);
	assert_string_equal(snap_get_str(snap_at(snap_get(sl, "gres"), 1), "line"),
			    "/etc/slurm/gres.conf:5");
	assert_null(snap_get(snap_at(snap_get(sl, "gres"), 1), "files"));
}

/* A NodeName line's AutoDetect is this node's over the global one, another node's is not. */
static void test_autodetect_per_node(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *sl;

	puts_(f, "/etc/hostname", "gpu01\n");
	puts_(f, "/etc/slurm/gres.conf",
	      "AutoDetect=off\nNodeName=gpu01 AutoDetect=nvml\nNodeName=gpu02 AutoDetect=rsmi\n");
	sl = run(f, NULL);
	assert_string_equal(snap_get_str(sl, "autodetect"), "nvml");
	assert_string_equal(snap_source(snap_get(sl, "autodetect")), "/etc/slurm/gres.conf:2");
}

/* slurm.conf's GresTypes through an Include, cgroup.conf's ConstrainDevices, PluginDir. */
static void test_settings_and_plugins(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *sl;

	puts_(f, "/etc/slurm/slurm.conf",
	      "ClusterName=c\nInclude nodes.conf\nPluginDir=/opt/slurm/lib/slurm\n"
	      "Include /etc/slurm/missing.conf\n");
	puts_(f, "/etc/slurm/nodes.conf", "GresTypes=gpu\n");
	puts_(f, "/etc/slurm/cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n");
	puts_(f, "/opt/slurm/lib/slurm/gres_gpu.so", "");
	puts_(f, "/usr/lib64/slurm/gres_gpu.so", ""); /* not the one slurm.conf names */
	puts_(f, "/usr/lib64/slurm/gpu_nvml.so", "");
	sl = run(f, NULL);
	assert_string_equal(snap_get_str(sl, "gres_types"), "gpu");
	assert_string_equal(snap_source(snap_get(sl, "gres_types")), "/etc/slurm/nodes.conf:1");
	assert_string_equal(str_at(sl, "includes_unread", 0), "/etc/slurm/missing.conf");
	assert_string_equal(snap_get_str(sl, "constrain_devices"), "yes");
	assert_string_equal(snap_get_str(sl, "plugin_dir"), "/opt/slurm/lib/slurm");
	assert_int_equal(snap_get_state(sl, "gres_conf"), FACT_ABSENT);
	{
		bool has;

		assert_true(snap_bool(snap_get(sl, "gpu_nvml_plugin"), &has));
		assert_false(has);
	}
}

/* slurm.conf's Gres= for this node: its own NodeName line (a host list), else a NodeName=DEFAULT
 * line before it; the GPUs it configures summed over its gpu entries. */
static void test_node_gres(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *sl;
	int64_t n = -1;

	puts_(f, "/proc/sys/kernel/hostname", "gpu02\n");
	puts_(f, "/etc/slurm/slurm.conf",
	      "GresTypes=gpu,mps\n"
	      "NodeName=DEFAULT Gres=gpu:2\n"
	      "NodeName=gpu[01-02] CPUs=32 Gres=gpu:a100:3,gpu:t4:1,mps:400 State=UNKNOWN\n"
	      "NodeName=cpu01 CPUs=8 Gres=gpu:9\n");
	sl = run(f, NULL);
	assert_string_equal(snap_get_str(sl, "node_gres"), "gpu:a100:3,gpu:t4:1,mps:400");
	assert_true(snap_get_int(sl, "node_gres_gpus", &n));
	assert_int_equal(n, 4);
	assert_string_equal(snap_source(snap_get(sl, "node_gres_gpus")), "/etc/slurm/slurm.conf:3");
}

static void test_node_gres_default_and_malformed(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *sl;
	int64_t n = -1;

	puts_(f, "/proc/sys/kernel/hostname", "gpu05\n");
	puts_(f, "/etc/slurm/slurm.conf", "NodeName=DEFAULT Gres=gpu\nNodeName=gpu05 CPUs=8\n");
	sl = run(f, NULL);
	assert_true(snap_get_int(sl, "node_gres_gpus", &n));
	assert_int_equal(n, 1); /* "gpu": one */
	probe_fx_free(f);
	*state = f = probe_fx_new("slurm");
	puts_(f, "/proc/sys/kernel/hostname", "gpu05\n");
	puts_(f, "/etc/slurm/slurm.conf", "NodeName=gpu05 Gres=gpu:4X\n");
	sl = run(f, NULL);
	assert_int_equal(snap_get_state(sl, "node_gres_gpus"), FACT_MALFORMED);
	probe_fx_free(f);
	*state = f = probe_fx_new("slurm");
	puts_(f, "/proc/sys/kernel/hostname", "cpu01\n");
	puts_(f, "/etc/slurm/slurm.conf", "NodeName=gpu05 Gres=gpu:4\n");
	sl = run(f, NULL);
	assert_null(snap_get(sl, "node_gres")); /* another node's line */
}

/* Debian and Ubuntu's /etc/slurm-llnl, the packaged plugin directory found without
 * PluginDir, and gpu_nvml.so there. */
static void test_slurm_llnl_default_plugin_dir(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *sl;
	bool has = false;

	puts_(f, "/etc/slurm-llnl/gres.conf", "AutoDetect=nvml\n");
	puts_(f, "/usr/lib/x86_64-linux-gnu/slurm-wlm/gres_gpu.so", "");
	puts_(f, "/usr/lib/x86_64-linux-gnu/slurm-wlm/gpu_nvml.so", "");
	sl = run(f, NULL);
	assert_string_equal(snap_get_str(sl, "config_dir"), "/etc/slurm-llnl");
	assert_string_equal(snap_get_str(sl, "plugin_dir"), "/usr/lib/x86_64-linux-gnu/slurm-wlm");
	assert_true(snap_bool(snap_get(sl, "gpu_nvml_plugin"), &has));
	assert_true(has);
}

/* No gres_gpu.so anywhere: the plugin directory is absent; an unreadable gres.conf is
 * unreadable. */
static void test_no_plugins_unreadable_gres(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *sl;

	puts_(f, "/etc/slurm/gres.conf", "AutoDetect=nvml\n");
	sl = run(f, "/etc/slurm/gres.conf=EACCES");
	assert_int_equal(snap_get_state(sl, "gres_conf"), FACT_UNREADABLE);
	assert_null(snap_get(sl, "gres"));
	assert_int_equal(snap_get_state(sl, "plugin_dir"), FACT_ABSENT);
	assert_null(snap_get(sl, "gpu_nvml_plugin"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_slurm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gres_lines_of_this_node, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gres_file_absent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gres_file_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gres_bare_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_autodetect_per_node, setup, teardown),
		cmocka_unit_test_setup_teardown(test_settings_and_plugins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_node_gres, setup, teardown),
		cmocka_unit_test_setup_teardown(test_node_gres_default_and_malformed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_slurm_llnl_default_plugin_dir, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_plugins_unreadable_gres, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
