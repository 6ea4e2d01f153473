// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of the marks a paste from Windows carries (`gpuenv explain`), so that what explain
 * asks the user to run is a Windows command: collect_env's "OS: Microsoft Windows 10 Pro"
 * (platform.system()'s name; `ver` and systeminfo print "Microsoft Windows" too); nvidia-smi's
 * driver model, WDDM or TCC, in the table's GPU row where Linux prints the persistence mode
 * and under -q's "Driver Model" (nvidia-smi(1), "Driver Model"), but not under a table header
 * whose NVIDIA-SMI version is not the driver's (WSL2's Linux nvidia-smi over the Windows
 * driver: "NVIDIA-SMI 570.133.07  Driver Version: 572.83", and WDDM); a drive-letter path ("C:\Users\…",
 * a traceback's "File "C:\…\site-packages\torch\…"", a PowerShell or cmd prompt, and "C:/…"
 * as Python and CMake print it); a DLL's name ("cudart64_110.dll", "nvcuda.dll"). Fact:
 * messages.platform.windows, its value the mark as printed on its line (the first mark read).
 * Whether the paste is judged as Windows is the explain command's (a WSL paste shows Linux
 * too); this reader only reads.
 * Also WSL1's kernel release, "4.4.0-19041-Microsoft" (a version WSL1 reports, the Windows build
 * and "Microsoft" with a capital M; WSL2's kernels are "…-microsoft-standard-WSL2"), wherever a
 * line prints it: uname -a, /proc/version's "Linux version 4.4.0-19041-Microsoft
 * (Microsoft@Microsoft.com)", Python's platform string "Linux-4.4.0-19041-Microsoft-x86_64-with-
 * glibc2.31" (diffusers-cli env, ShivamShrirao/diffusers#18), DKMS's "Your kernel headers for
 * kernel 4.4.0-19041-Microsoft cannot be found" (microsoft/WSL#5554, where WSL's maintainer
 * answers "That kernel version indicates that you are using WSL1"). Fact:
 * messages.platform.wsl1, the release as printed (the first read).
 * Also NVIDIA's Windows driver version in the WDDM form Windows itself prints (Device
 * Manager, `wmic path win32_VideoController get Name,DriverVersion`, Get-CimInstance
 * Win32_VideoController, dxdiag's "Driver Version:", the NVIDIA System Information report's
 * component list): "31.0.15.5161". Its four parts are a display driver's file version as
 * Microsoft's "File Version Formatting for Display Driver DLLs" lays it out (learn.microsoft.com/
 * windows-hardware/drivers/display/driver-dll-for-display-adapter-or-chipset-has-properly-
 * formatted-file-version: the WDDM version, the DirectX level, then the vendor's build);
 * NVIDIA's build is its release: the third part less 10 and the fourth, the last five digits,
 * 15 and 5161 → 55161 → 551.61 (CaffeineMC/sodium's NvidiaDriverVersion.parse does the same;
 * blackoffee/Shizuku#8 shows "Driver version: 388.13" beside "23.21.13.8813"). Read only on a
 * line naming NVIDIA, or on a "Driver Version"/"DriverVersion" line under one (an Intel or AMD
 * GPU's "31.0.101.4575" or "20.19.15.4835" is not NVIDIA's numbering). Facts:
 * driver.windows.wddm_version, the form as printed, and driver.windows.driver_version, the
 * release read from it, which the reader's name says is derived (the first read of each).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-scan.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define FACT	  "messages.platform.windows"
#define FACT_WSL1 "messages.platform.wsl1"
#define FACT_WDDM "driver.windows.wddm_version"
#define FACT_DRV  "driver.windows.driver_version"
/* lines between a line naming NVIDIA and the "Driver Version:" of its block (dxdiag prints
 * some forty between "Card name:" and it) */
#define WDDM_REACH 60

/* word at p is a whole word of line s (no letter, digit or '_' on either side) */
static bool whole_word(const char *s, const char *p, size_t n)
{
	bool before = p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
	bool after = isalnum((unsigned char)p[n]) || p[n] == '_';

	return !before && !after;
}

/* The first whole-word occurrence of word in s, or NULL. */
static const char *find_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; (p = strstr(p, word)); p += n)
		if (whole_word(s, p, n))
			return p;
	return NULL;
}

