// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The strict TOML reader: the nvidia-container-toolkit config.toml layout (as
 * `nvidia-ctk config default` writes it, toolkit 1.14–1.17), a containerd 1.7 version-2
 * config with the NVIDIA runtime, the TOML 1.0.0 value forms, and every refusal with its line.
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

#include "formats/toml-min.h"
#include "shared/strv.h"

#define K(...) ((const char *const[]){ __VA_ARGS__, NULL })

static struct toml_doc *parse_ok(const char *text)
{
	struct toml_doc *d = NULL;
	struct toml_error e = { 0 };
	int r = toml_parse(text, strlen(text), &d, &e);

	if (r < 0)
		fail_msg("parse failed at line %u: %s", e.line, e.why);
	return d;
}

static void parse_bad(const char *text, unsigned line, const char *why)
{
	struct toml_doc *d = NULL;
	struct toml_error e = { 0 };
	int r = toml_parse(text, strlen(text), &d, &e);

	if (r >= 0)
		fail_msg("accepted: %s", text);
	assert_null(d);
	assert_int_equal(e.line, line);
	assert_string_equal(e.why, why);
}

static const char *get_str(const struct toml_doc *d, const char *const *k)
{
	const struct toml_value *v = toml_get(d, k);

	assert_non_null(v);
	assert_int_equal(v->type, TOML_STRING);
	return v->str;
}

static const char nvidia_config[] =
	"#accept-nvidia-visible-devices-as-volume-mounts = false\n"
	"accept-nvidia-visible-devices-envvar-when-unprivileged = true\n"
	"disable-require = false\n"
	"supported-driver-capabilities = \"compat32,compute,display,graphics,ngx,utility,video\"\n"
	"#swarm-resource = \"DOCKER_RESOURCE_GPU\"\n"
	"\n"
	"[nvidia-container-cli]\n"
	"#debug = \"/var/log/nvidia-container-toolkit.log\"\n"
	"environment = []\n"
	"ldconfig = \"@/sbin/ldconfig.real\"\n"
	"load-kmods = true\n"
	"no-cgroups = false\n"
	"#root = \"/run/nvidia/driver\"\n"
	"\n"
	"[nvidia-container-runtime]\n"
	"log-level = \"info\"\n"
	"mode = \"auto\"\n"
	"runtimes = [\"docker-runc\", \"runc\", \"crun\"]\n"
	"\n"
	"[nvidia-container-runtime.modes]\n"
	"\n"
	"[nvidia-container-runtime.modes.cdi]\n"
	"annotation-prefixes = [\"cdi.k8s.io/\"]\n"
	"default-kind = \"nvidia.com/gpu\"\n"
	"spec-dirs = [\"/etc/cdi\", \"/var/run/cdi\"]\n"
	"\n"
	"[nvidia-ctk]\n"
	"path = \"nvidia-ctk\"\n";

static void test_nvidia_config(void **state)
{
	struct toml_doc *d = parse_ok(nvidia_config);
	const struct toml_value *v;
	char **kids = NULL;

	v = toml_get(d, K("accept-nvidia-visible-devices-envvar-when-unprivileged"));
	assert_non_null(v);
	assert_int_equal(v->type, TOML_BOOL);
	assert_true(v->b);
	assert_null(toml_get(d, K("accept-nvidia-visible-devices-as-volume-mounts")));
	assert_string_equal(get_str(d, K("nvidia-container-cli", "ldconfig")),
			    "@/sbin/ldconfig.real");
	assert_null(toml_get(d, K("nvidia-container-cli", "root")));
	v = toml_get(d, K("nvidia-container-cli", "no-cgroups"));
	assert_int_equal(v->type, TOML_BOOL);
	assert_false(v->b);
	v = toml_get(d, K("nvidia-container-cli", "environment"));
	assert_int_equal(v->type, TOML_ARRAY);
	assert_int_equal(v->n_items, 0);
	v = toml_get(d, K("nvidia-container-runtime", "runtimes"));
	assert_int_equal(v->type, TOML_ARRAY);
	assert_int_equal(v->n_items, 3);
	assert_string_equal(v->items[2].str, "crun");
	assert_string_equal(
		get_str(d, K("nvidia-container-runtime", "modes", "cdi", "default-kind")),
		"nvidia.com/gpu");
	v = toml_get(d, K("nvidia-container-runtime", "modes"));
	assert_int_equal(v->type, TOML_TABLE);
	assert_int_equal(toml_children(d, K("nvidia-container-runtime"), &kids), 0);
	assert_int_equal(strv_length(kids), 4);
	assert_string_equal(kids[0], "log-level");
	assert_string_equal(kids[3], "modes");
	strv_free(kids);
	toml_free(d);
}

