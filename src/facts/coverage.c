/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The coverage verdict (coverage.h): which image of a binary a device would load. Rules from
 * docs/compatibility.md (a) and (b): CUDA C++ Programming Guide §6.1.2 (SASS X.y runs on X.z,
 * z >= y; not across majors; Tegra exact match), LLVM NVPTX.td (`a` targets only on their
 * exact architecture, `f` within their family at or above their CC), §6.1.3 (PTX JITs to any
 * equal or higher CC), and the PTX ISA a driver JITs (ptx_isa.tsv; error 222 above it).
 * Pure: no I/O, no allocation.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "facts/coverage.h"
#include "facts/facts-table.h"
#include "shared/macro.h"
#include "shared/parse.h"

int coverage_target_parse(const char *s, struct coverage_target_info *ret)
{
	struct coverage_target_info t = { 0 };
	const char *p;
	unsigned v = 0;
	int d = 0;

	if (!s || !ret)
		return -EINVAL;
	if (startswith(s, "sm_")) {
		t.kind = COVERAGE_KIND_SASS;
		p = s + 3;
	} else if (startswith(s, "compute_")) {
		t.kind = COVERAGE_KIND_PTX;
		p = s + 8;
	} else if (startswith(s, "lto_")) {
		t.kind = COVERAGE_KIND_OTHER;
		p = s + 4;
	} else {
		return -EINVAL;
	}
	while (*p >= '0' && *p <= '9' && d < 4) {
		v = v * 10 + (unsigned)(*p++ - '0');
		d++;
	}
	if (d < 2)
		return -EINVAL;
	if (*p == 'a' || *p == 'f')
		t.variant = *p++;
	if (*p != '\0')
		return -EINVAL;
	t.arch = v;
	*ret = t;
	return 0;
}

const char *coverage_verdict_name(enum coverage_verdict v)
{
	switch (v) {
	case COVERAGE_NATIVE:
		return "native";
	case COVERAGE_PTX_JIT:
		return "ptx-jit";
	case COVERAGE_PTX_TOO_NEW:
		return "ptx-too-new";
	case COVERAGE_NO_KERNEL_IMAGE:
		return "no-kernel-image";
	case COVERAGE_DRIVER_TOO_OLD:
		return "driver-too-old";
	case COVERAGE_DRIVER_GPU_UNSUPPORTED:
		return "driver-gpu-unsupported";
	default:
		return "no-gpu-code";
	}
}

bool coverage_verdict_is_failure(enum coverage_verdict v)
{
	return v == COVERAGE_PTX_TOO_NEW || v == COVERAGE_NO_KERNEL_IMAGE ||
	       v == COVERAGE_DRIVER_TOO_OLD || v == COVERAGE_DRIVER_GPU_UNSUPPORTED;
}

static unsigned family_of(unsigned sm)
{
	const struct facts_sm_arch *a;

	return facts_sm_arch(sm, &a) == 0 ? a->family : 0;
}

static bool is_tegra(unsigned sm)
{
	const struct facts_sm_arch *a;

	return facts_sm_arch(sm, &a) == 0 && a->tegra;
}

/* Is the sm_arch.tsv row of sm (its Tegra status or family) unconfirmed? */
static bool sm_row_unconfirmed(unsigned sm)
{
	const struct facts_sm_arch *a;

	return facts_sm_arch(sm, &a) == 0 && facts_unconfirmed(a->confidence);
}

/* `f`: the device is in the target's family at or above the target's CC (NVPTX.td). */
static bool family_ok(unsigned target, unsigned dev)
{
	unsigned f = family_of(target);

	return f != 0 && f == family_of(dev) && dev >= target;
}

bool coverage_sass_runs(const struct coverage_target_info *t, unsigned major, unsigned minor)
{
	unsigned dev = major * 10 + minor;

	if (t->kind != COVERAGE_KIND_SASS || minor > 9)
		return false;
	if (t->variant == 'a')
		return t->arch == dev;
	if (t->variant == 'f')
		return family_ok(t->arch, dev);
	if (is_tegra(t->arch) || is_tegra(dev))
		return t->arch == dev;
	return t->arch / 10 == major && t->arch % 10 <= minor;
}

bool coverage_ptx_jits(const struct coverage_target_info *t, unsigned major, unsigned minor)
{
	unsigned dev = major * 10 + minor;

	if (t->kind != COVERAGE_KIND_PTX || minor > 9)
		return false;
	if (t->variant == 'a')
		return t->arch == dev;
	if (t->variant == 'f')
		return family_ok(t->arch, dev);
	return dev >= t->arch;
}

