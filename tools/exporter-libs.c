// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libmicrohttpd and libcrypt, loaded when `gpuenv exporter` starts its server, not linked:
 * linked, libmicrohttpd brought GnuTLS and its chain (nettle, hogweed, gmp, p11-kit,
 * libtasn1, libidn2, libunistring, libffi) into every gpuenv run, and binding their symbols
 * at start-up cost `gpuenv explain` of a paste more instructions than its own work
 * (bench/bench-explain.sh). libcrypt is only for the bcrypt hashes of basic authentication,
 * GnuTLS's own functions only for client certificates (exporter-tls.c).
 * The sonames are the ones the build compiled against (meson.build reads them from the
 * lib*.so the linker would have used); the .note.dlopen entries tell packagers about them
 * (systemd docs/ELF_DLOPEN_METADATA.md).
 */
#include "exporter-libs.h"
#include "shared/elf-note.h"

DL_NOTE(dl_note_microhttpd,
	"[{\"feature\":\"exporter\",\"description\":\"gpuenv exporter's HTTP server\","
	"\"priority\":\"recommended\",\"soname\":[\"" GPUENV_LIBMICROHTTPD_SONAME "\"]}]");

DL_LAZY_DEFINE(exporter_mhd, struct exporter_mhd, GPUENV_LIBMICROHTTPD_SONAME, EXPORTER_MHD_SYMBOLS)

DL_NOTE(dl_note_crypt,
	"[{\"feature\":\"exporter-auth\",\"description\":\"gpuenv exporter --web-config: "
	"bcrypt password hashes\",\"priority\":\"recommended\",\"soname\":[\"" GPUENV_LIBCRYPT_SONAME
	"\"]}]");

DL_LAZY_DEFINE(exporter_crypt, struct exporter_crypt, GPUENV_LIBCRYPT_SONAME,
	       EXPORTER_CRYPT_SYMBOLS)

DL_NOTE(dl_note_gnutls,
	"[{\"feature\":\"exporter-mtls\",\"description\":\"gpuenv exporter --web-config: "
	"client certificates\",\"priority\":\"recommended\",\"soname\":[\"" GPUENV_LIBGNUTLS_SONAME
	"\"]}]");

DL_LAZY_DEFINE(exporter_gnutls, struct exporter_gnutls, GPUENV_LIBGNUTLS_SONAME,
	       EXPORTER_GNUTLS_SYMBOLS)