static const char containerd_v2[] =
	"version = 2\n"
	"oom_score = 0\n"
	"\n"
	"[plugins]\n"
	"  [plugins.\"io.containerd.gc.v1.scheduler\"]\n"
	"    pause_threshold = 0.02\n"
	"    schedule_delay = \"0s\"\n"
	"  [plugins.\"io.containerd.grpc.v1.cri\"]\n"
	"    enable_cdi = true\n"
	"    cdi_spec_dirs = [\"/etc/cdi\", \"/var/run/cdi\"]\n"
	"    [plugins.\"io.containerd.grpc.v1.cri\".containerd]\n"
	"      default_runtime_name = \"nvidia\"\n"
	"      snapshotter = \"overlayfs\"\n"
	"      [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes]\n"
	"        [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia]\n"
	"          privileged_without_host_devices = false\n"
	"          runtime_type = \"io.containerd.runc.v2\"\n"
	"          [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia.options]\n"
	"            BinaryName = \"/usr/bin/nvidia-container-runtime\"\n"
	"            SystemdCgroup = true\n"
	"        [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.runc]\n"
	"          runtime_type = \"io.containerd.runc.v2\"\n"
	"  [plugins.\"io.containerd.transfer.v1.local\"]\n"
	"    [[plugins.\"io.containerd.transfer.v1.local\".unpack_config]]\n"
	"      platform = \"linux/amd64\"\n"
	"      snapshotter = \"overlayfs\"\n"
	"    [[plugins.\"io.containerd.transfer.v1.local\".unpack_config]]\n"
	"      platform = \"linux/arm64\"\n"
	"[timeouts]\n"
	"  \"io.containerd.timeout.shim.load\" = \"5s\"\n";

static void test_containerd(void **state)
{
	struct toml_doc *d = parse_ok(containerd_v2);
	const char *cri = "io.containerd.grpc.v1.cri";
	const struct toml_value *v;
	char **kids = NULL;

	v = toml_get(d, K("version"));
	assert_int_equal(v->type, TOML_INTEGER);
	assert_int_equal(v->i, 2);
	v = toml_get(d, K("plugins", "io.containerd.gc.v1.scheduler", "pause_threshold"));
	assert_int_equal(v->type, TOML_FLOAT);
	assert_string_equal(v->str, "0.02");
	assert_string_equal(get_str(d, K("plugins", cri, "containerd", "default_runtime_name")),
			    "nvidia");
	assert_string_equal(get_str(d, K("plugins", cri, "containerd", "runtimes", "nvidia",
					 "options", "BinaryName")),
			    "/usr/bin/nvidia-container-runtime");
	assert_int_equal(toml_children(d, K("plugins", cri, "containerd", "runtimes"), &kids), 0);
	assert_int_equal(strv_length(kids), 2);
	assert_string_equal(kids[0], "nvidia");
	assert_string_equal(kids[1], "runc");
	strv_free(kids);
	assert_string_equal(get_str(d, K("plugins", "io.containerd.transfer.v1.local",
					 "unpack_config", "#1", "platform")),
			    "linux/arm64");
	v = toml_get(d, K("plugins", "io.containerd.transfer.v1.local", "unpack_config"));
	assert_int_equal(v->type, TOML_ARRAY_TABLE);
	assert_string_equal(get_str(d, K("timeouts", "io.containerd.timeout.shim.load")), "5s");
	toml_free(d);
}

