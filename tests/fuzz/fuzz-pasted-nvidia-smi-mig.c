// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted nvidia-smi -mig warning reader (src/formats/pasted-nvidia-smi-mig.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_nvidia_smi_mig)
