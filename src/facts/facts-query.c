// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * facts_query(), public as gpuenv_facts_query() (src/libgpuenv-facts.c): one knowledge-base
 * lookup (a CUDA release, a driver version, a GPU by name or PCI id, an Xid code, a cuDNN release, a PyTorch wheel, a ROCm release, a TensorFlow
 * release) rendered as text or JSON. The values come from the tables in
 * src/facts/data/<table>.tsv (sources: NVIDIA CUDA release notes Tables 2/3, data-center driver
 * lifecycle pages, developer.nvidia.com/cuda-gpus, pci.ids, NVIDIA/cccl ptx_isa.h,
 * NVSentinel/dcgm-exporter Xid maps, cuDNN support matrices, pytorch/builder and
 * pytorch/test-infra build scripts, AMD ROCm compatibility matrices, tensorflow/docs); each printed
 * value carries its row's source and, where the row is marked so, "(unconfirmed)".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "facts/facts.h"
#include "facts/facts-table.h"
#include "gpuenv/gpuenv.h"
#include "shared/parse.h"
#include "shared/strbuf.h"

struct q {
	bool json;
	struct strbuf sb;
	json_t *fields;
	int err;
};

static void field(struct q *q, const char *name, const char *value, const char *source,
		  const char *confidence)
{
	bool unconf = facts_unconfirmed(confidence) || !value;

	if (q->json) {
		json_t *o = json_pack("{s:s?,s:s?,s:b}", "value", value, "source", source,
				      "unconfirmed", unconf);

		if (!o || json_object_set_new(q->fields, name, o) < 0)
			q->err = -ENOMEM;
		return;
	}
	strbuf_printf(&q->sb, "  %-28s %s  [%s]%s\n", name, value ? value : "not confirmed",
		      source ? source : "no source", unconf ? " (unconfirmed)" : "");
}

static void heading(struct q *q, const char *fmt, const char *a)
{
	if (!q->json) {
		strbuf_printf(&q->sb, fmt, a);
		strbuf_putc(&q->sb, '\n');
	}
}

static int query_cuda(struct q *q, const char *key)
{
	const struct facts_cuda_release *rel = NULL;
	const struct facts_cuda_arch *arch = NULL;
	const struct facts_minor_compat *mc = NULL;
	struct version v;
	char buf[64];
	int r;

	r = version_parse(key, &v);
	if (r < 0)
		return -ENOENT;
	r = facts_cuda_release(key, &rel);
	if (r < 0 && r != -ENOENT)
		return r;
	(void)facts_cuda_arch(key, &arch);
	(void)facts_minor_compat_floor(v.part[0], &mc);
	if (!rel && !arch)
		return -ENOENT;
	heading(q, rel ? "%s" : "CUDA %s", rel ? rel->toolkit_label : key);
	if (rel) {
		field(q, "toolkit_version", rel->toolkit_version, rel->source, rel->confidence);
		field(q, "linux_min_driver", rel->linux_min_driver, rel->source, rel->confidence);
		field(q, "windows_min_driver", rel->windows_min_driver, rel->source,
		      rel->confidence);
		field(q, "driver_branch", rel->driver_branch, rel->source, rel->confidence);
	}
	if (mc) {
		field(q, "minor_compat_linux_floor", mc->linux_min_driver, mc->source,
		      mc->confidence);
		field(q, "minor_compat_windows_floor", mc->windows_min_driver, mc->source,
		      mc->confidence);
		if (mc->upper_bound_exclusive) {
			snprintf(buf, sizeof(buf), "%u", mc->upper_bound_exclusive);
			field(q, "minor_compat_upper_exclusive", buf, mc->source, mc->confidence);
		}
	}
	if (arch) {
		field(q, "min_cc", arch->min_cc, arch->source, arch->confidence);
		field(q, "max_cc", arch->max_cc, arch->source, arch->confidence);
		field(q, "sm_targets", arch->sm_targets, arch->source, arch->confidence);
		if (arch->arch_specific_a)
			field(q, "arch_specific_a", arch->arch_specific_a, arch->source,
			      arch->confidence);
		if (arch->family_specific_f)
			field(q, "family_specific_f", arch->family_specific_f, arch->source,
			      arch->confidence);
		field(q, "ptx_isa_version", arch->ptx_isa_version, arch->source, arch->confidence);
	}
	return 0;
}

