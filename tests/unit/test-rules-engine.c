// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the rule engine around the rules (src/rules): the table's ids are unique, well
 * formed and ordered by layer; the verdict, layer status and chain follow the findings; a layer
 * with an unreadable fact is incomplete; the renderers (src/output) redact and escape what they
 * print of a finding. The rules of each layer: test-rules-<layer>.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/output.h"
#include "locale-fx.h"
#include "rules-test-util.h"
#include "shared/step-hook.h"

static void test_table(void **state)
{
	for (size_t i = 0; i < rule_table_len; i++) {
		const struct rule *r = &rule_table[i];
		const char *dot = strchr(r->id, '.');

		assert_non_null(dot);
		assert_int_equal((size_t)(dot - r->id), strlen(rule_layer_name(r->layer)));
		assert_true(strncmp(r->id, rule_layer_name(r->layer), (size_t)(dot - r->id)) == 0);
		assert_int_equal(strspn(dot + 1, "abcdefghijklmnopqrstuvwxyz0-123456789"),
				 strlen(dot + 1));
		assert_non_null(r->title);
		assert_non_null(r->symptom);
		assert_non_null(r->cause);
		assert_non_null(r->check);
		assert_true(r->fix && r->fix[0] && r->verify && r->verify[0]);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(rule_table[j].id, r->id);
		/* Output order: bottom layer first. */
		if (i > 0)
			assert_true(rule_table[i - 1].layer <= r->layer);
		assert_ptr_equal(rule_find(r->id), r);
	}
}

/* No layer is ✓ (ok, info) or "absent" while one of its facts could not be read, and the
 * facts are listed (issue 13.4). */
static void test_layer_incomplete(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-13.0", "13.0.2");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_OK);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_ABSENT);
	diagnosis_free(d);
	/* An error state no rule needs. */
	snap_set_state(node(s, "driver.nvidia"), "proc_version", FACT_ERROR,
		       "/proc/driver/nvidia/version", "Input/output error");
	snap_set_malformed(snap_object(node(s, "container"), "host"), "cdi_spec", "x",
			   "/etc/cdi/a.yaml", "empty document");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_HEALTHY);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_INCOMPLETE);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_INCOMPLETE);
	assert_int_equal(d->status[GPUENV_LAYER_HARDWARE], LAYER_OK);
	assert_int_equal(d->n_problems, 2);
	assert_string_equal(d->problems[0].name, "driver.nvidia.proc_version");
	assert_int_equal(d->problems[0].state, FACT_ERROR);
	assert_string_equal(d->problems[1].name, "container.host.cdi_spec");
	diagnosis_free(d);
	/* A fact of another section a rule of the layer needed: host.kernel_release. */
	snap_set_state(node(s, "driver.nvidia"), "proc_version", FACT_ABSENT, "x", NULL);
	snap_set_state(node(s, "host"), "kernel_release", FACT_UNREADABLE,
		       "/proc/sys/kernel/osrelease", "Permission denied");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_INCOMPLETE);
	diagnosis_free(d);
	/* A warning stays a warning. */
	snap_set_int(node(s, "hardware.gpus.0"), "current_link_width", 8, "x");
	snap_set_state(node(s, "hardware.gpus.0"), "numa_node", FACT_UNREADABLE, "x", "EACCES");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_HARDWARE], LAYER_WARNING);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* An overlay root with no container marker (a Kubernetes pod under containerd with cgroup
 * v2): the container layer is "could not tell", neither absent nor ok. */
static void test_container_unsure(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "570.195.03");
	snap_set_str(node(s, "container"), "root_fs_type", "ext4", "/proc/self/mountinfo");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_ABSENT);
	diagnosis_free(d);
	snap_set_str(node(s, "container"), "root_fs_type", "overlay", "/proc/self/mountinfo");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_UNKNOWN);
	assert_int_equal(d->verdict, GPUENV_VERDICT_HEALTHY);
	diagnosis_free(d);
	/* A marker settles it. */
	in_docker(s);
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_OK);
	diagnosis_free(d);
	snapshot_unref(s);
}

