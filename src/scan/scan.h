/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `gpuenv scan`: finds the GPU code in files, directories and Python wheels (through the
 * sysroot-aware src/core/root.h, files mapped and read at offsets, wheel members streamed with
 * libzip), records per file the SASS/PTX targets that src/fatbin parsed, and judges them
 * against devices with src/facts/coverage.h. Schema of the JSON form: docs/scan-schema.md.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "facts/coverage.h"
#include "fatbin/fatbin-targets.h"
#include "scan/module-sets.h"
#include "gpuenv/gpuenv.h"

#define SCAN_DEFAULT_MAX_DEPTH	     32u
#define SCAN_DEFAULT_MAX_FILES	     200000u
#define SCAN_DEFAULT_MAX_FILE_SIZE   ((uint64_t)64 << 30) /* mapped, never read whole */
#define SCAN_DEFAULT_MAX_MEMBER_SIZE ((uint64_t)8 << 30)  /* wheel member, uncompressed */
#define SCAN_DEFAULT_MAX_RATIO	     100u		  /* uncompressed : compressed */
#define SCAN_MEMBER_IN_MEMORY	     ((uint64_t)64 << 20) /* smaller members parsed whole */
#define SCAN_MAX_WHEEL_MEMBERS	     200000u
#define SCAN_MAX_DEVICES	     64u

enum scan_state {
	SCAN_OK = 0,	 /* parsed (with or without GPU code) */
	SCAN_UNREADABLE, /* open/map/read failed */
	SCAN_MALFORMED,	 /* the parser refused it */
	SCAN_TOO_LARGE,	 /* above a size cap */
	SCAN_SKIPPED,	 /* zip-bomb guard, not a candidate, cap on count */
};

struct scan_verdict {
	struct coverage_result res;
	char entry[24];		      /* deciding target, "" if none */
	size_t modules_without_image; /* containers with code but nothing for this device */
};

struct scan_file {
	char *path; /* as given, or "WHEEL!/member" */
	enum scan_state state;
	char *error;	  /* why not ok */
	const char *type; /* fatbin_file_type_name() */
	uint64_t size;
	size_t n_containers, n_entries;
	size_t n_wrappers;
	size_t n_link_images; /* kernel-less device-link ELF images, not judged */
	size_t n_found_elsewhere;
	char *elsewhere_sections;
	bool searched, streamed;
	char *module_id;
	char *warning;
	size_t n_compressed[4]; /* per enum fatbin_compression */
	/* its distinct targets, CUDA and AMDGPU, in the order found (the modules' indexes) */
	struct fatbin_targets targets;
	/* its containers with code, by target set (for modules_without_image) */
	struct module_sets modules;
	/* dynamic section (src/formats/elf-dynamic), when present */
	char *soname, *runpath;
	char **needed;
	/* the CUDA runtime it links ("13") or bundles ("13.0"; "" when the bundled one's
	 * version is not written in it): src/formats/cudart-ident.h */
	bool has_cudart, cudart_static;
	char cudart[16];
	char cubin_release[16];	       /* the toolkit of a compressed cubin decompressed, or "" */
	struct scan_verdict *verdicts; /* one per device, after scan_judge() */
};

struct scan_device {
	char *name; /* product name or NULL */
	unsigned major, minor;
	char *source; /* "--gpu 8.6", "snapshot: hardware.gpus.0 (0x10de:0x2684)" */
};

/* (dev, ino) of a file or directory seen: no file twice, no directory loop */
struct scan_ino {
	uint64_t dev, ino;
};

struct gpuenv_scan {
	struct gpuenv_ctx *ctx;
	struct gpuenv_scan_opts opts;
	struct scan_device devices[SCAN_MAX_DEVICES];
	size_t n_devices;
	char *driver; /* driver version or NULL */
	char *driver_source;
	struct scan_file *files;
	size_t n_files, cap_files;
	uint64_t files_seen, bytes_seen, duplicates, not_candidates;
	uint64_t too_deep; /* directories below --max-depth, not entered */
	bool hit_file_cap;
	struct scan_ino *seen; /* files and directories seen */
	size_t n_seen, cap_seen;
	size_t judged_devices; /* verdicts are valid for this many devices */
	bool judged;
	int unreadable_args; /* named paths that could not be read */
};

/* Walk / parse (scan.c). */
int scan_path(struct gpuenv_scan *s, const char *path);
/* Computes the verdicts for every file and device (idempotent). */
int scan_judge(struct gpuenv_scan *s);
/* Judges (scan_judge()) and counts: ret->sz bytes of the summary written (the caller checked
 * ret->sz). For the public gpuenv_scan_get_summary() and the renderers, which so do not call
 * back into the public src/libgpuenv-scan.c. */
int scan_summary(struct gpuenv_scan *s, struct gpuenv_scan_summary *ret);
void scan_file_done(struct scan_file *f);

/* Rendering (scan-render.c). */
int scan_render_text(struct gpuenv_scan *s, unsigned flags, char **ret);
int scan_render_json(struct gpuenv_scan *s, unsigned flags, char **ret);
