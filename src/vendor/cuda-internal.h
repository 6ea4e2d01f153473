/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the libcuda child's files (internal to src/vendor/): cuda.c (the session: driver
 * version, cuInit, the devices) and cuda-launch.c (`doctor --launch`: a kernel on each GPU).
 */
#pragma once

#include "cuda-abi.h"
#include "dl.h"
#include "session.h"

#define CU_MISSING (-100000) /* the symbol is not exported: no call was made */

struct cuda_fns {
	CUDA_SYMBOLS(DL_TABLE_FIELDS)
};

struct cuda {
	struct cuda_fns f;
	struct vwriter *w;
	const struct vendor_req *req;
};

/* Writes the failure of `call` (rc) on each of keys[] (NULL-terminated): "error" with the
 * code's name, number and text, or "unsupported" when the symbol is missing. Returns false. */
bool cuda_fail(struct cuda *c, const char *call, CUresult rc, const char *const keys[]);

/* Calls c->f.fn args after a vw_begin() on key; true on CUDA_SUCCESS, else the failure is
 * written on key and on the further keys given. */
#define CU(c, key, fn, args, ...)                                                                  \
	({                                                                                         \
		CUresult _rc = CU_MISSING;                                                         \
		const char *_call = (c)->f.fn##_name ? (c)->f.fn##_name : #fn;                     \
		if ((c)->f.fn) {                                                                   \
			vw_begin((c)->w, key, _call);                                              \
			_rc = (c)->f.fn args;                                                      \
		}                                                                                  \
		_rc == CUDA_SUCCESS                                                                \
			? true                                                                     \
			: cuda_fail(c, _call, _rc,                                                 \
				    (const char *const[]){ key, ##__VA_ARGS__, NULL });            \
	})

/* cuda-launch.c: the launch check on device ordinal i (handle dev), written under
 * devices.<i>.launch. */
void cuda_launch_device(struct cuda *c, int i, CUdevice dev);
