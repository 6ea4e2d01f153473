/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The devices several readers number each from 0 (hardware.gpus[], driver.nvml.devices[],
 * driver.cuda.devices[]) given one numbering, by PCI bus id, UUID, or an index whose
 * identifying facts agree: see pasted-merge.c. Pure, over struct pasted_facts.
 */
#pragma once

#include <stddef.h>

#include "formats/pasted.h"

/* Appends the facts of in[0..n) (each one reader's, in the order the readers ran: a later
 * fact for a path wins) to out, device paths renumbered. 0 or -ENOMEM. */
int pasted_facts_merge(const struct pasted_facts *in, size_t n, struct pasted_facts *out);
