/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Renderers: (snapshot, findings) → text in a capped strbuf. No I/O, no decisions. */
#pragma once

#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

int out_report_text(const struct snapshot *s, unsigned flags, struct strbuf *sb);
