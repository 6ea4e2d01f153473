// SPDX-License-Identifier: LGPL-2.1-or-later
/* Forwards a log record to the sink's callback; see log.h. */
#include "log.h"

void log_emit(const struct log_sink *sink, int level, const char *file, int line, const char *fn,
	      const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	sink->fn(sink->userdata, level, file, line, fn, format, ap);
	va_end(ap);
}
