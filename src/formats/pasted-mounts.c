// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted mount tables (`gpuenv explain`): the options of the mount at /dev, the fact
 * the probe reads from /proc/self/mountinfo as driver.amdgpu.dev_mount_options
 * (probe-amd-kfd.c; driver.dev-noexec judges it). Four forms carry them:
 *   mount(8)              "udev on /dev type devtmpfs (rw,nosuid,noexec,relatime,size=…)"
 *   /proc/mounts (proc(5)) "udev /dev devtmpfs rw,nosuid,noexec,relatime,size=… 0 0"
 *   /proc/self/mountinfo  "25 1 0:6 / /dev rw,nosuid,noexec,relatime shared:2 - devtmpfs udev …"
 *   findmnt(8)'s table    "├─/dev  udev  devtmpfs  rw,nosuid,noexec,relatime,size=…" (TARGET
 *                         SOURCE FSTYPE OPTIONS, maybe PROPAGATION after; the tree drawn
 *                         with "├─ └─ │" or -a's "|- `-", or none with -l)
 * mountinfo's field 6 holds the mount's own options; mount(8), /proc/mounts and findmnt print
 * them with the filesystem's (size=, mode= …). The value kept is the mount's own, as mountinfo
 * writes them: "ro" or "rw", then nosuid, nodev, noexec, noatime, nodiratime, relatime,
 * nosymfollow in that order (Linux fs/proc_namespace.c, show_mnt_opts()). A list whose first
 * option is neither ro nor rw (an fstab(5) line's "defaults,noexec") is configuration, not a
 * mount: not read. As the probe does, the last mount at /dev listed wins (a later mount there
 * hides an earlier one).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define FIELDS_MAX 12 /* mountinfo's fields up to its "-" and a few after */

/* The per-mount flags after ro/rw, in show_mnt_opts()'s order. */
static const char *const mount_flags[] = { "nosuid",	 "nodev",    "noexec",	   "noatime",
					   "nodiratime", "relatime", "nosymfollow" };
#define N_FLAGS (ARRAY_SIZE(mount_flags))
/* "rw," and every flag with its comma: what out[] below may hold */
#define OPTS_MAX (3 + sizeof("nosuid,nodev,noexec,noatime,nodiratime,relatime,nosymfollow"))

/* The mount's own options of a comma-separated list opts[0..n), written to out as mountinfo's
 * field 6 writes them. False where the list does not start with ro or rw. */
static bool mount_options(const char *opts, size_t n, char out[static OPTS_MAX])
{
	const char *p = opts, *end = opts + n;
	unsigned seen = 0;
	size_t at;
	bool first = true;

	if (!(n >= 2 && (memcmp(opts, "rw", 2) == 0 || memcmp(opts, "ro", 2) == 0) &&
	      (n == 2 || opts[2] == ',')))
		return false;
	memcpy(out, opts, 2);
	at = 2;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t len = (size_t)((comma ? comma : end) - p);

		if (!first)
			for (size_t i = 0; i < N_FLAGS; i++)
				if (strlen(mount_flags[i]) == len &&
				    memcmp(p, mount_flags[i], len) == 0)
					seen |= 1u << i;
		first = false;
		p += len + (comma ? 1 : 0);
	}
	for (size_t i = 0; i < N_FLAGS; i++)
		if (seen & (1u << i)) {
			size_t len = strlen(mount_flags[i]);

			out[at++] = ',';
			memcpy(out + at, mount_flags[i], len);
			at += len;
		}
	out[at] = '\0';
	return true;
}

static bool digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* "MAJOR:MINOR", mountinfo's field 3. */
static bool dev_number(const char *s)
{
	size_t a = strspn(s, "0123456789");

	return a > 0 && s[a] == ':' && digits(s + a + 1);
}

/* The start of findmnt's target after its tree: "├─", "└─", "│ " (UTF-8) and -a's "|-", "`-",
 * "| ", with blanks. */
static char *after_tree(char *s)
{
	for (;;) {
		s += strspn(s, " \t");
		if (strncmp(s, "├─", strlen("├─")) == 0 || strncmp(s, "└─", strlen("└─")) == 0)
			s += strlen("├─");
		else if (strncmp(s, "│", strlen("│")) == 0)
			s += strlen("│");
		else if ((s[0] == '|' || s[0] == '`') && s[1] == '-')
			s += 2;
		else if (s[0] == '|' && (s[1] == ' ' || s[1] == '\t'))
			s += 1;
		else
			return s;
	}
}

/* The options field of a line that lists the mount at /dev in one of the four forms, or
 * NULL. f: the line's blank-separated fields, n of them (at most FIELDS_MAX kept). */
static const char *dev_options(char **f, int n, size_t *len)
{
	const char *o = NULL;

	if (n == 6 && strcmp(f[1], "on") == 0 && strcmp(f[3], "type") == 0) {
		/* mount(8): "SRC on /dev type FSTYPE (OPTS)" */
		size_t k = strlen(f[5]);

		if (strcmp(f[2], "/dev") != 0 || k < 3 || f[5][0] != '(' || f[5][k - 1] != ')')
			return NULL;
		*len = k - 2;
		return f[5] + 1;
	}
	if (n == 6 && digits(f[4]) && digits(f[5]) && strcmp(f[1], "/dev") == 0)
		o = f[3]; /* /proc/mounts: "SRC /dev FSTYPE OPTS 0 0" */
	else if (n >= 10 && digits(f[0]) && digits(f[1]) && dev_number(f[2]) &&
		 strcmp(f[4], "/dev") == 0)
		o = f[5]; /* mountinfo: "ID PARENT MAJ:MIN ROOT /dev OPTS … - FSTYPE SRC SUPER" */
	else if ((n == 4 || n == 5) && strcmp(f[0], "/dev") == 0)
		o = f[3]; /* findmnt: "/dev SOURCE FSTYPE OPTIONS [PROPAGATION]" (-o+PROPAGATION) */
	if (o)
		*len = strlen(o);
	return o;
}

int pasted_read_mounts(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "mounts" };
	struct pasted_lines it;
	char opts[OPTS_MAX], last[OPTS_MAX] = "";
	unsigned last_line = 0;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		char *f[FIELDS_MAX], *save = NULL;
		const char *v;
		size_t vlen = 0;
		int n = 0;

		if (!strstr(line, "/dev"))
			continue;
		for (char *t = strtok_r(after_tree(line), " \t\r", &save); t;
		     t = strtok_r(NULL, " \t\r", &save)) {
			if (n == FIELDS_MAX)
				break;
			f[n++] = t;
		}
		v = dev_options(f, n, &vlen);
		if (v && mount_options(v, vlen, opts)) {
			memcpy(last, opts, sizeof(last));
			last_line = it.no;
		}
	}
	if (last_line)
		pasted_put(&o, last_line, last, "driver.amdgpu.dev_mount_options");
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
