// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ROCm on WSL2 reaches the GPU through /dev/dxg by way of librocdxg, AMD's DXG thunk
 * (github.com/ROCm/librocdxg), which ROCr opens with dlopen("librocdxg.so"): "Cannot load
 * librocdxg.so, failed:librocdxg.so: cannot open shared object file" where the dynamic loader
 * cannot find it. Its `make install` and .deb put it in /opt/rocm/lib, which ld.so searches
 * only when an ld.so.conf.d file lists it and ldconfig has run (ROCm/librocdxg#46; #47 makes
 * `make install` write /etc/ld.so.conf.d/x86_64-libhsakmt.conf). Written only where /dev/dxg
 * is a character device: runtime.rocm_wsl.librocdxg (the loader's search for the name,
 * loader.h) and runtime.rocm_wsl.librocdxg_file (/opt/rocm/lib/librocdxg.so, there or not),
 * where /opt/rocm exists too (a ROCm release, or only librocdxg's files beside a venv's ROCm):
 * an NVIDIA host's distribution has no use for it.
 */
#include <errno.h>
#include <sys/stat.h>

#include "probe/loader.h"
#include "probe/rocm-wsl.h"

#define DXG	  "/dev/dxg"
#define INSTALLED "/opt/rocm/lib/librocdxg.so"

/* 1 where path is there (of type mode, or any where mode is 0), 0 where it is not, else the
 * -errno of the stat (EACCES: could not tell). */
static int there(struct probe_env *pe, const char *path, mode_t mode)
{
	struct stat st;
	int err = root_stat(pe->root, path, &st);

	if (err == -ENOENT || err == -ENOTDIR)
		return 0;
	if (err < 0)
		return err;
	return !mode || (st.st_mode & S_IFMT) == mode;
}

int rocm_wsl_probe(struct probe_env *pe, struct snap_node *rt)
{
	struct snap_node *o;
	struct loader *l;
	const char *failed = DXG;
	int err = there(pe, DXG, S_IFCHR);

	/* not WSL2's GPU (host.wsl says what there is), or no ROCm here (runtime.rocm's) */
	if (err > 0 && (err = there(pe, "/opt/rocm", 0)) <= 0)
		failed = "/opt/rocm";
	if (err == 0 || err == -ENOMEM)
		return err;
	o = snap_object(rt, "rocm_wsl");
	if (err < 0) { /* could not tell: the file is as unknown as the place */
		snap_set_errno(o, "librocdxg_file", err, failed);
		return 0;
	}
	if ((err = probe_loader(pe, &l)) < 0 ||
	    (err = probe_resolve_into(l, snap_object(o, "librocdxg"), "librocdxg.so")) < 0)
		return err;
	err = there(pe, INSTALLED, 0);
	if (err > 0)
		snap_set_str(o, "librocdxg_file", INSTALLED, INSTALLED);
	else if (err == 0)
		snap_set_state(o, "librocdxg_file", FACT_ABSENT, INSTALLED, NULL);
	else if (err == -ENOMEM)
		return err;
	else
		snap_set_errno(o, "librocdxg_file", err, INSTALLED);
	return 0;
}
