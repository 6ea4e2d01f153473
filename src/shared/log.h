/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Logging through a callback (kmod_set_log_fn, libbpf_set_print): the library never
 * writes to stdout or stderr itself. Every layer that logs receives a struct log_sink
 * from its caller (core's ctx owns the one in use).
 */
#pragma once

#include <stdarg.h>

#include "macro.h"

enum log_level {
	LOG_LEVEL_ERR = 3,
	LOG_LEVEL_WARNING = 4,
	LOG_LEVEL_INFO = 6,
	LOG_LEVEL_DEBUG = 7,
};

struct log_sink {
	void (*fn)(void *userdata, int level, const char *file, int line, const char *fn,
		   const char *format, va_list args);
	void *userdata;
	int max_level;
};

void log_emit(const struct log_sink *sink, int level, const char *file, int line, const char *fn,
	      const char *format, ...) _printf_(6, 7);

#define log_at(sink, level, ...)                                                                   \
	do {                                                                                       \
		const struct log_sink *_s_ = (sink);                                               \
		if (_s_ && _s_->fn && (level) <= _s_->max_level)                                   \
			log_emit(_s_, (level), __FILE__, __LINE__, __func__, __VA_ARGS__);         \
	} while (0)
#define log_debug(sink, ...) log_at(sink, LOG_LEVEL_DEBUG, __VA_ARGS__)
#define log_info(sink, ...)  log_at(sink, LOG_LEVEL_INFO, __VA_ARGS__)
#define log_warn(sink, ...)  log_at(sink, LOG_LEVEL_WARNING, __VA_ARGS__)
#define log_err(sink, ...)   log_at(sink, LOG_LEVEL_ERR, __VA_ARGS__)
