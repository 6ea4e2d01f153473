// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/systemd-unit-env: a service's Environment= from its unit and drop-ins as systemd
 * reads them (systemd.syntax(7), systemd.exec(5)): sections, quotes and C escapes, a line
 * continued with a backslash, the reset by an empty Environment=, a later file overriding
 * an earlier one, syntax errors, EnvironmentFile=, specifiers, NUL, the cap; ExecStart= (the
 * reset by an empty one, kubeadm's drop-in) and its variables replaced (systemd.service(5)).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/systemd-unit-env.h"

static struct unit_env env;

static const char *value(const char *name)
{
	const struct unit_env_var *v = unit_env_get(&env, name);

	return v ? v->value : NULL;
}

static void test_unit_and_drop_in(void **state)
{
	/* ollama's install.sh writes the unit; `systemctl edit ollama` the drop-in
	 * (ollama/ollama#6520 pasted both with `systemctl cat ollama.service`) */
	static const char unit[] = "[Unit]\nDescription=Ollama Service\n\n[Service]\n"
				   "ExecStart=/usr/local/bin/ollama serve\nUser=ollama\n"
				   "Environment=\"PATH=/usr/local/bin:/usr/bin\"\n\n[Install]\n"
				   "WantedBy=default.target\n";
	static const char drop_in[] = "[Service]\n"
				      "Environment=\"HSA_OVERRIDE_GFX_VERSION=11.0.0\"\n";
	static const char later[] = "[Service]\nEnvironment=HSA_OVERRIDE_GFX_VERSION=10.3.0\n";
	const struct unit_env_var *v;

	(void)state;
	memset(&env, 0, sizeof(env));
	unit_env_parse(unit, sizeof(unit) - 1, 0, &env);
	unit_env_parse(drop_in, sizeof(drop_in) - 1, 1, &env);
	assert_int_equal(env.n, 2);
	assert_string_equal(value("PATH"), "/usr/local/bin:/usr/bin");
	v = unit_env_get(&env, "HSA_OVERRIDE_GFX_VERSION");
	assert_non_null(v);
	assert_string_equal(v->value, "11.0.0");
	assert_int_equal(v->file, 1);
	assert_int_equal(v->line, 2);
	assert_false(v->truncated || v->expands);
	/* a later drop-in overrides it, in place */
	unit_env_parse(later, sizeof(later) - 1, 2, &env);
	assert_int_equal(env.n, 2);
	assert_string_equal(value("HSA_OVERRIDE_GFX_VERSION"), "10.3.0");
	assert_int_equal(unit_env_get(&env, "HSA_OVERRIDE_GFX_VERSION")->file, 2);
	assert_null(value("User"));
	assert_int_equal(env.bad_lines, 0);
	assert_int_equal(env.env_files, 0);
}

static void test_quoting(void **state)
{
	/* systemd.exec(5)'s example, quotes inside a word, C escapes, CRLF, a continuation with
	 * a comment line in it, specifiers */
	static const char text[] =
		"[Service]\r\n"
		"Environment=\"VAR1=word1 word2\" VAR2=word3 \"VAR3=$word 5 6\" \\\r\n"
		"  # a comment inside the continuation\r\n"
		"  D=\"q\\\"uote\" C='x y' E=\\x41\\101\\u00e9\\s F=%%h G=%h\n"
		"Environment = H=spaced around the key\n"
		"Environment=1BAD=x =y noeq HSA_XNACK=1\n";

	(void)state;
	memset(&env, 0, sizeof(env));
	unit_env_parse(text, sizeof(text) - 1, 0, &env);
	assert_string_equal(value("VAR1"), "word1 word2");
	assert_string_equal(value("VAR2"), "word3");
	assert_string_equal(value("VAR3"), "$word 5 6");
	assert_string_equal(value("D"), "q\"uote");
	assert_string_equal(value("C"), "x y");
	assert_string_equal(value("E"), "AA\xc3\xa9 ");
	assert_int_equal(unit_env_get(&env, "E")->line, 2);
	assert_string_equal(value("F"), "%h");
	assert_false(unit_env_get(&env, "F")->expands);
	assert_string_equal(value("G"), "%h");
	assert_true(unit_env_get(&env, "G")->expands);
	assert_string_equal(value("H"), "spaced");
	assert_null(value("around"));
	assert_null(value("1BAD"));
	assert_string_equal(value("HSA_XNACK"), "1");
	assert_int_equal(unit_env_get(&env, "HSA_XNACK")->line, 6);
	assert_int_equal(env.bad_lines, 0);
}

static void test_reset_errors_sections(void **state)
{
	static const char text[] = "[Unit]\nEnvironment=UNIT=1\n"
				   "[Service]\nEnvironment=A=1 B=2\n"
				   "Environment=\n"
				   "Environment=C=3 \"unclosed D=4\n"
				   "Environment=E=5 F=\\q G=6\n"
				   "EnvironmentFile=-/etc/default/ollama\n"
				   "[Service\nEnvironment=H=7\n"
				   "[Install]\nEnvironment=I=8\n"
				   "[Service]\nEnvironment=J=\\\\\\\\\n"
				   "Environment=K=1\0Environment=L=2\n";

	(void)state;
	memset(&env, 0, sizeof(env));
	unit_env_parse(text, sizeof(text) - 1, 3, &env);
	assert_null(value("UNIT"));
	assert_null(value("A")); /* reset by the empty Environment= */
	assert_null(value("B"));
	assert_string_equal(value("C"), "3");
	assert_null(value("D")); /* the rest of a line with a syntax error is left out */
	assert_string_equal(value("E"), "5");
	assert_null(value("G"));
	assert_int_equal(env.bad_lines, 2);
	assert_int_equal(env.bad_file, 3);
	assert_int_equal(env.bad_line, 7);
	assert_int_equal(env.env_files, 1);
	assert_int_equal(env.files[0].line, 8);
	assert_string_equal(env.files[0].path, "/etc/default/ollama");
	assert_true(env.files[0].optional);
	assert_false(env.files[0].unknown);
	assert_null(value("H")); /* a broken header ends [Service] */
	assert_null(value("I"));
	assert_string_equal(value("J"), "\\\\"); /* even backslashes: no continuation */
	assert_string_equal(value("K"), "1");
	assert_null(value("L")); /* parsing stops at the NUL */
}

static void test_environment_files(void **state)
{
	/* config_parse_unit_env_file(): a relative path is ignored, an empty line resets, a
	 * specifier leaves the path unknown; the files' assignments override Environment= */
	static const char text[] = "[Service]\nEnvironment=HSA_OVERRIDE_GFX_VERSION=11.0.0\n"
				   "EnvironmentFile=/etc/old.conf\nEnvironmentFile=\n"
				   "EnvironmentFile=relative.conf\nEnvironmentFile=-relative.conf\n"
				   "EnvironmentFile=/etc/ollama.conf\n"
				   "EnvironmentFile=-%h/.config/ollama.env\n"
				   "EnvironmentFile=/etc/100%%.env\n";

	(void)state;
	memset(&env, 0, sizeof(env));
	unit_env_parse(text, sizeof(text) - 1, 0, &env);
	assert_int_equal(env.env_files, 3);
	assert_string_equal(env.files[0].path, "/etc/ollama.conf");
	assert_int_equal(env.files[0].line, 7);
	assert_false(env.files[0].optional || env.files[0].unknown);
	assert_true(env.files[1].optional && env.files[1].unknown);
	assert_string_equal(env.files[2].path, "/etc/100%.env");
	assert_false(env.files[2].unknown);
	/* an EnvironmentFile='s value is taken as is ("%" is no specifier there); names and
	 * values systemd drops are left out */
	unit_env_assign(&env, "HSA_OVERRIDE_GFX_VERSION", "10.3.0%h", 1, 2);
	unit_env_assign(&env, "export HIP_VISIBLE_DEVICES", "0", 1, 3);
	unit_env_assign(&env, "ROCR_VISIBLE_DEVICES", "a\001b", 1, 4);
	assert_string_equal(value("HSA_OVERRIDE_GFX_VERSION"), "10.3.0%h");
	assert_false(unit_env_get(&env, "HSA_OVERRIDE_GFX_VERSION")->expands);
	assert_int_equal(unit_env_get(&env, "HSA_OVERRIDE_GFX_VERSION")->file, 1);
	assert_null(value("HIP_VISIBLE_DEVICES"));
	assert_null(value("export HIP_VISIBLE_DEVICES"));
	assert_null(value("ROCR_VISIBLE_DEVICES"));
}

static void test_cap_and_lengths(void **state)
{
	static char text[UNIT_LINE_MAX * 2];
	size_t n = 0;

	(void)state;
	memset(&env, 0, sizeof(env));
	n += (size_t)snprintf(text + n, sizeof(text) - n, "[Service]\n");
	for (unsigned i = 0; i < UNIT_ENV_MAX + 3; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "Environment=V%u=%u\n", i, i);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "Environment=V0=again\n");
	unit_env_parse(text, n, 0, &env);
	assert_int_equal(env.n, UNIT_ENV_MAX);
	assert_int_equal(env.dropped, 3);
	assert_string_equal(value("V0"), "again");

	/* a value longer than the slot: a prefix, marked; a line longer than the buffer: out */
	memset(&env, 0, sizeof(env));
	n = (size_t)snprintf(text, sizeof(text), "[Service]\nEnvironment=LONG=");
	memset(text + n, 'x', UNIT_ENV_VALUE_MAX + 10);
	n += UNIT_ENV_VALUE_MAX + 10;
	n += (size_t)snprintf(text + n, sizeof(text) - n, "\nEnvironment=HUGE=");
	memset(text + n, 'y', UNIT_LINE_MAX);
	n += UNIT_LINE_MAX;
	text[n++] = '\n';
	unit_env_parse(text, n, 0, &env);
	assert_non_null(unit_env_get(&env, "LONG"));
	assert_true(unit_env_get(&env, "LONG")->truncated);
	assert_int_equal(strlen(value("LONG")), UNIT_ENV_VALUE_MAX - 1);
	assert_null(value("HUGE"));
	assert_int_equal(env.bad_lines, 1);
	assert_int_equal(env.bad_line, 3);
}

