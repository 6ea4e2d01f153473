/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests for src/facts: spot checks of rows of src/facts/data/<table>.tsv (NVIDIA
 * CUDA release notes Table 2/3, cuda-gpus, open-gpu-kernel-modules README, data-center
 * driver pages, NVIDIA/cccl ptx_isa.h, NVSentinel Xid map, ROCm compatibility matrices,
 * PyTorch build scripts, TensorFlow tested configurations), table invariants, and that
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

#include "facts/facts-compat.h"
#include "facts/facts-table.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "tmptree.h"

static void test_gpu_pci(void **state)
{
	const struct facts_gpu *g, *g2;

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

	/* Outside the product table: the GPU of its chip (every GPU pci.ids names by chip). */
	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0x25a0, &g), 0);
	assert_string_equal(g->product, "GeForce RTX 3050 Ti Mobile");
	assert_string_equal(g->chip, "GA107");
	assert_string_equal(g->compute_capability, "8.6");
	assert_null(g->segment);
	assert_int_equal(g->n_pci_device_ids, 1);
	assert_int_equal(g->pci_device_ids[0], 0x25a0);
	assert_string_equal(g->pci_id_confidence, "community(pci.ids)");
	/* the packed row is decoded once: the same row again */
	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0x25a0, &g2), 0);
	assert_ptr_equal(g2, g);
	assert_int_equal(facts_gpu_by_pci_id_nth(0x10de, 0x25a0, 1, &g), -ENOENT);
	/* The product table still wins where it has the id. */
	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0x2684, &g), 0);
	assert_string_equal(g->segment, "geforce");

	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0xffff, &g), -ENOENT);
	assert_int_equal(facts_gpu_by_pci_id(0x1002, 0x2684, &g), -ENOENT);
	assert_int_equal(facts_gpu_by_pci_id(0x10de, 0x2684, NULL), -EINVAL);
}

