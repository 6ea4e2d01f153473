// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --redact for `gpuenv check` (docs/policy.md, "Redaction"): a CI log of a public repository
 * must not name the machine. What `gpuenv capture --redact` removes from a bundle is removed
 * from every check output (text, JSON, JUnit, SARIF, Markdown, annotations): the values of the
 * snapshot's identifying facts (host names, serial numbers, UUIDs: snap_key_is_identifying(),
 * the environment's sections aside: a path there is no one's name), the findings' identifying
 * evidence (the doctor's own --redact), anything of a UUID's form, and the user names of home
 * directories. The renderers pass each value from the machine or the policy through
 * check_redact_text() before escaping it for its format.
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "shared/redact.h"
#include "shared/strbuf.h"
#include "shared/strv.h"
#include "snapshot/snapshot.h"

/* Short values ("", "1", "no") would blank out ordinary words. */
#define SECRET_MIN_LEN 3

static int add_secret(char ***secrets, const char *v)
{
	if (!v || strlen(v) < SECRET_MIN_LEN || strv_contains(*secrets, v))
		return 0;
	return strv_push(secrets, v) < 0 ? -ENOMEM : 0;
}

/* section: the nearest object or array above that is not a fact (as snapshot-json.c). */
static int walk(char ***secrets, const struct snap_node *n, const char *section)
{
	int r = 0;

	if (snap_kind(n) == SNAP_FACT) {
		if (!snap_section_is_environment(section) &&
		    snap_key_is_identifying(section, snap_key(n)))
			r = add_secret(secrets, snap_str(n));
		return r;
	}
	for (size_t i = 0; r == 0 && i < snap_count(n); i++) {
		const struct snap_node *ch = snap_at(n, i);

		r = walk(secrets, ch, snap_kind(ch) == SNAP_FACT ? section : snap_key(ch) ?: section);
	}
	return r;
}

int check_add_secrets(struct gpuenv_check *c, const struct snap_node *root)
{
	return walk(&c->secrets, root, NULL);
}

/* Only a redacting render needs these: gathering them costs a walk of the whole snapshot,
 * which a check without --redact would pay for nothing (issue 15: a policy adds <= 1 ms). */
int check_collect_secrets(const struct gpuenv_check *c, char ***secrets)
{
	const struct gpuenv_doctor *d = c->doctor;
	int r = 0;

	for (char **p = c->secrets; r == 0 && p && *p; p++)
		r = add_secret(secrets, *p);
	if (r == 0)
		r = walk(secrets, snapshot_root_const(d->snap), NULL);
	for (size_t i = 0; r == 0 && i < d->n_findings; i++)
		for (size_t e = 0; r == 0 && e < d->findings[i].n_ev; e++)
			if (d->findings[i].ev[e].identifying)
				r = add_secret(secrets, d->findings[i].ev[e].value);
	return r;
}

/* Not a letter or digit: a secret ends there. Unlike a bundle's file names (capture), a CI
 * output names a host inside other words: "node17.json", "node17-gpu0". */
static bool edge(const char *s, size_t len, size_t at)
{
	return at >= len || !isalnum((unsigned char)s[at]);
}

/* The secret of c that starts at s[i], not inside a longer name, its length; else 0. */
static size_t secret_at(const struct gpuenv_check *c, const char *s, size_t len, size_t i)
{
	for (char **p = c ? c->secrets : NULL; p && *p; p++) {
		size_t n = strlen(*p);

		if (n <= len - i && memcmp(s + i, *p, n) == 0 && (i == 0 || edge(s, len, i - 1)) &&
		    edge(s, len, i + n))
			return n;
	}
	return 0;
}

char *check_redact_text(const struct gpuenv_check *c, const char *s)
{
	struct strbuf homes = STRBUF_INIT, out = STRBUF_INIT;
	const char *t;
	size_t len;
	char *ret = NULL;

	strbuf_put_home_redacted(&homes, s ?: "");
	t = strbuf_str(&homes);
	len = strlen(t);
	for (size_t i = 0; i < len;) {
		size_t n = redact_uuid_at(t + i, len - i) && !redact_public_guid(t + i)
				   ? 36
				   : secret_at(c, t, len, i);

		if (n) {
			strbuf_puts(&out, "<redacted>");
			i += n;
		} else {
			strbuf_putc(&out, t[i++]);
		}
	}
	strbuf_puts(&out, "");
	if (!homes.err && strbuf_steal(&out, &ret) < 0)
		ret = NULL;
	strbuf_done(&homes);
	strbuf_done(&out);
	return ret;
}

int check_redact_json(const struct gpuenv_check *c, json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v)
			if (check_redact_json(c, v) < 0)
				return -ENOMEM;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (check_redact_json(c, v) < 0)
				return -ENOMEM;
	} else if (json_is_string(j)) {
		char *r = check_redact_text(c, json_string_value(j));
		int err = !r || json_string_set(j, r) < 0 ? -ENOMEM : 0;

		free(r);
		return err;
	}
	return 0;
}
