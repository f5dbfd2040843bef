/* SPDX-License-Identifier: Apache-2.0 */
/* What pprof -top shows (profdata/top.h): flat and cumulative sums per function, line and file. */
#define PROFDATA_EXPERIMENTAL
#include <stdlib.h>
#include <string.h>

#include "support.h"

/*
 * Functions main (main.c), work and leaf (work.c) and their frames (line
 * 10 + id), stacks leaf first: 1 [leaf, work, main], 2 [work, main],
 * 3 [main], 4 [work, work, main] (recursion); samples of two types,
 * "samples"/"count" and "cpu"/"nanoseconds", the second ten million times
 * the first: stack 1 three times, 2 twice, 3 once, 4 once.
 */
/* A profile begun through the builder's events (*ev), with strings 1.. n the texts of strs. */
static profdata_profile *begin_with_strings(const char *const *strs, size_t n, const profdata_events **ev)
{
	profdata_profile *p;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	*ev = profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof m);
	ck_assert_int_eq((*ev)->begin(p, &m), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq((*ev)->string(p, i + 1, strs[i], strlen(strs[i])), 0);
	return p;
}

static profdata_profile *three_functions(void)
{
	static const char *const strs[] = { "main", "work", "leaf", "main.c", "work.c", "samples", "count", "cpu",
	                                    "nanoseconds" };
	const profdata_events *ev;
	profdata_profile *p = begin_with_strings(strs, sizeof strs / sizeof strs[0], &ev);
	for (uint64_t f = 1; f <= 3; f++) {
		profdata_function fn = { f, f, 0, f == 1 ? 4 : 5, 0, 0, 0 };
		profdata_frame fr = { f, f, (int32_t)(10 + f), 0, 0, 0 };
		ck_assert_int_eq(ev->function(p, &fn), 0);
		ck_assert_int_eq(ev->frame(p, &fr), 0);
	}
	static const uint64_t s1[] = { 3, 2, 1 }, s2[] = { 2, 1 }, s3[] = { 1 }, s4[] = { 2, 2, 1 };
	const uint64_t *frames[] = { s1, s2, s3, s4 };
	size_t nframes[] = { 3, 2, 1, 3 };
	for (uint32_t s = 0; s < 4; s++) {
		profdata_stack st = { s + 1, 0, frames[s], nframes[s] };
		ck_assert_int_eq(ev->stack(p, &st), 0);
	}
	profdata_sample_type count = { 6, 7 }, cpu = { 8, 9 };
	ck_assert_int_eq(ev->sample_type(p, &count), 0);
	ck_assert_int_eq(ev->sample_type(p, &cpu), 0);
	uint32_t serials[] = { 1, 1, 1, 2, 2, 3, 4 };
	for (size_t i = 0; i < sizeof serials / sizeof serials[0]; i++) {
		int64_t values[] = { 1, 10000000 };
		profdata_sample s = { serials[i], 0, 0, values, 2 };
		ck_assert_int_eq(ev->sample(p, &s), 0);
	}
	ck_assert_int_eq(ev->end(p), 0);
	return p;
}

static void assert_row(const profdata_top *t, size_t i, const char *name, int64_t flat, int64_t cum)
{
	const profdata_top_entry *e = profdata_top_entry_at(t, i);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(e->name, name);
	ck_assert_int_eq(e->flat, flat);
	ck_assert_int_eq(e->cum, cum);
}

START_TEST(flat_is_the_innermost_frame_and_cum_counts_a_recursion_once)
{
	profdata_profile *p = three_functions();
	profdata_top_options o = PROFDATA_TOP_OPTIONS_INIT;
	o.sample_type = "samples";
	profdata_top *t;
	ck_assert_int_eq(profdata_top_new(&t, p, &o), 0);
	ck_assert_int_eq(profdata_top_total(t), 7);
	ck_assert_uint_eq(profdata_top_count(t), 3);
	assert_row(t, 0, "leaf", 3, 3);
	assert_row(t, 1, "work", 3, 6);
	assert_row(t, 2, "main", 1, 7);
	ck_assert_str_eq(profdata_top_unit(t), "count");
	profdata_top_free(t);
	profdata_profile_free(p);
}
END_TEST

START_TEST(the_last_sample_type_is_summed_by_default_as_pprof_does)
{
	profdata_profile *p = three_functions();
	profdata_top *t;
	ck_assert_int_eq(profdata_top_new(&t, p, NULL), 0);
	ck_assert_str_eq(profdata_top_sample_type(t), "cpu");
	ck_assert_str_eq(profdata_top_unit(t), "nanoseconds");
	ck_assert_int_eq(profdata_top_total(t), 70000000);
	assert_row(t, 0, "leaf", 30000000, 30000000);
	profdata_top_free(t);
	profdata_profile_free(p);
}
END_TEST

START_TEST(rows_by_line_and_by_file)
{
	profdata_profile *p = three_functions();
	profdata_top_options o;
	ck_assert_int_eq(profdata_top_options_init(&o, sizeof o), 0);
	o.group = PROFDATA_TOP_LINES;
	profdata_top *t;
	ck_assert_int_eq(profdata_top_new(&t, p, &o), 0);
	assert_row(t, 0, "leaf work.c:13", 30000000, 30000000);
	assert_row(t, 2, "main main.c:11", 10000000, 70000000);
	profdata_top_free(t);
	o.group = PROFDATA_TOP_FILES;
	ck_assert_int_eq(profdata_top_new(&t, p, &o), 0);
	ck_assert_uint_eq(profdata_top_count(t), 2);
	assert_row(t, 0, "work.c", 60000000, 60000000);
	assert_row(t, 1, "main.c", 10000000, 70000000);
	profdata_top_free(t);
	profdata_profile_free(p);
}
END_TEST