static void test_nvidia_device(void **state)
{
	const struct facts_nvidia_device *d;

	assert_int_equal(facts_nvidia_device_by_id(0x1c8c, &d), 0); /* GP107M, a laptop part */
	assert_string_equal(d->chip, "GP107");
	assert_string_equal(d->architecture, "Pascal");
	assert_int_equal(d->cc_major, 6);
	assert_int_equal(d->cc_minor, 1);
	assert_false(d->tegra);
	assert_non_null(strstr(d->source, "PCIIDS"));
	assert_int_equal(facts_nvidia_device_by_id(0x2b00, &d), 0); /* GB10B, Jetson AGX Thor */
	assert_string_equal(d->compute_capability, "11.0");
	assert_true(d->tegra);
	assert_int_equal(facts_nvidia_device_by_id(0x102d, &d), 0); /* Tesla K80 */
	assert_string_equal(d->legacy_branch, "470.xx");
	assert_string_equal(d->kernel_open, "no");
	assert_int_equal(facts_nvidia_device_by_id(0x2684, &d), 0);
	assert_null(d->legacy_branch);
	assert_string_equal(d->kernel_open, "yes");
	/* The HD audio function of a GPU board carries the chip name but is no GPU. */
	assert_int_equal(facts_nvidia_device_by_id(0x22ba, &d), -ENOENT);
	/* Sorted for the binary search, no id twice. */
	for (size_t i = 1; i < facts_nvidia_device_table_len; i++)
		assert_true(facts_nvidia_device_table[i - 1].device_id <
			    facts_nvidia_device_table[i].device_id);
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

/* The newest CUDA a driver runs: its branch's; a branch the table lacks (newer than it, between
 * its rows) or lacks the CUDA of answers the nearest lower known one as a lower bound. */
static void test_newest_cuda_for_driver(void)
{
	struct facts_driver_cuda dc;

	assert_int_equal(facts_cuda_newest_for_driver("550.54.15", &dc), 0);
	assert_string_equal(dc.cuda, "12.4");
	assert_int_equal(dc.row->branch, 550);
	assert_false(dc.lower_bound);
	/* R620 is listed without a confirmed CUDA version: R615's 13.4 is the floor */
	assert_int_equal(facts_cuda_newest_for_driver("620.1", &dc), 0);
	assert_string_equal(dc.cuda, "13.4");
	assert_int_equal(dc.row->branch, 615);
	assert_true(dc.lower_bound);
	/* newer than every row */
	assert_int_equal(facts_cuda_newest_for_driver("999.12", &dc), 0);
	assert_string_equal(dc.cuda, "13.4");
	assert_true(dc.lower_bound);
	/* an odd branch between rows (R549: not a release branch) */
	assert_int_equal(facts_cuda_newest_for_driver("549.10", &dc), 0);
	assert_string_equal(dc.cuda, "12.3");
	assert_int_equal(dc.row->branch, 545);
	assert_true(dc.lower_bound);
	/* older than every row: could not tell; not a version */
	assert_int_equal(facts_cuda_newest_for_driver("340.108", &dc), -ENOENT);
	assert_int_equal(facts_cuda_newest_for_driver("nvidia", &dc), -EINVAL);
	assert_int_equal(facts_cuda_newest_for_driver(NULL, &dc), -EINVAL);
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
	test_newest_cuda_for_driver();

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
		assert_non_null(facts_gpu_table_rows()[i].source);
		assert_non_null(facts_gpu_table_rows()[i].confidence);
	}
	for (size_t i = 1; i < facts_gpu_pci_index_len; i++) {
		const struct facts_pci_index *p = &facts_gpu_pci_index[i - 1],
					     *q = &facts_gpu_pci_index[i];
		uint32_t a = (uint32_t)p->vendor << 16 | p->device,
			 b = (uint32_t)q->vendor << 16 | q->device;

		assert_true(a <= b);
		/* CC by PCI id is safe only when all candidates share one CC */
		if (a == b)
			assert_string_equal(facts_gpu_table_rows()[p->row].compute_capability,
					    facts_gpu_table_rows()[q->row].compute_capability);
	}
	for (size_t i = 0; i < facts_cuda_release_table_len; i++) {
		assert_non_null(facts_cuda_release_table_rows()[i].source);
		if (i > 0)
			assert_true(version_cmp_str(
					    facts_cuda_release_table_rows()[i - 1].toolkit_version,
					    facts_cuda_release_table_rows()[i].toolkit_version) <
				    0);
		/* Table 3 minimum drivers never go down from one release to the next */
		for (size_t j = 0; j < i; j++) {
			const char *a = facts_cuda_release_table_rows()[j].linux_min_driver;
			const char *b = facts_cuda_release_table_rows()[i].linux_min_driver;

			if (a && b)
				assert_true(version_cmp_str(a, b) <= 0);
		}
	}
	for (size_t i = 1; i < facts_driver_branch_table_len; i++)
		assert_true(facts_driver_branch_table_rows()[i - 1].branch <
			    facts_driver_branch_table_rows()[i].branch);
	for (size_t i = 0; i < facts_driver_branch_table_len; i++)
		assert_non_null(facts_driver_branch_table_rows()[i].source);
	for (size_t i = 0; i < facts_cuda_arch_table_len; i++) {
		assert_non_null(facts_cuda_arch_table_rows()[i].source);
		if (i > 0)
			assert_true(
				version_cmp_str(facts_cuda_arch_table_rows()[i - 1].cuda_version,
						facts_cuda_arch_table_rows()[i].cuda_version) < 0);
	}
	for (size_t i = 1; i < facts_xid_table_len; i++)
		assert_true(facts_xid_table_rows()[i - 1].xid < facts_xid_table_rows()[i].xid);
	for (size_t i = 0; i < facts_minor_compat_table_len; i++)
		assert_non_null(facts_minor_compat_table_rows()[i].source);
}

/* Copies the real data dir into a temp dir, replaces one table, runs the generator. */
static int run_gen_with(const char *table, const char *content)
{
	char dir[TMPTREE_DIR_MAX];
	int st;

	assert_non_null(tmptree_new(dir, "test-facts"));
	/* Every table: the generator reads them all. */
	assert_int_equal(
		tmptree_sh("cp '%s/src/facts/data/'*.tsv '%s/'", GPUENV_TEST_SOURCE_ROOT, dir), 0);
	if (table)
		tmptree_puts(dir, table, content);
	st = tmptree_sh("python3 '%s/src/facts/gen-facts.py' '%s/out.c' '%s' 2>'%s/err'",
			GPUENV_TEST_SOURCE_ROOT, dir, dir, dir);
	assert_int_equal(tmptree_sh("cat '%s/err' >&2", dir), 0);
	assert_int_equal(tmptree_remove(dir), 0);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

#define XID_HDR                                                                                    \
	"xid\tmnemonic\tdescription\tcause_category\tresolution_bucket\tseverity\t"                \
	"application_error\trecommended_action\ttypical_log_text\tconfidence\tsource\n"

#define CUDNN_HDR                                                                                  \
	"first\tlast\tvariant\tcuda_majors\tcuda_versions\tcuda_as_listed\t"                       \
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
		assert_non_null(facts_cudnn_table_rows()[i].source);
}

