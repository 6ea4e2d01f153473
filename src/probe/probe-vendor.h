/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the live vendor probes (NVML, libcuda, OpenCL) share: the gate that decides whether a
 * vendor library may be called at all, and the copy of a vendor result tree into the
 * snapshot. Internal to src/probe/.
 */
#pragma once

#include "probe.h"
#include "vendor/vendor.h"

/* Why the library must not be called (a "not called: …" reason, in buf or a literal), or
 * NULL when it may. *ret_source gets what was checked. need_module: the nvidia kernel module must
 * be loaded (and, live, /dev/nvidiactl exist) because the real NVML and libcuda create the node
 * when it is missing, even without a driver (docs/formats/nvml.md §1). */
const char *probe_vendor_gate(struct probe_env *pe, struct snapshot *s, const char *explicit_lib,
			      const char *lib_option, const char *what, bool need_module, char *buf,
			      size_t size, const char **ret_source);
/* Is module loaded (driver.kernel_modules.<m> or /sys/module/<m>), and when live, is dev a
 * character device? */
bool probe_vendor_module_ready(struct probe_env *pe, struct snapshot *s, const char *module,
			       const char *dev);
/* Copies r's tree into obj and adds the "session" fact. */
void probe_vendor_write(struct snap_node *obj, const struct vendor_result *r, unsigned timeout_ms,
			const char *what);
/* The library could not be called (gate closed or the child could not start): each key an
 * unprobed or error fact with the reason. */
void probe_vendor_not_called(struct snap_node *obj, const char *const keys[], enum fact_state state,
			     const char *source, const char *why);