static void test_chain_framework(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;

	gpu(s, "0x2684", "nvidia");
	driver_loaded(s, "550.54.15");
	torch_env(s, "2.9.0+cu130", "13.0", NULL);
	d = diag(s);
	assert_non_null(strstr(d->chain.framework, "torch 2.9.0+cu130 (CUDA 13.0)"));
	assert_int_equal(d->chain.link_state[1], LINK_BROKEN);
	diagnosis_free(d);
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "cuda", "12.4", "x");
	d = diag(s);
	assert_int_equal(d->chain.link_state[1], LINK_OK);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* The framework layer's fact a label names, or NULL. */
static const char *framework_fact(const struct gpuenv_doctor *d, const char *label)
{
	for (size_t i = 0; i < d->n_facts; i++)
		if (d->facts[i].layer == GPUENV_LAYER_FRAMEWORK &&
		    strcmp(d->facts[i].label, label) == 0)
			return d->facts[i].value;
	return NULL;
}

/* No torch, TensorFlow or jax, but CuPy or ollama: the layer is not "absent" and names what is
 * there, as does the chain (which judges neither); with neither, absent and "none found". */
static void test_framework_others(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *env, *o, *v;
	struct gpuenv_doctor *d;

	gpu(s, "0x2684", "nvidia");
	driver_loaded(s, "550.54.15");
	env = snap_append_object(snap_array(node(s, "framework"), "python_envs"));
	snap_set_str(env, "prefix", "/home/user/venv", "x");
	snap_object(env, "packages");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_FRAMEWORK], LAYER_ABSENT);
	assert_string_equal(d->chain.framework, "none found");
	assert_null(framework_fact(d, "CuPy 13.3.0"));
	diagnosis_free(d);
	/* cupy-cuda12x 13.3.0 in that environment */
	o = snap_object(snap_object(env, "packages"), "cupy");
	snap_set_str(o, "dist_name", "cupy-cuda12x", "x");
	snap_set_str(o, "dist_version", "13.3.0", "x");
	d = diag(s);
	assert_int_not_equal(d->status[GPUENV_LAYER_FRAMEWORK], LAYER_ABSENT);
	assert_string_equal(framework_fact(d, "CuPy 13.3.0"), "cupy-cuda12x in /home/user/venv");
	assert_non_null(framework_fact(d, "frameworks"));
	assert_string_equal(d->chain.framework, "CuPy 13.3.0 (not judged)");
	assert_int_equal(d->chain.link_state[1], LINK_UNKNOWN);
	assert_non_null(strstr(d->chain.link_why[1], "does not judge CuPy 13.3.0"));
	diagnosis_free(d);
	/* and ollama's tarball with its CUDA 12 build */
	o = snap_object(node(s, "framework"), "ollama");
	snap_append_str(snap_array(o, "install_dirs"), "/usr/local/lib/ollama", "x");
	v = snap_append_object(snap_array(o, "cuda_variants"));
	snap_set_str(v, "dir", "/usr/local/lib/ollama/cuda_v12", "x");
	d = diag(s);
	assert_string_equal(framework_fact(d, "ollama"),
			    "CUDA build(s) cuda_v12 in /usr/local/lib/ollama");
	assert_string_equal(d->chain.framework, "CuPy 13.3.0, ollama (not judged)");
	diagnosis_free(d);
	snapshot_unref(s);
}

/* Numba and Warp alone (no torch, TensorFlow, jax or CuPy): named by the framework layer and
 * the chain, which judges neither, instead of "absent" / "none found". */
