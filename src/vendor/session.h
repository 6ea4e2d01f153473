/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The protocol between a vendor child and gpuenv (internal to src/vendor/). The child writes
 * one compact JSON object per line to the pipe, each written with one write(2) as soon as it
 * is known, so whatever came before a hang or a crash survives:
 *   {"b":"nvmlDeviceGetCount_v2","k":"device_count"}           a call is about to be made
 *   {"k":"device_count","c":"nvmlDeviceGetCount_v2","s":"present","v":8}
 *   {"k":"devices.0.fan","c":"nvmlDeviceGetFanSpeed","s":"unsupported","e":"…"}
 *   {"k":"devices","c":"-","s":"present","a":true}             an array, possibly empty
 * "k" is a dotted path; a numeric component is an array index (appended in order).
 * The parent folds the lines into a vendor_result tree; a "b" line with no answer after it
 * names the call that hung or crashed.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "core/child.h"
#include "shared/macro.h"
#include "vendor.h"

struct vwriter {
	int fd;
	const char *call; /* the call of the last vw_begin(): the source of the next value */
	char base[64];	  /* prefix of relative keys ("devices.3"), "" at the top */
	int err;
};

void vw_set_base(struct vwriter *w, const char *fmt, ...) _printf_(2, 3);
void vw_begin(struct vwriter *w, const char *key, const char *call);
void vw_str(struct vwriter *w, const char *key, const char *value);
/* An array at key that stays there even when nothing is appended to it. */
void vw_array(struct vwriter *w, const char *key);
void vw_int(struct vwriter *w, const char *key, int64_t value);
void vw_bool(struct vwriter *w, const char *key, bool value);
/* A fact in a state other than present; call NULL = the last vw_begin()'s. */
void vw_state(struct vwriter *w, const char *key, const char *call, const char *state,
	      const char *fmt, ...) _printf_(5, 6);

struct vendor_session {
	child_fn fn;
	void *userdata;
	unsigned timeout_ms;
	const char *prefix;		  /* "nvml:" */
	const char *const *expected_keys; /* top-level keys every result has (NULL-terminated) */
};

/* Runs the session in a child and folds its output into ret. -errno only when the child
 * could not be started or on OOM. */
int vendor_session_run(const struct vendor_session *vs, struct vendor_result *ret);

/* Folds protocol text into a tree (exposed for the unit tests). */
int vendor_fold(const char *text, size_t len, const char *prefix, json_t *tree,
		char **ret_pending_key, char **ret_pending_call);
