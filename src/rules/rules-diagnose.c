// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One diagnosis: the rule table run over a snapshot (rules-engine.c), the layer facts and the
 * chain (rules-summary.c), then each layer's status and the verdict (rules-engine.c), then the
 * root cause (rules-rank.c over rules-causes.c). Its own
 * file so that the engine and the summary do not call each other.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "rules/rules-internal.h"
#include "rules/rules.h"

int rules_diagnose(struct gpuenv_snapshot *s, struct gpuenv_doctor **ret)
{
	struct gpuenv_doctor *d;
	const struct snap_node *root;
	bool absent[RULE_LAYERS] = { false };

	if (!s || !ret)
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->snap = snapshot_ref(s);
	root = snapshot_root_const(s);
	rules_run_table(d, root);
	rules_summarize(d, root, absent);
	rules_collect_problems(d, root);
	rules_judge(d, absent);
	rules_rank(d, rule_causes, rule_causes_len);
	if (d->err) {
		int r = d->err;

		diagnosis_free(d);
		return r;
	}
	*ret = d;
	return 0;
}
