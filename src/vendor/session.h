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
#include "dl.h"
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
/* Facts left uncalled because of `call` (a dlopen or an init that failed): each of keys[]
 * (NULL-terminated) becomes "unprobed", "not called: <why>". */
void vw_not_called(struct vwriter *w, const char *call, const char *why, const char *const keys[]);

/* The library a vendor child loads, and what to say when it cannot. */
struct vendor_lib {
	const char *const *sonames; /* tried in order when the request names no library */
	const char *name;	    /* "libnvidia-ml", in "not called: libnvidia-ml not loaded" */
	const char *not_this;	    /* "not an NVML library": a required symbol is missing */
	const char *symbol_key;	    /* the fact that names the missing symbol */
	const char *const *keys;    /* the facts after "library", unprobed when it fails to load */
	const struct dl_symbol *symbols; /* resolved into the child's function table */
	size_t n_symbols;
};

/*
 * The start every vendor child shares: dl_child_sandbox(), the dlopen of req->library or
 * vl->sonames with its "library" fact, then dl_resolve() into table. False when the library
 * is unusable, after writing what that costs (every key unprobed when it does not load; the
 * missing symbol as an error on symbol_key and the other keys unprobed when it is not the
 * library it should be): the child then ends.
 */
bool vendor_child_load(struct vwriter *w, const struct vendor_req *req, const struct vendor_lib *vl,
		       void *table);

struct vendor_session {
	child_fn fn;
	void *userdata;
	unsigned timeout_ms;
	const char *prefix;		  /* "nvml:" */
	const char *const *expected_keys; /* top-level keys every result has (NULL-terminated) */
	/* The child's private directory (its HOME, caches, TMPDIR; removed afterwards): files
	 * to write there first, "name", "text" pairs, NULL-terminated; variables to point into
	 * it, "NAME", "path under it" pairs. */
	const char *const *private_files;
	const char *const *env;
	/* Run in gpuenv's PID namespace (held by a subreaper instead of a namespace of its
	 * own): libcuda needs it (core/child.h, no_pid_namespace). */
	bool host_pid_namespace;
	/* RLIMIT_DATA the session may add (core/child.h data_budget); 0: the default, 1 GiB. */
	uint64_t data_budget;
	/* Its tree started by this program launcher instead of forked (vendor.h
	 * vendor_keep_exec), told what exec_what says (its dir and deadline are filled in at
	 * the start). NULL: forked. */
	child_exec_fn exec;
	struct vendor_keep_exec exec_what;
	/* A session that stays for one sweep (vendor_req's serial). */
	bool serial;
};

/* Starts the session in a child (vendor_finish() folds its output into a result; see
 * vendor.h). -errno only when the child could not be started or on OOM. The result also gets
 * "sandbox" (how the child was held) and, when the library wrote to stderr, "stderr" (64 KiB
 * kept, control bytes as \xHH). A child that exits 0 without writing its completion line
 * "ended early". */
int vendor_session_start(const struct vendor_session *vs, struct vendor_pending **ret);

/* Folds protocol text into a tree (exposed for the unit tests). */
int vendor_fold(const char *text, size_t len, const char *prefix, json_t *tree,
		char **ret_pending_key, char **ret_pending_call);

/* ---- shared by session.c and session-keep.c ---------------------------------------- */

/* The last line of a session that ran to its end (written by session_child(), after the
 * session's own function returned): a library that calls exit(0) halfway never writes it. */
#define SESSION_COMPLETE "{\"end\":\"complete\"}\n"

struct session_child_args {
	const struct vendor_session *vs;
	const char *dir; /* the private directory, or NULL */
};

/* The child's start (its private directory and environment), then vs->fn. */
int session_child(int fd, void *userdata);
void session_child_opts(const struct vendor_session *vs, struct child_opts *opts);
/* Makes the private directory with vs->private_files (*ret NULL where none could be made). */
int session_make_private_dir(const struct vendor_session *vs, char **ret);
/* What a child wrote, with how it ended, as a result: the folded tree, "sandbox", "stderr",
 * and the failure on the pending call and on every expected key never reached. */
int session_result(const struct vendor_session *vs, const struct child_result *cr, bool private_dir,
		   uint64_t data_budget, struct vendor_result *ret);
int session_not_reached(const struct vendor_session *vs, json_t *tree, const char *source,
			const char *failure);
json_t *session_make_leaf(const char *state, const char *source, const char *error, json_t *value);

/*
 * A session that stays (session-keep.c): the child opens the library once, then answers
 * each request on its request pipe (core/child.h child_request_fd()) with one sweep, ended by a line of its own; the parent
 * asks for a sweep under the session's deadline and restarts the child, with a backoff,
 * when it hangs, dies or writes what the protocol does not allow.
 */
/* Child side: writes the end of the opening, then one sweep per request until the parent
 * closes the request pipe. */
void vendor_keep_serve(struct vwriter *w, void (*sweep)(void *userdata), void *userdata);
/* Parent side: one sweep from *keep's child (started, or restarted, as needed). */
int vendor_keep_sample(struct vendor_keep **keep, const struct vendor_session *vs,
		       struct vendor_result *ret);
