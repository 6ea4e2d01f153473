/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests for src/facts: spot checks of rows transcribed from shared/facts/<table>.tsv (NVIDIA
 * CUDA release notes Table 2/3, cuda-gpus, open-gpu-kernel-modules README, data-center
 * driver pages, NVIDIA/cccl ptx_isa.h, NVSentinel Xid map), table invariants, and that
 * gen-facts.py rejects bad TSVs (run with python3 from PATH on files in a mkdtemp dir).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "facts/facts-table.h"
#include "shared/parse.h"

static void test_gpu_pci(void **state)
{
	const struct facts_gpu *g;

	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0x2684, &g), 0);
	assert_string_equal(g->product, "GeForce RTX 4090");
	assert_string_equal(g->compute_capability, "8.9");
	assert_int_equal(g->cc_major, 8);
	assert_int_equal(g->cc_minor, 9);
	assert_string_equal(g->architecture, "Ada Lovelace");
	assert_non_null(g->source);

	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0x2330, &g), 0);
	assert_string_equal(g->compute_capability, "9.0");
	assert_string_equal(g->architecture, "Hopper");

	/* 25b6 is shared by A16 and A2 */
	assert_int_equal(facts_gpu_by_pci_id_nth(0x10de, 0x25b6, 0, &g), 0);
	assert_int_equal(facts_gpu_by_pci_id_nth(0x10de, 0x25b6, 1, &g), 0);
	assert_string_equal(g->compute_capability, "8.6");
	assert_int_equal(facts_gpu_by_pci_id_nth(0x10de, 0x25b6, 2, &g), -ENOENT);

	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0xffff, &g), -ENOENT);
	assert_int_equal(facts_gpu_by_pci_id(0x1002, 0x2684, &g), -ENOENT);
	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0x2684, NULL), -EINVAL);
}

static void test_gpu_name(void **state)
{
	const struct facts_gpu *g;

	assert_int_equal(facts_gpu_by_name("RTX 4090", &g), 0);
	assert_string_equal(g->product, "GeForce RTX 4090");
	assert_int_equal(facts_gpu_by_name("NVIDIA GeForce RTX 4090", &g), 0);
	assert_string_equal(g->product, "GeForce RTX 4090");
	assert_int_equal(facts_gpu_by_name("nvidia geforce rtx 4090 d", &g), 0);
	assert_string_equal(g->product, "GeForce RTX 4090 D");
	assert_int_equal(facts_gpu_by_name("NVIDIA H100 PCIe", &g), 0);
	assert_string_equal(g->compute_capability, "9.0");
	/* nvidia-smi's name for the SXM part: prefix match on "H100" */
	assert_int_equal(facts_gpu_by_name("NVIDIA H100 80GB HBM3", &g), 0);
	assert_string_equal(g->compute_capability, "9.0");
	assert_int_equal(facts_gpu_by_name("Tesla T4", &g), 0);
	assert_string_equal(g->compute_capability, "7.5");
	assert_int_equal(facts_gpu_by_name("Quadro RTX 8000", &g), 0);
	assert_string_equal(g->product, "Quadro RTX 6000 / RTX 8000");
	assert_int_equal(facts_gpu_by_name("Quadro RTX 6000", &g), 0);
	assert_string_equal(g->product, "Quadro RTX 6000 / RTX 8000");
	assert_int_equal(facts_gpu_by_name("NVIDIA Jetson Orin NX", &g), 0);
	assert_string_equal(g->compute_capability, "8.7");
	assert_int_equal(facts_gpu_by_name("Radeon RX 7900", &g), -ENOENT);
	assert_int_equal(facts_gpu_by_name("", &g), -EINVAL);
}

