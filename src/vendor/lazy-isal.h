/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Intel ISA-L's inflate, loaded on first use (dl.h, struct dl_lazy): only explain of a gzip
 * file needs it, and linking it would map it and bind its relocations at every start. The
 * table is shared/'s (shared/isal-inflate-api.h), so that formats/ can call it.
 */
#pragma once

#include "dl.h"
#include "shared/isal-inflate-api.h"

/* ISA-L's inflate functions: 0 and *ret, or a dl_lazy_load() error with *ret_error saying why. */
int vendor_isal(const struct isal_inflate_api **ret, const char **ret_error);
