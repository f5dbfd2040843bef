/* SPDX-License-Identifier: Apache-2.0 */
/* lib/util: the string interner (pd_intern), the id map (pd_map), the seeded byte-string hash (pd_hash_bytes)
 * the narrow-while-it-fits column (pd_col64), numbers written as text (numtext.h) and growth past the huge-page size. */
#include "support.h"
#include "util/column.h"
#include "util/hashmap.h"
#include "util/huge.h"
#include "util/id_index.h"
#include "util/numtext.h"
#include "util/path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * An array grown past PD_HUGE_MIN moves to a fresh block, and past
 * PD_HUGE_MOVE is realloc'ed (huge.h): either way what it held comes along.
 * A mark at the end of each size it had, rather than every element: the
 * test stays quick under valgrind.
 */
START_TEST(grow_past_the_huge_sizes_keeps_the_contents)
{
	uint32_t *a = NULL;
	size_t cap = 0, last = PD_HUGE_MOVE / sizeof *a * 2;
	for (size_t k = 1; k <= last; k *= 2) {
		if (pd_grow((void **)&a, &cap, k, sizeof *a) != 0)
			ck_abort_msg("growing to %zu elements failed", k);
		a[k - 1] = (uint32_t)k * 2654435761u;
	}
	ck_assert_uint_ge(cap, last);
	for (size_t k = 1; k <= last; k *= 2)
		if (a[k - 1] != (uint32_t)k * 2654435761u)
			ck_abort_msg("the mark at %zu changed", k - 1);
	ck_assert_int_eq(pd_regrow((void **)&a, cap * sizeof *a, 16), 0); /* shrinks keep the head */
	ck_assert_uint_eq(a[0], 2654435761u);
	pd_huge_advise(NULL, PD_HUGE_MIN); /* a hint: nothing to do */
	free(a);
	void *z = pd_huge_calloc(PD_HUGE_MIN / 8, 8);
	ck_assert_ptr_nonnull(z);
	ck_assert_int_eq(((const unsigned char *)z)[PD_HUGE_MIN - 1], 0);
	free(z);
}
END_TEST

static uint32_t put(pd_intern *t, const char *s, size_t len, int want)
{
	uint32_t index = UINT32_MAX;
	ck_assert_int_eq(pd_intern_put(t, s, len, &index), want);
	return index;
}

