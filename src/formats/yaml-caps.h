/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The event pass the YAML readers (CDI specs, check policies) run before libyaml builds a
 * document: libyaml's loader builds the whole tree, and an alias keeps a reference to its
 * anchor's node, so a hostile file can look huge or cyclic. Depth, node count, document count
 * (and, where the format has no use for them, aliases) are checked on the event stream in
 * memory that does not grow with the input.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct yaml_caps {
	unsigned max_depth, max_nodes;
	bool refuse_aliases; /* else an alias counts as a node */
};

/* 0; -EBADMSG (not YAML, two documents, an alias refused), -E2BIG (a cap), -ENOMEM. On an
 * error why says what ("nested deeper than 64", "… at line 3 column 5") and *ret_line its
 * 1-based line. */
int yaml_caps_check(const char *data, size_t len, const struct yaml_caps *caps, char *why,
		    size_t whylen, unsigned *ret_line);
