// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of a pasted kernel report of a task stuck in uninterruptible sleep inside the NVIDIA
 * driver (`gpuenv explain`; driver.nvml-stuck-in-kernel). The kernel's hung-task detector
 * (kernel/hung_task.c check_hung_task()) prints "INFO: task NAME:PID blocked for more than N
 * seconds.", then the task (sched_show_task(): "task:NAME state:D stack:… pid:…" since Linux
 * 5.x, "NAME D ffff… 0 PID PPID 0x…" before) and its "Call Trace:", one frame a line:
 * "FUNC+0xOFF/0xSIZE [MODULE]" (lib/vsprintf.c %pS; a module's function carries its name in
 * brackets, "? " marks a guessed frame, kernels before 4.x print "[<address>] " first). SysRq
 * w and a /proc/PID/stack read print the same task line and trace without the INFO line. The
 * task's name says nothing (nvidia-smi, "nvc:[driver]", "cache_mgr_event", python); the
 * frames do: a report whose trace runs through the NVIDIA driver's modules (nvidia,
 * nvidia_uvm, nvidia_modeset, nvidia_drm) shows a driver call that waits in D state. Its
 * innermost such frame, as printed ("os_acquire_mutex+0x1c/0x40 [nvidia]"), is recorded as
 * driver.nvml.session_stuck (where the task waits in the driver, as the live probe records
 * the stuck child's kernel function) at the frame's line, and the report's first line as the
 * rule's symptom. A report with no frame of those modules records nothing (a hung task in a
 * file system is not the driver's). A report ends at an empty line (as explain's block reach
 * ends), at the next report or at the first line after the trace that is not a frame; only
 * the first report through the driver is recorded.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define LINE_KEEP 240 /* bytes of a line kept as a value, as the errors reader's symptoms */

struct report {
	bool open, trace, frames;
	unsigned line;
	char head[LINE_KEEP + 1];
};

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

static bool hex_digit(char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* A frame of a call trace in s: "FUNC+0xOFF/0xSIZE", then " [MODULE]" for a module's. The
 * frame as printed ("FUNC+0xOFF/0xSIZE") and the module into func/mod ("" for the kernel's
 * own); *ret_guess for a "? " frame. */
static bool frame(const char *s, char *func, size_t flen, char *mod, size_t mlen, bool *ret_guess)
{
	for (const char *p = strstr(s, "+0x"); p; p = strstr(p + 1, "+0x")) {
		const char *f = p, *q = p + 3, *m;
		size_t n;

		while (f > s && ident_char(f[-1]))
			f--;
		if (f == p || !hex_digit(*q))
			continue;
		while (hex_digit(*q))
			q++;
		if (q[0] != '/' || q[1] != '0' || q[2] != 'x' || !hex_digit(q[3]))
			continue;
		for (q += 3; hex_digit(*q); q++)
			;
		n = (size_t)(q - f);
		snprintf(func, flen, "%.*s", (int)(n < flen ? n : flen - 1), f);
		mod[0] = '\0';
		if (q[0] == ' ' && q[1] == '[' && (m = strchr(q + 2, ']')) && m > q + 2)
			snprintf(mod, mlen, "%.*s",
				 (int)((size_t)(m - q - 2) < mlen ? m - q - 2 : 0), q + 2);
		while (f > s && f[-1] == ' ')
			f--;
		*ret_guess = f > s && f[-1] == '?';
		return true;
	}
	return false;
}

/* The NVIDIA driver's kernel modules: nvidia, nvidia_uvm, nvidia_modeset, nvidia_drm … */
static bool nvidia_module(const char *mod)
{
	return strncmp(mod, "nvidia", 6) == 0 && (mod[6] == '\0' || mod[6] == '_');
}

/* "INFO: task NAME:PID blocked for more than N seconds." or "task:NAME state:D": a report's
 * first line. */
static bool report_head(const char *s)
{
	const char *t;

	if (strstr(s, "INFO: task ") && strstr(s, " blocked for more than "))
		return true;
	t = strstr(s, "task:");
	return t && (t == s || t[-1] == ' ') && strstr(t, " state:D");
}

/* Lines a trace holds besides its frames (arch/x86/kernel/dumpstack.c: the <TASK> and <IRQ>
 * markers, a user task's registers). */
static bool trace_other(const char *s)
{
	static const char *const marks[] = { "<TASK>", "</TASK>", "<IRQ>", "</IRQ>",
					     "RIP: ",  "RSP: ",	  "RAX: ", "RDX: ",
					     "RBP: ",  "R10: ",	  "R13: " };

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (strstr(s, marks[i]))
			return true;
	return false;
}

int pasted_read_hung_task(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "hung-task" };
	struct report r = { 0 };
	struct pasted_lines it;
	bool done = false;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while (!done && (line = pasted_lines_next(&it)) && o.err >= 0) {
		const char *s = pasted_strip(line);
		char func[128], mod[64];
		bool guess;

		if (!*s) {
			r.open = false;
			continue;
		}
		if (report_head(s)) {
			/* the task line under an INFO line is the same report's */
			if (r.open && !r.trace && strstr(s, "INFO: task ") == NULL)
				continue;
			r = (struct report){ .open = true, .line = it.no };
			pasted_cut_utf8(s, strlen(s), r.head, sizeof(r.head));
			continue;
		}
		if (!r.open)
			continue;
		if (!r.trace) {
			r.trace = strstr(s, "Call Trace:") != NULL;
			continue;
		}
		if (frame(s, func, sizeof(func), mod, sizeof(mod), &guess)) {
			r.frames = true;
			if (guess || !nvidia_module(mod))
				continue;
			char where[200];

			snprintf(where, sizeof(where), "%s [%s]", func, mod);
			pasted_put(&o, r.line, r.head, "symptoms.driver.nvml-stuck-in-kernel");
			pasted_put(&o, it.no, where, "driver.nvml.session_stuck");
			done = true;
		} else if (strstr(s, "</TASK>") || (r.frames && !trace_other(s))) {
			r.open = false;
		}
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
