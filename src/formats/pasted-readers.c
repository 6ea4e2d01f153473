/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The readers gpuenv explain runs over pasted text, one line each (see pasted.h). */
#include "formats/pasted-errors.h"
#include "formats/pasted.h"

const struct pasted_reader pasted_readers[] = {
	{ "errors", pasted_read_errors },
	{ NULL, NULL },
};
