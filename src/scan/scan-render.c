/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Renders a scan: the text listing (per file its SASS and PTX targets, then one verdict line
 * per device) and the JSON document described in docs/scan-schema.md (jansson, sorted keys).
 * Targets are spelled as nvcc spells them; verdict names come from src/facts/coverage.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin.h"
#include "facts/facts.h"
#include "scan/scan.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/utf8.h"

#define SCAN_SCHEMA "gpuenv-scan/1"

static const char *state_name(enum scan_state st)
{
	switch (st) {
	case SCAN_OK:
		return "ok";
	case SCAN_UNREADABLE:
		return "unreadable";
	case SCAN_MALFORMED:
		return "malformed";
	case SCAN_TOO_LARGE:
		return "too-large";
	default:
		return "skipped";
	}
}

static int target_cmp(const void *a, const void *b)
{
	return fatbin_target_cmp(*(const struct fatbin_target *const *)a,
				 *(const struct fatbin_target *const *)b);
}

/* The class of a target in the listing: 0 SASS, 1 PTX, 2 LTO/other, 3 AMD. */
static int target_class(const struct fatbin_target *t)
{
	switch (t->kind) {
	case FATBIN_TARGET_SASS:
		return 0;
	case FATBIN_TARGET_PTX:
		return 1;
	case FATBIN_TARGET_AMDGCN:
		return 3;
	default:
		return 2;
	}
}

/* The file's targets of one class, in the one order (fatbin_target_cmp()). Caller frees. */
static const struct fatbin_target **sorted_targets(const struct scan_file *f, int cls,
						   size_t *ret_n)
{
	const struct fatbin_target **v = calloc(f->targets.n ? f->targets.n : 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < f->targets.n; i++)
		if (target_class(&f->targets.t[i]) == cls)
			v[n++] = &f->targets.t[i];
	qsort(v, n, sizeof(*v), target_cmp);
	*ret_n = n;
	return v;
}

static bool has_code(const struct scan_file *f)
{
	return f->targets.n > 0;
}

static void device_label(const struct scan_device *d, char *buf, size_t len)
{
	if (d->name)
		snprintf(buf, len, "%u.%u (%s)", d->major, d->minor, d->name);
	else
		snprintf(buf, len, "%u.%u", d->major, d->minor);
}

static const char *verdict_color(enum coverage_verdict v)
{
	switch (v) {
	case COVERAGE_NATIVE:
		return "\033[32m";
	case COVERAGE_PTX_JIT:
		return "\033[33m";
	case COVERAGE_PTX_TOO_NEW:
	case COVERAGE_NO_KERNEL_IMAGE:
	case COVERAGE_DRIVER_TOO_OLD:
	case COVERAGE_DRIVER_GPU_UNSUPPORTED:
		return "\033[1;31m";
	default:
		return "";
	}
}

/* prefix, s (text from a file: escaped, strbuf_put_printable()), suffix */
static void put_from_file(struct strbuf *sb, const char *prefix, const char *s, const char *suffix)
{
	strbuf_puts(sb, prefix);
	strbuf_put_printable(sb, s);
	strbuf_puts(sb, suffix);
}