static int query_driver(struct q *q, const char *key)
{
	const struct facts_driver_branch *b = NULL;
	const struct facts_cuda_release *best = NULL;
	struct strbuf majors = STRBUF_INIT;
	const char *src = NULL, *conf = NULL;
	struct facts_driver_cuda dc;
	struct version v;
	char buf[48], low[64];
	int r;

	if (version_parse(key, &v) < 0)
		return -ENOENT;
	r = facts_driver_branch(key, &b);
	if (r < 0 && r != -ENOENT)
		return r == -EINVAL ? -ENOENT : r;
	/* a branch the table lacks still answers the CUDA it runs at least */
	if (facts_cuda_newest_for_driver(key, &dc) < 0)
		dc.cuda = NULL;
	if (r < 0 && !dc.cuda)
		return -ENOENT;
	heading(q, "NVIDIA driver %s", key);
	if (r == 0) {
		snprintf(buf, sizeof(buf), "%u", b->branch);
		field(q, "branch", buf, b->source, b->confidence);
		field(q, "cuda_version_reported", b->cuda_version_reported, b->source,
		      b->confidence);
	} else {
		snprintf(buf, sizeof(buf), "%u (not in the knowledge base)", v.part[0]);
		field(q, "branch", buf, NULL, NULL);
	}
	if (dc.cuda && dc.lower_bound) {
		snprintf(low, sizeof(low), "%s or newer (R%u's: a lower bound)", dc.cuda,
			 dc.row->branch);
		field(q, "newest_cuda", low, dc.row->source, "unconfirmed");
	} else if (dc.cuda) {
		field(q, "newest_cuda", dc.cuda, dc.row->source, dc.row->confidence);
	}
	if (r < 0)
		goto toolkits;
	field(q, "first_toolkit_with_branch", b->first_toolkit_with_branch, b->source,
	      b->confidence);
	field(q, "datacenter_designation", b->datacenter_designation, b->source, b->confidence);
	field(q, "datacenter_eol", b->datacenter_eol, b->source, b->confidence);
	field(q, "oldest_arch", b->oldest_arch, b->source, b->confidence);
	field(q, "oldest_cc", b->oldest_cc, b->source, b->confidence);
toolkits:
	for (size_t i = 0; i < facts_cuda_release_table_len; i++) {
		const struct facts_cuda_release *rel = &facts_cuda_release_table_rows()[i];

		if (rel->linux_min_driver && version_cmp_str(rel->linux_min_driver, key) <= 0 &&
		    (!best || version_cmp_str(rel->toolkit_version, best->toolkit_version) > 0))
			best = rel;
	}
	if (best)
		field(q, "highest_toolkit", best->toolkit_version, best->source, best->confidence);
	else
		field(q, "highest_toolkit", NULL, NULL, NULL);
	for (size_t i = 0; i < facts_minor_compat_table_len; i++) {
		const struct facts_minor_compat *mc = &facts_minor_compat_table_rows()[i];

		if (!mc->linux_min_driver || version_cmp_str(mc->linux_min_driver, key) > 0)
			continue;
		if (mc->upper_bound_exclusive && v.part[0] >= mc->upper_bound_exclusive)
			continue;
		strbuf_printf(&majors, "%s%u.x", majors.len ? "," : "", mc->cuda_major);
		if (!src || facts_unconfirmed(mc->confidence)) {
			src = mc->source;
			conf = mc->confidence;
		}
	}
	if (majors.err) {
		strbuf_done(&majors);
		return majors.err;
	}
	field(q, "minor_compat_cuda", majors.len ? strbuf_str(&majors) : NULL, src, conf);
	strbuf_done(&majors);
	return 0;
}

static int parse_pci(const char *key, uint16_t *vendor, uint16_t *device)
{
	const char *colon = strchr(key, ':');
	char vbuf[8];
	unsigned vv, dd;

	if (!colon || colon - key < 1 || colon - key > 4)
		return -EINVAL;
	memcpy(vbuf, key, colon - key);
	vbuf[colon - key] = '\0';
	if (parse_uint(vbuf, 16, &vv) < 0 || parse_uint(colon + 1, 16, &dd) < 0 || vv > 0xffff ||
	    dd > 0xffff)
		return -EINVAL;
	*vendor = vv;
	*device = dd;
	return 0;
}

