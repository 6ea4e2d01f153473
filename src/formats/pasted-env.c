// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `env` / `printenv` output (`gpuenv explain`): "NAME=value" lines for the
 * variables the probe records in the environment section (gpu-names.h: CUDA_VISIBLE_DEVICES,
 * LD_LIBRARY_PATH, NVIDIA_VISIBLE_DEVICES …, and the TF_* variables whose name holds GPU or
 * CUDA), from the first column only: `export NAME=value` and
 * Docker's `-e NAME=value` say what was meant, not what the process had. A device list
 * (*_VISIBLE_DEVICES) or a gfx target holds no blank: a line where one is followed by more
 * words ("CUDA_VISIBLE_DEVICES=MIG-… python -c …") is a shell command line that sets it for
 * that command.
 * A shell command line is also read after an interactive prompt ("$ ", "(venv) ~/dir$ ",
 * "user@host:~$ ", "root@host:/# "): "NAME=value … command …" gives the command those
 * variables (POSIX shell, "Simple Commands": assignments before the command name are exported
 * to it). Such a line is the user's own command, pasted with what it printed, so it is what the
 * process had; it is read only where every assignment is literal (unquoted text, '…' and "…"
 * without $, ` or \: POSIX "Quoting") and a command follows. An assignment with no command
 * sets a variable of the shell that no program inherits, and `export`, a script or Python's
 * os.environ are left out: nothing in the text says which process ran with them.
 * The NVIDIA container runtime's request variables printed by env are also the container's
 * request, as doctor records them from its own environment (probe-container.c), so the
 * container rules judge them; set on a command line, they are that command's alone.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/gpu-names.h"
#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

static bool wanted(const char *name)
{
	for (size_t i = 0; gpu_env_vars[i]; i++)
		if (strcmp(name, gpu_env_vars[i]) == 0)
			return true;
	return gpu_env_var_tf(name);
}

/* The variables nvidia-container-runtime reads from the container's environment
 * (nvidia-container-toolkit docs, "Environment variables (OCI spec)"). */
static bool container_request(const char *name)
{
	return strcmp(name, "NVIDIA_VISIBLE_DEVICES") == 0 ||
	       strcmp(name, "NVIDIA_DRIVER_CAPABILITIES") == 0;
}

static bool one_word(const char *name)
{
	size_t n = strlen(name), k = strlen("_VISIBLE_DEVICES");

	return (n >= k && strcmp(name + n - k, "_VISIBLE_DEVICES") == 0) ||
	       strcmp(name, "HSA_OVERRIDE_GFX_VERSION") == 0;
}

/* Puts NAME=value (value NUL-terminated) where NAME is one the probe records; the container's
 * request too where env printed it (a variable set for one command inside a container is not
 * what the runtime was asked when the container was made). */
static void put_var(struct pasted_out *o, unsigned no, const char *name, char *value, bool from_env)
{
	if (!wanted(name))
		return;
	/* an empty value is a fact too (NVIDIA_VISIBLE_DEVICES= is the "empty" mode) */
	for (int as_request = 0; as_request <= (from_env && container_request(name));
	     as_request++) {
		const char *fmt = as_request ? "container.requested.%s" : "environment.%s";

		if (!*pasted_strip(value))
			pasted_put_empty(o, no, fmt, name);
		else
			pasted_put(o, no, value, fmt, name);
	}
}

/* The length of "NAME" where s starts with "NAME=" (NAME of [A-Z0-9_], not a digit first),
 * else 0. */
static size_t assignment_name(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n &&
	       ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= '0' && s[k] <= '9') || s[k] == '_'))
		k++;
	return k > 0 && k < n && s[k] == '=' && !(s[0] >= '0' && s[0] <= '9') ? k : 0;
}

size_t pasted_env_after_prompt(const char *p, size_t n)
{
	/* a prompt is short: past that a '$' or '#' is text, not a prompt's end */
	size_t max = n < 256 ? n : 256, k = 0, start, at;
	const char *eq = memchr(p, '=', n);

	/* Most lines hold no assignment, or no '$' or '#' before it, and are passed over
	 * without a walk (the walk below stops at the first '=': a prompt is before it). This
	 * runs on every line of the text (env_line), a bug report's hundreds of thousands. */
	if (!eq)
		return 0;
	if ((size_t)(eq - p) < max)
		max = (size_t)(eq - p) + 1;
	if (!memchr(p, '$', max) && !memchr(p, '#', max))
		return 0;
	while (k < max && (p[k] == ' ' || p[k] == '\t'))
		k++;
	for (start = k; k + 1 < max; k++) {
		if (p[k] == '=' || p[k] == '"' || p[k] == '\'' || p[k] == '`')
			return 0; /* text before the assignment, not a prompt */
		if ((p[k] != '$' && p[k] != '#') || p[k + 1] != ' ')
			continue;
		/* "$ …" or "dir$ …"; a '#' ends a prompt only after its text ("host:/# "): first,
		 * or after a blank, it opens a comment, and "… $ " is prose */
		if ((k > start && (p[k - 1] == ' ' || p[k - 1] == '\t')) ||
		    (p[k] == '#' && k == start))
			return 0;
		at = k + 2;
		while (at < n && (p[at] == ' ' || p[at] == '\t'))
			at++;
		return assignment_name(p + at, n - at) ? at : 0;
	}
	return 0;
}

