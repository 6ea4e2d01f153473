// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The module gates of the AMD SMI and Level Zero probes (src/probe/probe-amd-smi.c,
 * probe-level-zero.c), over a temp tree used as the sysroot with the library named (so that
 * only the module decides): a library is not called without its kernel module
 * (/sys/module/<m>, the sysfs-module ABI), and a /sys/module/<m> that cannot be looked at
 * (root error injection) is recorded as that failure, never as "not loaded". The library is
 * never called here: the module is either missing or unreadable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "probe/probe.h"
#include "probe-fx.h"

static int setup(void **state)
{
	*state = probe_fx_new("vendor-gate");
	return 0;
}

static int teardown(void **state)
{
	probe_fx_free(*state);
	return 0;
}

/* The probe over the empty tree, the library named (never called: no module there), with
 * inject's failures ("PATH=ERRNAME"; NULL: none). */
static const struct snap_node *run(struct probe_fx *f, const char *inject,
				   int (*probe)(struct probe_env *pe, struct gpuenv_snapshot *s))
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o),
				     .sysroot = f->dir,
				     .amdsmi_lib = "/nonexistent/libamd_smi.so",
				     .ze_lib = "/nonexistent/libze_loader.so.1" };

	probe_fx_open(f, &o);
	probe_fx_inject(f, inject);
	return probe_fx_run(f, probe);
}

static void assert_fact(const struct snap_node *r, const char *path, enum fact_state state,
			const char *source, const char *error)
{
	const struct snap_node *n = snap_get(r, path);

	assert_non_null(n);
	assert_int_equal(snap_state(n), state);
	assert_string_equal(snap_source(n), source);
	assert_string_equal(snap_error(n), error);
}

static void test_amdsmi(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	r = run(f, NULL, probe_amdsmi);
	assert_fact(r, "driver.amdsmi.init", FACT_UNPROBED, "/sys/module/amdgpu",
		    "not called: amdgpu kernel module not loaded (AMD SMI has no GPU to open)");
	/* loaded or not, nobody knows: the read failure, in its state */
	r = run(f, "/sys/module/amdgpu=EACCES", probe_amdsmi);
	assert_fact(r, "driver.amdsmi.init", FACT_UNREADABLE, "/sys/module/amdgpu",
		    "not called: could not tell whether the amdgpu kernel module is loaded "
		    "(/sys/module/amdgpu: Permission denied)");
	assert_int_equal(snap_get_state(r, "driver.amdsmi.library"), FACT_UNREADABLE);
	r = run(f, "/sys/module/amdgpu=EIO", probe_amdsmi);
	assert_fact(r, "driver.amdsmi.init", FACT_ERROR, "/sys/module/amdgpu",
		    "not called: could not tell whether the amdgpu kernel module is loaded "
		    "(/sys/module/amdgpu: Input/output error)");
}

static void test_level_zero(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	r = run(f, NULL, probe_ze_session);
	assert_fact(r, "driver.level_zero.init", FACT_UNPROBED, "/sys/module/i915",
		    "not called: neither the i915 nor the xe kernel module is loaded (Level "
		    "Zero's GPU driver has no GPU to open)");
	r = run(f, "/sys/module/xe=EACCES", probe_ze_session);
	assert_fact(r, "driver.level_zero.init", FACT_UNREADABLE, "/sys/module/xe",
		    "not called: could not tell whether the i915 or xe kernel module is loaded "
		    "(/sys/module/xe: Permission denied)");
	/* a failure that is not a permission is an error, as every read's (snapshot.h) */
	r = run(f, "/sys/module/i915=EIO", probe_ze_session);
	assert_fact(r, "driver.level_zero.init", FACT_ERROR, "/sys/module/i915",
		    "not called: could not tell whether the i915 or xe kernel module is loaded "
		    "(/sys/module/i915: Input/output error)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_amdsmi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_level_zero, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
