// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Both ends of the vendor child protocol described in session.h: the child's line writer and
 * the start every child shares (sandbox, dlopen, dlsym), and the parent's folding of the lines,
 * with the outcome of core/child.c (deadline, signal, exit status) turned into facts. JSON through
 * jansson.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox.h"
#include "session.h"
#include "shared/fact-state.h"
#include "shared/parse.h"

#define SESSION_MAX_OUTPUT ((size_t)4 << 20)
#define SESSION_MAX_STDERR ((size_t)64 << 10) /* kept; the rest is counted */
/* Private writable memory a session may add to what the child starts with (RLIMIT_DATA; see
 * core/child.c for why not RLIMIT_AS). */
#define SESSION_DATA_BUDGET ((uint64_t)1 << 30)
#define FOLD_MAX_DEPTH	    8
#define VW_KEY_MAX	    160 /* a dotted key with its base */

/* ---- child side ---------------------------------------------------------------- */

void vw_set_base(struct vwriter *w, const char *fmt, ...)
{
	va_list ap;

	if (!fmt) {
		w->base[0] = '\0';
		return;
	}
	va_start(ap, fmt);
	vsnprintf(w->base, sizeof(w->base), fmt, ap);
	va_end(ap);
}

static void vw_emit(struct vwriter *w, json_t *o)
{
	char *text;
	size_t len, off = 0;

	if (!o) {
		w->err = -ENOMEM;
		return;
	}
	text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	if (!text) {
		w->err = -ENOMEM;
		return;
	}
	len = strlen(text);
	text[len++] = '\n'; /* json_dumps' NUL becomes the line end; never read as a string again */
	while (off < len) {
		ssize_t k = write(w->fd, text + off, len - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->err = -EPIPE;
			break;
		}
		off += (size_t)k;
	}
	free(text);
}

/* key under the current base ("devices.3" + "name"). */
static void vw_full_key(const struct vwriter *w, const char *key, char full[VW_KEY_MAX])
{
	snprintf(full, VW_KEY_MAX, "%s%s%s", w->base, w->base[0] ? "." : "", key);
}

static json_t *vw_record(struct vwriter *w, const char *key, const char *call, const char *state)
{
	char full[VW_KEY_MAX];

	vw_full_key(w, key, full);
	return json_pack("{s:s, s:s, s:s}", "k", full, "c", call ? call : "?", "s", state);
}

void vw_begin(struct vwriter *w, const char *key, const char *call)
{
	char full[VW_KEY_MAX];

	w->call = call;
	if (!key) {
		vw_emit(w, json_pack("{s:s}", "b", call));
		return;
	}
	vw_full_key(w, key, full);
	vw_emit(w, json_pack("{s:s, s:s}", "b", call, "k", full));
}

static void vw_value(struct vwriter *w, const char *key, json_t *v)
{
	json_t *o = vw_record(w, key, w->call, "present");

	if (!o) {
		json_decref(v);
	} else if (v && json_object_set_new(o, "v", v) == 0) {
		vw_emit(w, o);
		return;
	} else {
		json_decref(o);
	}
	w->err = -ENOMEM;
}

/* Vendor and dlerror() strings are meant to be ASCII: bytes that would make invalid UTF-8 or
 * control characters become '?'. */
static json_t *safe_string(const char *value)
{
	_cleanup_free_ char *copy = NULL;
	json_t *v = json_string(value ? value : "");

	if (v || !value)
		return v;
	copy = strdup(value);
	for (char *c = copy; c && *c; c++)
		if ((unsigned char)*c >= 0x80 || (unsigned char)*c < 0x20)
			*c = '?';
	return copy ? json_string(copy) : NULL;
}

void vw_str(struct vwriter *w, const char *key, const char *value)
{
	vw_value(w, key, safe_string(value));
}

void vw_array(struct vwriter *w, const char *key)
{
	json_t *o = vw_record(w, key, "-", "present");

	if (o)
		json_object_set_new(o, "a", json_true());
	vw_emit(w, o);
}

