// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The hung-task reader of formats/pasted (the kernel's report of a task in D state and its
 * call trace) over real pastes (tests/fuzz/corpus/pasted-hung-task/, each copied from the
 * page named above its test): the innermost sure frame of the NVIDIA driver's modules at its
 * line and the report's first line as the symptom, whatever the task's name; nothing for a
 * trace outside the driver, a guessed frame, or a trace cut from its report.
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

#define STUCK	"driver.nvml.session_stuck"
#define SYMPTOM "symptoms.driver.nvml-stuck-in-kernel"

/* https://github.com/NVIDIA/k8s-device-plugin/issues/77: Linux 4.4's report ("INFO: task
 * nvc:[driver]:5403 …", a name holding ':'), "[<address>] " before each frame, "? " guesses */
static void test_info_line(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_hung_task, "pasted-hung-task", "k8s-device-plugin-77-nvc.txt",
			  &f);
	pasted_expect(&f, STUCK, "uvm_gpu_retain_by_uuid+0x1e/0x40 [nvidia_uvm]", 18);
	pasted_expect(&f, SYMPTOM,
		      "[  721.028170] INFO: task nvc:[driver]:5403 blocked for more than 120 "
		      "seconds.",
		      5);
	assert_int_equal(f.n, 2);
}

/* https://github.com/rwth-i6/returnn/issues/1480 (dmesg -H: "task:python3.11 state:D", no
 * INFO line) and https://github.com/NVIDIA/open-gpu-kernel-modules/issues/968 (journalctl -k,
 * "task:nv_open_q", the trace in nvidia) */
static void test_task_line(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_hung_task, "pasted-hung-task", "returnn-1480-uvm-ioctl.txt",
			  &f);
	pasted_expect(&f, STUCK, "uvm_page_tree_get_ptes_async+0x93/0x970 [nvidia_uvm]", 10);
	pasted_expect(&f, SYMPTOM,
		      "[  +0.000049] task:python3.11      state:D stack:    0 pid:15277 ppid: "
		      "15257 flags:0x00000002",
		      1);
	assert_int_equal(f.n, 2);
	pasted_run_sample(pasted_read_hung_task, "pasted-hung-task",
			  "open-gpu-kernel-modules-968-journal.txt", &f);
	pasted_expect(&f, STUCK, "os_acquire_rwlock_write+0x3c/0x70 [nvidia]", 9);
	assert_int_equal(f.n, 2);
}

/* A file system's hung task (gluster/gluster-health-report#19): no frame of the driver, nothing
 * read. Nor from a guessed frame, a trace after an empty line, a trace without its report,
 * another module whose name starts alike, or the frames after the trace ended. */
static void test_not_read(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_hung_task, "pasted-hung-task", "glusterfs-not-nvidia.txt",
			  &f);
	assert_int_equal(f.n, 0);
	pasted_run_text(pasted_read_hung_task,
			"INFO: task nvidia-smi:77 blocked for more than 120 seconds.\n"
			"Call Trace:\n"
			" ? os_acquire_mutex+0x1/0x2 [nvidia]\n"
			" schedule+0x35/0x80 [nvidiafb]\n"
			"\n"
			" os_acquire_mutex+0x1/0x2 [nvidia]\n"
			"Call Trace:\n"
			" os_acquire_mutex+0x1/0x2 [nvidia]\n"
			"task:x state:D\n"
			"Call Trace:\n"
			" schedule+0x35/0x80\n"
			"some other message\n"
			" os_acquire_mutex+0x1/0x2 [nvidia]\n",
			&f);
	assert_int_equal(f.n, 0);
	/* the task line under the INFO line is the same report: its first line stays the INFO's */
	pasted_run_text(pasted_read_hung_task,
			"INFO: task nvidia-smi:77 blocked for more than 240 seconds.\n"
			"task:nvidia-smi state:D stack:0 pid:77\n"
			"Call Trace:\n"
			" <TASK>\n"
			" __schedule+0x24/0x50\n"
			" os_acquire_mutex+0x1/0x2 [nvidia]\n",
			&f);
	pasted_expect(&f, STUCK, "os_acquire_mutex+0x1/0x2 [nvidia]", 6);
	pasted_expect(&f, SYMPTOM, "INFO: task nvidia-smi:77 blocked for more than 240 seconds.",
		      1);
	assert_int_equal(f.n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_info_line, teardown),
		cmocka_unit_test_teardown(test_task_line, teardown),
		cmocka_unit_test_teardown(test_not_read, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
