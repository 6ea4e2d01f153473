// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fake libze_loader.so.1's Sysman calls (zes_api.h; layouts in levelzero-abi.h), from
 * the scenario's [levelzero.device.N] sections:
 *   temperature_global_c, temperature_gpu_c, temperature_memory_c  a sensor of that type
 *                          (degrees, decimals allowed) where the key is set
 *   energy_uj              a power domain and its energy counter
 *   memory_free_mib        with memory_total_mib: a device-local module's state; an
 *                          integrated device also has a system-memory module
 *   ras_correctable, ras_uncorrectable  an error set of that type; the count is split over
 *                          the reset (1), programming (ras_programming_errors, default 0)
 *                          and cache (the rest) categories
 *   engine_all_activity_pct, engine_compute_activity_pct, engine_render_activity_pct,
 *   engine_media_activity_pct, engine_copy_activity_pct  a combined engine group of that kind
 *                          busy that percent of the time between any two readings
 *                          (engine_single = 1: a single compute engine as well, never read;
 *                          engine_lies = 1: the active time runs backwards)
 *   subdevices = N         every handle above is on each of N tiles instead of the device
 *                          (tile k: temperature + k, the same counters)
 *   sysman_uuid = other    the Sysman device answers a uuid no core device has
 * Before zesInit everything answers ZE_RESULT_ERROR_UNINITIALIZED (zeInit does not
 * initialise Sysman). Injections (error./hang. <function>) in [levelzero] or the device's
 * section. A structure whose stype is not the specification's is refused.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-levelzero.h"
#include "fake-scenario.h"

#define S "levelzero"

FAKE_API zesInit_fn zesInit;
FAKE_API zesDriverGet_fn zesDriverGet;
FAKE_API zesDeviceGet_fn zesDeviceGet;
FAKE_API zesDeviceGetProperties_fn zesDeviceGetProperties;
FAKE_API zesDeviceEnumTemperatureSensors_fn zesDeviceEnumTemperatureSensors;
FAKE_API zesTemperatureGetProperties_fn zesTemperatureGetProperties;
FAKE_API zesTemperatureGetState_fn zesTemperatureGetState;
FAKE_API zesDeviceEnumPowerDomains_fn zesDeviceEnumPowerDomains;
FAKE_API zesPowerGetProperties_fn zesPowerGetProperties;
FAKE_API zesPowerGetEnergyCounter_fn zesPowerGetEnergyCounter;
FAKE_API zesDeviceEnumMemoryModules_fn zesDeviceEnumMemoryModules;
FAKE_API zesMemoryGetProperties_fn zesMemoryGetProperties;
FAKE_API zesMemoryGetState_fn zesMemoryGetState;
FAKE_API zesDeviceEnumRasErrorSets_fn zesDeviceEnumRasErrorSets;
FAKE_API zesRasGetProperties_fn zesRasGetProperties;
FAKE_API zesRasGetState_fn zesRasGetState;
FAKE_API zesDeviceEnumEngineGroups_fn zesDeviceEnumEngineGroups;
FAKE_API zesEngineGetProperties_fn zesEngineGetProperties;
FAKE_API zesEngineGetActivity_fn zesEngineGetActivity;

#define SYSMAN_DRIVER ((zes_driver_handle_t)(uintptr_t)0x5b)
#define DEVICE_BASE   0x1000u /* Sysman device handles: DEVICE_BASE + device number */

enum { K_TEMP = 1, K_PWR, K_MEM, K_RAS, K_ENGINE };

/* A component handle: device number (1-based), kind, tile (0: the device itself, else
 * tile - 1 is the sub-device) and the item (sensor type, memory location, error type). */
#define HANDLE(dev, kind, tile, item)                                                              \
	((void *)(uintptr_t)((dev) << 16 | (unsigned)(kind) << 12 | (tile) << 8 | (item)))

static int sysman_initialized;

struct component {
	unsigned dev, kind, tile, item;
	char sec[48];
};

static bool section_of(unsigned dev, char *sec, size_t len)
{
	if (dev == 0 || dev > fake_levelzero_count())
		return false;
	snprintf(sec, len, "levelzero.device.%u", dev - 1);
	return true;
}

/* Injections (in the device's section when dev_sec is set), then the initialisation check. */
static bool entered(const char *fn, const char *dev_sec, ze_result_t *rc)
{
	int code;

	if (fake_inject(S, dev_sec, fn, fake_levelzero_code_of, &code)) {
		*rc = (ze_result_t)code;
		return false;
	}
	if (!sysman_initialized && strcmp(fn, "zesInit") != 0) {
		*rc = ZE_RESULT_ERROR_UNINITIALIZED;
		return false;
	}
	return true;
}

