/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A column of 64-bit values kept in 32 bits for as long as every value
 * fits: value = base + (stored << shift), and UINT64_MAX (a column's "none")
 * is stored as UINT32_MAX. The model keeps object ids and payload positions
 * this way: a HotSpot dump's ids are addresses, 8-byte aligned and within
 * a few GB of each other, and its payloads lie in a file below 4 GB, so
 * each takes 4 bytes a row instead of 8. The first value that does not fit
 * widens the column to 64 bits for good, in one pass (12 bytes a row while
 * it runs); nothing else changes for the caller.
 *
 * A column that chooses its base (PD_COL_NEAR_FIRST) takes it from its
 * first value: shift = the value's trailing zero bits, at most 3, and base
 * up to 2^31 steps below it, so that values on either side of the first
 * fit. Otherwise base and shift are 0.
 */
#ifndef PD_UTIL_COLUMN_H
#define PD_UTIL_COLUMN_H

#include <stddef.h>
#include <stdint.h>

enum { PD_COL_FROM_ZERO = 0, PD_COL_NEAR_FIRST = 1 };

typedef struct pd_col64 {
	uint32_t *narrow;   /* while every value fits, else NULL */
	uint64_t *wide;     /* once one did not, else NULL */
	size_t cap;         /* rows allocated */
	uint64_t base;
	unsigned shift;
	int policy;         /* PD_COL_FROM_ZERO or PD_COL_NEAR_FIRST */
	int based;          /* base and shift are chosen */
} pd_col64;

void pd_col64_init(pd_col64 *c, int policy);
void pd_col64_free(pd_col64 *c);

/* Room for `cap` rows, those in use kept. 0 or PROFDATA_ENOMEM. */
int pd_col64_reserve(pd_col64 *c, size_t cap);

/* Row i (< cap) gets v; rows below `n` are in use. 0 or PROFDATA_ENOMEM (when it had to widen). */
int pd_col64_set(pd_col64 *c, size_t i, size_t n, uint64_t v);

/* Make the first `n` rows 64-bit (c->wide), as a caller that needs a plain array asks. */
int pd_col64_widen(pd_col64 *c, size_t n);

/* Bytes a row takes: 4 or 8. */
static inline size_t pd_col64_row_bytes(const pd_col64 *c) { return c->wide ? 8 : 4; }

static inline uint64_t pd_col64_get(const pd_col64 *c, size_t i)
{
	if (c->wide)
		return c->wide[i];
	uint32_t v = c->narrow[i];
	return v == UINT32_MAX ? UINT64_MAX : c->base + ((uint64_t)v << c->shift);
}

/* The first row in [lo, hi) whose value is not below v, rows ascending. */
size_t pd_col64_lower_bound(const pd_col64 *c, size_t lo, size_t hi, uint64_t v);

#endif