/* "C:\U…" or "C:/U…": a drive letter, ":\" or ":/" and a name, not inside a word
 * ("http://a:\\" is no path), at the line's start or after a blank, a quote, '(', '[', '=' or
 * ':' ("PS C:\Users>", "File "C:\…"", "PATH=C:\…", "loading: 'D:\…'"; Python and CMake on
 * Windows print forward slashes: tf.sysconfig.get_build_info()'s 'cpu_compiler': 'C:/Program
 * Files (x86)/Microsoft Visual Studio/…/cl.exe'). The drive root as printed ("C:\", "C:/")
 * into buf. */
static bool drive_path(const char *s, char *buf)
{
	for (const char *p = s; (p = strchr(p, ':')); p++) {
		char d = p > s ? p[-1] : '\0';
		char before = p - 1 > s ? p[-2] : ' ';

		if ((p[1] != '\\' && p[1] != '/') || !isalpha((unsigned char)d) ||
		    !isalpha((unsigned char)p[2]))
			continue;
		if (!strchr(" \t\"'([=:", before))
			continue;
		buf[0] = d;
		buf[1] = ':';
		buf[2] = p[1];
		buf[3] = '\0';
		return true;
	}
	return false;
}

/* A Windows library's name: a whole word "<name>.dll" ("Could not load dynamic library
 * 'cudart64_110.dll'", TensorFlow's dso_loader.cc on Windows; "nvcuda.dll", the CUDA driver's
 * library there, which Linux names libcuda.so.1). The name as printed into buf. */
static bool dll_name(const char *s, char *buf, size_t size)
{
	for (const char *p = s; (p = strstr(p, ".dll")); p += 4) {
		const char *b = p;

		if (isalnum((unsigned char)p[4]) || p[4] == '_')
			continue;
		while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_' || b[-1] == '-'))
			b--;
		if (b == p || (size_t)(p + 4 - b) >= size)
			continue;
		memcpy(buf, b, (size_t)(p + 4 - b));
		buf[p + 4 - b] = '\0';
		return true;
	}
	return false;
}

/* nvidia-smi's driver model: a whole word WDDM or TCC in a table line ("|   0  NVIDIA GeForce
 * RTX 3060  WDDM  | 00000000:01:00.0  On |") or after -q's " : " ("Current : WDDM"); NULL if
 * none. TCC alone is three letters: only in those two places, after a blank. */
static const char *driver_model(const char *s)
{
	static const char *const models[] = { "WDDM", "TCC" };
	bool table = *s == '|';

	for (size_t i = 0; i < 2; i++) {
		const char *p = find_word(s, models[i]);

		if (!p || (i == 1 && (p == s || (p[-1] != ' ' && p[-1] != '\t'))))
			continue; /* TCC after a blank, as nvidia-smi prints it (the reader's signs) */
		if (table || (p - s >= 2 && p[-2] == ':' && p[-1] == ' '))
			return models[i];
	}
	return NULL;
}

/* "| NVIDIA-SMI 570.133.07   Driver Version: 572.83   CUDA Version: 12.8 |": whether the
 * two versions differ (WSL2). *is_header: the line is such a header. */
static bool wsl_header(const char *s, bool *is_header)
{
	const char *smi = strstr(s, "NVIDIA-SMI "), *drv = strstr(s, "Driver Version:");
	char a[32], b[32];

	*is_header = smi && drv && pasted_token(smi + 11, a, sizeof(a)) &&
		     pasted_token(drv + 15, b, sizeof(b));
	return *is_header && strcmp(a, b) != 0;
}

/* WSL1's kernel release in s ("4.4.0-19041-Microsoft": digits and dots, '-', the Windows build,
 * "-Microsoft" and no letter or digit after it) into buf. */
