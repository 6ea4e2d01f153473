// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of src/snapshot: writers and typed readers, errno → state mapping, stable
 * sorted JSON, and the JSON round trip (written → loaded → written is byte-identical).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "gpuenv/gpuenv.h"
#include "snapshot/snapshot.h"

static struct gpuenv_snapshot *build(void)
{
	struct gpuenv_snapshot *s;
	struct snap_node *root, *gpus, *g;

	assert_int_equal(snapshot_new(&s), 0);
	root = snapshot_root(s);
	gpus = snap_array(snap_object(root, "hardware"), "gpus");
	g = snap_append_object(gpus);
	snap_set_str(g, "bus_id", "0000:18:00.0", "/sys/bus/pci/devices/0000:18:00.0");
	snap_set_int(g, "current_link_width", 16,
		     "/sys/bus/pci/devices/0000:18:00.0/current_link_width");
	snap_set_bool(g, "boot_vga", false, "x");
	snap_set_errno(snap_object(root, "driver"), "module_version", -ENOENT,
		       "/sys/module/nvidia/version");
	snap_set_errno(snap_object(root, "driver"), "proc_version", -EACCES,
		       "/proc/driver/nvidia/version");
	snap_set_malformed(snap_object(root, "driver"), "gcc", "garbage\x01", "/proc/x",
			   "no GCC line");
	snap_set_str(snap_object(root, "collection"), "hostname", "box",
		     "/proc/sys/kernel/hostname");
	assert_int_equal(snapshot_error(s), 0);
	return s;
}

static void test_readers(void **state)
{
	struct gpuenv_snapshot *s = build();
	const struct snap_node *root = snapshot_root_const(s);
	int64_t w;

	assert_string_equal(snap_get_str(root, "hardware.gpus.0.bus_id"), "0000:18:00.0");
	assert_true(snap_get_int(root, "hardware.gpus.0.current_link_width", &w));
	assert_int_equal(w, 16);
	assert_false(snap_get_bool_default(root, "hardware.gpus.0.boot_vga", true));
	assert_int_equal(snap_get_state(root, "driver.module_version"), FACT_ABSENT);
	assert_int_equal(snap_get_state(root, "driver.proc_version"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(root, "driver.gcc"), FACT_MALFORMED);
	assert_int_equal(snap_get_state(root, "driver.nothing"), FACT_UNPROBED);
	assert_null(snap_get(root, "hardware.gpus.1"));
	assert_null(snap_get_str(root, "driver.module_version"));
	snapshot_unref(s);
}

/* A path's component is looked up where it stands in the path (not copied out): keys that
 * start with it, or that it starts, sort around it and are not it. */
static void test_get_prefix_keys(void **state)
{
	static const char *const keys[] = { "driver", "driver_x", "drive", "driver.",
					    "d",      "drivers",  "e" };
	struct gpuenv_snapshot *s;
	struct snap_node *root;

	(void)state;
	assert_int_equal(snapshot_new(&s), 0);
	root = snapshot_root(s);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		snap_set_str(snap_object(root, keys[i]), "k", keys[i], "x");
	snap_set_str(root, "", "empty", "x");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char path[32];

		if (strchr(keys[i], '.'))
			continue; /* a key with a dot is not reachable by a path */
		snprintf(path, sizeof(path), "%s.k", keys[i]);
		assert_string_equal(snap_get_str(root, path), keys[i]);
		assert_ptr_equal(snap_get(root, keys[i]), snap_child(root, keys[i]));
	}
	assert_null(snap_get(root, "driv.k"));
	assert_null(snap_get(root, "driver.k.x"));
	assert_null(snap_get(root, "drivers_.k"));
	assert_string_equal(snap_get_str(root, "driver.k"), "driver");
	snapshot_unref(s);
}

static void test_str_or_absent(void **state)
{
	struct gpuenv_snapshot *s;
	struct snap_node *o;

	assert_int_equal(snapshot_new(&s), 0);
	o = snap_object(snapshot_root(s), "lib");
	snap_set_str_or_absent(o, "rpath", "$ORIGIN", "/lib.so", "no DT_RPATH");
	snap_set_str_or_absent(o, "runpath", NULL, "/lib.so", "no DT_RUNPATH");
	assert_string_equal(snap_get_str(o, "rpath"), "$ORIGIN");
	assert_int_equal(snap_get_state(o, "runpath"), FACT_ABSENT);
	assert_string_equal(snap_error(snap_get(o, "runpath")), "no DT_RUNPATH");
	assert_string_equal(snap_source(snap_get(o, "runpath")), "/lib.so");
	snapshot_unref(s);
}