static void test_cuda_driver(void **state)
{
	const struct facts_cuda_release *rel;
	const struct facts_minor_compat *mc;
	const char *d;

	assert_int_equal(facts_cuda_min_driver("12.4", &d), 0);
	assert_string_equal(d, "550.54.14");
	assert_int_equal(facts_cuda_min_driver("12.4.1", &d), 0);
	assert_string_equal(d, "550.54.15");
	assert_int_equal(facts_cuda_min_driver("12.8.1", &d), 0);
	assert_string_equal(d, "570.124.06");
	assert_int_equal(facts_cuda_min_driver("13.0", &d), 0);
	assert_string_equal(d, "580.65.06");
	assert_int_equal(facts_cuda_release("12.4", &rel), 0);
	assert_string_equal(rel->driver_branch, "550");
	assert_string_equal(rel->confidence, "confirmed");
	/* not in Table 3: row kept, value unconfirmed */
	assert_int_equal(facts_cuda_min_driver("12.3.2", &d), -ENODATA);
	assert_int_equal(facts_cuda_release("13.4.0", &rel), 0);
	assert_string_equal(rel->confidence, "unconfirmed");
	assert_int_equal(facts_cuda_min_driver("12.7", &d), -ENOENT);
	assert_int_equal(facts_cuda_min_driver("x", &d), -EINVAL);

	assert_int_equal(facts_minor_compat_floor(12, &mc), 0);
	assert_string_equal(mc->linux_min_driver, "525.60.13");
	assert_int_equal(mc->upper_bound_exclusive, 580);
	assert_int_equal(facts_minor_compat_floor(11, &mc), 0);
	assert_string_equal(mc->linux_min_driver, "450.80.02");
	assert_int_equal(facts_minor_compat_floor(13, &mc), 0);
	assert_string_equal(mc->linux_min_driver, "580");
	assert_int_equal(facts_minor_compat_floor(10, &mc), -ENOENT);
}

static void test_branch_arch_xid(void **state)
{
	const struct facts_driver_branch *b;
	const struct facts_cuda_arch *a;
	const struct facts_xid *x;
	const char *p;

	assert_int_equal(facts_driver_branch("550.54.15", &b), 0);
	assert_int_equal(b->branch, 550);
	assert_string_equal(b->cuda_version_reported, "12.4");
	assert_int_equal(facts_driver_branch("580.65.06", &b), 0);
	assert_string_equal(b->datacenter_designation, "LTSB");
	assert_string_equal(b->oldest_cc, "5.0");
	assert_int_equal(facts_driver_branch("620.1", &b), 0);
	assert_null(b->cuda_version_reported);
	assert_string_equal(b->confidence, "unconfirmed");
	assert_int_equal(facts_driver_branch("387.26", &b), -ENOENT);

	assert_int_equal(facts_cuda_ptx_isa("12.4", &p), 0);
	assert_string_equal(p, "8.4");
	assert_int_equal(facts_cuda_ptx_isa("12.8.1", &p), 0);
	assert_string_equal(p, "8.7");
	assert_int_equal(facts_cuda_arch("13.0", &a), 0);
	assert_string_equal(a->min_cc, "7.5");
	assert_string_equal(a->max_cc, "12.1");
	assert_int_equal(facts_cuda_arch("12", &a), -EINVAL);
	assert_int_equal(facts_cuda_arch("8.0", &a), -ENOENT);

	assert_int_equal(facts_xid(79, &x), 0);
	assert_string_equal(x->mnemonic, "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS");
	assert_string_equal(x->severity, "FATAL");
	assert_false(x->application_error);
	assert_int_equal(facts_xid(13, &x), 0);
	assert_true(x->application_error);
	assert_int_equal(facts_xid(1, &x), -ENOENT);
}

static void test_invariants(void **state)
{
	assert_true(facts_gpu_table_len > 50);
	for (size_t i = 0; i < facts_gpu_table_len; i++) {
		assert_non_null(facts_gpu_table[i].source);
		assert_non_null(facts_gpu_table[i].confidence);
	}
	for (size_t i = 1; i < facts_gpu_pci_index_len; i++) {
		const struct facts_pci_index *p = &facts_gpu_pci_index[i - 1], *q = &facts_gpu_pci_index[i];
		uint32_t a = (uint32_t)p->vendor << 16 | p->device, b = (uint32_t)q->vendor << 16 | q->device;

		assert_true(a <= b);
		/* CC by PCI id is safe only when all candidates share one CC */
		if (a == b)
			assert_string_equal(facts_gpu_table[p->row].compute_capability,
					    facts_gpu_table[q->row].compute_capability);
	}
	for (size_t i = 0; i < facts_cuda_release_table_len; i++) {
		assert_non_null(facts_cuda_release_table[i].source);
		if (i > 0)
			assert_true(version_cmp_str(facts_cuda_release_table[i - 1].toolkit_version,
						    facts_cuda_release_table[i].toolkit_version) < 0);
		/* Table 3 minimum drivers never go down from one release to the next */
		for (size_t j = 0; j < i; j++) {
			const char *a = facts_cuda_release_table[j].linux_min_driver;
			const char *b = facts_cuda_release_table[i].linux_min_driver;

			if (a && b)
				assert_true(version_cmp_str(a, b) <= 0);
		}
	}
	for (size_t i = 1; i < facts_driver_branch_table_len; i++)
		assert_true(facts_driver_branch_table[i - 1].branch < facts_driver_branch_table[i].branch);
	for (size_t i = 0; i < facts_driver_branch_table_len; i++)
		assert_non_null(facts_driver_branch_table[i].source);
	for (size_t i = 0; i < facts_cuda_arch_table_len; i++) {
		assert_non_null(facts_cuda_arch_table[i].source);
		if (i > 0)
			assert_true(version_cmp_str(facts_cuda_arch_table[i - 1].cuda_version,
						    facts_cuda_arch_table[i].cuda_version) < 0);
	}
	for (size_t i = 1; i < facts_xid_table_len; i++)
		assert_true(facts_xid_table[i - 1].xid < facts_xid_table[i].xid);
	for (size_t i = 0; i < facts_minor_compat_table_len; i++)
		assert_non_null(facts_minor_compat_table[i].source);
}

