/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The public API's render convention (include/gpuenv/gpuenv.h, "rendering"): every render
 * function takes (enum gpuenv_format, unsigned flags, char **ret), answers each format it
 * offers with a malloc'd NUL-terminated string (JSON that parses), refuses every other format
 * with -EOPNOTSUPP and a NULL argument with -EINVAL, and writes *ret only on success. Over the
 * no-gpu fixture, vendor libraries off.
 */
#include <errno.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpuenv/gpuenv.h"

static struct gpuenv_ctx *ctx;
static struct gpuenv_snapshot *snap;
static struct gpuenv_doctor *doc;
static struct gpuenv_scan *scan;
static struct gpuenv_policy *policy;
static struct gpuenv_check *check;
static struct gpuenv_diff *diff;
static struct gpuenv_fleet *fleet;

static int r_snapshot(enum gpuenv_format f, char **ret)
{
	return gpuenv_snapshot_render(snap, f, GPUENV_RENDER_STABLE, ret);
}
static int r_scan(enum gpuenv_format f, char **ret)
{
	return gpuenv_scan_render(scan, f, 0, ret);
}
static int r_doctor(enum gpuenv_format f, char **ret)
{
	return gpuenv_doctor_render(doc, f, GPUENV_RENDER_STABLE, ret);
}
static int r_diff(enum gpuenv_format f, char **ret)
{
	return gpuenv_diff_render(diff, f, 0, ret);
}
static int r_fleet(enum gpuenv_format f, char **ret)
{
	return gpuenv_fleet_render(fleet, f, 0, ret);
}
static int r_labels(enum gpuenv_format f, char **ret)
{
	return gpuenv_doctor_labels(doc, f, 0, ret);
}
static int r_rules(enum gpuenv_format f, char **ret)
{
	return gpuenv_doctor_list_rules(f, 0, ret);
}
static int r_check(enum gpuenv_format f, char **ret)
{
	return gpuenv_check_render(check, f, GPUENV_RENDER_STABLE, ret);
}
static int r_check_matrix(enum gpuenv_format f, char **ret)
{
	const struct gpuenv_check *both[] = { check, check };
	const char *const targets[] = { "a", NULL };

	return gpuenv_check_render_matrix(both, targets, 2, f, GPUENV_RENDER_REDACT, ret);
}
static int r_facts(enum gpuenv_format f, char **ret)
{
	return gpuenv_facts_query("cuda", "12.4", f, 0, ret);
}

#define F(x) (1u << GPUENV_FORMAT_##x)
static const struct renderer {
	const char *name;
	int (*render)(enum gpuenv_format f, char **ret);
	unsigned formats; /* the formats it offers */
} renderers[] = {
	{ "gpuenv_snapshot_render", r_snapshot, F(TEXT) | F(JSON) },
	{ "gpuenv_scan_render", r_scan, F(TEXT) | F(JSON) },
	{ "gpuenv_doctor_render", r_doctor, F(TEXT) | F(JSON) | F(MARKDOWN) | F(MERMAID) },
	{ "gpuenv_doctor_list_rules", r_rules, F(TEXT) | F(JSON) | F(MARKDOWN) },
	{ "gpuenv_facts_query", r_facts, F(TEXT) | F(JSON) },
	{ "gpuenv_check_render", r_check,
	  F(TEXT) | F(JSON) | F(MARKDOWN) | F(JUNIT) | F(SARIF) | F(GITHUB) },
	{ "gpuenv_check_render_matrix", r_check_matrix,
	  F(TEXT) | F(JSON) | F(MARKDOWN) | F(JUNIT) | F(SARIF) | F(GITHUB) },
	{ "gpuenv_diff_render", r_diff, F(TEXT) | F(JSON) | F(MARKDOWN) },
	{ "gpuenv_fleet_render", r_fleet, F(TEXT) | F(JSON) | F(MARKDOWN) },
	{ "gpuenv_doctor_labels", r_labels, F(TEXT) | F(JSON) },
};

static int setup(void **state)
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o),
				     .sysroot =
					     GPUENV_TEST_SOURCE_ROOT "/tests/fixtures/no-gpu/root",
				     .flags = GPUENV_CTX_STABLE | GPUENV_CTX_NO_VENDOR };
	char *json;
	int r;

	if (gpuenv_ctx_new(&o, &ctx) < 0 || gpuenv_snapshot_collect(ctx, &snap) < 0 ||
	    gpuenv_doctor_run(snap, &doc) < 0 || gpuenv_scan_new(ctx, NULL, &scan) < 0 ||
	    gpuenv_policy_parse("version: 1\n", 11, &policy, NULL, NULL) < 0 ||
	    gpuenv_check_run(doc, policy, NULL, "2026-01-01", &check) < 0 ||
	    gpuenv_diff_new("a", snap, "b", snap, &diff) < 0 || gpuenv_fleet_new(&fleet) < 0)
		return -1;
	/* one machine: the snapshot's own JSON (the rules run on it), one file not read */
	if (gpuenv_snapshot_render(snap, GPUENV_FORMAT_JSON, GPUENV_RENDER_STABLE, &json) < 0)
		return -1;
	r = gpuenv_fleet_add(fleet, "machine", json, strlen(json));
	free(json);
	if (r < 0 || gpuenv_fleet_add_unread(fleet, "other", "Permission denied") < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	gpuenv_check_free(check);
	gpuenv_policy_free(policy);
	gpuenv_fleet_free(fleet);
	gpuenv_diff_free(diff);
	gpuenv_scan_free(scan);
	gpuenv_doctor_free(doc);
	gpuenv_snapshot_unref(snap);
	gpuenv_ctx_free(ctx);
	return 0;
}

