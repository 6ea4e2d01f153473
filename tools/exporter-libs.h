/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The libraries only `gpuenv exporter`'s server needs, loaded on first use (src/vendor/dl.h,
 * struct dl_lazy) instead of linked (exporter-libs.c says why). The pointers have the types
 * of the libraries' own <microhttpd.h>, <crypt.h> and GnuTLS header declarations.
 */
#pragma once

#include <crypt.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>

#include "vendor/dl.h"

#define EXPORTER_MHD_SYMBOLS(X, T)                                                                 \
	X(T, MHD_add_response_header)                                                              \
	X(T, MHD_basic_auth_get_username_password)                                                 \
	X(T, MHD_create_response_from_buffer)                                                      \
	X(T, MHD_destroy_response)                                                                 \
	X(T, MHD_free)                                                                             \
	X(T, MHD_get_connection_info)                                                              \
	X(T, MHD_is_feature_supported)                                                             \
	X(T, MHD_lookup_connection_value)                                                          \
	X(T, MHD_queue_basic_auth_fail_response)                                                   \
	X(T, MHD_queue_response)                                                                   \
	X(T, MHD_start_daemon)                                                                     \
	X(T, MHD_stop_daemon)

struct exporter_mhd {
	EXPORTER_MHD_SYMBOLS(DL_LAZY_FIELD, _)
};

#define EXPORTER_CRYPT_SYMBOLS(X, T) X(T, crypt_rn)

struct exporter_crypt {
	EXPORTER_CRYPT_SYMBOLS(DL_LAZY_FIELD, _)
};

#define EXPORTER_GNUTLS_SYMBOLS(X, T)                                                              \
	X(T, gnutls_certificate_get_peers)                                                         \
	X(T, gnutls_certificate_server_set_request)                                                \
	X(T, gnutls_certificate_verify_peers2)                                                     \
	X(T, gnutls_session_set_verify_function)                                                   \
	X(T, gnutls_x509_crt_deinit)                                                               \
	X(T, gnutls_x509_crt_get_subject_alt_name)                                                 \
	X(T, gnutls_x509_crt_import)                                                               \
	X(T, gnutls_x509_crt_init)

struct exporter_gnutls {
	EXPORTER_GNUTLS_SYMBOLS(DL_LAZY_FIELD, _)
};

/* libmicrohttpd's, libcrypt's and GnuTLS's functions: 0 and *ret, or a dl_lazy_load() error with
 * *ret_error saying why (the library is not installed, or lacks a function). */
int exporter_mhd(const struct exporter_mhd **ret, const char **ret_error);
int exporter_crypt(const struct exporter_crypt **ret, const char **ret_error);
int exporter_gnutls(const struct exporter_gnutls **ret, const char **ret_error);
