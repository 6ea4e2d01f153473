// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CDI spec reader: the nvidia-ctk 1.14 spec of the cdi-spec-stale-driver fixture
 * (535.104.05), JSON specs (the same reader), each driver-version source in its priority
 * order, and refusals: not YAML, not a mapping, wrong types, two documents, alias
 * amplification, nesting, NUL bytes, an empty file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/cdi-spec.h"
#include "shared/strv.h"

static struct cdi_spec *parse_ok(const char *text, size_t len)
{
	struct cdi_spec *s = NULL;
	struct cdi_error e;
	int r = cdi_spec_parse(text, len, &s, &e);

	if (r < 0)
		fail_msg("parse failed (%d): %s", r, e.why);
	return s;
}

static void parse_bad(const char *text, int want, const char *why_prefix)
{
	struct cdi_spec *s = NULL;
	struct cdi_error e;
	int r = cdi_spec_parse(text, strlen(text), &s, &e);

	assert_int_equal(r, want);
	assert_null(s);
	if (strncmp(e.why, why_prefix, strlen(why_prefix)) != 0)
		fail_msg("why = \"%s\", wanted \"%s…\"", e.why, why_prefix);
}

static void test_fixture_535(void **state)
{
	static const char path[] = GPUENV_TEST_SOURCE_ROOT
		"/tests/fixtures/cdi-spec-stale-driver/root/etc/cdi/nvidia.yaml";
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);
	size_t n;
	struct cdi_spec *s;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	s = parse_ok(buf, n);
	assert_false(s->json);
	assert_string_equal(s->cdi_version, "0.5.0");
	assert_string_equal(s->kind, "nvidia.com/gpu");
	assert_int_equal(strv_length(s->devices), 3);
	assert_string_equal(s->devices[0], "0");
	assert_string_equal(s->devices[1], "GPU-6f1c2d4e-8a3b-5c7d-9e0f-1a2b3c4d5e6f");
	assert_string_equal(s->devices[2], "all");
	assert_string_equal(s->driver_version, "535.104.05");
	assert_string_equal(s->driver_version_source,
			    "spec.containerEdits.mounts[11].hostPath "
			    "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05");
	/* every device node and mount source, in file order (each containerEdits' nodes before
	 * its mounts): what a runtime stats before it starts */
	assert_int_equal(strv_length(s->host_paths), 49);
	assert_string_equal(s->host_paths[0], "/dev/nvidia-modeset");
	assert_string_equal(s->host_paths[3], "/dev/nvidiactl");
	assert_string_equal(s->host_paths[4], "/run/nvidia-persistenced/socket");
	assert_string_equal(s->host_paths[15], "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05");
	assert_false(s->host_paths_capped);
	cdi_spec_free(s);
	free(buf);
}

static void test_json(void **state)
{
	/* JSON, tab-indented, as `nvidia-ctk cdi generate --format=json` or a hand-written spec. */
	static const char js[] = "{\n"
				 "\t\"cdiVersion\": \"0.6.0\",\n"
				 "\t\"kind\": \"nvidia.com/gpu\",\n"
				 "\t\"devices\": [\n"
				 "\t\t{\"name\": \"0\", \"containerEdits\": {\"deviceNodes\": "
				 "[{\"path\": \"/dev/nvidia0\"}]}},\n"
				 "\t\t{\"name\": \"all\", \"containerEdits\": {\"deviceNodes\": "
				 "[{\"path\": \"/dev/nvidia0\"}]}}\n"
				 "\t],\n"
				 "\t\"containerEdits\": {\n"
				 "\t\t\"mounts\": [\n"
				 "\t\t\t{\"hostPath\": \"/usr/lib64/libnvidia-ml.so.550.54.15\", "
				 "\"containerPath\": \"/usr/lib64/libnvidia-ml.so.550.54.15\"},\n"
				 "\t\t\t{\"hostPath\": \"/usr/lib64/libcuda.so.550.54.15\", "
				 "\"containerPath\": \"/usr/lib64/libcuda.so.550.54.15\"}\n"
				 "\t\t]\n"
				 "\t}\n"
				 "}\n";
	struct cdi_spec *s = parse_ok(js, strlen(js));

	assert_true(s->json);
	assert_string_equal(s->cdi_version, "0.6.0");
	assert_int_equal(strv_length(s->devices), 2);
	/* libcuda beats libnvidia-ml even when it comes later. */
	assert_string_equal(s->driver_version, "550.54.15");
	assert_string_equal(
		s->driver_version_source,
		"spec.containerEdits.mounts[1].hostPath /usr/lib64/libcuda.so.550.54.15");
	/* the top level's mounts, then each device's node (a deviceNodes entry without hostPath:
	 * its path is the host's) */
	assert_int_equal(strv_length(s->host_paths), 4);
	assert_string_equal(s->host_paths[0], "/usr/lib64/libnvidia-ml.so.550.54.15");
	assert_string_equal(s->host_paths[2], "/dev/nvidia0");
	assert_string_equal(s->host_paths[3], "/dev/nvidia0");
	cdi_spec_free(s);
}

