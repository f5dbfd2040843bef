/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The difference of two heap dumps (profdata/heap_diff.h) the JDK made of
 * one process before and after a planted growth
 * (tests/data/hprof/gen/GrowthFixture.java): a static HashMap of 1,000
 * GrowthFixture$Order objects that grows by 3,000 more, each 64 bytes with
 * a long[4] of 48, a HashMap$Node and an Integer key.
 */
#define PROFDATA_EXPERIMENTAL
#include "support.h"

#include <stdlib.h>
#include <string.h>

#define PLANTED 3000
#define ORDER_BYTES 64
#define LINES_BYTES 48

typedef struct dump {
	profdata_profile *p;
	profdata_heap *h;
} dump;

static void open_dump(dump *d, const char *name, int graph_only)
{
	char path[4096];
	d->p = test_read(test_data_path(path, sizeof path, name), "hprof", PROFDATA_MODE_STRICT);
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	o.graph_only = graph_only;
	o.node_bits = PD_TEST_NODE_BITS;
	ck_assert_int_eq(profdata_heap_new(&d->h, d->p, &o), 0);
}

static void close_dump(dump *d)
{
	profdata_heap_free(d->h);
	profdata_profile_free(d->p);
}

static const profdata_heap_class_change *find_class(const profdata_heap_diff *d, const char *name)
{
	for (size_t i = 0; i < profdata_heap_diff_class_count(d); i++)
		if (strcmp(profdata_heap_diff_class_at(d, i)->class_name, name) == 0)
			return profdata_heap_diff_class_at(d, i);
	return NULL;
}

/* The diff of the two growth dumps with these options. */
static profdata_heap_diff *growth_diff(dump *old, dump *now, const profdata_heap_diff_options *o)
{
	open_dump(old, "hprof/jdk17-growth-1.hprof.gz", 0);
	open_dump(now, "hprof/jdk17-growth-2.hprof.gz", 0);
	profdata_heap_diff *d = NULL;
	ck_assert_int_eq(profdata_heap_diff_new(&d, old->h, now->h, o), 0);
	ck_assert_ptr_null(profdata_heap_diff_error(d));
	return d;
}

START_TEST(the_planted_class_grows_by_the_planted_count_and_bytes_and_comes_first)
{
	dump old, now;
	profdata_heap_diff *d = growth_diff(&old, &now, NULL);
	const profdata_heap_class_change *c = profdata_heap_diff_class_at(d, 0);
	ck_assert_str_eq(c->class_name, "GrowthFixture$Order");
	ck_assert_uint_eq(c->old_instances, 1000);
	ck_assert_uint_eq(c->new_instances, 1000 + PLANTED);
	ck_assert_int_eq(c->instances, PLANTED);
	ck_assert_int_eq(c->bytes, (int64_t)PLANTED * ORDER_BYTES);
	ck_assert_uint_eq(c->new_bytes, (uint64_t)(1000 + PLANTED) * ORDER_BYTES);
	/* An Order retains itself and its long[4]. */
	ck_assert_int_eq(c->retained, (int64_t)PLANTED * (ORDER_BYTES + LINES_BYTES));
	ck_assert_uint_eq(c->old_classes, 1);
	ck_assert_uint_eq(c->new_classes, 1);
	const profdata_heap_class_change *lines = find_class(d, "long[]");
	ck_assert_ptr_nonnull(lines);
	ck_assert_int_eq(lines->instances, PLANTED);
	ck_assert_int_eq(lines->bytes, (int64_t)PLANTED * LINES_BYTES);
	const profdata_heap_class_change *nodes = find_class(d, "java.util.HashMap$Node");
	ck_assert_ptr_nonnull(nodes);
	ck_assert_int_eq(nodes->instances, PLANTED);
	/* Growth first, shrinking last. */
	for (size_t i = 1; i < profdata_heap_diff_class_count(d); i++)
		ck_assert_int_le(profdata_heap_diff_class_at(d, i)->bytes, profdata_heap_diff_class_at(d, i - 1)->bytes);
	ck_assert_ptr_null(profdata_heap_diff_class_at(d, profdata_heap_diff_class_count(d)));
	profdata_heap_diff_free(d);
	close_dump(&old);
	close_dump(&now);
}
END_TEST

START_TEST(objects_match_by_id_and_the_grown_table_dominates_the_new_memory)
{
	dump old, now;
	profdata_heap_diff *d = growth_diff(&old, &now, NULL);
	const profdata_heap_diff_objects *o = profdata_heap_diff_objects_of(d);
	ck_assert_uint_eq(o->matched + o->added, o->new_objects);
	ck_assert_uint_eq(o->matched + o->gone, o->old_objects);
	ck_assert_uint_eq(o->matched_bytes + o->added_bytes, o->new_bytes);
	/* One process, one full GC before each dump: the old objects kept their addresses (nearly all). */
	ck_assert_uint_ge(o->matched * 100, o->old_objects * 99);
	/* An Order, its long[], its Node and its Integer key for each planted entry, and the new table. */
	ck_assert_uint_ge(o->added, 4 * PLANTED + 1);
	ck_assert_uint_ge(profdata_heap_diff_dominator_count(d), 1);
	const profdata_heap_new_dominator *x = profdata_heap_diff_dominator_at(d, 0);
	ck_assert_str_eq(x->class_name, "java.util.HashMap$Node[]");
	ck_assert_uint_eq(x->shallow, 16 + 8192 * 4);
	ck_assert_uint_eq(x->retained, profdata_heap_retained(now.h, x->node));
	/* It holds every entry, old and new: 4,000 of (Order, long[4], Node), and the Integer keys but 0 to
	 * 127, which Integer's cache holds too. */
	ck_assert_uint_eq(x->retained, x->shallow + (uint64_t)(1000 + PLANTED) * (ORDER_BYTES + LINES_BYTES + 32) +
	                                   (uint64_t)(1000 + PLANTED - 128) * 16);
	size_t id_index;
	ck_assert_int_eq(profdata_profile_find_object(old.p, x->id, &id_index), PROFDATA_ENOTFOUND);
	for (size_t k = 1; k < profdata_heap_diff_dominator_count(d); k++)
		ck_assert_uint_le(profdata_heap_diff_dominator_at(d, k)->retained, profdata_heap_diff_dominator_at(d, k - 1)->retained);
	profdata_heap_diff_free(d);
	close_dump(&old);
	close_dump(&now);
}
END_TEST

