/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rule engine (docs/design.md §5): one table of rules (rules.c), each a
 * pure function of a snapshot and the knowledge base (facts/). Running the table over a
 * snapshot gives a diagnosis: findings (rule, severity, the concrete message, evidence as
 * {name, value, source} read from the snapshot or the facts, fix and verify commands),
 * explicit "skipped: could not read X" records for rules whose needs were not met, a status
 * and key facts per layer, and the driver ≥ toolkit ≥ framework chain. Renderers
 * (src/output/) print a diagnosis and compute nothing.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "gpuenv/gpuenv.h"
#include "shared/macro.h"
#include "snapshot/snapshot.h"

#define RULE_LAYERS 5 /* GPUENV_LAYER_HARDWARE … GPUENV_LAYER_CONTAINER */

struct rule_ctx; /* one rule's run (rules-engine.c) */

struct rule {
	const char *id; /* stable, "<layer>.<what>" */
	enum gpuenv_layer layer;
	enum gpuenv_severity severity; /* the highest severity its findings can have */
	const char *title;	       /* one line: what is wrong */
	const char *symptom;	       /* what the user sees: the exact error text(s) */
	const char *cause;	       /* why it happens */
	/* Snapshot keys the rule reads, checked before it runs: a key whose fact is not
	 * present gives a "skipped: could not read …" record. "key?" also accepts absent.
	 * "key~" is not checked before: the check needs it for one part of its judgement only
	 * and records the skip itself (rule_need_known), so that the other parts still run
	 * (explain asks for it as for any other key). */
	const char *const *needs;
	const char *const *fix;	   /* commands (generic form; a finding may be more precise) */
	const char *const *verify; /* commands that show the problem is gone */
	void (*check)(struct rule_ctx *c, const struct snap_node *root);
	/* Says nothing fails today (a lifecycle note): ranks after every other finding of its
	 * severity, so it is the root cause only where nothing else of that severity fired. */
	bool advisory;
	/* Runs after every other rule, reading their findings (rule_diagnosis()): the launch
	 * compared with the static predictions. */
	bool late;
	/* An opt-in check's rule (doctor --launch): run and counted only when the snapshot has
	 * this key, so that a diagnosis without the check neither runs nor counts it. */
	const char *only_with;
};

extern const struct rule rule_table[];
extern const size_t rule_table_len;

struct rule_evidence {
	char *name;	  /* the snapshot key ("driver.nvidia.module_version") or facts table */
	char *value;	  /* rendered value, or "<state>: <error>" when not present */
	char *source;	  /* the path read, the vendor call, or "facts:<table> [source keys]" */
	bool identifying; /* hidden by --redact */
};

struct gpuenv_doctor;

struct finding {
	struct gpuenv_doctor *diag; /* owner, for the builders' error recording */
	const struct rule *rule;
	enum gpuenv_severity severity;
	char *subject; /* the GPU / toolkit / variable it is about, or NULL */
	char *message; /* one line with the concrete values */
	struct rule_evidence *ev;
	size_t n_ev;
	char **fix;    /* NULL: the rule's fix */
	char **verify; /* NULL: the rule's verify */
	char *symptom; /* what this machine's program prints; NULL: the rule's symptom */
	/* The finding that explains this one (rules-rank.c): its index in diag->findings + 1,
	 * 0 when none does. An index, not a pointer: the array grows while rules run. */
	size_t cause;
};

struct rule_skip {
	const struct rule *rule;
	char *subject;
	char *reason; /* "could not read /proc/modules (unreadable: Permission denied)" */
	/* The state of the fact that stopped it (rule_need), FACT_PRESENT for any other reason
	 * (a gap of the knowledge base): an unreadable, malformed or error state makes the
	 * rule's layer incomplete. */
	enum fact_state cause;
	/* What it needed lives on another system (WSL2's Windows host, a container's host) and
	 * could not be read here: its layer is never ✓ (rule_skip_elsewhere()). */
	bool elsewhere;
};

enum layer_status {
	LAYER_OK = 0,
	LAYER_INFO,
	LAYER_WARNING,
	LAYER_ERROR,
	LAYER_UNKNOWN, /* every rule of the layer was skipped, or it has none yet */
	LAYER_ABSENT,  /* nothing of this layer here (no driver, no toolkit, no container) */
	/* No warning or error, but a fact of the layer could not be read: one of its
	 * snapshot facts is unreadable, malformed or error, or one of its rules was skipped
	 * for such a fact. Never shown as ✓ (fact_is_failure()). */
	LAYER_INCOMPLETE,
};

/* A fact of a layer's own snapshot subtree that could not be read (fact_is_failure()). */
struct layer_problem {
	enum gpuenv_layer layer;
	char *name; /* "driver.nvidia.module_version" */
	enum fact_state state;
	char *error; /* "Permission denied", or NULL */
	char *source;
};

