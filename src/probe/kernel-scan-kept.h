/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The GPU code found in a library, kept by a capture and replayed (kernel-scan-kept.c). */
#pragma once

#include "fatbin/fatbin-targets.h"
#include "probe.h"

struct kernel_scan_id {
	uint64_t size;
	char head[17]; /* FNV-1a 64 of the first 4 KiB, hex */
};

/* The identity of the open file (its first 4 KiB read through f: traced, so kept). */
int kernel_scan_identity(const struct root_file *f, struct kernel_scan_id *ret);
/* The result a capture kept for path when the file there has identity id: 1 with *ret_r and
 * k filled, 0 when none applies (no capture, another file: scan it), -ENOMEM. */
int kernel_scan_replay(struct probe_env *pe, const char *path, const struct kernel_scan_id *id,
		       struct fatbin_targets *k, int *ret_r);
/* Whether a capture being replayed kept a result for path (then it is replayed, never
 * scanned again). */
bool kernel_scan_kept_for(struct probe_env *pe, const char *path);
/* The parser under kernel_scan_replay() (fuzz target kernel-scan-kept): a kept result's text
 * into *ret_r and k when it is for a file of identity id (1); 0: another file's; -EBADMSG:
 * not a kept result (k left empty); -ENOMEM. */
int kernel_scan_parse(const char *text, size_t len, const struct kernel_scan_id *id,
		      struct fatbin_targets *k, int *ret_r);
/* The text kernel_scan_keep() stores (JSON, keys sorted); NULL on OOM. */
char *kernel_scan_format(const struct kernel_scan_id *id, int r, const struct fatbin_targets *k);
/* Keeps the scan's result r and k for path (a no-op unless capturing). */
int kernel_scan_keep(struct probe_env *pe, const char *path, const struct kernel_scan_id *id, int r,
		     const struct fatbin_targets *k);
