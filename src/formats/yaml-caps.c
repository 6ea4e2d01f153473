// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The YAML readers' event pass (yaml-caps.h), over libyaml's event API (Debian libyaml-dev,
 * https://pyyaml.org/wiki/LibYAML).
 */
#include <errno.h>
#include <stdio.h>
#include <yaml.h>

#include "yaml-caps.h"

int yaml_caps_check(const char *data, size_t len, const struct yaml_caps *caps, char *why,
		    size_t whylen, unsigned *ret_line)
{
	yaml_parser_t y;
	unsigned depth = 0, nodes = 0, docs = 0;
	int r = 0;

	*ret_line = 0;
	if (!yaml_parser_initialize(&y))
		return -ENOMEM;
	yaml_parser_set_input_string(&y, (const unsigned char *)data, len);
	for (;;) {
		yaml_event_t ev;
		yaml_event_type_t t;
		unsigned line;

		if (!yaml_parser_parse(&y, &ev)) {
			if (y.error == YAML_MEMORY_ERROR) {
				r = -ENOMEM;
				break;
			}
			*ret_line = (unsigned)y.problem_mark.line + 1;
			snprintf(why, whylen, "%s at line %zu column %zu%s%s",
				 y.problem ? y.problem : "not YAML", y.problem_mark.line + 1,
				 y.problem_mark.column + 1, y.context ? ", " : "",
				 y.context ? y.context : "");
			r = -EBADMSG;
			break;
		}
		t = ev.type;
		line = (unsigned)ev.start_mark.line + 1;
		yaml_event_delete(&ev);
		if (t == YAML_STREAM_END_EVENT)
			break;
		*ret_line = line;
		if (t == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
			snprintf(why, whylen, "more than one YAML document");
			r = -EBADMSG;
			break;
		}
		if (t == YAML_ALIAS_EVENT && caps->refuse_aliases) {
			snprintf(why, whylen, "YAML aliases are not read here");
			r = -EBADMSG;
			break;
		}
		if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
			if (++depth > caps->max_depth) {
				snprintf(why, whylen, "nested deeper than %u", caps->max_depth);
				r = -E2BIG;
				break;
			}
		} else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
			depth--;
		}
		if ((t == YAML_SCALAR_EVENT || t == YAML_SEQUENCE_START_EVENT ||
		     t == YAML_MAPPING_START_EVENT || t == YAML_ALIAS_EVENT) &&
		    ++nodes > caps->max_nodes) {
			snprintf(why, whylen, "more than %u YAML nodes", caps->max_nodes);
			r = -E2BIG;
			break;
		}
	}
	yaml_parser_delete(&y);
	if (r == 0)
		*ret_line = 0;
	return r;
}
