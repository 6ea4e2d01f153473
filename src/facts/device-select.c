// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * device-select.h. What the runtimes do with the variables (ROCm documentation, "GPU isolation
 * techniques": ROCR_VISIBLE_DEVICES takes indices or UUIDs, HIP_VISIBLE_DEVICES or
 * CUDA_VISIBLE_DEVICES indices "exposed to HIP applications"), in the detail of their sources:
 * - ROCr (ROCR-Runtime src/core/runtime/amd_filter_device.cpp, RvdFilter): set and empty
 *   exposes no GPU; entries split on ',', trimmed and upper-cased; an entry starting with 'G'
 *   is a UUID prefix of 5 to 20 characters that must match exactly one GPU's "GPU-<unique_id
 *   in 16 hex digits>"; any other is read by strtol(…, 0) as a whole and must fall inside the
 *   GPUs (its value kept to 32 bits, as RvdFilter stores it); a GPU named twice ends the list,
 *   and no more entries are read than there are GPUs. The first entry that fails ends it.
 * - HIP (ROCclr device/rocm/rocdevice.cpp, Device::init): HIP_VISIBLE_DEVICES when not empty,
 *   else CUDA_VISIBLE_DEVICES; empty selects every GPU ROCr exposes. Entries split on ',' and
 *   read as they are: one containing "GPU-" becomes the index of the first GPU whose UUID
 *   contains it; an index must be the decimal spelling of a number below the number of GPUs
 *   (no sign, blank or leading zero); a repeated index is skipped; the first entry that fails
 *   ends the list.
 * - ZE_AFFINITY_MASK (Level Zero specification, "Affinity Mask": a comma-separated list of
 *   device and sub-device indices; as intel/compute-runtime's
 *   ExecutionEnvironment::parseAffinityMask reads it): empty or "default" keeps every device;
 *   each entry "X" or "X.Y" is read by std::stoul(…, 0), which throws on a non-number; an
 *   index past the devices is skipped and the rest read on; where tiles are devices
 *   (ZE_FLAT_DEVICE_HIERARCHY FLAT or COMBINED) X counts tiles and "X.Y" is skipped.
 * - ONEAPI_DEVICE_SELECTOR (intel/llvm sycl/doc/EnvironmentVariables.md, its grammar):
 *   ';'-separated filters "[!]backend:devices", backend one of * level_zero opencl cuda hip
 *   native_cpu, devices ','-separated * cpu gpu fpga, an index or a sub-device form, all case
 *   insensitive; discard filters ('!') last and stronger; only discard filters imply "*:*".
 *   Only what it leaves of the Level Zero GPUs is judged (PyTorch XPU and IPEX use those).
 * - CUDA_VISIBLE_DEVICES on NVIDIA GPUs (CUDA C++ Programming Guide, "CUDA Environment
 *   Variables": a comma-separated sequence of GPU indices or GPU-<uuid> strings, a UUID
 *   abbreviated to "enough digits from the beginning ... to uniquely identify that GPU"; "if
 *   one of the indices is invalid, only the devices whose index precedes the invalid index are
 *   visible", e.g. "0,2,-1,1" keeps 0 and 2; NVIDIA's MPS guide: the first few characters of
 *   the UUID "including GPU-"). Set and empty hides every GPU. Only those documented forms are
 *   judged: a decimal index, a negative number, a GPU- prefix matching one GPU (case as NVML
 *   writes it), or a word of letters (no identifier at all, as Slurm's "NoDevFiles"). An
 *   entry CUDA's documentation leaves open (blanks, an empty entry, a leading zero or '+',
 *   digits followed by other characters, a GPU named twice, a UUID prefix several GPUs share
 *   or that matches only ignoring case, a MIG- id) is DEVICE_SELECT_UNSURE.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "facts/device-select.h"
#include "shared/macro.h"

static void stop_at(struct device_select *out, enum device_select_stop stop, size_t entry,
		    const char *text, size_t len)
{
	out->stop = stop;
	out->stop_entry = entry;
	if (len >= sizeof(out->stop_text))
		len = sizeof(out->stop_text) - 1;
	memcpy(out->stop_text, text, len);
	out->stop_text[len] = '\0';
}

static bool already(const struct device_select *out, size_t gpu)
{
	for (size_t i = 0; i < out->n_selected; i++)
		if (out->selected[i] == gpu)
			return true;
	return false;
}

