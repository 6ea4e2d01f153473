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
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define FACT	  "messages.platform.windows"
#define FACT_WSL1 "messages.platform.wsl1"

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

int pasted_read_windows(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "windows" };
	struct pasted_lines it;
	bool wsl = false;		 /* under a WSL2 nvidia-smi header */
	bool mark = false, wsl1 = false; /* each read once, the first */
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && !(mark && wsl1) && o.err >= 0) {
		const char *s = pasted_strip(line), *model;
		char root[4], dll[64], rel[48];
		bool header, differs = wsl_header(s, &header);
		int before;

		if (!wsl1 && wsl1_release(s, rel, sizeof(rel))) {
			pasted_put(&o, it.no, rel, FACT_WSL1);
			wsl1 = true;
		}
		if (header)
			wsl = differs;
		before = o.n;
		if (mark)
			continue;
		if (strstr(s, "Microsoft Windows"))
			pasted_put(&o, it.no, "Microsoft Windows", FACT);
		else if (!wsl && (model = driver_model(s)))
			pasted_put(&o, it.no, model, FACT);
		else if (drive_path(s, root))
			pasted_put(&o, it.no, root, FACT);
		else if (dll_name(s, dll, sizeof(dll)))
			pasted_put(&o, it.no, dll, FACT);
		mark = o.n > before;
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
