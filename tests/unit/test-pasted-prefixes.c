// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-prefixes: the log collectors' line prefixes explain's input hygiene takes off
 * (docker compose, kubectl logs --prefix, syslog/journalctl, GitHub Actions, `uname -a` in
 * inline code), only where a run of lines shows them, and the lines that must keep theirs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/kernel-log.h"
#include "formats/pasted-input.h"
#include "formats/pasted-prefixes.h"

/* The cleaned text of in, both ways (a copy, and in the input's own buffer), is want. */
static void expect(const char *in, const char *want)
{
	size_t len = strlen(in), n = 0;
	char *out = NULL, *copy = malloc(len + 1);

	assert_int_equal(pasted_input_clean(in, len, &out, &n, NULL), 0);
	assert_string_equal(out, want);
	assert_int_equal(strlen(out), n);
	free(out);
	assert_non_null(copy);
	memcpy(copy, in, len + 1);
	assert_int_equal(pasted_input_clean_take(copy, len, &out, &n, NULL), 0);
	assert_string_equal(out, want);
	free(out);
}

/* Text that keeps every byte. */
static void kept(const char *in)
{
	expect(in, in);
}

static void test_compose(void **state)
{
	(void)state;
	/* vllm-project/vllm#21633 as pasted (docker compose v2) */
	expect("vllm-1  | /usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:287: "
	       "UserWarning: \n"
	       "vllm-1  | NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120 is not compatible "
	       "with the current PyTorch installation.\n"
	       "vllm-1  | \n",
	       "/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:287: UserWarning: \n"
	       "NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120 is not compatible with the "
	       "current PyTorch installation.\n"
	       "\n");
	/* docker-compose 1.x's "_<n>", names padded to the longest, one with its "|" alone */
	expect("ollama_1     | time=2024 level=INFO\nopen-webui_1 | Loading\nollama_1     |\n",
	       "time=2024 level=INFO\nLoading\n\n");
	/* CRLF and colours come off first: the prefix is seen as compose prints it */
	expect("\x1b[36mapi-1  | \x1b[0mfirst\r\n\x1b[36mapi-1  | \x1b[0msecond\r\n",
	       "first\nsecond\n");
	/* a line between that is not compose's keeps its text; its neighbours still strip */
	expect("web-1  | a\nweb-1  | b\nplain\n", "a\nb\nplain\n");
}

static void test_compose_container_name(void **state)
{
	(void)state;
	/* a compose file's container_name, no index (jammsen/proxmox-setup-scripts#9:
	 * "ollama-main-gpu  | time=…") */
	expect("ollama-main-gpu  | time=2026-01-20T16:02:24.468Z level=INFO source=routes.go:1614 "
	       "msg=\"server config\"\n"
	       "ollama-main-gpu  | time=2026-01-20T16:02:24.520Z level=INFO source=gpu.go:217 "
	       "msg=\"looking for compatible GPUs\"\n",
	       "time=2026-01-20T16:02:24.468Z level=INFO source=routes.go:1614 "
	       "msg=\"server config\"\n"
	       "time=2026-01-20T16:02:24.520Z level=INFO source=gpu.go:217 "
	       "msg=\"looking for compatible GPUs\"\n");
	/* names padded to the longest + 1, one with an index beside them; ollama's own GIN lines
	 * carry " | " in their text, which stays */
	expect("nutrition-ollama  | [GIN] 2026/07/23 - 23:03:17 | 200 |     109.792us | HEAD \"/\"\n"
	       "ollama-pull-1     | success \n"
	       "nutrition-web     |  * Debug mode: on\n",
	       "[GIN] 2026/07/23 - 23:03:17 | 200 |     109.792us | HEAD \"/\"\n"
	       "success \n"
	       " * Debug mode: on\n");
	/* nvidia-smi run in the container: its table comes out whole */
	expect("my-app  | +-----------------------------------------+\n"
	       "my-app  | | NVIDIA-SMI 545.29.06   Driver Version: 545.29.06 |\n"
	       "my-app  | |   0  NVIDIA GeForce GTX 1660        Off |\n",
	       "+-----------------------------------------+\n"
	       "| NVIDIA-SMI 545.29.06   Driver Version: 545.29.06 |\n"
	       "|   0  NVIDIA GeForce GTX 1660        Off |\n");
	expect("vllm.server  | a\nvllm.server  | b\n", "a\nb\n");
}