static void test_values(void **state)
{
	struct toml_doc *d = parse_ok("a = \"tab\\there \\u00e9 \\U0001F600 \\\"q\\\" \\\\\"\n"
				      "b = 'C:\\Users\\nobody'\n"
				      "c = \"\"\"\nline1\n  line2 \\\n    joined\"\"\"\n"
				      "d = '''\nraw \\n\n'''\n"
				      "e = 0xDEAD_beef\n"
				      "f = -9_223_372_036_854_775_808\n"
				      "g = 0o755\n"
				      "h = 0b1010\n"
				      "i = +1e-3\n"
				      "j = -inf\n"
				      "k = 1979-05-27T07:32:00Z\n"
				      "l = 1979-05-27 07:32:00.5-07:00\n"
				      "m = 07:32:00\n"
				      "n = [ 1, [2, 3], \"x\", { p = 1 }, ] # trailing comma\n"
				      "o = { x = 1, y.z = \"w\", q = { r = true } }\n"
				      "site.\"google.com\" = true\n"
				      "s = \"\"\"two quotes at the end\"\"\"\"\"\n"
				      "[[arr]]\n"
				      "[arr.sub]\n"
				      "k = 1\n"
				      "[[arr]]\n"
				      "[arr.sub]\n"
				      "k = 2\n");
	const struct toml_value *v;

	assert_string_equal(get_str(d, K("a")), "tab\there \xc3\xa9 \xf0\x9f\x98\x80 \"q\" \\");
	assert_string_equal(get_str(d, K("b")), "C:\\Users\\nobody");
	assert_string_equal(get_str(d, K("c")), "line1\n  line2 joined");
	assert_string_equal(get_str(d, K("d")), "raw \\n\n");
	assert_int_equal(toml_get(d, K("e"))->i, 0xdeadbeef);
	assert_true(toml_get(d, K("f"))->i == INT64_MIN);
	assert_int_equal(toml_get(d, K("g"))->i, 0755);
	assert_int_equal(toml_get(d, K("h"))->i, 10);
	assert_int_equal(toml_get(d, K("i"))->type, TOML_FLOAT);
	assert_string_equal(toml_get(d, K("j"))->str, "-inf");
	assert_int_equal(toml_get(d, K("k"))->type, TOML_DATETIME);
	assert_string_equal(toml_get(d, K("l"))->str, "1979-05-27 07:32:00.5-07:00");
	assert_string_equal(toml_get(d, K("m"))->str, "07:32:00");
	v = toml_get(d, K("n"));
	assert_int_equal(v->n_items, 4);
	assert_int_equal(v->items[1].type, TOML_ARRAY);
	assert_int_equal(v->items[1].items[1].i, 3);
	assert_int_equal(v->items[3].type, TOML_INLINE_TABLE);
	assert_int_equal(toml_get(d, K("o"))->type, TOML_TABLE);
	assert_int_equal(toml_get(d, K("o", "x"))->i, 1);
	assert_string_equal(get_str(d, K("o", "y", "z")), "w");
	assert_true(toml_get(d, K("o", "q", "r"))->b);
	assert_true(toml_get(d, K("site", "google.com"))->b);
	assert_string_equal(get_str(d, K("s")), "two quotes at the end\"\"");
	assert_int_equal(toml_get(d, K("arr", "#0", "sub", "k"))->i, 1);
	assert_int_equal(toml_get(d, K("arr", "#1", "sub", "k"))->i, 2);
	toml_free(d);
	/* CRLF line ends and a byte order mark. */
	d = parse_ok("\xef\xbb\xbf[t]\r\nk = \"v\"\r\n");
	assert_string_equal(get_str(d, K("t", "k")), "v");
	toml_free(d);
	d = parse_ok("");
	assert_int_equal(d->n_entries, 0);
	toml_free(d);
}