static void test_rocm(void **state)
{
	const struct facts_rocm *r;
	const char *conf = NULL;

	/* rocm.tsv: "6.2.0 - 6.2.4" (HIST60) */
	assert_int_equal(facts_rocm_release("6.2", &r), 0);
	assert_string_equal(r->first, "6.2.0");
	assert_string_equal(r->last, "6.2.4");
	assert_string_equal(r->gfx_targets, "gfx1100,gfx1030,gfx942,gfx90a,gfx908");
	assert_string_equal(r->source, "HIST60");
	assert_int_equal(facts_rocm_release("6.2.4", &r), 0);
	assert_int_equal(facts_rocm_release("6.2.0-66", &r), 0);
	assert_string_equal(r->first, "6.2.0");
	assert_int_equal(facts_rocm_release("6.2.5", &r), -ENOENT);
	/* 7.2.0 was not captured; 7.2.1 and 7.2.2 share a column */
	assert_int_equal(facts_rocm_release("7.2", &r), -ENOENT);
	assert_int_equal(facts_rocm_release("7.2.1", &r), 0);
	assert_string_equal(r->as_listed, "7.2.2 / 7.2.1");
	/* "6.0.0 / 6.0.2" is split: 6.0.1 is not covered */
	assert_int_equal(facts_rocm_release("6.0.1", &r), -ENOENT);
	assert_int_equal(facts_rocm_release("6.0.2", &r), 0);
	/* "5.0 - 5.5" covers 5.5.x but has no target list */
	assert_int_equal(facts_rocm_release("5.5.1", &r), 0);
	assert_null(r->gfx_targets);
	assert_int_equal(facts_rocm_supports_gfx("5.5.1", "gfx90a", &conf), -ENODATA);
	assert_int_equal(facts_rocm_release("6.x", &r), -EINVAL);
	assert_int_equal(facts_rocm_release("6.2-", &r), -EINVAL);

	{
		const struct facts_hsa_override *o;

		/* HSA_OVERRIDE_GFX_VERSION per consumer target (hsa_override.tsv) */
		assert_int_equal(facts_hsa_override("gfx1031", &o), 0);
		assert_string_equal(o->override, "10.3.0");
		assert_string_equal(o->runs_as, "gfx1030");
		assert_int_equal(facts_hsa_override("gfx1103:xnack-", &o), 0);
		assert_string_equal(o->override, "11.0.0");
		assert_int_equal(facts_hsa_override("gfx1010", &o), 0);
		assert_null(o->override); /* 10.3.0 crashes it: no value is suggested */
		assert_int_equal(facts_hsa_override("gfx1100", &o), -ENOENT);
		assert_int_equal(facts_hsa_override("gfx103", &o), -ENOENT);
	}
	assert_int_equal(facts_rocm_supports_gfx("6.2", "gfx90a", &conf), 1);
	assert_string_equal(conf, "confirmed");
	assert_int_equal(facts_rocm_supports_gfx("6.2.1", "gfx942:sramecc+:xnack-", &conf), 1);
	assert_int_equal(facts_rocm_supports_gfx("6.2", "gfx1201", &conf), 0);
	assert_int_equal(facts_rocm_supports_gfx("6.2", "gfx90", &conf), 0);
	assert_int_equal(facts_rocm_supports_gfx("7.0.0", "gfx1201", &conf), 1);
	assert_int_equal(facts_rocm_supports_gfx("5.7.0", "gfx906", &conf), 1);
	/* 6.4.1+ carries the 6.4.3 list only as "?" upstream */
	assert_int_equal(facts_rocm_supports_gfx("6.4.2", "gfx1201", &conf), 1);
	assert_string_equal(conf, "unconfirmed");
	assert_int_equal(facts_rocm_supports_gfx("6.4.3", "gfx1201", &conf), 1);
	assert_string_equal(conf, "confirmed");
	assert_int_equal(facts_rocm_supports_gfx("6.4.0", "gfx1201", NULL), 0);
	assert_int_equal(facts_rocm_supports_gfx("6.2", "sm_90", &conf), -EINVAL);
	assert_int_equal(facts_rocm_supports_gfx("4.0", "gfx90a", &conf), -ENOENT);
	for (size_t i = 0; i < facts_rocm_table_len; i++) {
		assert_non_null(facts_rocm_table_rows()[i].source);
		assert_non_null(facts_rocm_table_rows()[i].confidence);
		if (i > 0)
			assert_true(version_cmp_str(facts_rocm_table_rows()[i - 1].last,
						    facts_rocm_table_rows()[i].first) < 0);
	}
}