static void test_compose_alone_kept(void **state)
{
	(void)state;
	kept("vllm-1  | NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120\n");
	kept("a\nvllm-1  | x\nb\n");
	/* two lines whose "|" is not in the same column are no compose run */
	kept("vllm-1  | x\nollama-12 | y\n");
	/* a name without an index after one space only: a table's, not compose v2's */
	kept("vllm | x\nvllm | y\n");
}

static void test_tables_and_code_kept(void **state)
{
	(void)state;
	/* nvidia-smi's table */
	kept("|   0  NVIDIA GeForce RTX 5070        Off |   00000000:10:00.0 Off |       N/A |\n"
	     "|  0%   26C    P8              5W /  250W |     304MiB /  12227MiB |      0% |\n");
	/* a Markdown table, with and without its outer pipes */
	kept("| GPU | Driver |\n|---|---|\n| A100 | 535.54.03 |\n");
	kept("gpu-0 | 535\ngpu-1 | 550\n");
	/* aligned tables whose first cell could be a container_name: closed by " |", or a first
	 * cell that starts with no letter */
	kept("GPU    | A100      |\nDriver | 535.54.03 |\n");
	kept("0      | A100\n1      | H100\n");
	/* nvidia-smi's table lines whose text runs on: "|" first, never a name */
	kept("| NVIDIA-SMI 535.54.03   Driver Version: 535.54.03   CUDA Version: 12.2     |\n"
	     "|-----------------------------------------+----------------------+----------+\n");
	/* a Python traceback's lines with "|" */
	kept("  File \"x.py\", line 3, in f\n    flags = a_1 | b_2\n    flags = a_1 | b_3\n");
	kept("x_1 = a | b\nx_2 = a | b\n");
}

static void test_kubectl(void **state)
{
	(void)state;
	expect("[pod/vllm-6d9f7c9b8-x2x7q/vllm] INFO 07-28 Automatically detected platform cuda.\n"
	       "[pod/vllm-6d9f7c9b8-x2x7q/vllm] RuntimeError: CUDA error: no kernel image\n",
	       "INFO 07-28 Automatically detected platform cuda.\n"
	       "RuntimeError: CUDA error: no kernel image\n");
	kept("[pod/vllm-6d9f7c9b8-x2x7q/vllm] alone\n");
	/* not the prefix: no container, a space in it */
	kept("[pod/vllm] a\n[pod/vllm] b\n");
	kept("[pod/a b/c] a\n[pod/a b/c] b\n");
	/* dmesg's clock is no kubectl prefix */
	kept("[   12.014918] NVRM: API mismatch\n[   12.014919] NVRM: x\n");
}

static void test_syslog(void **state)
{
	(void)state;
	/* journalctl -u ollama (short), a kernel line among them keeps its prefix */
	expect("Dec 07 10:01:02 gpu1 ollama[1234]: time=2024-12-07 level=INFO msg=\"inference "
	       "compute\" library=cuda\n"
	       "Dec 07 10:01:02 gpu1 kernel: NVRM: Xid (PCI:0000:01:00): 79\n"
	       "Dec 07 10:01:03 gpu1 ollama[1234]: Error: cudaMalloc failed\n",
	       "time=2024-12-07 level=INFO msg=\"inference compute\" library=cuda\n"
	       "Dec 07 10:01:02 gpu1 kernel: NVRM: Xid (PCI:0000:01:00): 79\n"
	       "Error: cudaMalloc failed\n");
	/* syslog's padded day, short-precise's microseconds, short-iso */
	expect("Mar  4 03:12:55 host dockerd[812]: a\nMar  4 03:12:55.123456 host dockerd[812]: b\n"
	       "2024-05-01T10:11:12+0000 host containerd[90]: c\n",
	       "a\nb\nc\n");
	/* kernel lines alone, and a single program line: as they are */
	kept("Dec 07 10:01:02 gpu1 kernel: NVRM: a\nDec 07 10:01:02 gpu1 kernel: NVRM: b\n");
	kept("Dec 07 10:01:02 gpu1 ollama[1234]: alone\n");
	kept("Dec 07 10:01:02 gpu1 ollama[x]: a\nDec 07 10:01:02 gpu1 ollama[x]: b\n");
}

