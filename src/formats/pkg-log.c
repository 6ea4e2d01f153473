// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Package managers' logs (apt history, dnf.rpm.log, pacman.log): the formats are in
 * pkg-log.h. Every line is read with its length; entries are copied truncated to the fixed
 * buffers of struct pkg_event, so any input ends in bounded time and memory.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pkg-log.h"
#include "shared/macro.h"

struct cut {
	const char *p;
	size_t n;
};

static bool cut_eat(struct cut *c, const char *prefix)
{
	size_t l = strlen(prefix);

	if (c->n < l || memcmp(c->p, prefix, l) != 0)
		return false;
	c->p += l;
	c->n -= l;
	return true;
}

static void cut_trim(struct cut *c)
{
	while (c->n && (*c->p == ' ' || *c->p == '\t')) {
		c->p++;
		c->n--;
	}
	while (c->n && (c->p[c->n - 1] == ' ' || c->p[c->n - 1] == '\t' || c->p[c->n - 1] == '\r'))
		c->n--;
}

static const char *cut_find(const struct cut *c, const char *what)
{
	size_t l = strlen(what);

	for (size_t i = 0; l <= c->n && i + l <= c->n; i++)
		if (memcmp(c->p + i, what, l) == 0)
			return c->p + i;
	return NULL;
}

static void copy(char *dst, size_t len, struct cut c)
{
	cut_trim(&c);
	snprintf(dst, len, "%.*s", (int)(c.n < len ? c.n : len - 1), c.p);
}

static bool name_matches(const struct cut *name, const char *name_has)
{
	return !name_has || !*name_has || cut_find(name, name_has) != NULL;
}

/* Appends an event (the oldest dropped when full); NULL when the name does not match. */
static struct pkg_event *add_event(struct pkg_log *log, const char *name_has, enum pkg_action a,
				   struct cut name, const char *time, uint64_t line)
{
	struct pkg_event *e;

	if (!name_matches(&name, name_has))
		return NULL;
	log->matched++;
	if (log->n == PKG_EVENTS_MAX) {
		memmove(&log->ev[0], &log->ev[1], sizeof(log->ev[0]) * (PKG_EVENTS_MAX - 1));
		log->n--;
	}
	e = &log->ev[log->n++];
	memset(e, 0, sizeof(*e));
	e->action = a;
	copy(e->name, sizeof(e->name), name);
	snprintf(e->time, sizeof(e->time), "%s", time);
	e->line = line;
	return e;
}

/* ---- apt: "Upgrade: a:amd64 (1, 2), b:amd64 (3, 4)" ---------------------------------------- */

static const struct {
	const char *tag;
	enum pkg_action action;
} apt_tags[] = {
	{ "Install: ", PKG_INSTALL },	  { "Upgrade: ", PKG_UPGRADE },
	{ "Downgrade: ", PKG_DOWNGRADE }, { "Reinstall: ", PKG_REINSTALL },
	{ "Remove: ", PKG_REMOVE },	  { "Purge: ", PKG_REMOVE },
};

static void apt_line(struct pkg_log *log, const char *name_has, struct cut c, enum pkg_action a,
		     const char *time, uint64_t line)
{
	while (c.n) {
		const char *lp, *rp, *comma;
		struct cut name, inner, first, second = { "", 0 };
		struct pkg_event *e;

		while (c.n && (*c.p == ' ' || *c.p == ','))
			c.p++, c.n--;
		if (!c.n)
			break;
		lp = cut_find(&c, " (");
		if (!lp) {
			log->malformed++;
			return;
		}
		name = (struct cut){ c.p, (size_t)(lp - c.p) };
		inner = (struct cut){ lp + 2, c.n - (size_t)(lp + 2 - c.p) };
		rp = memchr(inner.p, ')', inner.n);
		if (!rp) {
			log->malformed++;
			return;
		}
		inner.n = (size_t)(rp - inner.p);
		first = inner;
		comma = memchr(inner.p, ',', inner.n);
		if (comma) {
			first.n = (size_t)(comma - inner.p);
			second = (struct cut){ comma + 1, inner.n - first.n - 1 };
		}
		e = add_event(log, name_has, a, name, time, line);
		if (e) {
			switch (a) {
			case PKG_UPGRADE:
			case PKG_DOWNGRADE:
				copy(e->from, sizeof(e->from), first);
				copy(e->to, sizeof(e->to), second);
				break;
			case PKG_REMOVE:
				copy(e->from, sizeof(e->from), first);
				break;
			case PKG_INSTALL: /* "(ver, automatic)" */
			case PKG_REINSTALL:
				copy(e->to, sizeof(e->to), first);
				break;
			}
		}
		c.n -= (size_t)(rp + 1 - c.p);
		c.p = rp + 1;
	}
}

