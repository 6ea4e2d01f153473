/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The command-output readers of pasted text (one file each, pasted-<name>.c; the shape is
 * pasted_reader_fn of pasted.h), listed in pasted_readers[] by pasted-readers.c. */
#pragma once

#include <stddef.h>

#include "formats/pasted.h"

int pasted_read_nvidia_smi(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_collect_env(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_packages(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_os_packages(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_toolkit(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_nvidia_version(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_env(const char *text, size_t len, struct pasted_facts *out);
/* Where a shell command line that sets variables starts after an interactive prompt
 * ("$ CUDA_VISIBLE_DEVICES=1 python …", "user@host:~$ NAME=…"): its offset in p[0..n), 0 when
 * the line is no such thing (pasted-env.c). */
size_t pasted_env_after_prompt(const char *p, size_t n);
int pasted_read_ldconfig(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_kernel_log(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_mokutil(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_lsmod(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_mounts(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_os_release(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_uname(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_hostnamectl(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_modinfo(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_lspci(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_ldd(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_docker_info(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_docker_context(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_rocminfo(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_rocm_smi(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_ollama_log(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_torch_arch(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_tf_build_info(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_windows(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_module_sig(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_container_cgroup(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_nvidia_smi_health(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_nvlink(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_clinfo(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_torch_ext(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_jax_check(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_tf_device(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_hung_task(const char *text, size_t len, struct pasted_facts *out);
int pasted_read_nvidia_smi_mig(const char *text, size_t len, struct pasted_facts *out);

struct pasted_needle;
/* The packages reader's signs (any case: pip compares names lower-cased); see pasted.h. */
size_t pasted_packages_signs(struct pasted_needle *needles, size_t max);