START_TEST(an_unknown_sample_type_is_said_with_those_there_are)
{
	profdata_profile *p = three_functions();
	profdata_top_options o = PROFDATA_TOP_OPTIONS_INIT;
	o.sample_type = "alloc_space";
	profdata_top *t;
	ck_assert_int_eq(profdata_top_new(&t, p, &o), PROFDATA_ENOTFOUND);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(profdata_top_error(t)->message, "sample type \"alloc_space\": the profile has samples, cpu");
	profdata_top_free(t);
	o.version = 99;
	ck_assert_int_eq(profdata_top_new(&t, p, &o), PROFDATA_EINVAL);
	profdata_top_free(t);
	profdata_profile_free(p);
}
END_TEST

/*
 * Inline marks as pprof's graph makes them. Frames of one mapping: main
 * (1), F out of line (2) and inlined into main (3), G inlined into F (4)
 * and out of line (5), H out of line (6) and inlined into main (7). Stacks,
 * leaf first: [6, 7, 1] (H's inlined part calls its own out-of-line part:
 * no call of H into H), [2, 3, 1], [5, 2, 4, 2, 1] (F calls G first
 * inlined, then again out of line: the recursion's repeated call is not
 * counted).
 */
static profdata_profile *inlined_calls(void)
{
	static const char *const strs[] = { "main", "F", "G", "H", "samples", "count", "a.out" };
	const profdata_events *ev;
	profdata_profile *p = begin_with_strings(strs, sizeof strs / sizeof strs[0], &ev);
	profdata_mapping map = { 0x1000, 0x2000, 0, 0, 7, 0, "r-xp", "" };
	ck_assert_int_eq(ev->mapping(p, &map), 0);
	for (uint64_t f = 1; f <= 4; f++) {
		profdata_function fn = { f, f, 0, 0, 0, 0, 0 };
		ck_assert_int_eq(ev->function(p, &fn), 0);
	}
	static const uint64_t fn_of[] = { 1, 2, 2, 3, 3, 4, 4 };
	static const int has_addr[] = { 1, 1, 0, 0, 1, 1, 0 };
	for (uint64_t f = 1; f <= 7; f++) {
		profdata_frame fr = { f, fn_of[f - 1], 0, has_addr[f - 1] ? 0x1000 + 16 * f : 0, has_addr[f - 1], 1 };
		ck_assert_int_eq(ev->frame(p, &fr), 0);
	}
	static const uint64_t s1[] = { 6, 7, 1 }, s2[] = { 2, 3, 1 }, s3[] = { 5, 2, 4, 2, 1 };
	const uint64_t *frames[] = { s1, s2, s3 };
	size_t nframes[] = { 3, 3, 5 };
	profdata_sample_type count = { 5, 6 };
	ck_assert_int_eq(ev->sample_type(p, &count), 0);
	for (uint32_t k = 0; k < 3; k++) {
		profdata_stack st = { k + 1, 0, frames[k], nframes[k] };
		int64_t one = 1;
		profdata_sample smp = { k + 1, 0, 0, &one, 1 };
		ck_assert_int_eq(ev->stack(p, &st), 0);
		ck_assert_int_eq(ev->sample(p, &smp), 0);
	}
	ck_assert_int_eq(ev->end(p), 0);
	return p;
}

static int inline_mark(const profdata_top *t, const char *name)
{
	for (size_t i = 0; i < profdata_top_count(t); i++)
		if (strcmp(profdata_top_entry_at(t, i)->name, name) == 0)
			return profdata_top_entry_at(t, i)->inlined;
	ck_abort_msg("no row %s", name);
	return -1;
}

START_TEST(inline_marks_skip_self_calls_and_repeated_calls_as_pprof_does)
{
	profdata_profile *p = inlined_calls();
	profdata_top *t;
	ck_assert_int_eq(profdata_top_new(&t, p, NULL), 0);
	ck_assert_int_eq(inline_mark(t, "H"), PROFDATA_TOP_INLINED);
	/* main calls F inlined in one stack and out of line in another: one call, not inlined */
	ck_assert_int_eq(inline_mark(t, "F"), 0);
	ck_assert_int_eq(inline_mark(t, "G"), PROFDATA_TOP_INLINED);
	ck_assert_int_eq(inline_mark(t, "main"), 0);
	profdata_top_free(t);
	profdata_profile_free(p);
}
END_TEST

START_TEST(a_heap_dump_has_no_top_of_samples)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "hprof/jdk17-minimal.hprof"), NULL,
	                                PROFDATA_MODE_STRICT);
	profdata_top *t;
	ck_assert_int_eq(profdata_top_new(&t, p, NULL), PROFDATA_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(profdata_top_error(t)->message, "no samples, only a heap"));
	profdata_top_free(t);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("top");
	TCase *tc = tcase_create("top");
	tcase_add_test(tc, flat_is_the_innermost_frame_and_cum_counts_a_recursion_once);
	tcase_add_test(tc, the_last_sample_type_is_summed_by_default_as_pprof_does);
	tcase_add_test(tc, rows_by_line_and_by_file);
	tcase_add_test(tc, an_unknown_sample_type_is_said_with_those_there_are);
	tcase_add_test(tc, a_heap_dump_has_no_top_of_samples);
	tcase_add_test(tc, inline_marks_skip_self_calls_and_repeated_calls_as_pprof_does);
	suite_add_tcase(s, tc);
	return s;
}
