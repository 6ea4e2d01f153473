// SPDX-License-Identifier: LGPL-2.1-or-later
/* The errno names the trace and the snapshot print (root.h, errno_name()). */
#include <errno.h>
#include <string.h>

#include "root.h"

/* The names in the table itself, not pointers to them: a table of pointers is relocated, a
 * page of it written, at every start of the program (docs/HACKING.md). */
static const struct {
	int err;
	char name[20]; /* room to spare: a name as long as the array would have no NUL */
} errno_names[] = {
	{ EPERM, "EPERM" },	{ ENOENT, "ENOENT" },
	{ EIO, "EIO" },		{ E2BIG, "E2BIG" },
	{ ENOMEM, "ENOMEM" },	{ EACCES, "EACCES" },
	{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
	{ EINVAL, "EINVAL" },	{ EFBIG, "EFBIG" },
	{ ELOOP, "ELOOP" },	{ EBADMSG, "EBADMSG" },
	{ ENXIO, "ENXIO" },	{ ETIMEDOUT, "ETIMEDOUT" },
	{ ENOTSUP, "ENOTSUP" }, { ERANGE, "ERANGE" },
	{ EXDEV, "EXDEV" },	{ ENAMETOOLONG, "ENAMETOOLONG" },
	{ ENODEV, "ENODEV" },	{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
	{ ECHILD, "ECHILD" },	{ EAGAIN, "EAGAIN" },
	{ EINTR, "EINTR" },	{ ENOEXEC, "ENOEXEC" },
	{ ESRCH, "ESRCH" },
};

const char *errno_name(int err)
{
	if (err < 0)
		err = -err;
	if (err == 0)
		return "ok";
	for (size_t i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	return "EUNKNOWN";
}

int errno_from_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (strcmp(errno_names[i].name, name) == 0)
			return errno_names[i].err;
	return 0;
}