static void test_formats(void **state)
{
	static const int formats[] = { GPUENV_FORMAT_TEXT,
				       GPUENV_FORMAT_JSON,
				       GPUENV_FORMAT_MARKDOWN,
				       GPUENV_FORMAT_MERMAID,
				       GPUENV_FORMAT_JUNIT,
				       GPUENV_FORMAT_SARIF,
				       GPUENV_FORMAT_GITHUB,
				       7,
				       99,
				       -1 };

	for (size_t i = 0; i < sizeof(renderers) / sizeof(renderers[0]); i++) {
		const struct renderer *r = &renderers[i];

		for (size_t j = 0; j < sizeof(formats) / sizeof(formats[0]); j++) {
			int f = formats[j];
			bool offered = f >= 0 && f < 32 && (r->formats & (1u << f));
			char sentinel[] = "unchanged", *out = sentinel;
			int rv = r->render((enum gpuenv_format)f, &out);

			print_message("%s format %d: %d\n", r->name, f, rv);
			if (!offered) {
				assert_int_equal(rv, -EOPNOTSUPP);
				assert_ptr_equal(out, sentinel);
				continue;
			}
			assert_int_equal(rv, 0);
			assert_ptr_not_equal(out, sentinel);
			assert_true(strlen(out) > 0);
			if (f == GPUENV_FORMAT_JSON || f == GPUENV_FORMAT_SARIF) {
				json_error_t e;
				json_t *doc_json = json_loads(out, 0, &e);

				assert_non_null(doc_json);
				json_decref(doc_json);
			}
			free(out);
		}
	}
}

