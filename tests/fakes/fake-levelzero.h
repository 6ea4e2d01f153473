/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by the fake Level Zero loader's two files (test code). */
#pragma once

#include <stdint.h>

#include "vendor/levelzero-abi.h"

/* ze_result_t of a ZE_RESULT_* name, -1 when unknown. */
int fake_levelzero_code_of(const char *name);
/* Devices the scenario lists. */
unsigned fake_levelzero_count(void);
/* The core uuid of device handle h (1-based device number). */
void fake_levelzero_uuid(ze_device_handle_t h, uint8_t uuid[16]);