void vw_int(struct vwriter *w, const char *key, int64_t value)
{
	vw_value(w, key, json_integer(value));
}

void vw_bool(struct vwriter *w, const char *key, bool value)
{
	vw_value(w, key, json_boolean(value));
}

void vw_state(struct vwriter *w, const char *key, const char *call, const char *state,
	      const char *fmt, ...)
{
	json_t *o = vw_record(w, key, call ? call : w->call, state);
	char msg[512];
	va_list ap;

	if (!o) {
		w->err = -ENOMEM;
		return;
	}
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		json_object_set_new(o, "e", safe_string(msg));
	}
	vw_emit(w, o);
}

void vw_not_called(struct vwriter *w, const char *call, const char *why, const char *const keys[])
{
	for (size_t i = 0; keys[i]; i++)
		vw_state(w, keys[i], call, "unprobed", "not called: %s", why);
}

/* The child's private directory (set in the child by session_child(), read by
 * vendor_child_load() for the Landlock rule): NULL where none could be made. */
static const char *session_private_dir;

bool vendor_child_load(struct vwriter *w, const struct vendor_req *req, const struct vendor_lib *vl,
		       void *table)
{
	const char *names[] = { req->library, NULL };
	_cleanup_free_ char *dlerr = NULL;
	struct dl_lib *lib = NULL;
	const char *missing = NULL;
	char why[128], landlock[64];
	int err;

	dl_child_sandbox();
	/* Before the dlopen: a library's constructors run under both too. */
	err = vendor_sandbox_landlock(session_private_dir);
	if (err < 0)
		snprintf(landlock, sizeof(landlock), "no landlock (%s)", strerror(-err));
	else
		snprintf(landlock, sizeof(landlock), "landlock ABI %d", err);
	/* From ABI 3 on, Landlock refuses creating and truncating files by path, which lets
	 * the filter allow O_CREAT/O_TRUNC where Landlock permits them (sandbox.h). */
	err = vendor_sandbox_seccomp(err >= 3);
	w->call = "seccomp";
	if (err < 0)
		snprintf(why, sizeof(why), "no seccomp (%s), %s",
			 err == -EAFNOSUPPORT ? "not built for this architecture" : strerror(-err),
			 landlock);
	else
		snprintf(why, sizeof(why), "seccomp, %s", landlock);
	vw_str(w, "sandbox", why);
	vw_begin(w, "library", "dlopen");
	err = dl_open(req->library ? names : vl->sonames, &lib, &dlerr);
	if (err < 0) {
		vw_state(w, "library", "dlopen", err == -ENOENT ? "absent" : "error", "%s",
			 dlerr ? dlerr : strerror(-err));
		snprintf(why, sizeof(why), "%s not loaded", vl->name);
		vw_not_called(w, "dlopen", why, vl->keys);
		return false;
	}
	vw_str(w, "library", dl_path(lib));
	/* No dl_close() ever: the child exits after its session, and vendor destructors have
	 * crashed on unload. */
	err = dl_resolve(lib, vl->symbols, vl->n_symbols, table, &missing);
	if (err < 0) {
		vw_state(w, vl->symbol_key, "dlsym", "error", "%s: %s is not exported",
			 vl->not_this, missing);
		for (const char *const *k = vl->keys; *k; k++)
			if (!streq(*k, vl->symbol_key))
				vw_state(w, *k, "dlsym", "unprobed", "not called: %s",
					 vl->not_this);
		return false;
	}
	return true;
}

/* ---- parent side --------------------------------------------------------------- */

static bool is_index(const char *s, size_t *ret)
{
	unsigned v;

	if (!*s || parse_uint(s, 10, &v) < 0)
		return false;
	*ret = v;
	return true;
}

static bool is_leaf(const json_t *j)
{
	return json_is_object(j) && json_is_string(json_object_get(j, "state"));
}

/* Puts leaf (stolen) at the dotted path inside tree. -EBADMSG when the path breaks the shape
 * (an index out of order, a fact where an object is, too deep). */
