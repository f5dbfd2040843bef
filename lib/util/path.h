/* SPDX-License-Identifier: Apache-2.0 */
/* File paths as text (path.c). */
#ifndef PD_UTIL_PATH_H
#define PD_UTIL_PATH_H

#include "util/base.h"

/*
 * Append `path` made lexically clean, as pprof shows source files (Go's
 * filepath.Clean): repeated slashes made one, "." elements dropped, an
 * element followed by ".." dropped with it, ".." right after the root
 * dropped, and "." for what is left empty. "./malloc/malloc.c" is
 * "malloc/malloc.c"; "../csu/libc-start.c" stays. No file system is
 * consulted. 0 or PROFDATA_ENOMEM.
 */
int pd_strbuf_add_clean_path(pd_strbuf *b, const char *path);

#endif