static int query_gpu(struct q *q, const char *key)
{
	const struct facts_gpu *g;
	struct strbuf ids = STRBUF_INIT;
	uint16_t vendor, device;
	int r;

	if (parse_pci(key, &vendor, &device) == 0)
		r = facts_gpu_by_pci_id(vendor, device, &g);
	else
		r = facts_gpu_by_name(key, &g);
	if (r < 0)
		return r == -EINVAL ? -ENOENT : r;
	heading(q, "GPU %s", g->product);
	field(q, "product", g->product, g->source, g->confidence);
	field(q, "segment", g->segment, g->source, g->confidence);
	field(q, "architecture", g->architecture, g->source, g->confidence);
	field(q, "chip", g->chip, g->source, g->confidence);
	field(q, "compute_capability", g->compute_capability, g->source, g->confidence);
	for (size_t i = 0; i < g->n_pci_device_ids; i++)
		strbuf_printf(&ids, "%s%04x:%04x", i ? "," : "", g->pci_vendor_id,
			      g->pci_device_ids[i]);
	if (ids.err) {
		strbuf_done(&ids);
		return ids.err;
	}
	field(q, "pci_ids", ids.len ? strbuf_str(&ids) : NULL, g->source,
	      g->pci_id_confidence && strcmp(g->pci_id_confidence, "uncertain") == 0
		      ? "unconfirmed"
		      : g->confidence);
	field(q, "pci_id_confidence", g->pci_id_confidence, g->source, g->confidence);
	field(q, "confidence", g->confidence, g->source, g->confidence);
	strbuf_done(&ids);
	return 0;
}

static int query_xid(struct q *q, const char *key)
{
	const struct facts_xid *x;
	unsigned code;
	int r;

	if (parse_uint(key, 10, &code) < 0)
		return -ENOENT;
	r = facts_xid(code, &x);
	if (r < 0)
		return r;
	heading(q, "Xid %s", key);
	field(q, "mnemonic", x->mnemonic, x->source, x->confidence);
	field(q, "description", x->description, x->source, x->confidence);
	field(q, "cause_category", x->cause_category, x->source, x->confidence);
	field(q, "resolution_bucket", x->resolution_bucket, x->source, x->confidence);
	field(q, "severity", x->severity, x->source, x->confidence);
	field(q, "application_error", x->application_error ? "yes" : "no", x->source,
	      x->confidence);
	field(q, "recommended_action", x->recommended_action, x->source, x->confidence);
	field(q, "typical_log_text", x->typical_log_text, x->source, x->confidence);
	return 0;
}

static int query_cudnn(struct q *q, const char *key)
{
	const struct facts_cudnn *r;
	struct version v;
	size_t n;

	if (version_parse(key, &v) < 0)
		return -ENOENT;
	for (n = 0; facts_cudnn_nth(key, n, &r) == 0; n++) {
		char name[64];

		if (n == 0)
			heading(q, "cuDNN %s", key);
		snprintf(name, sizeof(name), "%s", r->variant);
		if (q->json) {
			json_t *o = json_pack(
				"{s:s,s:s,s:s?,s:s?,s:s?,s:s?,s:s?,s:s?,s:b}", "range_first",
				r->first, "range_last", r->last, "cuda_versions", r->cuda_versions,
				"cuda_as_listed", r->cuda_as_listed, "min_linux_driver",
				r->min_linux_driver, "compute_capabilities",
				r->compute_capabilities, "notes", r->notes, "source", r->source,
				"unconfirmed", facts_unconfirmed(r->confidence));

			if (!o || json_object_set_new(q->fields, name, o) < 0)
				q->err = -ENOMEM;
			continue;
		}
		strbuf_printf(&q->sb, "  %s (cuDNN %s .. %s)\n", r->variant, r->first, r->last);
		field(q, "    cuda_versions",
		      r->cuda_versions ? r->cuda_versions : r->cuda_as_listed, r->source,
		      r->confidence);
		if (r->min_linux_driver)
			field(q, "    min_linux_driver", r->min_linux_driver, r->source,
			      r->confidence);
		if (r->compute_capabilities)
			field(q, "    compute_capabilities", r->compute_capabilities, r->source,
			      r->confidence);
	}
	return n ? 0 : -ENOENT;
}

/* A value the table keeps both clean and as worded upstream: the clean one, and the wording
 * when it says more. */
static void field_as_listed(struct q *q, const char *name, const char *value, const char *listed,
			    const char *source, const char *confidence)
{
	char n[64];

	field(q, name, value, source, confidence);
	if (listed && (!value || strcmp(value, listed) != 0)) {
		snprintf(n, sizeof(n), "%s_as_listed", name);
		field(q, n, listed, source, value ? confidence : "unconfirmed");
	}
}

