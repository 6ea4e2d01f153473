/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Log collectors' line prefixes taken off pasted text: see pasted-prefixes.h. */
#include "formats/pasted-prefixes.h"
#include "formats/kernel-log.h"

#include <stdbool.h>
#include <string.h>

enum kind {
	KIND_NONE,
	KIND_COMPOSE, /* docker compose / docker-compose: "<service>-<n>  | " */
	KIND_KUBECTL, /* kubectl logs --prefix: "[pod/<name>/<container>] " */
	KIND_SYSLOG,  /* syslog / journalctl short: "<time> <host> <prog>[<pid>]: " */
	KIND_ACTIONS, /* GitHub Actions: "2024-05-01T10:11:12.1234567Z " */
};

struct line {
	size_t start, len;
	enum kind kind;
	size_t cut; /* the prefix's length (0: a line of its kind that keeps it: "kernel: ") */
	size_t col; /* compose: the column of its "|", the same on every line of a run */
	size_t keep_off, keep_len; /* what is kept of it whatever its neighbours (`uname -a`) */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t digits(const char *l, size_t n, size_t i)
{
	size_t k = i;

	while (k < n && is_digit(l[k]))
		k++;
	return k - i;
}

/* Whether l[i..] holds exactly "dd<sep>" (or "dd" with sep 0 and the line's end next). */
static bool two_digits(const char *l, size_t n, size_t i, char sep)
{
	return i + 2 <= n && is_digit(l[i]) && is_digit(l[i + 1]) &&
	       (sep ? i + 2 < n && l[i + 2] == sep : true);
}

/* The length of an ISO 8601 time at l[0..n): "YYYY-MM-DDTHH:MM:SS", an optional fraction
 * (1 to 9 digits) and a zone ("Z", "+0000" or "+00:00"); 0 when l holds none. */
static size_t iso_time(const char *l, size_t n)
{
	size_t i = 0, f;

	if (digits(l, n, 0) != 4 || n < 19 || l[4] != '-' || !two_digits(l, n, 5, '-') ||
	    !two_digits(l, n, 8, 'T') || !two_digits(l, n, 11, ':') || !two_digits(l, n, 14, ':') ||
	    !two_digits(l, n, 17, 0))
		return 0;
	i = 19;
	if (i < n && l[i] == '.') {
		f = digits(l, n, i + 1);
		if (f < 1 || f > 9)
			return 0;
		i += 1 + f;
	}
	if (i < n && l[i] == 'Z')
		return i + 1;
	if (i < n && (l[i] == '+' || l[i] == '-') && two_digits(l, n, i + 1, 0)) {
		i += 3;
		if (i < n && l[i] == ':')
			i++;
		return two_digits(l, n, i, 0) ? i + 2 : 0;
	}
	return 0;
}

/* GitHub Actions writes each step's log line after its UTC time with seven fractional digits
 * and a space ("2024-05-01T10:11:12.1234567Z "; docs.github.com, "Using workflow run logs":
 * the downloaded logs' timestamps). */
static size_t actions_prefix(const char *l, size_t n)
{
	size_t t = iso_time(l, n);

	if (!t || l[t - 1] != 'Z')
		return 0;
	return t == n ? t : l[t] == ' ' ? t + 1 : 0;
}

/* Whether a name without an index and what follows its "|" read as a table's row rather than
 * a container's line: a first cell that does not start with a letter ("0     | A100"), or a
 * row closed by " |" ("GPU    | A100 |"), unless the line itself starts as a table inside the
 * log ("| NVIDIA-SMI 535…", "+----"). A further " | " alone is no sign: ollama's own lines carry
 * them ("[GIN] 2026/07/23 - 23:03:17 | 200 | …"). */
static bool table_row(const char *name, const char *l, size_t n)
{
	bool letter = (name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z');

	if (!letter)
		return true;
	return n >= 2 && l[0] != '|' && l[0] != '+' && l[n - 2] == ' ' && l[n - 1] == '|';
}

/* docker compose prints each container's line after its name padded to one past the longest
 * name's width and " | " (docker/compose cmd/formatter/logs.go, setPrefix: "%-<width>s | ",
 * width the longest name + 1: "vllm-1  | "; docker-compose 1.x pads to the longest name:
 * "vllm_1  | ", docs.docker.com "docker compose logs" examples). The name is the service's
 * with the container's index ("-<n>", "_<n>"), or the compose file's container_name, any
 * shape compose allows ("my-app", "ollama", "vllm.server"). A v2 line has two spaces at least
 * before its "|", where a table's "gpu-0 | 535" has one (so a docker-compose 1.x line of the
 * longest container_name keeps its prefix); a name without an index, which a table's first
 * cell can look like, is taken only where the line is no table row.
 * *ret_col: the "|". */
static size_t compose_prefix(const char *l, size_t n, size_t *ret_col)
{
	size_t i = 0, d, sp, cut;
	bool indexed;

	while (i < n && i < 128 &&
	       ((l[i] >= 'a' && l[i] <= 'z') || (l[i] >= 'A' && l[i] <= 'Z') || is_digit(l[i]) ||
		l[i] == '-' || l[i] == '_' || l[i] == '.'))
		i++;
	if (i >= n || l[i] != ' ')
		return 0;
	for (d = 0; d < i && is_digit(l[i - 1 - d]);)
		d++;
	indexed = d && d + 2 <= i && (l[i - 1 - d] == '-' || l[i - 1 - d] == '_');
	sp = i;
	while (i < n && l[i] == ' ')
		i++;
	/* only docker-compose 1.x ("_<n>") pads the longest name with one space */
	if (i >= n || l[i] != '|' || (i - sp < 2 && !(indexed && l[sp - 1 - d] == '_')))
		return 0;
	cut = i + 1 == n ? n : l[i + 1] == ' ' ? i + 2 : 0;
	if (!cut || (!indexed && table_row(l, l + cut, n - cut)))
		return 0;
	*ret_col = i;
	return cut;
}

/* kubectl logs --prefix: "[pod/<pod>/<container>] " before each line (kubernetes.io,
 * kubectl logs: "--prefix: Prefix each log line with the log source (pod name and container
 * name)"). */
static size_t kubectl_prefix(const char *l, size_t n)
{
	size_t i = 5, slash = 0;

	if (n < 10 || memcmp(l, "[pod/", 5) != 0)
		return 0;
	for (; i < n && l[i] != ']'; i++) {
		if (l[i] == ' ' || l[i] == '\t' || (l[i] == '/' && (slash || i == 5)))
			return 0;
		if (l[i] == '/')
			slash = i;
	}
	if (!slash || i >= n || i == slash + 1)
		return 0;
	return i + 1 == n ? n : l[i + 1] == ' ' ? i + 2 : 0;
}

/* The syslog time of RFC 3164 §4.1.2 as journalctl's short format writes it
 * (journalctl(1), --output=short: "Dec 07 10:01:02", syslog's "Dec  7 10:01:02"; short-precise
 * adds microseconds), or short-iso's ISO 8601 time: its length, 0 when l holds none. */
static size_t syslog_time(const char *l, size_t n)
{
	return is_digit(l[0]) ? iso_time(l, n) : klog_short_time(l, n);
}

/* "<time> <host> <prog>[<pid>]: ", the prefix of a program's line in syslog and journalctl's
 * short formats; a kernel line ("<time> <host> kernel: ") is of the kind but keeps its prefix:
 * the kernel-log reader reads it with it. *ret_keep: such a line. */
static size_t syslog_prefix(const char *l, size_t n, bool *ret_keep)
{
	size_t i = syslog_time(l, n), p;

	if (!i || i >= n || l[i] != ' ')
		return 0;
	i++;
	p = i;
	while (i < n && l[i] != ' ' && l[i] != '\t')
		i++;
	if (i == p || i >= n)
		return 0;
	p = ++i; /* the program's name */
	while (i < n && l[i] != ' ' && l[i] != '[' && l[i] != ':')
		i++;
	if (i == p || i >= n)
		return 0;
	if (l[i] == ':' && i - p == 6 && memcmp(l + p, "kernel", 6) == 0) {
		*ret_keep = true;
		return i + 1;
	}
	if (l[i] != '[' || !digits(l, n, i + 1))
		return 0;
	i += 1 + digits(l, n, i + 1);
	if (i + 1 >= n || l[i] != ']' || l[i + 1] != ':')
		return 0;
	i += 2;
	return i == n ? n : l[i] == ' ' ? i + 1 : 0;
}

/* `uname -a` quoted in prose as inline code ("on `Linux gpu1 6.5.0-14-generic #14-Ubuntu SMP
 * … GNU/Linux`"): the code span alone is the line the uname reader reads ("#" after the
 * release, as it asks). */
static void uname_span(struct line *ln, const char *l, size_t n)
{
	const char *open = memchr(l, '`', n), *close;

	if (!open || (size_t)(open - l) + 7 > n || memcmp(open + 1, "Linux ", 6) != 0)
		return;
	close = memchr(open + 1, '`', n - (size_t)(open + 1 - l));
	if (!close || !memmem(open + 1, (size_t)(close - open - 1), " #", 2))
		return;
	ln->keep_off = (size_t)(open + 1 - l);
	ln->keep_len = (size_t)(close - open - 1);
}

/* The walk over the text: where the next "`" and "|" are (len: none), each found once for
 * the whole text, so that a line without one (most) is never searched for it. */
struct walk {
	const char *text;
	size_t len, tick, pipe;
};

/* Whether the line at start, n bytes, holds c; *next: c's next position in the text. */
static bool line_holds(const struct walk *wk, size_t *next, char c, size_t start, size_t n)
{
	if (*next < start) {
		const char *p = memchr(wk->text + start, c, wk->len - start);

		*next = p ? (size_t)(p - wk->text) : wk->len;
	}
	return *next < start + n;
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c);
}

/* Each prefix is asked for only where the line's first bytes can start it: most lines are
 * told none by a byte or two. */
static void classify(struct line *ln, struct walk *wk)
{
	const char *l = wk->text + ln->start;
	size_t n = ln->len;
	bool keep = false;

	ln->kind = KIND_NONE;
	ln->cut = 0;
	ln->keep_off = 0;
	ln->keep_len = n;
	if (n < 4)
		return;
	if (l[0] == '[') {
		if (l[1] == 'p' && (ln->cut = kubectl_prefix(l, n)))
			ln->kind = KIND_KUBECTL;
	} else if (is_digit(l[0]) && n > 20 && l[4] == '-') {
		if ((ln->cut = actions_prefix(l, n)))
			ln->kind = KIND_ACTIONS;
		else if ((ln->cut = syslog_prefix(l, n, &keep)))
			ln->kind = KIND_SYSLOG;
	} else if (n > 16 && l[3] == ' ' && l[6] == ' ' && l[9] == ':' &&
		   (ln->cut = syslog_prefix(l, n, &keep))) {
		ln->kind = KIND_SYSLOG;
	}
	if (ln->kind == KIND_NONE && is_alnum(l[0]) &&
	    line_holds(wk, &wk->pipe, '|', ln->start, n) &&
	    (ln->cut = compose_prefix(l, n, &ln->col)))
		ln->kind = KIND_COMPOSE;
	if (keep)
		ln->cut = 0;
	if (ln->kind == KIND_NONE && line_holds(wk, &wk->tick, '`', ln->start, n))
		uname_span(ln, l, n);
}

/* Whether b carries a prefix of a's kind: for compose, its "|" in the same column. */
static bool same_kind(const struct line *a, const struct line *b)
{
	return a->kind != KIND_NONE && a->kind == b->kind &&
	       (a->kind != KIND_COMPOSE || a->col == b->col);
}

static bool next_line(struct walk *wk, size_t at, struct line *ln)
{
	const char *nl;

	if (at >= wk->len)
		return false;
	nl = memchr(wk->text + at, '\n', wk->len - at);
	ln->start = at;
	ln->len = (size_t)((nl ? nl : wk->text + wk->len) - (wk->text + at));
	classify(ln, wk);
	return true;
}

size_t pasted_prefixes_strip(char *text, size_t len)
{
	struct walk wk = { .text = text, .len = len };
	struct line lines[3] = { { .kind = KIND_NONE } }, *prev = &lines[0], *cur = &lines[1],
		    *next = &lines[2], *t;
	size_t w = 0;
	bool more;

	if (!text || !len)
		return len;
	more = next_line(&wk, 0, cur);
	while (more) {
		size_t end = cur->start + cur->len, off = cur->keep_off, n = cur->keep_len;
		bool has_next = next_line(&wk, end + 1, next);

		if (cur->cut && (same_kind(cur, prev) || (has_next && same_kind(cur, next))))
			off = cur->cut, n = cur->len - cur->cut;
		if (w != cur->start + off)
			memmove(text + w, text + cur->start + off, n);
		w += n;
		if (end < len)
			text[w++] = '\n';
		t = prev, prev = cur, cur = next, next = t;
		more = has_next;
	}
	text[w] = '\0';
	return w;
}
