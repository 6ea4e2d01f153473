/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Finds and parses the GPU code of files, directories and Python wheels inside the ctx's
 * root: files are opened with root_file_open(), mapped for their ELF structure and handed to
 * src/fatbin (header-only unless GPUENV_SCAN_DEEP), whose container walks read the scattered
 * entry headers through root_file_pread() and hand each container's entries over to be
 * tallied (fatbin_input); the members of static libraries (ar) are parsed where they lie in
 * the file; directories are walked with root_list_dir(), symlinks followed once
 * ((dev, ino) remembered, so no loop and no file twice), depth and count capped; wheels (ZIP,
 * PKWARE APPNOTE; PEP 427) are opened with libzip (loaded on the first wheel,
 * vendor/lazy-zip.h) over the mapped bytes and only candidate
 * members (*.so, *.so.*, *.cubin, *.fatbin, *.ptx, *.hipfb) are read, streamed and never
 * written to disk, after the zip-bomb guards (declared and actual size caps, ratio cap).
 * Format notes: docs/formats/fatbin.md §10.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/ctx.h"
#include "core/root.h"
#include "formats/archive.h"
#include "formats/cudart-ident.h"
#include "formats/elf-dynamic.h"
#include "fatbin/fatbin.h"
#include "scan/scan.h"
#include "shared/log.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"
#include "vendor/lazy-zip.h"

#define WHEEL_CHUNK ((size_t)1 << 20)

void scan_file_done(struct scan_file *f)
{
	free(f->path);
	free(f->error);
	free(f->elsewhere_sections);
	free(f->module_id);
	free(f->warning);
	fatbin_targets_done(&f->targets);
	module_sets_done(&f->modules);
	free(f->soname);
	free(f->runpath);
	strv_free(f->needed);
	free(f->verdicts);
	memset(f, 0, sizeof(*f));
}

static int new_file(struct gpuenv_scan *s, const char *path, struct scan_file **ret)
{
	struct scan_file *f;

	if (s->n_files == s->cap_files) {
		size_t cap = s->cap_files ? s->cap_files * 2 : 64;

		f = reallocarray(s->files, cap, sizeof(*f));
		if (!f)
			return -ENOMEM;
		s->files = f;
		s->cap_files = cap;
	}
	f = &s->files[s->n_files];
	memset(f, 0, sizeof(*f));
	f->targets.max = UINT16_MAX; /* the modules hold 16-bit indexes */
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	s->n_files++;
	s->judged = false;
	*ret = f;
	return 0;
}

