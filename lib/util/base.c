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
	/*
	 * A large array moves to a new block advised for huge pages before it is
	 * filled: realloc would fill it in small pages first (a block in the heap
	 * is copied), or split the huge pages it moves (mremap to an address not
	 * 2 MiB aligned). Measured: pprof -> folded 2.35 s with realloc and
	 * advice after it, 2.02 s this way (mean of 5).
	 */
	void *p;
	if (n * size < PD_HUGE_MIN) {
		p = realloc(*ptr, n * size);
	} else if ((p = malloc(n * size)) != NULL) {
		pd_huge_advise(p, n * size);
		if (*cap)
			memcpy(p, *ptr, *cap * size);
		free(*ptr);
	}
	if (!p)
		return PROFDATA_ENOMEM;
	*ptr = p;
	*cap = n;
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
