// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the vendor tests share (vendor-test-util.h): the fake libraries' directory and the
 * scenario file they read (GPUENV_FAKE_SCENARIO, inherited by the vendor child), the lookups
 * and assertions over a session's fact tree, and one NVML session.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "vendor/lazy-zip.h"
#include "vendor/sandbox.h"
#include "vendor/session.h"
#include "vendor/vendor.h"

#include "vendor-test-util.h"

char fakes[512], scenario[256];

const char *fake(const char *name)
{
	static char path[600];

	snprintf(path, sizeof(path), "%s/%s", fakes, name);
	return path;
}

void set_scenario(const char *text)
{
	FILE *f = fopen(scenario, "we");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	setenv("GPUENV_FAKE_SCENARIO", scenario, 1);
}

/* The leaf or node at a dotted path ("devices.1.name"). */
json_t *jget(json_t *j, const char *path)
{
	char copy[256], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", path);
	for (char *p = strtok_r(copy, ".", &save); p && j; p = strtok_r(NULL, ".", &save))
		j = json_is_array(j) ? json_array_get(j, strtoul(p, NULL, 10))
				     : json_object_get(j, p);
	return j;
}

const char *jstr(json_t *t, const char *path, const char *member)
{
	return json_string_value(json_object_get(jget(t, path), member));
}

void assert_fact(json_t *t, const char *path, const char *state, const char *source)
{
	const char *s = jstr(t, path, "state");

	if (!s || strcmp(s, state) != 0)
		fail_msg("%s: state %s, want %s (error: %s)", path, s ? s : "(missing)", state,
			 jstr(t, path, "error") ?: "-");
	if (source)
		assert_string_equal(jstr(t, path, "source"), source);
}

void assert_str(json_t *t, const char *path, const char *want)
{
	assert_fact(t, path, "present", NULL);
	assert_string_equal(json_string_value(jget(jget(t, path), "value")), want);
}

void assert_int(json_t *t, const char *path, long long want)
{
	assert_fact(t, path, "present", NULL);
	assert_int_equal(json_integer_value(jget(jget(t, path), "value")), want);
}

void assert_error_contains(json_t *t, const char *path, const char *state, const char *text)
{
	const char *e;

	assert_fact(t, path, state, NULL);
	e = jstr(t, path, "error");
	assert_non_null(e);
	if (!strstr(e, text))
		fail_msg("%s: error \"%s\" lacks \"%s\"", path, e, text);
}

json_t *nvml(const char *lib, unsigned timeout_ms, char **ret_failure)
{
	struct vendor_req req = { .library = lib, .timeout_ms = timeout_ms };
	struct vendor_result r;

	assert_int_equal(vendor_run(vendor_nvml_start, &req, &r), 0);
	assert_non_null(r.tree);
	if (ret_failure)
		*ret_failure = r.failure;
	else if (r.failure)
		fail_msg("unexpected failure: %s", r.failure);
	return r.tree;
}

json_t *session_tree(int (*start)(const struct vendor_req *, struct vendor_pending **),
		     const char *lib, unsigned timeout_ms, char **ret_failure)
{
	struct vendor_req req = { .library = lib, .timeout_ms = timeout_ms };
	struct vendor_result r;
	json_t *t;

	assert_int_equal(vendor_run(start, &req, &r), 0);
	if (r.failure && !ret_failure)
		fail_msg("unexpected failure: %s", r.failure);
	if (ret_failure)
		*ret_failure = r.failure ? strdup(r.failure) : NULL;
	t = json_incref(r.tree);
	vendor_result_done(&r);
	return t;
}

const char *stderr_text(const struct vendor_result *r)
{
	const char *v = json_string_value(jget(r->tree, "stderr.value"));

	if (!v)
		fail_msg("no stderr fact (failure: %s)", r->failure ?: "-");
	return v;
}

/* The kernel's Landlock ABI the session ran under (its "sandbox" fact), 0 for none. */
int landlock_abi(const struct vendor_result *r)
{
	const char *v = json_string_value(jget(r->tree, "sandbox.value"));
	const char *at = v ? strstr(v, "landlock ABI ") : NULL;

	return at ? atoi(at + strlen("landlock ABI ")) : 0;
}

int vendor_test_fakes(void)
{
	const char *build = getenv("GPUENV_BUILD_ROOT");

	if (!build) {
		printf("SKIP: GPUENV_BUILD_ROOT not set (run through meson test)\n");
		return 77;
	}
	snprintf(fakes, sizeof(fakes), "%s/tests/fakes", build);
	return 0;
}

int vendor_test_init(void)
{
	int fd, r = vendor_test_fakes();

	if (r != 0)
		return r;
	snprintf(scenario, sizeof(scenario), "/tmp/gpuenv-test-vendor-XXXXXX");
	fd = mkstemp(scenario);
	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}

void vendor_test_done(void)
{
	unlink(scenario);
}