static void test_actions(void **state)
{
	(void)state;
	expect("2024-05-01T10:11:12.1234567Z ##[group]Run nvidia-smi\n"
	       "2024-05-01T10:11:12.2234567Z NVIDIA-SMI has failed because it couldn't communicate "
	       "with the NVIDIA driver.\n"
	       "2024-05-01T10:11:12.3234567Z\n",
	       "##[group]Run nvidia-smi\n"
	       "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n\n");
	kept("2024-05-01T10:11:12.1234567Z alone\n");
	/* a time with no "Z" or inside a line is the text's */
	kept("2024-05-01T10:11:12.1234567 a\n2024-05-01T10:11:12.1234567 b\n");
	kept("at 2024-05-01T10:11:12.1234567Z a\nat 2024-05-01T10:11:12.1234567Z b\n");
}

static void test_uname_in_inline_code(void **state)
{
	(void)state;
	expect("uname -a gives `Linux gpu1 6.5.0-14-generic #14~22.04.1-Ubuntu SMP PREEMPT_DYNAMIC "
	       "x86_64 GNU/Linux` here\nnext\n",
	       "Linux gpu1 6.5.0-14-generic #14~22.04.1-Ubuntu SMP PREEMPT_DYNAMIC x86_64 "
	       "GNU/Linux\nnext\n");
	/* inline code that is not uname's output stays prose */
	kept("I run `Linux` on it\n");
	kept("the `Linux 6.5` kernel and `x`\n");
}

/* Line N stays line N: only bytes inside lines go. */
static void test_lines_kept(void **state)
{
	char buf[] = "a-1  | x\na-1  | y\n\n\nb";

	(void)state;
	assert_int_equal(pasted_prefixes_strip(buf, strlen(buf)), strlen("x\ny\n\n\nb"));
	assert_string_equal(buf, "x\ny\n\n\nb");
	assert_int_equal(pasted_prefixes_strip(NULL, 0), 0);
}

/* journalctl's short times, the one parse both the prefixes and the kernel-log reader use
 * (journalctl(1): short "Dec 07 10:01:02", syslog's padded day "Dec  7", short-precise's
 * microseconds); what is not one of them is 0. */
static void test_short_time(void **state)
{
	static const struct {
		const char *s;
		size_t want;
	} cases[] = {
		{ "Dec 07 10:01:02 gpu1 kernel: NVRM", 15 },
		{ "Dec  7 10:01:02 gpu1 kernel: NVRM", 15 },
		{ "Dec 07 10:01:02.123456 gpu1 kernel: NVRM", 22 },
		{ "Dec 07 10:01:02.12345 gpu1", 15 },	/* not microseconds: the second */
		{ "Dec 07 10:01:02.1234567 gpu1", 15 }, /* nor */
		{ "Dec 07 10:01:02", 15 },
		{ "Dec 07 10:01:0", 0 },
		{ "Dek 07 10:01:02 gpu1", 0 },
		{ "Dec 7 10:01:02 gpu1 x", 0 },
		{ "Dec 07 10-01-02 gpu1", 0 },
		{ "Dec 07 1a:01:02 gpu1", 0 },
		{ "2024-12-07T10:01:02Z gpu1", 0 }, /* short-iso: the prefixes' iso_time */
	};
	char ts[40];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].s);

		assert_int_equal(klog_short_time(cases[i].s, n), cases[i].want);
		/* the kernel-log reader's time stamp: the same line's time, to the second */
		klog_line_timestamp(cases[i].s, ts, sizeof(ts));
		if (cases[i].want) {
			assert_int_equal(strlen(ts), 15);
			assert_memory_equal(ts, cases[i].s, 15);
		} else if (cases[i].s[0] != '2') {
			assert_string_equal(ts, "");
		}
	}
	/* the prefixes take off a run of short-precise lines as of short ones */
	expect("Dec 07 10:01:02.123456 gpu1 python[12]: a\n"
	       "Dec 07 10:01:03.000001 gpu1 python[12]: b\n",
	       "a\nb\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compose),
		cmocka_unit_test(test_compose_container_name),
		cmocka_unit_test(test_compose_alone_kept),
		cmocka_unit_test(test_tables_and_code_kept),
		cmocka_unit_test(test_kubectl),
		cmocka_unit_test(test_syslog),
		cmocka_unit_test(test_short_time),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_uname_in_inline_code),
		cmocka_unit_test(test_lines_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
