// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Level Zero (libze_loader.so.1, the oneAPI Level Zero loader, which loads Intel's GPU driver
 * libze_intel_gpu.so.1) through dlopen, in a child under a deadline. Calls and layouts:
 * levelzero-abi.h (the public ze_api.h). Writes "library", "init", "driver_count",
 * "drivers[] {api_version, driver_version, device_count}", "device_count" and "devices[]
 * {driver, name, type, vendor_id, device_id, integrated, memory_total_mib}", then Sysman's
 * "sysman" and per-device readings (levelzero-sysman.c) (docs/snapshot-schema.md,
 * driver.level_zero). Each call's result is kept:
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE / _VERSION are "unsupported",
 * ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS "unreadable", any other failure "error" with the
 * code's name and number. zeInit(ZE_INIT_FLAG_GPU_ONLY) failing with
 * ZE_RESULT_ERROR_UNINITIALIZED is what the loader answers when no driver (or no GPU it
 * drives) is found: recorded as such, the rest unprobed.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dl.h"
#include "levelzero-internal.h"
#include "session.h"

DL_NOTE(dl_note_levelzero, "[{\"feature\":\"level-zero\",\"description\":\"Intel GPU state from "
			   "Level Zero (gpuenv report: driver.level_zero)\",\"priority\":"
			   "\"suggested\",\"soname\":[\"libze_loader.so.1\"]}]");

#define ZE_MAX_DRIVERS	16u
#define ZE_MAX_MEMORIES 8u

static const struct dl_symbol levelzero_symbols[] = {
#define X(f, req, ret, params, ...) DL_SYMBOL_ENTRY(struct levelzero_fns, f, req, __VA_ARGS__)
	LEVELZERO_SYMBOLS(X)
#undef X
};

/* ze_api.h's ze_result_t names (the codes gpuenv can meet in these calls), in the rows, not
 * pointers: a table of pointers is relocated, a page written, at every start. */
