// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An image's GPU libraries (issue 15, "Predict": the GPU code "of every GPU library in the
 * image against the target GPUs"), found without a policy naming them: every regular file of
 * the layered tree (--image, --wheel; whiteouts applied) named like a shared object (*.so,
 * *.so.N…), wherever the layers put it (/usr/lib, /usr/local/cuda-*, site-packages'
 * nvidia/<wheel>/lib, torch/lib …), read with the scanner of `gpuenv scan` in the order the
 * layers hold their bytes, so each layer is read once, forwards. What has CUDA or AMDGPU code
 * is kept with the policy (check_binaries, judged by src/check/check-image-libs.c); the rest
 * is only counted, and each file's scan result is dropped as soon as it is judged, so the
 * memory stays that of one library's headers whatever the image holds. An --image given as
 * an unpacked directory is walked instead (root_list_files(): links never followed, hard
 * links once, the top's proc/sys/dev left out), with the same judgement.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "core/ctx.h"
#include "core/root.h"
#include "formats/policy.h"
#include "scan/scan.h"
#include "shared/macro.h"
#include "shared/strv.h"

static bool named_like_shared_object(const char *name, size_t len)
{
	char buf[256];

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, name, len);
	buf[len] = '\0';
	/* libfoo.so, libfoo.so.12, _C.cpython-312-x86_64-linux-gnu.so; not ld.so.conf */
	return fnmatch("*.so", buf, 0) == 0 || fnmatch("*.so.[0-9]*", buf, 0) == 0;
}

/* What the scanner made of one file: kept when it holds GPU code or could not be read. */
static int take(struct check_binaries *bs, const struct scan_file *f)
{
	if (f->state == SCAN_MALFORMED && f->error && strncmp(f->error, "not an ELF", 10) == 0) {
		bs->n_not_elf++; /* a linker script named libc.so, a text file */
		return 0;
	}
	if (f->state == SCAN_OK && f->targets.n == 0) {
		bs->n_without_code++;
		return 0;
	}
	return check_binary_add(bs, SIZE_MAX, f);
}

/* An image: layers (an archive, an OCI layout, wheels) or an unpacked directory. */
static bool judged_as_image(const struct gpuenv_ctx *ctx)
{
	return root_layers(ctx->root) ||
	       (ctx->has_image && ctx->image.kind && streq(ctx->image.kind, "directory"));
}

int check_read_image_libraries(struct gpuenv_policy *p, struct gpuenv_ctx *ctx)
{
	_cleanup_strv_free_ char **paths = NULL;
	_cleanup_free_ char *unread = NULL;
	struct check_binaries *bs;
	struct gpuenv_scan *s = NULL;
	size_t total;
	int r;

	if (!judged_as_image(ctx))
		return 0; /* the machine, a sysroot: its libraries are the doctor's */
	r = root_list_files(ctx->root, named_like_shared_object, CHECK_IMAGE_LIBS_MAX, &paths,
			    &total, &unread);
	if (r < 0)
		return r;
	bs = calloc(1, sizeof(*bs));
	if (!bs)
		return -ENOMEM;
	bs->unread = TAKE_PTR(unread);
	bs->n_candidates = total;
	bs->n_over_cap = total - strv_length(paths);
	r = gpuenv_scan_new(ctx, NULL, &s);
	for (size_t i = 0; r >= 0 && paths[i]; i++) {
		size_t before = s->n_files;

		r = scan_path(s, paths[i]);
		if (r == -ENOMEM)
			break;
		r = 0;
		for (size_t k = before; r >= 0 && k < s->n_files; k++)
			r = take(bs, &s->files[k]);
		/* judged: its scan result is not needed again */
		for (size_t k = before; k < s->n_files; k++)
			scan_file_done(&s->files[k]);
		s->n_files = before;
	}
	gpuenv_scan_free(s);
	if (r < 0) {
		check_binaries_free(bs);
		return r;
	}
	if (p->binaries_free)
		p->binaries_free(p->image_libraries);
	p->image_libraries = bs;
	p->binaries_free = check_binaries_free;
	return 0;
}
