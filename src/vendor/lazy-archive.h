/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libarchive, loaded on first use (dl.h, struct dl_lazy): only --image reads tar layers, and
 * linking it would map libxml2, nettle and libacl into every run. The table is core's
 * (core/archive-api.h), so that the layered root backend can call it.
 */
#pragma once

#include "core/archive-api.h"
#include "dl.h"

/* libarchive's functions: 0 and *ret, or a dl_lazy_load() error with *ret_error saying why. */
int vendor_archive(const struct archive_api **ret, const char **ret_error);
