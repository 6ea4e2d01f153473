// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One device, one element (`gpuenv explain`): each reader numbers the devices it sees from 0
 * in its own order (lspci lists an Intel iGPU first, rocm-smi only the AMD GPUs, nvidia-smi and
 * collect_env the NVIDIA ones), so "hardware.gpus.0" of two readers may be two GPUs, and
 * "driver.nvml.devices.1" of nvidia-smi and "…devices.0" of another paste may be one. Before
 * the facts become a snapshot, each reader's own list of facts is merged into one and its
 * devices given one numbering: a reader's
 * device joins the element whose PCI bus id (or UUID) it shares; else the element of its own
 * index when nothing identifying differs (bus id, UUID, vendor and device ids, vendor, name,
 * a name nvidia-smi cut with "..." matching its start); else a new element. Within a reader,
 * the later fact for a path still wins.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/pasted-merge.h"
#include "shared/macro.h"

#define GROUPS_MAX 256 /* (reader, index) pairs per device list; past it: left as read */
#define IDS	   6

static const struct list {
	const char *prefix;
	const char *ids[IDS]; /* the keys that tell one device from another; [0] the bus id */
} lists[] = {
	{ "hardware.gpus.", { "bus_id", "vendor_id", "device_id", "vendor", NULL } },
	{ "driver.nvml.devices.", { "pci_bus_id", "uuid", "name", NULL } },
	{ "driver.cuda.devices.", { "pci_bus_id", "uuid", "name", NULL } },
};

struct group {
	size_t src; /* the reader's list */
	unsigned index, slot;
	const char *id[IDS];
};

/* "hardware.gpus.3.bus_id" of list l: the index and the key after it. */
static bool split(const char *path, const struct list *l, unsigned *ret_index, const char **ret_key)
{
	size_t pl = strlen(l->prefix);
	char *end;
	unsigned long i;

	if (strncmp(path, l->prefix, pl) != 0 || path[pl] < '0' || path[pl] > '9')
		return false;
	i = strtoul(path + pl, &end, 10);
	if (*end != '.' || i > 99999)
		return false;
	*ret_index = (unsigned)i;
	*ret_key = end + 1;
	return true;
}

/* PCI bus ids as nvidia-smi ("00000000:01:00.0"), lspci ("01:00.0") and sysfs write them. */
static bool same_bus(const char *a, const char *b)
{
	unsigned d[2] = { 0 }, bus[2], dev[2], fn[2];
	const char *s[2] = { a, b };

	for (int k = 0; k < 2; k++) {
		if (sscanf(s[k], "%x:%x:%x.%x", &d[k], &bus[k], &dev[k], &fn[k]) == 4)
			continue;
		d[k] = 0; /* lspci without -D */
		if (sscanf(s[k], "%x:%x.%x", &bus[k], &dev[k], &fn[k]) != 3)
			return strcasecmp(a, b) == 0;
	}
	return d[0] == d[1] && bus[0] == bus[1] && dev[0] == dev[1] && fn[0] == fn[1];
}

/* Names that may be one GPU's: equal past a leading "NVIDIA ", or one cut by nvidia-smi
 * ("NVIDIA A100-SXM...") the start of the other. */
static bool same_name(const char *a, const char *b)
{
	size_t la, lb;

	if (strncmp(a, "NVIDIA ", 7) == 0)
		a += 7;
	if (strncmp(b, "NVIDIA ", 7) == 0)
		b += 7;
	la = strlen(a);
	lb = strlen(b);
	if (la > 3 && strcmp(a + la - 3, "...") == 0)
		return strncmp(a, b, la - 3) == 0;
	if (lb > 3 && strcmp(b + lb - 3, "...") == 0)
		return strncmp(a, b, lb - 3) == 0;
	return strcmp(a, b) == 0;
}

static bool same_id(const struct list *l, size_t k, const char *a, const char *b)
{
	if (k == 0)
		return same_bus(a, b);
	if (strcmp(l->ids[k], "name") == 0)
		return same_name(a, b);
	return strcasecmp(a, b) == 0;
}

/* Does g say it is the device of slot s (a shared bus id or UUID)? */
static bool identifies(const struct list *l, const struct group *g, const struct group *s)
{
	for (size_t k = 0; k < IDS && l->ids[k]; k++)
		if ((k == 0 || strcmp(l->ids[k], "uuid") == 0) && g->id[k] && s->id[k])
			return same_id(l, k, g->id[k], s->id[k]);
	return false;
}

static bool conflicts(const struct list *l, const struct group *g, const struct group *s)
{
	for (size_t k = 0; k < IDS && l->ids[k]; k++)
		if (g->id[k] && s->id[k] && !same_id(l, k, g->id[k], s->id[k]))
			return true;
	return false;
}

/* The elements of one list: groups[] in order of first appearance, each given the element
 * (slot) it joins. An element's identity is the union of its groups' (slots[].id), its
 * number the first group's index when no earlier element took it, else the next free one. */