static void test_framework_others_numba_warp(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *env, *o;
	struct gpuenv_doctor *d;

	gpu(s, "0x2684", "nvidia");
	driver_loaded(s, "550.54.15");
	env = snap_append_object(snap_array(node(s, "framework"), "python_envs"));
	snap_set_str(env, "prefix", "/opt/conda/envs/sim", "x");
	o = snap_object(snap_object(env, "packages"), "numba");
	snap_set_str(o, "dist_name", "numba", "x");
	snap_set_str(o, "dist_version", "0.60.0", "x");
	d = diag(s);
	assert_int_not_equal(d->status[GPUENV_LAYER_FRAMEWORK], LAYER_ABSENT);
	assert_string_equal(framework_fact(d, "Numba 0.60.0"), "numba in /opt/conda/envs/sim");
	assert_string_equal(d->chain.framework, "Numba 0.60.0 (not judged)");
	diagnosis_free(d);
	o = snap_object(snap_object(env, "packages"), "warp");
	snap_set_str(o, "dist_name", "warp-lang", "x");
	snap_set_str(o, "dist_version", "1.5.0", "x");
	o = snap_object(snap_object(env, "packages"), "cuda_python");
	snap_set_str(o, "dist_name", "cuda-python", "x");
	snap_set_str(o, "dist_version", "12.6.0", "x");
	d = diag(s);
	assert_string_equal(framework_fact(d, "Warp 1.5.0"), "warp-lang in /opt/conda/envs/sim");
	assert_string_equal(d->chain.framework,
			    "Numba 0.60.0, Warp 1.5.0, cuda-python 12.6.0 (not judged)");
	diagnosis_free(d);
	snapshot_unref(s);
}

static void test_verdict(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-13.0", "13.0.2");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_HEALTHY);
	assert_int_equal(d->status[GPUENV_LAYER_HARDWARE], LAYER_OK);
	assert_int_equal(d->status[GPUENV_LAYER_FRAMEWORK], LAYER_UNKNOWN);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_ABSENT);
	assert_int_equal(d->chain.link_state[0], LINK_OK);
	assert_string_equal(d->chain.driver_cuda, "13.0");
	assert_string_equal(d->chain.toolkit, "13.0.2");
	diagnosis_free(d);
	/* A warning only. */
	snap_set_int(node(s, "hardware.gpus.0"), "current_link_width", 8, "x");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_WARNINGS);
	assert_int_equal(d->status[GPUENV_LAYER_HARDWARE], LAYER_WARNING);
	diagnosis_free(d);
	/* In a container given the GPU the driver is the host's: could not tell, unless NVML
	 * and cuInit both answered inside it (a real H200 container's snapshot). */
	in_docker(s);
	snap_set_bool(node(s, "driver.device_nodes"), "nvidiactl", true, "/dev");
	snap_set_int(node(s, "hardware.gpus.0"), "current_link_width", 16, "x");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_UNKNOWN);
	diagnosis_free(d);
	snap_set_str(snap_object(node(s, "driver"), "nvml"), "init", "NVML_SUCCESS",
		     "nvml:nvmlInit_v2");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_UNKNOWN);
	diagnosis_free(d);
	snap_set_str(snap_object(node(s, "driver"), "cuda"), "init", "CUDA_SUCCESS", "cuda:cuInit");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_OK);
	diagnosis_free(d);
	/* 13.0 on R535: the chain's first link is broken. */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "535.183.01", "x");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_ERRORS);
	assert_int_equal(d->chain.link_state[0], LINK_BROKEN);
	diagnosis_free(d);
	snapshot_unref(s);
	/* Nothing readable: could not evaluate. */
	assert_int_equal(snapshot_new(&s), 0);
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_UNEVALUATED);
	assert_int_equal(d->n_findings, 0);
	assert_true(d->n_skips > 0);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* A rule's symptom in pasted text (gpuenv explain's "symptoms.<id>" facts): a finding naming
 * the line and what kept the rule from judging, only where the facts did not make the rule
 * fire, and never without the fact. A layer nothing was read of is unknown, not ok. */
