/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The heap analysis at its two node widths through the public calls
 * (lib/analysis/heap_widths.c): a heap asked for 64-bit node numbers
 * (option node_bits) is one, and answers every question as the 32-bit
 * heap of the same dump does: counts, per node sizes, retained sizes,
 * dominators and classes, the biggest objects, the tree's top, per-class
 * retained sizes, paths from GC roots, suspects, waste and the diff of two
 * dumps. Dumps made by the JDK (tests/data/hprof, make-fixtures.sh).
 */
#define PROFDATA_EXPERIMENTAL
#include "support.h"
#include "analysis/heap_calls.h"

#include <stdlib.h>
#include <string.h>

static profdata_profile *read_fixture(const char *name)
{
	char path[4096];
	return test_read(test_data_path(path, sizeof path, name), "hprof", PROFDATA_MODE_STRICT);
}

static profdata_heap *heap_at(const profdata_profile *p, unsigned node_bits)
{
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	o.node_bits = node_bits;
	profdata_heap *h = NULL;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), 0);
	ck_assert_ptr_null(profdata_heap_error(h));
	return h;
}

/* The width the dispatch reads (heap_calls.h): the first member of the heap. */
static unsigned width_of(const void *object) { return ((const pd_heap_head *)object)->width; }

static void assert_same_path(const profdata_heap *a, const profdata_heap *b, size_t node)
{
	profdata_heap_root_path *x, *y;
	int e = profdata_heap_root_path_new(&x, a, node, NULL, NULL);
	ck_assert_int_eq(profdata_heap_root_path_new(&y, b, node, NULL, NULL), e);
	ck_assert_uint_eq(width_of(y), 64);
	size_t len = profdata_heap_root_path_length(x);
	ck_assert_uint_eq(profdata_heap_root_path_length(y), len);
	for (size_t i = 0; i < len; i++) {
		const profdata_heap_step *s = profdata_heap_root_path_step(x, i), *t = profdata_heap_root_path_step(y, i);
		ck_assert_uint_eq(s->node, t->node);
		ck_assert_int_eq(s->root_kind, t->root_kind);
		ck_assert_uint_eq(s->index, t->index);
		ck_assert(s->field == t->field || (s->field && t->field && strcmp(s->field, t->field) == 0));
	}
	profdata_heap_root_path_free(x);
	profdata_heap_root_path_free(y);
}

static void assert_same_nodes(const profdata_profile *p, const profdata_heap *a, const profdata_heap *b)
{
	size_t nodes = profdata_profile_count(p, PROFDATA_TABLE_OBJECTS) + profdata_profile_count(p, PROFDATA_TABLE_CLASSES);
	for (size_t node = 0; node < nodes; node++) {
		ck_assert_int_eq(profdata_heap_reachable(b, node), profdata_heap_reachable(a, node));
		ck_assert_uint_eq(profdata_heap_size(b, node), profdata_heap_size(a, node));
		ck_assert_uint_eq(profdata_heap_retained(b, node), profdata_heap_retained(a, node));
		size_t da = 7, db = 7, ca = 7, cb = 7; /* (what a call that fails leaves) */
		ck_assert_int_eq(profdata_heap_dominator_of(&db, b, node), profdata_heap_dominator_of(&da, a, node));
		ck_assert_uint_eq(db, da);
		ck_assert_int_eq(profdata_heap_node_class(b, node, &cb), profdata_heap_node_class(a, node, &ca));
		ck_assert_uint_eq(cb, ca);
		if (node % 97 == 0)
			assert_same_path(a, b, node);
	}
}

static void assert_same_tops(const profdata_profile *p, profdata_heap *a, profdata_heap *b)
{
	size_t ta[64], tb[64], na, nb, pa[64], pb[64];
	ck_assert_int_eq(profdata_heap_top_nodes(ta, &na, a, 64), 0);
	ck_assert_int_eq(profdata_heap_top_nodes(tb, &nb, b, 64), 0);
	ck_assert_uint_eq(nb, na);
	ck_assert_int_eq(memcmp(ta, tb, na * sizeof *ta), 0);
	ck_assert_int_eq(profdata_heap_tree_top(ta, pa, &na, a, 64), 0);
	ck_assert_int_eq(profdata_heap_tree_top(tb, pb, &nb, b, 64), 0);
	ck_assert_uint_eq(nb, na);
	ck_assert_int_eq(memcmp(ta, tb, na * sizeof *ta), 0);
	ck_assert_int_eq(memcmp(pa, pb, na * sizeof *pa), 0);
	for (size_t c = 0; c < profdata_profile_count(p, PROFDATA_TABLE_CLASSES); c++) {
		uint64_t ra = 7, rb = 7;
		ck_assert_int_eq(profdata_heap_retained_by_class(&rb, b, c), profdata_heap_retained_by_class(&ra, a, c));
		ck_assert_uint_eq(rb, ra);
		ck_assert_uint_eq(profdata_heap_class_node(b, c), profdata_heap_class_node(a, c));
	}
}