static int isa_cmp(int amaj, int amin, int bmaj, int bmin)
{
	return amaj != bmaj ? (amaj < bmaj ? -1 : 1) : amin != bmin ? (amin < bmin ? -1 : 1) : 0;
}

/* Can driver branch `branch` JIT PTX ISA pm.pn? *unconf when the table cannot say for sure:
 * ISA older than the table (assumed yes), ISA or driver beyond it, ISA without a branch. */
static bool ptx_isa_ok(int pm, int pn, unsigned branch, bool *unconf)
{
	const struct facts_ptx_isa *row, *first = &facts_ptx_isa_table_rows()[0], *last = NULL;

	if (facts_ptx_isa((unsigned)pm, (unsigned)pn, &row) == 0 && row->min_driver_branch) {
		if (facts_unconfirmed(row->confidence))
			*unconf = true;
		return row->min_driver_branch <= branch;
	}
	for (size_t i = 0; i < facts_ptx_isa_table_len; i++)
		if (facts_ptx_isa_table_rows()[i].min_driver_branch)
			last = &facts_ptx_isa_table_rows()[i];
	*unconf = true;
	if (isa_cmp(pm, pn, (int)first->isa_major, (int)first->isa_minor) < 0)
		return true;
	if (!last || isa_cmp(pm, pn, (int)last->isa_major, (int)last->isa_minor) > 0 || row)
		return branch > facts_ptx_isa_max_branch();
	/* between two rows (no such ISA was released): the next row's branch decides */
	for (size_t i = 0; i < facts_ptx_isa_table_len; i++) {
		const struct facts_ptx_isa *r = &facts_ptx_isa_table_rows()[i];

		if (r->min_driver_branch &&
		    isa_cmp(pm, pn, (int)r->isa_major, (int)r->isa_minor) < 0)
			return r->min_driver_branch <= branch;
	}
	return false;
}

/* Is a nearer miss than b for the device? A target of the device's own major first (sm_52
 * on a 5.0 GPU: only its minor misses, which says more than an sm_37 of another major), then
 * the highest at or below the device, else the lowest above. */
static bool nearer_miss(unsigned a, unsigned b, unsigned dev)
{
	bool same_a = a / 10 == dev / 10, same_b = b / 10 == dev / 10;

	if (same_a != same_b)
		return same_a;
	if ((a <= dev) != (b <= dev))
		return a <= dev;
	return a <= dev ? a > b : a < b;
}

/* Why a target does not serve this device, for the no-kernel-image reason. */
static void miss_reason(char *buf, size_t len, const char *target,
			const struct coverage_target_info *t, unsigned major, unsigned minor)
{
	unsigned dev = major * 10 + minor;

	if (t->variant == 'a')
		snprintf(buf, len, "%s runs only on compute capability %u.%u", target, t->arch / 10,
			 t->arch % 10);
	else if (t->variant == 'f')
		snprintf(buf, len,
			 "%s runs only on its family (sm_%u…) at compute capability %u.%u or "
			 "above",
			 target, family_of(t->arch) ? family_of(t->arch) : t->arch, t->arch / 10,
			 t->arch % 10);
	else if (t->kind == COVERAGE_KIND_PTX)
		snprintf(buf, len, "%s PTX needs compute capability %u.%u or above", target,
			 t->arch / 10, t->arch % 10);
	else if (is_tegra(t->arch) || is_tegra(dev))
		snprintf(buf, len, "%s: Tegra SASS runs only on the exact compute capability",
			 target);
	else if (t->arch / 10 != major)
		snprintf(buf, len, "%s SASS does not run across major versions (%u vs %u)", target,
			 t->arch / 10, major);
	else
		snprintf(buf, len, "%s SASS needs minor %u, device has %u", target, t->arch % 10,
			 minor);
}