static void test_torch_wheel(void **state)
{
	const struct facts_torch_wheel *w;

	assert_int_equal(facts_torch_wheel("2.4.0+cu124", NULL, &w), 0);
	assert_string_equal(w->variant, "cu124");
	assert_string_equal(w->torch_cuda_arch_list, "5.0;6.0;7.0;7.5;8.0;8.6;9.0");
	assert_string_equal(w->arch_list, "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90");
	assert_string_equal(w->ptx, "no");
	assert_string_equal(w->min_driver, "550.54.14");
	assert_string_equal(w->minor_compat_min_driver, "525.60.13");
	assert_false(w->pypi_default);
	assert_true(facts_arch_list_has(w->arch_list, "sm_86"));
	assert_false(facts_arch_list_has(w->arch_list, "sm_89"));
	assert_false(facts_arch_list_has(w->arch_list, "sm_8"));
	/* PyPI wheels carry no suffix: 2.4's PyPI default is cu121 */
	assert_int_equal(facts_torch_wheel("2.4.0", NULL, &w), 0);
	assert_string_equal(w->variant, "cu121");
	assert_true(w->pypi_default);
	assert_int_equal(facts_torch_wheel("2.4.1", "cu118", &w), 0);
	assert_string_equal(w->arch_list, "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_37 sm_90");
	/* PTX */
	assert_int_equal(facts_torch_wheel("2.9.0+cu130", NULL, &w), 0);
	assert_string_equal(w->ptx, "yes");
	assert_true(facts_arch_list_has(w->arch_list, "compute_120"));
	/* unverified minimum driver stays NULL; unclear PTX keeps the row unconfirmed */
	assert_int_equal(facts_torch_wheel("2.12.0+cu132", NULL, &w), 0);
	assert_null(w->min_driver);
	assert_int_equal(facts_torch_wheel("2.12.0+cu129", NULL, &w), 0);
	assert_string_equal(w->confidence, "unconfirmed");
	/* driver 470 (CUDA 11.4): no torch 2.1 variant at full functionality, but cu118
	 * through CUDA 11's minor-version compatibility (>= 450.80.02; GPT-SoVITS#83) */
	assert_int_equal(facts_torch_wheel_for_driver("2.1", "470.223.02", &w), -ENOENT);
	assert_int_equal(facts_torch_wheel_for_driver_compat("2.1", "470.223.02", &w), 0);
	assert_string_equal(w->variant, "cu118");
	assert_string_equal(w->minor_compat_min_driver, "450.80.02");
	/* below every floor: none, not a made-up cuXY */
	assert_int_equal(facts_torch_wheel_for_driver_compat("2.1", "440.33.01", &w), -ENOENT);
	/* cu102 has no minor-version compatibility */
	assert_int_equal(facts_torch_wheel("1.12.1+cu102", NULL, &w), 0);
	assert_null(w->minor_compat_min_driver);
	/* ROCm: nightly version with dev tag; arch list only as unconfirmed example */
	assert_int_equal(facts_torch_wheel("2.11.0.dev20250929+rocm7.2", NULL, &w), 0);
	assert_string_equal(w->variant, "rocm7.2");
	assert_null(w->cuda_toolkit);
	assert_true(facts_arch_list_has(w->arch_list, "gfx1151"));
	assert_string_equal(w->confidence, "unconfirmed");
	assert_int_equal(facts_torch_wheel("2.6.0+rocm6.2.4", NULL, &w), 0);
	assert_null(w->arch_list);
	assert_int_equal(facts_torch_wheel("2.4.0+cpu", NULL, &w), -ENOENT);
	assert_int_equal(facts_torch_wheel("2.4.0+", NULL, &w), -ENOENT);
	assert_int_equal(facts_torch_wheel("2.4.0", "cu999", &w), -ENOENT);
	assert_int_equal(facts_torch_wheel("0.4.1", NULL, &w), -ENOENT);
	assert_int_equal(facts_torch_wheel("2", NULL, &w), -EINVAL);
	assert_int_equal(facts_torch_wheel("x", NULL, &w), -EINVAL);
	for (size_t i = 0; i < facts_torch_wheel_table_len; i++)
		assert_non_null(facts_torch_wheel_table_rows()[i].source);
}

static void test_tensorflow(void **state)
{
	const struct facts_tensorflow *t;

	assert_int_equal(facts_tensorflow_config("2.15", &t), 0);
	assert_string_equal(t->version, "2.15.0");
	assert_string_equal(t->cuda, "12.2");
	assert_string_equal(t->cudnn, "8.9");
	assert_string_equal(t->python, "3.9-3.11");
	assert_int_equal(facts_tensorflow_config("2.16.2", &t), 0);
	assert_string_equal(t->version, "2.16.1");
	assert_string_equal(t->cuda, "12.3");
	assert_int_equal(facts_tensorflow_config("1.15.0", &t), 0);
	assert_string_equal(t->package, "tensorflow_gpu");
	assert_string_equal(t->cuda, "10.0");
	assert_int_equal(facts_tensorflow_config("2.99", &t), -ENOENT);
	assert_int_equal(facts_tensorflow_config("2", &t), -EINVAL);
	for (size_t i = 0; i < facts_tensorflow_table_len; i++)
		assert_non_null(facts_tensorflow_table_rows()[i].source);
}