static void test_refusals(void **state)
{
	parse_bad("a = 1\na = 2\n", 2, "duplicate key");
	parse_bad("[t]\n[t]\n", 2, "table defined twice");
	parse_bad("a = 1\n[a]\n", 2, "key is both a value and a table");
	parse_bad("a.b = 1\na = 2\n", 2, "key is both a value and a table");
	parse_bad("[x]\n[[x]]\n", 2, "duplicate key");
	parse_bad("[[x]]\n[x]\n", 2, "table header names an array of tables");
	parse_bad("a = \"open\n", 1, "newline in a single-line string");
	parse_bad("a = \"\"\"open\n", 2, "unterminated string");
	parse_bad("a = \"\\x41\"\n", 1, "unknown escape in a string");
	parse_bad("a = \"\\uD800\"\n", 1, "escape is not a Unicode scalar value");
	parse_bad("a = \"\\u12\"\n", 1, "bad \\u escape");
	parse_bad("a = 1 b = 2\n", 1, "text after the value");
	parse_bad("a = 1\rb = 2\n", 1, "bare carriage return");
	parse_bad("a = 01\n", 1, "leading zero in a number");
	parse_bad("a = 1__0\n", 1, "malformed number");
	parse_bad("a = 1.\n", 1, "malformed float");
	parse_bad("a = 9223372036854775808\n", 1, "integer out of range");
	parse_bad("a = 0x\n", 1, "malformed number");
	parse_bad("a = tru\n", 1, "malformed value");
	parse_bad("a = \n", 1, "malformed value");
	parse_bad("a\n", 1, "expected '=' after a key");
	parse_bad("= 1\n", 1, "expected a key");
	parse_bad("[t\n", 1, "malformed table header");
	parse_bad("a = [1, 2\n", 2, "unterminated array");
	parse_bad("a = [1 2]\n", 1, "expected ',' or ']' in an array");
	parse_bad("a = {x = 1,}\n", 1, "expected a key");
	parse_bad("a = {x = 1\n", 1, "expected ',' or '}' in an inline table");
	parse_bad("a = [{x = 1, x = 2}]\n", 1, "duplicate key");
	parse_bad("a = 1979-05\n", 1, "malformed date or time");
	parse_bad("# bell \a\n", 1, "control character in a comment");
	parse_bad("x = \"a\tb\x01\"\n", 1, "control character in a string");
	parse_bad("not toml at all: {\n", 1, "expected '=' after a key");
}

static void test_caps(void **state)
{
	struct toml_doc *d = NULL;
	struct toml_error e = { 0 };
	char deep[200], *big;
	size_t n = 0;

	memset(deep, 0, sizeof(deep));
	strcpy(deep, "a = ");
	for (int i = 0; i < 40; i++)
		strcat(deep, "[");
	assert_int_equal(toml_parse(deep, strlen(deep), &d, &e), -E2BIG);
	assert_string_equal(e.why, "arrays or inline tables nested too deep");
	assert_int_equal(toml_parse("a = \"x\0\"", 8, &d, &e), -EBADMSG);
	assert_string_equal(e.why, "NUL byte in the file");
	/* More keys than TOML_MAX_ENTRIES. */
	big = malloc(TOML_MAX_ENTRIES * 16 + 64);
	assert_non_null(big);
	for (unsigned i = 0; i <= TOML_MAX_ENTRIES; i++)
		n += (size_t)sprintf(big + n, "k%u = 1\n", i);
	assert_int_equal(toml_parse(big, n, &d, &e), -E2BIG);
	assert_string_equal(e.why, "too many keys");
	free(big);
	assert_int_equal(toml_parse("", TOML_MAX_INPUT + 1, &d, &e), -E2BIG);
	assert_null(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvidia_config), cmocka_unit_test(test_containerd),
		cmocka_unit_test(test_values),	      cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