/* ---- ROCr ---- */

/* The number of entries std::getline gives for value split on ',' (a trailing ',' adds none). */
static size_t getline_entries(const char *value)
{
	size_t n = 0;

	for (const char *p = value; *p;) {
		const char *comma = strchr(p, ',');

		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return n;
}

/* RvdFilter::ProcessUuidToken: the one GPU whose upper-cased UUID starts with tok (5 to 20
 * characters); -1 when none, -2 when several. */
static long rocr_uuid(const char *tok, size_t len, const char *const *uuids, size_t n_gpus)
{
	long found = -1;

	if (len < 5 || len > 20)
		return -1;
	for (size_t i = 0; i < n_gpus; i++) {
		const char *u = uuids ? uuids[i] : NULL;
		size_t k = 0;

		if (!u || strlen(u) < len)
			continue;
		while (k < len && toupper((unsigned char)u[k]) == (unsigned char)tok[k])
			k++;
		if (k < len)
			continue;
		if (found >= 0)
			return -2;
		found = (long)i;
	}
	return found;
}

/* One trimmed, upper-cased entry → a GPU index, or a stop. */
static enum device_select_stop rocr_entry(char *tok, const char *const *uuids, size_t n_gpus,
					  size_t *gpu)
{
	char *end = NULL;
	long v;
	int32_t idx;

	if (!*tok)
		return DEVICE_SELECT_NOT_AN_ID; /* RvdFilter reads token.at(0) of it */
	if (tok[0] == 'G') {
		v = rocr_uuid(tok, strlen(tok), uuids, n_gpus);
		if (v < 0)
			return v == -2 ? DEVICE_SELECT_AMBIGUOUS : DEVICE_SELECT_NO_MATCH;
		*gpu = (size_t)v;
		return DEVICE_SELECT_END;
	}
	v = strtol(tok, &end, 0);
	if (*end != '\0')
		return DEVICE_SELECT_NOT_AN_ID;
	idx = (int32_t)(uint32_t)(unsigned long)v; /* stored in an int32_t */
	if (idx < 0)
		return DEVICE_SELECT_NOT_AN_ID;
	if ((size_t)idx >= n_gpus)
		return DEVICE_SELECT_PAST_END;
	*gpu = (size_t)idx;
	return DEVICE_SELECT_END;
}

void device_select_rocr(const char *value, const char *const *uuids, size_t n_gpus,
			struct device_select *out)
{
	size_t entries = getline_entries(value), loop;
	const char *p = value;

	memset(out, 0, sizeof(*out));
	if (!*value) {
		out->stop = DEVICE_SELECT_EMPTY;
		return;
	}
	if (n_gpus > DEVICE_SELECT_MAX)
		n_gpus = DEVICE_SELECT_MAX;
	loop = entries < n_gpus ? entries : n_gpus;
	for (size_t e = 0; e < loop; e++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p), b = 0, gpu = 0;
		enum device_select_stop stop;
		char *tok = malloc(len + 1);

		if (!tok) { /* cannot tell: report nothing selected past here as a stop */
			stop_at(out, DEVICE_SELECT_NOT_AN_ID, e, p, len);
			return;
		}
		while (b < len && isspace((unsigned char)p[b]))
			b++;
		while (len > b && isspace((unsigned char)p[len - 1]))
			len--;
		for (size_t i = b; i < len; i++)
			tok[i - b] = (char)toupper((unsigned char)p[i]);
		tok[len - b] = '\0';
		stop = rocr_entry(tok, uuids, n_gpus, &gpu);
		free(tok);
		if (stop == DEVICE_SELECT_END && already(out, gpu))
			stop = DEVICE_SELECT_REPEATED;
		if (stop != DEVICE_SELECT_END) {
			stop_at(out, stop, e, p + b, len - b);
			return;
		}
		out->selected[out->n_selected++] = gpu;
		p = comma ? comma + 1 : p + strlen(p);
	}
	if (entries > n_gpus) {
		const char *comma = strchr(p, ',');

		stop_at(out, DEVICE_SELECT_MORE_THAN_GPUS, loop, p,
			comma ? (size_t)(comma - p) : strlen(p));
	}
}

/* ---- HIP ---- */