struct layer_fact {
	enum gpuenv_layer layer;
	char *label, *value, *source;
};

enum link_state {
	LINK_OK = 0,
	LINK_DEGRADED, /* works with limits (minor-version compatibility) */
	LINK_BROKEN,
	LINK_UNKNOWN,
};

/* "driver supports CUDA ≤ X · toolkit Y · framework built for Z", each link judged. */
struct chain {
	char *driver_cuda, *driver_source; /* "12.4" (R550), or NULL: no driver */
	char *driver_label;		   /* "550.54.15", "no NVIDIA driver", … */
	char *toolkit, *toolkit_source;	   /* "12.4.1" at /usr/local/cuda-12.4 */
	char *framework, *framework_source;
	enum link_state link_state[2]; /* [0] driver → toolkit, [1] toolkit → framework */
	char *link_why[2];
	/* Nothing of NVIDIA's on the machine: no NVIDIA GPU, driver or CUDA toolkit, and no
	 * framework built for CUDA. Where another vendor's chain is shown the text and Markdown
	 * leave this one out, as a vendor chain is left out where its stack is absent. */
	bool nothing_nvidia;
};

/* Another vendor's chain, "amdgpu 6.8 · ROCm 6.2.4 · torch 2.5.1+rocm6.2 (gfx1100 ✓)": the
 * kernel driver, the runtime release and the framework build, and the GPU's target judged
 * through them (rules-amd-chain.c, rules-intel-chain.c). Shown only where the vendor's stack is
 * on the machine. */
#define VENDOR_TARGETS_MAX 8
struct vendor_chain {
	const char *vendor; /* "amd", "intel" */
	char *driver, *driver_source;
	char *runtime, *runtime_source;
	char *framework, *framework_source;
	/* "gfx1100"; with several kinds of GPU their targets, "gfx1036, gfx1100"; NULL when no
	 * GPU target is known */
	char *target;
	enum link_state target_state;  /* the worst of the two links */
	enum link_state link_state[2]; /* [0] driver → runtime, [1] runtime → framework */
	char *link_why[2];
	/* Each kind of GPU judged on its own (an APU's iGPU beside a discrete GPU): filled only
	 * where there are several, each its target and the worse of its own two links. */
	struct {
		char *name;
		enum link_state state;
	} targets[VENDOR_TARGETS_MAX];
	size_t n_targets;
};
#define VENDOR_CHAINS_MAX 4

/* A diagnosis: the public struct gpuenv_doctor (include/gpuenv/gpuenv.h), defined here. */
struct gpuenv_doctor {
	struct gpuenv_snapshot *snap;
	struct finding *findings;
	size_t n_findings, alloc_findings;
	struct rule_skip *skips;
	size_t n_skips, alloc_skips;
	struct layer_fact *facts;
	size_t n_facts, alloc_facts;
	struct layer_problem *problems;
	size_t n_problems, alloc_problems;
	unsigned rules_run[RULE_LAYERS], rules_skipped[RULE_LAYERS], rules_total[RULE_LAYERS];
	enum layer_status status[RULE_LAYERS];
	struct chain chain;
	/* What the layer summary and the chain took from the knowledge base (a driver branch's
	 * CUDA, a CUDA release's driver floor), as a finding's "facts.<table>" evidence, each
	 * once: explain lists them as derived ([facts]), not read from the text. */
#define DIAGNOSIS_SUMMARY_EV_MAX 8
	struct rule_evidence summary_ev[DIAGNOSIS_SUMMARY_EV_MAX];
	size_t n_summary_ev;
	struct vendor_chain vendor_chains[VENDOR_CHAINS_MAX];
	size_t n_vendor_chains;
	enum gpuenv_verdict verdict;
	/* The finding that explains the others (rules-rank.c): index in findings + 1, 0 when no
	 * finding is a warning or an error (a healthy machine has no root cause). */
	size_t root_cause;
	int err; /* first allocation failure */
};

/* ---- the root cause (rules-causes.c: the data, rules-rank.c: the ranking) ------------- */

/* "cause explains consequence": when both rules fire, the consequence's finding is caused by
 * the cause's. why says what makes the edge hold (the text docs/HACKING.md asks for). */
struct rule_edge {
	const char *cause, *consequence, *why;
};
extern const struct rule_edge rule_causes[];
extern const size_t rule_causes_len;
/* The tie-break between findings no edge connects: a smaller rank is nearer the root. */
extern const unsigned rule_layer_rank[RULE_LAYERS];

/* Checks an edge table: every id names a rule of rule_table, no edge twice, no edge from a
 * rule to itself, no cycle. 0, or -EINVAL with the first problem written to err. */