static void test_device_node_host_path(void **state)
{
	/* A device node's host file is its hostPath where it has one, else its path (SPEC.md
	 * "Device nodes"); a deviceNodes that is not a list is refused. */
	static const char y[] = "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices:\n- name: \"0\"\n"
				"  containerEdits:\n    deviceNodes:\n"
				"    - {path: /dev/dri/renderD128, hostPath: /dev/dri/renderD129}\n"
				"    - path: /dev/nvidia0\n";
	static const char bad[] =
		"cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices:\n"
		"- name: \"0\"\n  containerEdits:\n    deviceNodes: /dev/nvidia0\n";
	struct cdi_spec *s = parse_ok(y, strlen(y));

	assert_int_equal(strv_length(s->host_paths), 2);
	assert_string_equal(s->host_paths[0], "/dev/dri/renderD129");
	assert_string_equal(s->host_paths[1], "/dev/nvidia0");
	cdi_spec_free(s);
	parse_bad(bad, -EBADMSG, "devices[0].containerEdits.deviceNodes is not a list");
}

static void test_version_sources(void **state)
{
	/* toolkit ≥ 1.17.5: the enable-cuda-compat hook names the host driver outright. */
	static const char compat[] =
		"cdiVersion: 0.5.0\nkind: nvidia.com/gpu\n"
		"containerEdits:\n"
		"  hooks:\n"
		"  - args: [nvidia-cdi-hook, enable-cuda-compat, --host-driver-version=575.64.03]\n"
		"    hookName: createContainer\n"
		"    path: /usr/bin/nvidia-cdi-hook\n"
		"  mounts:\n"
		"  - hostPath: /usr/lib/x86_64-linux-gnu/libcuda.so.570.86.15\n"
		"    containerPath: /usr/lib/x86_64-linux-gnu/libcuda.so.570.86.15\n"
		"devices:\n- name: all\n";
	static const char link_only[] = "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\n"
					"devices:\n"
					"- name: \"0\"\n"
					"  containerEdits:\n"
					"    hooks:\n"
					"    - args: [nvidia-ctk, hook, create-symlinks, --link, "
					"'libcuda.so.470.256.02::/usr/lib64/libcuda.so.1']\n";
	static const char none[] =
		"cdiVersion: 0.3.0\nkind: vendor.com/device\n"
		"containerEdits:\n  mounts:\n  - {hostPath: /usr/lib/libcuda.so.1, containerPath: "
		"/x}\n"
		"  - {hostPath: /usr/lib/libnvidia-egl-wayland.so.1.1.19, containerPath: /y}\n"
		"devices: []\n";
	struct cdi_spec *s = parse_ok(compat, strlen(compat));

	assert_string_equal(s->driver_version, "575.64.03");
	assert_string_equal(s->driver_version_source,
			    "spec.containerEdits.hooks[0].args --host-driver-version=575.64.03");
	cdi_spec_free(s);
	s = parse_ok(link_only, strlen(link_only));
	assert_string_equal(s->driver_version, "470.256.02");
	assert_string_equal(s->driver_version_source,
			    "devices[0].containerEdits.hooks[0].args --link "
			    "libcuda.so.470.256.02::/usr/lib64/libcuda.so.1");
	assert_non_null(s->host_paths); /* no mounts: an empty list, not NULL */
	assert_null(s->host_paths[0]);
	cdi_spec_free(s);
	s = parse_ok(none, strlen(none));
	assert_null(s->driver_version);
	assert_null(s->driver_version_source);
	assert_non_null(s->devices);
	assert_null(s->devices[0]);
	cdi_spec_free(s);
	/* No kind, no cdiVersion: recorded as missing, not refused. */
	s = parse_ok("devices: [{name: a}]\n", 21);
	assert_null(s->kind);
	assert_null(s->cdi_version);
	cdi_spec_free(s);
	assert_string_equal(cdi_driver_lib_version("libcuda.so.550.54.15"), "550.54.15");
	assert_string_equal(cdi_driver_lib_version("libnvidia-ml.so.390.157"), "390.157");
	assert_null(cdi_driver_lib_version("libcuda.so.1"));
	assert_null(cdi_driver_lib_version("libcuda.so.550.54.15.bak"));
	assert_null(cdi_driver_lib_version("libnvidia-egl-gbm.so.1.1.2"));
}

