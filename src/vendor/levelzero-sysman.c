// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Level Zero session's Sysman readings (zes_api.h, "Level Zero Sysman API"; layouts in
 * levelzero-abi.h), after the core API's devices: zesInit(0), then every Sysman device, tied
 * to its zeDeviceGet device by the core properties' uuid, gives under devices.N
 * "temperature_global_c", "temperature_gpu_c", "temperature_memory_c" (the maxima sensors,
 * degrees rounded), "energy_uj" (zesPowerGetEnergyCounter), "memory_used_bytes" (size - free
 * of the device-local modules), "ras_correctable" / "ras_uncorrectable" (the sum of every
 * category of the error sets of that type; read with clear = 0, never reset) and
 * "ras_uncorrectable_hardware": the uncorrectable sets' compute, non-compute, cache and
 * display categories alone, the errors of the hardware itself (zes_ras_error_cat_t: the
 * reset, programming and driver categories count engine resets, workloads' own exceptions
 * and driver communication errors).
 * "engine_<group>_activity_pct" for the combined engine groups all, compute, render, media and
 * copy: the change of zesEngineGetActivity's activeTime over the change of its timestamp
 * between two readings ENGINE_INTERVAL_MS apart, as a whole percent (absent where the driver
 * lists no such group: some list single engines only).
 * Readings of the device itself are preferred; a device whose handles are all on its
 * sub-devices (tiles) gives their maximum (temperatures) or sum (counters). A failed call
 * spoils the reading it feeds: recorded on that key of that GPU (unsupported, unreadable or
 * error), never fatal, never a partial sum. zesInit failing or missing (loaders before
 * spec 1.5) leaves every key unprobed, with the reason on the top-level "sysman" fact.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "levelzero-internal.h"

#define ZES_MAX_HANDLES 32u

static const char *const sysman_keys[] = {
	"temperature_global_c",	      "temperature_gpu_c",
	"temperature_memory_c",	      "energy_uj",
	"memory_used_bytes",	      "ras_correctable",
	"ras_uncorrectable",	      "ras_uncorrectable_hardware",
	"engine_all_activity_pct",    "engine_compute_activity_pct",
	"engine_render_activity_pct", "engine_media_activity_pct",
	"engine_copy_activity_pct",   NULL
};

/* One reading being gathered from a device's handles. */
struct zes_reading {
	const char *key, *call; /* call: where the value comes from */
	bool max;		/* temperatures: the hottest; counters: the sum */
	unsigned n_dev, n_sub;	/* readings on the device itself, on its sub-devices */
	int64_t dev, sub;
	ze_result_t rc; /* the first failure, on fail_call */
	const char *fail_call;
	bool malformed;
};

static void reading_add(struct zes_reading *r, bool on_subdevice, int64_t v)
{
	unsigned *n = on_subdevice ? &r->n_sub : &r->n_dev;
	int64_t *acc = on_subdevice ? &r->sub : &r->dev;

	if (*n == 0)
		*acc = v;
	else if (r->max)
		*acc = MAX(*acc, v);
	else
		*acc = v > INT64_MAX - *acc ? INT64_MAX : *acc + v;
	(*n)++;
}

static void reading_fail(struct zes_reading *r, const char *call, ze_result_t rc)
{
	if (r->rc == ZE_RESULT_SUCCESS) {
		r->rc = rc;
		r->fail_call = call;
	}
}

static void reading_put(struct levelzero *z, const struct zes_reading *r, const char *absent)
{
	if (r->rc != ZE_RESULT_SUCCESS)
		ze_fail(z, r->fail_call, r->rc, r->key);
	else if (r->malformed)
		vw_state(z->w, r->key, r->call, "malformed", "a reading out of range");
	else if (r->n_dev || r->n_sub) {
		z->w->call = r->call;
		vw_int(z->w, r->key, r->n_dev ? r->dev : r->sub);
	} else
		vw_state(z->w, r->key, r->call, "absent", "%s", absent);
}

