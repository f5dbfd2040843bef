/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Structs that callers allocate and the library reads, and their one rule
 * of growth (doc/conventions.md): `unsigned version` first, members only
 * appended. `sizes[v - 1]` is the size of version v, for v = 1 .. newest.
 */
#ifndef PD_UTIL_VERSIONED_H
#define PD_UTIL_VERSIONED_H

#include <stddef.h>

/*
 * profdata_<x>_init(): zero `size` bytes at s and set the newest version
 * whose struct fits in them. PROFDATA_EINVAL, s untouched, when s is NULL or
 * `size` is below the first version's.
 */
int pd_versioned_init(void *s, size_t size, const size_t *sizes, unsigned newest);

/*
 * Copy the caller's struct `s` into the library's `full` (of sizes[newest -
 * 1] bytes), reading only what its version declares and zeroing the rest.
 * PROFDATA_EINVAL, `full` zeroed, when the version is 0 or newer than ours.
 */
int pd_versioned_adopt(void *full, const void *s, const size_t *sizes, unsigned newest);

#endif
