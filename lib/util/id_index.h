/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which row of a column (util/column.h) holds a value: the model's object
 * id -> row lookup, which the heap analysis asks once per reference (tens
 * of millions of times), so it is built once and answers with about one
 * cache miss.
 *
 * While the column is narrow and its stored values are dense, it is a rank bitmap over the
 * stored values from the least to the greatest: a bit per value present, in
 * 64-byte lines that each begin with the count of bits set before them. A
 * lookup reads one line: the bit says whether the value is there (no id is
 * compared), and its rank (the bits set before it) is the row when values
 * ascend with the rows, else an index into a rank -> row table (4 bytes a
 * row), so ids in any order stay narrow. A HotSpot dump's ids are 8-byte
 * aligned addresses, about 4.5 stored values apart: about 0.65 bytes an
 * object.
 *
 * Dense: a range of stored values at most PD_ID_INDEX_DENSE_ASCENDING times
 * the rows when they ascend (the bitmap then costs at most 1.14 bytes a row,
 * where the slices below cost 0.25), PD_ID_INDEX_DENSE_ANY_ORDER times
 * otherwise (at most 9.1 + 4 bytes a row, where a hash index over the
 * widened column costs 9-15).
 *
 * Otherwise (a wide column, or values too sparse for a bitmap), values that
 * ascend are found by a short binary search in one of the equal slices of
 * their range (4 bytes per 16 rows), and others through a hash index
 * (util/hashmap.h), which reads its keys from a wide column: building one
 * widens the column.
 *
 * A value that several rows hold is found at the first; the build tells its
 * caller of every later one.
 */
#ifndef PD_UTIL_ID_INDEX_H
#define PD_UTIL_ID_INDEX_H

#include "util/column.h"
#include "util/hashmap.h"

#include <stddef.h>
#include <stdint.h>

#define PD_ID_INDEX_DENSE_ASCENDING 8
#define PD_ID_INDEX_DENSE_ANY_ORDER 64

/*
 * A bitmap line: word 0 holds the ranks before the line (low 32 bits) and
 * those before words 3, 5 and 7 counted from the line's start (9 bits each,
 * from bit 32), words 1-7 the line's 448 values; so a rank is the line's
 * counts plus the bits of at most two words.
 */
#define PD_ID_LINE_WORDS 8
#define PD_ID_LINE_VALUES 448

enum { PD_ID_INDEX_EMPTY, PD_ID_INDEX_BITMAP, PD_ID_INDEX_SLICES, PD_ID_INDEX_HASH };

typedef struct pd_id_index {
	int kind;
	size_t first, end;          /* the rows indexed */
	/* PD_ID_INDEX_BITMAP */
	const uint64_t *lines;      /* 64-byte aligned, inside `lines_alloc` */
	void *lines_alloc;
	uint64_t min_stored, range; /* a value's key: its stored form - min_stored, below range */
	uint32_t *row_of_rank;      /* NULL while the values ascend with the rows: row = first + rank */
	/* PD_ID_INDEX_SLICES: where each slice of the value range starts (NULL: one slice, all rows) */
	uint32_t *slice_start;
	unsigned slice_shift;
	uint64_t min_value, max_value;
	/* PD_ID_INDEX_HASH */
	pd_index hash;
} pd_id_index;

/* Told of row `row`, whose value row `first_row` (the first that holds it) holds too. */
typedef void (*pd_id_repeat_cb)(void *payload, size_t row, size_t first_row);

/*
 * Index rows [first, end) of column `col`, which has `n` rows in use (the
 * hash fallback widens all of them). repeat (may be NULL) hears of every row
 * whose value an earlier indexed row holds. 0 or PROFDATA_ENOMEM; *ix is
 * then empty (free it either way).
 */
int pd_id_index_build(pd_id_index *ix, pd_col64 *col, size_t n, size_t first, size_t end, pd_id_repeat_cb repeat,
                      void *payload);
void pd_id_index_free(pd_id_index *ix);

/* The fallbacks' lookup (not a bitmap). */
size_t pd_id_index_find_other(const pd_id_index *ix, const pd_col64 *col, uint64_t value);

