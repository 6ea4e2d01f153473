// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCI device names from a PCI ID database (pci.ids, https://pci-ids.ucw.cz; format described
 * at the top of the file itself and read by libpci's lib/names-parse.c) for GPUs libgpuenv's
 * built-in table does not know. libpci is GPL-2.0+, so only the GPL tool links it and hands
 * the lookup to the LGPL library through gpuenv_ctx_set_pci_name_fn().
 * Which file: --pci-ids FILE when given; live, libpci's default (/usr/share/misc/pci.ids on
 * Debian); under --sysroot the judged machine's own copy (usr/share/misc/pci.ids,
 * usr/share/hwdata/pci.ids, usr/share/pci.ids inside the root, only when it resolves inside
 * the root), else none, so a fixture's report never depends on the host's pci.ids. udev's
 * hwdb, the DNS lookup and the ~/.pciids-cache are never consulted: the same file always
 * gives the same name. The live default is libpci's own: IDSDIR/pci.ids.gz, then the name
 * without ".gz" (pciutils lib/names-parse.c, pci_open()), IDSDIR from libpci's pkg-config.
 * libpci itself (and libudev with it) is loaded on the first lookup, not linked: most runs
 * name no GPU from pci.ids, and loading it cost each of them start-up time
 * (bench/bench-scan.sh measures it).
 */
#include <errno.h>
#include <limits.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/root.h"
#include "gpuenv.h"
#include "shared/elf-note.h"
#include "shared/macro.h"
#include "vendor/dl.h"

DL_NOTE(dl_note_pci,
	"[{\"feature\":\"pci-names\",\"description\":\"names of GPUs the built-in "
	"table lacks, from pci.ids\",\"priority\":\"suggested\",\"soname\":[\"" GPUENV_LIBPCI_SONAME
	"\"]}]");

/* libpci's functions, with the types of its own <pci/pci.h>, loaded on the first lookup by
 * the library's loader (src/vendor/dl.h, struct dl_lazy), as libgpuenv loads libzip. */
#define LIBPCI_SYMBOLS(X, T)                                                                       \
	X(T, pci_alloc)                                                                            \
	X(T, pci_cleanup)                                                                          \
	X(T, pci_lookup_name)                                                                      \
	X(T, pci_set_name_list_path)

struct libpci {
	LIBPCI_SYMBOLS(DL_LAZY_FIELD, _)
};
static int libpci(const struct libpci **ret, const char **ret_error);
DL_LAZY_DEFINE(libpci, struct libpci, GPUENV_LIBPCI_SONAME, LIBPCI_SYMBOLS)

static struct {
	char *path;  /* the database; set once pci_names_setup() found one */
	int memfd;   /* holding an archive's copy of it (archive_ids()); 0: none */
	bool tried;  /* libpci loaded (or failed to) on the first lookup */
	bool broken; /* libpci reported an error (unparsable file): no more lookups */
	const struct libpci *fn;
	struct pci_access *pacc;
	jmp_buf on_error;
} names;

/* libpci's error callback must not return (its default calls exit()): jump back instead. */
static void PCI_NONRET pci_names_error(char *msg, ...)
{
	longjmp(names.on_error, 1);
}

static void pci_names_quiet(char *msg, ...)
{
}

/* Load libpci and set up names.pacc over names.path: 0, or -ELIBACC (not loadable). */
static int pci_names_load(void)
{
	const char *why = NULL;
	int err = libpci(&names.fn, &why);

	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		fprintf(stderr, "gpuenv: no GPU names from pci.ids: %s\n", why);
		return -ELIBACC;
	}
	names.pacc = names.fn->pci_alloc();
	if (!names.pacc)
		return -ENOMEM;
	names.pacc->error = pci_names_error;
	names.pacc->warning = pci_names_quiet;
	names.pacc->debug = pci_names_quiet;
	names.pacc->id_lookup_mode = 0; /* no ~/.pciids-cache, no DNS */
	names.fn->pci_set_name_list_path(names.pacc, names.path, 0);
	return 0;
}

static int pci_names_lookup(void *userdata, uint16_t vendor, uint16_t device, uint16_t subvendor,
			    uint16_t subdevice, char *buf, size_t len)
{
	static int load_err;
	char *name;

	if (!names.tried) {
		names.tried = true;
		load_err = pci_names_load();
	}
	if (load_err < 0)
		return load_err;
	if (names.broken)
		return -EBADMSG;
	if (len == 0 || len > INT_MAX)
		return -EINVAL;
	if (setjmp(names.on_error)) {
		names.broken = true;
		return -EBADMSG;
	}
	name = names.fn->pci_lookup_name(names.pacc, buf, (int)len,
					 PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS |
						 PCI_LOOKUP_NO_HWDB,
					 (int)vendor, (int)device);
	if (!name)
		return -ENOENT;
	if (name != buf)
		snprintf(buf, len, "%s", name);
	return 0;
}

/*
 * libpci reads the whole database into memory, parsing as it goes, and opens it with zlib's
 * gzopen(), which also inflates gzip data behind a plain name: a large pci.ids in an image
 * costs its whole size in time and memory. The database is a regular file of at most PCI_IDS_MAX bytes (pci.ids of
 * 2023 is 1.4 MB), and gzip data (magic 1f 8b, RFC 1952) is refused unless the caller named
 * the file: its inflated size is not bounded by the file's.
 */
#define PCI_IDS_MAX ((off_t)16 << 20)

