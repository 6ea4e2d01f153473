/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A gzip input (nvidia-bug-report.log.gz) cut into the windows explain's readers read, made
 * on a thread of its own one window ahead of them: ISA-L inflates, the window is cut at a line
 * end (pasted_gz_window_cut), cleaned (pasted-input.h) and its lines split among the readers
 * (pasted_dispatch_split_start) until the readers' thread asks for it (split_while_unasked)
 * and, once handed over, read by the readers of the whole text that need no split
 * (pasted_gz_windows_start's `apart`), while the readers' thread splits the rest of the
 * window and reads it with the other readers (pasted_dispatch_run_some).
 * The two halves cost about the same on a bug report (callgrind: docs/explain.md), so the two
 * cores work at once; when the inflater alone ran ahead, a chunk at a time, the readers waited for
 * every window's chunks in turn and the two cores hardly overlapped. The windows, and the
 * errors, are those of the same steps run in line, which is what happens where no thread
 * can be started (every reader then runs on the readers' thread). Memory: the raw window
 * (PASTED_GZ_WINDOW * 2), two cleaned windows and their splits, besides ISA-L's: a window is
 * given back once the next one is made, after the maker's readers have read it. The pages of
 * the raw window's second half and of the slots are first touched by the readers' thread
 * while it waits for the first window, the maker waiting for each before it writes it
 * (touch_ahead): on the virtual machines measured, a page's first touch by the process was
 * ~10 us however it was faulted in (docs/explain.md).
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/pasted-dispatch.h"
#include "formats/pasted-gzip.h"
#include "shared/strbuf.h"

/* A window is cut in the second half of this many bytes twice over (pasted_gz_window_cut). */
#define PASTED_GZ_WINDOW ((size_t)2 << 20)

/* One window, or what ends them: the input's end, its error, or UTF-16 text (a BOM:
 * PowerShell's redirect), which is inflated whole instead, since a window could not be cut
 * at a character boundary blind. */
struct pasted_gz_window {
	char *text; /* cleaned, NUL-terminated at n: buf's */
	size_t n;
	struct strbuf buf; /* the slot's, filled again window after window (its pages kept) */
	struct pasted_split split; /* of text, begun, for pasted_dispatch_run */
	int err;		   /* < 0: the input's error, with why */
	const char *why;
	bool end, utf16;
	bool full; /* made, not yet given back */
};

struct pasted_gz_windows {
	struct pasted_gz g;
	const struct pasted_dispatch *d;
	char *raw; /* the inflated bytes not yet in a window */
	size_t have;
	bool first, over; /* no window made yet; the last made */
	struct pasted_gz_window slot[2];
	unsigned made, taken; /* windows made and given to the reader so far */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool threaded, stop;
	/* The readers the maker runs itself on each window once it has handed it over (a bit
	 * each, among pasted_dispatch_whole: 0 where there is no thread), into each[], the lines
	 * before the window counted here; the first error they give. */
	uint64_t apart;
	struct pasted_facts *each;
	unsigned lines;
	int apart_err;
	/* The bytes of the raw window and of each slot's buffer to fault in (the text's length
	 * where it is shorter), and where the readers' thread touches them first while it waits
	 * for the first window (touch_ahead), how far it has come: the maker waits for that
	 * before it writes them. */
	size_t prefault;
	bool touch_ahead;
	unsigned touched;
	/* The bytes of the raw window in the window last made, moved out when the next is made. */
	size_t used;
	/* Set before the maker's thread starts, read there: the maker splits a window until the
	 * readers' thread waits for it (waiting, under the lock). */
	bool threaded_maker, waiting;
	/* The input handed over (pasted_gz_windows_start's drop_input): its pages the inflater
	 * has read, up to dropped, given back (page_drop) window after window. */
	const char *dropped;
	bool drop_input;
};

/* Where a window of raw[0..n) ends: after the last line before a section of
 * nvidia-bug-report.sh ("____…" lines between them), else after the last blank line, else
 * after the last line, in the second half; n where there is no line end there. */
size_t pasted_gz_window_cut(const char *raw, size_t n);

/* As pasted_gz_init (0; -EBADMSG with *ret_why; -ENOMEM) at PASTED_GZ_WINDOWED_MAX, and
 * starts making windows split for d's readers (d is only read: pasted_dispatch_split). The
 * readers in `apart` (among pasted_dispatch_whole(d)) the maker's thread runs itself over each
 * window after handing it over, into each[i], as pasted_dispatch_run would: the caller runs
 * the others (pasted_dispatch_run_some, the readers but w->apart, which is 0 where no thread
 * could be started), and finds their first error in w->apart_err after
 * pasted_gz_windows_done. Their facts are those of every reader run in line: each reader
 * still reads every window in order, only on another thread. apart 0, each NULL: none.
 * drop_input: data is handed over, read no more by the caller until it frees it: the whole
 * pages of it the inflater has read are given back as the windows are made (page_drop), once
 * the first window shows the text is not UTF-16 (which is inflated whole again from data). */
int pasted_gz_windows_start(struct pasted_gz_windows *w, const struct isal_inflate_api *isal,
			    const char *data, size_t len, const struct pasted_dispatch *d,
			    uint64_t apart, struct pasted_facts *each, bool drop_input,
			    const char **ret_why);
/* The next window, in *ret until the next call (which gives the one before back; its split the
 * caller's to finish): 0, or the input's error with *ret_why (as pasted_gz_read,
 * pasted_input_clean, pasted_dispatch_split);
 * after an error, the end or UTF-16 text, no more. */
int pasted_gz_windows_next(struct pasted_gz_windows *w, struct pasted_gz_window **ret,
			   const char **ret_why);
/* Stops the maker (after the window it is making) and frees everything. */
void pasted_gz_windows_done(struct pasted_gz_windows *w);