static bool contains_nocase(const char *hay, const char *needle, size_t len)
{
	for (size_t h = 0; hay[h]; h++) {
		size_t k = 0;

		while (k < len && hay[h + k] &&
		       tolower((unsigned char)hay[h + k]) == tolower((unsigned char)needle[k]))
			k++;
		if (k == len)
			return true;
	}
	return false;
}

/* An entry as ROCclr reads it → a GPU index, or a stop. A UUID is matched ignoring case, so
 * that gpuenv never calls a UUID unmatched that the runtime's own spelling would match. */
static enum device_select_stop hip_entry(const char *s, size_t len, const char *const *uuids,
					 size_t n_gpus, size_t *gpu)
{
	size_t v = 0;

	if (memmem(s, len, "GPU-", 4)) {
		for (size_t i = 0; i < n_gpus; i++)
			if (uuids && uuids[i] && contains_nocase(uuids[i], s, len)) {
				*gpu = i;
				return DEVICE_SELECT_END;
			}
		return DEVICE_SELECT_NO_MATCH;
	}
	if (len == 0 || len > 10 || (s[0] == '0' && len > 1))
		return DEVICE_SELECT_NOT_AN_ID;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return DEVICE_SELECT_NOT_AN_ID;
		v = v * 10 + (size_t)(s[i] - '0');
	}
	if (v > INT32_MAX)
		return DEVICE_SELECT_NOT_AN_ID; /* atoi's int cannot spell it back */
	if (v >= n_gpus)
		return DEVICE_SELECT_PAST_END;
	*gpu = v;
	return DEVICE_SELECT_END;
}

void device_select_hip(const char *value, const char *const *uuids, size_t n_gpus,
		       struct device_select *out)
{
	size_t total = strlen(value), pos = 0, entry = 0;

	memset(out, 0, sizeof(*out));
	if (n_gpus > DEVICE_SELECT_MAX)
		n_gpus = DEVICE_SELECT_MAX;
	if (total == 0) {
		for (size_t i = 0; i < n_gpus; i++)
			out->selected[out->n_selected++] = i;
		return;
	}
	do {
		const char *comma = strchr(value + pos, ',');
		size_t end = comma ? (size_t)(comma - value) : total, gpu = 0;
		enum device_select_stop stop =
			hip_entry(value + pos, end - pos, uuids, n_gpus, &gpu);

		if (stop != DEVICE_SELECT_END) {
			stop_at(out, stop, entry, value + pos, end - pos);
			return;
		}
		if (!already(out, gpu))
			out->selected[out->n_selected++] = gpu;
		pos = end + 1;
		entry++;
	} while (pos < total);
}

/* ---- Intel: ZE_AFFINITY_MASK (compute-runtime) ---- */

/* StringHelpers::split: pieces between delimiters, an empty one kept, none after a trailing
 * delimiter. Returns the number of pieces and the first one's end. */
static size_t split_count(const char *s, size_t len, char delim, size_t *first_len)
{
	size_t n = 0, pos = 0;

	*first_len = len;
	while (pos < len) {
		const char *d = memchr(s + pos, delim, len - pos);
		size_t end = d ? (size_t)(d - s) : len;

		if (n == 0)
			*first_len = end;
		n++;
		pos = d ? end + 1 : len;
	}
	return n;
}

/* std::stoul(s, nullptr, 0) kept to 32 bits; false where it throws (no digits, out of
 * range). */
static bool stoul32(const char *s, size_t len, uint32_t *ret)
{
	char buf[64], *end = NULL;
	unsigned long v;

	if (len == 0 || len >= sizeof(buf))
		return false; /* a longer spelling of a number is not judged: called not a number */
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoul(buf, &end, 0);
	if (end == buf || errno == ERANGE)
		return false;
	*ret = (uint32_t)v;
	return true;
}

static void select_once(struct device_select *out, size_t dev)
{
	if (!already(out, dev) && out->n_selected < DEVICE_SELECT_MAX)
		out->selected[out->n_selected++] = dev;
}

static void skip_at(struct device_select *out, enum device_select_stop stop, size_t entry,
		    const char *text, size_t len)
{
	if (out->stop == DEVICE_SELECT_END)
		stop_at(out, stop, entry, text, len);
}

/* One entry "X" or "X.Y" (ExecutionEnvironment::parseAffinityMask); false when the runtime
 * fails on it (the stop says why). */