#define ENTER(fn)                                                                                  \
	do {                                                                                       \
		ze_result_t _rc;                                                                   \
		if (!entered(fn, NULL, &_rc))                                                      \
			return _rc;                                                                \
	} while (0)

/* A device call: its device number and section (an unknown handle is refused). */
#define ENTER_DEVICE(fn, h, dev, sec)                                                              \
	do {                                                                                       \
		ze_result_t _rc;                                                                   \
		dev = device_of(h);                                                                \
		if (!section_of(dev, sec, sizeof(sec)))                                            \
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;                                   \
		if (!entered(fn, sec, &_rc))                                                       \
			return _rc;                                                                \
	} while (0)

static unsigned device_of(zes_device_handle_t h)
{
	uintptr_t v = (uintptr_t)h;

	return v > DEVICE_BASE && v <= DEVICE_BASE + fake_levelzero_count() ? v - DEVICE_BASE : 0;
}

static struct component component_of(void *h, unsigned kind)
{
	uintptr_t v = (uintptr_t)h;
	struct component c = { .dev = (unsigned)(v >> 16),
			       .kind = (v >> 12) & 0xf,
			       .tile = (v >> 8) & 0xf,
			       .item = v & 0xff };

	if (c.kind != kind || !section_of(c.dev, c.sec, sizeof(c.sec)))
		c.dev = 0;
	return c;
}

static unsigned long long tiles(const char *sec)
{
	unsigned long long n = 0;

	fake_uint(sec, "subdevices", &n);
	return n > 8 ? 8 : n;
}

