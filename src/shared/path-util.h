/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Lexical path helpers: no file is looked at, no symlink is followed, ".." is never folded
 * (that needs the file system: "a/link/.." is not "a"). The one implementation of each, so
 * that every caller agrees on the edge cases:
 *
 *   path_dirname   POSIX dirname(3) (XBD "dirname" utility rules): "foo" → ".",
 *                  "/" → "/", "/usr" → "/", "/usr/lib/" → "/usr", "" → ".".
 *   path_basename  the text after the last '/' (GNU basename(3) from <string.h>, which never
 *                  modifies its argument): "/usr/lib" → "lib", "foo" → "foo", "/usr/" → "".
 *   path_join      a + "/" + b with one slash between them: ("/", "x") → "/x".
 *   path_is_under  path strictly inside dir, component-wise: "/usr/lib" is under "/usr" and
 *                  "/", "/usrx" is not under "/usr", "/usr" is not under itself.
 *   path_normalise in place: runs of '/' become one, "." components go, trailing slashes
 *                  go ("/" stays "/", "" and "." stay as they are).
 */
#pragma once

#include <stdbool.h>

/* malloc()ed; NULL on OOM. */
char *path_dirname(const char *path);
/* Points into path. */
const char *path_basename(const char *path);
/* malloc()ed; NULL on OOM. */
char *path_join(const char *a, const char *b);
bool path_is_under(const char *path, const char *dir);
/* Returns p. */
char *path_normalise(char *p);
/* The next component of the writable path at *p: slashes before it skipped, the component
 * NUL-terminated, *p moved past it and the slashes after it; NULL when none is left.
 * *ret_last: nothing follows it. Path walks (core/root.c, core/layers-read.c) use it. */
char *path_next_component(char **p, bool *ret_last);
