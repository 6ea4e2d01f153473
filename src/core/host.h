/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Facts about the host kernel read through the root, never from uname(2): under
 * --sysroot the kernel of the machine being judged is the one in its /proc (util-linux
 * lsblk needed special cases for every host value it read directly; docs/design.md §3).
 */
#pragma once

struct root;

/* /proc/sys/kernel/osrelease ("6.1.0-18-amd64"). */
int host_kernel_release(struct root *r, char **ret);