START_TEST(paths_clean_as_go_cleans_them)
{
	/* Go's filepath.Clean on each (what pprof shows as a source file). */
	static const char *const cases[][2] = {
		{ "./malloc/malloc.c", "malloc/malloc.c" }, { "../csu/libc-start.c", "../csu/libc-start.c" },
		{ "a//b/./c/", "a/b/c" }, { "a/b/../../..", ".." }, { "/../x", "/x" }, { "/", "/" },
		{ ".", "." }, { "a/..", "." }, { "../../a/b/../c", "../../a/c" }, { "//x//y//", "/x/y" },
		{ "a/../../b", "../b" }, { "/a/b/../../../c", "/c" }, { "..a/.b/..", "..a" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pd_strbuf b = { NULL, 0, 0 };
		ck_assert_int_eq(pd_strbuf_add(&b, "x ", 2), 0); /* appended after what the buffer holds */
		ck_assert_int_eq(pd_strbuf_add_clean_path(&b, cases[i][0]), 0);
		ck_assert_str_eq(b.p + 2, cases[i][1]);
		free(b.p);
	}
}
END_TEST

START_TEST(intern_numbers_in_first_seen_order)
{
	pd_intern t;
	memset(&t, 0, sizeof t);
	uint32_t index;
	ck_assert_int_eq(pd_intern_find(&t, "run", 3, &index), 0); /* empty: nothing allocated yet */
	ck_assert_uint_eq(put(&t, "run", 3, 0), 0);
	ck_assert_uint_eq(put(&t, "main", 4, 0), 1);
	ck_assert_uint_eq(put(&t, "run", 3, 1), 0);
	ck_assert_uint_eq(put(&t, "()V", 3, 0), 2);
	ck_assert_uint_eq(put(&t, "main", 4, 1), 1);
	ck_assert_uint_eq(t.n, 3);
	/* a prefix and an extension are other strings */
	ck_assert_uint_eq(put(&t, "ru", 2, 0), 3);
	ck_assert_uint_eq(put(&t, "runs", 4, 0), 4);
	ck_assert_int_eq(pd_intern_find(&t, "main", 4, &index), 1);
	ck_assert_uint_eq(index, 1);
	ck_assert_int_eq(pd_intern_find(&t, "mai", 3, &index), 0);
	ck_assert_int_eq(pd_intern_find(&t, "Main", 4, &index), 0);
	size_t len;
	ck_assert_str_eq(pd_intern_str(&t, 0, &len), "run");
	ck_assert_uint_eq(len, 3);
	ck_assert_str_eq(pd_intern_str(&t, 2, &len), "()V");
	ck_assert_str_eq(pd_intern_str(&t, 3, NULL), "ru");
	/* the key need not be NUL-terminated: only `len` bytes count */
	ck_assert_uint_eq(put(&t, "mainly", 4, 1), 1);
	pd_intern_free(&t);
	ck_assert_uint_eq(t.n, 0);
	ck_assert_ptr_null(t.bytes);
	/* freed is empty again, and usable */
	ck_assert_uint_eq(put(&t, "again", 5, 0), 0);
	pd_intern_free(&t);
}
END_TEST

START_TEST(intern_empty_string_and_embedded_nuls)
{
	pd_intern t;
	memset(&t, 0, sizeof t);
	uint32_t index;
	ck_assert_uint_eq(put(&t, "", 0, 0), 0);
	ck_assert_uint_eq(put(&t, "a\0b", 3, 0), 1);
	ck_assert_uint_eq(put(&t, "a", 1, 0), 2);
	ck_assert_uint_eq(put(&t, "a\0", 2, 0), 3);
	ck_assert_uint_eq(put(&t, "\0", 1, 0), 4);
	ck_assert_uint_eq(put(&t, "a\0c", 3, 0), 5);
	ck_assert_uint_eq(put(&t, "", 0, 1), 0);
	ck_assert_uint_eq(put(&t, "a\0b", 3, 1), 1);
	ck_assert_uint_eq(put(&t, "\0", 1, 1), 4);
	ck_assert_int_eq(pd_intern_find(&t, "", 0, &index), 1);
	ck_assert_uint_eq(index, 0);
	size_t len;
	const char *s = pd_intern_str(&t, 0, &len);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(s[0], '\0');
	s = pd_intern_str(&t, 1, &len);
	ck_assert_uint_eq(len, 3);
	ck_assert_mem_eq(s, "a\0b", 4); /* and NUL-terminated after its bytes */
	s = pd_intern_str(&t, 3, &len);
	ck_assert_uint_eq(len, 2);
	ck_assert_mem_eq(s, "a\0", 3);
	pd_intern_free(&t);
}
END_TEST

/*
 * A lookup by a hash taken beforehand (the batched lookups of the folded
 * reader): it finds what pd_intern_find() finds; a hash taken before the
 * first string (the seed is drawn then) finds nothing, and pd_intern_add()
 * then finds the string itself. The prefetches are hints on any table.
 */
START_TEST(intern_find_by_hash_taken_before)
{
	pd_intern t;
	memset(&t, 0, sizeof t);
	uint32_t index;
	uint64_t early = pd_intern_hash(&t, "run", 3);
	pd_intern_prefetch_slot(&t, early);
	pd_intern_prefetch_string(&t, early);
	ck_assert_int_eq(pd_intern_find_hashed(&t, "run", 3, early, &index), 0);
	put(&t, "run", 3, 0);
	put(&t, "main", 4, 0);
	uint64_t h = pd_intern_hash(&t, "main", 4);
	pd_intern_prefetch_slot(&t, h);
	pd_intern_prefetch_string(&t, h);
	ck_assert_int_eq(pd_intern_find_hashed(&t, "main", 4, h, &index), 1);
	ck_assert_uint_eq(index, 1);
	ck_assert_int_eq(pd_intern_find_hashed(&t, "mai", 3, pd_intern_hash(&t, "mai", 3), &index), 0);
	ck_assert_int_eq(pd_intern_add(&t, "run", 3, &index), 1); /* found by add, not added again */
	ck_assert_uint_eq(index, 0);
	ck_assert_uint_eq(t.n, 2);
	pd_intern_free(&t);
}
END_TEST

/* Many strings: each keeps its index and bytes through every growth of the table and the byte store. */
START_TEST(intern_many_strings_through_growth)
{
	enum { N = 60000 };
	pd_intern t;
	memset(&t, 0, sizeof t);
	char buf[64];
	/* only indexes are kept: pointers into the store move as it grows */
	for (uint32_t i = 0; i < N; i++) {
		/* lengths 1 to 40, so the store holds strings of every size */
		int n = snprintf(buf, sizeof buf, "%u/%.*s", i, (int)(i % 32), "java/lang/String.hashCode()I____");
		ck_assert_uint_eq(put(&t, buf, (size_t)n, 0), i);
	}
	ck_assert_uint_eq(t.n, N);
	for (uint32_t i = 0; i < N; i += 7) {
		int n = snprintf(buf, sizeof buf, "%u/%.*s", i, (int)(i % 32), "java/lang/String.hashCode()I____");
		uint32_t index;
		ck_assert_int_eq(pd_intern_find(&t, buf, (size_t)n, &index), 1);
		ck_assert_uint_eq(index, i);
		ck_assert_uint_eq(put(&t, buf, (size_t)n, 1), i);
		size_t len;
		const char *s = pd_intern_str(&t, i, &len);
		ck_assert_uint_eq(len, (size_t)n);
		ck_assert_mem_eq(s, buf, (size_t)n + 1);
	}
	ck_assert_uint_eq(t.n, N);
	ck_assert_int_eq(pd_intern_find(&t, "60000/", 6, &(uint32_t){ 0 }), 0);
	/* at most 3/4 full */
	ck_assert_uint_le(t.n * 4, (t.mask + 1) * 3);
	pd_intern_free(&t);
}
END_TEST

/* Strings sharing long prefixes and differing in one byte anywhere, over the 8-byte steps of the hash. */
START_TEST(intern_near_misses)
{
	pd_intern t;
	memset(&t, 0, sizeof t);
	char s[40];
	uint32_t next = 0;
	for (size_t len = 1; len <= sizeof s; len++) {
		memset(s, 'x', sizeof s);
		ck_assert_uint_eq(put(&t, s, len, 0), next++);
		for (size_t at = 0; at < len; at++) {
			s[at] = 'y';
			ck_assert_uint_eq(put(&t, s, len, 0), next++);
			s[at] = 'x';
		}
	}
	ck_assert_uint_eq(t.n, next);
	pd_intern_free(&t);
}
END_TEST

START_TEST(hash_bytes_equal_inputs_equal_hashes)
{
	/* the same bytes at another address (and alignment) hash the same */
	static const char text[] = "java/util/concurrent/ConcurrentHashMap$Node";
	char *copy = malloc(sizeof text + 3);
	ck_assert_ptr_nonnull(copy);
	for (size_t shift = 0; shift < 4; shift++) {
		memcpy(copy + shift, text, sizeof text);
		for (size_t len = 0; len < sizeof text; len++)
			ck_assert_uint_eq(pd_hash_bytes(copy + shift, len, 42), pd_hash_bytes(text, len, 42));
	}
	free(copy);
}
END_TEST

START_TEST(hash_bytes_differ_by_seed_length_and_content)
{
	static const char text[] = "java/util/concurrent/ConcurrentHashMap$Node\0\0\0\0\0\0\0\0";
	const uint64_t seeds[] = { 1, 2, 3, 0x9e3779b97f4a7c15ULL, UINT64_MAX };
	const size_t nseeds = sizeof seeds / sizeof seeds[0];
	for (size_t len = 0; len < sizeof text; len++) {
		/* different seeds give different hashes of the same bytes */
		for (size_t a = 0; a < nseeds; a++)
			for (size_t b = a + 1; b < nseeds; b++)
				ck_assert_msg(pd_hash_bytes(text, len, seeds[a]) != pd_hash_bytes(text, len, seeds[b]),
				              "length %zu: seeds %zu and %zu agree", len, a, b);
		/* a string and the same followed by NULs differ: the length counts */
		if (len)
			ck_assert_uint_ne(pd_hash_bytes(text, len, 7), pd_hash_bytes(text, len - 1, 7));
	}
	/* one changed bit anywhere changes the hash */
	char buf[24];
	memset(buf, 0, sizeof buf);
	uint64_t base = pd_hash_bytes(buf, sizeof buf, 7);
	for (size_t bit = 0; bit < 8 * sizeof buf; bit++) {
		buf[bit / 8] ^= (char)(1u << (bit % 8));
		ck_assert_uint_ne(pd_hash_bytes(buf, sizeof buf, 7), base);
		buf[bit / 8] ^= (char)(1u << (bit % 8));
	}
}
END_TEST

/* Two interners draw their own seeds, so no one input collides in both (pd_hash_seed). */
START_TEST(interners_draw_their_own_seeds)
{
	pd_intern a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	put(&a, "x", 1, 0);
	put(&b, "x", 1, 0);
	ck_assert_uint_ne(a.seed, 0);
	ck_assert_uint_ne(b.seed, 0);
	ck_assert_uint_ne(a.seed, b.seed);
	pd_intern_free(&a);
	pd_intern_free(&b);
}
END_TEST

/*
 * Puts and removals mixed at random against a plain array: every key is
 * found exactly while it is in, through growth and the backward shifts that
 * removal makes (keys drawn from a small range, so that runs collide).
 */
START_TEST(map_remove_keeps_every_other_key)
{
	enum { RANGE = 5000, STEPS = 200000 };
	static uint32_t ref[RANGE];
	pd_map m;
	memset(&m, 0, sizeof m);
	memset(ref, 0, sizeof ref);
	uint64_t x = 88172645463325252ULL;
	size_t n = 0;
	for (uint32_t step = 1; step <= STEPS; step++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t key = x % RANGE;
		if ((x >> 32) % 3 == 0) {
			ck_assert_int_eq(pd_map_remove(&m, key * 977), ref[key] != 0);
			n -= ref[key] != 0;
			ref[key] = 0;
		} else {
			ck_assert_int_eq(pd_map_put(&m, key * 977, step), 0);
			n += ref[key] == 0;
			ref[key] = step;
		}
		if (step % 20000 == 0)
			for (uint64_t k = 0; k < RANGE; k++)
				ck_assert_uint_eq(pd_map_get(&m, k * 977), ref[k]);
	}
	ck_assert_uint_eq(m.n, n);
	for (uint64_t k = 0; k < RANGE; k++)
		if (ref[k])
			ck_assert_int_eq(pd_map_remove(&m, k * 977), 1);
	ck_assert_uint_eq(m.n, 0);
	ck_assert_int_eq(pd_map_remove(&m, 1), 0);
	pd_map_free(&m);
}
END_TEST

/* A cleared map is empty, keeps its slots, and takes the same keys again without growing. */
START_TEST(map_clear_keeps_its_slots)
{
	pd_map m;
	memset(&m, 0, sizeof m);
	for (uint64_t k = 1; k <= 1000; k++)
		ck_assert_int_eq(pd_map_put(&m, k * 31, (uint32_t)k), 0);
	size_t cap = m.cap;
	uint32_t *vals = m.vals;
	pd_map_clear(&m);
	ck_assert_uint_eq(m.n, 0);
	ck_assert_uint_eq(m.cap, cap);
	for (uint64_t k = 1; k <= 1000; k++)
		ck_assert_uint_eq(pd_map_get(&m, k * 31), 0);
	for (uint64_t k = 1; k <= 1000; k++)
		ck_assert_int_eq(pd_map_put(&m, k * 17, (uint32_t)k + 1), 0);
	ck_assert_ptr_eq(m.vals, vals);
	ck_assert_uint_eq(pd_map_get(&m, 17 * 500), 501);
	ck_assert_uint_eq(m.n, 1000);
	pd_map_free(&m);
	pd_map_clear(&m); /* an empty map: nothing to clear */
	ck_assert_uint_eq(m.cap, 0);
}
END_TEST

/*
 * Keys numbered from some start (as decoders number frames) need no table
 * until one breaks the run; after it, and after a reserve, every row is
 * still found, and repeats are said whichever way the index is kept.
 */
START_TEST(index_run_then_table)
{
	enum { N = 3000 };
	static uint64_t keys[N + 2];
	pd_index ix;
	uint32_t row = UINT32_MAX;
	memset(&ix, 0, sizeof ix);
	ck_assert_int_eq(pd_index_find(&ix, keys, 7, &row), 0); /* empty */
	for (uint32_t i = 0; i < N; i++) {
		keys[i] = 41 + i;
		ck_assert_int_eq(pd_index_add(&ix, keys, i, NULL), 0);
	}
	ck_assert_ptr_null(ix.slots);
	keys[N] = 41 + 17; /* a repeat inside the run */
	ck_assert_int_eq(pd_index_add(&ix, keys, N, &row), 1);
	ck_assert_uint_eq(row, 17);
	ck_assert_int_eq(pd_index_find(&ix, keys, 40, &row), 0);
	ck_assert_int_eq(pd_index_find(&ix, keys, 41 + N, &row), 0);
	ck_assert_int_eq(pd_index_find(&ix, keys, 41 + N - 1, &row), 1);
	ck_assert_uint_eq(row, N - 1);
	keys[N] = 5; /* breaks the run */
	ck_assert_int_eq(pd_index_add(&ix, keys, N, NULL), 0);
	ck_assert_ptr_nonnull(ix.slots);
	keys[N + 1] = 41 + 99;
	ck_assert_int_eq(pd_index_add(&ix, keys, N + 1, &row), 1);
	ck_assert_uint_eq(row, 99);
	for (uint32_t i = 0; i <= N; i++) {
		ck_assert_int_eq(pd_index_find(&ix, keys, keys[i], &row), 1);
		ck_assert_uint_eq(row, i);
	}
	pd_index_free(&ix);
	/* a run made into a table by a reserve */
	for (uint32_t i = 0; i < 100; i++)
		ck_assert_int_eq(pd_index_add(&ix, keys, i, NULL), 0);
	ck_assert_int_eq(pd_index_reserve(&ix, keys, 1000), 0);
	ck_assert_ptr_nonnull(ix.slots);
	for (uint32_t i = 0; i < 100; i++) {
		ck_assert_int_eq(pd_index_find(&ix, keys, keys[i], &row), 1);
		ck_assert_uint_eq(row, i);
	}
	ck_assert_int_eq(pd_index_find(&ix, keys, keys[100], &row), 0);
	pd_index_free(&ix);
}
END_TEST

/* Fill a column with `n` values from `value`, checking every row after each set. */
static void fill_column(pd_col64 *c, size_t n, uint64_t (*value)(size_t))
{
	for (size_t i = 0; i < n; i++) {
		if (i == c->cap)
			ck_assert_int_eq(pd_col64_reserve(c, c->cap ? c->cap * 2 : 4), 0);
		ck_assert_int_eq(pd_col64_set(c, i, i, value(i)), 0);
	}
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(pd_col64_get(c, i), value(i));
}

static uint64_t aligned_ids(size_t i) { return UINT64_C(0x640000000) + 24 * (uint64_t)i; }
static uint64_t ids_then_one_below(size_t i) { return i == 50 ? UINT64_C(0x1000) : aligned_ids(i); }
static uint64_t ids_then_misaligned(size_t i) { return i == 70 ? aligned_ids(i) + 4 : aligned_ids(i); }
static uint64_t positions_with_none(size_t i) { return i % 7 == 3 ? UINT64_MAX : 1000 * (uint64_t)i; }
static uint64_t positions_past_4gib(size_t i) { return i == 90 ? UINT64_C(5) << 30 : 1000 * (uint64_t)i; }

/* 4 bytes a row while values fit, every value back unchanged, widened once one does not. */
START_TEST(column_narrow_until_a_value_does_not_fit)
{
	pd_col64 c;
	pd_col64_init(&c, PD_COL_NEAR_FIRST);
	fill_column(&c, 100, aligned_ids);
	ck_assert_uint_eq(pd_col64_row_bytes(&c), 4);
	ck_assert_uint_eq(c.shift, 3);
	pd_col64_free(&c);
	uint64_t (*widening[])(size_t) = { ids_then_one_below, ids_then_misaligned };
	for (size_t k = 0; k < 2; k++) {
		pd_col64_init(&c, PD_COL_NEAR_FIRST);
		fill_column(&c, 100, widening[k]);
		ck_assert_uint_eq(pd_col64_row_bytes(&c), 8);
		pd_col64_free(&c);
	}
	pd_col64_init(&c, PD_COL_FROM_ZERO);
	fill_column(&c, 100, positions_with_none);
	ck_assert_uint_eq(pd_col64_row_bytes(&c), 4);
	pd_col64_free(&c);
	pd_col64_init(&c, PD_COL_FROM_ZERO);
	fill_column(&c, 100, positions_past_4gib);
	ck_assert_uint_eq(pd_col64_row_bytes(&c), 8);
	pd_col64_free(&c);
}
END_TEST

/* lower_bound finds every value and the place of values between, below and above, narrow or wide. */
START_TEST(column_lower_bound_narrow_and_wide)
{
	for (int wide = 0; wide < 2; wide++) {
		pd_col64 c;
		pd_col64_init(&c, PD_COL_NEAR_FIRST);
		fill_column(&c, 100, aligned_ids);
		if (wide)
			ck_assert_int_eq(pd_col64_widen(&c, 100), 0);
		for (size_t i = 0; i < 100; i++) {
			ck_assert_uint_eq(pd_col64_lower_bound(&c, 0, 100, aligned_ids(i)), i);
			ck_assert_uint_eq(pd_col64_lower_bound(&c, 0, 100, aligned_ids(i) + 1), i + 1);
			ck_assert_uint_eq(pd_col64_lower_bound(&c, 0, 100, aligned_ids(i) - 1), i);
		}
		ck_assert_uint_eq(pd_col64_lower_bound(&c, 0, 100, 0), 0);
		ck_assert_uint_eq(pd_col64_lower_bound(&c, 0, 100, UINT64_MAX - 1), 100);
		ck_assert_uint_eq(pd_col64_lower_bound(&c, 10, 20, aligned_ids(50)), 20);
		pd_col64_free(&c);
	}
}
END_TEST

/* A column of `n` rows holding values[0..n). */
static void column_of(pd_col64 *c, const uint64_t *values, size_t n)
{
	pd_col64_init(c, PD_COL_NEAR_FIRST);
	ck_assert_int_eq(pd_col64_reserve(c, n), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(pd_col64_set(c, i, i, values[i]), 0);
}

/* The repeats an index build reported, as "row:first_row" pairs. */
typedef struct repeats {
	size_t row[16], first_row[16], n;
} repeats;

static void note_repeat(void *payload, size_t row, size_t first_row)
{
	repeats *r = payload;
	ck_assert_uint_lt(r->n, 16);
	r->row[r->n] = row;
	r->first_row[r->n++] = first_row;
}

/* The batch lookup answers as the single one, in batches of an odd size: the values, then those beside them. */
static void check_batches(const pd_id_index *ix, const pd_col64 *c, const uint64_t *values, size_t n,
                          const uint64_t *beside, size_t nbeside)
{
	enum { BATCH = 37 };
	uint64_t ask[BATCH];
	size_t rows[BATCH];
	for (size_t at = 0; at < n + nbeside; at += BATCH) {
		size_t m = n + nbeside - at < BATCH ? n + nbeside - at : BATCH;
		for (size_t k = 0; k < m; k++)
			ask[k] = at + k < n ? values[at + k] : beside[at + k - n];
		pd_id_index_find_batch(ix, c, ask, m, rows);
		for (size_t k = 0; k < m; k++)
			ck_assert_uint_eq(rows[k], pd_id_index_find(ix, c, ask[k]));
	}
}

/* Every value is found at its first row; values beside them (between, misaligned, outside) are not. */
static void check_index(const pd_id_index *ix, const pd_col64 *c, const uint64_t *values, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t first_row = 0;
		while (values[first_row] != values[i])
			first_row++;
		ck_assert_uint_eq(pd_id_index_find(ix, c, values[i]), first_row);
	}
	uint64_t beside[] = { 0, 1, values[0] - 8, values[0] + 1, values[n / 2] + 4, UINT64_MAX - 1, UINT64_MAX };
	for (size_t k = 0; k < sizeof beside / sizeof beside[0]; k++) {
		int held = 0;
		for (size_t i = 0; i < n; i++)
			held |= values[i] == beside[k];
		if (!held)
			ck_assert_uint_eq(pd_id_index_find(ix, c, beside[k]), SIZE_MAX);
	}
	check_batches(ix, c, values, n, beside, sizeof beside / sizeof beside[0]);
}

enum { INDEX_ROWS = 5000 };

/*
 * HotSpot's shape: aligned addresses a few words apart. Ascending, a bitmap
 * whose ranks are the rows; in any order, the same bitmap and a rank -> row
 * table, the ids still narrow.
 */
START_TEST(id_index_dense_ids_by_rank)
{
	static uint64_t v[INDEX_ROWS];
	for (int ascending = 0; ascending < 2; ascending++) {
		for (size_t i = 0; i < INDEX_ROWS; i++) /* ascending: 2-5 words apart */
			v[i] = UINT64_C(0x640000000) + 8 * (ascending ? i * 4 + i % 3 : (i * 7919) % INDEX_ROWS);
		pd_col64 c;
		column_of(&c, v, INDEX_ROWS);
		pd_id_index ix;
		ck_assert_int_eq(pd_id_index_build(&ix, &c, INDEX_ROWS, 0, INDEX_ROWS, NULL, NULL), 0);
		ck_assert_int_eq(ix.kind, PD_ID_INDEX_BITMAP);
		ck_assert_int_eq(ix.row_of_rank == NULL, ascending);
		ck_assert_uint_eq(pd_col64_row_bytes(&c), 4);
		check_index(&ix, &c, v, INDEX_ROWS);
		pd_id_index_free(&ix);
		pd_col64_free(&c);
	}
}
END_TEST

START_TEST(numbers_as_text_match_printf)
{
	/* the edges of each digit count, and a spread of values between them */
	uint64_t v[200];
	size_t n = 0;
	for (uint64_t p = 1; n < 60 && p <= UINT64_MAX / 10; p *= 10) {
		v[n++] = p - 1;
		v[n++] = p;
	}
	v[n++] = UINT64_MAX;
	v[n++] = 0xFEDCBA9876543210ULL;
	v[n++] = 0xA;
	for (uint64_t x = 0x9E3779B97F4A7C15ULL; n < 200; x = x * 6364136223846793005ULL + 1442695040888963407ULL)
		v[n++] = x >> (x & 63);
	for (size_t i = 0; i < n; i++) {
		char want[40];
		unsigned char got[40];
		size_t len = pd_put_dec(got, v[i]);
		snprintf(want, sizeof want, "%llu", (unsigned long long)v[i]);
		ck_assert_mem_eq(got, want, strlen(want));
		ck_assert_uint_eq(len, strlen(want));
		pd_put_hex16(got, v[i]);
		snprintf(want, sizeof want, "%016llX", (unsigned long long)v[i]);
		ck_assert_mem_eq(got, want, 16);
		len = pd_put_hex(got, v[i], 8);
		snprintf(want, sizeof want, "%08llX", (unsigned long long)v[i]);
		ck_assert_uint_eq(len, strlen(want));
		ck_assert_mem_eq(got, want, len);
		len = pd_put_hex(got, v[i], 1);
		snprintf(want, sizeof want, "%llX", (unsigned long long)v[i]);
		ck_assert_uint_eq(len, strlen(want));
		ck_assert_mem_eq(got, want, len);
	}
}
END_TEST

/* pd_dec8 reads the digits that begin eight bytes as a loop over them does, whatever the bytes are. */
START_TEST(eight_bytes_of_digits_as_a_loop_reads_them)
{
	static const unsigned char kinds[] = { ',', ']', ' ', '-', '.', '/', ':', 0x00, 0xB0, 0xB9, 0xFA, 0xFF };
	uint64_t x = 7;
	for (int round = 0; round < 200000; round++) {
		unsigned char b[8];
		for (int i = 0; i < 8; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			unsigned r = (unsigned)(x >> 40) % 24;
			b[i] = r < 12 ? (unsigned char)('0' + r % 10) : kinds[r - 12];
		}
		unsigned len, want_len = 0;
		uint32_t want = 0, got = pd_dec8(b, &len);
		while (want_len < 8 && b[want_len] >= '0' && b[want_len] <= '9')
			want = want * 10 + (uint32_t)(b[want_len++] - '0');
		ck_assert_uint_eq(len, want_len);
		ck_assert_uint_eq(got, want);
	}
}
END_TEST

/* A repeated id is found at its first row and every later row is reported, dense (bitmap) or sparse (hash). */
START_TEST(id_index_repeats_found_at_first_row)
{
	for (int sparse = 0; sparse < 2; sparse++) {
		uint64_t step = sparse ? UINT64_C(8) << 20 : 8, v[200];
		for (size_t i = 0; i < 200; i++)
			v[i] = UINT64_C(0x100000000) + step * (i * 37 % 200);
		v[150] = v[3];
		v[151] = v[3];
		v[190] = v[100];
		pd_col64 c;
		column_of(&c, v, 200);
		pd_id_index ix;
		repeats r = { .n = 0 };
		ck_assert_int_eq(pd_id_index_build(&ix, &c, 200, 0, 200, note_repeat, &r), 0);
		ck_assert_int_eq(ix.kind, sparse ? PD_ID_INDEX_HASH : PD_ID_INDEX_BITMAP);
		ck_assert_uint_eq(r.n, 3);
		ck_assert(r.row[0] == 150 && r.first_row[0] == 3 && r.row[1] == 151 && r.first_row[1] == 3);
		ck_assert(r.row[2] == 190 && r.first_row[2] == 100);
		check_index(&ix, &c, v, 200);
		pd_id_index_free(&ix);
		/* Rows from 151 on only: 151 is now the first of its id. */
		r.n = 0;
		ck_assert_int_eq(pd_id_index_build(&ix, &c, 200, 151, 200, note_repeat, &r), 0);
		ck_assert_uint_eq(r.n, 0);
		ck_assert_uint_eq(pd_id_index_find(&ix, &c, v[3]), 151);
		ck_assert_uint_eq(pd_id_index_find(&ix, &c, v[0]), SIZE_MAX);
		pd_id_index_free(&ix);
		pd_col64_free(&c);
	}
}
END_TEST

/*
 * Ids too sparse for a bitmap: ascending ones 9 values apart by slices (still
 * narrow), the others 65 apart by hash (widened).
 */
START_TEST(id_index_sparse_ids_fall_back)
{
	static uint64_t v[INDEX_ROWS];
	for (int ascending = 0; ascending < 2; ascending++) {
		for (size_t i = 0; i < INDEX_ROWS; i++)
			v[i] = UINT64_C(0x10000000) + 8 * (ascending ? 9 * i : 65 * ((i * 7919) % INDEX_ROWS));
		pd_col64 c;
		column_of(&c, v, INDEX_ROWS);
		pd_id_index ix;
		ck_assert_int_eq(pd_id_index_build(&ix, &c, INDEX_ROWS, 0, INDEX_ROWS, NULL, NULL), 0);
		ck_assert_int_eq(ix.kind, ascending ? PD_ID_INDEX_SLICES : PD_ID_INDEX_HASH);
		ck_assert_uint_eq(pd_col64_row_bytes(&c), ascending ? 4 : 8);
		check_index(&ix, &c, v, INDEX_ROWS);
		pd_id_index_free(&ix);
		pd_col64_free(&c);
	}
}
END_TEST

/* Ids at both ends of 64 bits: narrow near the top (no overflow past it), wide across the whole range. */
START_TEST(id_index_ids_at_64_bit_extremes)
{
	uint64_t top[300];
	for (size_t i = 0; i < 300; i++)
		top[i] = UINT64_C(0xffffffffffff0000) + 16 * ((i * 7) % 300);
	pd_col64 c;
	column_of(&c, top, 300);
	pd_id_index ix;
	ck_assert_int_eq(pd_id_index_build(&ix, &c, 300, 0, 300, NULL, NULL), 0);
	ck_assert_int_eq(ix.kind, PD_ID_INDEX_BITMAP);
	check_index(&ix, &c, top, 300);
	pd_id_index_free(&ix);
	pd_col64_free(&c);
	uint64_t spread[] = { 1, 2, UINT64_C(0x7fffffffffffffff), UINT64_C(0x8000000000000000), UINT64_MAX - 1 };
	for (int reversed = 0; reversed < 2; reversed++) {
		uint64_t v[5];
		for (size_t i = 0; i < 5; i++)
			v[i] = spread[reversed ? 4 - i : i];
		column_of(&c, v, 5);
		ck_assert_int_eq(pd_id_index_build(&ix, &c, 5, 0, 5, NULL, NULL), 0);
		ck_assert_int_eq(ix.kind, reversed ? PD_ID_INDEX_HASH : PD_ID_INDEX_SLICES);
		for (size_t i = 0; i < 5; i++)
			ck_assert_uint_eq(pd_id_index_find(&ix, &c, v[i]), i);
		ck_assert_uint_eq(pd_id_index_find(&ix, &c, 0), SIZE_MAX);
		ck_assert_uint_eq(pd_id_index_find(&ix, &c, 3), SIZE_MAX);
		ck_assert_uint_eq(pd_id_index_find(&ix, &c, UINT64_MAX), SIZE_MAX);
		pd_id_index_free(&ix);
		pd_col64_free(&c);
	}
	pd_col64_init(&c, PD_COL_NEAR_FIRST);
	ck_assert_int_eq(pd_id_index_build(&ix, &c, 0, 0, 0, NULL, NULL), 0);
	ck_assert_uint_eq(pd_id_index_find(&ix, &c, 1), SIZE_MAX);
	pd_id_index_free(&ix);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("intern");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, intern_numbers_in_first_seen_order);
	tcase_add_test(tc, paths_clean_as_go_cleans_them);
	tcase_add_test(tc, intern_empty_string_and_embedded_nuls);
	tcase_add_test(tc, intern_many_strings_through_growth);
	tcase_add_test(tc, intern_find_by_hash_taken_before);
	tcase_add_test(tc, intern_near_misses);
	tcase_add_test(tc, interners_draw_their_own_seeds);
	suite_add_tcase(s, tc);
	tc = tcase_create("map");
	tcase_add_test(tc, map_remove_keeps_every_other_key);
	tcase_add_test(tc, map_clear_keeps_its_slots);
	tcase_add_test(tc, index_run_then_table);
	suite_add_tcase(s, tc);
	tc = tcase_create("column");
	tcase_add_test(tc, column_narrow_until_a_value_does_not_fit);
	tcase_add_test(tc, column_lower_bound_narrow_and_wide);
	tcase_add_test(tc, numbers_as_text_match_printf);
	tcase_add_test(tc, eight_bytes_of_digits_as_a_loop_reads_them);
	suite_add_tcase(s, tc);
	tc = tcase_create("id_index");
	tcase_add_test(tc, id_index_dense_ids_by_rank);
	tcase_add_test(tc, id_index_repeats_found_at_first_row);
	tcase_add_test(tc, id_index_sparse_ids_fall_back);
	tcase_add_test(tc, id_index_ids_at_64_bit_extremes);
	suite_add_tcase(s, tc);
	tc = tcase_create("hash");
	tcase_add_test(tc, hash_bytes_equal_inputs_equal_hashes);
	tcase_add_test(tc, hash_bytes_differ_by_seed_length_and_content);
	suite_add_tcase(s, tc);
	tc = tcase_create("grow");
	tcase_add_test(tc, grow_past_the_huge_sizes_keeps_the_contents);
	suite_add_tcase(s, tc);
	return s;
}