static int session_tree_put(json_t *tree, const char *path, json_t *leaf)
{
	_cleanup_free_ char *copy = strdup(path);
	char *seg[FOLD_MAX_DEPTH];
	size_t n = 0, idx;
	json_t *cur = tree;
	char *p, *save = NULL;

	if (!copy) {
		json_decref(leaf);
		return -ENOMEM;
	}
	for (p = strtok_r(copy, ".", &save); p; p = strtok_r(NULL, ".", &save)) {
		if (n == FOLD_MAX_DEPTH) {
			json_decref(leaf);
			return -EBADMSG;
		}
		seg[n++] = p;
	}
	if (n == 0 || is_index(seg[0], &idx)) {
		json_decref(leaf);
		return -EBADMSG;
	}
	for (size_t i = 0; i < n; i++) {
		bool last = i + 1 == n;
		bool want_array = !last && is_index(seg[i + 1], &idx);
		json_t *child;

		if (json_is_object(cur)) {
			if (is_index(seg[i], &idx))
				goto bad;
			child = json_object_get(cur, seg[i]);
			if (last) {
				/* An (empty) array marks a list that may stay empty. */
				if (json_is_array(leaf) && json_is_array(child)) {
					json_decref(leaf);
					return 0;
				}
				/* A fact replaces a fact; it never replaces a subtree. */
				if (child && !is_leaf(child))
					goto bad;
				return json_object_set_new(cur, seg[i], leaf) < 0 ? -ENOMEM : 0;
			}
			if (!child || is_leaf(child)) {
				child = want_array ? json_array() : json_object();
				if (!child || json_object_set_new(cur, seg[i], child) < 0) {
					json_decref(leaf);
					return -ENOMEM;
				}
			}
		} else if (json_is_array(cur)) {
			if (!is_index(seg[i], &idx) || last || idx > json_array_size(cur))
				goto bad; /* arrays hold objects, appended in order */
			child = json_array_get(cur, idx);
			if (!child) {
				child = json_object();
				if (!child || json_array_append_new(cur, child) < 0) {
					json_decref(leaf);
					return -ENOMEM;
				}
			}
		} else {
			goto bad;
		}
		if (want_array != json_is_array(child))
			goto bad;
		cur = child;
	}
bad:
	json_decref(leaf);
	return -EBADMSG;
}

json_t *session_make_leaf(const char *state, const char *source, const char *error, json_t *value)
{
	json_t *o = json_pack("{s:s, s:s}", "state", state, "source", source);

	if (!o) {
		json_decref(value);
		return NULL;
	}
	if (error)
		json_object_set_new(o, "error", json_string(error));
	if (value)
		json_object_set_new(o, "value", value);
	return o;
}

int vendor_fold(const char *text, size_t len, const char *prefix, json_t *tree,
		char **ret_pending_key, char **ret_pending_call)
{
	_cleanup_free_ char *pending_key = NULL, *pending_call = NULL;
	const char *p = text, *end = text + len;
	int bad = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		json_t *o, *v;
		const char *k, *c, *s, *e, *b;
		char source[256];

		if (!nl)
			break; /* a line cut by the deadline or a crash: dropped */
		o = json_loadb(p, (size_t)(nl - p), JSON_REJECT_DUPLICATES, NULL);
		p = nl + 1;
		if (!json_is_object(o)) {
			json_decref(o);
			bad++;
			continue;
		}
		if (json_object_get(o, "end")) {
			json_decref(o); /* the completion line, judged by vendor_session_run() */
			continue;
		}
		b = json_string_value(json_object_get(o, "b"));
		k = json_string_value(json_object_get(o, "k"));
		if (b) {
			free(pending_key);
			free(pending_call);
			pending_key = k ? strdup(k) : NULL;
			pending_call = strdup(b);
			json_decref(o);
			if (!pending_call || (k && !pending_key))
				return -ENOMEM;
			continue;
		}
		c = json_string_value(json_object_get(o, "c"));
		s = json_string_value(json_object_get(o, "s"));
		e = json_string_value(json_object_get(o, "e"));
		v = json_object_get(o, "v");
		if (!k || !c || !s || fact_state_from_string(s) < 0 ||
		    (v && !json_is_string(v) && !json_is_integer(v) && !json_is_boolean(v)) ||
		    (v && !streq(s, "present"))) {
			json_decref(o);
			bad++;
			continue;
		}
		snprintf(source, sizeof(source), "%s%s", prefix, c);
		if (json_is_true(json_object_get(o, "a"))) {
			int r = session_tree_put(tree, k, json_array());

			json_decref(o);
			if (r == -ENOMEM)
				return r;
			if (r < 0)
				bad++;
			continue;
		}
		if (pending_key && streq(pending_key, k)) {
			free(pending_key);
			free(pending_call);
			pending_key = pending_call = NULL;
		}
		{
			json_t *leaf = session_make_leaf(s, source, e, v ? json_incref(v) : NULL);
			int r;

			if (!leaf) {
				json_decref(o);
				return -ENOMEM;
			}
			r = session_tree_put(tree, k, leaf);
			if (r == -ENOMEM) {
				json_decref(o);
				return r;
			}
			if (r < 0)
				bad++;
		}
		json_decref(o);
	}
	if (ret_pending_key)
		*ret_pending_key = TAKE_PTR(pending_key);
	if (ret_pending_call)
		*ret_pending_call = TAKE_PTR(pending_call);
	return bad;
}