static bool ze_entry(struct device_select *out, const char *e, size_t len, size_t k,
		     size_t n_devices, size_t max_tiles, enum ze_hierarchy h)
{
	size_t first = 0, parts = split_count(e, len, '.', &first), sub_len;
	const char *sub = e + first + 1;
	uint32_t idx, tile;

	if (parts == 0 || !stoul32(e, first, &idx)) {
		stop_at(out, DEVICE_SELECT_NOT_A_NUMBER, k, e, len);
		return false;
	}
	if (idx >= n_devices) {
		skip_at(out, DEVICE_SELECT_PAST_END, k, e, len);
		return true;
	}
	if (parts == 1) {
		select_once(out, idx);
		return true;
	}
	if (h != ZE_HIERARCHY_COMPOSITE) {
		skip_at(out, DEVICE_SELECT_SUBDEVICE, k, e, len);
		return true;
	}
	split_count(sub, len - first - 1, '.', &sub_len);
	if (!stoul32(sub, sub_len, &tile)) {
		stop_at(out, DEVICE_SELECT_NOT_A_NUMBER, k, e, len);
		return false;
	}
	if (tile >= max_tiles)
		skip_at(out, DEVICE_SELECT_PAST_END, k, e, len);
	else if (parts == 2)
		select_once(out, idx);
	else { /* X.Y.Z: kept by no branch of the parser, more parts abort it */
		stop_at(out, DEVICE_SELECT_UNSURE, k, e, len);
		return false;
	}
	return true;
}

void device_select_ze_mask(const char *value, size_t n_roots, size_t max_tiles, enum ze_hierarchy h,
			   struct device_select *out)
{
	size_t n_devices = h == ZE_HIERARCHY_COMPOSITE ? n_roots : n_roots * max_tiles;
	size_t len = strlen(value), pos = 0, k = 0;

	memset(out, 0, sizeof(*out));
	out->skips = true;
	if (n_devices > DEVICE_SELECT_MAX)
		n_devices = DEVICE_SELECT_MAX;
	if (len == 0 || strcmp(value, "default") == 0) {
		for (size_t i = 0; i < n_devices; i++)
			select_once(out, i);
		return;
	}
	while (pos < len) {
		const char *comma = memchr(value + pos, ',', len - pos);
		size_t end = comma ? (size_t)(comma - value) : len;

		if (!ze_entry(out, value + pos, end - pos, k++, n_devices, max_tiles, h)) {
			out->n_selected = 0;
			out->skips = false;
			return;
		}
		pos = comma ? end + 1 : len;
	}
}

/* ---- Intel: ONEAPI_DEVICE_SELECTOR (the DPC++ runtime) ---- */

static bool lower_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && strncasecmp(s, word, len) == 0;
}

static bool all_digits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return len > 0;
}

/* <num>.<num> | <num>.* | *.* | <num>.<num>.<num> | <num>.<num>.* | <num>.*.* | *.*.*: once
 * a part is '*', every later one is. */
static bool subdevice_form(const char *s, size_t len)
{
	size_t first = 0, parts = split_count(s, len, '.', &first), pos = 0;
	bool star = false;

	if (parts < 2 || parts > 3 || (len && s[len - 1] == '.'))
		return false;
	for (size_t p = 0; p < parts; p++) {
		const char *d = memchr(s + pos, '.', len - pos);
		size_t end = d ? (size_t)(d - s) : len;

		if (end - pos == 1 && s[pos] == '*')
			star = true;
		else if (star || !all_digits(s + pos, end - pos))
			return false;
		pos = end + 1;
	}
	return true;
}

struct oneapi_marks {
	bool accept[DEVICE_SELECT_MAX], discard[DEVICE_SELECT_MAX];
	bool any_accept, maybe; /* maybe: sub-devices accepted, which may be GPUs */
};

/* One device of a term; false outside the grammar. */
static bool oneapi_device(struct oneapi_marks *m, const char *d, size_t len, bool level_zero,
			  bool discard, size_t n_gpus)
{
	bool *mark = discard ? m->discard : m->accept;

	if (lower_is(d, len, "*") || lower_is(d, len, "gpu")) {
		for (size_t i = 0; level_zero && i < n_gpus; i++)
			mark[i] = true;
		return true;
	}
	if (lower_is(d, len, "cpu") || lower_is(d, len, "fpga"))
		return true;
	if (all_digits(d, len)) {
		size_t v = 0;

		for (size_t i = 0; i < len && v < DEVICE_SELECT_MAX; i++)
			v = v * 10 + (size_t)(d[i] - '0');
		if (level_zero && v < n_gpus)
			mark[v] = true;
		return true;
	}
	if (!subdevice_form(d, len))
		return false;
	m->maybe |= level_zero && !discard;
	return true;
}