/* Calls fn and returns its result, announcing it first (hang attribution). */
#define ZES_CALL(z, key, fn, args)                                                                 \
	({                                                                                         \
		ze_result_t _rc = ZE_MISSING;                                                      \
		if ((z)->f.fn) {                                                                   \
			vw_begin((z)->w, key, (z)->f.fn##_name);                                   \
			_rc = (z)->f.fn args;                                                      \
		}                                                                                  \
		_rc;                                                                               \
	})
#define ZES_NAME(z, fn) ((z)->f.fn##_name ? (z)->f.fn##_name : #fn)

/* The handles an enumeration gives (count, then fill); false with the failure on every r. */
#define ZES_ENUM(z, fn, h, handles, n, r, n_r)                                                     \
	({                                                                                         \
		ze_result_t _erc = ZES_CALL(z, (r)[0].key, fn, (h, &(n), NULL));                   \
		(n) = MIN((n), ZES_MAX_HANDLES);                                                   \
		if (_erc == ZE_RESULT_SUCCESS && (n))                                              \
			_erc = ZES_CALL(z, (r)[0].key, fn, (h, &(n), handles));                    \
		(n) = MIN((n), ZES_MAX_HANDLES);                                                   \
		for (size_t _i = 0; _erc != ZE_RESULT_SUCCESS && _i < (n_r); _i++)                 \
			reading_fail(&(r)[_i], ZES_NAME(z, fn), _erc);                             \
		_erc == ZE_RESULT_SUCCESS;                                                         \
	})

static void sysman_temperatures(struct levelzero *z, zes_device_handle_t h)
{
	const char *call = ZES_NAME(z, zesTemperatureGetState);
	struct zes_reading r[] = {
		{ .key = "temperature_global_c", .call = call, .max = true },
		{ .key = "temperature_gpu_c", .call = call, .max = true },
		{ .key = "temperature_memory_c", .call = call, .max = true },
	};
	zes_temp_handle_t t[ZES_MAX_HANDLES];
	uint32_t n = 0;

	if (ZES_ENUM(z, zesDeviceEnumTemperatureSensors, h, t, n, r, ARRAY_SIZE(r)))
		for (uint32_t k = 0; k < n; k++) {
			struct zes_temp_properties p = {
				.stype = ZES_STRUCTURE_TYPE_TEMP_PROPERTIES
			};
			ze_result_t rc;
			double c = 0;

			rc = ZES_CALL(z, r[0].key, zesTemperatureGetProperties, (t[k], &p));
			if (rc != ZE_RESULT_SUCCESS) { /* which sensor it is is not known */
				for (size_t i = 0; i < ARRAY_SIZE(r); i++)
					reading_fail(&r[i],
						     ZES_NAME(z, zesTemperatureGetProperties), rc);
				continue;
			}
			if (p.type > ZES_TEMP_SENSORS_MEMORY)
				continue; /* the minima, board and regulator sensors */
			rc = ZES_CALL(z, r[p.type].key, zesTemperatureGetState, (t[k], &c));
			if (rc != ZE_RESULT_SUCCESS)
				reading_fail(&r[p.type], call, rc);
			else if (!isfinite(c) || c < -273.15 || c > 1000)
				r[p.type].malformed = true;
			else
				reading_add(&r[p.type], p.onSubdevice,
					    (int64_t)(c < 0 ? c - 0.5 : c + 0.5));
		}
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		reading_put(z, &r[i], "no such temperature sensor");
}

static void sysman_energy(struct levelzero *z, zes_device_handle_t h)
{
	struct zes_reading r[] = {
		{ .key = "energy_uj", .call = ZES_NAME(z, zesPowerGetEnergyCounter) },
	};
	zes_pwr_handle_t d[ZES_MAX_HANDLES];
	uint32_t n = 0;

	if (ZES_ENUM(z, zesDeviceEnumPowerDomains, h, d, n, r, 1))
		for (uint32_t k = 0; k < n; k++) {
			struct zes_power_properties p = {
				.stype = ZES_STRUCTURE_TYPE_POWER_PROPERTIES
			};
			struct zes_power_energy_counter e = { 0 };
			ze_result_t rc;

			rc = ZES_CALL(z, r[0].key, zesPowerGetProperties, (d[k], &p));
			if (rc != ZE_RESULT_SUCCESS) {
				reading_fail(&r[0], ZES_NAME(z, zesPowerGetProperties), rc);
				continue;
			}
			rc = ZES_CALL(z, r[0].key, zesPowerGetEnergyCounter, (d[k], &e));
			if (rc != ZE_RESULT_SUCCESS)
				reading_fail(&r[0], r[0].call, rc);
			else if (e.energy > INT64_MAX)
				r[0].malformed = true;
			else
				reading_add(&r[0], p.onSubdevice, (int64_t)e.energy);
		}
	reading_put(z, &r[0], "no power domain");
}

static void sysman_memory(struct levelzero *z, zes_device_handle_t h)
{
	struct zes_reading r[] = {
		{ .key = "memory_used_bytes", .call = ZES_NAME(z, zesMemoryGetState) },
	};
	zes_mem_handle_t m[ZES_MAX_HANDLES];
	uint32_t n = 0;

	if (ZES_ENUM(z, zesDeviceEnumMemoryModules, h, m, n, r, 1))
		for (uint32_t k = 0; k < n; k++) {
			struct zes_mem_properties p = { .stype =
								ZES_STRUCTURE_TYPE_MEM_PROPERTIES };
			struct zes_mem_state s = { .stype = ZES_STRUCTURE_TYPE_MEM_STATE };
			ze_result_t rc;

			rc = ZES_CALL(z, r[0].key, zesMemoryGetProperties, (m[k], &p));
			if (rc != ZE_RESULT_SUCCESS) {
				reading_fail(&r[0], ZES_NAME(z, zesMemoryGetProperties), rc);
				continue;
			}
			if (p.location != ZES_MEM_LOC_DEVICE)
				continue; /* system memory an integrated GPU shares */
			rc = ZES_CALL(z, r[0].key, zesMemoryGetState, (m[k], &s));
			if (rc != ZE_RESULT_SUCCESS)
				reading_fail(&r[0], r[0].call, rc);
			else if (s.free > s.size || s.size > INT64_MAX)
				r[0].malformed = true;
			else /* every module counts: a tile's memory is its own */
				reading_add(&r[0], false, (int64_t)(s.size - s.free));
		}
	reading_put(z, &r[0], "no device-local memory module");
}

static void sysman_ras(struct levelzero *z, zes_device_handle_t h)
{
	const char *call = ZES_NAME(z, zesRasGetState);
	struct zes_reading r[] = {
		{ .key = "ras_correctable", .call = call },
		{ .key = "ras_uncorrectable", .call = call },
		{ .key = "ras_uncorrectable_hardware", .call = call },
	};
	zes_ras_handle_t e[ZES_MAX_HANDLES];
	uint32_t n = 0;

	if (ZES_ENUM(z, zesDeviceEnumRasErrorSets, h, e, n, r, ARRAY_SIZE(r)))
		for (uint32_t k = 0; k < n; k++) {
			struct zes_ras_properties p = { .stype =
								ZES_STRUCTURE_TYPE_RAS_PROPERTIES };
			struct zes_ras_state s = { .stype = ZES_STRUCTURE_TYPE_RAS_STATE };
			uint64_t sum = 0, hw = 0;
			ze_result_t rc;

			rc = ZES_CALL(z, r[0].key, zesRasGetProperties, (e[k], &p));
			if (rc != ZE_RESULT_SUCCESS) {
				for (size_t i = 0; i < ARRAY_SIZE(r); i++)
					reading_fail(&r[i], ZES_NAME(z, zesRasGetProperties), rc);
				continue;
			}
			if (p.type > ZES_RAS_ERROR_TYPE_UNCORRECTABLE)
				continue;
			rc = ZES_CALL(z, r[p.type].key, zesRasGetState, (e[k], 0, &s));
			if (rc != ZE_RESULT_SUCCESS) {
				reading_fail(&r[p.type], call, rc);
				if (p.type == ZES_RAS_ERROR_TYPE_UNCORRECTABLE)
					reading_fail(&r[2], call, rc);
				continue;
			}
			for (unsigned c = 0; c < ZES_MAX_RAS_ERROR_CATEGORY_COUNT; c++) {
				sum = s.category[c] > UINT64_MAX - sum ? UINT64_MAX
								       : sum + s.category[c];
				if (c >= ZES_RAS_ERROR_CAT_COMPUTE_ERRORS) /* the hardware's own */
					hw = s.category[c] > UINT64_MAX - hw ? UINT64_MAX
									     : hw + s.category[c];
			}
			reading_add(&r[p.type], p.onSubdevice,
				    (int64_t)MIN(sum, (uint64_t)INT64_MAX));
			if (p.type == ZES_RAS_ERROR_TYPE_UNCORRECTABLE)
				reading_add(&r[2], p.onSubdevice,
					    (int64_t)MIN(hw, (uint64_t)INT64_MAX));
		}
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		reading_put(z, &r[i], "no RAS error set of this type");
}

#define ENGINE_INTERVAL_MS 50u /* between the two activity readings of a GPU */

/* The combined engine groups read, each a key of sysman_keys[] */
static const struct {
	uint32_t group;
	const char *key;
} engine_groups[] = {
	{ ZES_ENGINE_GROUP_ALL, "engine_all_activity_pct" },
	{ ZES_ENGINE_GROUP_COMPUTE_ALL, "engine_compute_activity_pct" },
	{ ZES_ENGINE_GROUP_RENDER_ALL, "engine_render_activity_pct" },
	{ ZES_ENGINE_GROUP_MEDIA_ALL, "engine_media_activity_pct" },
	{ ZES_ENGINE_GROUP_COPY_ALL, "engine_copy_activity_pct" },
};

/* One engine group handle between its two readings. */
struct engine_sample {
	zes_engine_handle_t h;
	unsigned which; /* index in engine_groups[] */
	bool on_subdevice, read;
	struct zes_engine_stats first;
};

/* Busy time over elapsed time, summed over a group's handles (the device's own preferred to
 * its tiles'), as a whole percent. */
struct engine_ratio {
	double busy[2], elapsed[2]; /* [0] the device's handles, [1] its tiles' */
	unsigned n[2];
};

static void engine_put(struct levelzero *z, struct zes_reading *r, const struct engine_ratio *e)
{
	unsigned k = e->n[0] ? 0 : 1;

	if (r->rc == ZE_RESULT_SUCCESS && !r->malformed && e->n[k]) {
		if (!(e->elapsed[k] > 0)) {
			r->malformed = true; /* the timestamp did not move */
		} else {
			r->n_dev = 1;
			r->dev = (int64_t)(100.0 * e->busy[k] / e->elapsed[k] + 0.5);
		}
	}
	reading_put(z, r, "no such engine group");
}

static void sysman_engines(struct levelzero *z, zes_device_handle_t h)
{
	const char *call = ZES_NAME(z, zesEngineGetActivity);
	struct zes_reading r[ARRAY_SIZE(engine_groups)];
	struct engine_ratio ratio[ARRAY_SIZE(engine_groups)];
	struct engine_sample s[ZES_MAX_HANDLES];
	zes_engine_handle_t e[ZES_MAX_HANDLES];
	unsigned n_read = 0;
	uint32_t n = 0;

	memset(ratio, 0, sizeof(ratio));
	memset(s, 0, sizeof(s));
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		r[i] = (struct zes_reading){ .key = engine_groups[i].key, .call = call };
	if (ZES_ENUM(z, zesDeviceEnumEngineGroups, h, e, n, r, ARRAY_SIZE(r)))
		for (uint32_t k = 0; k < n; k++) {
			struct zes_engine_properties p = {
				.stype = ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES
			};
			ze_result_t rc;

			rc = ZES_CALL(z, r[0].key, zesEngineGetProperties, (e[k], &p));
			if (rc != ZE_RESULT_SUCCESS) { /* which group it is is not known */
				for (size_t i = 0; i < ARRAY_SIZE(r); i++)
					reading_fail(&r[i], ZES_NAME(z, zesEngineGetProperties),
						     rc);
				continue;
			}
			s[k] = (struct engine_sample){ .h = e[k],
						       .which = ARRAY_SIZE(engine_groups),
						       .on_subdevice = p.onSubdevice };
			for (unsigned i = 0; i < ARRAY_SIZE(engine_groups); i++)
				if (engine_groups[i].group == p.type)
					s[k].which = i;
			if (s[k].which == ARRAY_SIZE(engine_groups))
				continue; /* a single engine */
			rc = ZES_CALL(z, r[s[k].which].key, zesEngineGetActivity,
				      (e[k], &s[k].first));
			if (rc != ZE_RESULT_SUCCESS)
				reading_fail(&r[s[k].which], call, rc);
			else {
				s[k].read = true;
				n_read++;
			}
		}
	if (n_read)
		nanosleep(&(struct timespec){ .tv_nsec = ENGINE_INTERVAL_MS * 1000000L }, NULL);
	for (uint32_t k = 0; k < n; k++) {
		struct zes_engine_stats again = { 0 };
		struct engine_ratio *q = &ratio[s[k].which % ARRAY_SIZE(engine_groups)];
		unsigned t = s[k].on_subdevice ? 1 : 0;
		ze_result_t rc;

		if (!s[k].read)
			continue;
		rc = ZES_CALL(z, r[s[k].which].key, zesEngineGetActivity, (s[k].h, &again));
		if (rc != ZE_RESULT_SUCCESS) {
			reading_fail(&r[s[k].which], call, rc);
		} else if (again.timestamp < s[k].first.timestamp ||
			   again.activeTime < s[k].first.activeTime ||
			   again.activeTime - s[k].first.activeTime >
				   again.timestamp - s[k].first.timestamp) {
			r[s[k].which].malformed = true; /* a counter went back, or ran faster */
		} else {
			q->busy[t] += (double)(again.activeTime - s[k].first.activeTime);
			q->elapsed[t] += (double)(again.timestamp - s[k].first.timestamp);
			q->n[t]++;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		engine_put(z, &r[i], &ratio[i]);
}

/* The core device (devices.N) whose uuid this Sysman device has, or -1. */
static int sysman_core_device(struct levelzero *z, const struct zes_device_properties *p)
{
	for (unsigned i = 0; i < z->n_devices; i++)
		if (z->have_uuid[i] && memcmp(z->uuid[i], p->core.uuid, sizeof(z->uuid[i])) == 0)
			return (int)i;
	return -1;
}

/* Each Sysman device of driver d tied to its core device; seen[] marks those read; false when
 * a device could not be listed or identified. */
static bool sysman_driver(struct levelzero *z, zes_driver_handle_t d, bool seen[])
{
	bool complete = true;
	zes_device_handle_t devs[ZE_MAX_DEVICES];
	uint32_t n = 0;

	if (!ZE(z, "sysman_device_count", zesDeviceGet, (d, &n, NULL)))
		return false;
	n = MIN(n, ZE_MAX_DEVICES);
	if (n && !ZE(z, "sysman_device_count", zesDeviceGet, (d, &n, devs)))
		return false;
	n = MIN(n, ZE_MAX_DEVICES);
	for (uint32_t k = 0; k < n; k++) {
		struct zes_device_properties p;
		int i;

		memset(&p, 0, sizeof(p));
		p.stype = ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES;
		p.core.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
		if (ZES_CALL(z, "sysman", zesDeviceGetProperties, (devs[k], &p)) !=
		    ZE_RESULT_SUCCESS) {
			complete = false; /* which GPU it is is not known */
			continue;
		}
		i = sysman_core_device(z, &p);
		if (i < 0 || seen[i])
			continue;
		seen[i] = true;
		vw_set_base(z->w, "devices.%d", i);
		sysman_temperatures(z, devs[k]);
		sysman_energy(z, devs[k]);
		sysman_memory(z, devs[k]);
		sysman_ras(z, devs[k]);
		sysman_engines(z, devs[k]);
		vw_set_base(z->w, "%s", "");
	}
	return complete;
}

void levelzero_sysman(struct levelzero *z)
{
	zes_driver_handle_t drivers[16];
	bool seen[ZE_MAX_DEVICES] = { false };
	uint32_t n = 0;
	bool complete = false;
	char why[96];

	if (!z->n_devices)
		return;
	if (!ZE(z, "sysman", zesInit, (0))) {
		snprintf(why, sizeof(why), "%s failed or is missing", ZES_NAME(z, zesInit));
		for (unsigned i = 0; i < z->n_devices; i++) {
			vw_set_base(z->w, "devices.%u", i);
			vw_not_called(z->w, ZES_NAME(z, zesInit), why, sysman_keys);
		}
		vw_set_base(z->w, "%s", "");
		return;
	}
	vw_str(z->w, "sysman", "ZE_RESULT_SUCCESS");
	if (ZE(z, "sysman_driver_count", zesDriverGet, (&n, NULL))) {
		n = MIN(n, ARRAY_SIZE(drivers));
		complete = !n || ZE(z, "sysman_driver_count", zesDriverGet, (&n, drivers));
		for (uint32_t d = 0; complete && d < MIN(n, ARRAY_SIZE(drivers)); d++)
			complete &= sysman_driver(z, drivers[d], seen);
	}
	for (unsigned i = 0; i < z->n_devices; i++) {
		if (seen[i])
			continue;
		vw_set_base(z->w, "devices.%u", i);
		if (complete)
			for (size_t k = 0; sysman_keys[k]; k++)
				vw_state(z->w, sysman_keys[k], ZES_NAME(z, zesDeviceGet), "absent",
					 "no Sysman device with this GPU's UUID");
		else
			vw_not_called(z->w, ZES_NAME(z, zesDeviceGet),
				      "Sysman's device list could not be read in full",
				      sysman_keys);
	}
	vw_set_base(z->w, "%s", "");
}