static void test_json_round_trip(void **state)
{
	struct gpuenv_snapshot *s = build(), *back;
	char *a, *b, *c, *err = NULL;

	assert_int_equal(snapshot_to_json(s, 0, &a), 0);
	assert_non_null(strstr(a, "\"hostname\""));
	assert_int_equal(snapshot_to_json(s, SNAP_JSON_STABLE, &b), 0);
	assert_null(strstr(b, "hostname"));
	assert_non_null(strstr(b, "\"schema_version\": 2"));
	assert_int_equal(snapshot_from_json(a, strlen(a), &back, &err), 0);
	assert_int_equal(snapshot_to_json(back, 0, &c), 0);
	assert_string_equal(a, c);
	free(a);
	free(b);
	free(c);
	snapshot_unref(back);
	snapshot_unref(s);
}

/* Bytes that are not UTF-8 (issue 13.6): valid JSON with U+FFFD and the bytes in
 * "<member>_hex", and --from gives the same bytes back. Before, the value was dropped. */
static void test_json_not_utf8(void **state)
{
	struct gpuenv_snapshot *s, *back;
	struct snap_node *o;
	char *a, *c, *err = NULL;

	assert_int_equal(snapshot_new(&s), 0);
	o = snap_object(snapshot_root(s), "host");
	snap_set_str(o, "pretty",
		     "Debian \xe9"
		     "dition \xff",
		     "/etc/os-\xfe");
	snap_set_malformed(o, "bad", "550.54.15\xff", "/sys/module/nvidia/version", "no version");
	snap_set_str(o, "ok", "caf\xc3\xa9 \xe2\x82\xac", "/x");
	assert_int_equal(snapshot_to_json(s, SNAP_JSON_STABLE, &a), 0);
	assert_non_null(strstr(a, "\"value\": \"Debian \xef\xbf\xbd"
				  "dition \xef\xbf\xbd\""));
	assert_non_null(strstr(a, "\"value_hex\": \"44656269616e20e9646974696f6e20ff\""));
	assert_non_null(strstr(a, "\"source_hex\": \"2f6574632f6f732dfe\""));
	assert_non_null(strstr(a, "\"raw_hex\": \"3535302e35342e3135ff\""));
	assert_null(strstr(a, "\"error_hex\""));
	assert_int_equal(snapshot_from_json(a, strlen(a), &back, &err), 0);
	assert_string_equal(snap_get_str(snapshot_root(back), "host.pretty"), "Debian \xe9"
									      "dition \xff");
	assert_string_equal(snap_source(snap_get(snapshot_root(back), "host.pretty")),
			    "/etc/os-\xfe");
	assert_string_equal(snap_raw(snap_get(snapshot_root(back), "host.bad")), "550.54.15\xff");
	assert_string_equal(snap_get_str(snapshot_root(back), "host.ok"),
			    "caf\xc3\xa9 \xe2\x82\xac");
	assert_int_equal(snapshot_to_json(back, SNAP_JSON_STABLE, &c), 0);
	assert_string_equal(a, c);
	free(a);
	free(c);
	snapshot_unref(back);
	snapshot_unref(s);
}

static void test_json_rejects(void **state)
{
	static const char *const bad[] = {
		"not json",
		"[]",
		"{\"hardware\":{}}",				      /* no schema_version */
		"{\"schema_version\":1,\"hardware\":3}",	      /* bare leaf */
		"{\"schema_version\":1,\"a\":{\"state\":\"bogus\"}}", /* unknown state */
		"{\"schema_version\":1,\"a\":{\"state\":\"present\",\"x\":\"y\"}}",
		"{\"schema_version\":1,\"a\":{\"state\":\"present\",\"value\":[1]}}",
		"{\"schema_version\":1,\"a\":{},\"a\":{}}",
		/* _hex without its string, not hex, a NUL byte */
		"{\"schema_version\":1,\"a\":{\"state\":\"present\",\"value_hex\":\"41\"}}",
		"{\"schema_version\":1,\"a\":{\"state\":\"present\",\"value\":\"?\","
		"\"value_hex\":\"4g\"}}",
		"{\"schema_version\":1,\"a\":{\"state\":\"present\",\"value\":\"?\","
		"\"value_hex\":\"4100\"}}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gpuenv_snapshot *s = NULL;
		char *err = NULL;
		int r = snapshot_from_json(bad[i], strlen(bad[i]), &s, &err);

		assert_true(r == -EBADMSG || r == -EPROTONOSUPPORT);
		assert_null(s);
		free(err);
	}
}

/*
 * A snapshot of schema 1 (an older gpuenv) loads with the framework dist keys of schema 2:
 * TensorFlow's METADATA version and CuPy's dists[].{name,version} renamed; a schema newer
 * than this gpuenv's, or 0, is refused with the versions it reads.
 */
