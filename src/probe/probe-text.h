/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The probes' writers of text the parsers of src/formats/ (proc-text.h, kernel-log.h) read:
 * each parses (text, len) and writes the facts under the node it is given, with `source` as
 * their source, so that the unit tests and fuzz targets see the facts a probe writes without
 * a file tree. None of them reads a file; the probes read the file and call them.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "formats/kernel-log.h"
#include "formats/proc-text.h"
#include "snapshot/snapshot.h"

/* proc(5) /proc/modules → kernel_modules.{modules_supported,nvidia,…} (probe-nvidia-driver.c). */
void probe_parse_proc_modules(struct snap_node *km, const char *text, size_t len,
			      const char *source);
/* /proc/driver/nvidia/version → proc_version, flavor, gcc_version (probe-nvidia-driver.c). */
void probe_parse_nvidia_version(struct snap_node *nv, const char *text, size_t len,
				const char *source);
/* /proc/driver/nvidia/gpus/<bus>/information → model, irq, uuid, … (probe-nvidia-driver.c). */
void probe_parse_nvidia_gpu_info(struct snap_node *gpu, const char *text, size_t len,
				 const char *source);
/* proc(5) /proc/cpuinfo → cpu.{model,vendor,logical_cpus} (probe-host.c). */
void probe_parse_cpuinfo(struct snap_node *cpu, const char *text, size_t len, const char *source);
/* proc(5) /proc/<pid>/status Uid:/Gid:/Groups: → process.{uid,gid,groups[]} (probe-host.c);
 * group names from group(5) text (NULL: not read, group_err says why: -ENOENT gives absent
 * names, another error unreadable ones). */
void probe_parse_proc_status(struct snap_node *proc, const char *text, size_t len,
			     const char *source, const char *group_text, int group_err,
			     const char *group_source);
/* Kernel log text (syslog files or /dev/kmsg records, one per line) → driver.kernel_log and
 * driver.xid_events[] (probe-kernel-log.c). Returns 0 or -ENOMEM. */
int probe_parse_kernel_log(struct snap_node *drv, const char *text, size_t len, const char *source);