/* One filter "[!]backend:devices"; false outside the grammar. */
static bool oneapi_term(struct oneapi_marks *m, const char *t, size_t len, bool *seen_discard,
			size_t n_gpus)
{
	static const char *const backends[] = { "*",	"level_zero", "opencl",
						"cuda", "hip",	      "native_cpu" };
	bool discard = len > 0 && t[0] == '!', known = false, level_zero;
	const char *colon, *dev;
	size_t blen, pos;

	if (discard) {
		t++;
		len--;
	} else if (*seen_discard) {
		return false; /* accept filters must come before every discard filter */
	}
	colon = memchr(t, ':', len);
	if (!colon || (size_t)(colon - t) + 1 >= len)
		return false;
	blen = (size_t)(colon - t);
	for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
		known |= lower_is(t, blen, backends[i]);
	if (!known)
		return false;
	level_zero = lower_is(t, blen, "*") || lower_is(t, blen, "level_zero");
	dev = colon + 1;
	len -= blen + 1;
	for (pos = 0; pos < len;) {
		const char *comma = memchr(dev + pos, ',', len - pos);
		size_t end = comma ? (size_t)(comma - dev) : len;

		if (end == pos ||
		    !oneapi_device(m, dev + pos, end - pos, level_zero, discard, n_gpus))
			return false;
		pos = comma ? end + 1 : len;
		if (comma && pos == len)
			return false; /* a trailing ',' leaves an empty device */
	}
	*seen_discard |= discard;
	m->any_accept |= !discard;
	return true;
}

void device_select_oneapi(const char *value, size_t n_gpus, struct device_select *out)
{
	struct oneapi_marks m = { 0 };
	size_t len = strlen(value), pos = 0, k = 0;
	bool seen_discard = false;

	memset(out, 0, sizeof(*out));
	if (n_gpus > DEVICE_SELECT_MAX)
		n_gpus = DEVICE_SELECT_MAX;
	for (size_t i = 0; i < len; i++)
		if (isspace((unsigned char)value[i])) {
			stop_at(out, DEVICE_SELECT_UNSURE, 0, value, len);
			return;
		}
	if (len == 0) {
		stop_at(out, DEVICE_SELECT_UNSURE, 0, value, len);
		return;
	}
	while (pos < len) {
		const char *semi = memchr(value + pos, ';', len - pos);
		size_t end = semi ? (size_t)(semi - value) : len;

		if (!oneapi_term(&m, value + pos, end - pos, &seen_discard, n_gpus)) {
			stop_at(out, DEVICE_SELECT_MALFORMED, k, value + pos, end - pos);
			return;
		}
		pos = semi ? end + 1 : len;
		k++;
	}
	for (size_t i = 0; i < n_gpus; i++)
		if ((m.accept[i] || !m.any_accept) && !m.discard[i])
			select_once(out, i);
	if (out->n_selected == 0)
		stop_at(out, m.maybe ? DEVICE_SELECT_UNSURE : DEVICE_SELECT_NO_LEVEL_ZERO_GPU, 0,
			value, len);
}

/* ---- NVIDIA: CUDA_VISIBLE_DEVICES ---- */

static bool all_of(const char *s, size_t len, const char *set)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(set, s[i]))
			return false;
	return true;
}

/* A "GPU-" entry: the one GPU whose UUID starts with it. */
static enum device_select_stop cuda_uuid(const char *s, size_t len, const char *const *uuids,
					 size_t n_gpus, size_t *gpu)
{
	size_t exact = 0, folded = 0;

	if (len <= 4)
		return DEVICE_SELECT_UNSURE; /* "GPU-" alone: no digit to match */
	for (size_t i = 0; i < n_gpus; i++) {
		const char *u = uuids ? uuids[i] : NULL;

		if (!u)
			return DEVICE_SELECT_UNSURE; /* the unread UUID may be the one named */
		if (strlen(u) < len)
			continue;
		if (memcmp(u, s, len) == 0) {
			exact++;
			*gpu = i;
		} else if (strncasecmp(u, s, len) == 0) {
			folded++;
		}
	}
	if (exact == 1 && folded == 0)
		return DEVICE_SELECT_END;
	return exact || folded ? DEVICE_SELECT_UNSURE : DEVICE_SELECT_NO_MATCH;
}

