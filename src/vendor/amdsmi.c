// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * AMD SMI (libamd_smi.so, ROCm's amd-smi library) through dlopen, in a child under a
 * deadline. Calls and layouts: amdsmi-abi.h (AMD's public amdsmi.h). Writes "library",
 * "init", "device_count" and "devices[] {bus_id, market_name, vendor_id, driver_version,
 * vram_total_mib, vram_used_mib, temperature_edge_c, temperature_hotspot_c,
 * ecc_correctable, ecc_uncorrectable, ecc_deferred, energy_uj, gfx_activity_pct,
 * umc_activity_pct, mm_activity_pct, power_w}" and "lib_version" (docs/snapshot-schema.md,
 * driver.amdsmi). Each call's status is kept: NOT_SUPPORTED / NOT_YET_IMPLEMENTED are
 * "unsupported", NO_PERM "unreadable", any other failure "error" with the code's name,
 * number and amdsmi_status_code_to_string()'s text.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "amdsmi-abi.h"
#include "dl.h"
#include "session.h"

DL_NOTE(dl_note_amdsmi, "[{\"feature\":\"amdsmi\",\"description\":\"AMD GPU state from amd-smi "
			"(gpuenv report: driver.amdsmi)\",\"priority\":\"suggested\",\"soname\":"
			"[\"libamd_smi.so\"]}]");

#define AMDSMI_MAX_SOCKETS 64u
#define AMDSMI_MAX_GPUS	   64u
#define AS_MISSING	   (UINT32_MAX - 100u) /* not a status: the library lacks the function */

struct amdsmi_fns {
	AMDSMI_SYMBOLS(DL_TABLE_FIELDS)
};

static const struct dl_symbol amdsmi_symbols[] = {
#define X(f, req, ret, params, ...) DL_SYMBOL_ENTRY(struct amdsmi_fns, f, req, __VA_ARGS__)
	AMDSMI_SYMBOLS(X)
#undef X
};

/* amdsmi.h's amdsmi_status_t names (the codes gpuenv can meet in these calls), in the rows,
 * not pointers: a table of pointers is relocated, a page written, at every start. */
static const struct {
	uint32_t code;
	char name[40]; /* room to spare: a name as long as the array would have no NUL */
} amdsmi_errors[] = {
	{ 0, "AMDSMI_STATUS_SUCCESS" },
	{ 1, "AMDSMI_STATUS_INVAL" },
	{ 2, "AMDSMI_STATUS_NOT_SUPPORTED" },
	{ 3, "AMDSMI_STATUS_NOT_YET_IMPLEMENTED" },
	{ 4, "AMDSMI_STATUS_FAIL_LOAD_MODULE" },
	{ 5, "AMDSMI_STATUS_FAIL_LOAD_SYMBOL" },
	{ 6, "AMDSMI_STATUS_DRM_ERROR" },
	{ 7, "AMDSMI_STATUS_API_FAILED" },
	{ 8, "AMDSMI_STATUS_TIMEOUT" },
	{ 10, "AMDSMI_STATUS_NO_PERM" },
	{ 12, "AMDSMI_STATUS_IO" },
	{ 14, "AMDSMI_STATUS_FILE_ERROR" },
	{ 15, "AMDSMI_STATUS_OUT_OF_RESOURCES" },
	{ 16, "AMDSMI_STATUS_INTERNAL_EXCEPTION" },
	{ 18, "AMDSMI_STATUS_INIT_ERROR" },
	{ 30, "AMDSMI_STATUS_BUSY" },
	{ 31, "AMDSMI_STATUS_NOT_FOUND" },
	{ 32, "AMDSMI_STATUS_NOT_INIT" },
	{ 34, "AMDSMI_STATUS_DRIVER_NOT_LOADED" },
	{ 40, "AMDSMI_STATUS_NO_DATA" },
	{ 41, "AMDSMI_STATUS_INSUFFICIENT_SIZE" },
	{ 0xFFFFFFFFu, "AMDSMI_STATUS_UNKNOWN_ERROR" },
};