static bool wsl1_release(const char *s, char *buf, size_t size)
{
	for (const char *p = s; (p = strstr(p, "-Microsoft")); p += 10) {
		const char *b = p, *e = p + 10;

		if (isalnum((unsigned char)*e) || e[0] == '_')
			continue;
		while (b > s && isdigit((unsigned char)b[-1]))
			b--; /* the Windows build */
		if (b == p || b - 1 <= s || b[-1] != '-')
			continue;
		b--;
		while (b > s && (isdigit((unsigned char)b[-1]) || b[-1] == '.'))
			b--; /* the kernel version WSL1 reports */
		if (!isdigit((unsigned char)*b) || !memchr(b, '.', (size_t)(p - b)) ||
		    (b > s && isalnum((unsigned char)b[-1])) || (size_t)(e - b) >= size)
			continue;
		memcpy(buf, b, (size_t)(e - b));
		buf[e - b] = '\0';
		return true;
	}
	return false;
}

/* Digits at *p as an unsigned of at most max_digits digits; *p past them. */
static bool read_part(const char **p, unsigned max_digits, unsigned *ret)
{
	unsigned v = 0, n = 0;

	while (isdigit((unsigned char)**p) && n < max_digits) {
		v = v * 10 + (unsigned)(**p - '0');
		(*p)++;
		n++;
	}
	*ret = v;
	return n > 0 && !isdigit((unsigned char)**p);
}

/* NVIDIA's WDDM form in s, a whole token "A.B.1C.D" (A and B of one or two digits, the third
 * part 11 to 19, D of up to four digits), into form; its release, (C * 10000 + D) split as
 * "%u.%02u", into drv. */
static bool wddm_version(const char *s, char *form, size_t fsize, char *drv, size_t dsize)
{
	for (const char *p = s; *p; p++) {
		const char *q = p;
		unsigned a, b, c, d, merged;

		if (!isdigit((unsigned char)*p) ||
		    (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '_')))
			continue;
		if (!read_part(&q, 2, &a) || *q++ != '.' || !read_part(&q, 2, &b) || *q++ != '.' ||
		    !read_part(&q, 2, &c) || *q++ != '.' || !read_part(&q, 4, &d))
			continue;
		if (isalnum((unsigned char)*q) || *q == '_' ||
		    (*q == '.' && isalnum((unsigned char)q[1])))
			continue;
		if (c <= 10 || c >= 20 || (size_t)(q - p) >= fsize)
			continue;
		(void)a;
		(void)b;
		merged = (c - 10) * 10000 + d;
		memcpy(form, p, (size_t)(q - p));
		form[q - p] = '\0';
		snprintf(drv, dsize, "%u.%02u", merged / 100, merged % 100);
		return true;
	}
	return false;
}

/* The words each test below searches a line for first, found in one pass over the line
 * (pasted-scan.h) before any test runs: a test runs only on a line that holds its word, and
 * then as before, over the whole line. Each line was searched a dozen times (strstr), and on
 * a bug report most lines handed here name NVIDIA and hold none of the rest (callgrind: 358 M
 * of the readers' thread's 1,666 M instructions on the bench's text-alone stand-in). Each is
 * what its test cannot do without: a WSL2 header both "NVIDIA-SMI " and "Driver Version:";
 * a driver model's TCC is one after a blank; the WDDM form's third part is two digits, 11 to
 * 19, between dots. */