/* The last line of a session that ran to its end (written by session_child(), after the
 * session's own function returned): a library that calls exit(0) halfway never writes it. */

/* Caches and settings a library might write go to the private directory: HOME and the XDG
 * base directories (XDG Base Directory Specification), PoCL's kernel cache (POCL_CACHE_DIR,
 * PoCL documentation "Environment variables") and the CUDA JIT cache (CUDA_CACHE_PATH, CUDA
 * C++ Programming Guide "CUDA Environment Variables"), which is also switched off. */
static void private_env(const char *dir)
{
	static const char *const vars[][2] = {
		{ "HOME", "" },
		{ "XDG_CACHE_HOME", "/.cache" },
		{ "XDG_CONFIG_HOME", "/.config" },
		{ "XDG_DATA_HOME", "/.local/share" },
		{ "XDG_STATE_HOME", "/.local/state" },
		{ "TMPDIR", "" },
		{ "POCL_CACHE_DIR", "/.cache/pocl" },
		{ "CUDA_CACHE_PATH", "/.nv" },
	};
	char buf[4096];

	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		snprintf(buf, sizeof(buf), "%s%s", dir, vars[i][1]);
		setenv(vars[i][0], buf, 1);
	}
	setenv("CUDA_CACHE_DISABLE", "1", 1);
}

int session_child(int fd, void *userdata)
{
	const struct session_child_args *a = userdata;
	int r;

	/* No private directory (it could not be made): somewhere that does not exist. */
	session_private_dir = a->dir;
	private_env(a->dir ? a->dir : "/nonexistent/gpuenv");
	for (const char *const *e = a->vs->env; e && e[0] && e[1]; e += 2) {
		char buf[4096];

		snprintf(buf, sizeof(buf), "%s/%s", a->dir ? a->dir : "/nonexistent/gpuenv", e[1]);
		setenv(e[0], buf, 1);
	}
	r = a->vs->fn(fd, a->vs->userdata);
	if (r == 0 && write(fd, SESSION_COMPLETE, strlen(SESSION_COMPLETE)) < 0)
		r = 1;
	return r;
}

static bool session_ends_complete(const struct child_result *cr)
{
	size_t n = strlen(SESSION_COMPLETE);

	return cr->output_len >= n &&
	       memcmp(cr->output + cr->output_len - n, SESSION_COMPLETE, n) == 0;
}