const char *vendor_amdsmi_error_name(unsigned rc)
{
	for (size_t i = 0; i < ARRAY_SIZE(amdsmi_errors); i++)
		if (amdsmi_errors[i].code == rc)
			return amdsmi_errors[i].name;
	return NULL;
}

enum power_layout {
	POWER_UNKNOWN,
	POWER_V23, /* struct amdsmi_power_v23 */
	POWER_V24, /* struct amdsmi_power_v24 */
	POWER_V25, /* struct amdsmi_power_v25, socket_power the host's */
	POWER_V26, /* struct amdsmi_power_v25, socket_power in watts */
};

struct amdsmi {
	struct vwriter *w;
	struct amdsmi_fns f;
	enum power_layout power; /* amdsmi_power_info_t's, from the library version */
	char power_why[160];	 /* why it is not read, when POWER_UNKNOWN */
};

static bool as_failv(struct amdsmi *a, const char *call, amdsmi_status_t rc,
		     const char *const keys[])
{
	const char *name = vendor_amdsmi_error_name(rc), *text = NULL, *state = "error";
	char buf[200] = "";

	if (rc == AS_MISSING) {
		for (size_t i = 0; keys[i]; i++)
			vw_state(a->w, keys[i], call, "unsupported",
				 "not exported by this libamd_smi");
		return false;
	}
	if (a->f.amdsmi_status_code_to_string &&
	    a->f.amdsmi_status_code_to_string(rc, &text) == AMDSMI_STATUS_SUCCESS && text)
		snprintf(buf, sizeof(buf), ": %s", text);
	if (rc == AMDSMI_STATUS_NOT_SUPPORTED || rc == AMDSMI_STATUS_NOT_YET_IMPLEMENTED)
		state = "unsupported";
	else if (rc == AMDSMI_STATUS_NO_PERM)
		state = "unreadable";
	for (size_t i = 0; keys[i]; i++)
		vw_state(a->w, keys[i], call, state, "%s (%u)%s", name ? name : "AMD SMI error", rc,
			 buf);
	return false;
}

#define as_fail(a, call, rc, ...) as_failv(a, call, rc, (const char *const[]){ __VA_ARGS__, NULL })

/* Calls fn when the library has it (after announcing it, for hang attribution); true on
 * success, else the failure is recorded on key and the extra keys. */