static struct used_var {
	char name[UNIT_ENV_NAME_MAX];
	size_t at, end;
} used_vars[8];
static size_t n_used;

static void used(void *userdata, const struct unit_env_var *v, size_t at, size_t end)
{
	(void)userdata;
	assert_true(n_used < 8);
	snprintf(used_vars[n_used].name, sizeof(used_vars[n_used].name), "%s", v->name);
	used_vars[n_used].at = at;
	used_vars[n_used++].end = end;
}

static void test_exec_start(void **state)
{
	/* the kubelet package's unit, then kubeadm's drop-in 10-kubeadm.conf (kubernetes.io
	 * "Configuring each kubelet in your cluster using kubeadm") */
	static const char unit[] = "[Unit]\nDescription=kubelet: The Kubernetes Node Agent\n"
				   "[Service]\nExecStart=/usr/bin/kubelet\nRestart=always\n";
	static const char drop_in[] =
		"[Service]\n"
		"Environment=\"KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/"
		"bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf\"\n"
		"Environment=\"KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml\"\n"
		"EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n"
		"EnvironmentFile=-/etc/default/kubelet\n"
		"ExecStart=\n"
		"ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS "
		"$KUBELET_KUBEADM_ARGS \\\n  $KUBELET_EXTRA_ARGS\n";
	static const char twice[] = "[Service]\nExecStart=/bin/true\n";
	char buf[512], small[24];

	(void)state;
	memset(&env, 0, sizeof(env));
	unit_env_parse(unit, sizeof(unit) - 1, 0, &env);
	assert_int_equal(env.execs, 1);
	assert_string_equal(env.exec, "/usr/bin/kubelet");
	unit_env_parse(drop_in, sizeof(drop_in) - 1, 1, &env);
	assert_int_equal(env.execs, 1);
	assert_int_equal(env.exec_file, 1);
	assert_int_equal(env.exec_line, 7);
	assert_string_equal(env.exec,
			    "/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS "
			    "$KUBELET_KUBEADM_ARGS    $KUBELET_EXTRA_ARGS");
	unit_env_assign(&env, "KUBELET_KUBEADM_ARGS",
			"--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock",
			2, 1);
	n_used = 0;
	assert_int_equal(unit_env_expand(&env, env.exec, buf, sizeof(buf), used, NULL), 0);
	assert_string_equal(buf,
			    "/usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/"
			    "bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf "
			    "--config=/var/lib/kubelet/config.yaml --container-runtime-endpoint="
			    "unix:///var/run/containerd/containerd.sock    ");
	/* the unset KUBELET_EXTRA_ARGS is empty, and not reported */
	assert_int_equal(n_used, 3);
	assert_string_equal(used_vars[2].name, "KUBELET_KUBEADM_ARGS");
	assert_memory_equal(buf + used_vars[2].at, "--container-runtime-endpoint", 28);
	assert_int_equal(used_vars[2].end - used_vars[2].at, strlen(value("KUBELET_KUBEADM_ARGS")));
	/* "${NAME}" inside a word, "$NAME" inside one is left, "$$" is "$" */
	n_used = 0;
	assert_int_equal(unit_env_expand(&env,
					 "a --x=${KUBELET_CONFIG_ARGS}! --y=$KUBELET_CONFIG_ARGS "
					 "$$HOME ${UNSET} ${open",
					 buf, sizeof(buf), used, NULL),
			 0);
	assert_string_equal(buf, "a --x=--config=/var/lib/kubelet/config.yaml! "
				 "--y=$KUBELET_CONFIG_ARGS $HOME  ${open");
	assert_int_equal(n_used, 1);
	/* too long for the buffer: a prefix, and said */
	assert_int_equal(unit_env_expand(&env, env.exec, small, sizeof(small), NULL, NULL), -E2BIG);
	assert_string_equal(small, "/usr/bin/kubelet --boot");
	/* a second ExecStart= without a reset: systemd refuses it but for Type=oneshot */
	unit_env_parse(twice, sizeof(twice) - 1, 3, &env);
	assert_int_equal(env.execs, 2);
	assert_string_equal(env.exec, "/bin/true");
	/* ExecStart= of another section is not the service's */
	memset(&env, 0, sizeof(env));
	unit_env_parse("[Unit]\nExecStart=/bin/x\n", 23, 0, &env);
	assert_int_equal(env.execs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unit_and_drop_in),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_reset_errors_sections),
		cmocka_unit_test(test_environment_files),
		cmocka_unit_test(test_cap_and_lengths),
		cmocka_unit_test(test_exec_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