static int ids_check(const char *path, bool allow_gzip, const char **why)
{
	unsigned char magic[2] = { 0 };
	struct stat st;
	FILE *f;

	*why = NULL;
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
	if (st.st_size > PCI_IDS_MAX) {
		*why = "larger than 16 MiB (pci.ids is 1.4 MB)";
		return -EFBIG;
	}
	if (allow_gzip)
		return 0;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		fclose(f);
		*why = "gzip data: its inflated size is not bounded";
		return -EFBIG;
	}
	fclose(f);
	return 0;
}

/* A regular file (after links) at sysroot/rel whose real path stays inside the sysroot. */
static char *sysroot_ids(const char *sysroot, const char *rel)
{
	char want[PATH_MAX], real_root[PATH_MAX], real[PATH_MAX];
	struct stat st;
	size_t n;

	if (snprintf(want, sizeof(want), "%s/%s", sysroot, rel) >= (int)sizeof(want))
		return NULL;
	if (!realpath(sysroot, real_root) || !realpath(want, real))
		return NULL;
	n = strlen(real_root);
	if (strcmp(real_root, "/") != 0 && (strncmp(real, real_root, n) != 0 || real[n] != '/'))
		return NULL;
	if (stat(real, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	return strdup(real);
}

/* The copy at rel inside an archive given as the root (a capture bundle keeps the machine's
 * pci.ids; a tar of a root tree may hold one): read through the judged root, capped as
 * ids_check() caps a file, into a memory file that libpci opens by its /proc/self/fd name. */
static char *archive_ids(struct gpuenv_ctx *ctx, const char *rel)
{
	_cleanup_free_ char *data = NULL, *at = NULL;
	char *path = NULL;
	size_t len, done = 0;
	int fd, err;

	if (asprintf(&at, "/%s", rel) < 0)
		return NULL;
	err = root_read_file(ctx->root, at, (size_t)PCI_IDS_MAX, &data, &len);
	if (err == -EFBIG)
		fprintf(stderr,
			"gpuenv: %s: larger than 16 MiB (pci.ids is 1.4 MB): not used for "
			"GPU names\n",
			at);
	if (err < 0)
		return NULL;
	fd = memfd_create("pci.ids", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	while (done < len) {
		ssize_t k = write(fd, data + done, len - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		done += (size_t)k;
	}
	if (done < len || asprintf(&path, "/proc/self/fd/%d", fd) < 0) {
		close(fd);
		return NULL;
	}
	names.memfd = fd;
	return path;
}

const char *pci_names_path(void)
{
	return names.path;
}

static void pci_names_cleanup(void)
{
	/* libpci stays mapped (struct dl_lazy loads a library once per process). */
	if (names.pacc)
		names.fn->pci_cleanup(names.pacc);
	free(names.path);
	if (names.memfd > 0)
		close(names.memfd);
	memset(&names, 0, sizeof(names));
}

/* 0 (with or without a database found), or -errno with a message for an unusable --pci-ids. */
int pci_names_setup(struct gpuenv_ctx *ctx, const char *sysroot, const char *ids_file)
{
	static const char *const in_root[] = { "usr/share/misc/pci.ids", "usr/share/hwdata/pci.ids",
					       "usr/share/pci.ids" };
	static const char *const live[] = { GPUENV_PCI_IDS_DIR "/pci.ids.gz",
					    GPUENV_PCI_IDS_DIR "/pci.ids" };
	static bool registered;
	const char *why;
	int err;

	if (names.path)
		return 0;
	if (ids_file) {
		/* libpci answers "not found" for a missing file or a directory: check it here. */
		err = ids_check(ids_file, true, &why);
		if (err == 0)
			err = access(ids_file, R_OK) < 0 ? -errno : 0;
		if (err < 0) {
			fprintf(stderr, "gpuenv: --pci-ids %s: %s\n", ids_file,
				why ? why : strerror(-err));
			return err;
		}
		names.path = strdup(ids_file);
		if (!names.path)
			return -ENOMEM;
	} else if (sysroot && strcmp(sysroot, "/") != 0) {
		struct stat st;
		/* an archive (a capture bundle, an image's tar): read inside it, never beside it */
		bool archive = stat(sysroot, &st) == 0 && S_ISREG(st.st_mode);

		for (size_t i = 0; i < ARRAY_SIZE(in_root) && !names.path; i++) {
			names.path = archive ? archive_ids(ctx, in_root[i])
					     : sysroot_ids(sysroot, in_root[i]);
			/* The image's copy is its data, not the caller's choice: one that is too
			 * big is passed over, with a word, and no GPU is named from it. */
			if (names.path && ids_check(names.path, false, &why) < 0) {
				fprintf(stderr, "gpuenv: %s: %s: not used for GPU names\n",
					names.path, why ? why : "cannot be read");
				free(names.path);
				names.path = NULL;
				if (names.memfd > 0)
					close(names.memfd);
				names.memfd = 0;
				break;
			}
		}
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(live) && !names.path; i++)
			if (access(live[i], R_OK) == 0 && !(names.path = strdup(live[i])))
				return -ENOMEM;
	}
	if (!names.path)
		return 0; /* no database on the judged machine: no fallback name */
	if (!registered) {
		atexit(pci_names_cleanup);
		registered = true;
	}
	gpuenv_ctx_set_pci_name_fn(ctx, pci_names_lookup, NULL);
	return 0;
}