static void test_tensorflow_build(void **state)
{
	const struct facts_tensorflow_build *b;

	/* The binary's cuDNN, not the tested configuration's 7.4. */
	assert_int_equal(facts_tensorflow_build("1.15.0", &b), 0);
	assert_string_equal(b->cudnn, "7.6.0");
	assert_string_equal(b->package, "tensorflow_gpu");
	assert_non_null(strstr(b->evidence, "source was compiled with: 7.6.0"));
	assert_int_equal(facts_tensorflow_build("1.15", &b), 0);
	assert_int_equal(facts_tensorflow_build("1.9.0", &b), -ENOENT);
	assert_int_equal(facts_tensorflow_build("1", &b), -EINVAL);
	for (size_t i = 0; i < facts_tensorflow_build_table_len; i++)
		assert_non_null(facts_tensorflow_build_table_rows()[i].source);
}

/* TensorFlow's pip builds reach the and-cuda wheels through their run path from 2.15, except
 * 2.16 (tensorflow/tensorflow#63362: 2.16.1 finds them only on LD_LIBRARY_PATH). */
static void test_tensorflow_dlopen_wheel_rpath(void **state)
{
	static const char *const versions[] = { "2.15.0", "2.16.1", "2.17.0" };
	static const bool want[] = { true, false, true };

	for (size_t v = 0; v < ARRAY_SIZE(versions); v++) {
		const struct facts_dlopen *rows[32];
		size_t n = facts_dlopen_rows("tensorflow", versions[v], rows, ARRAY_SIZE(rows));

		assert_true(n >= 8);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(rows[i]->wheel_rpath, want[v]);
	}
}

#define ROCM_HDR                                                                                   \
	"first\tlast\trocm_as_listed\tgfx_targets\tproducts\tamdgpu_driver_compat\t"               \
	"confidence\tnotes\tsource\n"
#define TORCH_HDR                                                                                  \
	"torch\tvariant\tcuda_toolkit\ttorch_cuda_arch_list\tarch_list\tptx\t"                     \
	"ptx_as_listed\tpypi_default\tpypi_default_as_listed\tmin_driver\tmin_driver_as_listed\t"  \
	"minor_compat_min_driver\tminor_compat_as_"                                                \
	"listed\tpython\tcudnn\tconfidence\tnotes\tsource\n"
/* torch row: version, variant, toolkit, TORCH_CUDA_ARCH_LIST, arch list, ptx, pypi, source */
#define TROW(t, v, tk, tal, al, ptx, pypi, src)                                                    \
	t "\t" v "\t" tk "\t" tal "\t" al "\t" ptx "\t" ptx "\t" pypi "\t" pypi                    \
	  "\t550.54.14\t550.54.14\t525.60.13\t525.60.13\t3.8-3.12\t9.1.0.70\tconfirmed\t\t" src    \
	  "\n"
#define TF_HDR                                                                                     \
	"version\tpackage\tpython\tcompiler\tbuild_"                                               \
	"tools\tcudnn\tcuda\tconfidence\tnotes\tsource\n"

