// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted container device-cgroup reader
 * (src/formats/pasted-container-cgroup.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_container_cgroup)