static void test_null_arguments(void **state)
{
	struct gpuenv_diff *diff2 = NULL;
	char *out = NULL;

	assert_int_equal(gpuenv_snapshot_render(NULL, GPUENV_FORMAT_TEXT, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_snapshot_render(snap, GPUENV_FORMAT_TEXT, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_scan_render(NULL, GPUENV_FORMAT_JSON, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_scan_render(scan, GPUENV_FORMAT_JSON, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_doctor_render(NULL, GPUENV_FORMAT_TEXT, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_doctor_render(doc, GPUENV_FORMAT_TEXT, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_doctor_list_rules(GPUENV_FORMAT_TEXT, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_check_render(NULL, GPUENV_FORMAT_JUNIT, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_check_render(check, GPUENV_FORMAT_SARIF, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_check_render_matrix(NULL, NULL, 1, GPUENV_FORMAT_JSON, 0, &out),
			 -EINVAL);
	assert_int_equal(gpuenv_check_render_matrix((const struct gpuenv_check *[]){ check }, NULL,
						    0, GPUENV_FORMAT_JSON, 0, &out),
			 -EINVAL);
	assert_int_equal(gpuenv_check_render_matrix((const struct gpuenv_check *[]){ NULL }, NULL,
						    1, GPUENV_FORMAT_JSON, 0, &out),
			 -EINVAL);
	assert_int_equal(gpuenv_check_run(doc, policy, NULL, "2026-02-30", &check), -EINVAL);
	assert_int_equal(gpuenv_check_run(NULL, policy, NULL, "2026-01-01", &check), -EINVAL);
	assert_int_equal(gpuenv_policy_parse(NULL, 0, &policy, NULL, NULL), -EINVAL);
	assert_int_equal(gpuenv_policy_set_profile(policy, "gpu"), -EINVAL);
	assert_int_equal(gpuenv_facts_query(NULL, "12.4", GPUENV_FORMAT_TEXT, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_facts_query("cuda", NULL, GPUENV_FORMAT_TEXT, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_facts_query("cuda", "12.4", GPUENV_FORMAT_TEXT, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_diff_render(NULL, GPUENV_FORMAT_TEXT, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_diff_render(diff, GPUENV_FORMAT_TEXT, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_diff_new("a", NULL, "b", snap, &diff2), -EINVAL);
	assert_int_equal(gpuenv_diff_get_count(NULL), 0);
	assert_int_equal(gpuenv_diff_get_count(diff), 0);
	assert_int_equal(gpuenv_doctor_labels(NULL, GPUENV_FORMAT_TEXT, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_doctor_labels(doc, GPUENV_FORMAT_TEXT, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_fleet_render(NULL, GPUENV_FORMAT_TEXT, 0, &out), -EINVAL);
	assert_int_equal(gpuenv_fleet_render(fleet, GPUENV_FORMAT_TEXT, 0, NULL), -EINVAL);
	assert_int_equal(gpuenv_fleet_add(NULL, "x", "{}", 2), -EINVAL);
	assert_int_equal(gpuenv_fleet_new(NULL), -EINVAL);
	assert_int_equal(gpuenv_fleet_get_machine_count(fleet), 1);
	/* the file not read is a problem */
	assert_true(gpuenv_fleet_get_problem_count(fleet) >= 1);
	assert_null(out);
}

/* An exporter sample's NVML health read from the snapshot in place: a session that ended
 * badly, two GPUs lost, the child's restarts and where it is stuck; absent facts leave
 * session_ok true and no restarts. */
static void test_nvml_health(void **state)
{
	static const char json[] =
		"{\"schema_version\":2,\"driver\":{\"nvml\":{"
		"\"session\":{\"source\":\"nvml child\",\"state\":\"error\",\"error\":\"timed out\"},"
		"\"session_restarts\":{\"source\":\"exporter\",\"state\":\"present\",\"value\":3},"
		"\"session_stuck\":{\"source\":\"/proc/1/wchan\",\"state\":\"present\","
		"\"value\":\"nv_wait\"},"
		"\"devices\":[{\"uuid\":{\"source\":\"nvml\",\"state\":\"error\",\"error\":"
		"\"NVML_ERROR_GPU_IS_LOST (15): GPU is lost\"},\"name\":{\"source\":\"nvml\","
		"\"state\":\"error\",\"error\":\"NVML_ERROR_GPU_IS_LOST (15): GPU is lost\"}},"
		"{\"name\":{\"source\":\"nvml\",\"state\":\"present\",\"value\":\"H100\"}},"
		"{\"uuid\":{\"source\":\"nvml\",\"state\":\"error\",\"error\":"
		"\"NVML_ERROR_GPU_IS_LOST (15): GPU is lost\"}}]}}}";
	struct gpuenv_snapshot *s = NULL;
	struct gpuenv_nvml_health h;

	(void)state;
	assert_int_equal(gpuenv_snapshot_from_json(ctx, json, sizeof(json) - 1, &s), 0);
	assert_int_equal(gpuenv_snapshot_nvml_health(s, &h), 0);
	assert_int_equal(h.session_ok, 0);
	assert_int_equal(h.lost, 2); /* a GPU is counted once, whichever facts say so */
	assert_int_equal(h.has_restarts, 1);
	assert_int_equal(h.restarts, 3);
	assert_string_equal(h.stuck, "nv_wait");
	gpuenv_snapshot_unref(s);
	/* the no-gpu fixture's snapshot: no NVML session recorded */
	assert_int_equal(gpuenv_snapshot_nvml_health(snap, &h), 0);
	assert_int_equal(h.session_ok, 1);
	assert_int_equal(h.lost, 0);
	assert_int_equal(h.has_restarts, 0);
	assert_string_equal(h.stuck, "");
	assert_int_equal(gpuenv_snapshot_nvml_health(NULL, &h), -EINVAL);
	assert_int_equal(gpuenv_snapshot_nvml_health(snap, NULL), -EINVAL);
}

/* The host name a collection records: the caller's (the exporter's $NODE_NAME, as
 * dcgm-exporter's Hostname label) where given and not empty, else the root's
 * /proc/sys/kernel/hostname (none in the no-gpu fixture). */
static void collect_hostname(const char *hostname, char **ret_json)
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o),
				     .sysroot =
					     GPUENV_TEST_SOURCE_ROOT "/tests/fixtures/no-gpu/root",
				     .flags = GPUENV_CTX_NO_VENDOR,
				     .hostname = hostname };
	struct gpuenv_ctx *c = NULL;
	struct gpuenv_snapshot *s = NULL;

	assert_int_equal(gpuenv_ctx_new(&o, &c), 0);
	assert_int_equal(gpuenv_snapshot_collect(c, &s), 0);
	assert_int_equal(gpuenv_snapshot_render(s, GPUENV_FORMAT_JSON, 0, ret_json), 0);
	gpuenv_snapshot_unref(s);
	gpuenv_ctx_free(c);
}

static void test_ctx_hostname(void **state)
{
	char *json = NULL;

	(void)state;
	collect_hostname("gpu-node-7", &json);
	assert_non_null(strstr(json, "\"gpu-node-7\""));
	assert_non_null(strstr(json, "gpuenv_ctx_opts.hostname"));
	free(json);
	collect_hostname("", &json);
	assert_null(strstr(json, "gpuenv_ctx_opts.hostname"));
	free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_null_arguments),
		cmocka_unit_test(test_nvml_health),
		cmocka_unit_test(test_ctx_hostname),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