/* One entry → a GPU index, or why CUDA stops there (or UNSURE). */
static enum device_select_stop cuda_entry(const char *s, size_t len, const char *const *uuids,
					  size_t n_gpus, size_t *gpu)
{
	size_t v = 0;

	if (len == 0)
		return DEVICE_SELECT_UNSURE;
	if (len >= 4 && memcmp(s, "MIG-", 4) == 0)
		return DEVICE_SELECT_UNSURE;
	if (len >= 4 && memcmp(s, "GPU-", 4) == 0)
		return cuda_uuid(s, len, uuids, n_gpus, gpu);
	if (s[0] == '-' && len > 1 && all_of(s + 1, len - 1, "0123456789"))
		return DEVICE_SELECT_NOT_AN_ID; /* the guide's "-1" */
	if (all_of(s, len, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
		return DEVICE_SELECT_NOT_AN_ID;
	if (!all_of(s, len, "0123456789") || (s[0] == '0' && len > 1) || len > 9)
		return DEVICE_SELECT_UNSURE;
	for (size_t i = 0; i < len; i++)
		v = v * 10 + (size_t)(s[i] - '0');
	if (v >= n_gpus)
		return DEVICE_SELECT_PAST_END;
	*gpu = v;
	return DEVICE_SELECT_END;
}

void device_select_cuda(const char *value, const char *const *uuids, size_t n_gpus,
			struct device_select *out)
{
	size_t total = strlen(value), pos = 0, entry = 0;

	memset(out, 0, sizeof(*out));
	if (n_gpus > DEVICE_SELECT_MAX)
		n_gpus = DEVICE_SELECT_MAX;
	if (total == 0) {
		out->stop = DEVICE_SELECT_EMPTY;
		return;
	}
	for (;;) {
		const char *comma = memchr(value + pos, ',', total - pos);
		size_t end = comma ? (size_t)(comma - value) : total, gpu = 0;
		enum device_select_stop stop =
			cuda_entry(value + pos, end - pos, uuids, n_gpus, &gpu);

		if (stop == DEVICE_SELECT_END && already(out, gpu))
			stop = DEVICE_SELECT_UNSURE; /* a GPU named twice: not documented */
		if (stop != DEVICE_SELECT_END) {
			stop_at(out, stop, entry, value + pos, end - pos);
			return;
		}
		out->selected[out->n_selected++] = gpu;
		if (!comma)
			return;
		pos = end + 1;
		entry++;
	}
}

const char *device_select_stop_words(enum device_select_stop stop)
{
	switch (stop) {
	case DEVICE_SELECT_END:
		return "";
	case DEVICE_SELECT_EMPTY:
		return "is set and empty";
	case DEVICE_SELECT_NOT_AN_ID:
		return "is not a GPU index or UUID the runtime accepts";
	case DEVICE_SELECT_PAST_END:
		return "is an index past the GPUs";
	case DEVICE_SELECT_NO_MATCH:
		return "is a UUID no GPU has";
	case DEVICE_SELECT_AMBIGUOUS:
		return "is a UUID prefix several GPUs share";
	case DEVICE_SELECT_REPEATED:
		return "names a GPU a second time";
	case DEVICE_SELECT_MORE_THAN_GPUS:
		return "is past as many entries as there are GPUs";
	case DEVICE_SELECT_NOT_A_NUMBER:
		return "is not a number (compute-runtime's std::stoul throws on it)";
	case DEVICE_SELECT_SUBDEVICE:
		return "names a tile, which is ignored where each tile is a device (FLAT)";
	case DEVICE_SELECT_MALFORMED:
		return "is outside the variable's grammar: the SYCL runtime refuses it";
	case DEVICE_SELECT_NO_LEVEL_ZERO_GPU:
		return "accepts no Level Zero GPU";
	case DEVICE_SELECT_UNSURE:
		return "is a form gpuenv does not judge";
	}
	return "";
}
