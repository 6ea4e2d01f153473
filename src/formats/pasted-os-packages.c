// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted OS package listings (`gpuenv explain`), for the packages whose version
 * doctor records from /var/lib/dpkg/status, onto the same facts: the Level Zero and compute
 * runtime packages (runtime.level_zero.packages.<name>), the NVIDIA Container Toolkit's
 * (container.host.toolkit.packages.<name>), podman (container.host.engine_packages.podman) and
 * amdgpu-dkms (driver.amdgpu.dkms_package); see
 * docs/snapshot-schema.md. Other packages (the NVIDIA driver's, the CUDA toolkit's) are no
 * fact of doctor's and are not read. Formats:
 * - `dpkg -l` (dpkg-query(1) --list): "ii  name[:arch]  version  arch  description", the
 *   first column the desired action (u i h r p), the second the status (n c H U F W t i), a
 *   third the error flag (R); old dpkg prints no arch column;
 * - `apt list --installed` (apt(8)): "name/suite[,suite] version arch [installed,…]",
 *   "[installed,upgradable to: V]", "[upgradable from: V]" (installed at V, V shown),
 *   "[residual-config]" (removed, its configuration kept);
 * - `rpm -qa` (rpm(8), the default query format "%{NAME}-%{VERSION}-%{RELEASE}.%{ARCH}", the
 *   arch left out by older rpm): the name may hold dashes, version and release cannot, so the
 *   last two dashes split them; only at the start of a line (dnf's transaction summaries
 *   indent the same form, and list removed packages too);
 * - `dnf list installed` / `yum list installed`: "name.arch  [epoch:]version-release  @repo"
 *   (dnf 4, yum), or any repository under an "Installed packages" heading (dnf 5). dnf 4 and
 *   yum print a value longer than its column alone and go on with the row on the next line,
 *   indented to the next column (dnf/cli/output.py fmtColumns: the value, "\n", blanks up
 *   to the column): "name.arch" alone, then "   version   @repo"; a wrapped version the same.
 * Only what a line shows: a package listed as installed gets its version as printed (dpkg's
 * and apt's epoch kept, as dpkg's status holds it; rpm's version-release); one listed as not
 * installed (dpkg's "un"/"rc", apt's residual-config) is absent where doctor records an
 * absent package; a package not listed is not recorded (a paste is often filtered by grep);
 * a half-installed one (dpkg's U, F, H, W, t) is not recorded. A package listed installed
 * once wins over a line showing it not installed (another architecture's "rc" beside
 * "ii"); of two installed lines, the later.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define FIELDS_MAX  6
#define VERSION_MAX 128 /* doctor's buffer for a dpkg version */

struct known {
	const char *name, *path;
	bool absent; /* doctor records the package as absent when not installed */
};

static const struct known known[] = {
	/* probe-intel.c */
	{ "libze1", "runtime.level_zero.packages.libze1", true },
	{ "level-zero", "runtime.level_zero.packages.level-zero", true },
	{ "libze-intel-gpu1", "runtime.level_zero.packages.libze-intel-gpu1", true },
	{ "intel-level-zero-gpu", "runtime.level_zero.packages.intel-level-zero-gpu", true },
	{ "intel-opencl-icd", "runtime.level_zero.packages.intel-opencl-icd", true },
	{ "intel-opencl-icd-legacy1", "runtime.level_zero.packages.intel-opencl-icd-legacy1",
	  false },
	{ "intel-level-zero-gpu-legacy1",
	  "runtime.level_zero.packages.intel-level-zero-gpu-legacy1", false },
	/* probe-container-host.c */
	{ "nvidia-container-toolkit", "container.host.toolkit.packages.nvidia-container-toolkit",
	  true },
	{ "nvidia-container-toolkit-base",
	  "container.host.toolkit.packages.nvidia-container-toolkit-base", true },
	{ "libnvidia-container-tools", "container.host.toolkit.packages.libnvidia-container-tools",
	  true },
	{ "libnvidia-container1", "container.host.toolkit.packages.libnvidia-container1", true },
	{ "podman", "container.host.engine_packages.podman", true },
	/* probe-nvidia-driver.c */
	{ "amdgpu-dkms", "driver.amdgpu.dkms_package", true },
};

#define N_KNOWN (ARRAY_SIZE(known))

/* What the listing showed of each known package so far. */
struct seen {
	enum { NONE, NOT_INSTALLED, INSTALLED } state;
	unsigned line;
	char value[VERSION_MAX]; /* the version, or how the line shows it not installed */
};

struct listing {
	struct seen seen[N_KNOWN];
	bool dnf_installed; /* under dnf's or yum's "Installed packages" heading */
	/* the start of a dnf row dnf 4 wrapped ("name.arch", or "name.arch version"), "" when the
	 * line before was none; wrap_line: its line, where the package is listed */
	char wrap[2 * VERSION_MAX];
	unsigned wrap_line;
};

static int known_index(const char *name, size_t n)
{
	for (size_t i = 0; i < N_KNOWN; i++)
		if (strlen(known[i].name) == n && memcmp(known[i].name, name, n) == 0)
			return (int)i;
	return -1;
}

static void record(struct listing *L, int k, bool installed, unsigned no, const char *value)
{
	struct seen *s;

	if (k < 0)
		return;
	s = &L->seen[k];
	if (!installed && s->state == INSTALLED)
		return;
	s->state = installed ? INSTALLED : NOT_INSTALLED;
	s->line = no;
	snprintf(s->value, sizeof(s->value), "%s", value);
}

/* A Debian or RPM version as printed: a digit first (an epoch's too), then the characters
 * Debian policy 5.6.12 and rpm allow (letters, digits, . + ~ : - _ ^). */
static bool is_version(const char *v)
{
	if (*v < '0' || *v > '9' || strlen(v) >= VERSION_MAX)
		return false;
	return strspn(v, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~:-_^") ==
	       strlen(v);
}

/* RPM's architectures as rpm -qa and dnf print them (rpmrc's arch_canon, the common ones). */
static bool is_rpm_arch(const char *a, size_t n)
{
	static const char *const arches[] = { "x86_64",	 "noarch",  "i686",  "i586",	"i386",
					      "aarch64", "ppc64le", "s390x", "armv7hl", NULL };

	for (size_t i = 0; arches[i]; i++)
		if (strlen(arches[i]) == n && memcmp(arches[i], a, n) == 0)
			return true;
	return false;
}

/* Splits at blanks into at most max fields (strtok_r's: each cut at the first blank after it,
 * which fills_column() measures from); the count, max + 1 when there are more. Only the lines
 * holding a package name come here, so strtok_r's set-up per line costs nothing that shows. */
static int fields(char *s, char **f, int max)
{
	char *save = NULL, *t = strtok_r(s, " \t", &save);
	int n = 0;

	for (; t; t = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		f[n++] = t;
	}
	return n;
}

/* dpkg -l's first column: desired action, status, an optional error flag. */
static bool dpkg_state(const char *s, char *ret_status)
{
	size_t n = strlen(s);

	if ((n != 2 && n != 3) || !strchr("uihrp", s[0]) || !strchr("ncHUFWti", s[1]) ||
	    (n == 3 && s[2] != 'R'))
		return false;
	*ret_status = s[1];
	return true;
}

/* Does field i (fields() cut it) end where its column does: one blank to the next field? */
static bool fills_column(char **f, int i)
{
	return f[i + 1] - f[i] == (ptrdiff_t)strlen(f[i]) + 1;
}

/* Debian's architectures as dpkg -l prints them after a name's ':' (dpkg-architecture -L,
 * the released ones). */
static bool is_deb_arch(const char *a)
{
	static const char *const arches[] = { "amd64",	 "arm64", "armhf",   "armel",	 "i386",
					      "ppc64el", "s390x", "riscv64", "mips64el", NULL };

	for (size_t i = 0; arches[i]; i++)
		if (strcmp(arches[i], a) == 0)
			return true;
	return false;
}

static bool dpkg_line(struct listing *L, unsigned no, char **f, int n)
{
	const char *colon;
	char status;
	int k;

	if (n < 3 || !dpkg_state(f[0], &status))
		return false;
	/* dpkg -l in a terminal fits its columns to the terminal's width, cutting a name or a
	 * version without a mark ("libnvidia-container1:am 1.0.7-1", "440.100-0ubuntu0.18."
	 * in NVIDIA/nvidia-docker#1232 and #1506): a field that fills its column may be cut,
	 * so it is not read; a name's architecture must be whole */
	colon = strchr(f[1], ':');
	if ((colon && !is_deb_arch(colon + 1)) || (n > 3 && fills_column(f, 1)) ||
	    (n > 3 && fills_column(f, 2)))
		return true;
	k = known_index(f[1], strcspn(f[1], ":"));
	if (k < 0)
		return true;
	if (status == 'i' && is_version(f[2]))
		record(L, k, true, no, f[2]);
	else if (status == 'n')
		record(L, k, false, no, "dpkg -l: not installed");
	else if (status == 'c')
		record(L, k, false, no, "dpkg -l: removed, its configuration files kept");
	return true;
}

/* apt list's "[upgradable from: V]" (split at blanks: "[upgradable" "from:" "V]"): installed
 * at V. */
static bool apt_upgradable_from(char **f, int n, char *buf, size_t len)
{
	size_t vl;

	if (n != 6 || strcmp(f[3], "[upgradable") != 0 || strcmp(f[4], "from:") != 0)
		return false;
	vl = strlen(f[5]);
	if (vl < 2 || vl > len || f[5][vl - 1] != ']')
		return false;
	memcpy(buf, f[5], vl - 1);
	buf[vl - 1] = '\0';
	return is_version(buf);
}

static bool apt_line(struct listing *L, unsigned no, char **f, int n)
{
	const char *slash = strchr(f[0], '/');
	char from[VERSION_MAX];
	int k;

	if (!slash || n < 4 || f[3][0] != '[')
		return false;
	k = known_index(f[0], (size_t)(slash - f[0]));
	if (k < 0)
		return true;
	if (strncmp(f[3], "[installed", 10) == 0 && is_version(f[1]))
		record(L, k, true, no, f[1]);
	else if (apt_upgradable_from(f, n, from, sizeof(from)))
		record(L, k, true, no, from);
	else if (strcmp(f[3], "[residual-config]") == 0)
		record(L, k, false, no, "apt list: removed, its configuration files kept");
	return true;
}

/* "name-version-release[.arch]", one token at the start of the line. */
static void rpm_line(struct listing *L, unsigned no, char *s)
{
	char *dot = strrchr(s, '.'), *rel, *ver;
	size_t n = strlen(s);
	int k;

	if (n > 4 && (strcmp(s + n - 4, ".rpm") == 0 || strcmp(s + n - 4, ".deb") == 0))
		return; /* a package file's name: not an installed package */
	if (strchr(s, '/'))
		return;
	if (dot && is_rpm_arch(dot + 1, strlen(dot + 1)))
		*dot = '\0';
	rel = strrchr(s, '-');
	if (!rel || rel == s)
		return;
	*rel = '\0';
	ver = strrchr(s, '-');
	if (!ver || ver == s || !rel[1])
		return;
	*ver = '\0';
	k = known_index(s, strlen(s));
	if (k < 0 || !is_version(ver + 1))
		return;
	*rel = '-'; /* version-release, as rpm -q --qf '%{VERSION}-%{RELEASE}' */
	record(L, k, true, no, ver + 1);
}

/* "name.arch  version  @repo" (dnf 4, yum), or any repository under the heading (dnf 5). */
static bool dnf_line(struct listing *L, unsigned no, char **f, int n)
{
	const char *dot = strrchr(f[0], '.');
	int k;

	if (n != 3 || !dot || !is_rpm_arch(dot + 1, strlen(dot + 1)))
		return false;
	if (f[2][0] != '@' && !L->dnf_installed)
		return true;
	k = known_index(f[0], (size_t)(dot - f[0]));
	if (k >= 0 && is_version(f[1]))
		record(L, k, true, no, f[1]);
	return true;
}

/* Whether f is a dnf row's "name.arch" (an RPM architecture after its last '.'). */
static bool dnf_name(const char *f)
{
	const char *dot = strrchr(f, '.');

	return dot && dot > f && is_rpm_arch(dot + 1, strlen(dot + 1));
}

/* Keeps the start of a row dnf 4 wrapped (n fields of it: the name, or the name and its
 * version) for the indented line that goes on with it. */
static void wrap_start(struct listing *L, unsigned no, char **f, int n)
{
	if (!dnf_name(f[0]) || (n == 2 && !is_version(f[1])) ||
	    snprintf(L->wrap, sizeof(L->wrap), "%s%s%s", f[0], n == 2 ? " " : "",
		     n == 2 ? f[1] : "") >= (int)sizeof(L->wrap)) {
		L->wrap[0] = '\0';
		return;
	}
	L->wrap_line = no;
}

/* An indented line after a wrapped row's start: the row joined, read as one line of dnf's. */
static void wrap_rest(struct listing *L, const char *s)
{
	char joined[sizeof(L->wrap) + VERSION_MAX + 2], *f[FIELDS_MAX + 1];
	int n;

	if (snprintf(joined, sizeof(joined), "%s %s", L->wrap, s) >= (int)sizeof(joined)) {
		L->wrap[0] = '\0';
		return;
	}
	L->wrap[0] = '\0';
	n = fields(joined, f, FIELDS_MAX);
	if (n == 3)
		dnf_line(L, L->wrap_line, f, n);
	else if (n == 2) /* the version wrapped too: its repository on the next line */
		wrap_start(L, L->wrap_line, f, n);
}

static void line(struct listing *L, unsigned no, char *raw)
{
	bool at_start = raw[0] != ' ' && raw[0] != '\t'; /* before the blanks are cut */
	char *f[FIELDS_MAX + 1], *s = pasted_strip(raw);
	int n;

	if (L->wrap[0] && !at_start && *s) {
		wrap_rest(L, s);
		return;
	}
	L->wrap[0] = '\0';
	if (strcmp(s, "Installed Packages") == 0 || strcmp(s, "Installed packages") == 0) {
		L->dnf_installed = true;
		return;
	}
	if (strcmp(s, "Available Packages") == 0 || strcmp(s, "Available packages") == 0) {
		L->dnf_installed = false;
		return;
	}
	if (at_start && *s && !strpbrk(s, " \t")) {
		wrap_start(L, no, &s, 1);
		rpm_line(L, no, s);
		return;
	}
	n = fields(s, f, FIELDS_MAX);
	if (at_start && n == 2)
		wrap_start(L, no, f, n);
	if (n < 3)
		return;
	if (dpkg_line(L, no, f, n))
		return;
	if (apt_line(L, no, f, n))
		return;
	dnf_line(L, no, f, n);
}

int pasted_read_os_packages(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "os-packages" };
	struct listing L = { 0 };
	struct pasted_lines it;
	char *s;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((s = pasted_lines_next(&it)))
		line(&L, it.no, s);
	pasted_lines_done(&it);
	for (size_t i = 0; i < N_KNOWN; i++) {
		const struct seen *sn = &L.seen[i];

		if (sn->state == INSTALLED)
			pasted_put(&o, sn->line, sn->value, "%s", known[i].path);
		else if (sn->state == NOT_INSTALLED && known[i].absent)
			pasted_put_absent(&o, sn->line, sn->value, "%s", known[i].path);
	}
	return pasted_out_result(&o);
}
