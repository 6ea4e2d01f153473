/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gpuenv_explain_render() (include/gpuenv/gpuenv.h) for the gpuenv tool, which writes the
 * output as it is made rather than asking for it whole: the library's API renders into
 * memory, but a paste's diagnosis is 50 KB, a dozen pages first touched for a string
 * written once (docs/explain.md, "Performance: a typical paste"). The same bytes.
 */
#pragma once

#include "gpuenv/gpuenv.h"
#include "shared/strbuf.h"

/* e rendered as gpuenv_explain_render() renders it, given to sink(userdata, …) a few KiB at a
 * time (strbuf_init_sink()). Returns as gpuenv_explain_render(), or the sink's error; on an
 * error, what was rendered before it may have been given to the sink. */
int explain_render_to(const struct gpuenv_explain *e, enum gpuenv_format format, unsigned flags,
		      strbuf_sink_fn sink, void *userdata);
