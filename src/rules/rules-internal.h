/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the check functions of rules-<layer>.c share: the finding / evidence / skip builders
 * (rules-engine.c), common readings of the snapshot (rules-util.c), the layer summary and
 * the chain (rules-summary.c), and the check functions the table in rules.c points at.
 * Internal to src/rules/.
 */
#pragma once

#include <string.h>

#include "facts/facts.h"
#include "rules/rules.h"

/* ---- for check functions (rules-*.c) ----------------------------------------------- */

/* A finding of rule c's rule; severity must not exceed the rule's. NULL on OOM (recorded). */
struct finding *rule_finding(struct rule_ctx *c, enum gpuenv_severity sev, const char *subject,
			     const char *fmt, ...) _printf_(4, 5);
/* Evidence from a snapshot fact: name = key path, value/state, source from the fact. */
void finding_fact(struct finding *f, const char *name, const struct snap_node *fact);
/* Evidence with an explicit value and source (facts rows, derived values). */
void finding_evidence(struct finding *f, const char *name, const char *source, const char *fmt,
		      ...) _printf_(4, 5);
void finding_fix(struct finding *f, const char *fmt, ...) _printf_(2, 3);
void finding_verify(struct finding *f, const char *fmt, ...) _printf_(2, 3);
/* Adds the rule's own fix / verify lines after the specific ones. */
void finding_rule_fix(struct finding *f);
void finding_rule_verify(struct finding *f);

/* An explicit "skipped" record for one subject (or the whole rule when subject is NULL). */
void rule_skip(struct rule_ctx *c, const char *subject, const char *fmt, ...) _printf_(3, 4);
/* True when the fact is present; otherwise records "could not read <source> (<state>…)"
 * for `what` and returns false. */
bool rule_need(struct rule_ctx *c, const char *subject, const char *what,
	       const struct snap_node *fact);
/* Like rule_need, but a fact known to be absent also passes. */
bool rule_need_known(struct rule_ctx *c, const char *subject, const char *what,
		     const struct snap_node *fact);
/* "<state>: <error> (<source>)" of a fact that is not present; "" for present facts. */
void fact_describe(const struct snap_node *fact, char *buf, size_t len);

/* ---- shared readings of the snapshot (rules-util.c) ------------------------------- */

/* NVIDIA GPUs in hardware.gpus[] (vendor_id 0x10de). */
bool gpu_is_nvidia(const struct snap_node *gpu);
bool gpu_is_amd(const struct snap_node *gpu);
size_t gpus_count(const struct snap_node *root, bool (*filter)(const struct snap_node *));
/* The GPU's PCI ids; false when vendor_id / device_id are not present. */
bool gpu_pci_ids(const struct snap_node *gpu, unsigned *ret_vendor, unsigned *ret_device);
/* Compute capability of a GPU from the knowledge base by PCI id: 0 or -ENOENT/-ENODATA. */
int gpu_facts(const struct snap_node *gpu, const struct facts_gpu **ret);

/* The loaded NVIDIA kernel driver: /sys/module/nvidia/version, else /proc/driver/nvidia/version. */
enum driver_state {
	DRIVER_LOADED,
	DRIVER_NONE,    /* both known absent */
	DRIVER_UNKNOWN, /* a source unreadable / malformed / unprobed */
};
enum driver_state nvidia_driver(const struct snap_node *root, const char **ret_version,
				const struct snap_node **ret_fact);
/* Inside a container (Docker/Podman markers or a container engine in /proc/1/cgroup). */
bool in_container(const struct snap_node *root);
/* CUDA major.minor of a version string ("12.4.1" → 12, 4); false if unparsable. */
bool cuda_major_minor(const char *v, unsigned *ret_major, unsigned *ret_minor);

/* A knowledge-base row marked unconfirmed (a '?' in the sourced notes). */
static inline bool facts_unconfirmed(const char *confidence)
{
	return confidence && strstr(confidence, "unconfirmed");
}

/* What a CUDA toolkit version needs from the driver (facts: cuda_driver_min.tsv). */
struct cuda_req {
	unsigned major, minor;
	bool exact;                               /* the version named one release row */
	const struct facts_cuda_release *first;   /* the release judged against (GA if !exact) */
	const struct facts_cuda_release *newest;  /* newest update of the minor (== first if exact) */
	const struct facts_minor_compat *mc;      /* minor-version compatibility floor, or NULL */
};
/* -EINVAL unparsable, -ENOENT no confirmed release of that major.minor. */
int cuda_requirement(const char *toolkit_version, struct cuda_req *ret);
/* OK: driver >= the minimum; DEGRADED: only through minor-version compatibility; BROKEN. */
enum link_state cuda_driver_judge(const struct cuda_req *req, const char *driver);
/* ">= 580.65.06 (CUDA 13.0 GA; CUDA 13.0 Update 2 needs >= 580.95.05)" */
void cuda_req_describe(const struct cuda_req *req, char *buf, size_t len);

/* ---- the diagnosis beyond findings (rules-engine.c, rules-summary.c) ---------------- */
void diagnosis_add_fact(struct diagnosis *d, enum gpuenv_layer layer, const char *label,
			const char *source, const char *fmt, ...) _printf_(5, 6);
char *diagnosis_strdupf(struct diagnosis *d, const char *fmt, ...) _printf_(2, 3);
/* Key facts per layer, the chain, and which layers have nothing installed. */
void rules_summarize(struct diagnosis *d, const struct snap_node *root, bool absent[RULE_LAYERS]);

/* ---- check functions (rules-<layer>.c) ------------------------------------------------ */
#define RULE_CHECK(name) void name(struct rule_ctx *c, const struct snap_node *root)
RULE_CHECK(check_no_gpu);
RULE_CHECK(check_pcie_link_degraded);
RULE_CHECK(check_pcie_link_down);
RULE_CHECK(check_bar1_small);
RULE_CHECK(check_gpu_without_driver);
RULE_CHECK(check_module_not_loaded);
RULE_CHECK(check_secure_boot_unsigned);
RULE_CHECK(check_module_missing_for_kernel);
RULE_CHECK(check_nouveau_bound);
RULE_CHECK(check_device_nodes_missing);
RULE_CHECK(check_branch_drops_gpu);
RULE_CHECK(check_branch_eol);
RULE_CHECK(check_toolkit_needs_newer_driver);
RULE_CHECK(check_no_driver_for_toolkit);
RULE_CHECK(check_stub_libcuda);
RULE_CHECK(check_toolkits_disagree);
RULE_CHECK(check_toolkit_cannot_target_gpu);
RULE_CHECK(check_cudnn_cuda_mismatch);
RULE_CHECK(check_container_no_gpu_devices);
RULE_CHECK(check_visible_devices_void);
RULE_CHECK(check_image_cuda_newer_than_driver);