static int query_torch(struct q *q, const char *key)
{
	const struct facts_torch_wheel *w;
	char head[96];
	int r;

	r = facts_torch_wheel(key, NULL, &w);
	if (r < 0)
		return r == -EINVAL ? -ENOENT : r;
	snprintf(head, sizeof(head), "%s %s%s", w->torch, w->variant,
		 w->pypi_default ? " (PyPI default)" : "");
	heading(q, "PyTorch %s", head);
	field(q, "torch", w->torch, w->source, w->confidence);
	field(q, "variant", w->variant, w->source, w->confidence);
	if (w->cuda_toolkit) {
		field(q, "cuda_toolkit", w->cuda_toolkit, w->source, w->confidence);
		field(q, "torch_cuda_arch_list", w->torch_cuda_arch_list, w->source, w->confidence);
	}
	field(q, "arch_list", w->arch_list, w->source, w->confidence);
	field_as_listed(q, "ptx", w->ptx, w->ptx_as_listed, w->source,
			strcmp(w->ptx, "unclear") == 0 ? "unconfirmed" : w->confidence);
	field_as_listed(q, "pypi_default", w->pypi_default ? "yes" : "no",
			w->pypi_default_as_listed, w->source, w->confidence);
	if (w->cuda_toolkit) {
		field_as_listed(q, "min_driver", w->min_driver, w->min_driver_as_listed, w->source,
				w->confidence);
		field_as_listed(q, "minor_compat_min_driver", w->minor_compat_min_driver,
				w->minor_compat_as_listed, w->source, w->confidence);
	}
	field(q, "python", w->python, w->source, w->confidence);
	if (w->cudnn)
		field(q, "cudnn", w->cudnn, w->source, w->confidence);
	if (w->notes)
		field(q, "notes", w->notes, w->source, w->confidence);
	return 0;
}

static int query_rocm(struct q *q, const char *key)
{
	const struct facts_rocm *r;
	char range[64];
	int k;

	k = facts_rocm_release(key, &r);
	if (k < 0)
		return k == -EINVAL ? -ENOENT : k;
	heading(q, "ROCm %s", r->as_listed);
	snprintf(range, sizeof(range), "%s..%s", r->first, r->last);
	field(q, "releases", range, r->source, r->confidence);
	field(q, "gfx_targets", r->gfx_targets, r->source, r->confidence);
	field(q, "products", r->products, r->source, r->confidence);
	field(q, "amdgpu_driver_compat", r->amdgpu_driver_compat, r->source, r->confidence);
	if (r->notes)
		field(q, "notes", r->notes, r->source, r->confidence);
	return 0;
}

static int query_tensorflow(struct q *q, const char *key)
{
	const struct facts_tensorflow *t;
	int r;

	r = facts_tensorflow_config(key, &t);
	if (r < 0)
		return r == -EINVAL ? -ENOENT : r;
	heading(q, "TensorFlow %s tested build configuration (Linux GPU)", t->version);
	field(q, "version", t->version, t->source, t->confidence);
	field(q, "package", t->package, t->source, t->confidence);
	field(q, "python", t->python, t->source, t->confidence);
	field(q, "compiler", t->compiler, t->source, t->confidence);
	field(q, "build_tools", t->build_tools, t->source, t->confidence);
	field(q, "cudnn", t->cudnn, t->source, t->confidence);
	field(q, "cuda", t->cuda, t->source, t->confidence);
	if (t->notes)
		field(q, "notes", t->notes, t->source, t->confidence);
	return 0;
}

int facts_query(const char *kind, const char *key, bool json, char **ret)
{
	struct q q = { .json = json, .sb = STRBUF_INIT };
	int r;

	if (q.json) {
		q.fields = json_object();
		if (!q.fields)
			return -ENOMEM;
	}
	if (strcmp(kind, "cuda") == 0)
		r = query_cuda(&q, key);
	else if (strcmp(kind, "driver") == 0)
		r = query_driver(&q, key);
	else if (strcmp(kind, "gpu") == 0)
		r = query_gpu(&q, key);
	else if (strcmp(kind, "xid") == 0)
		r = query_xid(&q, key);
	else if (strcmp(kind, "cudnn") == 0)
		r = query_cudnn(&q, key);
	else if (strcmp(kind, "torch") == 0)
		r = query_torch(&q, key);
	else if (strcmp(kind, "rocm") == 0)
		r = query_rocm(&q, key);
	else if (strcmp(kind, "tensorflow") == 0)
		r = query_tensorflow(&q, key);
	else
		r = -EINVAL;
	if (r == 0 && q.err)
		r = q.err;
	if (r == 0 && q.json) {
		json_t *root =
			json_pack("{s:s,s:s,s:O}", "kind", kind, "key", key, "fields", q.fields);
		char *s = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;

		json_decref(root);
		if (!s)
			r = -ENOMEM;
		else
			*ret = s;
	} else if (r == 0) {
		r = strbuf_steal(&q.sb, ret);
	}
	json_decref(q.fields);
	strbuf_done(&q.sb);
	return r;
}
