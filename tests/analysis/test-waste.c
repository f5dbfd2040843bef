/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Waste (profdata/waste.h) of a dump the JDK made with planted waste
 * (tests/data/hprof/gen/WasteFixture.java): 2,000 copies of a 40-character
 * LATIN1 string and 300 of a UTF16 one (each also a literal of the class:
 * one copy more), 1,000 empty HashMaps, 500 ArrayLists of 100 slots holding
 * one element, 3,000 Integers of the value 70000, 400 equal byte[64]; and
 * the char[] strings of JDK 8 and older dumps of the corpus. And the sieve
 * before the duplicate tables (waste_dups.c) on its own.
 */
#define PROFDATA_EXPERIMENTAL
/* First: compiled at PD_HEAP_WIDTH 64 (tests/meson.build), the calls are the 64-bit analysis' own. */
#include "analysis/heap_width.h"
#include "support.h"
#include "analysis/waste_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dump {
	profdata_profile *p;
	profdata_heap *h;
	profdata_heap_waste *w;
} dump;

static void open_path(dump *d, const char *path, int graph_only, const profdata_heap_waste_options *o)
{
	d->p = test_read(path, "hprof", PROFDATA_MODE_STRICT);
	profdata_heap_options ho = PROFDATA_HEAP_OPTIONS_INIT;
	ho.graph_only = graph_only;
	ck_assert_int_eq(profdata_heap_new(&d->h, d->p, &ho), 0);
	ck_assert_int_eq(profdata_heap_waste_new(&d->w, d->h, o), 0);
	ck_assert_ptr_null(profdata_heap_waste_error(d->w));
}

static void open_fixture(dump *d, int graph_only, const profdata_heap_waste_options *o)
{
	char path[4096];
	open_path(d, test_data_path(path, sizeof path, "hprof/jdk17-waste.hprof.gz"), graph_only, o);
}

static void close_dump(dump *d)
{
	profdata_heap_waste_free(d->w);
	profdata_heap_free(d->h);
	profdata_profile_free(d->p);
}

static const profdata_heap_duplicate_string *find_string(const profdata_heap_waste *w, const char *text)
{
	size_t n;
	const profdata_heap_duplicate_string *x = profdata_heap_waste_strings(w, &n);
	for (size_t k = 0; k < n; k++)
		if (strcmp(x[k].text, text) == 0)
			return &x[k];
	return NULL;
}

START_TEST(planted_duplicate_strings_come_out_as_planted)
{
	dump d;
	open_fixture(&d, 1, NULL);
	size_t n;
	const profdata_heap_duplicate_string *x = profdata_heap_waste_strings(d.w, &n);
	ck_assert_uint_eq(n, 20);
	ck_assert_str_eq(x[0].text, "waste-fixture: one string, 2000 copies.!");
	ck_assert_uint_eq(x[0].length, 40);
	ck_assert_int_eq(x[0].truncated, 0);
	ck_assert_uint_eq(x[0].count, 2001);
	/* A String of 24 bytes and its byte[40] of 56 (compressed references: a 12-byte header) */
	ck_assert_uint_eq(x[0].bytes, 2001 * 80);
	ck_assert_uint_eq(x[0].wasted, 2000 * 80);
	ck_assert_uint_ge(x[0].nowners, 2);
	for (size_t k = 1; k < n; k++)
		ck_assert_uint_le(x[k].wasted, x[k - 1].wasted);
	/* coder 1: 12 UTF-16 units in a byte[24] of 40 bytes */
	const profdata_heap_duplicate_string *wide = find_string(d.w, "snowman \xe2\x98\x83 ok");
	ck_assert_ptr_nonnull(wide);
	ck_assert_uint_eq(wide->count, 301);
	ck_assert_uint_eq(wide->length, 12);
	ck_assert_uint_eq(wide->wasted, 300 * 64);
	const profdata_heap_waste_totals *t = profdata_heap_waste_totals_of(d.w);
	ck_assert_uint_ge(t->string_wasted, x[0].wasted + wide->wasted);
	ck_assert_uint_ge(t->string_groups, n);
	ck_assert_uint_gt(t->reachable_bytes, t->string_bytes);
	close_dump(&d);
}
END_TEST

