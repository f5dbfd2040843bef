/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Leak suspects (profdata/suspects.h) of a dump the JDK made with planted
 * leaks (tests/data/hprof/gen/LeaksFixture.java): a static HashMap of 5,000
 * entries, and 1,000 Session objects that only GC roots dominate.
 */
#define PROFDATA_EXPERIMENTAL
#include "support.h"

#include <stdlib.h>
#include <string.h>

typedef struct leaks {
	profdata_profile *p;
	profdata_heap *h;
} leaks;

static void open_leaks(leaks *l, int graph_only)
{
	char path[4096];
	l->p = test_read(test_data_path(path, sizeof path, "hprof/jdk17-leaks.hprof.gz"), "hprof", PROFDATA_MODE_STRICT);
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	o.graph_only = graph_only;
	o.node_bits = PD_TEST_NODE_BITS;
	ck_assert_int_eq(profdata_heap_new(&l->h, l->p, &o), 0);
}

static void close_leaks(leaks *l)
{
	profdata_heap_free(l->h);
	profdata_profile_free(l->p);
}

static const profdata_heap_suspect *find_kind(const profdata_heap_suspects *s, int kind)
{
	for (size_t i = 0; i < profdata_heap_suspects_count(s); i++)
		if (profdata_heap_suspects_at(s, i)->kind == kind)
			return profdata_heap_suspects_at(s, i);
	return NULL;
}

START_TEST(the_static_map_is_an_object_suspect_gathering_in_its_table)
{
	leaks l;
	open_leaks(&l, 0);
	profdata_heap_suspects *s = NULL;
	ck_assert_int_eq(profdata_heap_suspects_new(&s, l.h, NULL), 0);
	ck_assert_ptr_null(profdata_heap_suspects_error(s));
	ck_assert_uint_eq(profdata_heap_suspects_count(s), 2);
	const profdata_heap_suspect *x = profdata_heap_suspects_at(s, 0);
	ck_assert_int_eq(x->kind, PROFDATA_SUSPECT_OBJECT);
	ck_assert_str_eq(x->class_name, "LeaksFixture");
	ck_assert_int_eq(x->class_object, 1);
	ck_assert_uint_eq(x->instances, 1);
	ck_assert_uint_eq(x->retained, profdata_heap_retained(l.h, x->node));
	ck_assert_uint_ge(x->retained, profdata_heap_suspects_threshold(s));
	/* LeaksFixture -> HashMap -> HashMap$Node[]: the table holds the entries. */
	ck_assert_uint_eq(x->depth, 2);
	ck_assert_uint_eq(x->accumulation_retained, profdata_heap_retained(l.h, x->accumulation));
	ck_assert_uint_ge(x->naccumulated, 1);
	ck_assert_str_eq(x->accumulated[0].class_name, "java.util.HashMap$Node");
	ck_assert_uint_eq(x->accumulated[0].count, 5000);
	ck_assert_uint_eq(x->accumulated_classes, x->naccumulated);
	profdata_heap_suspects_free(s);
	close_leaks(&l);
}
END_TEST

START_TEST(sessions_only_roots_hold_are_a_class_suspect)
{
	leaks l;
	open_leaks(&l, 0);
	profdata_heap_suspects *s = NULL;
	ck_assert_int_eq(profdata_heap_suspects_new(&s, l.h, NULL), 0);
	const profdata_heap_suspect *x = find_kind(s, PROFDATA_SUSPECT_CLASS);
	ck_assert_ptr_nonnull(x);
	ck_assert_str_eq(x->class_name, "LeaksFixture$Session");
	ck_assert_int_eq(x->class_object, 0);
	ck_assert_uint_eq(x->instances, 1000);
	ck_assert_uint_lt(profdata_heap_retained(l.h, x->node), profdata_heap_suspects_threshold(s));
	ck_assert_uint_eq(x->naccumulated, 1);
	ck_assert_str_eq(x->accumulated[0].class_name, "byte[]");
	ck_assert_uint_eq(x->accumulated[0].count, 1000);
	ck_assert_uint_eq(x->retained, x->accumulated[0].retained + 1000 * profdata_heap_size(l.h, x->node));
	profdata_heap_suspects_free(s);
	close_leaks(&l);
}
END_TEST

START_TEST(the_threshold_and_the_listed_classes_follow_the_options)
{
	leaks l;
	open_leaks(&l, 0);
	profdata_heap_suspects_options o;
	ck_assert_int_eq(profdata_heap_suspects_options_init(&o, sizeof o), 0);
	o.threshold = 0.5;
	profdata_heap_suspects *s = NULL;
	ck_assert_int_eq(profdata_heap_suspects_new(&s, l.h, &o), 0);
	ck_assert_uint_eq(profdata_heap_suspects_count(s), 1);
	ck_assert_uint_ge(profdata_heap_suspects_threshold(s) * 2, profdata_heap_suspects_total(s));
	profdata_heap_suspects_free(s);
	o.threshold = 1;
	ck_assert_int_eq(profdata_heap_suspects_new(&s, l.h, &o), 0);
	ck_assert_uint_eq(profdata_heap_suspects_count(s), 0);
	ck_assert_ptr_null(profdata_heap_suspects_at(s, 0));
	profdata_heap_suspects_free(s);
	close_leaks(&l);
}
END_TEST

START_TEST(bad_options_and_a_heap_without_dominators_are_refused_with_a_message)
{
	leaks l;
	open_leaks(&l, 1);
	profdata_heap_suspects *s = NULL;
	ck_assert_int_eq(profdata_heap_suspects_new(&s, l.h, NULL), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_heap_suspects_error(s)->message, "graph_only"));
	profdata_heap_suspects_free(s);
	close_leaks(&l);
	open_leaks(&l, 0);
	profdata_heap_suspects_options o = PROFDATA_HEAP_SUSPECTS_OPTIONS_INIT;
	o.threshold = 1.5;
	ck_assert_int_eq(profdata_heap_suspects_new(&s, l.h, &o), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_heap_suspects_error(s)->message, "threshold"));
	profdata_heap_suspects_free(s);
	o.threshold = 0.1;
	o.version = 99;
	ck_assert_int_eq(profdata_heap_suspects_new(&s, l.h, &o), PROFDATA_EINVAL);
	profdata_heap_suspects_free(s);
	ck_assert_int_eq(profdata_heap_suspects_options_init(&o, 1), PROFDATA_EINVAL);
	profdata_heap_suspects_free(NULL);
	close_leaks(&l);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("suspects");
	TCase *tc = tcase_create("suspects");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, the_static_map_is_an_object_suspect_gathering_in_its_table);
	tcase_add_test(tc, sessions_only_roots_hold_are_a_class_suspect);
	tcase_add_test(tc, the_threshold_and_the_listed_classes_follow_the_options);
	tcase_add_test(tc, bad_options_and_a_heap_without_dominators_are_refused_with_a_message);
	suite_add_tcase(s, tc);
	return s;
}