static void test_generator_new_tables(void **state)
{
	if (system("python3 -c pass >/dev/null 2>&1") != 0) {
		printf("python3 not on PATH\n");
		exit(77);
	}
	/* rocm.tsv: valid; duplicate; unsorted; overlapping ranges; empty source; bad gfx;
	 * confirmed without a target list */
	assert_int_equal(run_gen_with("rocm.tsv", ROCM_HDR
				      "6.2.0\t6.2.4\tx\tgfx90a,gfx942\tp\tk\tconfirmed\t\tS\n"
				      "6.3.0\t6.3.3\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"),
			 0);
	assert_int_not_equal(run_gen_with("rocm.tsv", ROCM_HDR
					  "6.2.0\t6.2.4\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"
					  "6.2.0\t6.2.4\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(run_gen_with("rocm.tsv", ROCM_HDR
					  "6.3.0\t6.3.3\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"
					  "6.2.0\t6.2.4\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(run_gen_with("rocm.tsv", ROCM_HDR
					  "6.2.0\t6.2.4\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"
					  "6.2.3\t6.3.0\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(run_gen_with("rocm.tsv", ROCM_HDR
					  "5.0\t5.5\tx\t\tp\tk\tunconfirmed\t\tS\n"
					  "5.5.1\t5.5.1\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(
		run_gen_with("rocm.tsv", ROCM_HDR "6.2.0\t6.2.4\tx\tgfx90a\tp\tk\tconfirmed\t\t\n"),
		0);
	assert_int_not_equal(
		run_gen_with("rocm.tsv", ROCM_HDR "6.2.0\t6.2.4\tx\tsm_90\tp\tk\tconfirmed\t\tS\n"),
		0);
	assert_int_not_equal(
		run_gen_with("rocm.tsv", ROCM_HDR "6.2.0\t6.2.4\tx\t\tp\tk\tconfirmed\t\tS\n"), 0);
	assert_int_not_equal(run_gen_with("rocm.tsv", ROCM_HDR
					  "6.2.4\t6.2.0\tx\tgfx90a\tp\tk\tconfirmed\t\tS\n"),
			     0);

	/* pytorch_wheels.tsv */
	assert_int_equal(run_gen_with("pytorch_wheels.tsv",
				      TORCH_HDR TROW("2.4", "cu121", "12.1", "9.0", "sm_90", "no",
						     "yes", "S") TROW("2.4", "cu124", "12.4", "9.0",
								      "sm_90", "no", "no", "S")
					      TROW("2.9", "cu130", "13.0", "12.0+PTX",
						   "sm_120 compute_120", "yes", "yes", "S")),
			 0);
	/* duplicate (torch, variant) */
	assert_int_not_equal(
		run_gen_with("pytorch_wheels.tsv",
			     TORCH_HDR TROW("2.4", "cu124", "12.4", "9.0", "sm_90", "no", "no", "S")
				     TROW("2.4", "cu124", "12.4", "9.0", "sm_90", "no", "no", "S")),
		0);
	/* unsorted: torch releases, and variants within a release (cu118 < cu124 numerically) */
	assert_int_not_equal(
		run_gen_with(
			"pytorch_wheels.tsv",
			TORCH_HDR TROW("2.10", "cu128", "12.8", "9.0", "sm_90", "no", "no", "S")
				TROW("2.9", "cu128", "12.8", "9.0", "sm_90", "no", "no", "S")),
		0);
	assert_int_not_equal(
		run_gen_with("pytorch_wheels.tsv",
			     TORCH_HDR TROW("2.4", "cu124", "12.4", "9.0", "sm_90", "no", "no", "S")
				     TROW("2.4", "cu118", "11.8", "9.0", "sm_90", "no", "no", "S")),
		0);
	/* empty source */
	assert_int_not_equal(
		run_gen_with("pytorch_wheels.tsv", TORCH_HDR TROW("2.4", "cu124", "12.4", "9.0",
								  "sm_90", "no", "no", "")),
		0);
	/* variant disagrees with the toolkit; PTX claimed without compute_XY; two PyPI defaults */
	assert_int_not_equal(
		run_gen_with("pytorch_wheels.tsv", TORCH_HDR TROW("2.4", "cu124", "12.1", "9.0",
								  "sm_90", "no", "no", "S")),
		0);
	assert_int_not_equal(
		run_gen_with("pytorch_wheels.tsv", TORCH_HDR TROW("2.4", "cu124", "12.4", "9.0",
								  "sm_90", "yes", "no", "S")),
		0);
	assert_int_not_equal(
		run_gen_with(
			"pytorch_wheels.tsv",
			TORCH_HDR TROW("2.4", "cu121", "12.1", "9.0", "sm_90", "no", "yes", "S")
				TROW("2.4", "cu124", "12.4", "9.0", "sm_90", "no", "yes", "S")),
		0);
	/* a ROCm row: gfx names only, ptx n/a */
	assert_int_equal(
		run_gen_with(
			"pytorch_wheels.tsv",
			TORCH_HDR TROW("2.4", "cu124", "12.4", "9.0", "sm_90", "no", "no", "S")
				TROW("2.4", "rocm6.1", "", "", "gfx90a gfx942", "n/a", "no", "S")),
		0);
	assert_int_not_equal(
		run_gen_with("pytorch_wheels.tsv",
			     TORCH_HDR TROW("2.4", "rocm6.1", "", "", "sm_90", "n/a", "no", "S")),
		0);

	/* tensorflow_tested_configs.tsv */
	assert_int_equal(
		run_gen_with("tensorflow_tested_configs.tsv", TF_HDR
			     "2.15.0\ttensorflow\t3.9-3.11\tc\tb\t8.9\t12.2\tconfirmed\t\tS\n"
			     "2.16.1\ttensorflow\t3.9-3.12\tc\tb\t8.9\t12.3\tconfirmed\t\tS\n"),
		0);
	assert_int_not_equal(
		run_gen_with("tensorflow_tested_configs.tsv", TF_HDR
			     "2.16.1\ttensorflow\t3.9-3.12\tc\tb\t8.9\t12.3\tconfirmed\t\tS\n"
			     "2.15.0\ttensorflow\t3.9-3.11\tc\tb\t8.9\t12.2\tconfirmed\t\tS\n"),
		0);
	assert_int_not_equal(
		run_gen_with("tensorflow_tested_configs.tsv", TF_HDR
			     "2.16.0\ttensorflow\t3.9-3.12\tc\tb\t8.9\t12.3\tconfirmed\t\tS\n"
			     "2.16.1\ttensorflow\t3.9-3.12\tc\tb\t8.9\t12.3\tconfirmed\t\tS\n"),
		0);
	assert_int_not_equal(
		run_gen_with("tensorflow_tested_configs.tsv", TF_HDR
			     "2.15.0\ttensorflow\t3.9-3.11\tc\tb\t8.9\t12.2\tconfirmed\t\t\n"),
		0);
	assert_int_not_equal(
		run_gen_with("tensorflow_tested_configs.tsv",
			     TF_HDR "2.15.0\ttensorflow\t3.9-3.11\tc\tb\t8.9\t12.2\tmaybe\t\tS\n"),
		0);
}

static void test_generator(void **state)
{
	if (system("python3 -c pass >/dev/null 2>&1") != 0) {
		printf("python3 not on PATH\n");
		exit(77);
	}
	assert_int_equal(run_gen_with(NULL, NULL), 0);
	/* duplicate key */
	assert_int_not_equal(run_gen_with("xid.tsv",
					  "# c\n" XID_HDR
					  "13\tA\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\tS\n"
					  "13\tB\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\tS\n"),
			     0);
	/* empty source */
	assert_int_not_equal(
		run_gen_with("xid.tsv", XID_HDR "13\tA\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\t\n"),
		0);
	/* unsorted keys */
	assert_int_not_equal(run_gen_with("xid.tsv",
					  XID_HDR "31\tA\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\tS\n"
						  "13\tB\td\tc\tb\tFATAL\tno\tr\t\tconfirmed\tS\n"),
			     0);
	/* unsorted versions */
	assert_int_not_equal(run_gen_with("cuda_arch_support.tsv",
					  "cuda_version\tmin_cc\tmax_cc\tsm_targets\tarch_specific_"
					  "a\tfamily_specific_f\t"
					  "ptx_isa_version\tconfidence\tnotes\tsource\n"
					  "12.10\t5.0\t9.0\t\t\t\t8.4\thigh\t\tS\n"
					  "12.9\t5.0\t9.0\t\t\t\t8.4\thigh\t\tS\n"),
			     0);
	/* cuDNN: a confirmed row without its CUDA list, and a CUDA outside its majors */
	assert_int_not_equal(run_gen_with("cudnn_cuda.tsv", CUDNN_HDR
					  "9.0.0\t9.0.0\tcuda12\t12\t\t12.x\t\t\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(
		run_gen_with("cudnn_cuda.tsv", CUDNN_HDR
			     "9.0.0\t9.0.0\tcuda12\t12\t11.8\t11.8\t\t\tconfirmed\t\tS\n"),
		0);
	/* cuDNN: last release before the first */
	assert_int_not_equal(
		run_gen_with("cudnn_cuda.tsv", CUDNN_HDR
			     "9.5.1\t9.5.0\tcuda12\t12\t12.6\t12.6\t\t\tconfirmed\t\tS\n"),
		0);
	assert_int_equal(run_gen_with("cudnn_cuda.tsv", CUDNN_HDR
				      "9.5.0\t9.5.1\tcuda12\t12\t12.6\t12.6\t\t\tconfirmed\t\tS\n"),
			 0);
	/* PTX ISA table: duplicate, unsorted, empty source, driver branches going down */
#define PTX_HDR "ptx_isa_version\tcuda_version\tmin_driver_branch\tconfidence\tnotes\tsource\n"
	assert_int_not_equal(
		run_gen_with("ptx_isa.tsv", PTX_HDR
			     "8.4\t12.4\t550\tconfirmed\t\tS\n8.4\t12.5\t555\tconfirmed\t\tS\n"),
		0);
	assert_int_not_equal(
		run_gen_with("ptx_isa.tsv", PTX_HDR
			     "8.5\t12.5\t555\tconfirmed\t\tS\n8.4\t12.4\t550\tconfirmed\t\tS\n"),
		0);
	assert_int_not_equal(run_gen_with("ptx_isa.tsv", PTX_HDR "8.4\t12.4\t550\tconfirmed\t\t\n"),
			     0);
	assert_int_not_equal(
		run_gen_with("ptx_isa.tsv", PTX_HDR
			     "8.4\t12.4\t550\tconfirmed\t\tS\n8.5\t12.5\t535\tconfirmed\t\tS\n"),
		0);
	assert_int_equal(
		run_gen_with("ptx_isa.tsv", PTX_HDR
			     "8.4\t12.4\t550\tconfirmed\t\tS\n8.5\t12.5\t\tunconfirmed\t\tS\n"),
		0);
	/* SM table: unsorted, duplicate, a family without a row, bad tegra */
#define SM_HDR "sm\tfamily\ttegra\tconfidence\tnotes\tsource\n"
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR
					  "90\t\tno\tconfirmed\t\tS\n86\t\tno\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR
					  "86\t\tno\tconfirmed\t\tS\n86\t\tno\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR "103\t100\tno\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR "86\t\tmaybe\tconfirmed\t\tS\n"),
			     0);
	assert_int_not_equal(run_gen_with("sm_arch.tsv", SM_HDR "86\t\tno\tconfirmed\t\t\n"), 0);
	/* valid replacement is accepted */
	assert_int_equal(
		run_gen_with("xid.tsv", XID_HDR "13\tA\td\tc\tb\tFATAL\tyes\tr\t\tconfirmed\tS\n"),
		0);
}

