// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * modprobe.d(5) and kernel command-line blacklists of the NVIDIA modules (see modprobe-conf.h).
 */
#include "formats/modprobe-conf.h"
#include "shared/macro.h"

#include <stdbool.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* "nvidia", or "nvidia" then '-' or '_' and more: the driver's modules (nvidia_drm,
 * nvidia-modeset, nvidia_uvm, nvidia_peermem, Debian's nvidia-current …). */
static bool nvidia_module(const char *w, size_t n)
{
	return n >= 6 && strncmp(w, "nvidia", 6) == 0 &&
	       (n == 6 || (n > 7 && (w[6] == '-' || w[6] == '_')));
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return n == strlen(s) && strncmp(w, s, n) == 0;
}

/* A command that neither loads the module nor fails usefully: false or true, bare or from
 * /bin or /usr/bin (what guides and vendors write to disable a module). */
static bool noop_command(const char *w, size_t n)
{
	static const char *const cmds[] = { "false",	 "true",	   "/bin/false",
					    "/bin/true", "/usr/bin/false", "/usr/bin/true" };

	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (word_is(w, n, cmds[i]))
			return true;
	return false;
}

static void add(struct modprobe_blocks *ret, enum modprobe_block_kind kind, const char *mod,
		size_t mod_len, const char *text, size_t text_len, uint64_t line)
{
	struct modprobe_block *b;

	if (ret->n >= MODPROBE_BLOCKS_MAX) {
		ret->dropped++;
		return;
	}
	b = &ret->b[ret->n++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->line = line;
	if (mod_len >= sizeof(b->module))
		mod_len = sizeof(b->module) - 1;
	memcpy(b->module, mod, mod_len);
	if (text_len >= sizeof(b->text))
		text_len = sizeof(b->text) - 1;
	memcpy(b->text, text, text_len);
	for (char *p = b->text; *p; p++)
		if (*p == '\t')
			*p = ' ';
}

/* Splits [p, end) into at most max words; returns how many. */
static size_t split_words(const char *p, const char *end, const char **w, size_t *wl, size_t max)
{
	size_t n = 0;

	while (p < end && n < max) {
		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		w[n] = p;
		while (p < end && !is_blank(*p))
			p++;
		wl[n] = (size_t)(p - w[n]);
		n++;
	}
	return n;
}

static void conf_line(const char *p, const char *end, uint64_t line, struct modprobe_blocks *ret)
{
	const char *hash = memchr(p, '#', (size_t)(end - p));
	const char *stop = hash ? hash : end;
	const char *w[4];
	size_t wl[4], n = split_words(p, stop, w, wl, 4); /* a 4th word: not a bare command */

	while (stop > p && is_blank(stop[-1]))
		stop--;
	while (p < stop && is_blank(*p))
		p++;
	if (n < 2 || !nvidia_module(w[1], wl[1]))
		return;
	if (word_is(w[0], wl[0], "blacklist"))
		add(ret, MODPROBE_BLACKLIST, w[1], wl[1], p, (size_t)(stop - p), line);
	else if (n == 3 && word_is(w[0], wl[0], "install") && noop_command(w[2], wl[2]))
		add(ret, MODPROBE_INSTALL_NOOP, w[1], wl[1], p, (size_t)(stop - p), line);
	else if (n == 3 && word_is(w[0], wl[0], "alias") && word_is(w[2], wl[2], "off"))
		add(ret, MODPROBE_ALIAS_OFF, w[1], wl[1], p, (size_t)(stop - p), line);
}

void modprobe_conf_parse(const char *text, size_t len, struct modprobe_blocks *ret)
{
	const char *nul = memchr(text, '\0', len);
	const char *end = nul ? nul : text + len, *p = text;
	uint64_t line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		line++;
		conf_line(p, e, line, ret);
		p = nl ? nl + 1 : end;
	}
}

/* "key=a,b,c": each NVIDIA module in the comma list. */
static void cmdline_word(const char *w, size_t n, size_t key_len, enum modprobe_block_kind kind,
			 struct modprobe_blocks *ret)
{
	const char *p = w + key_len, *end = w + n;

	if (p < end && *p == '"')
		p++;
	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		const char *e = c ? c : end;
		size_t l = (size_t)(e - p);

		if (l > 0 && p[l - 1] == '"')
			l--;
		if (nvidia_module(p, l))
			add(ret, kind, p, l, w, n, 1);
		p = c ? c + 1 : end;
	}
}

void kernel_cmdline_blacklist_parse(const char *text, size_t len, struct modprobe_blocks *ret)
{
	static const char kernel[] = "module_blacklist=", kmod[] = "modprobe.blacklist=";
	const char *nul = memchr(text, '\0', len);
	const char *end = nul ? nul : text + len, *p = text;

	while (p < end) {
		const char *w;

		while (p < end && (is_blank(*p) || *p == '\n'))
			p++;
		w = p;
		while (p < end && !is_blank(*p) && *p != '\n')
			p++;
		if (w < p && *w == '"')
			w++; /* "param=value" quoted whole: the kernel's next_arg() drops the quote */
		if ((size_t)(p - w) > sizeof(kernel) - 1 &&
		    strncmp(w, kernel, sizeof(kernel) - 1) == 0)
			cmdline_word(w, (size_t)(p - w), sizeof(kernel) - 1,
				     MODPROBE_KERNEL_BLACKLIST, ret);
		else if ((size_t)(p - w) > sizeof(kmod) - 1 &&
			 strncmp(w, kmod, sizeof(kmod) - 1) == 0)
			cmdline_word(w, (size_t)(p - w), sizeof(kmod) - 1,
				     MODPROBE_CMDLINE_BLACKLIST, ret);
	}
}

const char *modprobe_block_kind_name(enum modprobe_block_kind k)
{
	switch (k) {
	case MODPROBE_BLACKLIST:
		return "blacklist";
	case MODPROBE_INSTALL_NOOP:
		return "install";
	case MODPROBE_ALIAS_OFF:
		return "alias-off";
	case MODPROBE_KERNEL_BLACKLIST:
		return "module_blacklist";
	case MODPROBE_CMDLINE_BLACKLIST:
		return "modprobe.blacklist";
	}
	return "unknown";
}