int coverage_judge(const struct coverage_target *targets, size_t n, unsigned major, unsigned minor,
		   const char *driver_version, struct coverage_result *ret)
{
	struct coverage_result res = { .verdict = COVERAGE_NO_GPU_CODE,
				       .entry = SIZE_MAX,
				       .driver_ptx_major = -1,
				       .driver_ptx_minor = -1 };
	const struct facts_ptx_isa *drv = NULL;
	size_t best_sass = SIZE_MAX, best_jit = SIZE_MAX, best_new = SIZE_MAX, nearest = SIZE_MAX;
	struct coverage_target_info bs = { 0 }, bj = { 0 }, bnear = { 0 };
	char lto[96] = ""; /* the LTO-IR entries, listed */
	bool any_code = false, jit_unconf = false, unknown_isa = false, rows_unconf = false;
	unsigned drv_branch = 0;
	unsigned dev = major * 10 + minor;

	if ((!targets && n) || !ret || minor > 9 || major > 99)
		return -EINVAL;
	if (driver_version) {
		struct version v;
		int r = version_parse(driver_version, &v);

		if (r < 0)
			return -EINVAL;
		drv_branch = v.part[0];
		if (facts_ptx_isa_for_driver(driver_version, &drv) == 0) {
			res.driver_ptx_major = (int)drv->isa_major;
			res.driver_ptx_minor = (int)drv->isa_minor;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct coverage_target_info t;

		if (!targets[i].target || coverage_target_parse(targets[i].target, &t) < 0)
			continue;
		if (t.kind == COVERAGE_KIND_OTHER) {
			/* LTO-IR: input to a device link, never loaded (nvJitLink docs) */
			size_t used = strlen(lto);

			if (used + strlen(targets[i].target) + 8 < sizeof(lto))
				snprintf(lto + used, sizeof(lto) - used, "%s%s", used ? ", " : "",
					 targets[i].target);
			continue;
		}
		any_code = true;
		/* the Tegra status and family of the target's and the device's rows decide
		 * whether this SASS runs or this `f` PTX JITs: a verdict that rests on them
		 * is no surer than they are (CC 8.8's Tegra status is unconfirmed) */
		if ((t.kind == COVERAGE_KIND_SASS || t.variant == 'f') &&
		    (sm_row_unconfirmed(dev) ||
		     (sm_row_unconfirmed(t.arch) && (t.arch / 10 == major || t.variant == 'f'))))
			rows_unconf = true;
		if (t.kind == COVERAGE_KIND_SASS && coverage_sass_runs(&t, major, minor)) {
			/* prefer the exact architecture, then the closest below */
			if (best_sass == SIZE_MAX || (bs.arch != dev && t.arch > bs.arch) ||
			    (t.arch == dev && bs.arch != dev)) {
				best_sass = i;
				bs = t;
			}
			continue;
		}
		if (t.kind == COVERAGE_KIND_PTX && coverage_ptx_jits(&t, major, minor)) {
			int pm = targets[i].ptx_major, pn = targets[i].ptx_minor;
			bool ok, unconf = false;

			if (pm < 0 || !driver_version)
				ok = true; /* ISA or driver unknown: cannot tell, assume it loads */
			else
				ok = ptx_isa_ok(pm, pn, drv_branch, &unconf);
			if (ok) {
				if (best_jit == SIZE_MAX || t.arch > bj.arch) {
					best_jit = i;
					bj = t;
					jit_unconf = unconf;
				}
			} else if (best_new == SIZE_MAX ||
				   isa_cmp(pm, pn, targets[best_new].ptx_major,
					   targets[best_new].ptx_minor) < 0) {
				best_new = i;
			}
			continue;
		}
		if (nearest == SIZE_MAX || nearer_miss(t.arch, bnear.arch, dev)) {
			nearest = i;
			bnear = t;
		}
	}
	if (best_sass != SIZE_MAX) {
		res.verdict = COVERAGE_NATIVE;
		res.entry = best_sass;
		if (bs.arch == dev)
			snprintf(res.reason, sizeof(res.reason),
				 "%s SASS matches compute capability %u.%u",
				 targets[best_sass].target, major, minor);
		else if (bs.variant == 'f')
			snprintf(res.reason, sizeof(res.reason),
				 "%s SASS runs on compute capability %u.%u (same family, %u.%u or "
				 "above)",
				 targets[best_sass].target, major, minor, bs.arch / 10,
				 bs.arch % 10);
		else
			snprintf(res.reason, sizeof(res.reason),
				 "%s SASS runs on compute capability %u.%u (same major, minor %u "
				 "<= %u)",
				 targets[best_sass].target, major, minor, bs.arch % 10, minor);
	} else if (best_jit != SIZE_MAX) {
		const struct coverage_target *t = &targets[best_jit];

		res.verdict = COVERAGE_PTX_JIT;
		res.entry = best_jit;
		if (t->ptx_major < 0) {
			unknown_isa = true;
			snprintf(res.reason, sizeof(res.reason),
				 "no SASS for compute capability %u.%u; %s PTX (ISA unknown) is "
				 "JIT-compiled by the driver at first launch",
				 major, minor, t->target);
		} else if (!driver_version) {
			snprintf(res.reason, sizeof(res.reason),
				 "no SASS for compute capability %u.%u; %s PTX (ISA %d.%d) is "
				 "JIT-compiled at first launch by a driver that supports PTX ISA "
				 "%d.%d (driver not given)",
				 major, minor, t->target, t->ptx_major, t->ptx_minor, t->ptx_major,
				 t->ptx_minor);
		} else if (drv) {
			unknown_isa = jit_unconf;
			snprintf(res.reason, sizeof(res.reason),
				 "no SASS for compute capability %u.%u; %s PTX (ISA %d.%d) is "
				 "JIT-compiled at first launch (driver %s JITs PTX ISA up to "
				 "%u.%u%s)",
				 major, minor, t->target, t->ptx_major, t->ptx_minor,
				 driver_version, drv->isa_major, drv->isa_minor,
				 drv_branch > facts_ptx_isa_max_branch() ? " or newer" : "");
		} else {
			unknown_isa = true;
			snprintf(res.reason, sizeof(res.reason),
				 "no SASS for compute capability %u.%u; %s PTX (ISA %d.%d) is "
				 "older than the knowledge base and assumed JIT-able by driver %s",
				 major, minor, t->target, t->ptx_major, t->ptx_minor,
				 driver_version);
		}
	} else if (best_new != SIZE_MAX) {
		const struct coverage_target *t = &targets[best_new];

		res.verdict = COVERAGE_PTX_TOO_NEW;
		res.entry = best_new;
		ptx_isa_ok(t->ptx_major, t->ptx_minor, drv_branch, &unknown_isa);
		if (drv)
			snprintf(res.reason, sizeof(res.reason),
				 "no SASS for compute capability %u.%u; %s PTX has ISA %d.%d but "
				 "driver %s (CUDA %s) JITs PTX ISA up to %u.%u: "
				 "CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222, \"the provided PTX was "
				 "compiled with an unsupported toolchain\")",
				 major, minor, t->target, t->ptx_major, t->ptx_minor,
				 driver_version, drv->cuda_version, drv->isa_major, drv->isa_minor);
		else
			snprintf(res.reason, sizeof(res.reason),
				 "no SASS for compute capability %u.%u; %s PTX has ISA %d.%d, "
				 "newer than driver %s (older than every PTX ISA in the knowledge "
				 "base) can JIT: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)",
				 major, minor, t->target, t->ptx_major, t->ptx_minor,
				 driver_version);
	} else if (any_code) {
		char miss[160] = "";

		res.verdict = COVERAGE_NO_KERNEL_IMAGE;
		if (nearest != SIZE_MAX)
			miss_reason(miss, sizeof(miss), targets[nearest].target, &bnear, major,
				    minor);
		snprintf(res.reason, sizeof(res.reason),
			 "no SASS for compute capability %u.%u and no PTX it can JIT%s%s%s%s%s: "
			 "CUDA_ERROR_NO_BINARY_FOR_GPU (209) / cudaErrorNoKernelImageForDevice "
			 "(\"no kernel image is available for execution on the device\")",
			 major, minor, miss[0] ? "; " : "", miss, lto[0] ? "; " : "", lto,
			 lto[0] ? " is link-time IR, not loadable" : "");
	} else if (lto[0]) {
		/* device code, none of it loadable: not "no GPU code", which judges nothing */
		res.verdict = COVERAGE_NO_KERNEL_IMAGE;
		res.lto_only = true;
		snprintf(res.reason, sizeof(res.reason),
			 "%s only: link-time IR (LTO-IR), not loadable (nvlink -dlto or nvJitLink "
			 "must link it to SASS first); nothing for compute capability %u.%u: "
			 "CUDA_ERROR_NO_BINARY_FOR_GPU (209) / cudaErrorNoKernelImageForDevice "
			 "(\"no kernel image is available for execution on the device\")",
			 lto, major, minor);
	} else {
		snprintf(res.reason, sizeof(res.reason), "no SASS or PTX");
	}
	if (unknown_isa || rows_unconf)
		res.unconfirmed = true;
	*ret = res;
	return 0;
}

/* Does the comma list "50,52,…" hold sm? */
static bool list_has_sm(const char *list, unsigned sm)
{
	char want[8];
	size_t n;

	if (!list)
		return false;
	n = (size_t)snprintf(want, sizeof(want), "%u", sm);
	for (const char *p = list; (p = strstr(p, want)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

int coverage_first_branch_for_cc(unsigned major, unsigned minor, unsigned *ret_branch,
				 const char **ret_cuda, bool *ret_unconf)
{
	unsigned sm = major * 10 + minor;

	if (!ret_branch || minor > 9)
		return -EINVAL;
	/* the table is ascending by CUDA version: the first row listing the SM */
	for (size_t i = 0; i < facts_cuda_arch_table_len; i++) {
		const struct facts_cuda_arch *a = &facts_cuda_arch_table_rows()[i];
		const struct facts_cuda_release *first = NULL, *newest = NULL;
		struct version v;
		unsigned branch;

		if (!list_has_sm(a->sm_targets, sm))
			continue;
		if (i == 0)
			return -ENOENT; /* older than the table: its first toolkit is not known */
		if (version_parse(a->cuda_version, &v) < 0 ||
		    facts_cuda_minor_releases(v.part[0], v.part[1], &first, &newest) < 0 ||
		    !first->driver_branch || parse_uint(first->driver_branch, 10, &branch) < 0)
			return -ENOENT;
		*ret_branch = branch;
		if (ret_cuda)
			*ret_cuda = a->cuda_version;
		if (ret_unconf)
			*ret_unconf = facts_unconfirmed(a->confidence) ||
				      facts_unconfirmed(first->confidence);
		return 0;
	}
	return -ENOENT;
}

int coverage_judge_driver(const char *cudart, unsigned major, unsigned minor,
			  const char *driver_version, struct coverage_result *res)
{
	const struct facts_driver_branch *row = NULL;
	const struct facts_minor_compat *mc = NULL;
	const char *cuda = NULL;
	struct version dv, rv;
	unsigned first = 0;
	bool unconf = false;

	if (!res || minor > 9)
		return -EINVAL;
	if (!driver_version)
		return 0;
	if (version_parse(driver_version, &dv) < 0)
		return -EINVAL;
	/* the GPU: a branch older than the first that drives its CC, or one whose oldest
	 * supported architecture is newer than it (R590 dropped Maxwell to Volta) */
	if (coverage_first_branch_for_cc(major, minor, &first, &cuda, &unconf) == 0 &&
	    dv.part[0] < first) {
		res->verdict = COVERAGE_DRIVER_GPU_UNSUPPORTED;
		res->entry = SIZE_MAX;
		res->unconfirmed = unconf;
		snprintf(res->reason, sizeof(res->reason),
			 "driver %s predates compute capability %u.%u: the first CUDA toolkit "
			 "that targets it is %s, whose first release needs the R%u branch; the "
			 "driver does not drive this GPU (no CUDA device)",
			 driver_version, major, minor, cuda, first);
		return 0;
	}
	if (facts_driver_branch(driver_version, &row) == 0 && row->oldest_cc) {
		struct version oc;

		if (version_parse(row->oldest_cc, &oc) == 0 &&
		    major * 10 + minor < oc.part[0] * 10 + oc.part[1]) {
			res->verdict = COVERAGE_DRIVER_GPU_UNSUPPORTED;
			res->entry = SIZE_MAX;
			res->unconfirmed = facts_unconfirmed(row->confidence);
			snprintf(
				res->reason, sizeof(res->reason),
				"driver %s (R%u) supports %s (compute capability %s) and newer; "
				"compute capability %u.%u is older: the driver does not drive this "
				"GPU (no CUDA device)",
				driver_version, row->branch,
				row->oldest_arch ? row->oldest_arch : "?", row->oldest_cc, major,
				minor);
			return 0;
		}
	}
	/* the CUDA runtime: its major's minor-version-compatibility floor (Table 2) */
	if (cudart && version_parse(cudart, &rv) == 0 &&
	    facts_minor_compat_floor(rv.part[0], &mc) == 0 && mc->linux_min_driver) {
		struct version floor;

		if (version_parse(mc->linux_min_driver, &floor) == 0 &&
		    version_cmp(&dv, &floor) < 0) {
			res->verdict = COVERAGE_DRIVER_TOO_OLD;
			res->entry = SIZE_MAX;
			res->unconfirmed = facts_unconfirmed(mc->confidence);
			snprintf(res->reason, sizeof(res->reason),
				 "its CUDA runtime %s needs driver %s or newer (CUDA %u.x minor "
				 "version compatibility), driver %s is older: "
				 "cudaErrorInsufficientDriver (35, \"CUDA driver version is "
				 "insufficient for CUDA runtime version\")",
				 cudart, mc->linux_min_driver, rv.part[0], driver_version);
		}
	}
	return 0;
}