START_TEST(a_heap_of_64_bit_nodes_answers_as_the_32_bit_one)
{
	profdata_profile *p = read_fixture("hprof/jdk17-leaks.hprof.gz");
	profdata_heap *a = heap_at(p, 0), *b = heap_at(p, 64), *c = heap_at(p, 32);
	ck_assert_uint_eq(width_of(a), 32); /* the narrowest that holds the dump */
	ck_assert_uint_eq(width_of(b), 64);
	ck_assert_uint_eq(width_of(c), 32);
	ck_assert_uint_eq(profdata_heap_node_bits(a), 32);
	ck_assert_uint_eq(profdata_heap_node_bits(b), 64);
	ck_assert_uint_eq(profdata_heap_reachable_count(b), profdata_heap_reachable_count(a));
	ck_assert_uint_eq(profdata_heap_reachable_bytes(b), profdata_heap_reachable_bytes(a));
	ck_assert_uint_eq(profdata_heap_unreachable_count(b), profdata_heap_unreachable_count(a));
	ck_assert_uint_eq(profdata_heap_unreachable_bytes(b), profdata_heap_unreachable_bytes(a));
	size_t fa, na, fb, nb;
	profdata_heap_objects(a, &fa, &na);
	profdata_heap_objects(b, &fb, &nb);
	ck_assert(fa == fb && na == nb);
	assert_same_nodes(p, a, b);
	assert_same_tops(p, a, b);
	profdata_heap_free(a);
	profdata_heap_free(b);
	profdata_heap_free(c);
	profdata_profile_free(p);
}
END_TEST

START_TEST(suspects_and_waste_are_the_same_at_both_widths)
{
	profdata_profile *p = read_fixture("hprof/jdk17-leaks.hprof.gz");
	profdata_heap *a = heap_at(p, 32), *b = heap_at(p, 64);
	profdata_heap_suspects *sa, *sb;
	ck_assert_int_eq(profdata_heap_suspects_new(&sa, a, NULL), 0);
	ck_assert_int_eq(profdata_heap_suspects_new(&sb, b, NULL), 0);
	ck_assert_uint_eq(width_of(sb), 64);
	ck_assert_uint_eq(profdata_heap_suspects_count(sb), profdata_heap_suspects_count(sa));
	ck_assert_uint_gt(profdata_heap_suspects_count(sa), 0);
	ck_assert_uint_eq(profdata_heap_suspects_total(sb), profdata_heap_suspects_total(sa));
	ck_assert_uint_eq(profdata_heap_suspects_threshold(sb), profdata_heap_suspects_threshold(sa));
	for (size_t k = 0; k < profdata_heap_suspects_count(sa); k++) {
		const profdata_heap_suspect *x = profdata_heap_suspects_at(sa, k), *y = profdata_heap_suspects_at(sb, k);
		ck_assert(x->kind == y->kind && x->node == y->node && x->accumulation == y->accumulation);
		ck_assert(x->retained == y->retained && x->instances == y->instances && x->depth == y->depth);
		ck_assert(x->naccumulated == y->naccumulated && x->accumulated_classes == y->accumulated_classes);
	}
	ck_assert_ptr_null(profdata_heap_suspects_error(sb));
	profdata_heap_suspects_free(sa);
	profdata_heap_suspects_free(sb);

	profdata_heap_waste *wa, *wb;
	ck_assert_int_eq(profdata_heap_waste_new(&wa, a, NULL), 0);
	ck_assert_int_eq(profdata_heap_waste_new(&wb, b, NULL), 0);
	ck_assert_uint_eq(width_of(wb), 64);
	ck_assert_ptr_null(profdata_heap_waste_error(wb));
	ck_assert_int_eq(memcmp(profdata_heap_waste_totals_of(wa), profdata_heap_waste_totals_of(wb),
	                        sizeof(profdata_heap_waste_totals)), 0);
	size_t n1, n2;
	const profdata_heap_duplicate_string *s1 = profdata_heap_waste_strings(wa, &n1), *s2 = profdata_heap_waste_strings(wb, &n2);
	ck_assert_uint_eq(n2, n1);
	for (size_t k = 0; k < n1; k++)
		ck_assert(s1[k].count == s2[k].count && s1[k].wasted == s2[k].wasted && s1[k].node == s2[k].node && strcmp(s1[k].text, s2[k].text) == 0);
	profdata_heap_waste_arrays(wa, &n1);
	profdata_heap_waste_arrays(wb, &n2);
	ck_assert_uint_eq(n2, n1);
	profdata_heap_waste_collections(wa, &n1);
	profdata_heap_waste_collections(wb, &n2);
	ck_assert_uint_eq(n2, n1);
	profdata_heap_waste_boxed(wa, &n1);
	profdata_heap_waste_boxed(wb, &n2);
	ck_assert_uint_eq(n2, n1);
	profdata_heap_waste_free(wa);
	profdata_heap_waste_free(wb);
	profdata_heap_free(a);
	profdata_heap_free(b);
	profdata_profile_free(p);
}
END_TEST