static void text_file(struct strbuf *sb, const struct gpuenv_scan *s, const struct scan_file *f,
		      bool color)
{
	size_t n;
	const struct fatbin_target **v;

	/* names and strings that come from the files are escaped (put_from_file) */
	put_from_file(sb, "", f->path, "");
	if (f->state != SCAN_OK) {
		strbuf_printf(sb, ": %s", state_name(f->state));
		put_from_file(sb, ": ", f->error ? f->error : "", "\n");
		return;
	}
	if (!has_code(f)) {
		strbuf_printf(sb, ": %s, no GPU code%s\n", f->type ? f->type : "file",
			      f->n_link_images ? " (only kernel-less device-link images)" : "");
		return;
	}
	strbuf_printf(sb, ": %s", f->type);
	if (f->n_containers)
		strbuf_printf(sb, ", %zu fatbin container%s", f->n_containers,
			      f->n_containers == 1 ? "" : "s");
	if (f->n_entries)
		strbuf_printf(sb, ", %zu image%s", f->n_entries, f->n_entries == 1 ? "" : "s");
	if (f->n_compressed[FATBIN_COMPRESS_ZSTD] || f->n_compressed[FATBIN_COMPRESS_LZ4] ||
	    f->n_compressed[FATBIN_COMPRESS_OTHER])
		strbuf_printf(sb, " (%zu zstd, %zu lz4%s)", f->n_compressed[FATBIN_COMPRESS_ZSTD],
			      f->n_compressed[FATBIN_COMPRESS_LZ4],
			      f->n_compressed[FATBIN_COMPRESS_OTHER] ? ", some in an older format"
								     : "");
	strbuf_puts(sb, "\n");
	for (int cls = 0; cls < 3; cls++) {
		v = sorted_targets(f, cls, &n);
		if (!v)
			return;
		if (n > 0) {
			strbuf_puts(sb, cls == 0 ? "  SASS " : cls == 1 ? "  PTX  " : "  other");
			for (size_t i = 0; i < n; i++) {
				const struct fatbin_target *t = v[i];

				/* the same target with several PTX ISAs or LTO-IR versions:
				 * list each */
				if (cls == 1 && t->ptx_major >= 0)
					strbuf_printf(sb, "%s %s (ISA %d.%d)", i ? "," : "",
						      t->name, t->ptx_major, t->ptx_minor);
				else if (t->kind == FATBIN_TARGET_LTO && t->lto_major >= 0)
					strbuf_printf(sb, "%s %s (LTO-IR %d.%d)", i ? "," : "",
						      t->name, t->lto_major, t->lto_minor);
				else if (i == 0 || !streq(v[i - 1]->name, t->name))
					strbuf_printf(sb, "%s %s", i && cls == 1 ? "," : "",
						      t->name);
			}
			strbuf_puts(sb, "\n");
		}
		free(v);
	}
	if (f->targets.n_amdgcn) {
		v = sorted_targets(f, 3, &n);
		if (!v)
			return;
		strbuf_puts(sb, "  AMD ");
		for (size_t i = 0; i < n; i++)
			put_from_file(sb, " ", v[i]->name, "");
		strbuf_puts(sb, "\n");
		free(v);
	}
	if (f->n_link_images)
		strbuf_printf(sb, "  %zu device-link image%s without kernels (not judged)\n",
			      f->n_link_images, f->n_link_images == 1 ? "" : "s");
	if (f->n_found_elsewhere) {
		strbuf_printf(sb, "  %zu container%s outside .nv_fatbin", f->n_found_elsewhere,
			      f->n_found_elsewhere == 1 ? "" : "s");
		put_from_file(sb, " (", f->elsewhere_sections ? f->elsewhere_sections : "?", ")\n");
	}
	if (f->streamed)
		strbuf_puts(sb, "  (streamed from the wheel: every container in the member)\n");
	if (f->soname)
		put_from_file(sb, "  SONAME ", f->soname, "\n");
	for (size_t i = 0; f->needed && f->needed[i]; i++)
		put_from_file(sb, i ? " " : "  NEEDED ", f->needed[i], "");
	if (f->needed && f->needed[0])
		strbuf_puts(sb, "\n");
	if (f->runpath)
		put_from_file(sb, "  RUNPATH/RPATH ", f->runpath, "\n");
	if (f->has_cudart)
		strbuf_printf(sb, "  CUDA runtime %s%s\n",
			      f->cudart[0] ? f->cudart : "(version not written)",
			      f->cudart_static ? " (bundled: linked statically)" : "");
	if (f->warning)
		put_from_file(sb, "  warning: ", f->warning, "\n");
	for (size_t d = 0; f->verdicts && d < s->n_devices; d++) {
		const struct scan_verdict *vd = &f->verdicts[d];
		char dev[96];

		device_label(&s->devices[d], dev, sizeof(dev));
		strbuf_printf(sb, "  on %s: %s%s%s%s: %s\n", dev,
			      color ? verdict_color(vd->res.verdict) : "",
			      coverage_verdict_name(vd->res.verdict), color ? "\033[0m" : "",
			      vd->res.unconfirmed ? " (unconfirmed)" : "", vd->res.reason);
		if (vd->modules_without_image && !coverage_verdict_is_failure(vd->res.verdict))
			strbuf_printf(sb,
				      "    %zu of %zu modules have no image for it (arch-specific "
				      "modules are normal in NVIDIA's libraries)\n",
				      vd->modules_without_image, f->modules.n_modules);
	}
}

