// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The environment ollama's server runs with where it runs as a systemd service, as
 * framework.ollama.service_unit and service_environment: ollama's install.sh writes
 * /etc/systemd/system/ollama.service and users set HSA_OVERRIDE_GFX_VERSION, the device
 * selection and the library choice with `systemctl edit ollama` (a drop-in,
 * ollama.service.d/override.conf: ollama's docs/linux.md and docs/faq.md), never in the shell
 * gpuenv runs from. The unit, its drop-ins and environment files are found and read in
 * systemd's order by service-unit.c, which also tells whether the unit is enabled
 * (service_enabled): a link to it in a <target>.wants/ or .requires/ directory of any directory
 * of the unit search path (systemd.unit(5); systemd/systemd#1169, #4830, #9569). Where nothing
 * enables it, the server may as well be an `ollama serve` started by hand, which reads none of
 * these files (ollama/ollama#8679). Nothing is recorded where no unit file exists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/systemd-unit-env.h"
#include "probe.h"
#include "service-unit.h"
#include "shared/strv.h"

#define UNIT "ollama.service"

/* The variables recorded: those that decide which GPU ollama uses and with what code
 * (docs/gpu.md, envconfig/config.go's server config). */
static const char *const gpu_vars[] = {
	"HSA_OVERRIDE_GFX_VERSION", "HSA_XNACK",	  "HIP_VISIBLE_DEVICES",
	"ROCR_VISIBLE_DEVICES",	    "GPU_DEVICE_ORDINAL", "CUDA_VISIBLE_DEVICES",
	"OLLAMA_LLM_LIBRARY",
};

/* The GPU variables the service's files set, each with its file:line; one a file could not
 * tell (an EnvironmentFile= not read, a line not split) is recorded in that state. */
static void record(struct snap_node *senv, const struct unit_env *e, char **paths,
		   const struct service_unknown *u)
{
	char src[4200];

	for (size_t i = 0; i < ARRAY_SIZE(gpu_vars); i++) {
		const struct unit_env_var *v = unit_env_get(e, gpu_vars[i]);

		if (u->any && (!v || v->file < u->known_from))
			snap_set_state(senv, gpu_vars[i], FACT_UNPROBED, u->src, u->why);
		else if (v) {
			snprintf(src, sizeof(src), "%s:%llu", paths[v->file],
				 (unsigned long long)v->line);
			if (v->truncated || v->expands)
				snap_set_malformed(senv, v->name, v->value, src,
						   v->expands ? "holds a systemd specifier"
							      : "longer than 2047 bytes");
			else
				snap_set_str(senv, v->name, v->value, src);
		} else if (e->bad_lines) {
			snprintf(src, sizeof(src), "%s:%llu", paths[e->bad_file],
				 (unsigned long long)e->bad_line);
			snap_set_state(senv, gpu_vars[i], FACT_MALFORMED, src,
				       "an Environment= line systemd may read otherwise");
		}
	}
}

/* Whether a link in any unit directory's <target>.wants/ or .requires/ enables the unit; a
 * directory or link that could not be looked at leaves it unknown unless another one does. */
static int record_enabled(struct probe_env *pe, struct snap_node *ollama)
{
	_cleanup_free_ char *link = NULL, *bad = NULL;
	int r = service_unit_enabled(pe, UNIT, &link, &bad);

	if (r == -ENOMEM)
		return r;
	if (r > 0)
		snap_set_bool(ollama, "service_enabled", true, link);
	else if (r < 0)
		snap_set_errno(ollama, "service_enabled", r, bad);
	else
		snap_set_bool(ollama, "service_enabled", false,
			      "systemd unit directories: <target>.wants/, .requires/");
	return 0;
}

int probe_ollama_service(struct probe_env *pe, struct snap_node *ollama)
{
	_cleanup_strv_free_ char **paths = NULL;
	_cleanup_free_ char *bad = NULL;
	struct snap_node *senv;
	struct service_unknown u = { 0 };
	struct unit_env *e;
	const char *badp = NULL;
	size_t units;
	int r = service_unit_files(pe, UNIT, &paths, &bad), r2;

	if (r == -ENOMEM)
		return r;
	if (r < 0 && !paths) {
		snap_set_errno(ollama, "service_unit", r, bad);
		return 0;
	}
	if (!paths)
		return 0;
	snap_set_str(ollama, "service_unit", paths[0], paths[0]);
	if ((r2 = record_enabled(pe, ollama)) < 0)
		return r2;
	if (r < 0) {
		snap_set_errno(ollama, "service_environment", r, bad);
		return 0;
	}
	STRV_FOREACH(p, paths + 1)
		snap_append_str(snap_array(ollama, "service_drop_ins"), *p, *p);
	r = service_unit_parse(pe, paths, &e, &badp);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snap_set_errno(ollama, "service_environment", r, badp);
		return 0;
	}
	units = strv_length(paths);
	r = service_env_files(pe, e, &paths, &u);
	STRV_FOREACH(p, paths + units)
		snap_append_str(snap_array(ollama, "service_environment_files"), *p, *p);
	if (r == -ENOMEM) {
		free(e);
		return r;
	}
	senv = snap_object(ollama, "service_environment");
	record(senv, e, paths, &u);
	free(e);
	return 0;
}
