/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What keeps the NVIDIA kernel modules from loading, over (text, len) with no I/O (parsing stops
 * at an embedded NUL). Formats:
 * - modprobe.d(5) configuration lines (kmod): "blacklist <module>" (the module's own aliases are
 *   ignored, so udev does not autoload it for the GPU), "install <module> <command>" whose command
 *   is /bin/false or /bin/true (modprobe runs that instead of loading it), and
 *   "alias <module> off" as nvidia-prime's prime-select writes it (modprobe then looks for a
 *   module named "off" and fails). "#" starts a comment; module names treat '-' and '_' alike.
 * - the kernel command line (/proc/cmdline): "module_blacklist=a,b" (the kernel refuses to
 *   load them, Documentation/admin-guide/kernel-parameters.txt) and "modprobe.blacklist=a,b"
 *   (kmod reads it as blacklist lines, modprobe(8)).
 * Only NVIDIA modules are kept: "nvidia" and "nvidia_*" / "nvidia-*" (nvidia_drm, nvidia-uvm,
 * nvidia-current …). Fuzzed by tests/fuzz/fuzz-modprobe-conf.c.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define MODPROBE_BLOCKS_MAX 32u
#define MODPROBE_NAME_MAX   64u
#define MODPROBE_TEXT_MAX   160u

enum modprobe_block_kind {
	MODPROBE_BLACKLIST,	    /* modprobe.d "blacklist" */
	MODPROBE_INSTALL_NOOP,	    /* modprobe.d "install <m> /bin/false|/bin/true" */
	MODPROBE_ALIAS_OFF,	    /* modprobe.d "alias <m> off" */
	MODPROBE_KERNEL_BLACKLIST,  /* cmdline module_blacklist= */
	MODPROBE_CMDLINE_BLACKLIST, /* cmdline modprobe.blacklist= */
};

struct modprobe_block {
	enum modprobe_block_kind kind;
	char module[MODPROBE_NAME_MAX]; /* as written: "nvidia-drm" */
	char text[MODPROBE_TEXT_MAX];	/* the line (or cmdline word), truncated */
	uint64_t line;			/* 1-based */
};

struct modprobe_blocks {
	struct modprobe_block b[MODPROBE_BLOCKS_MAX];
	size_t n;
	uint64_t dropped; /* matches beyond MODPROBE_BLOCKS_MAX */
};

/* Appends to *ret (which the caller zeroes once) the NVIDIA entries of one modprobe.d file. */
void modprobe_conf_parse(const char *text, size_t len, struct modprobe_blocks *ret);
/* Appends the NVIDIA modules named by module_blacklist= and modprobe.blacklist= in a kernel
 * command line. */
void kernel_cmdline_blacklist_parse(const char *text, size_t len, struct modprobe_blocks *ret);
/* "blacklist", "install", "alias-off", "module_blacklist", "modprobe.blacklist". */
const char *modprobe_block_kind_name(enum modprobe_block_kind k);
