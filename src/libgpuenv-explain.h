/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gpuenv_explain_text() and gpuenv_explain_render() (include/gpuenv/gpuenv.h) as the gpuenv
 * tool uses them, to touch fewer pages (each first touch a page fault, tens of microseconds on
 * a virtual machine: docs/explain.md, "Performance: a typical paste"): the input handed over,
 * freed as soon as it is cleaned, so that the readers' memory is the same pages; the output
 * written as it is made, where the library's API renders it whole into memory (a paste's
 * diagnosis is 50 KB). The same results, the same bytes.
 */
#pragma once

#include "gpuenv/gpuenv.h"
#include "shared/strbuf.h"

/* gpuenv_explain_text() of data[0..len), which is the function's to free (malloc()ed; freed
 * whatever it returns). */
int explain_text_owned(char *data, size_t len, struct gpuenv_explain **ret, const char **ret_why);
/* e rendered as gpuenv_explain_render() renders it, given to sink(userdata, …) a few KiB at a
 * time (strbuf_init_sink()). Returns as gpuenv_explain_render(), or the sink's error; on an
 * error, what was rendered before it may have been given to the sink. */
int explain_render_to(const struct gpuenv_explain *e, enum gpuenv_format format, unsigned flags,
		      strbuf_sink_fn sink, void *userdata);
