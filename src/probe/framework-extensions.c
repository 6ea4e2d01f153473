// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The compiled extensions of torch in an environment (flash-attn's flash_attn_2_cuda, vLLM's
 * _C.abi3.so, xformers, torchvision, torchaudio …) and whether the torch of that environment
 * defines the C++ symbols each needs from it. Such a module is built against one torch
 * release and one C++ ABI (_GLIBCXX_USE_CXX11_ABI: std::string mangles as Ss or as
 * NSt7__cxx1112basic_string…); it names torch's functions by their mangled names, and any
 * other release or ABI lacks some of them, so Python's dlopen (RTLD_NOW) fails: "ImportError:
 * …/flash_attn_2_cuda….so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationESs"
 * (Dao-AILab/flash-attention#1644; pytorch/pytorch#152790: torch 2.6.0+cu126 moved to the new
 * ABI), or torchvision's "operator torchvision::nms does not exist" when its _C.so did not
 * load. Read here: each .so at the top of a site-packages or in a known extension package
 * whose DT_NEEDED names a torch library, its undefined dynamic symbols in the c10::, at:: and
 * torch:: namespaces (formats/elf-symbols.h), each looked up in torch/lib's libc10*.so and
 * libtorch*.so through their GNU hash tables (formats/elf-gnu-hash.h: a few words each, never
 * libtorch_cpu's whole symbol table). A symbol none of them defines is missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-dynamic.h"
#include "formats/elf-gnu-hash.h"
#include "formats/elf-symbols.h"
#include "probe/loader.h"
#include "probe/probe-python-internal.h"
#include "probe/probe.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"

#define MAX_EXTENSIONS	 64u  /* extension files looked at per environment */
#define MAX_TORCH_LIBS	 16u  /* torch/lib libraries searched */
#define MAX_MISSING_KEPT 8u   /* missing names listed per extension */
#define MAX_DIR_NAMES	 4096 /* entries of a package directory listed */

/* The packages whose own directory holds torch extensions (the top of site-packages is
 * always looked at: flash_attn_2_cuda, apex's amp_C, auto-gptq's and mamba's kernels). */
static const char *const package_dirs[] = {
	"torchvision",	"torchaudio/lib",     "vllm",	       "xformers",     "flash_attn",
	"flash_attn_3", "bitsandbytes",	      "deepspeed/ops", "apex",	       "auto_gptq",
	"mmcv",		"detectron2",	      "torch_scatter", "torch_sparse", "torch_cluster",
	"pytorch3d",	"transformer_engine",
};

/* The mangled-name prefixes of torch's namespaces: c10::, at::, torch:: (plain and const
 * member functions; Itanium C++ ABI, "Nested names"). None is a prefix of another. */
static const char *const torch_prefixes[] = {
	"_ZN3c10", "_ZNK3c10", "_ZN2at", "_ZNK2at", "_ZN5torch", "_ZNK5torch", NULL,
};

struct torch_lib {
	char *path;
	struct root_file f;
	struct elf_gnu_hash *h;
	int err; /* 0: not opened yet, 1: open, <0: why it could not be */
};

struct ext_ctx {
	struct py_ctx *c;
	struct snap_node *env, *arr; /* arr: made with the first extension */
	struct torch_lib libs[MAX_TORCH_LIBS];
	size_t n_libs;
	size_t n_ext;
};

static bool ends_so(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && streq(name + n - 3, ".so");
}

static bool is_torch_lib(const char *name)
{
	return (startswith(name, "libc10") || startswith(name, "libtorch")) && ends_so(name);
}

static ssize_t lib_pread(void *userdata, uint64_t off, void *buf, size_t n)
{
	return root_file_pread(userdata, buf, n, off);
}

static int lib_open(struct ext_ctx *x, struct torch_lib *l)
{
	struct elf_gnu_hash_input in;
	int r;

	if (l->err)
		return l->err;
	r = root_file_open(x->c->pe->root, l->path, SIZE_MAX, &l->f);
	if (r >= 0) {
		in = (struct elf_gnu_hash_input){ lib_pread, &l->f, l->f.size };
		r = elf_gnu_hash_open(&in, &l->h);
	}
	l->err = r < 0 ? r : 1;
	return l->err;
}

/* torch/lib's libc10*.so and libtorch*.so of the torch in site. */
static int list_torch_libs(struct ext_ctx *x, const char *site)
{
	_cleanup_free_ char *dir = path_join(site, "torch/lib");
	const char *const *names;
	size_t n;
	int r;

	if (!dir)
		return -ENOMEM;
	r = root_list_dir_borrow(x->c->pe->root, dir, MAX_DIR_NAMES, &names, &n);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	for (size_t i = 0; i < n && x->n_libs < MAX_TORCH_LIBS; i++) {
		if (!is_torch_lib(names[i]))
			continue;
		x->libs[x->n_libs] = (struct torch_lib){ .f = ROOT_FILE_NULL };
		x->libs[x->n_libs].path = path_join(dir, names[i]);
		if (!x->libs[x->n_libs].path)
			return -ENOMEM;
		x->n_libs++;
	}
	return 0;
}

/* 1: some torch library defines name (its index in *which); 0: none does; <0: one that could
 * not be read (its index in *which) leaves it open. */
static int torch_defines(struct ext_ctx *x, const char *name, size_t *which)
{
	int unknown = 0;

	for (size_t i = 0; i < x->n_libs; i++) {
		int r = lib_open(x, &x->libs[i]);

		if (r > 0)
			r = elf_gnu_hash_defines(x->libs[i].h, name);
		if (r == 1) {
			*which = i;
			return 1;
		}
		if (r == -ENOMEM)
			return r;
		if (r < 0 && !unknown) {
			unknown = r;
			*which = i;
		}
	}
	return unknown;
}

#define CXX11_STRING "NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
#define OLD_STRING   "Ss"

/* name with std::string in the other C++ ABI's mangling (NSt7__cxx11…basic_string… for the
 * new one, Ss for the old: Itanium C++ ABI substitutions; GCC's dual ABI), where it names it
 * once; NULL otherwise. */
static char *other_abi_name(const char *name, bool *ext_cxx11)
{
	const char *p = strstr(name, CXX11_STRING), *from = CXX11_STRING, *to = OLD_STRING;
	char *out;

	*ext_cxx11 = p != NULL;
	if (!p) {
		p = strstr(name, OLD_STRING);
		from = OLD_STRING;
		to = CXX11_STRING;
	}
	if (!p || strstr(p + strlen(from), from))
		return NULL;
	if (asprintf(&out, "%.*s%s%s", (int)(p - name), name, to, p + strlen(from)) < 0)
		return NULL;
	return out;
}

/* The first missing name whose other-ABI spelling torch defines: the extension and torch
 * were built with different _GLIBCXX_USE_CXX11_ABI. */
static int note_abi(struct ext_ctx *x, struct snap_node *o, const char *name, const char *path)
{
	_cleanup_free_ char *other = NULL;
	size_t lib = 0;
	bool cxx11;
	int r;

	if (snap_child(o, "torch_defines_other_abi"))
		return 0;
	other = other_abi_name(name, &cxx11);
	if (!other)
		return 0;
	r = torch_defines(x, other, &lib);
	if (r == 1) {
		snap_set_str(o, "torch_defines_other_abi", other, x->libs[lib].path);
		snap_set_str(o, "cxx11_abi", cxx11 ? "new" : "old", path);
	}
	return r == -ENOMEM ? r : 0;
}

static void set_lib_error(struct snap_node *o, const struct torch_lib *l)
{
	if (l->err == -EBADMSG || l->err == -ENOENT)
		snap_set_malformed(o, "symbols_missing", NULL, l->path,
				   l->err == -ENOENT
					   ? "no GNU hash table: its symbols were not looked up"
					   : "not a readable ELF library");
	else
		snap_set_errno(o, "symbols_missing", l->err, l->path);
}

/* The torch symbols the extension at path needs (s: its symbols of torch's namespaces),
 * looked up: into o. Taken namespace by namespace, so that the names listed come in the
 * same order whatever the order of .dynsym. */
static int check_symbols(struct ext_ctx *x, struct snap_node *o, const char *path,
			 const struct elf_symbols *s)
{
	struct snap_node *missing = NULL;
	int64_t checked = 0, n_missing = 0;

	for (size_t p = 0; p < ARRAY_SIZE(torch_prefixes) - 1; p++) {
		for (size_t i = 0; i < s->n; i++) {
			size_t bad = 0;
			int r;

			if (s->sym[i].defined || !startswith(s->sym[i].name, torch_prefixes[p]))
				continue;
			checked++;
			r = torch_defines(x, s->sym[i].name, &bad);
			if (r == -ENOMEM)
				return r;
			if (r < 0) {
				set_lib_error(o, &x->libs[bad]);
				return 0;
			}
			if (r == 1)
				continue;
			if (!missing)
				missing = snap_array(o, "symbols_missing");
			if (n_missing++ < MAX_MISSING_KEPT)
				snap_append_str(missing, s->sym[i].name, path);
			if ((r = note_abi(x, o, s->sym[i].name, path)) < 0)
				return r;
		}
	}
	if (s->truncated && missing)
		snap_fact_set_error(missing,
				    "more symbols than gpuenv reads: the list may be short");
	if (!missing)
		missing = snap_array(o, "symbols_missing");
	snap_set_int(o, "symbols_checked", checked, path);
	snap_set_int(o, "symbols_missing_count", n_missing, path);
	return 0;
}

static bool needs_torch(const struct elf_dynamic *d)
{
	for (size_t i = 0; i < d->n_needed; i++)
		if (is_torch_lib(d->needed[i]))
			return true;
	return false;
}

/* One file: an extension when its DT_NEEDED names a torch library. Read once: its dynamic
 * section, and its symbols of torch's namespaces when it is one. */
static int one_file(struct ext_ctx *x, const char *path, const char *package)
{
	_cleanup_(loader_elf_done) struct loader_elf e = { .symbols_err = 1 };
	struct snap_node *o = NULL, *needs = NULL;
	int r;

	r = loader_read_elf_any(x->c->pe->root, path, torch_prefixes, needs_torch, &e);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || e.dynamic_err < 0 || !e.dynamic)
		return 0; /* not a library gpuenv can read: nothing it says about torch */
	for (size_t i = 0; i < e.dynamic->n_needed; i++) {
		if (!is_torch_lib(e.dynamic->needed[i]))
			continue;
		if (!needs) {
			if (x->n_ext >= MAX_EXTENSIONS)
				return 0;
			x->n_ext++;
			if (!x->arr)
				x->arr = snap_array(x->env, "torch_extensions");
			o = snap_append_object(x->arr);
			snap_set_str(o, "path", path, path);
			snap_set_str(o, "package", package, path);
			needs = snap_array(o, "needs");
		}
		snap_append_str(needs, e.dynamic->needed[i], path);
	}
	if (!needs)
		return 0;
	if (x->n_libs == 0) {
		snap_set_state(o, "symbols_missing", FACT_UNPROBED, path,
			       "no libc10*.so or libtorch*.so in torch/lib to look them up in");
		return 0;
	}
	if (e.symbols_err == -ENOMEM)
		return -ENOMEM;
	if (e.symbols_err != 0) {
		snap_set_errno(o, "symbols_missing", e.symbols_err == 1 ? -EBADMSG : e.symbols_err,
			       path);
		return 0;
	}
	return check_symbols(x, o, path, e.symbols);
}