START_TEST(a_diff_takes_two_heaps_of_one_width)
{
	profdata_profile *p1 = read_fixture("hprof/jdk17-growth-1.hprof.gz");
	profdata_profile *p2 = read_fixture("hprof/jdk17-growth-2.hprof.gz");
	profdata_heap *a1 = heap_at(p1, 32), *a2 = heap_at(p2, 32), *b1 = heap_at(p1, 64), *b2 = heap_at(p2, 64);
	profdata_heap_diff *da, *db, *mixed;
	ck_assert_int_eq(profdata_heap_diff_new(&da, a1, a2, NULL), 0);
	ck_assert_int_eq(profdata_heap_diff_new(&db, b1, b2, NULL), 0);
	ck_assert_uint_eq(width_of(db), 64);
	ck_assert_uint_eq(profdata_heap_diff_class_count(db), profdata_heap_diff_class_count(da));
	for (size_t k = 0; k < profdata_heap_diff_class_count(da); k++) {
		const profdata_heap_class_change *x = profdata_heap_diff_class_at(da, k), *y = profdata_heap_diff_class_at(db, k);
		ck_assert_str_eq(x->class_name, y->class_name);
		ck_assert(x->old_instances == y->old_instances && x->new_instances == y->new_instances);
		ck_assert(x->old_bytes == y->old_bytes && x->new_bytes == y->new_bytes);
		ck_assert(x->old_retained == y->old_retained && x->new_retained == y->new_retained);
	}
	ck_assert_int_eq(memcmp(profdata_heap_diff_objects_of(da), profdata_heap_diff_objects_of(db),
	                        sizeof(profdata_heap_diff_objects)), 0);
	ck_assert_uint_eq(profdata_heap_diff_dominator_count(db), profdata_heap_diff_dominator_count(da));
	for (size_t k = 0; k < profdata_heap_diff_dominator_count(da); k++)
		ck_assert_uint_eq(profdata_heap_diff_dominator_at(db, k)->node, profdata_heap_diff_dominator_at(da, k)->node);
	/* Of two widths: refused, saying how to make them alike. */
	ck_assert_int_eq(profdata_heap_diff_new(&mixed, a1, b2, NULL), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_heap_diff_error(mixed)->message, "node_bits 64"));
	profdata_heap_diff_free(mixed);
	ck_assert_int_eq(profdata_heap_diff_new(&mixed, b1, a2, NULL), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_heap_diff_error(mixed)->message, "64-bit node numbers, the new one 32"));
	profdata_heap_diff_free(mixed);
	profdata_heap_diff_free(da);
	profdata_heap_diff_free(db);
	profdata_heap_free(a1);
	profdata_heap_free(a2);
	profdata_heap_free(b1);
	profdata_heap_free(b2);
	profdata_profile_free(p1);
	profdata_profile_free(p2);
}
END_TEST

START_TEST(node_bits_is_0_32_or_64)
{
	profdata_profile *p = read_fixture("hprof/jdk17-minimal.hprof.gz");
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	profdata_heap *h;
	o.node_bits = 48;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(strstr(profdata_heap_error(h)->message, "node_bits 48 (0, 32 or 64)"));
	profdata_heap_free(h);
	/* The calls take NULL where they did (the 32-bit ones answer for it). */
	profdata_heap_free(NULL);
	profdata_heap_root_path_free(NULL);
	profdata_heap_suspects_free(NULL);
	profdata_heap_waste_free(NULL);
	profdata_heap_diff_free(NULL);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("heap-widths");
	TCase *tc = tcase_create("widths");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_heap_of_64_bit_nodes_answers_as_the_32_bit_one);
	tcase_add_test(tc, suspects_and_waste_are_the_same_at_both_widths);
	tcase_add_test(tc, a_diff_takes_two_heaps_of_one_width);
	tcase_add_test(tc, node_bits_is_0_32_or_64);
	suite_add_tcase(s, tc);
	return s;
}
