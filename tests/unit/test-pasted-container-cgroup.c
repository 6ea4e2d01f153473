// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The container device-cgroup reader of formats/pasted over real pastes
 * (tests/fuzz/corpus/pasted-container-cgroup/, each copied from the page named above its test):
 * NVML's Unknown Error is container.dev-char-links-missing's symptom only beside the host's
 * systemd reload, nvidia-container-cli's refused device rules container.rootless-no-cgroups'
 * only beside a rootless engine; each line alone writes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-readers.h"
#include "pasted-test-util.h"

static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

#define DEV_CHAR "symptoms.container.dev-char-links-missing"
#define ROOTLESS "symptoms.container.rootless-no-cgroups"

/* https://github.com/NVIDIA/nvidia-docker/issues/1671: the host's `systemctl daemon-reload`
 * (line 11) and systemd's "Reloading." (line 21) beside NVML's Unknown Error (line 16) */
static void test_reload(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_container_cgroup, "pasted-container-cgroup",
			  "nvidia-docker-1671-daemon-reload.txt", &f);
	pasted_expect(&f, DEV_CHAR, "Failed to initialize NVML: Unknown Error", 16);
	pasted_expect(&f, "symptoms_with.container.dev-char-links-missing",
		      "`systemctl daemon-reload`", 11);
	pasted_expect_none(&f, ROOTLESS);
	assert_int_equal(f.n, 2);
}

/* https://github.com/NVIDIA/nvidia-container-toolkit/issues/1227: the line in the container and
 * the host's nvidia-smi -L, no reload shown: nothing (missing /dev/nvidia* print it too) */
static void test_no_reload(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_container_cgroup, "pasted-container-cgroup",
			  "nvidia-container-toolkit-1227-no-reload.txt", &f);
	assert_int_equal(f.n, 0);
}

/* https://github.com/NVIDIA/nvidia-container-toolkit/issues/85: rootless Docker's
 * DOCKER_HOST=unix://$XDG_RUNTIME_DIR/docker.sock on the command (line 2), the hook's
 * bpf_prog_query refusal (line 4) */
static void test_rootless(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_container_cgroup, "pasted-container-cgroup",
			  "nvidia-container-toolkit-85-rootless.txt", &f);
	pasted_expect(&f, ROOTLESS,
		      "nvidia-container-cli: mount error: failed to add device rules: unable to "
		      "find any existing device filters attached to the cgroup: "
		      "bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown.",
		      4);
	pasted_expect(
		&f, "symptoms_with.container.rootless-no-cgroups",
		"$ DOCKER_HOST=unix://$XDG_RUNTIME_DIR/docker.sock docker run --rm --gpus all "
		"nvidia/cuda:12.0.0-base-ubuntu20.04 nvidia-smi",
		2);
	pasted_expect_none(&f, DEV_CHAR);
	assert_int_equal(f.n, 2);
}

/* Each line alone, and near misses: the refusal as root (libnvidia-container#151's 1.8.0 printed
 * it so), a user manager's reload (systemd[<pid>], not PID 1's), a TCP DOCKER_HOST, another
 * device-rules failure (a BPF program the kernel refused: no permission word) */
static void test_not_read(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_container_cgroup,
		"nvidia-container-cli: mount error: failed to add device rules: unable to "
		"find any existing device filters attached to the cgroup: "
		"bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown.\n"
		"$ DOCKER_HOST=tcp://10.0.0.2:2375 docker info\n",
		&f);
	assert_int_equal(f.n, 0);
	pasted_run_text(pasted_read_container_cgroup,
			"Failed to initialize NVML: Unknown Error\n"
			"Sep 02 21:17:56 node5-4 systemd[1402]: Reloading.\n",
			&f);
	assert_int_equal(f.n, 0);
	pasted_run_text(pasted_read_container_cgroup,
			"nvidia-container-cli: mount error: failed to add device rules: unable to "
			"generate new device filter program from existing programs: load program: "
			"invalid argument: unknown\n"
			"export DOCKER_HOST=unix:///run/user/1000/docker.sock\n",
			&f);
	assert_int_equal(f.n, 0);
}

/* The other signs of a rootless engine: docker info's security option, as listed and as
 * --format '{{.SecurityOptions}}' prints it, podman info's answer, a /run/user socket; and
 * systemd's own reload line */
static void test_other_signs(void **state)
{
	static const char *const rootless[] = {
		" Security Options:\n  seccomp\n   Profile: builtin\n  rootless\n  cgroupns\n",
		"[name=seccomp,profile=builtin name=rootless name=cgroupns]\n",
		"    rootless: true\n",
		"export DOCKER_HOST=unix:///run/user/1000/docker.sock\n",
	};
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(rootless) / sizeof(rootless[0]); i++) {
		snprintf(text, sizeof(text),
			 "%snvidia-container-cli: mount error: open failed: "
			 "/sys/fs/cgroup/devices/user.slice/devices.allow: permission denied\n",
			 rootless[i]);
		pasted_run_text(pasted_read_container_cgroup, text, &f);
		pasted_expect(&f, ROOTLESS,
			      "nvidia-container-cli: mount error: open failed: "
			      "/sys/fs/cgroup/devices/user.slice/devices.allow: permission denied",
			      0);
		assert_int_equal(f.n, 2);
	}
	pasted_run_text(pasted_read_container_cgroup,
			"Sep 02 21:17:56 node5-4 systemd[1]: Reloading.\n"
			"root@098b49afe624:/# nvidia-smi\n"
			"Failed to initialize NVML: Unknown Error\n",
			&f);
	pasted_expect(&f, DEV_CHAR, "Failed to initialize NVML: Unknown Error", 3);
	pasted_expect(&f, "symptoms_with.container.dev-char-links-missing",
		      "Sep 02 21:17:56 node5-4 systemd[1]: Reloading.", 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_reload, teardown),
		cmocka_unit_test_teardown(test_no_reload, teardown),
		cmocka_unit_test_teardown(test_rootless, teardown),
		cmocka_unit_test_teardown(test_not_read, teardown),
		cmocka_unit_test_teardown(test_other_signs, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