START_TEST(planted_arrays_collections_and_boxes_come_out_as_planted)
{
	dump d;
	open_fixture(&d, 1, NULL);
	size_t n;
	const profdata_heap_duplicate_array *a = profdata_heap_waste_arrays(d.w, &n);
	ck_assert_uint_ge(n, 1);
	ck_assert_str_eq(a[0].class_name, "byte[]");
	ck_assert_uint_eq(a[0].length, 64);
	ck_assert_uint_eq(a[0].count, 400);
	ck_assert_uint_eq(a[0].wasted, 399 * 80);
	const profdata_heap_collection_waste *c = profdata_heap_waste_collections(d.w, &n);
	int maps = 0, lists = 0;
	for (size_t k = 0; k < n; k++) {
		if (strcmp(c[k].class_name, "java.util.HashMap") == 0) {
			ck_assert_uint_ge(c[k].empty, 1000);
			ck_assert_uint_ge(c[k].empty_bytes, 1000 * 48);
			maps++;
		} else if (strcmp(c[k].class_name, "java.util.ArrayList") == 0) {
			ck_assert_uint_ge(c[k].sparse, 500);
			ck_assert_uint_ge(c[k].wasted, 500 * 99 * 4);
			lists++;
		}
	}
	ck_assert_int_eq(maps + lists, 2);
	ck_assert_str_eq(c[0].class_name, "java.util.ArrayList");
	const profdata_heap_boxed *b = profdata_heap_waste_boxed(d.w, &n);
	ck_assert_uint_ge(n, 1);
	ck_assert_str_eq(b[0].class_name, "java.lang.Integer");
	ck_assert_str_eq(b[0].top_value, "70000");
	ck_assert_uint_eq(b[0].top_count, 3000);
	ck_assert_uint_ge(b[0].wasted, 2999 * 16);
	ck_assert_uint_eq(b[0].wasted, (b[0].count - b[0].distinct) * 16);
	close_dump(&d);
}
END_TEST

START_TEST(a_whole_heap_and_options_give_the_same_figures)
{
	dump g, d;
	open_fixture(&g, 1, NULL);
	profdata_heap_waste_options o;
	ck_assert_int_eq(profdata_heap_waste_options_init(&o, sizeof o), 0);
	o.limit = 1;
	o.owners = 1;
	open_fixture(&d, 0, &o);
	ck_assert_mem_eq(profdata_heap_waste_totals_of(g.w), profdata_heap_waste_totals_of(d.w),
	                 sizeof(profdata_heap_waste_totals));
	size_t n;
	const profdata_heap_duplicate_string *x = profdata_heap_waste_strings(d.w, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(x[0].nowners, 1);
	ck_assert_ptr_nonnull(profdata_heap_waste_arrays(d.w, &n));
	ck_assert_uint_eq(n, 1);
	close_dump(&g);
	profdata_heap_waste *w = NULL;
	o.version = 99;
	ck_assert_int_eq(profdata_heap_waste_new(&w, d.h, &o), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_heap_waste_error(w)->message, "version"));
	profdata_heap_waste_free(w);
	ck_assert_int_eq(profdata_heap_waste_options_init(&o, 1), PROFDATA_EINVAL);
	profdata_heap_waste_free(NULL);
	/* Limits past memory are refused, not divided by (limit + 1 was 0 for SIZE_MAX). */
	size_t limits[][2] = { { SIZE_MAX, 1 }, { SIZE_MAX / 2, 1 }, { 1, SIZE_MAX }, { 1000, SIZE_MAX / 1000 } };
	for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
		ck_assert_int_eq(profdata_heap_waste_options_init(&o, sizeof o), 0);
		o.limit = limits[k][0];
		o.owners = limits[k][1];
		ck_assert_int_eq(profdata_heap_waste_new(&w, d.h, &o), PROFDATA_EINVAL);
		ck_assert_ptr_nonnull(strstr(profdata_heap_waste_error(w)->message, "do not fit in memory"));
		profdata_heap_waste_free(w);
	}
	close_dump(&d);
}
END_TEST

