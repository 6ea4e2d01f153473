/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ELF notes a packager reads: DL_NOTE declares a library the binary may dlopen(3), in the
 * systemd/FDO ".note.dlopen" format (systemd docs/ELF_DLOPEN_METADATA.md; kmod
 * shared/elf-note.h). Knows nothing about GPUs.
 */
#pragma once

#include <stdint.h>

/* One JSON array per feature: [{"feature", "description", "priority", "soname": […]}]. */
#define DL_NOTE_VENDOR "FDO"
#define DL_NOTE_TYPE   0x407c0c0au
#define DL_NOTE(var, json)                                                                         \
	__attribute__((used, section(".note.dlopen"))) _Alignas(                                   \
		sizeof(uint32_t)) static const struct {                                            \
		struct {                                                                           \
			uint32_t n_namesz, n_descsz, n_type;                                       \
		} nhdr;                                                                            \
		char name[sizeof(DL_NOTE_VENDOR)];                                                 \
		_Alignas(sizeof(uint32_t)) char desc[sizeof(json)];                                \
	} var = {                                                                                  \
		.nhdr = { sizeof(DL_NOTE_VENDOR), sizeof(json), DL_NOTE_TYPE },                    \
		.name = DL_NOTE_VENDOR,                                                            \
		.desc = json,                                                                      \
	}
