// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The library loaded on first use (dl.h, struct dl_lazy): libzip for wheels (lazy-zip.h).
 * Its soname is the one the build compiled against: meson.build reads it from the lib*.so the
 * linker would have used. The .note.dlopen entries tell packagers about them (systemd
 * docs/ELF_DLOPEN_METADATA.md).
 */
#include <stddef.h>

#include "lazy-zip.h"

DL_NOTE(dl_note_zip,
	"[{\"feature\":\"wheels\",\"description\":\"gpuenv scan of Python wheels "
	"(.whl zip files)\",\"priority\":\"recommended\",\"soname\":[\"" GPUENV_LIBZIP_SONAME
	"\"]}]");

DL_LAZY_DEFINE(vendor_zip, struct vendor_zip, GPUENV_LIBZIP_SONAME, VENDOR_ZIP_SYMBOLS)