/* "flash_attn_2_cuda" of "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so". */
static char *module_of(const char *name)
{
	return strndup(name, strcspn(name, "."));
}

static int scan_dir(struct ext_ctx *x, const char *dir, const char *package)
{
	const char *const *names;
	size_t n;
	int r = root_list_dir_borrow(x->c->pe->root, dir, MAX_DIR_NAMES, &names, &n);

	if (r < 0)
		return r == -ENOMEM ? r : 0;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = NULL, *mod = NULL;

		if (!ends_so(names[i]) || names[i][0] == '.')
			continue;
		path = path_join(dir, names[i]);
		mod = package ? NULL : module_of(names[i]);
		if (!path || (!package && !mod))
			return -ENOMEM;
		if (root_test(x->c->pe->root, path, S_IFREG) <= 0)
			continue;
		if ((r = one_file(x, path, package ?: mod)) < 0)
			return r;
	}
	return 0;
}

int py_probe_torch_extensions(struct py_ctx *c, struct snap_node *env, const struct site *sites,
			      size_t ns)
{
	const char *torch_site = snap_get_str(snap_get(env, "packages.torch"), "site_packages");
	struct ext_ctx x = { .c = c, .env = env };
	int r = 0;

	if (!torch_site)
		return 0;
	if ((r = list_torch_libs(&x, torch_site)) < 0)
		goto out;
	for (size_t s = 0; s < ns && r >= 0; s++) {
		r = scan_dir(&x, sites[s].dir, NULL);
		for (size_t i = 0; i < ARRAY_SIZE(package_dirs) && r >= 0; i++) {
			_cleanup_free_ char *dir = path_join(sites[s].dir, package_dirs[i]);
			_cleanup_free_ char *pkg =
				strndup(package_dirs[i], strcspn(package_dirs[i], "/"));

			if (!dir || !pkg) {
				r = -ENOMEM;
				break;
			}
			if (!py_site_has(&sites[s], pkg))
				continue;
			r = scan_dir(&x, dir, pkg);
		}
	}
out:
	for (size_t i = 0; i < x.n_libs; i++) {
		elf_gnu_hash_free(x.libs[i].h);
		root_file_close(&x.libs[i].f);
		free(x.libs[i].path);
	}
	return r == -ENOMEM ? r : 0;
}