int rule_causes_check(const struct rule_edge *edges, size_t n, char *err, size_t errlen);
/* Sets every finding's cause and the diagnosis' root cause from the table (rules-diagnose.c). */
void rules_rank(struct gpuenv_doctor *d, const struct rule_edge *edges, size_t n_edges);
/* What f's program prints: the finding's own text, else the rule's symptom. */
static inline const char *finding_symptom_text(const struct finding *f)
{
	return f->symptom ? f->symptom : f->rule->symptom;
}
/* The finding that explains f, or NULL. */
const struct finding *finding_cause(const struct gpuenv_doctor *d, const struct finding *f);
/* The root cause, or NULL (no warning or error). */
const struct finding *diagnosis_root_cause(const struct gpuenv_doctor *d);
/* True when f is findings[top] or explained by it, through its causes. */
bool finding_under(const struct gpuenv_doctor *d, const struct finding *f, size_t top);
/* True when f is the root cause or explained by it, through its causes. */
bool finding_under_root(const struct gpuenv_doctor *d, const struct finding *f);

/* ---- a framework build's coverage of each NVIDIA GPU (rules-framework-coverage.c) ---- */

/* The judgement of framework.no-kernel-image, ptx-jit-only, ptx-too-new and gpu-too-old, per
 * build and GPU, whether or not a rule fires (`gpuenv exporter`'s coverage series). */
enum fw_gpu_coverage {
	FW_GPU_COVERAGE_NATIVE,	 /* SASS for the GPU in the kernels and every library judged */
	FW_GPU_COVERAGE_PTX_JIT, /* runs once the driver has JIT-compiled PTX (first launch) */
	FW_GPU_COVERAGE_NONE,	 /* nothing runs: no kernel image, GPU too old, PTX too new */
	FW_GPU_COVERAGE_UNKNOWN, /* could not tell: GPU code or compute capability unread */
};
struct fw_gpu_coverage_item {
	const char *framework; /* the module: torch, tensorflow, jax */
	const char *build;     /* "torch 2.4.0+cu124", "jax 0.5.0 (jax-cuda12-plugin 0.5.0)" */
	const struct snap_node *env;  /* framework.python_envs[i] */
	const struct snap_node *gpu;  /* hardware.gpus[j], an NVIDIA one */
	const struct snap_node *nvml; /* its driver.nvml.devices[] entry, or NULL */
	enum fw_gpu_coverage coverage;
};
/* Calls fn for each CUDA framework build and NVIDIA GPU (no call for CPU-only and ROCm builds). */
void fw_gpu_coverage_foreach(const struct snap_node *root,
			     void (*fn)(const struct fw_gpu_coverage_item *it, void *u), void *u);
const char *fw_gpu_coverage_name(enum fw_gpu_coverage c); /* native, ptx-jit, none, unknown */

/* The public type is the internal diagnosis. */
int rules_diagnose(struct gpuenv_snapshot *s, struct gpuenv_doctor **ret);
struct gpuenv_doctor *diagnosis_free(struct gpuenv_doctor *d);
static inline void diagnosis_freep(struct gpuenv_doctor **d)
{
	diagnosis_free(*d);
}

const char *rule_layer_name(enum gpuenv_layer l);
const char *rule_severity_name(enum gpuenv_severity s);
const char *layer_status_name(enum layer_status s);
/* unreadable, malformed or error: the fact was looked at and could not be read. absent,
 * unsupported and unprobed are answers, not failures. */
bool fact_is_failure(enum fact_state s);
const char *link_state_name(enum link_state s);
/* "hardware" → layer; -EINVAL if unknown. */
int rule_layer_from_name(const char *name);
const struct rule *rule_find(const char *id);

/* The system whose driver the CUDA driver floors are of: Linux where the snapshot shows Linux
 * (a live probe always reads host.kernel_release), Windows where pasted text shows only
 * Windows's marks (messages.platform.windows) or the system is WSL2 (its driver is the Windows
 * host's, numbered as Windows's: 452.39 where Linux's is 450.80.02); otherwise not known, and
 * a floor quoted names both (docs/compatibility.md, NVIDIA's Table 3 has both columns). */
enum driver_os {
	DRIVER_OS_LINUX,
	DRIVER_OS_WINDOWS,
	DRIVER_OS_UNKNOWN,
};
/* The system the snapshot shows: Linux, Windows (a Windows mark and no Linux one), or not
 * known (pasted text with neither). WSL2 is Linux here (its commands are Linux's). */
enum driver_os snapshot_os(const struct snap_node *root);
/* WSL1 (a "…-Microsoft" kernel release, or pasted text's messages.platform.wsl1): no GPU, no
 * Linux driver (rules-util.c). *ret_release (if given): the release. */
bool on_wsl1(const struct snap_node *root, const char **ret_release);