/* NVIDIA's forward-compatibility package table (cuda_compat.tsv, "Use the Right CUDA Forward
 * Compatibility Package"), and the generator's checks of it. */
static void test_cuda_compat(void **state)
{
	const struct facts_cuda_compat *r;
	char buf[128];

	assert_int_equal(facts_cuda_compat_support("12.9", "570.86.10", &r),
			 FACTS_COMPAT_COMPATIBLE);
	assert_string_equal(r->driver_branch, "570");
	assert_int_equal(facts_cuda_compat_support("12.8.1", "570", &r), FACTS_COMPAT_NOT_NEEDED);
	assert_int_equal(facts_cuda_compat_support("12.9", "580.65.06", &r),
			 FACTS_COMPAT_NOT_COMPATIBLE);
	/* R550 is end of life: no column, so not a supported target */
	assert_int_equal(facts_cuda_compat_support("13.0", "550.54.15", &r), FACTS_COMPAT_UNLISTED);
	assert_null(r);
	assert_int_equal(facts_cuda_compat_support("12.7", "535", &r), -ENOENT);
	assert_int_equal(facts_cuda_compat_support("x", "535", &r), -EINVAL);
	assert_int_equal(facts_cuda_compat_support("12.8", "r535", &r), -EINVAL);
	assert_int_equal(facts_cuda_compat_branches("13.0", buf, sizeof(buf)), 2);
	assert_string_equal(buf, "R535, R570");
	assert_int_equal(facts_cuda_compat_branches("12.2", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_string_equal(facts_cuda_compat_package_of("590.44.01"), "13.1");
	assert_null(facts_cuda_compat_package_of("575.51.03")); /* not a column */
	if (system("python3 -c pass >/dev/null 2>&1") != 0)
		return;
#define COMPAT_HDR "package\tdriver_branch\tsupport\tconfidence\tsource\n"
	assert_int_equal(run_gen_with("cuda_compat.tsv",
				      COMPAT_HDR "12.8\t535\tcompatible\tconfirmed\tS\n"
						 "12.8\t570\tnot_needed\tconfirmed\tS\n"),
			 0);
	assert_int_not_equal(run_gen_with("cuda_compat.tsv",
					  COMPAT_HDR "12.8\t570\tnot_needed\tconfirmed\tS\n"
						     "12.8\t535\tcompatible\tconfirmed\tS\n"),
			     0);
	assert_int_not_equal(
		run_gen_with("cuda_compat.tsv", COMPAT_HDR "12.8\t535\tC\tconfirmed\tS\n"), 0);
	assert_int_not_equal(
		run_gen_with("cuda_compat.tsv", COMPAT_HDR "12\t535\tcompatible\tconfirmed\tS\n"),
		0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_pci),
		cmocka_unit_test(test_nvidia_device),
		cmocka_unit_test(test_gpu_name),
		cmocka_unit_test(test_cuda_driver),
		cmocka_unit_test(test_branch_arch_xid),
		cmocka_unit_test(test_invariants),
		cmocka_unit_test(test_cudnn),
		cmocka_unit_test(test_rocm),
		cmocka_unit_test(test_torch_wheel),
		cmocka_unit_test(test_tensorflow),
		cmocka_unit_test(test_tensorflow_build),
		cmocka_unit_test(test_tensorflow_dlopen_wheel_rpath),
		cmocka_unit_test(test_generator),
		cmocka_unit_test(test_generator_new_tables),
		cmocka_unit_test(test_cuda_compat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