/* Host ELF files with CUDA code whose other sections were not searched (header-only, the
 * default): hand-registered containers elsewhere (libcupti, libcusparse, cuDNN's engines,
 * libcublasLt's family targets) are found only by --deep (docs/formats/fatbin.md §11). */
static uint64_t not_searched(const struct gpuenv_scan *s)
{
	uint64_t n = 0;

	if (s->opts.flags & GPUENV_SCAN_DEEP)
		return 0;
	for (size_t i = 0; i < s->n_files; i++) {
		const struct scan_file *f = &s->files[i];

		n += f->state == SCAN_OK && !f->searched && f->n_containers > 0 && f->type &&
		     streq(f->type, fatbin_file_type_name(FATBIN_FILE_HOST_ELF));
	}
	return n;
}

int scan_render_text(struct gpuenv_scan *s, unsigned flags, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	struct gpuenv_scan_summary sum = { .sz = sizeof(sum) };
	bool color = flags & GPUENV_RENDER_COLOR;
	bool all = s->opts.flags & GPUENV_SCAN_LIST_ALL;
	size_t counts[SCAN_MAX_DEVICES][COVERAGE_DRIVER_GPU_UNSUPPORTED + 1] = { { 0 } };
	int rv;

	rv = scan_judge(s);
	if (rv < 0)
		return rv;
	rv = scan_summary(s, &sum);
	if (rv < 0)
		return rv;
	for (size_t i = 0; i < s->n_files; i++) {
		const struct scan_file *f = &s->files[i];

		/* a wheel with members listed below it, and files without code, only with -a
		 * (when named alone, always) */
		if (!all && f->state == SCAN_OK && !has_code(f) && s->n_files > 1)
			continue;
		text_file(&sb, s, f, color);
		for (size_t d = 0; f->verdicts && d < s->n_devices; d++)
			counts[d][f->verdicts[d].res.verdict]++;
	}
	strbuf_printf(&sb, "\nscanned %" PRIu64 " file%s: %" PRIu64 " with GPU code", sum.files,
		      sum.files == 1 ? "" : "s", sum.with_gpu_code);
	if (sum.unreadable)
		strbuf_printf(&sb, ", %" PRIu64 " unreadable", sum.unreadable);
	if (sum.malformed)
		strbuf_printf(&sb, ", %" PRIu64 " malformed", sum.malformed);
	if (sum.skipped)
		strbuf_printf(&sb,
			      ", %" PRIu64 " skipped (size caps, zip-bomb guard, thin archives)",
			      sum.skipped);
	if (s->duplicates)
		strbuf_printf(&sb, ", %" PRIu64 " duplicate path%s skipped", s->duplicates,
			      s->duplicates == 1 ? "" : "s");
	if (s->too_deep)
		strbuf_printf(&sb, ", %" PRIu64 " director%s below --max-depth %u not entered",
			      s->too_deep, s->too_deep == 1 ? "y" : "ies", s->opts.max_depth);
	strbuf_puts(&sb, "\n");
	if (not_searched(s))
		strbuf_printf(
			&sb,
			"%" PRIu64 " file%s read by headers only: GPU code registered outside "
			".nv_fatbin (as in libcupti, libcusparse, cuDNN's engines) may exist; "
			"--deep searches every section\n",
			not_searched(s), not_searched(s) == 1 ? "" : "s");
	if (s->hit_file_cap)
		strbuf_printf(&sb, "stopped at %" PRIu64 " files (--max-files)\n",
			      s->opts.max_files);
	if (s->driver) {
		const struct facts_ptx_isa *p;

		if (facts_ptx_isa_for_driver(s->driver, &p) == 0)
			strbuf_printf(&sb, "driver %s JITs PTX ISA up to %s (CUDA %s)\n", s->driver,
				      p->ptx_isa_version, p->cuda_version);
		else
			strbuf_printf(
				&sb,
				"driver %s is older than every PTX ISA in the knowledge base\n",
				s->driver);
	} else if (s->n_devices) {
		strbuf_puts(&sb, "driver not given (--driver): PTX is assumed JIT-able\n");
	}
	for (size_t d = 0; d < s->n_devices; d++) {
		char dev[96];

		device_label(&s->devices[d], dev, sizeof(dev));
		strbuf_printf(
			&sb, "on %s: %zu native, %zu ptx-jit, %zu ptx-too-new, %zu no-kernel-image",
			dev, counts[d][COVERAGE_NATIVE], counts[d][COVERAGE_PTX_JIT],
			counts[d][COVERAGE_PTX_TOO_NEW], counts[d][COVERAGE_NO_KERNEL_IMAGE]);
		/* the driver's own verdicts, only when there are some (older goldens stay) */
		if (counts[d][COVERAGE_DRIVER_TOO_OLD] ||
		    counts[d][COVERAGE_DRIVER_GPU_UNSUPPORTED])
			strbuf_printf(&sb, ", %zu driver-too-old, %zu driver-gpu-unsupported",
				      counts[d][COVERAGE_DRIVER_TOO_OLD],
				      counts[d][COVERAGE_DRIVER_GPU_UNSUPPORTED]);
		strbuf_puts(&sb, "\n");
	}
	if (sb.err)
		return sb.err;
	return strbuf_steal(&sb, ret);
}