static char *session_describe_failure(const struct child_result *cr, unsigned timeout_ms,
				      const char *call, int bad_lines)
{
	char *s = NULL;
	const char *sig;
	int r;

	if (cr->timed_out && cr->stuck.pid > 0)
		r = asprintf(&s,
			     "timed out after %u ms%s%s: task %d (%s) is in uninterruptible sleep "
			     "(D state) in the kernel%s%s, a driver call that does not return and "
			     "that no signal ends",
			     timeout_ms, call ? " in " : "", call ? call : "", cr->stuck.pid,
			     cr->stuck.comm, cr->stuck.wchan[0] ? " at " : "", cr->stuck.wchan);
	else if (cr->timed_out)
		r = asprintf(&s, "timed out after %u ms%s%s%s%s", timeout_ms, call ? " in " : "",
			     call ? call : "",
			     call ? " (the call never returned; child killed)" : "",
			     cr->reaped ? "" : "; the child did not exit after SIGKILL");
	else if (cr->term_signal) {
		sig = sigabbrev_np(cr->term_signal);
		r = asprintf(&s, "the vendor library crashed: SIG%s%s%s", sig ? sig : "?",
			     call ? " in " : "", call ? call : "");
	} else if (cr->exit_status != 0)
		r = asprintf(&s, "the vendor child exited with status %d%s%s", cr->exit_status,
			     call ? " in " : "", call ? call : "");
	else if (!session_ends_complete(cr))
		r = asprintf(&s, "session ended early: exit(0) during %s",
			     call ? call : "the session");
	else if (cr->truncated)
		r = asprintf(&s, "the vendor child wrote more than %zu bytes", SESSION_MAX_OUTPUT);
	else if (bad_lines)
		r = asprintf(&s, "%d unreadable line(s) from the vendor child", bad_lines);
	else if (cr->strays)
		r = asprintf(&s, "the vendor library left %u process(es) running (killed)",
			     cr->strays);
	else
		return NULL;
	if (r >= 0 && cr->strays &&
	    (cr->timed_out || cr->term_signal || cr->exit_status != 0 ||
	     !session_ends_complete(cr))) {
		char *more = NULL;

		r = asprintf(&more, "%s; it left %u process(es) running (killed)", s, cr->strays);
		free(s);
		s = more;
	}
	return r < 0 ? NULL : s;
}

/* Stderr as one string fact: control bytes, DEL and bytes that are not ASCII as \xHH (a
 * library's diagnostics are ASCII; the rest would be a terminal escape or invalid UTF-8),
 * with how much was not kept. */
static json_t *session_stderr_leaf(const struct child_result *cr, const char *source)
{
	_cleanup_free_ char *text = malloc(cr->errout_len * 4 + 96);
	char *o = text;

	if (!text)
		return NULL;
	for (size_t i = 0; i < cr->errout_len; i++) {
		unsigned char c = (unsigned char)cr->errout[i];

		if (c == '\n' || (c >= 0x20 && c < 0x7f))
			*o++ = (char)c;
		else
			o += sprintf(o, "\\x%02x", c);
	}
	if (cr->errout_total > cr->errout_len)
		sprintf(o, "\n[%llu more bytes not kept]",
			(unsigned long long)(cr->errout_total - cr->errout_len));
	else
		*o = '\0';
	return session_make_leaf("present", source, NULL, json_string(text));
}

/* The "sandbox" fact the child wrote (its seccomp filter), with how the parent held it. */
static int session_sandbox_leaf(json_t *tree, const struct child_result *cr, const char *prefix,
				bool private_dir, uint64_t budget)
{
	const char *seccomp =
		json_string_value(json_object_get(json_object_get(tree, "sandbox"), "value"));
	_cleanup_free_ char *v = NULL;
	char source[256];
	json_t *leaf;

	if (asprintf(&v, "%s, %s, RLIMIT_DATA +%u MiB, RLIMIT_FSIZE 0, %s",
		     cr->containment ? cr->containment : CHILD_CONTAIN_PGROUP,
		     seccomp ? seccomp : "seccomp not reached", (unsigned)(budget >> 20),
		     private_dir ? "private HOME" : "HOME unset (no private directory)") < 0)
		return -ENOMEM;
	snprintf(source, sizeof(source), "%schild", prefix);
	leaf = session_make_leaf("present", source, NULL, json_string(v));
	if (!leaf || json_object_set_new(tree, "sandbox", leaf) < 0)
		return -ENOMEM;
	return 0;
}

