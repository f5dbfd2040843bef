/* SPDX-License-Identifier: Apache-2.0 */
#include "util/column.h"
#include "util/base.h"
#include "util/huge.h"

#include <stdlib.h>
#include <string.h>

void pd_col64_init(pd_col64 *c, int policy)
{
	memset(c, 0, sizeof *c);
	c->policy = policy;
	c->based = policy == PD_COL_FROM_ZERO;
}

void pd_col64_free(pd_col64 *c)
{
	free(c->narrow);
	free(c->wide);
	pd_col64_init(c, c->policy);
}

int pd_col64_reserve(pd_col64 *c, size_t cap)
{
	size_t row = pd_col64_row_bytes(c);
	if (cap > SIZE_MAX / row)
		return PROFDATA_ENOMEM;
	void *grown = c->wide ? (void *)c->wide : (void *)c->narrow;
	if (pd_regrow(&grown, c->cap * row, (cap ? cap : 1) * row) < 0)
		return PROFDATA_ENOMEM;
	if (c->wide)
		c->wide = grown;
	else
		c->narrow = grown;
	c->cap = cap;
	return 0;
}

int pd_col64_widen(pd_col64 *c, size_t n)
{
	if (c->wide)
		return 0;
	uint64_t *wide = pd_huge_malloc(c->cap * sizeof *wide);
	if (!wide)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n; i++)
		wide[i] = pd_col64_get(c, i);
	free(c->narrow);
	c->narrow = NULL;
	c->wide = wide;
	return 0;
}

/* Base and shift from the first value: room on both sides of it. */
static void choose_base(pd_col64 *c, uint64_t v)
{
	unsigned shift = 0;
	while (shift < 3 && v && !(v & ((uint64_t)1 << shift)))
		shift++;
	if (!v)
		shift = 3;
	uint64_t steps = v >> shift < ((uint64_t)1 << 31) ? v >> shift : (uint64_t)1 << 31;
	c->shift = shift;
	c->base = v - (steps << shift);
	c->based = 1;
}

/* v's narrow form, or UINT32_MAX when it has none (UINT64_MAX's form is UINT32_MAX too). */
static uint32_t narrow_form(const pd_col64 *c, uint64_t v, int *fits)
{
	*fits = 1;
	if (v == UINT64_MAX)
		return UINT32_MAX;
	uint64_t d = v - c->base;
	if (v < c->base || (d & (((uint64_t)1 << c->shift) - 1)) || (d >> c->shift) >= UINT32_MAX) {
		*fits = 0;
		return UINT32_MAX;
	}
	return (uint32_t)(d >> c->shift);
}

int pd_col64_set(pd_col64 *c, size_t i, size_t n, uint64_t v)
{
	if (c->wide) {
		c->wide[i] = v;
		return 0;
	}
	if (!c->based && v != UINT64_MAX)
		choose_base(c, v);
	int fits;
	uint32_t s = narrow_form(c, v, &fits);
	if (fits) {
		c->narrow[i] = s;
		return 0;
	}
	if (pd_col64_widen(c, n) < 0)
		return PROFDATA_ENOMEM;
	c->wide[i] = v;
	return 0;
}

size_t pd_col64_lower_bound(const pd_col64 *c, size_t lo, size_t hi, uint64_t v)
{
	/* Narrow: search the 32-bit forms (half the memory touched); a v between two forms lands where it would. */
	uint64_t key = v;
	if (!c->wide) {
		if (v < c->base)
			return lo;
		uint64_t d = v - c->base;
		key = (d >> c->shift) + ((d & ((1u << c->shift) - 1)) != 0);
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((c->wide ? c->wide[mid] : c->narrow[mid]) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