static void test_symptom_finding(void **state)
{
	struct gpuenv_snapshot *s;
	struct gpuenv_doctor *d;
	const struct finding *f;

	assert_int_equal(snapshot_new(&s), 0);
	snap_set_str(snap_object(snap_object(snapshot_root(s), "symptoms"), "framework"),
		     "no-kernel-image", "RuntimeError: CUDA error: no kernel image is available",
		     "pasted:3");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_ERRORS);
	assert_int_equal(d->n_findings, 1);
	f = find(d, "framework.no-kernel-image", 0);
	assert_non_null(f);
	assert_int_equal(f->severity, GPUENV_SEVERITY_ERROR);
	assert_non_null(strstr(f->message, "(pasted:3)"));
	assert_non_null(strstr(f->message, "not confirmed by facts: could not read"));
	assert_string_equal(f->ev[0].source, "pasted:3");
	assert_string_equal(diagnosis_root_cause(d)->rule->id, "framework.no-kernel-image");
	assert_int_equal(d->status[GPUENV_LAYER_RUNTIME], LAYER_UNKNOWN);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_UNKNOWN);
	diagnosis_free(d);
	snapshot_unref(s);
	/* The rule fired from facts (nvmlInit's answer; the module's version unknown): no second
	 * finding from the symptom. */
	assert_int_equal(snapshot_new(&s), 0);
	snap_set_state(snap_object(snap_object(snapshot_root(s), "driver"), "nvml"), "init",
		       FACT_ERROR, "nvml:nvmlInit_v2", "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
	snap_set_str(snap_object(snap_object(snapshot_root(s), "symptoms"), "driver"),
		     "nvml-version-mismatch",
		     "Failed to initialize NVML: Driver/library version mismatch", "pasted:1");
	d = diag(s);
	assert_int_equal(count(d, "driver.nvml-version-mismatch"), 1);
	assert_null(strstr(find(d, "driver.nvml-version-mismatch", 0)->message, "symptom"));
	diagnosis_free(d);
	snapshot_unref(s);
}

/* A symptom another line of the text decided (pasted-container-cgroup.c: NVML's Unknown Error
 * beside the host's `systemctl daemon-reload`, NVIDIA/nvidia-docker#1671): the finding quotes
 * and cites both lines. The NVML line alone is unsure (the errors reader's
 * "symptoms.unsure.<id>"): no finding, no root cause. */
static void test_symptom_with_finding(void **state)
{
	static const char *const id = "container.dev-char-links-missing";
	struct gpuenv_snapshot *s;
	struct gpuenv_doctor *d;
	const struct finding *f;

	(void)state;
	assert_int_equal(snapshot_new(&s), 0);
	snap_set_str(snap_object(snap_object(snapshot_root(s), "symptoms"), "container"),
		     "dev-char-links-missing", "Failed to initialize NVML: Unknown Error",
		     "pasted:16");
	snap_set_str(snap_object(snap_object(snapshot_root(s), "symptoms_with"), "container"),
		     "dev-char-links-missing", "`systemctl daemon-reload`", "pasted:11");
	d = diag(s);
	f = find(d, id, 0);
	assert_non_null(f);
	assert_non_null(strstr(f->message,
			       "(pasted:16): \"Failed to initialize NVML: Unknown "
			       "Error\", with (pasted:11): \"`systemctl daemon-reload`\""));
	assert_int_equal(f->n_ev, 2);
	assert_string_equal(f->ev[0].name, "symptoms.container.dev-char-links-missing");
	assert_string_equal(f->ev[0].source, "pasted:16");
	assert_string_equal(f->ev[1].name, "symptoms_with.container.dev-char-links-missing");
	assert_string_equal(f->ev[1].source, "pasted:11");
	assert_string_equal(diagnosis_root_cause(d)->rule->id, id);
	diagnosis_free(d);
	snapshot_unref(s);
	/* the NVML line alone, as the errors reader writes it: unsure, nothing named */
	assert_int_equal(snapshot_new(&s), 0);
	snap_set_str(snap_object(snap_object(snap_object(snapshot_root(s), "symptoms"), "unsure"),
				 "container"),
		     "dev-char-links-missing", "Failed to initialize NVML: Unknown Error",
		     "pasted:16");
	d = diag(s);
	assert_null(find(d, id, 0));
	assert_null(diagnosis_root_cause(d));
	diagnosis_free(d);
	snapshot_unref(s);
}