/* The corpus' JDK 8 dumps: String holds a char[] (the 32-bit one, of a JDK 6-era layout, an offset and count too). */
START_TEST(char_array_strings_of_older_jdks_are_read)
{
	static const struct {
		const char *file, *text;
		uint64_t count, strings;
	} cases[] = {
		{ "hprof/hprof-slurp_hprof-64.bin", "META-INF/MANIFEST.MF", 7, 909 },
		{ "hprof/hprof-slurp_hprof-32.bin", "Sun Microsystems Inc.", 4, 627 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", test_corpus_dir(), cases[k].file);
		dump d;
		open_path(&d, path, 1, NULL);
		const profdata_heap_duplicate_string *x = find_string(d.w, cases[k].text);
		ck_assert_ptr_nonnull(x);
		ck_assert_uint_eq(x->count, cases[k].count);
		ck_assert_uint_eq(profdata_heap_waste_totals_of(d.w)->strings, cases[k].strings);
		close_dump(&d);
	}
}
END_TEST

/*
 * 200,000 candidates: 190,000 lone hashes and 5,000 hashes noted twice, at
 * places drawn from the library's hash. Every copy of a repeated hash must
 * pass the sift, in the order noted; of the lone ones 1 in 16-32 shares a
 * slot and passes, and no more than 1 in 16 may (8,472 do).
 */
START_TEST(the_sieve_passes_every_repeated_hash_and_few_lone_ones)
{
	enum { LONE = 190000, TWICE = 5000, N = LONE + 2 * TWICE };
	uint64_t *hash = malloc(N * sizeof *hash), draw = 42;
	uint8_t *repeated = calloc(N, 1);
	ck_assert_ptr_nonnull(hash);
	ck_assert_ptr_nonnull(repeated);
	for (size_t k = 0; k < N; k++)
		hash[k] = pd_hash64(k + 1);
	for (size_t k = 0; k < TWICE; k++) {
		size_t a = pd_hash64(++draw) % N, b = pd_hash64(++draw) % N;
		if (a == b || repeated[a] || repeated[b]) {
			k--;
			continue;
		}
		hash[b] = hash[a];
		repeated[a] = repeated[b] = 1;
	}
	pd_dup_sieve v;
	ck_assert_int_eq(pd_dup_sieve_start(&v, N), 0);
	for (size_t k = 0; k < N; k++)
		pd_dup_sieve_note(&v, hash[k], (uint32_t)k);
	ck_assert_uint_eq(v.n, N);
	pd_dup_sieve_sift(&v);
	ck_assert_ptr_null(v.bits);
	size_t lone_passed = 0, k = 0;
	for (size_t j = 0; j < v.n; j++) {
		ck_assert(v.nodes[j] >= k && v.nodes[j] < N); /* in the order noted */
		while (k < v.nodes[j]) /* a candidate left out: never a repeated one */
			ck_assert_int_eq(repeated[k++], 0);
		ck_assert_uint_eq(v.hashes[j], hash[k]);
		lone_passed += !repeated[k++];
	}
	while (k < N)
		ck_assert_int_eq(repeated[k++], 0);
	ck_assert_uint_le(lone_passed, LONE / 16);
	pd_dup_sieve_free(&v);
	ck_assert_ptr_null(v.hashes);
	ck_assert_int_eq(pd_dup_sieve_start(&v, 0), 0); /* no candidates: room for none, nothing passes */
	ck_assert_uint_eq(v.n, 0);
	pd_dup_sieve_free(&v);
	free(hash);
	free(repeated);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("waste");
	TCase *tc = tcase_create("waste");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, planted_duplicate_strings_come_out_as_planted);
	tcase_add_test(tc, planted_arrays_collections_and_boxes_come_out_as_planted);
	tcase_add_test(tc, a_whole_heap_and_options_give_the_same_figures);
	tcase_add_test(tc, the_sieve_passes_every_repeated_hash_and_few_lone_ones);
	suite_add_tcase(s, tc);
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_set_timeout(tc, 60);
		tcase_add_test(tc, char_array_strings_of_older_jdks_are_read);
		suite_add_tcase(s, tc);
	}
	return s;
}