static void test_refusals(void **state)
{
	char *deep, *bomb;
	size_t n = 0;

	parse_bad("{\"cdiVersion\": \"0.5.0\", \"kind\": ", -EBADMSG,
		  "did not find expected node content at line 2");
	parse_bad("cdiVersion: 0.5.0\n  kind: [\n", -EBADMSG, "mapping values are not allowed");
	parse_bad("- just\n- a list\n", -EBADMSG, "the document is not a mapping");
	parse_bad("plain text, not a spec\n", -EBADMSG, "the document is not a mapping");
	parse_bad("cdiVersion: [0, 5]\n", -EBADMSG, "cdiVersion is not a scalar");
	parse_bad("kind: nvidia.com/gpu\ndevices: all\n", -EBADMSG, "devices is not a list");
	parse_bad("devices:\n- containerEdits: {}\n", -EBADMSG, "devices[0] has no name");
	parse_bad("devices:\n- gpu0\n", -EBADMSG, "devices[0] is not a mapping");
	parse_bad("devices:\n- name: a\n  containerEdits: [1]\n", -EBADMSG,
		  "devices[0].containerEdits is not a mapping");
	parse_bad("containerEdits:\n  mounts: /usr/lib\n", -EBADMSG,
		  "spec.containerEdits.mounts is not a list");
	parse_bad("kind: a/b\n---\nkind: c/d\n", -EBADMSG, "more than one YAML document");
	parse_bad("", -EBADMSG, "empty document");
	parse_bad("# only a comment\n", -EBADMSG, "empty document");
	{
		struct cdi_spec *s = NULL;
		struct cdi_error e;

		assert_int_equal(cdi_spec_parse("kind: a\0b\n", 10, &s, &e), -EBADMSG);
		assert_string_equal(e.why, "NUL byte in the file");
		assert_int_equal(cdi_spec_parse("", CDI_MAX_INPUT + 1, &s, &e), -E2BIG);
	}
	/* Nesting beyond CDI_MAX_DEPTH. */
	deep = calloc(1, 512);
	assert_non_null(deep);
	strcpy(deep, "kind: ");
	for (int i = 0; i < 100; i++)
		strcat(deep, "[");
	parse_bad(deep, -E2BIG, "nested deeper than 64");
	free(deep);
	/* Alias amplification: 100 hooks of 100 args each, shared by 30 devices, is a small
	 * file that names 300000 arguments. */
	bomb = malloc(16384);
	assert_non_null(bomb);
	n += (size_t)sprintf(bomb + n, "x: &args [");
	for (int i = 0; i < 100; i++)
		n += (size_t)sprintf(bomb + n, "%s--link", i ? "," : "");
	n += (size_t)sprintf(bomb + n, "]\ny: &hook {args: *args}\nz: &hooks [");
	for (int i = 0; i < 100; i++)
		n += (size_t)sprintf(bomb + n, "%s*hook", i ? "," : "");
	n += (size_t)sprintf(bomb + n, "]\ndevices:\n");
	for (int i = 0; i < 30; i++)
		n += (size_t)sprintf(bomb + n, "- {name: d%d, containerEdits: {hooks: *hooks}}\n",
				     i);
	parse_bad(bomb, -E2BIG, "more than 200000 nodes to visit");
	free(bomb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_535),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_device_node_host_path),
		cmocka_unit_test(test_version_sources),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