static const struct {
	uint32_t code;
	char name[48]; /* room to spare: a name as long as the array would have no NUL */
} ze_errors[] = {
	{ 0, "ZE_RESULT_SUCCESS" },
	{ 1, "ZE_RESULT_NOT_READY" },
	{ 0x70000001u, "ZE_RESULT_ERROR_DEVICE_LOST" },
	{ 0x70000002u, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY" },
	{ 0x70000003u, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY" },
	{ 0x70000006u, "ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET" },
	{ 0x70000007u, "ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE" },
	{ 0x70010000u, "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS" },
	{ 0x70010001u, "ZE_RESULT_ERROR_NOT_AVAILABLE" },
	{ 0x70020000u, "ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE" },
	{ 0x78000001u, "ZE_RESULT_ERROR_UNINITIALIZED" },
	{ 0x78000002u, "ZE_RESULT_ERROR_UNSUPPORTED_VERSION" },
	{ 0x78000003u, "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE" },
	{ 0x78000004u, "ZE_RESULT_ERROR_INVALID_ARGUMENT" },
	{ 0x78000005u, "ZE_RESULT_ERROR_INVALID_NULL_HANDLE" },
	{ 0x78000007u, "ZE_RESULT_ERROR_INVALID_NULL_POINTER" },
	{ 0x78000008u, "ZE_RESULT_ERROR_INVALID_SIZE" },
	{ 0x7800000cu, "ZE_RESULT_ERROR_INVALID_ENUMERATION" },
	{ 0x7ffffffeu, "ZE_RESULT_ERROR_UNKNOWN" },
};

const char *vendor_levelzero_error_name(unsigned rc)
{
	for (size_t i = 0; i < ARRAY_SIZE(ze_errors); i++)
		if (ze_errors[i].code == rc)
			return ze_errors[i].name;
	return NULL;
}

bool ze_failv(struct levelzero *z, const char *call, ze_result_t rc, const char *const keys[])
{
	const char *name = vendor_levelzero_error_name(rc), *state = "error";

	if (rc == ZE_MISSING) {
		for (size_t i = 0; keys[i]; i++)
			vw_state(z->w, keys[i], call, "unsupported",
				 "not exported by this Level Zero loader");
		return false;
	}
	if (rc == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE || rc == ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
		state = "unsupported";
	else if (rc == ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
		state = "unreadable";
	for (size_t i = 0; keys[i]; i++)
		vw_state(z->w, keys[i], call, state, "%s (0x%x)", name ? name : "Level Zero error",
			 rc);
	return false;
}

static const char *device_type_name(uint32_t t)
{
	switch (t) {
	case ZE_DEVICE_TYPE_GPU:
		return "GPU";
	case ZE_DEVICE_TYPE_CPU:
		return "CPU";
	case ZE_DEVICE_TYPE_FPGA:
		return "FPGA";
	case ZE_DEVICE_TYPE_MCA:
		return "MCA";
	case ZE_DEVICE_TYPE_VPU:
		return "VPU";
	default:
		return NULL;
	}
}

static void ze_memory(struct levelzero *z, ze_device_handle_t h)
{
	struct ze_device_memory_properties m[ZE_MAX_MEMORIES];
	uint32_t n = 0;
	uint64_t total = 0;

	if (!ZE(z, "memory_total_mib", zeDeviceGetMemoryProperties, (h, &n, NULL)))
		return;
	n = MIN(n, ZE_MAX_MEMORIES);
	memset(m, 0, sizeof(m));
	for (uint32_t i = 0; i < n; i++)
		m[i].stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
	if (!ZE(z, "memory_total_mib", zeDeviceGetMemoryProperties, (h, &n, m)))
		return;
	/* The device's local memories (one per kind, e.g. HBM and DDR): their sizes add up. */
	for (uint32_t i = 0; i < MIN(n, ZE_MAX_MEMORIES); i++)
		total += m[i].totalSize / (1024u * 1024u);
	if (n == 0)
		vw_state(z->w, "memory_total_mib", NULL, "absent",
			 "no device-local memory (shares "
			 "system memory)");
	else
		vw_int(z->w, "memory_total_mib", (int64_t)MIN(total, (uint64_t)INT64_MAX));
}

static void ze_device(struct levelzero *z, ze_device_handle_t h, unsigned driver, unsigned i)
{
	struct ze_device_properties p;
	char name[ZE_MAX_DEVICE_NAME + 1];
	const char *type;
	size_t n;

	vw_set_base(z->w, "devices.%u", i);
	z->w->call = z->f.zeDeviceGet_name; /* the driver that listed it */
	vw_int(z->w, "driver", driver);
	memset(&p, 0, sizeof(p));
	p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
	if (ZE(z, "name", zeDeviceGetProperties, (h, &p), "type", "vendor_id", "device_id",
	       "integrated")) {
		n = strnlen(p.name, sizeof(p.name));
		memcpy(name, p.name, n);
		name[n] = '\0';
		if (n)
			vw_str(z->w, "name", name);
		else
			vw_state(z->w, "name", NULL, "absent", "empty string");
		type = device_type_name(p.type);
		if (type)
			vw_str(z->w, "type", type);
		else
			vw_state(z->w, "type", NULL, "malformed", "unknown ze_device_type_t %u",
				 p.type);
		vw_int(z->w, "vendor_id", p.vendorId);
		vw_int(z->w, "device_id", p.deviceId);
		vw_bool(z->w, "integrated", p.flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED);
		memcpy(z->uuid[i], p.uuid, sizeof(p.uuid));
		z->have_uuid[i] = true;
	}
	ze_memory(z, h);
}

/* Every driver and its devices, in the loader's order, at most ZE_MAX_DRIVERS and
 * ZE_MAX_DEVICES in all. */
static void ze_drivers(struct levelzero *z)
{
	ze_driver_handle_t drivers[ZE_MAX_DRIVERS];
	uint32_t n_drivers = 0;
	unsigned n = 0;

	if (!ZE(z, "driver_count", zeDriverGet, (&n_drivers, NULL), "drivers", "device_count",
		"devices"))
		return;
	n_drivers = MIN(n_drivers, ZE_MAX_DRIVERS);
	if (n_drivers && !ZE(z, "driver_count", zeDriverGet, (&n_drivers, drivers), "drivers",
			     "device_count", "devices"))
		return;
	n_drivers = MIN(n_drivers, ZE_MAX_DRIVERS);
	vw_int(z->w, "driver_count", n_drivers);
	vw_array(z->w, "drivers");
	vw_array(z->w, "devices");
	for (uint32_t d = 0; d < n_drivers; d++) {
		ze_device_handle_t devs[ZE_MAX_DEVICES];
		struct ze_driver_properties p;
		uint32_t api = 0, n_devs = 0;

		vw_set_base(z->w, "drivers.%u", d);
		if (ZE(z, "api_version", zeDriverGetApiVersion, (drivers[d], &api))) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%u.%u", ZE_API_MAJOR(api), ZE_API_MINOR(api));
			vw_str(z->w, "api_version", buf);
		}
		memset(&p, 0, sizeof(p));
		p.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
		if (ZE(z, "driver_version", zeDriverGetProperties, (drivers[d], &p)))
			vw_int(z->w, "driver_version", p.driverVersion);
		if (!ZE(z, "device_count", zeDeviceGet, (drivers[d], &n_devs, NULL)))
			continue;
		n_devs = MIN(n_devs, ZE_MAX_DEVICES - n);
		if (n_devs && !ZE(z, "device_count", zeDeviceGet, (drivers[d], &n_devs, devs)))
			continue;
		n_devs = MIN(n_devs, ZE_MAX_DEVICES - n);
		vw_int(z->w, "device_count", n_devs);
		for (uint32_t i = 0; i < n_devs; i++) {
			ze_device(z, devs[i], d, n++);
			vw_set_base(z->w, "drivers.%u", d);
		}
	}
	vw_set_base(z->w, "%s", "");
	z->w->call = z->f.zeDeviceGet_name; /* the count's source */
	vw_int(z->w, "device_count", n);
	z->n_devices = n;
}

static const char *const levelzero_keys[] = { "library", "init", "driver_count", "devices", NULL };
static const char *const levelzero_after_init[] = { "driver_count", "drivers", "device_count",
						    "devices", NULL };

/* The loader's SONAME, then its unversioned development name. */
static const char *const levelzero_sonames[] = { "libze_loader.so.1", "libze_loader.so", NULL };
static const struct vendor_lib levelzero_lib = {
	.sonames = levelzero_sonames,
	.name = "libze_loader",
	.not_this = "not a Level Zero loader",
	.symbol_key = "init",
	.keys = (const char *const[]){ "init", "driver_count", "devices", NULL },
	.symbols = levelzero_symbols,
	.n_symbols = ARRAY_SIZE(levelzero_symbols),
};

static int levelzero_child(int fd, void *userdata)
{
	struct vwriter w = { .fd = fd };
	struct levelzero z = { .w = &w };
	char buf[128];

	if (!vendor_child_load(&w, userdata, &levelzero_lib, &z.f))
		return w.err ? 1 : 0;
	if (!ZE(&z, "init", zeInit, (ZE_INIT_FLAG_GPU_ONLY))) {
		snprintf(buf, sizeof(buf), "%s failed", z.f.zeInit_name);
		vw_not_called(&w, z.f.zeInit_name, buf, levelzero_after_init);
		return w.err ? 1 : 0;
	}
	vw_str(&w, "init", "ZE_RESULT_SUCCESS");
	ze_drivers(&z);
	levelzero_sysman(&z);
	return w.err ? 1 : 0;
}

int vendor_levelzero_start(const struct vendor_req *req, struct vendor_pending **ret)
{
	struct vendor_session vs = {
		.fn = levelzero_child,
		.userdata = (void *)req,
		.timeout_ms = req->timeout_ms,
		.prefix = "levelzero:",
		.expected_keys = levelzero_keys,
	};

	return vendor_session_start(&vs, ret);
}