/* Writes the private directory's files ("name", "text" pairs; a name may have one directory). */
static int session_put_files(const char *dir, const char *const *files)
{
	for (const char *const *f = files; f && f[0] && f[1]; f += 2) {
		int err = child_tmpdir_put(dir, f[0], f[1]);

		if (err < 0)
			return err;
	}
	return 0;
}

/* A deadline missed inside the kernel (a task of the child's tree in D state, read before the
 * kill): the fact "session_stuck", the kernel function it waits in, for the rules to name. */
static int session_stuck_leaf(const struct vendor_session *vs, const struct child_result *cr,
			      json_t *tree)
{
	char source[64];
	json_t *leaf;

	if (!cr->timed_out || cr->stuck.pid <= 0)
		return 0;
	snprintf(source, sizeof(source), "%schild", vs->prefix);
	leaf = session_make_leaf("present", source, NULL,
				 json_string(cr->stuck.wchan[0] ? cr->stuck.wchan : "unknown"));
	return leaf && json_object_set_new(tree, "session_stuck", leaf) == 0 ? 0 : -ENOMEM;
}

int session_result(const struct vendor_session *vs, const struct child_result *cr, bool private_dir,
		   uint64_t data_budget, struct vendor_result *ret)
{
	struct vendor_result res = { .elapsed_ms = cr->elapsed_ms };
	_cleanup_free_ char *pkey = NULL, *pcall = NULL;
	char source[256];
	int bad;

	res.tree = json_object();
	if (!res.tree)
		return -ENOMEM;
	bad = vendor_fold(cr->output, cr->output_len, vs->prefix, res.tree, &pkey, &pcall);
	if (bad >= 0 &&
	    session_sandbox_leaf(res.tree, cr, vs->prefix, private_dir, data_budget) < 0)
		bad = -ENOMEM;
	snprintf(source, sizeof(source), "%sstderr", vs->prefix);
	if (bad >= 0 && cr->errout_total > 0 &&
	    json_object_set_new(res.tree, "stderr", session_stderr_leaf(cr, source)) < 0)
		bad = -ENOMEM;
	if (bad < 0) {
		vendor_result_done(&res);
		return bad;
	}
	/* A clean exit with a call still pending is a session that lost its line: say so. */
	res.failure = session_describe_failure(cr, vs->timeout_ms, pcall, bad);
	if (res.failure) {
		snprintf(source, sizeof(source), "%s%s", vs->prefix, pcall ? pcall : "child");
		/* The call that never returned gets the failure as its own fact. */
		if (pkey) {
			json_t *leaf = session_make_leaf("error", source, res.failure, NULL);

			if (!leaf || session_tree_put(res.tree, pkey, leaf) == -ENOMEM) {
				vendor_result_done(&res);
				return -ENOMEM;
			}
		}
		if (session_not_reached(vs, res.tree, source, res.failure) < 0 ||
		    session_stuck_leaf(vs, cr, res.tree) < 0) {
			vendor_result_done(&res);
			return -ENOMEM;
		}
	}
	*ret = res;
	return 0;
}

