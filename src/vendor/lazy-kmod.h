/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkmod, loaded on first use (dl.h, struct dl_lazy): only the signer of an installed
 * nvidia.ko needs it, and linking it would load libcrypto, liblzma and libzstd's
 * dependencies into every run. The pointers have the types of libkmod's own <libkmod.h>
 * declarations (its kmod_list_foreach macro calls kmod_list_next directly, so callers walk
 * the list through the table instead).
 */
#pragma once

#include <libkmod.h>

#include "dl.h"

#define VENDOR_KMOD_SYMBOLS(X, T)                                                                  \
	X(T, kmod_list_next)                                                                       \
	X(T, kmod_module_get_info)                                                                 \
	X(T, kmod_module_info_free_list)                                                           \
	X(T, kmod_module_info_get_key)                                                             \
	X(T, kmod_module_info_get_value)                                                           \
	X(T, kmod_module_new_from_path)                                                            \
	X(T, kmod_module_unref)                                                                    \
	X(T, kmod_new)                                                                             \
	X(T, kmod_unref)

struct vendor_kmod {
	VENDOR_KMOD_SYMBOLS(DL_LAZY_FIELD, _)
};

/* libkmod's functions: 0 and *ret, or a dl_lazy_load() error with *ret_error saying why. */
int vendor_kmod(const struct vendor_kmod **ret, const char **ret_error);