static void assign(const struct list *l, struct group *groups, size_t n)
{
	struct group slots[GROUPS_MAX];
	size_t n_slots = 0;
	unsigned next = 0;

	for (size_t i = 0; i < n; i++) {
		struct group *g = &groups[i];
		size_t s = SIZE_MAX;

		for (size_t j = 0; j < n_slots && s == SIZE_MAX; j++)
			if (identifies(l, g, &slots[j]))
				s = j;
		for (size_t j = 0; j < n_slots && s == SIZE_MAX; j++)
			if (slots[j].slot == g->index && !conflicts(l, g, &slots[j]))
				s = j;
		if (s == SIZE_MAX) {
			unsigned number = g->index;

			for (size_t j = 0; j < n_slots; j++)
				if (slots[j].slot == number)
					number = next;
			s = n_slots++;
			slots[s] = (struct group){ .slot = number };
			if (number >= next)
				next = number + 1;
		}
		g->slot = slots[s].slot;
		for (size_t k = 0; k < IDS; k++)
			if (!slots[s].id[k])
				slots[s].id[k] = g->id[k];
	}
}

/* The group of (src, index) in groups[0..*n), added when new; NULL past GROUPS_MAX, or out of
 * memory (*oom set). The array grows as groups come: a paste names a few devices, and a
 * GROUPS_MAX array for each list (48 KiB zeroed) was a dozen pages first touched by every run
 * (docs/explain.md, "Performance: a typical paste"). */
static struct group *group_of(struct group **groups, size_t *n, size_t *cap, size_t src,
			      unsigned index, bool *oom)
{
	for (size_t i = 0; i < *n; i++)
		if ((*groups)[i].index == index && (*groups)[i].src == src)
			return &(*groups)[i];
	if (*n >= GROUPS_MAX)
		return NULL;
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 8;
		struct group *g = realloc(*groups, c * sizeof(**groups));

		if (!g) {
			*oom = true;
			return NULL;
		}
		*groups = g;
		*cap = c;
	}
	(*groups)[*n] = (struct group){ .src = src, .index = index };
	return &(*groups)[(*n)++];
}

static int put(struct pasted_facts *out, const struct pasted_fact *v, const char *path)
{
	if (v->absent)
		return pasted_facts_add_absent(out, v->reader, path, v->value, v->line);
	return v->failed ? pasted_facts_add_error(out, v->reader, path, v->value, v->line)
			 : pasted_facts_add(out, v->reader, path, v->value, v->line);
}

int pasted_facts_merge(const struct pasted_facts *in, size_t n_in, struct pasted_facts *out)
{
	const size_t n_lists = ARRAY_SIZE(lists);
	struct group *groups[ARRAY_SIZE(lists)] = { NULL };
	size_t n[ARRAY_SIZE(lists)] = { 0 };
	size_t cap[ARRAY_SIZE(lists)] = { 0 };
	bool oom = false;
	int r = 0;

	for (size_t src = 0; src < n_in && !oom; src++)
		for (size_t i = 0; i < in[src].n && !oom; i++)
			for (size_t l = 0; l < n_lists; l++) {
				const struct pasted_fact *v = &in[src].v[i];
				const char *key;
				unsigned idx;
				struct group *g;

				if (!split(v->path, &lists[l], &idx, &key) ||
				    !(g = group_of(&groups[l], &n[l], &cap[l], src, idx, &oom)))
					continue;
				for (size_t k = 0; k < IDS && lists[l].ids[k]; k++)
					if (strcmp(key, lists[l].ids[k]) == 0 && !v->failed &&
					    !v->absent)
						g->id[k] = v->value;
			}
	if (oom)
		r = -ENOMEM;
	for (size_t l = 0; l < n_lists && r >= 0; l++)
		assign(&lists[l], groups[l], n[l]);
	for (size_t src = 0; src < n_in && r >= 0; src++) {
		for (size_t i = 0; i < in[src].n && r >= 0; i++) {
			const struct pasted_fact *v = &in[src].v[i];
			char path[512];
			const char *key;
			unsigned idx;
			struct group *g = NULL;
			size_t l;

			/* every (reader, index) has its group by now: none is added here */
			for (l = 0; l < n_lists && !g; l++)
				if (split(v->path, &lists[l], &idx, &key))
					g = group_of(&groups[l], &n[l], &cap[l], src, idx, &oom);
			if (oom)
				r = -ENOMEM;
			else if (g &&
				 (size_t)snprintf(path, sizeof(path), "%s%u.%s",
						  lists[l - 1].prefix, g->slot, key) < sizeof(path))
				r = put(out, v, path);
			else
				r = put(out, v, v->path);
		}
		out->dropped += in[src].dropped;
	}
	for (size_t l = 0; l < n_lists; l++)
		free(groups[l]);
	return r;
}
