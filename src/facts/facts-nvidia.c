/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Lookups of NVIDIA GPUs by PCI device id (nvidia_devices.tsv joined with nvidia_chips.tsv).
 * gen-facts.py writes those rows packed, their text as offsets into one string array
 * (facts-table.h): pointers would make the loader write every page of the tables at each
 * start of gpuenv. A row is decoded into the structs of facts.h the first time it is looked
 * up, into static storage that lives as long as the program, under a lock (the library may be
 * called from several threads; the exporter collects in its own).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "facts/facts-table.h"

static pthread_mutex_t decode_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *packed_text(uint32_t offset)
{
	return offset == FACTS_NO_STRING ? NULL : facts_nvidia_strings + offset;
}

static int cmp_device_row(const void *key, const void *elem)
{
	uint16_t k = *(const uint16_t *)key,
		 e = ((const struct facts_nvidia_device_row *)elem)->device_id;

	return k < e ? -1 : k > e;
}

/* Row i's structs, decoded on first use. The device id is never 0 in the table (a PCI
 * device id of 0 is no device), so a decoded row is one whose device_id is set. */
static size_t decoded_row(const struct facts_nvidia_device_row *p)
{
	size_t i = (size_t)(p - facts_nvidia_device_table);
	const struct facts_nvidia_chip_row *c = &facts_nvidia_chip_table[p->chip];

	pthread_mutex_lock(&decode_lock);
	if (facts_nvidia_device_decoded[i].device_id == 0) {
		facts_nvidia_device_decoded[i] = (struct facts_nvidia_device){
			.device_id = p->device_id,
			.name = packed_text(p->name),
			.chip = packed_text(c->chip),
			.architecture = packed_text(c->architecture),
			.compute_capability = packed_text(c->compute_capability),
			.cc_major = c->cc_major,
			.cc_minor = c->cc_minor,
			.tegra = c->tegra,
			.legacy_branch = packed_text(p->legacy_branch),
			.kernel_open = packed_text(p->kernel_open),
			.confidence = packed_text(c->confidence),
			.source = packed_text(p->source),
		};
		/* The same device as a GPU table row: the product is the pci.ids name, the segment is
		 * not known from a name. */
		facts_nvidia_device_gpu_decoded[i] = (struct facts_gpu){
			.product = packed_text(p->product),
			.segment = NULL,
			.architecture = packed_text(c->architecture),
			.chip = packed_text(c->chip),
			.compute_capability = packed_text(c->compute_capability),
			.cc_major = c->cc_major,
			.cc_minor = c->cc_minor,
			.pci_vendor_id = 0x10de,
			.pci_device_ids = &p->device_id,
			.n_pci_device_ids = 1,
			.pci_id_confidence = "community(pci.ids)",
			.confidence = packed_text(c->confidence),
			.notes = "compute capability of the chip (nvidia_chips.tsv)",
			.source = packed_text(p->source),
		};
	}
	pthread_mutex_unlock(&decode_lock);
	return i;
}

static const struct facts_nvidia_device_row *device_row(uint16_t device)
{
	return bsearch(&device, facts_nvidia_device_table, facts_nvidia_device_table_len,
		       sizeof(facts_nvidia_device_table[0]), cmp_device_row);
}

int facts_nvidia_device_by_id(uint16_t device, const struct facts_nvidia_device **ret)
{
	const struct facts_nvidia_device_row *p = device_row(device);

	if (!p)
		return -ENOENT;
	*ret = &facts_nvidia_device_decoded[decoded_row(p)];
	return 0;
}

int facts_nvidia_device_gpu_by_id(uint16_t device, const struct facts_gpu **ret)
{
	const struct facts_nvidia_device_row *p = device_row(device);

	if (!p)
		return -ENOENT;
	*ret = &facts_nvidia_device_gpu_decoded[decoded_row(p)];
	return 0;
}
