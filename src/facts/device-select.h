/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which GPUs a device-selection variable leaves a process, read as the vendor runtime reads
 * it: ROCR_VISIBLE_DEVICES (ROCr), HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES (HIP on ROCm),
 * ZE_AFFINITY_MASK (Intel's compute-runtime) and ONEAPI_DEVICE_SELECTOR (the DPC++ SYCL
 * runtime). Pure functions over the value and the GPUs' ids; no I/O.
 */
#ifndef GPUENV_FACTS_DEVICE_SELECT_H
#define GPUENV_FACTS_DEVICE_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#define DEVICE_SELECT_MAX 64 /* GPUs judged; a machine with more is not judged */

/* Why the runtime stopped reading the list (the entries after it are ignored). */
enum device_select_stop {
	DEVICE_SELECT_END = 0,	      /* every entry read selected a GPU */
	DEVICE_SELECT_EMPTY,	      /* set and empty: ROCr exposes no GPU */
	DEVICE_SELECT_NOT_AN_ID,      /* neither an index nor a UUID the runtime accepts */
	DEVICE_SELECT_PAST_END,	      /* an index at or past the number of GPUs */
	DEVICE_SELECT_NO_MATCH,	      /* a UUID no GPU has */
	DEVICE_SELECT_AMBIGUOUS,      /* a UUID prefix that several GPUs share (ROCr) */
	DEVICE_SELECT_REPEATED,	      /* a GPU named twice: ROCr ends the list there */
	DEVICE_SELECT_MORE_THAN_GPUS, /* ROCr reads no more entries than there are GPUs */
	DEVICE_SELECT_NOT_A_NUMBER,   /* compute-runtime's std::stoul throws on it */
	DEVICE_SELECT_SUBDEVICE,      /* X.Y: a tile, ignored where tiles are devices (FLAT) */
	DEVICE_SELECT_MALFORMED, /* outside ONEAPI_DEVICE_SELECTOR's grammar: SYCL refuses it */
	DEVICE_SELECT_NO_LEVEL_ZERO_GPU, /* no term accepts a Level Zero GPU, or all are discarded */
	DEVICE_SELECT_UNSURE,		 /* a form whose effect gpuenv does not model: not judged */
};

struct device_select {
	size_t n_selected;
	size_t selected[DEVICE_SELECT_MAX]; /* indices into the GPUs given, in the order named */
	enum device_select_stop stop;
	size_t stop_entry;  /* 0-based entry the runtime stopped at (stop != END) */
	char stop_text[40]; /* that entry, cut to fit */
	bool skips;	    /* the runtime skips such entries and reads on (ZE_AFFINITY_MASK) */
};

/* ROCr's ROCR_VISIBLE_DEVICES over the GPUs in KFD node order; uuids[i] is GPU i's
 * "GPU-<16 hex digits>" or NULL (a unique_id of 0, which no entry matches). */
void device_select_rocr(const char *value, const char *const *uuids, size_t n_gpus,
			struct device_select *out);

/* HIP's HIP_VISIBLE_DEVICES (or, when that is unset or empty, CUDA_VISIBLE_DEVICES) over the
 * GPUs ROCr exposes; an empty value selects every GPU. */
void device_select_hip(const char *value, const char *const *uuids, size_t n_gpus,
		       struct device_select *out);

/* How compute-runtime counts devices (ZE_FLAT_DEVICE_HIERARCHY; its default is FLAT on Data
 * Center GPU Max, COMPOSITE elsewhere): FLAT and COMBINED make each tile a device. */
enum ze_hierarchy { ZE_HIERARCHY_COMPOSITE, ZE_HIERARCHY_FLAT, ZE_HIERARCHY_COMBINED };

/* ZE_AFFINITY_MASK over n_roots GPUs of at most max_tiles tiles each. selected[] holds the
 * device indices (tiles where tiles are devices) that may be kept; with max_tiles an upper
 * bound, "none selected" is certain, "some" is not. */
void device_select_ze_mask(const char *value, size_t n_roots, size_t max_tiles, enum ze_hierarchy h,
			   struct device_select *out);

/* ONEAPI_DEVICE_SELECTOR: the Level Zero GPU indices 0..n_gpus-1 (an upper bound) that a SYCL
 * program may keep. */
void device_select_oneapi(const char *value, size_t n_gpus, struct device_select *out);

/* CUDA's CUDA_VISIBLE_DEVICES over the GPUs the NVIDIA driver lists (not MIG devices: a GPU
 * in MIG mode is runtime.mig-device-selection's); uuids[i] is GPU i's "GPU-<uuid>" as NVML gives
 * it, or NULL where it was not read (then a GPU- entry is UNSURE). Set and empty selects none. */
void device_select_cuda(const char *value, const char *const *uuids, size_t n_gpus,
			struct device_select *out);

/* "names an index past the 2 GPUs"-style words for a stop, for messages. */
const char *device_select_stop_words(enum device_select_stop stop);

#endif