/* Fills handles with one handle per item present, on the device or on each tile. */
static ze_result_t enumerate(const char *sec, unsigned dev, unsigned kind, const unsigned *items,
			     size_t n_items, uint32_t *n, void **handles)
{
	unsigned long long t = tiles(sec);
	uint32_t have = 0;

	if (!n)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	for (unsigned tile = t ? 1 : 0; tile <= t; tile++)
		for (size_t i = 0; i < n_items; i++) {
			if (handles && have < *n)
				handles[have] = HANDLE(dev, kind, tile, items[i]);
			have++;
		}
	*n = handles && *n < have ? *n : have;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesInit(uint32_t flags)
{
	ENTER("zesInit");
	if (flags != 0)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	sysman_initialized = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesDriverGet(uint32_t *n, zes_driver_handle_t *drivers)
{
	ENTER("zesDriverGet");
	if (!n)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (drivers && *n >= 1)
		drivers[0] = SYSMAN_DRIVER;
	*n = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesDeviceGet(zes_driver_handle_t d, uint32_t *n, zes_device_handle_t *devs)
{
	unsigned c = fake_levelzero_count();

	ENTER("zesDeviceGet");
	if (d != SYSMAN_DRIVER || !n)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	/* listed in the reverse of zeDeviceGet's order: gpuenv must match by uuid */
	if (devs)
		for (unsigned i = 0; i < c && i < *n; i++)
			devs[i] = (zes_device_handle_t)(uintptr_t)(DEVICE_BASE + c - i);
	*n = devs && *n < c ? *n : c;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesDeviceGetProperties(zes_device_handle_t h, struct zes_device_properties *p)
{
	unsigned dev;
	const char *other;
	char sec[48];

	ENTER_DEVICE("zesDeviceGetProperties", h, dev, sec);
	if (!p || p->stype != ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	fake_levelzero_uuid((ze_device_handle_t)(uintptr_t)dev, p->core.uuid);
	other = fake_get(sec, "sysman_uuid");
	if (other && strcmp(other, "other") == 0)
		p->core.uuid[15] ^= 0xff;
	p->numSubdevices = (uint32_t)tiles(sec);
	snprintf(p->vendorName, sizeof(p->vendorName), "Intel(R) Corporation");
	return ZE_RESULT_SUCCESS;
}

/* The items (indices of keys[]) whose key the device's section sets. */
static size_t items_set(const char *sec, const char *const keys[], unsigned n, unsigned items[])
{
	size_t k = 0;

	for (unsigned i = 0; i < n; i++)
		if (fake_get(sec, keys[i]))
			items[k++] = i;
	return k;
}

static const char *const temp_keys[] = { "temperature_global_c", "temperature_gpu_c",
					 "temperature_memory_c" };

ze_result_t zesDeviceEnumTemperatureSensors(zes_device_handle_t h, uint32_t *n,
					    zes_temp_handle_t *t)
{
	unsigned dev, items[3];
	char sec[48];

	ENTER_DEVICE("zesDeviceEnumTemperatureSensors", h, dev, sec);
	return enumerate(sec, dev, K_TEMP, items, items_set(sec, temp_keys, 3, items), n, t);
}

/* Injections for a component call, in its device's section. */
#define COMPONENT(fn, h, kind, c)                                                                  \
	do {                                                                                       \
		ze_result_t _rc;                                                                   \
		c = component_of(h, kind);                                                         \
		if (!c.dev)                                                                        \
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;                                   \
		if (!entered(fn, c.sec, &_rc))                                                     \
			return _rc;                                                                \
	} while (0)

/* A properties call: the injections, the stype check, and where the component sits. */
#define PROPERTIES(fn, h, kind, c, p, stype_want)                                                  \
	do {                                                                                       \
		COMPONENT(fn, h, kind, c);                                                         \
		if (!(p) || (p)->stype != (stype_want))                                            \
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;                                   \
		(p)->onSubdevice = (c).tile != 0;                                                  \
		(p)->subdeviceId = (c).tile ? (c).tile - 1 : 0;                                    \
	} while (0)

ze_result_t zesTemperatureGetProperties(zes_temp_handle_t h, struct zes_temp_properties *p)
{
	struct component c;

	PROPERTIES("zesTemperatureGetProperties", h, K_TEMP, c, p,
		   ZES_STRUCTURE_TYPE_TEMP_PROPERTIES);
	p->type = c.item;
	p->maxTemperature = 105.0;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesTemperatureGetState(zes_temp_handle_t h, double *temperature)
{
	struct component c;
	const char *v;

	COMPONENT("zesTemperatureGetState", h, K_TEMP, c);
	v = fake_get(c.sec, temp_keys[c.item]);
	if (!temperature || !v)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	*temperature = strtod(v, NULL) + (c.tile ? c.tile - 1 : 0);
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesDeviceEnumPowerDomains(zes_device_handle_t h, uint32_t *n, zes_pwr_handle_t *d)
{
	unsigned dev, item = 0;
	char sec[48];

	ENTER_DEVICE("zesDeviceEnumPowerDomains", h, dev, sec);
	return enumerate(sec, dev, K_PWR, &item, fake_get(sec, "energy_uj") ? 1 : 0, n, d);
}

ze_result_t zesPowerGetProperties(zes_pwr_handle_t h, struct zes_power_properties *p)
{
	struct component c;

	PROPERTIES("zesPowerGetProperties", h, K_PWR, c, p, ZES_STRUCTURE_TYPE_POWER_PROPERTIES);
	p->defaultLimit = 225000; /* mW */
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesPowerGetEnergyCounter(zes_pwr_handle_t h, struct zes_power_energy_counter *e)
{
	unsigned long long uj = 0;
	struct component c;

	COMPONENT("zesPowerGetEnergyCounter", h, K_PWR, c);
	if (!e)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	fake_uint(c.sec, "energy_uj", &uj);
	e->energy = uj;
	e->timestamp = 1700000000000000ull;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesDeviceEnumMemoryModules(zes_device_handle_t h, uint32_t *n, zes_mem_handle_t *m)
{
	unsigned dev, items[2];
	unsigned long long v;
	size_t k = 0;
	char sec[48];

	ENTER_DEVICE("zesDeviceEnumMemoryModules", h, dev, sec);
	if (fake_uint(sec, "memory_total_mib", &v) && fake_get(sec, "memory_free_mib"))
		items[k++] = ZES_MEM_LOC_DEVICE;
	if (fake_uint(sec, "integrated", &v) && v)
		items[k++] = 0; /* ZES_MEM_LOC_SYSTEM */
	return enumerate(sec, dev, K_MEM, items, k, n, m);
}

ze_result_t zesMemoryGetProperties(zes_mem_handle_t h, struct zes_mem_properties *p)
{
	struct component c;

	PROPERTIES("zesMemoryGetProperties", h, K_MEM, c, p, ZES_STRUCTURE_TYPE_MEM_PROPERTIES);
	p->location = c.item;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesMemoryGetState(zes_mem_handle_t h, struct zes_mem_state *s)
{
	unsigned long long total = 0, free_mib = 0;
	struct component c;

	COMPONENT("zesMemoryGetState", h, K_MEM, c);
	if (!s || s->stype != ZES_STRUCTURE_TYPE_MEM_STATE)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (c.item == ZES_MEM_LOC_DEVICE) {
		fake_uint(c.sec, "memory_total_mib", &total);
		fake_uint(c.sec, "memory_free_mib", &free_mib);
	} else { /* the system memory an iGPU shares: 32 GiB, half free */
		total = 32768;
		free_mib = 16384;
	}
	s->size = total << 20;
	s->free = free_mib << 20;
	return ZE_RESULT_SUCCESS;
}

static const char *const ras_keys[] = { "ras_correctable", "ras_uncorrectable" };

ze_result_t zesDeviceEnumRasErrorSets(zes_device_handle_t h, uint32_t *n, zes_ras_handle_t *r)
{
	unsigned dev, items[2];
	char sec[48];

	ENTER_DEVICE("zesDeviceEnumRasErrorSets", h, dev, sec);
	return enumerate(sec, dev, K_RAS, items, items_set(sec, ras_keys, 2, items), n, r);
}

ze_result_t zesRasGetProperties(zes_ras_handle_t h, struct zes_ras_properties *p)
{
	struct component c;

	PROPERTIES("zesRasGetProperties", h, K_RAS, c, p, ZES_STRUCTURE_TYPE_RAS_PROPERTIES);
	p->type = c.item;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zesRasGetState(zes_ras_handle_t h, ze_bool_t clear, struct zes_ras_state *s)
{
	unsigned long long v = 0, prog = 0;
	struct component c;

	COMPONENT("zesRasGetState", h, K_RAS, c);
	if (!s || s->stype != ZES_STRUCTURE_TYPE_RAS_STATE)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (clear) /* gpuenv must never reset a counter */
		return ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS;
	fake_uint(c.sec, ras_keys[c.item], &v);
	fake_uint(c.sec, "ras_programming_errors", &prog);
	prog = v ? (prog < v - 1 ? prog : v - 1) : 0;
	memset(s->category, 0, sizeof(s->category));
	s->category[0] = v ? 1 : 0;	       /* ZES_RAS_ERROR_CAT_RESET */
	s->category[1] = prog;		       /* ZES_RAS_ERROR_CAT_PROGRAMMING_ERRORS */
	s->category[5] = v ? v - 1 - prog : 0; /* ZES_RAS_ERROR_CAT_CACHE_ERRORS */
	return ZE_RESULT_SUCCESS;
}

/* engine_keys[i]'s zes_engine_group_t; the last item is the single engine */
static const char *const engine_keys[] = {
	"engine_all_activity_pct",   "engine_compute_activity_pct", "engine_render_activity_pct",
	"engine_media_activity_pct", "engine_copy_activity_pct",    "engine_single"
};
static const uint32_t engine_types[] = { ZES_ENGINE_GROUP_ALL,	      ZES_ENGINE_GROUP_COMPUTE_ALL,
					 ZES_ENGINE_GROUP_RENDER_ALL, ZES_ENGINE_GROUP_MEDIA_ALL,
					 ZES_ENGINE_GROUP_COPY_ALL,   4 /* COMPUTE_SINGLE */ };

ze_result_t zesDeviceEnumEngineGroups(zes_device_handle_t h, uint32_t *n, zes_engine_handle_t *e)
{
	unsigned dev, items[6];
	char sec[48];

	ENTER_DEVICE("zesDeviceEnumEngineGroups", h, dev, sec);
	return enumerate(sec, dev, K_ENGINE, items, items_set(sec, engine_keys, 6, items), n, e);
}

ze_result_t zesEngineGetProperties(zes_engine_handle_t h, struct zes_engine_properties *p)
{
	struct component c;

	PROPERTIES("zesEngineGetProperties", h, K_ENGINE, c, p,
		   ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES);
	p->type = engine_types[c.item];
	return ZE_RESULT_SUCCESS;
}

/* Each reading one second after the last (of any engine), the engine busy its percent of it. */
ze_result_t zesEngineGetActivity(zes_engine_handle_t h, struct zes_engine_stats *s)
{
	static uint64_t readings;
	unsigned long long pct = 0;
	struct component c;

	COMPONENT("zesEngineGetActivity", h, K_ENGINE, c);
	if (!s)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	fake_uint(c.sec, engine_keys[c.item], &pct);
	readings++;
	s->timestamp = 1700000000000000ull + readings * 1000000u;
	s->activeTime = readings * (pct > 100 ? 100 : pct) * 10000u;
	if (fake_get(c.sec, "engine_lies"))
		s->activeTime = (1000000u - readings) * 1000000u;
	return ZE_RESULT_SUCCESS;
}