/* ---- JSON ----------------------------------------------------------------------------- */

static int jset(json_t *o, const char *k, json_t *v)
{
	return v && json_object_set_new(o, k, v) == 0 ? 0 : -ENOMEM;
}

/* Names from files (paths, SONAMEs, section and symbol names) are bytes: text that is not
 * UTF-8 is written with each bad byte as U+FFFD, since jansson refuses it (and the whole
 * document with it). NULL only on OOM. */
static json_t *jstr_or_null(const char *s)
{
	char *fixed;
	json_t *j;

	if (!s)
		return json_null();
	if (utf8_valid(s, strlen(s)))
		return json_string(s);
	fixed = utf8_make_valid(s, strlen(s));
	j = fixed ? json_string(fixed) : NULL;
	free(fixed);
	return j;
}

/* An LTO-IR target and its version: what an nvJitLink that links it must be at least
 * (docs/scan-schema.md `lto`); the version is null where neither the entry header nor the
 * entry's own container carries one. */
static json_t *lto_json(const struct fatbin_target *t)
{
	json_t *o = json_object();
	char ver[24];

	if (!o)
		return NULL;
	if (t->lto_major >= 0)
		snprintf(ver, sizeof(ver), "%d.%d", t->lto_major, t->lto_minor);
	if (jset(o, "target", jstr_or_null(t->name)) < 0 ||
	    jset(o, "ltoir_version", t->lto_major >= 0 ? json_string(ver) : json_null()) < 0 ||
	    jset(o, "version_from",
		 t->lto_major < 0      ? json_null()
		 : t->lto_from_payload ? json_string("container")
				       : json_string("entry-header")) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *file_json(const struct gpuenv_scan *s, const struct scan_file *f)
{
	json_t *o = json_object(), *sass = json_array(), *ptx = json_array(), *other = json_array();
	json_t *amd = json_array(), *comp = json_object(), *verdicts = json_array();
	json_t *lto = json_array();
	int rv = 0;

	if (!o || !sass || !ptx || !other || !amd || !comp || !verdicts || !lto)
		goto fail;
	rv |= jset(o, "path", jstr_or_null(f->path));
	/* The path's own bytes where it is not UTF-8 (docs/scan-schema.md). */
	if (!utf8_valid(f->path, strlen(f->path))) {
		char *hex = hex_encode(f->path, strlen(f->path));

		rv |= jset(o, "path_hex", hex ? json_string(hex) : NULL);
		free(hex);
	}
	rv |= jset(o, "state", json_string(state_name(f->state)));
	if (f->error)
		rv |= jset(o, "error", jstr_or_null(f->error));
	rv |= jset(o, "type", jstr_or_null(f->type));
	rv |= jset(o, "size", json_integer((json_int_t)f->size));
	rv |= jset(o, "containers", json_integer((json_int_t)f->n_containers));
	rv |= jset(o, "images", json_integer((json_int_t)f->n_entries));
	rv |= jset(o, "link_images_without_kernels", json_integer((json_int_t)f->n_link_images));
	for (int cls = 0; cls < 3; cls++) {
		size_t n;
		const struct fatbin_target **v = sorted_targets(f, cls, &n);

		if (!v)
			goto fail;
		for (size_t i = 0; i < n; i++) {
			if (cls == 0) {
				if (i == 0 || !streq(v[i - 1]->name, v[i]->name))
					rv |= json_array_append_new(sass, jstr_or_null(v[i]->name));
			} else if (cls == 1) {
				json_t *p = json_object();
				char isa[16];

				if (!p) {
					free(v);
					goto fail;
				}
				rv |= jset(p, "target", jstr_or_null(v[i]->name));
				if (v[i]->ptx_major >= 0) {
					snprintf(isa, sizeof(isa), "%d.%d", v[i]->ptx_major,
						 v[i]->ptx_minor);
					rv |= jset(p, "ptx_isa", json_string(isa));
				} else {
					rv |= jset(p, "ptx_isa", json_null());
				}
				rv |= json_array_append_new(ptx, p);
			} else {
				if (i == 0 || !streq(v[i - 1]->name, v[i]->name))
					rv |= json_array_append_new(other,
								    jstr_or_null(v[i]->name));
				if (v[i]->kind == FATBIN_TARGET_LTO)
					rv |= json_array_append_new(lto, lto_json(v[i]));
			}
		}
		free(v);
	}
	/* o owns what jset() gave it (jansson frees a value it could not store): the pointers
	 * still fill the arrays, the failure path no longer frees them */
	rv |= jset(o, "sass", sass);
	rv |= jset(o, "ptx", ptx);
	rv |= jset(o, "other", other);
	rv |= jset(o, "lto", lto);
	sass = ptx = other = lto = NULL;
	if (f->targets.n_amdgcn) {
		size_t n;
		const struct fatbin_target **v = sorted_targets(f, 3, &n);

		if (!v)
			goto fail;
		for (size_t i = 0; i < n; i++)
			rv |= json_array_append_new(amd, jstr_or_null(v[i]->name));
		free(v);
	}
	rv |= jset(o, "amd", amd);
	amd = NULL;
	rv |= jset(comp, "none", json_integer((json_int_t)f->n_compressed[FATBIN_COMPRESS_NONE]));
	rv |= jset(comp, "zstd", json_integer((json_int_t)f->n_compressed[FATBIN_COMPRESS_ZSTD]));
	rv |= jset(comp, "lz4", json_integer((json_int_t)f->n_compressed[FATBIN_COMPRESS_LZ4]));
	rv |= jset(comp, "other", json_integer((json_int_t)f->n_compressed[FATBIN_COMPRESS_OTHER]));
	rv |= jset(o, "compression", comp);
	comp = NULL;
	if (f->n_found_elsewhere || f->searched) {
		json_t *e = json_object();

		rv |= jset(o, "outside_nv_fatbin", e);
		if (e) {
			rv |= jset(e, "containers", json_integer((json_int_t)f->n_found_elsewhere));
			rv |= jset(e, "sections", jstr_or_null(f->elsewhere_sections));
			rv |= jset(e, "searched", json_boolean(f->searched));
		}
	}
	if (f->streamed)
		rv |= jset(o, "streamed", json_true());
	if (f->module_id)
		rv |= jset(o, "nv_module_id", jstr_or_null(f->module_id));
	if (f->warning)
		rv |= jset(o, "warning", jstr_or_null(f->warning));
	if (f->soname || f->runpath || f->needed) {
		json_t *dyn = json_object(), *need = json_array();

		rv |= jset(o, "dynamic", dyn);
		if (dyn && need) {
			rv |= jset(dyn, "soname", jstr_or_null(f->soname));
			rv |= jset(dyn, "runpath", jstr_or_null(f->runpath));
			for (size_t i = 0; f->needed && f->needed[i]; i++)
				rv |= json_array_append_new(need, jstr_or_null(f->needed[i]));
			rv |= jset(dyn, "needed", need);
		} else {
			json_decref(need);
		}
	}
	if (f->has_cudart) {
		json_t *c = json_object();

		rv |= jset(o, "cuda_runtime", c);
		if (c) {
			rv |= jset(c, "version",
				   f->cudart[0] ? json_string(f->cudart) : json_null());
			rv |= jset(c, "static", json_boolean(f->cudart_static));
		}
	}
	for (size_t d = 0; f->verdicts && d < s->n_devices; d++) {
		const struct scan_verdict *vd = &f->verdicts[d];
		json_t *v = json_object();

		if (!v)
			goto fail;
		rv |= jset(v, "device", json_integer((json_int_t)d));
		rv |= jset(v, "verdict", json_string(coverage_verdict_name(vd->res.verdict)));
		rv |= jset(v, "entry", vd->entry[0] ? jstr_or_null(vd->entry) : json_null());
		rv |= jset(v, "reason", jstr_or_null(vd->res.reason));
		rv |= jset(v, "unconfirmed", json_boolean(vd->res.unconfirmed));
		if (vd->res.lto_only)
			rv |= jset(v, "lto_only", json_true());
		rv |= jset(v, "modules_without_image",
			   json_integer((json_int_t)vd->modules_without_image));
		rv |= json_array_append_new(verdicts, v);
	}
	rv |= jset(o, "verdicts", verdicts);
	verdicts = NULL;
	if (rv)
		goto fail;
	return o;
fail:
	json_decref(sass);
	json_decref(ptx);
	json_decref(other);
	json_decref(lto);
	json_decref(amd);
	json_decref(comp);
	json_decref(verdicts);
	json_decref(o);
	return NULL;
}

int scan_render_json(struct gpuenv_scan *s, unsigned flags, char **ret)
{
	json_t *root = NULL, *files, *devices, *sum;
	struct gpuenv_scan_summary su = { .sz = sizeof(su) };
	char *text;
	int rv;

	rv = scan_judge(s);
	if (rv < 0)
		return rv;
	rv = scan_summary(s, &su);
	if (rv < 0)
		return rv;
	root = json_object();
	files = json_array();
	devices = json_array();
	sum = json_object();
	if (!root || !files || !devices || !sum)
		goto oom;
	rv |= jset(root, "schema", json_string(SCAN_SCHEMA));
	rv |= jset(root, "files", files);
	rv |= jset(root, "devices", devices);
	rv |= jset(root, "summary", sum);
	if (rv)
		goto oom_set;
	for (size_t d = 0; d < s->n_devices; d++) {
		json_t *o = json_object();
		char cc[16];

		if (!o)
			goto oom_set;
		snprintf(cc, sizeof(cc), "%u.%u", s->devices[d].major, s->devices[d].minor);
		rv |= jset(o, "compute_capability", json_string(cc));
		rv |= jset(o, "name", jstr_or_null(s->devices[d].name));
		rv |= jset(o, "source", jstr_or_null(s->devices[d].source));
		rv |= json_array_append_new(devices, o);
	}
	if (s->driver) {
		json_t *o = json_object();
		const struct facts_ptx_isa *p;

		rv |= jset(root, "driver", o);
		if (o) {
			rv |= jset(o, "version", jstr_or_null(s->driver));
			rv |= jset(o, "source", jstr_or_null(s->driver_source));
			rv |= jset(o, "max_ptx_isa",
				   facts_ptx_isa_for_driver(s->driver, &p) == 0
					   ? json_string(p->ptx_isa_version)
					   : json_null());
		}
	} else {
		rv |= jset(root, "driver", json_null());
	}
	for (size_t i = 0; i < s->n_files; i++) {
		json_t *f = file_json(s, &s->files[i]);

		if (!f)
			goto oom_set;
		rv |= json_array_append_new(files, f);
	}
	rv |= jset(sum, "files", json_integer((json_int_t)su.files));
	rv |= jset(sum, "with_gpu_code", json_integer((json_int_t)su.with_gpu_code));
	rv |= jset(sum, "unreadable", json_integer((json_int_t)su.unreadable));
	rv |= jset(sum, "malformed", json_integer((json_int_t)su.malformed));
	rv |= jset(sum, "skipped", json_integer((json_int_t)su.skipped));
	rv |= jset(sum, "failing", json_integer((json_int_t)su.failing));
	rv |= jset(sum, "duplicates", json_integer((json_int_t)s->duplicates));
	rv |= jset(sum, "stopped_at_max_files", json_boolean(s->hit_file_cap));
	rv |= jset(sum, "too_deep_dirs", json_integer((json_int_t)s->too_deep));
	rv |= jset(sum, "not_searched", json_integer((json_int_t)not_searched(s)));
	if (rv)
		goto oom_set;
	text = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2));
	json_decref(root);
	if (!text)
		return -ENOMEM;
	*ret = text;
	return 0;
oom:
	json_decref(files);
	json_decref(devices);
	json_decref(sum);
oom_set:
	json_decref(root);
	return -ENOMEM;
}