/* Copies the real data dir into a temp dir, replaces one table, runs the generator. */
static int run_gen_with(const char *table, const char *content)
{
	char dir[] = "/tmp/test-facts-XXXXXX";
	char cmd[4096];
	int st;

	assert_non_null(mkdtemp(dir));
	/* Every table: the generator reads them all. */
	snprintf(cmd, sizeof(cmd), "cp '%s/src/facts/data/'*.tsv '%s/'", GPUENV_TEST_SOURCE_ROOT, dir);
	assert_int_equal(system(cmd), 0);
	if (table) {
		FILE *f;

		snprintf(cmd, sizeof(cmd), "%s/%s", dir, table);
		f = fopen(cmd, "w");
		assert_non_null(f);
		fputs(content, f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "python3 '%s/src/facts/gen-facts.py' '%s/out.c' '%s' 2>'%s/err'",
		 GPUENV_TEST_SOURCE_ROOT, dir, dir, dir);
	st = system(cmd);
	snprintf(cmd, sizeof(cmd), "cat '%s/err' >&2; rm -rf '%s'", dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

#define XID_HDR "xid\tmnemonic\tdescription\tcause_category\tresolution_bucket\tseverity\t" \
	"application_error\trecommended_action\ttypical_log_text\tconfidence\tsource\n"

#define CUDNN_HDR "first\tlast\tvariant\tcuda_majors\tcuda_versions\tcuda_as_listed\t" \
	"min_linux_driver\tcompute_capabilities\tconfidence\tnotes\tsource\n"

static void test_cudnn(void **state)
{
	const struct facts_cudnn *r, *r2;

	assert_int_equal(facts_cudnn_nth("8.9.6", 0, &r), 0);
	assert_string_equal(r->variant, "cuda11");
	assert_int_equal(facts_cudnn_nth("8.9.6", 1, &r2), 0);
	assert_string_equal(r2->variant, "cuda12");
	assert_true(facts_cudnn_lists_cuda(r2, 12, 2));
	assert_false(facts_cudnn_lists_cuda(r2, 12, 4));
	assert_true(facts_cudnn_has_major(r, 11));
	assert_int_equal(facts_cudnn_nth("8.9.6", 2, &r), -ENOENT);
	/* "8.8" covers 8.8.1 */
	assert_int_equal(facts_cudnn_nth("8.8.1", 0, &r), 0);
	assert_string_equal(r->first, "8.6.0");
	assert_string_equal(r->confidence, "unconfirmed");
	assert_null(r->cuda_versions);
	assert_int_equal(facts_cudnn_nth("9.19.0", 0, &r), -ENOENT);
	for (size_t i = 0; i < facts_cudnn_table_len; i++)
		assert_non_null(facts_cudnn_table[i].source);
}

static void test_generator(void **state)
{
	if (system("python3 -c pass >/dev/null 2>&1") != 0) {
		printf("python3 not on PATH\n");
		exit(77);
	}
	assert_int_equal(run_gen_with(NULL, NULL), 0);
	/* duplicate key */
	assert_int_not_equal(run_gen_with("xid.tsv", "# c\n" XID_HDR
		"13\tA\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\tS\n"
		"13\tB\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\tS\n"), 0);
	/* empty source */
	assert_int_not_equal(run_gen_with("xid.tsv", XID_HDR
		"13\tA\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\t\n"), 0);
	/* unsorted keys */
	assert_int_not_equal(run_gen_with("xid.tsv", XID_HDR
		"31\tA\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\tS\n"
		"13\tB\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\tS\n"), 0);
	/* unsorted versions */
	assert_int_not_equal(run_gen_with("cuda_arch_support.tsv",
		"cuda_version\tmin_cc\tmax_cc\tsm_targets\tarch_specific_a\tfamily_specific_f\t"
		"ptx_isa_version\tconfidence\tnotes\tsource\n"
		"12.10\t5.0\t9.0\t\t\t\t8.4\thigh\t\tS\n"
		"12.9\t5.0\t9.0\t\t\t\t8.4\thigh\t\tS\n"), 0);
	/* cuDNN: a confirmed row without its CUDA list, and a CUDA outside its majors */
	assert_int_not_equal(run_gen_with("cudnn_cuda.tsv", CUDNN_HDR
		"9.0.0\t9.0.0\tcuda12\t12\t\t12.x\t\t\tconfirmed\t\tS\n"), 0);
	assert_int_not_equal(run_gen_with("cudnn_cuda.tsv", CUDNN_HDR
		"9.0.0\t9.0.0\tcuda12\t12\t11.8\t11.8\t\t\tconfirmed\t\tS\n"), 0);
	/* cuDNN: last release before the first */
	assert_int_not_equal(run_gen_with("cudnn_cuda.tsv", CUDNN_HDR
		"9.5.1\t9.5.0\tcuda12\t12\t12.6\t12.6\t\t\tconfirmed\t\tS\n"), 0);
	assert_int_equal(run_gen_with("cudnn_cuda.tsv", CUDNN_HDR
		"9.5.0\t9.5.1\tcuda12\t12\t12.6\t12.6\t\t\tconfirmed\t\tS\n"), 0);
	/* PTX ISA table: duplicate, unsorted, empty source, driver branches going down */
#define PTX_HDR "ptx_isa_version\tcuda_version\tmin_driver_branch\tconfidence\tnotes\tsource\n"
	assert_int_not_equal(run_gen_with("ptx_isa.tsv", PTX_HDR
		"8.4\t12.4\t550\tconfirmed\t\tS\n8.4\t12.5\t555\tconfirmed\t\tS\n"), 0);
	assert_int_not_equal(run_gen_with("ptx_isa.tsv", PTX_HDR
		"8.5\t12.5\t555\tconfirmed\t\tS\n8.4\t12.4\t550\tconfirmed\t\tS\n"), 0);
	assert_int_not_equal(run_gen_with("ptx_isa.tsv", PTX_HDR "8.4\t12.4\t550\tconfirmed\t\t\n"), 0);
	assert_int_not_equal(run_gen_with("ptx_isa.tsv", PTX_HDR
		"8.4\t12.4\t550\tconfirmed\t\tS\n8.5\t12.5\t535\tconfirmed\t\tS\n"), 0);
	assert_int_equal(run_gen_with("ptx_isa.tsv", PTX_HDR
		"8.4\t12.4\t550\tconfirmed\t\tS\n8.5\t12.5\t\tunconfirmed\t\tS\n"), 0);
	/* SM table: unsorted, duplicate, a family without a row, bad tegra */
#define SM_HDR "sm\tfamily\ttegra\tconfidence\tnotes\tsource\n"
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR
		"90\t\tno\tconfirmed\t\tS\n86\t\tno\tconfirmed\t\tS\n"), 0);
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR
		"86\t\tno\tconfirmed\t\tS\n86\t\tno\tconfirmed\t\tS\n"), 0);
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR "103\t100\tno\tconfirmed\t\tS\n"), 0);
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR "86\t\tmaybe\tconfirmed\t\tS\n"), 0);
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR "86\t\tno\tconfirmed\t\t\n"), 0);
	/* valid replacement is accepted */
	assert_int_equal(run_gen_with("xid.tsv", XID_HDR
		"13\tA\td\tc\tb\tFATAL\tyes\tr\t\tconfirmed\tS\n"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_pci),
		cmocka_unit_test(test_gpu_name),
		cmocka_unit_test(test_cuda_driver),
		cmocka_unit_test(test_branch_arch_xid),
		cmocka_unit_test(test_invariants),
		cmocka_unit_test(test_cudnn),
		cmocka_unit_test(test_generator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