int session_not_reached(const struct vendor_session *vs, json_t *tree, const char *source,
			const char *failure)
{
	/* Top-level facts the session never reached are not "fine": they carry it too. */
	for (const char *const *k = vs->expected_keys; k && *k; k++) {
		_cleanup_free_ char *msg = NULL;
		json_t *leaf;

		if (json_object_get(tree, *k))
			continue;
		if (asprintf(&msg, "not reached: %s", failure) < 0)
			return -ENOMEM;
		leaf = session_make_leaf("error", source, msg, NULL);
		if (!leaf || session_tree_put(tree, *k, leaf) == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

void session_child_opts(const struct vendor_session *vs, struct child_opts *opts)
{
	*opts = (struct child_opts){
		.timeout_ms = vs->timeout_ms,
		.max_output = SESSION_MAX_OUTPUT,
		.max_stderr = SESSION_MAX_STDERR,
		.data_budget = vs->data_budget ? vs->data_budget : SESSION_DATA_BUDGET,
		.no_file_growth = true,
		.no_pid_namespace = vs->host_pid_namespace,
	};
}

int session_make_private_dir(const struct vendor_session *vs, char **ret)
{
	*ret = NULL;
	if (child_tmpdir_create(ret) < 0)
		return 0; /* the child gets a HOME that does not exist instead */
	if (session_put_files(*ret, vs->private_files) < 0) {
		child_tmpdir_remove(*ret);
		free(*ret);
		*ret = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* A session between vendor_session_start() and vendor_finish(): the child's job, its private
 * directory, and what session_result() reads of the vendor_session (prefix, timeout, expected
 * keys: static data). The child took its own copy of the rest at the fork. */
struct vendor_pending {
	struct child_job *job;	     /* NULL once settled */
	struct child_result settled; /* vendor_settle()'s, when job is NULL */
	int settled_err;
	char *dir; /* the child's private directory, or NULL */
	uint64_t data_budget;
	struct vendor_session vs;
};

static void pending_free(struct vendor_pending *p)
{
	/* Whatever the library left there goes with it: gpuenv leaves the machine as it was. */
	child_tmpdir_remove(p->dir);
	free(p->dir);
	free(p);
}

int vendor_session_start(const struct vendor_session *vs, struct vendor_pending **ret)
{
	struct vendor_pending *p = calloc(1, sizeof(*p));
	struct session_child_args args = { .vs = vs };
	struct child_opts opts;
	int err;

	if (!p)
		return -ENOMEM;
	session_child_opts(vs, &opts);
	p->data_budget = opts.data_budget;
	p->vs = (struct vendor_session){ .prefix = vs->prefix,
					 .timeout_ms = vs->timeout_ms,
					 .expected_keys = vs->expected_keys };
	if (session_make_private_dir(vs, &p->dir) < 0) {
		free(p);
		return -ENOMEM;
	}
	args.dir = p->dir;
	if (vs->exec) {
		struct vendor_keep_exec what = vs->exec_what;

		what.dir = p->dir;
		/* the deadline child_start_fn() would have set (the start's, plus the timeout) */
		what.deadline_ms = child_now_ms() + opts.timeout_ms;
		/* the launcher's data is copied into the forked process with the stack */
		err = child_start_exec(vs->exec, &what, &opts, &p->job);
	} else {
		/* The child takes its copy of args, vs and opts at the fork. */
		err = child_start_fn(session_child, &args, &opts, &p->job);
	}
	if (err < 0) {
		pending_free(p);
		return err;
	}
	*ret = p;
	return 0;
}

void vendor_pump(struct vendor_pending *p)
{
	if (p && p->job)
		child_pump(p->job);
}

int vendor_settle(struct vendor_pending *p)
{
	if (p->job) {
		p->settled_err = child_collect(p->job, &p->settled);
		p->job = NULL;
	}
	return p->settled_err;
}

int vendor_finish(struct vendor_pending *p, struct vendor_result *ret)
{
	struct child_result cr;
	int err = vendor_settle(p);

	cr = p->settled;
	p->settled = (struct child_result){ 0 };
	if (err >= 0) {
		err = session_result(&p->vs, &cr, p->dir, p->data_budget, ret);
		child_result_done(&cr);
	}
	pending_free(p);
	return err;
}

void vendor_cancel(struct vendor_pending *p)
{
	if (!p)
		return;
	if (p->job)
		child_cancel(p->job);
	else if (p->settled_err >= 0)
		child_result_done(&p->settled);
	pending_free(p);
}

int vendor_run(int (*start)(const struct vendor_req *, struct vendor_pending **),
	       const struct vendor_req *req, struct vendor_result *ret)
{
	struct vendor_pending *p;
	int err = start(req, &p);

	return err < 0 ? err : vendor_finish(p, ret);
}

void vendor_result_done(struct vendor_result *r)
{
	if (!r)
		return;
	json_decref(r->tree);
	r->tree = NULL;
	free(r->failure);
	r->failure = NULL;
}
