// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The libraries loaded on first use (dl.h, struct dl_lazy): libzip for wheels (lazy-zip.h),
 * libarchive for container images (lazy-archive.h), Intel ISA-L's inflate for explain's gzip
 * input (lazy-isal.h).
 * Its soname is the one the build compiled against: meson.build reads it from the lib*.so the
 * linker would have used. The .note.dlopen entries tell packagers about them (systemd
 * docs/ELF_DLOPEN_METADATA.md).
 */
#include <stddef.h>

#include "lazy-archive.h"
#include "lazy-isal.h"
#include "lazy-zip.h"

DL_NOTE(dl_note_zip,
	"[{\"feature\":\"wheels\",\"description\":\"gpuenv scan of Python wheels "
	"(.whl zip files)\",\"priority\":\"recommended\",\"soname\":[\"" GPUENV_LIBZIP_SONAME
	"\"]}]");

DL_LAZY_DEFINE(vendor_zip, struct vendor_zip, GPUENV_LIBZIP_SONAME, VENDOR_ZIP_SYMBOLS)

DL_NOTE(dl_note_archive,
	"[{\"feature\":\"images\",\"description\":\"--image: container image layers "
	"(tar, gzip, zstd)\",\"priority\":\"recommended\",\"soname\":[\"" GPUENV_LIBARCHIVE_SONAME
	"\"]}]");

DL_LAZY_DEFINE(vendor_archive, struct archive_api, GPUENV_LIBARCHIVE_SONAME, ARCHIVE_API_SYMBOLS)

DL_NOTE(dl_note_isal,
	"[{\"feature\":\"explain-gzip\",\"description\":\"gpuenv explain of a gzip file "
	"(nvidia-bug-report.log.gz)\",\"priority\":\"recommended\",\"soname\":[\"" GPUENV_LIBISAL_SONAME
	"\"]}]");

DL_LAZY_DEFINE(vendor_isal, struct isal_inflate_api, GPUENV_LIBISAL_SONAME,
	       ISAL_INFLATE_API_SYMBOLS)