/* Appends a runtime.library-shadowed warning saying message, with room for one evidence. */
static struct finding *add_finding(struct gpuenv_doctor *d, const char *message)
{
	struct finding *f;

	d->findings = realloc(d->findings, (d->n_findings + 1) * sizeof(*f));
	assert_non_null(d->findings);
	d->alloc_findings = d->n_findings + 1;
	f = &d->findings[d->n_findings++];
	*f = (struct finding){ .diag = d,
			       .rule = rule_find("runtime.library-shadowed"),
			       .severity = GPUENV_SEVERITY_WARNING,
			       .message = strdup(message),
			       .ev = calloc(1, sizeof(*f->ev)),
			       .n_ev = 1 };
	assert_non_null(f->rule);
	assert_non_null(f->ev);
	return f;
}

/* --redact of an identifying value that is itself part of "<redacted>" ("red") ends, in
 * both renderers that rewrite the text of a finding. */
static void test_redact_value_inside_marker(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d = diag(s);
	struct strbuf sb = STRBUF_INIT;
	struct finding *f = add_finding(d, "X=red is red");

	f->ev[0] = (struct rule_evidence){ strdup("environment.X"), strdup("red"),
					   strdup("environment"), true };
	assert_int_equal(out_doctor_json(d, GPUENV_RENDER_REDACT, &sb), 0);
	assert_non_null(strstr(strbuf_str(&sb), "X=<redacted> is <redacted>"));
	strbuf_reset(&sb);
	assert_int_equal(out_doctor_text(d, GPUENV_RENDER_REDACT, &sb), 0);
	assert_non_null(strstr(strbuf_str(&sb), "X=<redacted> is <redacted>"));
	strbuf_done(&sb);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* Every byte below 0x20 but the newline, and 0x7f, is absent from text. */
static void assert_no_controls(const char *text)
{
	for (const char *p = text; *p; p++)
		if (*p != '\n' && ((unsigned char)*p < 0x20 || *p == 0x7f))
			fail_msg("control byte 0x%02x at offset %td of:\n%s", (unsigned char)*p,
				 p - text, text);
}

/* Text read from the machine reaches the text, Markdown and Mermaid renderers with its
 * control characters escaped, and cannot open code spans, links, HTML or table cells in
 * Markdown. */
static void test_render_escapes(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d = diag(s);
	struct strbuf sb = STRBUF_INIT;
	struct finding *f = add_finding(d, "os \033]0;owned\007 [x](http://e) <b>|</b>\nnext");

	f->fix = calloc(2, sizeof(char *));
	assert_non_null(f->fix);
	f->ev[0] = (struct rule_evidence){ strdup("driver.x"), strdup("a``b\033[2J"),
					   strdup("/etc/`x`"), false };
	f->fix[0] = strdup("echo ```\033[31m");
	d->facts = realloc(d->facts, (d->n_facts + 1) * sizeof(*d->facts));
	assert_non_null(d->facts);
	d->alloc_facts = d->n_facts + 1;
	d->facts[d->n_facts++] = (struct layer_fact){ GPUENV_LAYER_DRIVER, strdup("NVIDIA driver"),
						      strdup("550|<i>`x`\033[8m\xc2\x9b"),
						      strdup("/sys/module/nvidia/version") };

	assert_int_equal(out_doctor_text(d, 0, &sb), 0);
	assert_no_controls(strbuf_str(&sb));
	assert_non_null(strstr(strbuf_str(&sb), "os \\x1b]0;owned\\x07 [x](http://e)"));
	assert_non_null(strstr(strbuf_str(&sb), "</b>\\nnext"));
	assert_non_null(strstr(strbuf_str(&sb), "driver.x = a``b\\x1b[2J [/etc/`x`]"));
	assert_non_null(strstr(strbuf_str(&sb), "550|<i>`x`\\x1b[8m\\xc2\\x9b"));
	strbuf_reset(&sb);

	assert_int_equal(out_doctor_markdown(d, 0, &sb), 0);
	assert_no_controls(strbuf_str(&sb));
	/* message: link, HTML and pipe characters escaped */
	assert_non_null(strstr(
		strbuf_str(&sb),
		"os \\\\x1b\\]0;owned\\\\x07 \\[x\\](http://e) \\<b\\>\\|\\</b\\>\\\\nnext"));
	/* a code span longer than the backtick run inside */
	assert_non_null(strstr(strbuf_str(&sb), "``` a``b\\x1b[2J ``` (`` /etc/`x` ``)"));
	/* a fence longer than the commands' backtick run */
	assert_non_null(strstr(strbuf_str(&sb), "  ````sh\n  echo ```\\x1b[31m\n  ````\n"));
	/* the table cell keeps its pipe and backticks as text */
	assert_non_null(strstr(strbuf_str(&sb), "NVIDIA driver: 550\\|\\<i\\>\\`x\\`\\\\x1b\\[8m"));
	strbuf_reset(&sb);

	assert_int_equal(out_doctor_mermaid(d, 0, &sb), 0);
	assert_no_controls(strbuf_str(&sb));
	strbuf_done(&sb);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* The program's hook between the steps (shared/step-hook.h): the diagnosis runs it between one
 * layer's rules and the next's and after each pass (the exporter drops the pages the layer
 * before ran, tools/exporter-collect.c), and the diagnosis is the same with it as without. */
static unsigned step_hook_calls;

static void count_step(void)
{
	step_hook_calls++;
}

static void test_step_hook(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *plain, *hooked;
	unsigned expected = 0;

	/* a layer's end in each pass: where the next rule of the pass is of another layer, and
	 * the pass's last rule */
	for (int late = 0; late < 2; late++) {
		const struct rule *prev = NULL;

		for (size_t i = 0; i < rule_table_len; i++) {
			if (rule_table[i].late != (late == 1))
				continue;
			if (prev && prev->layer != rule_table[i].layer)
				expected++;
			prev = &rule_table[i];
		}
		expected += prev != NULL;
	}
	/* the table has several layers, and late rules: more than one call per pass */
	assert_true(expected > 2);

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "535.183.01");
	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-13.0", "13.0.2");
	plain = diag(s);
	assert_int_equal(step_hook_calls, 0);
	step_hook_set(count_step);
	hooked = diag(s);
	step_hook_set(NULL);
	assert_int_equal(step_hook_calls, expected);
	assert_int_equal(hooked->verdict, plain->verdict);
	assert_int_equal(hooked->n_findings, plain->n_findings);
	assert_true(plain->n_findings > 0);
	for (size_t i = 0; i < plain->n_findings; i++) {
		assert_ptr_equal(hooked->findings[i].rule, plain->findings[i].rule);
		assert_string_equal(hooked->findings[i].message, plain->findings[i].message);
	}
	diagnosis_free(hooked);
	/* unset: not called again */
	hooked = diag(s);
	assert_int_equal(step_hook_calls, expected);
	diagnosis_free(hooked);
	diagnosis_free(plain);
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_escapes),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_layer_incomplete),
		cmocka_unit_test(test_container_unsure),
		cmocka_unit_test(test_chain_framework),
		cmocka_unit_test(test_framework_others),
		cmocka_unit_test(test_framework_others_numba_warp),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_symptom_finding),
		cmocka_unit_test(test_symptom_with_finding),
		cmocka_unit_test(test_redact_value_inside_marker),
		cmocka_unit_test(test_step_hook),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
