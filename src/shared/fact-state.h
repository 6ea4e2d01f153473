/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The state every fact carries (docs/design.md §4, docs/snapshot-schema.md) and its one name
 * table: the snapshot (src/snapshot/) writes and reads these names, and the vendor child's
 * protocol (src/vendor/session.c) sends them, so both take them from here.
 */
#pragma once

enum fact_state {
	FACT_UNPROBED = 0, /* not looked at: probe not run, or live-only under --sysroot */
	FACT_ABSENT,	   /* looked, not there (-ENOENT) */
	FACT_PRESENT,
	FACT_UNREADABLE,  /* -EACCES / -EPERM */
	FACT_MALFORMED,	  /* a parser refused it; raw text kept */
	FACT_UNSUPPORTED, /* the vendor said NOT_SUPPORTED, or the kernel lacks the feature */
	FACT_ERROR,	  /* anything else; error text kept */
	_FACT_STATE_MAX,
};

/* "unprobed" … "error"; "error" for a value outside the enum. */
const char *fact_state_to_string(enum fact_state s);
/* The state of a name; -EINVAL when unknown. */
int fact_state_from_string(const char *s);
