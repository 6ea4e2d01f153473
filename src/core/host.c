// SPDX-License-Identifier: LGPL-2.1-or-later
/* Kernel facts through the root; see host.h. Format: proc(5), /proc/sys/kernel/osrelease. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "root.h"

int host_kernel_release(struct root *r, char **ret)
{
	char *text;
	int err = root_read_text(r, "/proc/sys/kernel/osrelease", ROOT_CAP_ATTR, &text);

	if (err < 0)
		return err;
	if (!*text || strpbrk(text, " /\n")) {
		free(text);
		return -EBADMSG;
	}
	*ret = text;
	return 0;
}
