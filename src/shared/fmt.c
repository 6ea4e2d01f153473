// SPDX-License-Identifier: LGPL-2.1-or-later
/* printf's common conversions without stdio: see fmt.h. What each prints is C11 7.21.6.1's
 * (fprintf) as glibc writes it, including glibc's "(null)" for a null %s (vfprintf-process-arg.c:
 * "(null)" where the precision leaves room for all six bytes, else nothing). */
#include "fmt.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* One conversion: what follows its '%'. */
struct spec {
	char conv; /* 's', 'c', 'd' (also for 'i'), 'u', '%' */
	char size; /* 0: int, 'l': long, 'L': long long, 'z': size_t */
	int prec;  /* a %s's precision: -1 none, -2 an int argument ("*") */
};

/* The conversion at f (after its '%') into *sp; what follows it, or NULL where it is not one
 * of those formatted here. */
static const char *parse_spec(const char *f, struct spec *sp)
{
	*sp = (struct spec){ .prec = -1 };
	if (*f == '.') {
		f++;
		if (*f == '*') {
			sp->prec = -2;
			f++;
		} else {
			int p = 0;

			for (; *f >= '0' && *f <= '9'; f++) {
				if (p > (INT_MAX - 9) / 10)
					return NULL;
				p = p * 10 + (*f - '0');
			}
			sp->prec = p;
		}
		if (*f != 's')
			return NULL; /* a precision here only for a string */
	}
	if (*f == 'l') {
		sp->size = 'l';
		if (*++f == 'l') {
			sp->size = 'L';
			f++;
		}
	} else if (*f == 'z') {
		sp->size = 'z';
		f++;
	}
	switch (*f) {
	case 'd':
	case 'i':
		sp->conv = 'd';
		return f + 1;
	case 'u':
		sp->conv = 'u';
		return f + 1;
	case 's':
	case 'c':
	case '%':
		if (sp->size)
			return NULL; /* %ls, %lc: wide characters */
		sp->conv = *f;
		return f + 1;
	default:
		return NULL;
	}
}

struct out {
	char *buf;
	size_t size; /* of buf: what is written stops at size - 1, then a NUL */
	size_t n;    /* bytes the whole output has so far */
};

static void put(struct out *o, const char *p, size_t n)
{
	if (o->n < o->size) {
		size_t room = o->size - 1 - o->n;

		memcpy(o->buf + o->n, p, n < room ? n : room);
	}
	o->n += n;
}

/* The decimal digits of v, with a '-' where neg. */
static void put_number(struct out *o, unsigned long long v, bool neg)
{
	char d[24], *e = d + sizeof(d), *s = e;

	do
		*--s = (char)('0' + v % 10);
	while ((v /= 10));
	if (neg)
		*--s = '-';
	put(o, s, (size_t)(e - s));
}

static void put_signed(struct out *o, long long v)
{
	/* the magnitude of LLONG_MIN taken without overflowing */
	put_number(o, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0);
}

/* fmt formatted into o; false, part of it formatted, where it has a conversion not formatted
 * here. */
static bool format(struct out *o, const char *fmt, va_list ap)
{
	const char *f = fmt, *pc;
	struct spec sp;

	while ((pc = strchr(f, '%'))) {
		put(o, f, (size_t)(pc - f));
		f = parse_spec(pc + 1, &sp);
		if (!f)
			return false;
		switch (sp.conv) {
		case '%':
			put(o, "%", 1);
			break;
		case 'c': {
			char c = (char)(unsigned char)va_arg(ap, int);

			put(o, &c, 1);
			break;
		}
		case 's': {
			int prec = sp.prec == -2 ? va_arg(ap, int) : sp.prec;
			const char *s = va_arg(ap, const char *);

			if (prec < -1)
				prec = -1; /* a negative "*": as if there were none */
			if (!s)
				s = prec == -1 || prec >= 6 ? "(null)" : "";
			put(o, s, prec == -1 ? strlen(s) : strnlen(s, (size_t)prec));
			break;
		}
		case 'd':
			if (sp.size == 'L')
				put_signed(o, va_arg(ap, long long));
			else if (sp.size == 'l')
				put_signed(o, va_arg(ap, long));
			else if (sp.size == 'z')
				put_signed(o, (long long)va_arg(ap, ssize_t));
			else
				put_signed(o, va_arg(ap, int));
			break;
		default: /* 'u' */
			if (sp.size == 'L')
				put_number(o, va_arg(ap, unsigned long long), false);
			else if (sp.size == 'l')
				put_number(o, va_arg(ap, unsigned long), false);
			else if (sp.size == 'z')
				put_number(o, va_arg(ap, size_t), false);
			else
				put_number(o, va_arg(ap, unsigned), false);
			break;
		}
	}
	put(o, f, strlen(f));
	return true;
}

/* fmt formatted into o on a copy of ap, so that where a conversion turns out to be libc's,
 * libc has ap whole: 1, 0 for libc's, or -1 (EOVERFLOW) for an output over INT_MAX bytes. */
static int format_copy(struct out *o, const char *fmt, va_list ap)
{
	va_list aq;
	bool done;

	va_copy(aq, ap);
	done = format(o, fmt, aq);
	va_end(aq);
	if (done && o->n > INT_MAX) {
		errno = EOVERFLOW;
		return -1;
	}
	return done;
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size };
	int r = format_copy(&o, fmt, ap);

	if (r == 0)
		return vsnprintf(buf, size, fmt, ap);
	if (size > 0)
		buf[o.n < size ? o.n : size - 1] = '\0';
	return r < 0 ? r : (int)o.n;
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int fmt_vasprintf(char **ret, const char *fmt, va_list ap)
{
	struct out o = { 0 };
	int r = format_copy(&o, fmt, ap); /* measured, then written into a buffer of that size */

	if (r <= 0)
		return r == 0 ? vasprintf(ret, fmt, ap) : r;
	o = (struct out){ .buf = malloc(o.n + 1), .size = o.n + 1 };
	if (!o.buf)
		return -1;
	format(&o, fmt, ap);
	o.buf[o.n] = '\0';
	*ret = o.buf;
	return (int)o.n;
}

int fmt_asprintf(char **ret, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vasprintf(ret, fmt, ap);
	va_end(ap);
	return n;
}