static void test_json_schema_1(void **state)
{
	static const char v1[] =
		"{\"schema_version\":1,\"framework\":{\"python_envs\":[{\"packages\":{"
		"\"tensorflow\":{\"version\":{\"state\":\"present\",\"value\":\"2.15.0\"}},"
		"\"cupy\":{\"dists\":[{\"name\":{\"state\":\"present\",\"value\":"
		"\"cupy-cuda12x\"},\"version\":{\"state\":\"present\",\"value\":\"13.3.0\"}}]}"
		"}}]}}";
	static const char *const newer[] = { "{\"schema_version\":3}", "{\"schema_version\":0}" };
	struct gpuenv_snapshot *s = NULL;
	const struct snap_node *pk;
	char *err = NULL, *out = NULL;

	assert_int_equal(snapshot_from_json(v1, strlen(v1), &s, &err), 0);
	pk = snap_get(snapshot_root(s), "framework.python_envs.0.packages");
	assert_string_equal(snap_get_str(pk, "tensorflow.dist_version"), "2.15.0");
	assert_null(snap_get(pk, "tensorflow.version"));
	assert_string_equal(snap_get_str(pk, "cupy.dists.0.dist_name"), "cupy-cuda12x");
	assert_string_equal(snap_get_str(pk, "cupy.dists.0.dist_version"), "13.3.0");
	assert_null(snap_get(pk, "cupy.dists.0.name"));
	/* written back, it is a snapshot of schema 2 */
	assert_int_equal(snapshot_to_json(s, SNAP_JSON_STABLE, &out), 0);
	assert_non_null(strstr(out, "\"schema_version\": 2"));
	free(out);
	snapshot_unref(s);
	for (size_t i = 0; i < ARRAY_SIZE(newer); i++) {
		s = NULL;
		err = NULL;
		assert_int_equal(snapshot_from_json(newer[i], strlen(newer[i]), &s, &err),
				 -EPROTONOSUPPORT);
		assert_null(s);
		assert_non_null(err);
		assert_non_null(strstr(err, "(1 or 2)"));
		free(err);
	}
}

/*
 * --from at scale: 100,000 keys in reverse order in one object load in linear time (each
 * inserted in place cost a memmove of the whole array: 200,000 took 436 s under ASan), sorted;
 * and a text over the cap is refused before jansson sees it.
 */
static void test_json_many_keys(void **state)
{
	const unsigned n = 100000;
	size_t cap = (size_t)n * 48 + 64, len = 0;
	char *text = malloc(cap), *err = NULL;
	const struct snap_node *bulk;
	struct gpuenv_snapshot *s = NULL;
	int64_t v;
	clock_t t;

	assert_non_null(text);
	len += (size_t)snprintf(text, cap, "{\"schema_version\":1,\"bulk\":{");
	for (unsigned i = n; i-- > 0;)
		len += (size_t)snprintf(text + len, cap - len,
					"\"k%06u\":{\"state\":\"present\",\"value\":%u}%s", i, i,
					i ? "," : "}}");
	t = clock();
	assert_int_equal(snapshot_from_json(text, len, &s, &err), 0);
	t = clock() - t;
	printf("# %u reversed keys loaded in %.2f s of CPU\n", n, (double)t / CLOCKS_PER_SEC);
	/* 1.2-1.4 s here under ASan; the in-place insertion took 16.7 s. */
	assert_true((double)t / CLOCKS_PER_SEC < 8.0);
	bulk = snap_get(snapshot_root_const(s), "bulk");
	assert_int_equal(snap_count(bulk), n);
	for (unsigned i = 1; i < n; i++)
		assert_true(strcmp(snap_key(snap_at(bulk, i - 1)), snap_key(snap_at(bulk, i))) < 0);
	assert_true(snap_get_int(bulk, "k042424", &v));
	assert_int_equal(v, 42424);
	snapshot_unref(s);
	free(text);
	assert_int_equal(snapshot_from_json("{}", SNAPSHOT_JSON_MAX_BYTES + 1, &s, &err), -EFBIG);
}

static void test_state_names(void **state)
{
	for (int i = 0; i < _FACT_STATE_MAX; i++)
		assert_int_equal(fact_state_from_string(fact_state_to_string((enum fact_state)i)),
				 i);
	assert_int_equal(fact_state_from_errno(-EPERM), FACT_UNREADABLE);
	assert_int_equal(fact_state_from_errno(-EBADMSG), FACT_MALFORMED);
	assert_int_equal(fact_state_from_errno(-EIO), FACT_ERROR);
}

/* The header's version macros and the library's string come from the same Meson project
 * version. */
static void test_version_macros(void **state)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d.%d.%d", GPUENV_VERSION_MAJOR, GPUENV_VERSION_MINOR,
		 GPUENV_VERSION_MICRO);
	assert_string_equal(buf, gpuenv_version());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readers),		cmocka_unit_test(test_str_or_absent),
		cmocka_unit_test(test_json_round_trip), cmocka_unit_test(test_json_rejects),
		cmocka_unit_test(test_json_schema_1),	cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_json_many_keys),	cmocka_unit_test(test_version_macros),
		cmocka_unit_test(test_json_not_utf8),	cmocka_unit_test(test_get_prefix_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
