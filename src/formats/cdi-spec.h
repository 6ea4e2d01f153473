/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A reader for Container Device Interface specs (the *.yaml and *.json files in /etc/cdi
 * and /var/run/cdi), in the format of github.com/cncf-tags/container-device-interface
 * SPEC.md: cdiVersion, kind ("vendor.com/class"), devices[] {name, containerEdits},
 * containerEdits {env, deviceNodes, mounts[] {hostPath, containerPath}, hooks[] {hookName,
 * path, args}}. It keeps what gpuenv judges: the version, the kind, the device names and
 * the driver version the spec was generated for (cdi-spec.c says where that comes from), and
 * the host files its mounts name (a container runtime refuses to start a container whose
 * mount source is gone).
 * Parsing takes (ptr, len), is pure and capped (CDI_MAX_*).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define CDI_MAX_INPUT	((size_t)4 << 20) /* bytes; nvidia-ctk writes ~15 KiB per GPU */
#define CDI_MAX_DEVICES 1024u
#define CDI_MAX_ITEMS	8192u	/* entries of one list (mounts, hooks, args) */
#define CDI_MAX_VISITS	200000u /* nodes looked at, aliases counted each time */
#define CDI_MAX_DEPTH	64u	/* YAML nesting the reader follows */

struct cdi_spec {
	bool json;		     /* the document is a JSON object (first byte '{') */
	char *cdi_version;	     /* NULL when the key is missing */
	char *kind;		     /* NULL when the key is missing */
	char **devices;		     /* device names in file order (NULL-terminated, never NULL) */
	char *driver_version;	     /* NULL when no file name or hook names one */
	char *driver_version_source; /* where driver_version came from, e.g. a mount's hostPath */
	char **host_paths;	     /* containerEdits.deviceNodes[] (hostPath, else path), then
			    * mounts[].hostPath, top level then each device's, in file order, the
			    * first CDI_MAX_ITEMS (NULL-terminated, never NULL) */
	bool host_paths_capped;	     /* more than CDI_MAX_ITEMS: host_paths is not all */
};

struct cdi_error {
	char why[192];
};

/* 0; -EBADMSG (not YAML/JSON, or not a CDI spec: err->why says where and why);
 * -E2BIG (a cap); -ENOMEM. */
int cdi_spec_parse(const char *data, size_t len, struct cdi_spec **ret, struct cdi_error *err);
struct cdi_spec *cdi_spec_free(struct cdi_spec *s);
static inline void cdi_spec_freep(struct cdi_spec **s)
{
	cdi_spec_free(*s);
}
/* "libcuda.so.535.104.05" → "535.104.05" for NVIDIA's versioned driver libraries
 * (libcuda, libnvidia-ml, libnvidia-ptxjitcompiler); NULL otherwise. Borrowed from name. */
const char *cdi_driver_lib_version(const char *basename);
