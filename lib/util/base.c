/* SPDX-License-Identifier: Apache-2.0 */
#include "util/base.h"

#include <stdlib.h>

#include "util/huge.h"

void pd_free_each(void *const *ptrs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ptrs[i]);
}

int pd_grow(void **ptr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return PROFDATA_ENOMEM;
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		return PROFDATA_ENOMEM;
	/* Between PD_HUGE_MIN and PD_HUGE_MOVE a block moves by a copy into
	 * fresh memory (pd_regrow), whose pages the kernel clears as the copy
	 * first writes them: one move past that range instead of two or three.
	 * What is reserved and not written costs no memory; a caller that
	 * zeroes its whole capacity writes up to 16 MiB more, once. (Wide
	 * gperftools profile -> folded: 160 -> 114 MB of huge pages cleared;
	 * folded text -> pprof 2.0 -> 1.7 s, by turns.) */
	while (n * size >= PD_HUGE_MIN && n * size < PD_HUGE_MOVE)
		n *= 2;
	if (pd_regrow(ptr, *cap * size, n * size) < 0)
		return PROFDATA_ENOMEM;
	*cap = n;
	return 0;
}

/*
 * A block of 8 MiB or more moves to a fresh block advised for huge pages
 * before it is filled: realloc would fill it in small pages (a block in the
 * heap is copied into fresh small pages). One of 32 MiB or more is
 * realloc'ed and then advised: glibc keeps such blocks in mappings of their
 * own and moves them with mremap, without a copy and without holding both
 * blocks at once, which would raise a heap dump's peak by its largest
 * column. (Huge pages moved to an address of another offset in 2 MiB cannot
 * stay huge: pprof -> folded measured 2.02 s copying every large block, 2.11 s
 * this way, 2.35 s realloc'ing them all; mean of 5.)
 */
int pd_regrow(void **ptr, size_t old_bytes, size_t new_bytes)
{
	void *p;
	if (new_bytes < PD_HUGE_MIN || old_bytes >= PD_HUGE_MOVE) {
		p = realloc(*ptr, new_bytes ? new_bytes : 1);
		if (p)
			pd_huge_advise(p, new_bytes);
	} else if ((p = malloc(new_bytes)) != NULL) {
		pd_huge_advise(p, new_bytes);
		if (old_bytes)
			memcpy(p, *ptr, old_bytes < new_bytes ? old_bytes : new_bytes);
		free(*ptr);
	}
	if (!p)
		return PROFDATA_ENOMEM;
	*ptr = p;
	return 0;
}

int pd_strbuf_add(pd_strbuf *b, const char *s, size_t n)
{
	if (pd_grow((void **)&b->p, &b->cap, b->n + n + 1, 1) < 0)
		return PROFDATA_ENOMEM;
	if (n)
		memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
	return 0;
}