static int file_error(struct scan_file *f, enum scan_state st, const char *fmt, ...) _printf_(3, 4);
static int file_error(struct scan_file *f, enum scan_state st, const char *fmt, ...)
{
	va_list ap;
	int n;

	f->state = st;
	free(f->error);
	va_start(ap, fmt);
	n = vasprintf(&f->error, fmt, ap);
	va_end(ap);
	if (n < 0) {
		f->error = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void progress(struct gpuenv_scan *s, const char *path)
{
	if (s->opts.progress)
		s->opts.progress(s->opts.progress_userdata, path, s->files_seen, s->bytes_seen);
}

/* Index of the entry's target in f->targets, added if new (fatbin-targets.h). */
static int target_index(struct scan_file *f, const struct fatbin_entry *e, uint16_t *ret)
{
	size_t idx;
	int rv;

	rv = fatbin_targets_add_entry(&f->targets, e, &idx);
	if (rv < 0)
		return rv;
	*ret = (uint16_t)idx;
	return 0;
}

/* Tallies entries (in file order) into f's targets and modules. *cur: the container of the
 * last entry seen (UINT32_MAX before the first); a new one starts a module. */
static int record_entries(struct scan_file *f, const struct fatbin_entry *entries, size_t n,
			  unsigned *cur)
{
	int rv;

	f->n_entries += n;
	for (size_t i = 0; i < n; i++) {
		const struct fatbin_entry *e = &entries[i];
		uint16_t idx;

		if (e->kind == FATBIN_KIND_ELF && e->has_kernels == 0) {
			f->n_link_images++; /* nvlink device-link image: no kernels */
			continue;
		}
		if (e->compression < ARRAY_SIZE(f->n_compressed))
			f->n_compressed[e->compression]++;
		rv = target_index(f, e, &idx);
		if (rv < 0)
			return rv;
		/* modules: entries of one container are consecutive; a standalone cubin/PTX is
		 * one module */
		if (!f->modules.is_open || e->container != *cur) {
			rv = module_sets_begin(&f->modules);
			if (rv < 0)
				return rv;
			*cur = e->container;
		}
		rv = module_sets_add(&f->modules, idx);
		if (rv < 0)
			return rv;
	}
	return 0;
}

/* Forgets what record_entries() tallied. */
static void untally(struct scan_file *f)
{
	module_sets_done(&f->modules);
	fatbin_targets_done(&f->targets);
	f->n_entries = f->n_link_images = 0;
	memset(f->n_compressed, 0, sizeof(f->n_compressed));
}

/* Where the bytes being parsed lie in an opened file: the whole file, or an archive member at
 * off. The container walks read their scattered headers through it (read_file) instead of
 * faulting in pages of the mapping: a little slower where the kernel maps the page cache's
 * large folios whole, twice as fast where it holds small ones (docs/HACKING.md). */
struct file_src {
	const struct root_file *file;
	uint64_t off;
};

/* The userdata of a scan's fatbin_input: read() over the file (remembering the first read
 * error), on_container tallying each container's entries into f as it is walked. */
struct file_parse {
	struct scan_file *f;
	unsigned cur; /* record_entries() */
	struct file_src src;
	int err;
	uint64_t fatbin_first_plain; /* fatbin_result.nv_fatbin_first_plain */
};

static int tally_container(void *userdata, const struct fatbin_entry *e, size_t n)
{
	struct file_parse *fp = userdata;

	return record_entries(fp->f, e, n, &fp->cur);
}

/* Copies what the verdicts and the renderers need out of a parse result (whose container
 * entries were already tallied through fp when fp is not NULL). */
static int record_result(struct scan_file *f, struct fatbin_result *r, struct file_parse *fp)
{
	unsigned cur = fp ? fp->cur : UINT32_MAX;
	int rv;

	f->type = fatbin_file_type_name(r->type);
	f->n_containers = r->n_containers;
	f->n_wrappers = r->n_wrappers;
	f->n_found_elsewhere = r->n_found_elsewhere;
	f->searched = r->searched;
	f->elsewhere_sections = TAKE_PTR(r->elsewhere_sections);
	f->module_id = TAKE_PTR(r->module_id);
	f->warning = TAKE_PTR(r->warning);
	cudart_ident_release(r->toolkit_line, r->toolkit_line_len, f->cubin_release,
			     sizeof(f->cubin_release));
	rv = record_entries(f, r->entries, r->n_entries, &cur);
	if (rv >= 0)
		rv = module_sets_end(&f->modules); /* the last module */
	if (rv < 0)
		return rv;
	/* AMD code objects: one target per target ID, after the CUDA ones */
	for (size_t i = 0; i < r->n_bundle_entries; i++) {
		rv = fatbin_targets_add_bundle(&f->targets, &r->bundle_entries[i]);
		if (rv < 0)
			return rv;
	}
	return 0;
}

static bool name_is_candidate(const char *name)
{
	static const char *const pats[] = { "*.so",  "*.so.*",	"*.cubin", "*.fatbin",
					    "*.ptx", "*.hipfb", "*.whl",   "*.a" };

	for (size_t i = 0; i < ARRAY_SIZE(pats); i++)
		if (fnmatch(pats[i], name, 0) == 0)
			return true;
	return false;
}

static bool is_zip(const uint8_t *p, size_t len)
{
	return len >= 4 && memcmp(p, "PK\3\4", 4) == 0;
}

static unsigned parse_flags(const struct gpuenv_scan *s)
{
	return (s->opts.flags & GPUENV_SCAN_DEEP)
		       ? FATBIN_PARSE_PAYLOAD_HEADS | FATBIN_PARSE_SEARCH_ALL
		       : 0;
}

static ssize_t read_file(void *userdata, uint64_t off, void *buf, size_t n)
{
	struct file_parse *fp = userdata;
	ssize_t got = root_file_pread(fp->src.file, buf, n, fp->src.off + off);

	if (!fp->err && (got < 0 || (size_t)got < n))
		fp->err = got < 0 ? (int)got : -EIO; /* an error, or the file shrank */
	return got;
}

static int record_cudart(struct scan_file *f, const uint8_t *p, size_t len, struct file_parse *fp);

/* Parses p[0..len). src, when not NULL, says where the same bytes lie in an opened file. */
static int parse_buffer(struct gpuenv_scan *s, struct scan_file *f, const uint8_t *p, size_t len,
			const struct file_src *src)
{
	_cleanup_(fatbin_result_freep) struct fatbin_result *r = NULL;
	_cleanup_free_ char *why = NULL;
	struct file_parse fp = { .f = f, .cur = UINT32_MAX };
	struct fatbin_input in = {
		.data = p, .len = len, .userdata = &fp, .on_container = tally_container
	};
	int rv;

	f->size = len;
	if (src) {
		fp.src = *src;
		in.read = read_file;
	}
	rv = fatbin_parse_input(&in, parse_flags(s), &r, &why);
	if (rv == -ENOMEM)
		return rv;
	if (rv < 0)
		untally(f); /* a failed parse records no targets */
	if (rv < 0 && fp.err)
		return file_error(f, SCAN_UNREADABLE, "%s", why ? why : strerror(-fp.err));
	if (rv == -EBADMSG && !fatbin_looks_parsable(p, len))
		return file_error(f, SCAN_MALFORMED,
				  "not an ELF file, fatbin, cubin, PTX or offload "
				  "bundle");
	if (rv < 0)
		return file_error(f, rv == -E2BIG ? SCAN_TOO_LARGE : SCAN_MALFORMED, "%s%s%s",
				  rv == -E2BIG		   ? "too many entries"
				  : rv == -EPROTONOSUPPORT ? "unsupported format version"
							   : "malformed GPU code container",
				  why ? ": " : "", why ? why : "");
	fp.fatbin_first_plain = r->nv_fatbin_first_plain;
	rv = record_result(f, r, &fp);
	if (rv < 0 || r->type != FATBIN_FILE_HOST_ELF)
		return rv;
	/* SONAME / DT_NEEDED / RUNPATH: src/formats/elf-dynamic */
	{
		_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;

		if (elf_dynamic_parse(p, len, &d) == 0 && d->has_dynamic) {
			if (d->soname && !(f->soname = strdup(d->soname)))
				return -ENOMEM;
			if ((d->runpath || d->rpath) &&
			    !(f->runpath = strdup(d->runpath ? d->runpath : d->rpath)))
				return -ENOMEM;
			if (d->needed && d->n_needed) {
				f->needed = TAKE_PTR(d->needed);
				d->n_needed = 0;
			}
		}
	}
	return record_cudart(f, p, len, src ? &fp : NULL);
}

/* The CUDA runtime the file links, or (when it has CUDA code and links none) bundles. With fp
 * (p is a mapping of an opened file), its sections are searched through pread(2) instead, so
 * that the pages searched do not stay resident. */
static int record_cudart(struct scan_file *f, const uint8_t *p, size_t len, struct file_parse *fp)
{
	struct cudart_ident id;
	int rv = cudart_ident_linked(f->soname, f->needed, strv_length(f->needed), &id);

	if (rv == 0 && f->n_containers > 0)
		rv = cudart_ident_static_read(
			p, len,
			fp ? &(struct cudart_ident_reader){ read_file, fp,
							    fp->fatbin_first_plain >=
								    CUDART_IDENT_FATBIN_HEAD }
			   : NULL,
			f->cubin_release, &id);
	if (rv < 0 && rv != -ENOMEM)
		return file_error(f, SCAN_UNREADABLE, "searching for a bundled CUDA runtime: %s",
				  strerror(-rv));
	if (rv <= 0)
		return rv;
	f->has_cudart = true;
	f->cudart_static = id.is_static;
	memcpy(f->cudart, id.version, sizeof(f->cudart));
	return 0;
}

/* ---- static libraries ------------------------------------------------------------- */

struct archive_walk {
	struct gpuenv_scan *s;
	const char *archive;	      /* its path: the scan_file moves when s->files grows */
	const uint8_t *base;	      /* the archive's mapping, */
	const struct root_file *file; /* of this file */
};

/* One member of an archive: its own file, "ARCHIVE(MEMBER)" as ld and nm name it. */
static int archive_member(void *userdata, const char *name, const uint8_t *m, size_t n)
{
	struct archive_walk *w = userdata;
	struct gpuenv_scan *s = w->s;
	_cleanup_free_ char *label = NULL;
	struct scan_file *f;
	int rv;

	if (s->files_seen >= s->opts.max_files) {
		s->hit_file_cap = true;
		return -ECANCELED;
	}
	if (asprintf(&label, "%s(%s)", w->archive, name) < 0)
		return -ENOMEM;
	rv = new_file(s, label, &f);
	if (rv < 0)
		return rv;
	s->files_seen++;
	rv = parse_buffer(s, f, m, n,
			  &(struct file_src){ .file = w->file, .off = (uint64_t)(m - w->base) });
	progress(s, label);
	return rv;
}

/* A static library p[0..len), mapped from file: each member (object file) is parsed where it
 * lies. */
static int scan_archive(struct gpuenv_scan *s, size_t idx, const uint8_t *p, size_t len,
			const struct root_file *file)
{
	_cleanup_free_ char *path = strdup(s->files[idx].path);
	struct archive_walk w = { .s = s, .archive = path, .base = p, .file = file };
	const char *why = NULL;
	int rv;

	if (!path)
		return -ENOMEM;
	s->files[idx].type = "archive";
	s->files[idx].size = len;
	rv = ar_for_each_member(p, len, archive_member, &w, &why);
	if (rv == -ENOMEM || rv == -ECANCELED)
		return rv == -ECANCELED ? 0 : rv;
	if (rv == -E2BIG)
		return file_error(&s->files[idx], SCAN_TOO_LARGE, "more than %u archive members",
				  AR_MAX_MEMBERS);
	if (rv == -EOPNOTSUPP)
		return file_error(&s->files[idx], SCAN_SKIPPED, "%s", why);
	if (rv < 0)
		return file_error(&s->files[idx], SCAN_MALFORMED, "%s",
				  why ? why : "malformed archive");
	return 0;
}

/* ---- wheels ------------------------------------------------------------------------ */

static int wheel_member(struct gpuenv_scan *s, const struct vendor_zip *zl, zip_t *za,
			zip_uint64_t idx, const char *label, const zip_stat_t *st)
{
	struct scan_file *f;
	zip_file_t *zf;
	uint64_t cap = s->opts.max_member_size, got = 0;
	int rv;

	rv = new_file(s, label, &f);
	if (rv < 0)
		return rv;
	s->files_seen++;
	f->size = st->size;
	if ((st->valid & (ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE)) !=
	    (ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE))
		return file_error(f, SCAN_SKIPPED, "zip member without sizes");
	if (st->size > cap)
		return file_error(f, SCAN_TOO_LARGE,
				  "%" PRIu64 " bytes uncompressed, above the cap "
				  "of %" PRIu64,
				  (uint64_t)st->size, cap);
	if (st->size > 0 && (st->comp_size == 0 || st->size / st->comp_size >= s->opts.max_ratio))
		return file_error(f, SCAN_SKIPPED,
				  "compression ratio %" PRIu64 ":1 above %u:1 "
				  "(zip bomb guard)",
				  st->comp_size ? (uint64_t)(st->size / st->comp_size) : st->size,
				  s->opts.max_ratio);
	zf = zl->zip_fopen_index(za, idx, 0);
	if (!zf)
		return file_error(f, SCAN_UNREADABLE, "%s", zl->zip_strerror(za));
	if (st->size <= s->opts.member_in_memory) {
		/* small: read whole (one byte more than declared, to catch a lying directory) */
		_cleanup_free_ uint8_t *buf = malloc(st->size + 1);
		zip_int64_t n;

		if (!buf) {
			zl->zip_fclose(zf);
			return -ENOMEM;
		}
		while (got <= st->size &&
		       (n = zl->zip_fread(zf, buf + got, st->size + 1 - got)) > 0)
			got += (uint64_t)n;
		if (got <= st->size && n < 0) {
			rv = file_error(f, SCAN_UNREADABLE, "%s", zl->zip_file_strerror(zf));
		} else if (got != st->size) {
			rv = file_error(f, SCAN_MALFORMED,
					"member size differs from the zip directory");
		} else {
			s->bytes_seen += got;
			rv = parse_buffer(s, f, buf, got, NULL);
		}
		zl->zip_fclose(zf);
		return rv;
	}
	/* large: stream through the container walker, keeping only headers */
	{
		_cleanup_free_ uint8_t *buf = malloc(WHEEL_CHUNK);
		struct fatbin_stream *fs = NULL;
		struct fatbin_result *r = NULL;
		zip_int64_t n = 0;

		if (!buf || fatbin_stream_new(&fs) < 0) {
			zl->zip_fclose(zf);
			fatbin_stream_free(fs);
			return -ENOMEM;
		}
		f->streamed = true;
		while ((n = zl->zip_fread(zf, buf, WHEEL_CHUNK)) > 0) {
			got += (uint64_t)n;
			s->bytes_seen += (uint64_t)n;
			if (got > st->size) {
				n = -2;
				break;
			}
			rv = fatbin_stream_feed(fs, buf, (size_t)n);
			if (rv < 0) {
				zl->zip_fclose(zf);
				fatbin_stream_free(fs);
				if (rv == -ENOMEM)
					return rv;
				return file_error(f, SCAN_TOO_LARGE, "too many fatbin entries");
			}
			if ((got & ((256u << 20) - 1)) < (uint64_t)n)
				progress(s, label);
		}
		zl->zip_fclose(zf);
		if (n == -2 || (n == 0 && got != st->size)) {
			fatbin_stream_free(fs);
			return file_error(f, SCAN_MALFORMED,
					  "member size differs from the zip directory");
		}
		if (n < 0) {
			fatbin_stream_free(fs);
			return file_error(f, SCAN_UNREADABLE, "zip read error");
		}
		rv = fatbin_stream_finish(fs, &r);
		if (rv < 0)
			return rv;
		rv = record_result(f, r, NULL);
		fatbin_result_free(r);
		return rv;
	}
}

static int scan_wheel(struct gpuenv_scan *s, struct scan_file *f, const uint8_t *p, size_t len)
{
	zip_error_t ze;
	zip_source_t *src;
	zip_t *za;
	zip_int64_t n;
	const char *wheel = f->path, *why = NULL;
	_cleanup_free_ char *wname = strdup(wheel);
	const struct vendor_zip *zl;
	int rv = 0;

	if (!wname)
		return -ENOMEM;
	f->type = "wheel";
	f->size = len;
	rv = vendor_zip(&zl, &why);
	if (rv == -ENOMEM)
		return rv;
	if (rv < 0)
		return file_error(f, SCAN_UNREADABLE, "cannot read wheels: %s", why);
	zl->zip_error_init(&ze);
	src = zl->zip_source_buffer_create(p, len, 0, &ze);
	if (!src) {
		zl->zip_error_fini(&ze);
		return -ENOMEM;
	}
	za = zl->zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
	if (!za) {
		rv = file_error(f, SCAN_MALFORMED, "not a readable zip file: %s",
				zl->zip_error_strerror(&ze));
		zl->zip_source_free(src);
		zl->zip_error_fini(&ze);
		return rv;
	}
	zl->zip_error_fini(&ze);
	n = zl->zip_get_num_entries(za, 0);
	if (n < 0 || (uint64_t)n > SCAN_MAX_WHEEL_MEMBERS) {
		rv = file_error(f, SCAN_TOO_LARGE, "%" PRId64 " zip members, above the cap of %u",
				(int64_t)n, SCAN_MAX_WHEEL_MEMBERS);
		zl->zip_discard(za);
		return rv;
	}
	for (zip_int64_t i = 0; i < n && rv >= 0; i++) {
		zip_stat_t st;
		const char *base;
		_cleanup_free_ char *label = NULL;

		if (zl->zip_stat_index(za, (zip_uint64_t)i, 0, &st) < 0 ||
		    !(st.valid & ZIP_STAT_NAME))
			continue;
		base = path_basename(st.name);
		if (!base[0] || fnmatch("*.whl", base, 0) == 0 || !name_is_candidate(base))
			continue;
		if (s->files_seen >= s->opts.max_files) {
			s->hit_file_cap = true;
			break;
		}
		if (asprintf(&label, "%s!/%s", wname, st.name) < 0)
			return -ENOMEM;
		rv = wheel_member(s, zl, za, (zip_uint64_t)i, label, &st);
		progress(s, label);
	}
	zl->zip_discard(za);
	return rv < 0 ? rv : 0;
}

/* ---- files and directories ----------------------------------------------------------- */

static bool seen_before(struct gpuenv_scan *s, const struct stat *st, int *err)
{
	*err = 0;
	for (size_t i = 0; i < s->n_seen; i++)
		if (s->seen[i].dev == st->st_dev && s->seen[i].ino == st->st_ino)
			return true;
	if (s->n_seen == s->cap_seen) {
		size_t cap = s->cap_seen ? s->cap_seen * 2 : 256;
		struct scan_ino *v = reallocarray(s->seen, cap, sizeof(*v));

		if (!v) {
			*err = -ENOMEM;
			return false;
		}
		s->seen = v;
		s->cap_seen = cap;
	}
	s->seen[s->n_seen++] = (struct scan_ino){ st->st_dev, st->st_ino };
	return false;
}

static int scan_file(struct gpuenv_scan *s, const char *path, const struct stat *st, bool named)
{
	struct root *root = s->ctx->root;
	_cleanup_(root_file_closep) struct root_file file = ROOT_FILE_NULL;
	struct root_map m = { 0 };
	struct scan_file *f;
	int rv;

	if (s->files_seen >= s->opts.max_files) {
		s->hit_file_cap = true;
		return 0;
	}
	rv = new_file(s, path, &f);
	if (rv < 0)
		return rv;
	s->files_seen++;
	f->size = (uint64_t)st->st_size;
	if ((uint64_t)st->st_size > s->opts.max_file_size) {
		rv = file_error(f, SCAN_TOO_LARGE, "%" PRIu64 " bytes, above the cap of %" PRIu64,
				(uint64_t)st->st_size, s->opts.max_file_size);
		progress(s, path);
		return rv;
	}
	/* mapped for the ELF structure, and kept open: the container walks read through it */
	rv = root_file_open(root, path, s->opts.max_file_size, &file);
	if (rv >= 0)
		rv = root_file_map(&file, &m);
	if (rv < 0) {
		int r2 = file_error(f, SCAN_UNREADABLE, "%s", strerror(-rv));

		if (named)
			s->unreadable_args++;
		progress(s, path);
		return r2 < 0 ? r2 : 0;
	}
	if (!named && (s->opts.flags & GPUENV_SCAN_ALL_FILES) &&
	    !fatbin_looks_parsable(m.data, m.len) && !is_zip(m.data, m.len) &&
	    !ar_is_archive(m.data, m.len)) {
		/* sniffed, not GPU code: forget it */
		root_unmap(&m);
		scan_file_done(f);
		s->n_files--;
		s->not_candidates++;
		return 0;
	}
	if (is_zip(m.data, m.len))
		rv = scan_wheel(s, f, m.data, m.len);
	else if (ar_is_archive(m.data, m.len))
		rv = scan_archive(s, (size_t)(f - s->files), m.data, m.len, &file);
	else
		rv = parse_buffer(s, f, m.data, m.len, &(struct file_src){ .file = &file });
	s->bytes_seen += m.len;
	root_unmap(&m);
	progress(s, path);
	return rv < 0 ? rv : 0;
}

static int scan_dir(struct gpuenv_scan *s, const char *path, unsigned depth)
{
	_cleanup_(strv_freep) char **names = NULL;
	int rv;

	rv = root_list_dir(s->ctx->root, path, ROOT_DIR_MAX_ENTRIES, &names);
	if (rv < 0) {
		struct scan_file *f;
		int r2 = new_file(s, path, &f);

		if (r2 < 0)
			return r2;
		f->type = "directory";
		/* A directory named on the command line is an input that cannot be read. */
		if (depth == 0)
			s->unreadable_args++;
		r2 = file_error(f, SCAN_UNREADABLE, "%s", strerror(-rv));
		return r2 < 0 ? r2 : 0;
	}
	/* two passes: entries that are not symlinks first, so a file is listed under its real
	 * name and libfoo.so -> libfoo.so.1 counts as the duplicate */
	for (size_t k = 0; names && k < 2 * strv_length(names); k++) {
		size_t i = k % strv_length(names);
		bool links = k >= strv_length(names);
		_cleanup_free_ char *child = NULL;
		struct stat st, lst;
		int err;

		if (s->files_seen >= s->opts.max_files) {
			s->hit_file_cap = true;
			return 0;
		}
		if (asprintf(&child, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/",
			     names[i]) < 0)
			return -ENOMEM;
		if ((root_lstat(s->ctx->root, child, &lst) < 0 ? false : S_ISLNK(lst.st_mode)) !=
		    links)
			continue;
		rv = root_stat(s->ctx->root, child, &st); /* follows symlinks */
		if (rv < 0) {
			/* a dangling link or unreadable entry: only worth a record if it is
			 * named like GPU code */
			if (name_is_candidate(names[i])) {
				struct scan_file *f;
				int r2 = new_file(s, child, &f);

				if (r2 < 0)
					return r2;
				s->files_seen++;
				r2 = file_error(f, SCAN_UNREADABLE, "%s", strerror(-rv));
				if (r2 < 0)
					return r2;
			}
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (seen_before(s, &st, &err)) {
				if (err < 0)
					return err;
				continue; /* a loop or a second path to a seen directory */
			}
			if (depth + 1 > s->opts.max_depth) {
				log_debug(&s->ctx->log, "%s: deeper than %u levels, not entered",
					  child, s->opts.max_depth);
				s->too_deep++; /* counted in the summary: never a silent skip */
				continue;
			}
			rv = scan_dir(s, child, depth + 1);
			if (rv < 0)
				return rv;
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		if (!(s->opts.flags & GPUENV_SCAN_ALL_FILES) && !name_is_candidate(names[i])) {
			s->not_candidates++;
			continue;
		}
		if (seen_before(s, &st, &err)) {
			if (err < 0)
				return err;
			s->duplicates++; /* libfoo.so -> libfoo.so.1 */
			continue;
		}
		rv = scan_file(s, child, &st, false);
		if (rv < 0)
			return rv;
	}
	return 0;
}

int scan_path(struct gpuenv_scan *s, const char *path)
{
	struct stat st;
	int rv, err;

	rv = root_stat(s->ctx->root, path, &st);
	if (rv < 0) {
		struct scan_file *f;
		int r2 = new_file(s, path, &f);

		if (r2 < 0)
			return r2;
		s->files_seen++;
		s->unreadable_args++;
		r2 = file_error(f, SCAN_UNREADABLE, "%s", strerror(-rv));
		return r2 < 0 ? r2 : rv;
	}
	if (seen_before(s, &st, &err)) {
		if (err < 0)
			return err;
		s->duplicates++;
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		rv = scan_dir(s, path, 0);
	} else if (S_ISREG(st.st_mode)) {
		rv = scan_file(s, path, &st, true);
		if (rv >= 0 && s->n_files > 0 &&
		    s->files[s->n_files - 1].state == SCAN_UNREADABLE &&
		    streq(s->files[s->n_files - 1].path, path))
			rv = -EIO;
	} else {
		struct scan_file *f;

		rv = new_file(s, path, &f);
		if (rv < 0)
			return rv;
		s->files_seen++;
		s->unreadable_args++;
		rv = file_error(f, SCAN_UNREADABLE, "not a regular file or directory");
		if (rv >= 0)
			rv = -EINVAL;
	}
	return rv;
}

/* ---- verdicts ---------------------------------------------------------------------- */

int scan_judge(struct gpuenv_scan *s)
{
	if (s->judged && s->judged_devices == s->n_devices)
		return 0;
	for (size_t i = 0; i < s->n_files; i++) {
		struct scan_file *f = &s->files[i];
		struct coverage_target *t;
		struct scan_verdict *v;

		free(f->verdicts);
		f->verdicts = NULL;
		/* AMD targets are not judged (coverage.h is CUDA's) */
		if (s->n_devices == 0 || f->targets.n == f->targets.n_amdgcn)
			continue;
		v = calloc(s->n_devices, sizeof(*v));
		t = calloc(f->targets.n, sizeof(*t));
		if (!v || !t) {
			free(v);
			free(t);
			return -ENOMEM;
		}
		/* an AMD target ID is no nvcc target: coverage_judge() ignores it */
		for (size_t k = 0; k < f->targets.n; k++)
			t[k] = (struct coverage_target){ f->targets.t[k].name,
							 f->targets.t[k].ptx_major,
							 f->targets.t[k].ptx_minor };
		for (size_t d = 0; d < s->n_devices; d++) {
			const struct scan_device *dev = &s->devices[d];
			int rv = coverage_judge(t, f->targets.n, dev->major, dev->minor, s->driver,
						&v[d].res);

			if (rv < 0) {
				free(v);
				free(t);
				return rv;
			}
			/* the driver decides first: a GPU it does not drive, a runtime it is
			 * too old for */
			rv = coverage_judge_driver(f->has_cudart && f->cudart[0] ? f->cudart : NULL,
						   dev->major, dev->minor, s->driver, &v[d].res);
			if (rv < 0) {
				free(v);
				free(t);
				return rv;
			}
			if (v[d].res.entry != SIZE_MAX)
				snprintf(v[d].entry, sizeof(v[d].entry), "%s",
					 t[v[d].res.entry].target);
			/* modules (containers) with code but nothing this device can load: each
			 * distinct target set judged once */
			for (size_t m = 0; m < f->modules.n_sets && f->modules.n_modules > 1; m++) {
				const struct module_set *ms = &f->modules.sets[m];
				struct coverage_target mt[64];
				struct coverage_result mr;
				size_t n = MIN((size_t)ms->len, ARRAY_SIZE(mt));

				for (size_t k = 0; k < n; k++)
					mt[k] = t[ms->targets[k]];
				if (coverage_judge(mt, n, dev->major, dev->minor, s->driver, &mr) ==
					    0 &&
				    coverage_verdict_is_failure(mr.verdict))
					v[d].modules_without_image += ms->count;
			}
		}
		free(t);
		f->verdicts = v;
	}
	s->judged = true;
	s->judged_devices = s->n_devices;
	return 0;
}

int scan_summary(struct gpuenv_scan *s, struct gpuenv_scan_summary *ret)
{
	struct gpuenv_scan_summary sum = { 0 };
	int rv;

	rv = scan_judge(s);
	if (rv < 0)
		return rv;
	sum.sz = MIN(ret->sz, sizeof(sum));
	sum.files = s->files_seen;
	sum.devices = (unsigned)s->n_devices;
	sum.unreadable_args = (uint64_t)s->unreadable_args;
	for (size_t i = 0; i < s->n_files; i++) {
		const struct scan_file *f = &s->files[i];
		bool failing = false;

		switch (f->state) {
		case SCAN_UNREADABLE:
			sum.unreadable++;
			break;
		case SCAN_MALFORMED:
			sum.malformed++;
			break;
		case SCAN_TOO_LARGE:
		case SCAN_SKIPPED:
			sum.skipped++;
			break;
		default:
			break;
		}
		if (f->targets.n)
			sum.with_gpu_code++;
		for (size_t d = 0; f->verdicts && d < s->n_devices; d++)
			failing |= coverage_verdict_is_failure(f->verdicts[d].res.verdict);
		sum.failing += failing;
	}
	memcpy(ret, &sum, sum.sz);
	return 0;
}