START_TEST(the_order_follows_the_options)
{
	dump old, now;
	profdata_heap_diff_options o;
	ck_assert_int_eq(profdata_heap_diff_options_init(&o, sizeof o), 0);
	o.order = PROFDATA_HEAP_DIFF_BY_RETAINED;
	o.dominators = 1;
	profdata_heap_diff *d = growth_diff(&old, &now, &o);
	for (size_t i = 1; i < profdata_heap_diff_class_count(d); i++)
		ck_assert_int_le(profdata_heap_diff_class_at(d, i)->retained, profdata_heap_diff_class_at(d, i - 1)->retained);
	/* The map, whose new table holds all that grew. */
	ck_assert_str_eq(profdata_heap_diff_class_at(d, 0)->class_name, "java.util.HashMap");
	ck_assert_uint_eq(profdata_heap_diff_dominator_count(d), 1);
	profdata_heap_diff_free(d);
	o.order = PROFDATA_HEAP_DIFF_BY_INSTANCES;
	ck_assert_int_eq(profdata_heap_diff_new(&d, old.h, now.h, &o), 0);
	ck_assert_int_eq(profdata_heap_diff_class_at(d, 0)->instances, PLANTED);
	for (size_t i = 1; i < profdata_heap_diff_class_count(d); i++)
		ck_assert_int_le(profdata_heap_diff_class_at(d, i)->instances, profdata_heap_diff_class_at(d, i - 1)->instances);
	profdata_heap_diff_free(d);
	close_dump(&old);
	close_dump(&now);
}
END_TEST

START_TEST(a_dump_against_itself_has_no_change)
{
	dump one;
	open_dump(&one, "hprof/jdk17-growth-1.hprof.gz", 0);
	profdata_heap_diff *d = NULL;
	ck_assert_int_eq(profdata_heap_diff_new(&d, one.h, one.h, NULL), 0);
	const profdata_heap_diff_objects *o = profdata_heap_diff_objects_of(d);
	ck_assert_uint_eq(o->matched, o->old_objects);
	ck_assert_uint_eq(o->added + o->gone + o->added_bytes + o->gone_bytes, 0);
	ck_assert_uint_eq(profdata_heap_diff_dominator_count(d), 0);
	for (size_t i = 0; i < profdata_heap_diff_class_count(d); i++) {
		const profdata_heap_class_change *c = profdata_heap_diff_class_at(d, i);
		ck_assert_int_eq(c->instances | c->bytes | c->retained, 0);
	}
	profdata_heap_diff_free(d);
	close_dump(&one);
}
END_TEST

START_TEST(bad_options_and_a_heap_without_dominators_are_refused_with_a_message)
{
	dump full, graph;
	open_dump(&full, "hprof/jdk17-growth-1.hprof.gz", 0);
	open_dump(&graph, "hprof/jdk17-growth-2.hprof.gz", 1);
	profdata_heap_diff *d = NULL;
	ck_assert_int_eq(profdata_heap_diff_new(&d, full.h, graph.h, NULL), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_heap_diff_error(d)->message, "graph_only"));
	profdata_heap_diff_free(d);
	profdata_heap_diff_options o = PROFDATA_HEAP_DIFF_OPTIONS_INIT;
	o.order = 7;
	ck_assert_int_eq(profdata_heap_diff_new(&d, full.h, full.h, &o), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_heap_diff_error(d)->message, "order"));
	profdata_heap_diff_free(d);
	o.order = 0;
	o.version = 99;
	ck_assert_int_eq(profdata_heap_diff_new(&d, full.h, full.h, &o), PROFDATA_EINVAL);
	profdata_heap_diff_free(d);
	ck_assert_int_eq(profdata_heap_diff_options_init(&o, 1), PROFDATA_EINVAL);
	profdata_heap_diff_free(NULL);
	close_dump(&full);
	close_dump(&graph);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("heap-diff");
	TCase *tc = tcase_create("heap-diff");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, the_planted_class_grows_by_the_planted_count_and_bytes_and_comes_first);
	tcase_add_test(tc, objects_match_by_id_and_the_grown_table_dominates_the_new_memory);
	tcase_add_test(tc, the_order_follows_the_options);
	tcase_add_test(tc, a_dump_against_itself_has_no_change);
	tcase_add_test(tc, bad_options_and_a_heap_without_dominators_are_refused_with_a_message);
	suite_add_tcase(s, tc);
	return s;
}
