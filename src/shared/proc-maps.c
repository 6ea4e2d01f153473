// SPDX-License-Identifier: LGPL-2.1-or-later
/* A line of /proc/PID/maps: see proc-maps.h. */
#include "shared/proc-maps.h"

#include <limits.h>
#include <string.h>

/* The value of c as a digit of base (10 or 16, lowercase as the kernel writes it); -1: none. */
static int digit(char c, unsigned base)
{
	int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 16;

	return d < (int)base ? d : -1;
}

/* A number of base at *p, at least one digit and no more than an unsigned long holds,
 * followed by one of seps ('\n' in seps: the line's end, '\n' or NUL), past which *p is left;
 * the separator, or -1 (*p unchanged) where there is none of these. */
static int number(const char **p, unsigned base, const char *seps, unsigned long *ret)
{
	const char *q = *p;
	unsigned long v = 0;
	int d;

	for (; (d = digit(*q, base)) >= 0; q++) {
		if (v > (ULONG_MAX - (unsigned long)d) / base)
			return -1;
		v = v * base + (unsigned long)d;
	}
	if (q == *p || (*q == '\0' ? !strchr(seps, '\n') : !strchr(seps, *q)))
		return -1;
	*ret = v;
	*p = *q ? q + 1 : q;
	return (unsigned char)*q;
}

/* MAJOR:MINOR, each in hex, and the space after it, into dev. */
static bool device(const char **p, char *dev, size_t size)
{
	const char *q = *p;
	unsigned long major, minor;
	size_t n;

	if (number(&q, 16, ":", &major) < 0 || number(&q, 16, " ", &minor) < 0)
		return false;
	n = (size_t)(q - 1 - *p);
	if (n >= size)
		return false;
	memcpy(dev, *p, n);
	dev[n] = '\0';
	*p = q;
	return true;
}

bool proc_maps_parse_line(const char *p, struct proc_maps_line *ret)
{
	const char *end;

	if (number(&p, 16, "-", &ret->start) < 0 || number(&p, 16, " ", &ret->end) < 0)
		return false;
	/* four flags, each its letter or '-', the last p(rivate) or s(hared) */
	if ((p[0] != 'r' && p[0] != '-') || (p[1] != 'w' && p[1] != '-') ||
	    (p[2] != 'x' && p[2] != '-') || (p[3] != 'p' && p[3] != 's') || p[4] != ' ')
		return false;
	memcpy(ret->perms, p, 4);
	ret->perms[4] = '\0';
	p += 5;
	if (number(&p, 16, " ", &ret->offset) < 0 || !device(&p, ret->dev, sizeof(ret->dev)))
		return false;
	/* the line may end right after the inode: the space the kernel prints after it lost
	 * by a paste, or trimmed; then there is no name */
	switch (number(&p, 10, " \n", &ret->inode)) {
	case -1:
		return false;
	case ' ':
		while (*p == ' ')
			p++;
		end = strchr(p, '\n');
		ret->path = p;
		ret->path_len = end ? (size_t)(end - p) : strlen(p);
		return true;
	default:
		ret->path = "";
		ret->path_len = 0;
		return true;
	}
}