#define AS(a, key, fn, args, ...)                                                                  \
	({                                                                                         \
		amdsmi_status_t _rc = AS_MISSING;                                                  \
		const char *_call = (a)->f.fn##_name ? (a)->f.fn##_name : #fn;                     \
		if ((a)->f.fn) {                                                                   \
			vw_begin((a)->w, key, _call);                                              \
			_rc = (a)->f.fn args;                                                      \
		}                                                                                  \
		_rc == AMDSMI_STATUS_SUCCESS ? true : as_fail(a, _call, _rc, key, ##__VA_ARGS__);  \
	})

/* A string the library wrote into a fixed field: up to its first NUL, never past the field. */
static void as_string(struct amdsmi *a, const char *key, const char *field, size_t len)
{
	size_t n = strnlen(field, len);
	char buf[AMDSMI_STRING_LENGTH + 1];

	memcpy(buf, field, n);
	buf[n] = '\0';
	if (n)
		vw_str(a->w, key, buf);
	else
		vw_state(a->w, key, NULL, "absent", "empty string");
}

/* The energy accumulator times its resolution (microjoules per count), when both are sane. */
static void as_energy(struct amdsmi *a, amdsmi_processor_handle h)
{
	uint64_t count = 0, timestamp = 0;
	float resolution = 0;
	double uj;

	if (!AS(a, "energy_uj", amdsmi_get_energy_count, (h, &count, &resolution, &timestamp)))
		return;
	uj = (double)count * (double)resolution;
	if (!(resolution > 0) || !(uj < 9.2e18))
		vw_state(a->w, "energy_uj", NULL, "malformed",
			 "counter %llu with a resolution of %g microjoules per count",
			 (unsigned long long)count, (double)resolution);
	else
		vw_int(a->w, "energy_uj", (int64_t)uj);
}

/* amdsmi_get_gpu_activity's percentages; a value over 100 is how releases mark an engine
 * they cannot read (UINT16_MAX, UINT32_MAX), never a reading. */
static void as_activity(struct amdsmi *a, amdsmi_processor_handle h)
{
	_Alignas(8) unsigned char buf[AMDSMI_STRUCT_BUF];
	static const char *const keys[] = { "gfx_activity_pct", "umc_activity_pct",
					    "mm_activity_pct" };
	const struct amdsmi_engine_prefix *e = (const void *)buf;
	uint32_t v[3];

	memset(buf, 0, sizeof(buf));
	if (!AS(a, keys[0], amdsmi_get_gpu_activity, (h, buf), keys[1], keys[2]))
		return;
	v[0] = e->gfx_activity;
	v[1] = e->umc_activity;
	v[2] = e->mm_activity;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (v[i] <= 100)
			vw_int(a->w, keys[i], v[i]);
		else
			vw_state(a->w, keys[i], NULL, "unsupported",
				 "the library answered %u (no reading for this engine)", v[i]);
}

/* The library's version, and from it amdsmi_power_info_t's layout (amdsmi-abi.h). */
static void as_lib_version(struct amdsmi *a)
{
	_Alignas(8) unsigned char buf[AMDSMI_STRUCT_BUF];
	const struct amdsmi_version_prefix *v = (const void *)buf;
	char text[32];

	memset(buf, 0, sizeof(buf));
	snprintf(a->power_why, sizeof(a->power_why), "the library's version could not be read");
	if (!AS(a, "lib_version", amdsmi_get_lib_version, (buf)))
		return;
	/* year.major through 24.x, major.minor from 25: the same two numbers either way */
	snprintf(text, sizeof(text), "%u.%u", v->first, v->second);
	vw_str(a->w, "lib_version", text);
	if (v->first == 23 && v->second < 4)
		a->power = POWER_V23;
	else if (v->first == 23 || (v->first == 24 && v->second <= 7))
		a->power = POWER_V24;
	else if (v->first == 25 && v->second >= 3) /* 25.0-25.2: no published layout */
		a->power = POWER_V25;
	else if (v->first == 26) /* 27: a new ABI (ROCm 10's changelog), its layout unseen */
		a->power = POWER_V26;
	if (a->power == POWER_UNKNOWN)
		snprintf(a->power_why, sizeof(a->power_why),
			 "amdsmi_power_info_t of library %s: a layout gpuenv does not know", text);
}

/* The socket power in watts: the current reading (MI300 and later), else the average, else
 * (library 26) socket_power. */
static void as_power(struct amdsmi *a, amdsmi_processor_handle h)
{
	_Alignas(8) unsigned char buf[AMDSMI_STRUCT_BUF];
	uint32_t w;

	if (a->power == POWER_UNKNOWN) {
		vw_state(a->w, "power_w",
			 a->f.amdsmi_get_power_info_name ?: "amdsmi_get_power_info", "unsupported",
			 "%s", a->power_why);
		return;
	}
	memset(buf, 0, sizeof(buf));
	if (!AS(a, "power_w", amdsmi_get_power_info, (h, buf)))
		return;
	if (a->power == POWER_V23) {
		w = ((const struct amdsmi_power_v23 *)(const void *)buf)->average_socket_power;
	} else if (a->power == POWER_V24) {
		const struct amdsmi_power_v24 *p = (const void *)buf;

		w = p->current_socket_power < AMDSMI_POWER_UNSUPPORTED ? p->current_socket_power
								       : p->average_socket_power;
	} else {
		const struct amdsmi_power_v25 *p = (const void *)buf;

		w = p->current_socket_power < AMDSMI_POWER_UNSUPPORTED ? p->current_socket_power
								       : p->average_socket_power;
		if (w >= AMDSMI_POWER_UNSUPPORTED && a->power == POWER_V26 &&
		    p->socket_power < AMDSMI_POWER_UNSUPPORTED)
			w = (uint32_t)p->socket_power;
	}
	if (w < AMDSMI_POWER_UNSUPPORTED)
		vw_int(a->w, "power_w", w);
	else
		vw_state(a->w, "power_w", NULL, "unsupported",
			 "the library answered %u (no reading)", w);
}

static void as_device(struct amdsmi *a, amdsmi_processor_handle h, unsigned i)
{
	_Alignas(8) unsigned char buf[AMDSMI_STRUCT_BUF];
	struct amdsmi_vram_usage vram;
	uint64_t bdf = 0;
	int64_t temp;
	char bus[32];

	vw_set_base(a->w, "devices.%u", i);
	if (AS(a, "bus_id", amdsmi_get_gpu_device_bdf, (h, &bdf))) {
		snprintf(bus, sizeof(bus), "%04llx:%02x:%02x.%x", AMDSMI_BDF_DOMAIN(bdf),
			 AMDSMI_BDF_BUS(bdf), AMDSMI_BDF_DEVICE(bdf), AMDSMI_BDF_FUNCTION(bdf));
		vw_str(a->w, "bus_id", bus);
	}
	memset(buf, 0, sizeof(buf));
	if (AS(a, "market_name", amdsmi_get_gpu_asic_info, (h, buf), "vendor_id")) {
		const struct amdsmi_asic_prefix *p = (const void *)buf;

		as_string(a, "market_name", p->market_name, sizeof(p->market_name));
		vw_int(a->w, "vendor_id", p->vendor_id);
	}
	memset(buf, 0, sizeof(buf));
	if (AS(a, "driver_version", amdsmi_get_gpu_driver_info, (h, buf)))
		as_string(a, "driver_version", (const char *)buf, AMDSMI_STRING_LENGTH);
	memset(&vram, 0, sizeof(vram));
	if (AS(a, "vram_total_mib", amdsmi_get_gpu_vram_usage, (h, &vram), "vram_used_mib")) {
		vw_int(a->w, "vram_total_mib", vram.vram_total);
		vw_int(a->w, "vram_used_mib", vram.vram_used);
	}
	if (AS(a, "temperature_edge_c", amdsmi_get_temp_metric,
	       (h, AMDSMI_TEMPERATURE_TYPE_EDGE, AMDSMI_TEMP_CURRENT, &temp)))
		vw_int(a->w, "temperature_edge_c", temp);
	if (AS(a, "temperature_hotspot_c", amdsmi_get_temp_metric,
	       (h, AMDSMI_TEMPERATURE_TYPE_HOTSPOT, AMDSMI_TEMP_CURRENT, &temp)))
		vw_int(a->w, "temperature_hotspot_c", temp);
	memset(buf, 0, sizeof(buf));
	if (AS(a, "ecc_correctable", amdsmi_get_gpu_total_ecc_count, (h, buf), "ecc_uncorrectable",
	       "ecc_deferred")) {
		const struct amdsmi_error_prefix *e = (const void *)buf;

		vw_int(a->w, "ecc_correctable",
		       (int64_t)MIN(e->correctable_count, (uint64_t)INT64_MAX));
		vw_int(a->w, "ecc_uncorrectable",
		       (int64_t)MIN(e->uncorrectable_count, (uint64_t)INT64_MAX));
		vw_int(a->w, "ecc_deferred", (int64_t)MIN(e->deferred_count, (uint64_t)INT64_MAX));
	}
	as_energy(a, h);
	as_activity(a, h);
	as_power(a, h);
}

/* Every GPU of every socket, in the library's order, at most AMDSMI_MAX_GPUS. */
static void as_devices(struct amdsmi *a)
{
	amdsmi_socket_handle sockets[AMDSMI_MAX_SOCKETS];
	uint32_t n_sockets = AMDSMI_MAX_SOCKETS;
	unsigned n = 0;

	if (!AS(a, "device_count", amdsmi_get_socket_handles, (&n_sockets, sockets), "devices"))
		return;
	vw_array(a->w, "devices");
	for (uint32_t s = 0; s < n_sockets && s < AMDSMI_MAX_SOCKETS; s++) {
		amdsmi_processor_handle procs[AMDSMI_MAX_GPUS];
		uint32_t n_procs = AMDSMI_MAX_GPUS;

		vw_set_base(a->w, "%s", "");
		if (!AS(a, "device_count", amdsmi_get_processor_handles,
			(sockets[s], &n_procs, procs)))
			return;
		for (uint32_t p = 0; p < n_procs && p < AMDSMI_MAX_GPUS && n < AMDSMI_MAX_GPUS; p++)
			as_device(a, procs[p], n++);
	}
	vw_set_base(a->w, "%s", "");
	a->w->call = a->f.amdsmi_get_processor_handles_name; /* the count's source */
	vw_int(a->w, "device_count", n);
}

static const char *const amdsmi_keys[] = { "library", "init", "device_count", "devices", NULL };
static const char *const amdsmi_after_init[] = { "device_count", "devices", NULL };

/* The library's names, then where ROCm installs it (/opt/rocm/lib is not on the loader's
 * default path); a live run only: under --sysroot --amdsmi-lib names the file. */
static const char *const amdsmi_sonames[] = { "libamd_smi.so",
					      "libamd_smi.so.26",
					      "libamd_smi.so.25",
					      "libamd_smi.so.24",
					      "/opt/rocm/lib/libamd_smi.so",
					      NULL };
static const struct vendor_lib amdsmi_lib = {
	.sonames = amdsmi_sonames,
	.name = "libamd_smi",
	.not_this = "not an AMD SMI library",
	.symbol_key = "init",
	.keys = (const char *const[]){ "init", "device_count", "devices", NULL },
	.symbols = amdsmi_symbols,
	.n_symbols = ARRAY_SIZE(amdsmi_symbols),
};

static int amdsmi_child(int fd, void *userdata)
{
	struct vwriter w = { .fd = fd };
	struct amdsmi a = { .w = &w };
	char buf[128];

	if (!vendor_child_load(&w, userdata, &amdsmi_lib, &a.f))
		return w.err ? 1 : 0;
	if (!AS(&a, "init", amdsmi_init, (AMDSMI_INIT_AMD_GPUS))) {
		snprintf(buf, sizeof(buf), "%s failed", a.f.amdsmi_init_name);
		vw_not_called(&w, a.f.amdsmi_init_name, buf, amdsmi_after_init);
		return w.err ? 1 : 0;
	}
	vw_str(&w, "init", "AMDSMI_STATUS_SUCCESS");
	as_lib_version(&a);
	as_devices(&a);
	if (a.f.amdsmi_shut_down) {
		vw_begin(&w, NULL, a.f.amdsmi_shut_down_name);
		a.f.amdsmi_shut_down();
	}
	return w.err ? 1 : 0;
}

int vendor_amdsmi_start(const struct vendor_req *req, struct vendor_pending **ret)
{
	struct vendor_session vs = {
		.fn = amdsmi_child,
		.userdata = (void *)req,
		.timeout_ms = req->timeout_ms,
		.prefix = "amdsmi:",
		.expected_keys = amdsmi_keys,
	};

	return vendor_session_start(&vs, ret);
}