enum {
	W_NVIDIA,
	W_SMI,
	W_INTEL,
	W_AMD,
	W_RADEON,
	W_WSL1,
	W_WINDOWS,
	W_DRIVERVERSION,
	W_DRIVER_VERSION,
	W_DRIVER_VERSION_LOWER,
	W_WDDM,
	W_TCC,
	W_TCC_TAB,
	W_DLL,
	W_FORM, /* the first of the nine ".1N." */
};
static const struct pasted_needle words[] = {
	[W_NVIDIA] = { "NVIDIA", false },
	[W_SMI] = { "NVIDIA-SMI ", false },
	[W_INTEL] = { "Intel", false },
	[W_AMD] = { "AMD ", false },
	[W_RADEON] = { "Radeon", false },
	[W_WSL1] = { "-Microsoft", false },
	[W_WINDOWS] = { "Microsoft Windows", false },
	[W_DRIVERVERSION] = { "DriverVersion", false },
	[W_DRIVER_VERSION] = { "Driver Version", false },
	[W_DRIVER_VERSION_LOWER] = { "Driver version", false },
	[W_WDDM] = { "WDDM", false },
	[W_TCC] = { " TCC", false },
	[W_TCC_TAB] = { "\tTCC", false },
	[W_DLL] = { ".dll", false },
	{ ".11.", false },
	{ ".12.", false },
	{ ".13.", false },
	{ ".14.", false },
	{ ".15.", false },
	{ ".16.", false },
	{ ".17.", false },
	{ ".18.", false },
	{ ".19.", false },
};
#define W(k)	       ((uint64_t)1 << (k))
#define W_OTHER_VENDOR (W(W_INTEL) | W(W_AMD) | W(W_RADEON))
#define W_DRIVER       (W(W_DRIVERVERSION) | W(W_DRIVER_VERSION) | W(W_DRIVER_VERSION_LOWER))
#define W_MODEL	       (W(W_WDDM) | W(W_TCC) | W(W_TCC_TAB))
#define W_FORMS	       (((uint64_t)1 << ARRAY_SIZE(words)) - W(W_FORM))

int pasted_read_windows(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "windows" };
	/* the release is not printed: the reader's name says where it came from */
	struct pasted_out derived = { .f = out,
				      .reader = "windows: the WDDM form's last five digits" };
	struct pasted_lines it;
	struct pasted_scan sc;
	uint64_t bits[ARRAY_SIZE(words)];
	bool wsl = false;		 /* under a WSL2 nvidia-smi header */
	bool mark = false, wsl1 = false; /* each read once, the first */
	bool wddm = false;
	unsigned nvidia_at = 0; /* the last line naming NVIDIA and no other maker, 0: none */
	char *line;
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		bits[i] = W(i);
	r = pasted_scan_init(&sc, words, ARRAY_SIZE(words));
	if (r < 0)
		return r;
	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && !(mark && wsl1 && wddm) && o.err >= 0 &&
	       derived.err >= 0) {
		const char *s = pasted_strip(line), *model;
		uint64_t w = pasted_scan_tags(&sc, bits, s, strlen(s));
		char root[4], dll[64], rel[48], form[24], drv[16];
		bool header = false, differs = (w & W(W_SMI)) && (w & W(W_DRIVER_VERSION)) &&
					       wsl_header(s, &header);
		bool other = w & W_OTHER_VENDOR, nvidia = (w & W(W_NVIDIA)) && !other;
		int before;

		if (!wsl1 && (w & W(W_WSL1)) && wsl1_release(s, rel, sizeof(rel))) {
			pasted_put(&o, it.no, rel, FACT_WSL1);
			wsl1 = true;
		}
		if (!wddm && (w & W_FORMS) &&
		    (nvidia || ((w & W_DRIVER) && nvidia_at && it.no - nvidia_at <= WDDM_REACH)) &&
		    wddm_version(s, form, sizeof(form), drv, sizeof(drv))) {
			pasted_put(&o, it.no, form, FACT_WDDM);
			pasted_put(&derived, it.no, drv, FACT_DRV);
			wddm = true;
			if (!mark) /* only Windows prints this form */
				pasted_put(&o, it.no, form, FACT);
			mark = true;
		}
		if (nvidia)
			nvidia_at = it.no;
		else if (other)
			nvidia_at = 0;
		if (header)
			wsl = differs;
		before = o.n;
		if (mark)
			continue;
		if (w & W(W_WINDOWS))
			pasted_put(&o, it.no, "Microsoft Windows", FACT);
		else if (!wsl && (w & W_MODEL) && (model = driver_model(s)))
			pasted_put(&o, it.no, model, FACT);
		else if (drive_path(s, root))
			pasted_put(&o, it.no, root, FACT);
		else if ((w & W(W_DLL)) && dll_name(s, dll, sizeof(dll)))
			pasted_put(&o, it.no, dll, FACT);
		mark = o.n > before;
	}
	pasted_lines_done(&it);
	if (derived.err < 0)
		return derived.err;
	return pasted_out_result(&o) < 0 ? pasted_out_result(&o) : o.n + derived.n;
}
