/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the Level Zero session's two files (levelzero.c: the core API; levelzero-sysman.c:
 * Sysman): the child's function table and state, and how a call is made and its failure kept.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "dl.h"
#include "levelzero-abi.h"
#include "session.h"

#define ZE_MAX_DEVICES 64u
#define ZE_MISSING     (UINT32_MAX - 100u) /* not a result: the library lacks the function */

struct levelzero_fns {
	LEVELZERO_SYMBOLS(DL_TABLE_FIELDS)
};

struct levelzero {
	struct vwriter *w;
	struct levelzero_fns f;
	unsigned n_devices;		  /* written under devices[] */
	uint8_t uuid[ZE_MAX_DEVICES][16]; /* zeDeviceGetProperties' uuid, to find each */
	bool have_uuid[ZE_MAX_DEVICES];	  /* Sysman device's core device */
};

/* Records a failed call (or a function the library lacks) on each of keys[] (NULL-ended):
 * unsupported, unreadable or error with the code's name; returns false. */
bool ze_failv(struct levelzero *z, const char *call, ze_result_t rc, const char *const keys[]);

/* Sysman's readings of every device listed (levelzero-sysman.c). */
void levelzero_sysman(struct levelzero *z);

#define ze_fail(z, call, rc, ...) ze_failv(z, call, rc, (const char *const[]){ __VA_ARGS__, NULL })

/* Calls fn when the library has it (after announcing it, for hang attribution); true on
 * success, else the failure is recorded on key and the extra keys. */
#define ZE(z, key, fn, args, ...)                                                                  \
	({                                                                                         \
		ze_result_t _rc = ZE_MISSING;                                                      \
		const char *_call = (z)->f.fn##_name ? (z)->f.fn##_name : #fn;                     \
		if ((z)->f.fn) {                                                                   \
			vw_begin((z)->w, key, _call);                                              \
			_rc = (z)->f.fn args;                                                      \
		}                                                                                  \
		_rc == ZE_RESULT_SUCCESS ? true : ze_fail(z, _call, _rc, key, ##__VA_ARGS__);      \
	})
