/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading generated Python modules without running Python: torch/version.py
 * (`__version__ = '2.4.0+cu124'`, `cuda: Optional[str] = '12.4'`, `hip = None`; written by
 * pytorch tools/generate_torch_version.py), jaxlib/version.py (`_release_version: str =
 * '0.5.0'`), and tensorflow/python/platform/build_info.py (`build_info =
 * collections.OrderedDict([('cuda_version', '12.2'), …])` from tensorflow
 * tools/build_info/gen_build_info.py; TF 2.3 a plain `{…}` dict literal; TF 1.x to 2.2
 * module-level variables, pyfile_tf_build_info()).
 * Only Python literals are understood (the subset of the Python reference manual §2.4 these
 * files use): strings in single or double quotes with backslash escapes, None, True, False,
 * decimal integers, and lists, tuples and dicts of those, nested at most PYFILE_MAX_DEPTH.
 * Pure functions over (ptr, len): no I/O, every count capped.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define PYFILE_MAX_DEPTH  8
#define PYFILE_MAX_ITEMS  256  /* elements of one list / dict */
#define PYFILE_MAX_STRING 4096 /* bytes of one string literal after unescaping */
#define PYFILE_MAX_NAME	  128

enum pyval_kind {
	PYVAL_NONE,
	PYVAL_STR,
	PYVAL_INT,   /* text holds the digits */
	PYVAL_BOOL,  /* text holds "True" or "False" */
	PYVAL_LIST,  /* list or tuple: items[] */
	PYVAL_DICT,  /* dict literal or OrderedDict([(k, v), …]): keys[] and items[] */
	PYVAL_OTHER, /* a right-hand side that is not a literal (a call, a name, an expression) */
};

struct pyval {
	enum pyval_kind kind;
	char *text;	     /* STR (unescaped), INT, BOOL */
	struct pyval *items; /* LIST, DICT values */
	char **keys;	     /* DICT: the string keys, parallel to items */
	size_t n;
};

void pyval_done(struct pyval *v);

/* The value of the last top-level (column 0) assignment to `name` in a Python source text:
 * `name = value` or the annotated `name: annotation = value`. A right-hand side that is not
 * a literal is PYVAL_OTHER. 0 when found; -ENOENT when no such assignment; -EBADMSG when the
 * assignment is there but its literal is cut short or followed by anything but a comment
 * (a truncated file); -ENOMEM. *ret is written only on success. */
int pyfile_get_assign(const char *p, size_t len, const char *name, struct pyval *ret);

/* Convenience for the common case: the assignment's string value, or NULL with
 * *ret_none = true for None. 0, -ENOENT, -EBADMSG (also when the value is neither a string
 * nor None), -ENOMEM. *ret is malloc'd. */
int pyfile_get_string(const char *p, size_t len, const char *name, char **ret, bool *ret_none);

/* TensorFlow's build_info.py in each form its generator (tensorflow/tools/build_info/
 * gen_build_info.py, driven by tf_py_build_info_genrule() in tensorflow/tensorflow.bzl) wrote:
 *   TF 2.4 on:       build_info = collections.OrderedDict([('cuda_version', '11.2'), …])
 *   TF 2.3:          build_info = {'cuda_version': '10.1', 'cudnn_version': '7', …}
 *   TF 1.x to 2.2:   module-level variables: is_rocm_build = False, is_cuda_build = True,
 *                    cuda_version_number = '10.0', cudnn_version_number = '7' (the
 *                    --key_value pairs of the genrule; only is_cuda_build before them).
 * *ret is a PYVAL_DICT either way, the module-level names given the dict's keys
 * (cuda_version_number as cuda_version, cudnn_version_number as cudnn_version); *ret_form
 * says which form it was ("dict" or "module-variables"). 0; -ENOENT when the text has
 * neither a build_info assignment nor is_cuda_build; -EBADMSG when build_info is not a dict
 * literal or a variable's literal is cut short; -ENOMEM. *ret is written only on success. */
int pyfile_tf_build_info(const char *p, size_t len, struct pyval *ret, const char **ret_form);

/* A dict member by key (DICT values only); NULL when missing. */
const struct pyval *pyval_dict_get(const struct pyval *dict, const char *key);
