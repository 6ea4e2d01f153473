/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Renderers: (snapshot, findings) → text in a capped strbuf. No I/O, no decisions. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

int out_report_text(const struct gpuenv_snapshot *s, unsigned flags, struct strbuf *sb);
/* Text wrapping (out-wrap.c). The width a render's flags ask (GPUENV_RENDER_WIDTH), else 80. */
size_t out_text_width(unsigned flags);
/* The columns of n bytes of escaped text (UTF-8; colour sequences take none). */
size_t out_text_cols(const char *s, size_t n);
/* Appends escaped text wrapped at spaces into lines of at most width columns, then "\n": the
 * first line starts at column `first` (already printed), the others at `indent`, after
 * `prefix` (NULL: none; "# " continues a shell comment). Only runs of at least min_gap spaces
 * are break points; a word longer than a line stays whole, on a line of its own. */
void out_wrap(struct strbuf *sb, const char *text, size_t first, size_t indent, size_t width,
	      const char *prefix, size_t min_gap);
/* The report's head: the GPUs NVML reported, as nvidia-smi shows them (out-report-gpus.c). */
void out_report_gpus(struct strbuf *sb, const struct snap_node *root, unsigned flags);

struct gpuenv_doctor;
/* `gpuenv doctor` renderers (out-doctor*.c); flags are GPUENV_RENDER_*. */
int out_doctor_text(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb);
int out_doctor_markdown(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb);
int out_doctor_json(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb);
struct json_t;
/* The document out_doctor_json() writes, as a tree (a new reference), for a renderer that adds
 * to it (explain); NULL with *ret_err set on failure. */
struct json_t *out_doctor_json_tree(const struct gpuenv_doctor *d, unsigned flags, int *ret_err);
/* root written indented, in its member order, then "\n"; takes root's reference. */
int out_json_put(struct json_t *root, struct strbuf *sb);
int out_doctor_mermaid(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb);
/* `gpuenv explain` (out-explain.c): the facts read from pasted text, the diagnosis of the
 * rules over them, and the commands that would let the rules that could not judge do so. */
/* With --this-machine, where a pasted fact stands against the machine's snapshot. */
enum explain_origin {
	EXPLAIN_FROM_PASTE, /* the machine has nothing there: the paste's fact was judged */
	EXPLAIN_BOTH_AGREE, /* the machine says the same */
	EXPLAIN_CONFLICT,   /* the machine says otherwise: its fact was judged, both are shown */
};
struct explain_read {
	const char *path, *value, *reader;
	unsigned line;
	bool failed; /* value is the error text of a failed call */
	bool absent; /* the text shows there is none; value says how */
	/* --this-machine only: the machine's value (or state) and where it read it */
	const char *machine_value, *machine_source;
	enum explain_origin origin;
};
/* What the text itself states that no rule judges (libgpuenv-explain.c): "no NVIDIA GPU" read
 * from a whole lspci listing, with the line that shows it. */
struct explain_stated {
	const char *id; /* "no-nvidia-gpu" */
	char *message;
	unsigned line;
};
struct explain_view {
	const struct gpuenv_doctor *d;
	const struct explain_read *read;
	size_t n_read, dropped;
	const struct explain_stated *stated;
	size_t n_stated;
	char *const *ask;
	bool this_machine; /* judged with the machine's snapshot (gpuenv_explain_with_machine) */
	size_t n_conflicts;
};
int out_explain_text(const struct explain_view *v, unsigned flags, struct strbuf *sb);
int out_explain_json(const struct explain_view *v, unsigned flags, struct strbuf *sb);
int out_explain_markdown(const struct explain_view *v, unsigned flags, struct strbuf *sb);
/* `gpuenv labels` (out-labels.c): Kubernetes node labels, `name=value` lines or JSON. */
int out_labels_text(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb);
int out_labels_json(const struct gpuenv_doctor *d, unsigned flags, struct strbuf *sb);
/* The rule catalogue (out-rules.c): docs/rules.md is out_rules_markdown(). */
int out_rules_text(struct strbuf *sb);
int out_rules_json(struct strbuf *sb);
int out_rules_markdown(struct strbuf *sb);
/* Prometheus text format 0.0.4, or OpenMetrics 1.0 (out-metrics*.c, docs/exporter.md): the
 * GPU sample of a snapshot (the dcgm-exporter fields and gpuenv's GPU series) and the
 * diagnosis. Neither writes OpenMetrics' "# EOF": the caller ends the exposition. */
int out_metrics_gpu(const struct gpuenv_snapshot *s, bool openmetrics, unsigned flags,
		    struct strbuf *sb);
int out_metrics_doctor(const struct gpuenv_doctor *d, bool openmetrics, unsigned flags,
		       struct strbuf *sb);
/* `gpuenv check` (out-check.c, out-check-ci.c): docs/policy.md. */
struct gpuenv_check;
enum gpuenv_check_result;
const char *out_check_result_name(enum gpuenv_check_result r);
const char *out_check_severity_name(int severity);
/* the renderers, over one check or a matrix: out-check.h */
