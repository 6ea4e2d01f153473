/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The file names distributions give the NVIDIA driver's core module, nvidia.ko, plain or
 * compressed (.ko, .ko.xz, .ko.zst, .ko.gz: kmodule_compression_from_name()), never one of its
 * companions' (nvidia-modeset.ko, nvidia-current-uvm.ko, nvidia_384_uvm.ko …). `name` is the
 * path's last component.
 */
#pragma once

#include <stdbool.h>

/* NVIDIA's own name and Debian's per flavour, whose packages rename the core module
 * (nvidia-current.ko, nvidia-tesla.ko, nvidia-tesla-470.ko, nvidia-legacy-390xx.ko; a modprobe
 * alias points at it). */
bool nvidia_module_file_named(const char *name);

/*
 * Ubuntu's nvidia-graphics-drivers packages up to 384 install it through DKMS as nvidia_NNN.ko
 * (their dkms.conf: BUILT_MODULE_NAME "nvidia", DEST_MODULE_NAME "nvidia_384"; seen in
 * https://github.com/canonical/nvidia-graphics-drivers/issues/13 as
 * /lib/modules/4.10.0-37-generic/updates/dkms/nvidia_384.ko). DKMS renames the file only: the
 * module is still "nvidia" (.modinfo name=, what lsmod shows).
 */
bool nvidia_module_file_ubuntu(const char *name);