/* ---- dnf: "<time> SUBDEBUG Upgrade: name-[e:]v-r.arch" --------------------------------------- */

/* Splits an NEVRA at its last two dashes: name, "[e:]version-release[.arch]". */
static bool nevra_split(struct cut c, struct cut *name, struct cut *evr)
{
	size_t last = SIZE_MAX, prev = SIZE_MAX;

	cut_trim(&c);
	for (size_t i = 0; i < c.n; i++)
		if (c.p[i] == '-') {
			prev = last;
			last = i;
		}
	if (prev == SIZE_MAX || prev == 0)
		return false;
	*name = (struct cut){ c.p, prev };
	*evr = (struct cut){ c.p + prev + 1, c.n - prev - 1 };
	return true;
}

static const struct {
	const char *verb;
	enum pkg_action action;
	bool old_side; /* the package replaced: its version goes into the event before it */
} dnf_verbs[] = {
	{ "Installed", PKG_INSTALL, false },   { "Install", PKG_INSTALL, false },
	{ "Upgrade", PKG_UPGRADE, false },     { "Upgraded", PKG_UPGRADE, true },
	{ "Downgrade", PKG_DOWNGRADE, false }, { "Downgraded", PKG_DOWNGRADE, true },
	{ "Reinstall", PKG_REINSTALL, false }, { "Erase", PKG_REMOVE, false },
	{ "Erased", PKG_REMOVE, false },
};

static void dnf_line(struct pkg_log *log, const char *name_has, struct cut c, uint64_t line)
{
	const char *sp = memchr(c.p, ' ', c.n), *colon;
	char time[PKG_TIME_MAX];
	struct cut verb, rest, name, evr;

	if (!sp)
		return;
	copy(time, sizeof(time), (struct cut){ c.p, (size_t)(sp - c.p) });
	rest = (struct cut){ sp + 1, c.n - (size_t)(sp + 1 - c.p) };
	if (!cut_eat(&rest, "SUBDEBUG "))
		return;
	colon = cut_find(&rest, ": ");
	if (!colon)
		return;
	verb = (struct cut){ rest.p, (size_t)(colon - rest.p) };
	rest = (struct cut){ colon + 2, rest.n - verb.n - 2 };
	for (size_t i = 0; i < ARRAY_SIZE(dnf_verbs); i++) {
		struct pkg_event *e;

		if (verb.n != strlen(dnf_verbs[i].verb) ||
		    memcmp(verb.p, dnf_verbs[i].verb, verb.n) != 0)
			continue;
		if (!nevra_split(rest, &name, &evr)) {
			log->malformed++;
			return;
		}
		if (dnf_verbs[i].old_side) {
			/* "Upgraded: <old>" follows "Upgrade: <new>" of the same name. */
			for (size_t k = log->n; k-- > 0;) {
				e = &log->ev[k];
				if (e->action == dnf_verbs[i].action && !e->from[0] &&
				    strlen(e->name) == name.n &&
				    memcmp(e->name, name.p, name.n) == 0) {
					copy(e->from, sizeof(e->from), evr);
					return;
				}
			}
			return;
		}
		e = add_event(log, name_has, dnf_verbs[i].action, name, time, line);
		if (e && dnf_verbs[i].action == PKG_REMOVE)
			copy(e->from, sizeof(e->from), evr);
		else if (e)
			copy(e->to, sizeof(e->to), evr);
		return;
	}
}

/* ---- pacman: "[<time>] [ALPM] upgraded nvidia (550.107.02-1 -> 550.120-1)" -------------------- */

