/* SPDX-License-Identifier: Apache-2.0 */
#include "util/id_index.h"
#include "util/base.h"
#include "util/huge.h"

#include <stdlib.h>
#include <string.h>

/* What one pass over the rows says of their values. */
typedef struct scan {
	int ascending;      /* strictly, so no value repeats */
	int bitmap;         /* narrow, dense, no "none" among them */
	uint64_t min_stored, max_stored;
} scan;

static scan scan_rows(const pd_col64 *col, size_t first, size_t end)
{
	scan s = { 1, col->narrow != NULL, UINT64_MAX, 0 };
	for (size_t i = first; i < end; i++) {
		uint64_t v = col->narrow ? col->narrow[i] : col->wide[i];
		if (i > first && v <= (col->narrow ? col->narrow[i - 1] : col->wide[i - 1]))
			s.ascending = 0;
		s.min_stored = v < s.min_stored ? v : s.min_stored;
		s.max_stored = v > s.max_stored ? v : s.max_stored;
	}
	uint64_t rows = end - first, dense = s.ascending ? PD_ID_INDEX_DENSE_ASCENDING : PD_ID_INDEX_DENSE_ANY_ORDER;
	if (s.max_stored == UINT32_MAX || rows >= UINT32_MAX || s.max_stored - s.min_stored >= dense * rows)
		s.bitmap = 0;
	return s;
}

/* Set the rows' bits, then each line's counts; the number of distinct values. */
static uint64_t fill_lines(uint64_t *lines, size_t nlines, const pd_col64 *col, const pd_id_index *ix)
{
	for (size_t i = ix->first; i < ix->end; i++) {
		uint64_t key = col->narrow[i] - ix->min_stored, b = key % PD_ID_LINE_VALUES;
		lines[(key / PD_ID_LINE_VALUES) * PD_ID_LINE_WORDS + 1 + b / 64] |= (uint64_t)1 << (b % 64);
	}
	uint64_t ranks = 0;
	for (size_t l = 0; l < nlines; l++) {
		uint64_t *w = lines + l * PD_ID_LINE_WORDS, head = ranks, in_line = 0;
		for (unsigned k = 1; k < PD_ID_LINE_WORDS; k++) {
			if (k == 3 || k == 5 || k == 7)
				head |= in_line << (32 + 9 * (k / 2 - 1));
			in_line += pd_popcount2(w[k], 0);
		}
		w[0] = head;
		ranks += in_line;
	}
	return ranks;
}

enum { MAP_BATCH = 64 };

/*
 * Values out of order: the rank -> row table, each rank's first row; the
 * later ones are repeats. The rows' ranks are read at random places of the
 * bitmap and written at random places of the table: in batches, each
 * step's lines prefetched by the step before (as pd_id_index_find_batch).
 */
static int map_ranks(pd_id_index *ix, const pd_col64 *col, uint64_t ranks, pd_id_repeat_cb repeat, void *payload)
{
	ix->row_of_rank = pd_huge_malloc((ranks ? ranks : 1) * sizeof(*ix->row_of_rank));
	if (!ix->row_of_rank)
		return PROFDATA_ENOMEM;
	memset(ix->row_of_rank, 0xff, ranks * sizeof(*ix->row_of_rank));
	uint64_t rank[MAP_BATCH];
	for (size_t at = ix->first; at < ix->end; at += MAP_BATCH) {
		size_t n = ix->end - at < MAP_BATCH ? ix->end - at : MAP_BATCH;
		for (size_t k = 0; k < n; k++)
			PD_PREFETCH(pd_id_index_line(ix, col->narrow[at + k] - ix->min_stored));
		for (size_t k = 0; k < n; k++) {
			rank[k] = pd_id_index_rank(ix->lines, col->narrow[at + k] - ix->min_stored);
			PD_PREFETCH(ix->row_of_rank + rank[k]);
		}
		for (size_t k = 0; k < n; k++) {
			uint32_t *row = &ix->row_of_rank[rank[k]];
			if (*row == UINT32_MAX)
				*row = (uint32_t)(at + k);
			else if (repeat)
				repeat(payload, at + k, *row);
		}
	}
	return 0;
}

static int build_bitmap(pd_id_index *ix, const pd_col64 *col, const scan *s, pd_id_repeat_cb repeat, void *payload)
{
	ix->min_stored = s->min_stored;
	ix->range = s->max_stored - s->min_stored + 1;
	size_t nlines = (size_t)(ix->range / PD_ID_LINE_VALUES) + 1, line_bytes = PD_ID_LINE_WORDS * 8;
	/* Aligned by hand (C99 has no aligned allocation): a lookup then touches one cache line. */
	ix->lines_alloc = pd_huge_calloc(nlines + 1, line_bytes);
	if (!ix->lines_alloc)
		return PROFDATA_ENOMEM;
	uintptr_t at = (uintptr_t)ix->lines_alloc;
	uint64_t *lines = (uint64_t *)(at + (line_bytes - at % line_bytes) % line_bytes);
	ix->lines = lines;
	uint64_t ranks = fill_lines(lines, nlines, col, ix);
	ix->kind = PD_ID_INDEX_BITMAP;
	if (s->ascending)
		return 0;
	return map_ranks(ix, col, ranks, repeat, payload);
}

enum { ROWS_PER_SLICE = 16 };

