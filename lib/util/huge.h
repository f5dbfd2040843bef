/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ask for huge pages under a large array (huge.c says why). Arrays below
 * PD_HUGE_MIN are left alone: the advice costs a system call, and a huge
 * page under a small array would waste most of itself.
 */
#ifndef PD_UTIL_HUGE_H
#define PD_UTIL_HUGE_H

#include <stddef.h>

#define PD_HUGE_MIN ((size_t)8 << 20)
/* From this size pd_regrow moves a block by realloc (glibc's mremap), not by a copy. */
#define PD_HUGE_MOVE ((size_t)32 << 20)

/* Advise huge pages for every page [p, p + bytes) touches, from PD_HUGE_MIN bytes; a hint, never an error. */
void pd_huge_advise(void *p, size_t bytes);

/* malloc and calloc for arrays that may be large: the block advised before anything touches it; free() frees it. */
void *pd_huge_malloc(size_t bytes);
void *pd_huge_calloc(size_t n, size_t size);

#endif