/* A shell word's literal text, unquoted in place (it only shrinks): *pp past the word and
 * the blank after it. False where the word is not literal (an expansion, an escape, an
 * operator) or a quote is left open: its value is not in the text. */
static bool shell_word(char **pp)
{
	char *r = *pp, *w = *pp;

	while (*r && *r != ' ' && *r != '\t') {
		if (*r == '\'' || *r == '"') {
			char q = *r++;

			while (*r && *r != q) {
				if (q == '"' && strchr("$`\\", *r))
					return false;
				*w++ = *r++;
			}
			if (!*r)
				return false;
			r++;
		} else if (strchr("$`\\;&|<>()", *r)) {
			return false;
		} else {
			*w++ = *r++;
		}
	}
	if (*r)
		r++;
	*w = '\0';
	*pp = r;
	return true;
}

/* "NAME=value … command …" from s (a line's copy, cut in place): every assignment is put
 * where a command follows them all and each is literal; nothing otherwise. */
static void read_command_line(struct pasted_out *o, unsigned no, char *s)
{
	struct {
		const char *name;
		char *value;
	} set[16];
	size_t n = 0, k;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return; /* no command: a shell variable, not the environment of a program */
		if (*s == '#')
			return; /* a comment: no command follows */
		k = assignment_name(s, strlen(s));
		if (!k)
			break; /* the command's name */
		if (n == ARRAY_SIZE(set))
			return;
		s[k] = '\0';
		set[n].name = s;
		set[n].value = s + k + 1;
		s += k + 1;
		if (!shell_word(&s))
			return;
		n++;
	}
	for (size_t i = 0; i < n; i++)
		put_var(o, no, set[i].name, set[i].value, false);
}

int pasted_read_env(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "env" };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		size_t n = strlen(line), prompt = pasted_env_after_prompt(line, n);
		size_t k = assignment_name(line, n);
		char *value;

		if (prompt) {
			read_command_line(&o, it.no, line + prompt);
			continue;
		}
		/* env(1) prints NAME=value from the first column */
		if (!k)
			continue;
		line[k] = '\0';
		value = line + k + 1;
		if (one_word(line) && value[strcspn(value, " \t")] &&
		    *pasted_strip(value + strcspn(value, " \t"))) {
			line[k] = '=';
			read_command_line(&o, it.no, line);
			continue;
		}
		put_var(&o, it.no, line, value, true);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