/* Ascending values: where each of about rows/16 equal slices of their range starts (4 bytes per 16 rows). */
static int build_slices(pd_id_index *ix, const pd_col64 *col)
{
	ix->kind = PD_ID_INDEX_SLICES;
	ix->min_value = pd_col64_get(col, ix->first);
	ix->max_value = pd_col64_get(col, ix->end - 1);
	if (ix->end >= UINT32_MAX)
		return 0; /* one slice: a binary search over every row */
	uint64_t range = ix->max_value - ix->min_value, want = (ix->end - ix->first) / ROWS_PER_SLICE + 1;
	unsigned shift = 0;
	while (shift < 63 && (range >> shift) >= want) /* values may span all 64 bits */
		shift++;
	size_t nslices = (size_t)(range >> shift) + 1;
	ix->slice_start = malloc((nslices + 1) * sizeof(*ix->slice_start));
	if (!ix->slice_start)
		return PROFDATA_ENOMEM;
	size_t i = ix->first;
	for (size_t b = 0; b <= nslices; b++) {
		while (i < ix->end && ((pd_col64_get(col, i) - ix->min_value) >> shift) < b)
			i++;
		ix->slice_start[b] = (uint32_t)i;
	}
	ix->slice_shift = shift;
	return 0;
}

static int build_hash(pd_id_index *ix, pd_col64 *col, size_t n, pd_id_repeat_cb repeat, void *payload)
{
	ix->kind = PD_ID_INDEX_HASH;
	if (pd_col64_widen(col, n) < 0 || pd_index_reserve(&ix->hash, col->wide, ix->end - ix->first) < 0)
		return PROFDATA_ENOMEM;
	for (size_t i = ix->first; i < ix->end; i++) {
		uint32_t first_row;
		int added = pd_index_add(&ix->hash, col->wide, (uint32_t)i, &first_row);
		if (added < 0)
			return PROFDATA_ENOMEM;
		if (added == 1 && repeat)
			repeat(payload, i, first_row);
	}
	return 0;
}

int pd_id_index_build(pd_id_index *ix, pd_col64 *col, size_t n, size_t first, size_t end, pd_id_repeat_cb repeat,
                      void *payload)
{
	memset(ix, 0, sizeof(*ix));
	ix->first = first;
	ix->end = end;
	if (first >= end)
		return 0;
	scan s = scan_rows(col, first, end);
	int e;
	if (s.bitmap)
		e = build_bitmap(ix, col, &s, repeat, payload);
	else if (s.ascending)
		e = build_slices(ix, col);
	else
		e = build_hash(ix, col, n, repeat, payload);
	if (e < 0)
		pd_id_index_free(ix);
	return e;
}

void pd_id_index_free(pd_id_index *ix)
{
	PD_FREE_ALL(ix->lines_alloc, ix->row_of_rank, ix->slice_start);
	pd_index_free(&ix->hash);
	memset(ix, 0, sizeof(*ix));
}

size_t pd_id_index_find_other(const pd_id_index *ix, const pd_col64 *col, uint64_t value)
{
	if (ix->kind == PD_ID_INDEX_HASH) {
		uint32_t row;
		return pd_index_find(&ix->hash, col->wide, value, &row) ? row : SIZE_MAX;
	}
	if (ix->kind != PD_ID_INDEX_SLICES || value < ix->min_value || value > ix->max_value)
		return SIZE_MAX;
	size_t lo = ix->first, hi = ix->end;
	if (ix->slice_start) {
		size_t b = (size_t)((value - ix->min_value) >> ix->slice_shift);
		lo = ix->slice_start[b];
		hi = ix->slice_start[b + 1];
	}
	lo = pd_col64_lower_bound(col, lo, hi, value);
	return lo < hi && pd_col64_get(col, lo) == value ? lo : SIZE_MAX;
}

/* The hash index's batch: its first slots prefetched, then the lookups. */
static void find_batch_other(const pd_id_index *ix, const pd_col64 *col, const uint64_t *values, size_t n,
                             size_t *rows)
{
	if (ix->kind == PD_ID_INDEX_HASH)
		for (size_t k = 0; k < n; k++)
			pd_index_prefetch(&ix->hash, values[k]);
	for (size_t k = 0; k < n; k++)
		rows[k] = pd_id_index_find_other(ix, col, values[k]);
}

void pd_id_index_find_batch(const pd_id_index *ix, const pd_col64 *col, const uint64_t *values, size_t n,
                            size_t *rows)
{
	if (ix->kind != PD_ID_INDEX_BITMAP) {
		find_batch_other(ix, col, values, n, rows);
		return;
	}
	/* rows[] holds each value's key, then its rank, then its row; UINT64_MAX (SIZE_MAX) once it is not found. */
	for (size_t k = 0; k < n; k++) {
		uint64_t key = pd_id_index_key(ix, col, values[k]);
		rows[k] = key == UINT64_MAX ? SIZE_MAX : (size_t)key;
		if (key != UINT64_MAX)
			PD_PREFETCH(pd_id_index_line(ix, key));
	}
	for (size_t k = 0; k < n; k++) {
		uint64_t rank = rows[k] == SIZE_MAX ? UINT64_MAX : pd_id_index_rank(ix->lines, rows[k]);
		rows[k] = rank == UINT64_MAX ? SIZE_MAX : (size_t)rank;
		if (rank != UINT64_MAX && ix->row_of_rank)
			PD_PREFETCH(ix->row_of_rank + rank);
	}
	for (size_t k = 0; k < n; k++)
		if (rows[k] != SIZE_MAX)
			rows[k] = ix->row_of_rank ? ix->row_of_rank[rows[k]] : ix->first + rows[k];
}
