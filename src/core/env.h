/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The environment overlay: every environment read in gpuenv goes through here, so a
 * fixture (or `--env-file`) supplies the environment of the machine being judged and
 * the host's own variables never leak into a --sysroot run.
 * Base: the process environment when live, empty under --sysroot. The env file overlays
 * it with docker's --env-file rules (docs.docker.com, "docker run --env-file"): KEY=VALUE
 * per line, '#' comment lines and blank lines ignored, the value taken verbatim (no quote
 * processing), and a bare KEY copies that variable from the base, if set.
 */
#pragma once

#include <stdbool.h>

struct env;

int env_new(bool live, struct env **ret);
struct env *env_free(struct env *e);
/* Overlays KEY=VALUE lines from a host file. -EBADMSG (with *ret_line) on a bad line. */
int env_load_file(struct env *e, const char *host_path, unsigned *ret_line);
int env_set(struct env *e, const char *key, const char *value);
/* Borrowed value, or NULL when unset. */
const char *env_get(const struct env *e, const char *key);
/* All "KEY=VALUE" entries, sorted by key. Borrowed. */
char *const *env_list(const struct env *e);