/* Set bits of a and b together. */
static inline unsigned pd_popcount2(uint64_t a, uint64_t b)
{
#if defined(__POPCNT__)
	return (unsigned)(__builtin_popcountll(a) + __builtin_popcountll(b));
#else
	const uint64_t m1 = 0x5555555555555555ull, m2 = 0x3333333333333333ull, m4 = 0x0f0f0f0f0f0f0f0full;
	a -= (a >> 1) & m1;
	b -= (b >> 1) & m1;
	a = (a & m2) + ((a >> 2) & m2);
	b = (b & m2) + ((b >> 2) & m2);
	a = (a + (a >> 4)) & m4;
	b = (b + (b >> 4)) & m4;
	return (unsigned)(((a + b) * 0x0101010101010101ull) >> 56);
#endif
}

/* The rank of bitmap key `key`, or UINT64_MAX when its bit is clear. */
static inline uint64_t pd_id_index_rank(const uint64_t *lines, uint64_t key)
{
	const uint64_t *w = lines + (key / PD_ID_LINE_VALUES) * PD_ID_LINE_WORDS;
	unsigned b = (unsigned)(key % PD_ID_LINE_VALUES), word = 1 + b / 64, bit = b % 64;
	if (!((w[word] >> bit) & 1))
		return UINT64_MAX;
	unsigned group = (word - 1) / 2, lead = 1 + 2 * group; /* words 1-2, 3-4, 5-6, 7 */
	uint64_t before = ((uint64_t)1 << bit) - 1;
	unsigned counted = group ? (unsigned)(w[0] >> (32 + 9 * (group - 1))) & 511 : 0;
	uint64_t lead_mask = word == lead ? before : UINT64_MAX, own_mask = word == lead ? 0 : before;
	return (w[0] & UINT32_MAX) + counted + pd_popcount2(w[lead] & lead_mask, w[word] & own_mask);
}

/* A bitmap index's key for `value` (its stored form, exact), or UINT64_MAX when no row can hold it. */
static inline uint64_t pd_id_index_key(const pd_id_index *ix, const pd_col64 *col, uint64_t value)
{
	/* A value the column cannot hold narrow lands outside the range. */
	uint64_t d = value - col->base;
	if (value < col->base || (d & (((uint64_t)1 << col->shift) - 1)))
		return UINT64_MAX;
	uint64_t key = (d >> col->shift) - ix->min_stored;
	return key < ix->range ? key : UINT64_MAX;
}

/* The bitmap line that holds key `key`. */
static inline const uint64_t *pd_id_index_line(const pd_id_index *ix, uint64_t key)
{
	return ix->lines + (key / PD_ID_LINE_VALUES) * PD_ID_LINE_WORDS;
}

/* The first indexed row whose value is `value`, or SIZE_MAX. */
static inline size_t pd_id_index_find(const pd_id_index *ix, const pd_col64 *col, uint64_t value)
{
	if (ix->kind != PD_ID_INDEX_BITMAP)
		return pd_id_index_find_other(ix, col, value);
	uint64_t key = pd_id_index_key(ix, col, value);
	if (key == UINT64_MAX)
		return SIZE_MAX;
	uint64_t rank = pd_id_index_rank(ix->lines, key);
	if (rank == UINT64_MAX)
		return SIZE_MAX;
	return ix->row_of_rank ? ix->row_of_rank[rank] : ix->first + (size_t)rank;
}

/*
 * Whether the values ascend with the rows (no rank -> row table, or no
 * bitmap at all but the slices or nothing): found rows then follow the
 * order the values were written in.
 */
static inline int pd_id_index_in_row_order(const pd_id_index *ix)
{
	return ix->kind == PD_ID_INDEX_SLICES || ix->kind == PD_ID_INDEX_EMPTY ||
	       (ix->kind == PD_ID_INDEX_BITMAP && !ix->row_of_rank);
}

/*
 * rows[k] = pd_id_index_find(ix, col, values[k]) for k < n, the same
 * answers faster: a lookup by itself waits for its misses one after the
 * other (the line, then the rank's row), and a pass that resolves every
 * reference of a dump waits for little else. Here each step runs over the
 * whole batch, prefetching what the next step reads, so a batch's misses
 * are in flight together.
 */
void pd_id_index_find_batch(const pd_id_index *ix, const pd_col64 *col, const uint64_t *values, size_t n,
                            size_t *rows);

#endif