static const struct {
	const char *verb;
	enum pkg_action action;
} pacman_verbs[] = {
	{ "installed ", PKG_INSTALL },	  { "upgraded ", PKG_UPGRADE },
	{ "downgraded ", PKG_DOWNGRADE }, { "reinstalled ", PKG_REINSTALL },
	{ "removed ", PKG_REMOVE },
};

static void pacman_line(struct pkg_log *log, const char *name_has, struct cut c, uint64_t line)
{
	const char *rp = memchr(c.p, ']', c.n), *lp, *end, *arrow;
	char time[PKG_TIME_MAX];
	struct cut rest, name, vers;

	if (!c.n || *c.p != '[' || !rp)
		return;
	copy(time, sizeof(time), (struct cut){ c.p + 1, (size_t)(rp - c.p - 1) });
	rest = (struct cut){ rp + 1, c.n - (size_t)(rp + 1 - c.p) };
	if (!cut_eat(&rest, " [ALPM] "))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(pacman_verbs); i++) {
		struct pkg_event *e;

		if (!cut_eat(&rest, pacman_verbs[i].verb))
			continue;
		lp = cut_find(&rest, " (");
		end = lp ? memchr(lp, ')', rest.n - (size_t)(lp - rest.p)) : NULL;
		if (!lp || !end) {
			log->malformed++;
			return;
		}
		name = (struct cut){ rest.p, (size_t)(lp - rest.p) };
		vers = (struct cut){ lp + 2, (size_t)(end - lp - 2) };
		e = add_event(log, name_has, pacman_verbs[i].action, name, time, line);
		if (!e)
			return;
		arrow = cut_find(&vers, " -> ");
		if (arrow) {
			copy(e->from, sizeof(e->from),
			     (struct cut){ vers.p, (size_t)(arrow - vers.p) });
			copy(e->to, sizeof(e->to),
			     (struct cut){ arrow + 4, vers.n - (size_t)(arrow + 4 - vers.p) });
		} else if (pacman_verbs[i].action == PKG_REMOVE)
			copy(e->from, sizeof(e->from), vers);
		else
			copy(e->to, sizeof(e->to), vers);
		return;
	}
}

void pkg_log_parse(enum pkg_log_format fmt, const char *text, size_t len, const char *name_has,
		   struct pkg_log *ret)
{
	const char *end = text ? text + strnlen(text, len) : NULL;
	char time[PKG_TIME_MAX] = "";

	memset(ret, 0, sizeof(*ret));
	for (const char *p = text; p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct cut c = { p, (size_t)((nl ? nl : end) - p) };

		ret->lines++;
		p = nl ? nl + 1 : end;
		if (c.n && c.p[c.n - 1] == '\r')
			c.n--;
		switch (fmt) {
		case PKG_LOG_APT:
			if (cut_eat(&c, "Start-Date: ")) {
				copy(time, sizeof(time), c);
				break;
			}
			if (!c.n) {
				time[0] = '\0'; /* a stanza ends */
				break;
			}
			for (size_t i = 0; i < ARRAY_SIZE(apt_tags); i++)
				if (cut_eat(&c, apt_tags[i].tag)) {
					apt_line(ret, name_has, c, apt_tags[i].action, time,
						 ret->lines);
					break;
				}
			break;
		case PKG_LOG_DNF:
			dnf_line(ret, name_has, c, ret->lines);
			break;
		case PKG_LOG_PACMAN:
			pacman_line(ret, name_has, c, ret->lines);
			break;
		}
	}
}

const char *pkg_action_name(enum pkg_action a)
{
	switch (a) {
	case PKG_INSTALL:
		return "install";
	case PKG_UPGRADE:
		return "upgrade";
	case PKG_DOWNGRADE:
		return "downgrade";
	case PKG_REINSTALL:
		return "reinstall";
	case PKG_REMOVE:
		return "remove";
	}
	return "?";
}

void pkg_upstream_version(const char *v, char *buf, size_t len)
{
	const char *colon = strchr(v, ':'), *dash;

	if (colon && strspn(v, "0123456789") == (size_t)(colon - v))
		v = colon + 1;
	dash = strchr(v, '-');
	snprintf(buf, len, "%.*s", (int)(dash ? (size_t)(dash - v) : strlen(v)), v);
}
