// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of nvidia-smi's answer to a MIG mode change it could not activate (`gpuenv explain`):
 * `nvidia-smi -mig 0|1` prints, per GPU whose reset failed,
 *   "Warning: MIG mode is in pending disable state for GPU 00000000:C1:00.0:In use by another
 *   client"
 * (NVIDIA/gpu-operator#118; "pending enable" in NVIDIA/gpu-operator#1845). nvidia-smi sets the
 * mode with nvmlDeviceSetMigMode, which resets the GPU to activate it and otherwise leaves the
 * requested mode pending, returning why in its activation status (NVML_ERROR_IN_USE: a client
 * holds the GPU; NVML_ERROR_RESET_REQUIRED: passthrough, a VM reboot is needed; NVML reference,
 * nvmlDeviceSetMigMode). A pending state is a requested mode not yet the current one
 * (nvmlDeviceGetMigMode: "the pending MIG mode refers to the target mode following the next
 * activation trigger"), so the line gives both: pending disable is current on, pending enable
 * current off, under the keys the NVML probe writes (mig_mode, mig_mode_pending). Devices are
 * numbered by their bus ids' order here; pasted-merge.c matches them to the other readers' by
 * bus id. Samples: tests/unit/test-pasted-nvidia-smi-mig.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define DEV	"driver.nvml.devices.%u.%s"
#define MAX_GPU 64 /* distinct bus ids kept; more GPUs than any board has */

static const char pending[] = "MIG mode is in pending ";
static const char state_for[] = " state for GPU ";

/* The length of the bus id at s ("00000000:C1:00.0" or "0000:03:00.0"), 0 if none: the
 * domain's 4 to 8 hex digits, bus, device and function, then the end or a ':'. */
static size_t bus_id_len(const char *s)
{
	size_t d = 0;

	while (isxdigit((unsigned char)s[d]))
		d++;
	if (d < 4 || d > 8 || s[d] != ':' || !isxdigit((unsigned char)s[d + 1]) ||
	    !isxdigit((unsigned char)s[d + 2]) || s[d + 3] != ':' ||
	    !isxdigit((unsigned char)s[d + 4]) || !isxdigit((unsigned char)s[d + 5]) ||
	    s[d + 6] != '.' || s[d + 7] < '0' || s[d + 7] > '7')
		return 0;
	if (s[d + 8] && s[d + 8] != ':' && !isspace((unsigned char)s[d + 8]))
		return 0;
	return d + 8;
}

struct mig {
	struct pasted_out o;
	char bus[MAX_GPU][20];
	unsigned n;
};

/* The device number of a bus id (case as printed), a new one for a bus id not seen; false
 * past MAX_GPU. */
static bool device_of(struct mig *m, const char *bus, unsigned *ret)
{
	for (unsigned i = 0; i < m->n; i++)
		if (strcasecmp(m->bus[i], bus) == 0) {
			*ret = i;
			return true;
		}
	if (m->n == MAX_GPU)
		return false;
	strcpy(m->bus[m->n], bus);
	*ret = m->n++;
	return true;
}

static void mig_line(struct mig *m, unsigned no, const char *line)
{
	const char *s = strstr(line, pending), *word;
	bool enable;
	char bus[20];
	size_t l;
	unsigned dev;

	if (!s)
		return;
	word = s + strlen(pending);
	if (strncmp(word, "enable", 6) == 0)
		enable = true;
	else if (strncmp(word, "disable", 7) == 0)
		enable = false;
	else
		return;
	s = word + (enable ? 6 : 7);
	if (strncmp(s, state_for, strlen(state_for)) != 0)
		return;
	s += strlen(state_for);
	if (!(l = bus_id_len(s)) || l >= sizeof(bus))
		return;
	memcpy(bus, s, l);
	bus[l] = '\0';
	if (!device_of(m, bus, &dev))
		return;
	pasted_put(&m->o, no, bus, DEV, dev, "pci_bus_id");
	pasted_put(&m->o, no, enable ? "false" : "true", DEV, dev, "mig_mode");
	pasted_put(&m->o, no, enable ? "true" : "false", DEV, dev, "mig_mode_pending");
}

int pasted_read_nvidia_smi_mig(const char *text, size_t len, struct pasted_facts *out)
{
	struct mig m = { .o = { .f = out, .reader = "nvidia-smi-mig" } };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && m.o.err >= 0)
		mig_line(&m, it.no, line);
	pasted_lines_done(&it);
	return pasted_out_result(&m.o);
}
