/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The transforms of sample values every format reads with
 * (lib/transform/sample_type.c, top_stacks.c): sample=NAME|INDEX|default
 * keeps one value, as pprof's -sample_index chooses it; top_stacks=N keeps
 * the N stacks of largest value. On the Go runtime's profiles of
 * tests/data/pprof, against the same profiles read whole.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `rel` read with `options`: the profile (NULL on failure, with *code and the message in `why`). */
static profdata_profile *read_with(const char *rel, const char *options, int *code, char *why, size_t cap)
{
	char path[512];
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, rel)), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.options = options;
	profdata_profile *p = NULL;
	*code = profdata_read(&p, r, &o);
	if (*code != 0 && why)
		snprintf(why, cap, "%s", profdata_reader_error(r) ? profdata_reader_error(r)->message : "?");
	profdata_reader_free(r);
	if (*code != 0) {
		profdata_profile_free(p);
		return NULL;
	}
	return p;
}

static const char *type_name(const profdata_profile *p, size_t i)
{
	profdata_sample_type t;
	ck_assert_int_eq(profdata_profile_sample_type(p, i, &t), 0);
	return profdata_profile_string(p, t.type_id, NULL);
}

/* Every sample of `one` (one value) has value `index` of the same sample of `all`. */
static void assert_column(const profdata_profile *all, const profdata_profile *one, size_t index)
{
	size_t n = profdata_profile_count(all, PROFDATA_TABLE_SAMPLES);
	ck_assert_uint_eq(profdata_profile_count(one, PROFDATA_TABLE_SAMPLES), n);
	ck_assert_uint_eq(profdata_profile_count(one, PROFDATA_TABLE_SAMPLE_TYPES), 1);
	ck_assert_str_eq(type_name(one, 0), type_name(all, index));
	for (size_t i = 0; i < n; i++) {
		profdata_sample a, b;
		profdata_profile_sample(all, i, &a);
		profdata_profile_sample(one, i, &b);
		ck_assert_uint_eq(b.nvalues, 1);
		ck_assert_int_eq(b.values[0], a.values[index]);
	}
}

START_TEST(sample_keeps_the_value_named)
{
	int code;
	char why[256];
	profdata_profile *all = read_with("pprof/heap.pb.gz", NULL, &code, NULL, 0);
	ck_assert_ptr_nonnull(all);
	ck_assert_uint_eq(profdata_profile_count(all, PROFDATA_TABLE_SAMPLE_TYPES), 4);
	ck_assert_str_eq(type_name(all, 1), "alloc_space");
	/* by name, and by index as pprof's -sample_index=1 */
	const char *options[] = { "sample=alloc_space", "sample=1" };
	for (size_t k = 0; k < 2; k++) {
		profdata_profile *one = read_with("pprof/heap.pb.gz", options[k], &code, why, sizeof why);
		ck_assert_msg(one != NULL, "%s: %s", options[k], why);
		assert_column(all, one, 1);
		profdata_profile_free(one);
	}
	/* sample=all and no option read alike */
	profdata_profile *every = read_with("pprof/heap.pb.gz", "sample=all", &code, NULL, 0);
	ck_assert(profdata_profile_equal(all, every, why, sizeof why));
	profdata_profile_free(every);
	profdata_profile *none = read_with("pprof/heap.pb.gz", "sample=nothing", &code, why, sizeof why);
	ck_assert_ptr_null(none);
	ck_assert_int_eq(code, PROFDATA_EINVAL);
	ck_assert_msg(strstr(why, "sample=nothing") != NULL, "%s", why);
	none = read_with("pprof/heap.pb.gz", "sample=4", &code, why, sizeof why);
	ck_assert_int_eq(code, PROFDATA_EINVAL);
	profdata_profile_free(all);
}
END_TEST

/* default: the type the profile's default_sample_type names (allocs: alloc_space, not the last), else the last. */
START_TEST(sample_default_is_pprofs_choice)
{
	int code;
	profdata_profile *all = read_with("pprof/allocs.pb.gz", NULL, &code, NULL, 0);
	profdata_profile *one = read_with("pprof/allocs.pb.gz", "sample=default", &code, NULL, 0);
	ck_assert_ptr_nonnull(one);
	assert_column(all, one, 1);
	profdata_profile_free(one);
	profdata_profile_free(all);
	/* gperftools names no default: the last (cpu time) */
	all = read_with("gperftools/cpu-100hz.prof", NULL, &code, NULL, 0);
	one = read_with("gperftools/cpu-100hz.prof", "sample=default", &code, NULL, 0);
	ck_assert_ptr_nonnull(one);
	assert_column(all, one, profdata_profile_count(all, PROFDATA_TABLE_SAMPLE_TYPES) - 1);
	profdata_profile_free(one);
	profdata_profile_free(all);
}
END_TEST

static int by_magnitude(const void *a, const void *b)
{
	int64_t x = llabs(*(const int64_t *)a), y = llabs(*(const int64_t *)b);
	return (x < y) - (x > y);
}

/* Value `index` summed per stack, largest magnitude first, into a new array of *n. */
static int64_t *stack_sums(const profdata_profile *p, size_t index, size_t *n)
{
	*n = profdata_profile_count(p, PROFDATA_TABLE_STACKS);
	int64_t *sums = calloc(*n + 1, sizeof *sums);
	ck_assert_ptr_nonnull(sums);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_SAMPLES); i++) {
		profdata_sample s;
		size_t si;
		profdata_profile_sample(p, i, &s);
		ck_assert_int_eq(profdata_profile_find_stack(p, s.stack_serial, &si), 0);
		sums[si] += s.values[index];
	}
	qsort(sums, *n, sizeof *sums, by_magnitude);
	return sums;
}

START_TEST(top_stacks_keeps_the_heaviest)
{
	int code;
	char why[256];
	profdata_profile *all = read_with("pprof/block.pb.gz", "sample=delay", &code, why, sizeof why);
	ck_assert_msg(all != NULL, "%s", why);
	size_t n, m;
	int64_t *want = stack_sums(all, 0, &n);
	ck_assert_uint_ge(n, 4);
	/* ranked by the default type (delay), whatever sample= keeps */
	profdata_profile *top = read_with("pprof/block.pb.gz", "top_stacks=3", &code, why, sizeof why);
	ck_assert_msg(top != NULL, "%s", why);
	ck_assert_uint_eq(profdata_profile_count(top, PROFDATA_TABLE_SAMPLE_TYPES), 2);
	int64_t *got = stack_sums(top, 1, &m);
	ck_assert_uint_eq(m, 3);
	for (size_t i = 0; i < 3; i++)
		ck_assert_int_eq(got[i], want[i]);
	free(got);
	profdata_profile_free(top);
	/* more than there are: all of them */
	top = read_with("pprof/block.pb.gz", "sample=delay,top_stacks=1000", &code, why, sizeof why);
	ck_assert(profdata_profile_equal(all, top, why, sizeof why));
	profdata_profile_free(top);
	ck_assert_ptr_null(read_with("pprof/block.pb.gz", "top_stacks=0", &code, why, sizeof why));
	ck_assert_int_eq(code, PROFDATA_EINVAL);
	free(want);
	profdata_profile_free(all);
}
END_TEST

/* The labels of the samples kept stay with them (the Go CPU profile's pprof.Do labels). */
START_TEST(top_stacks_keeps_labels)
{
	int code;
	profdata_profile *all = read_with("pprof/cpu.pb.gz", NULL, &code, NULL, 0);
	profdata_profile *top = read_with("pprof/cpu.pb.gz", "top_stacks=1", &code, NULL, 0);
	ck_assert_ptr_nonnull(top);
	ck_assert_uint_gt(profdata_profile_count(all, PROFDATA_TABLE_LABEL_SETS), 0);
	ck_assert_uint_eq(profdata_profile_count(top, PROFDATA_TABLE_STACKS), 1);
	ck_assert_uint_gt(profdata_profile_count(top, PROFDATA_TABLE_LABEL_SETS), 0);
	profdata_profile_free(top);
	profdata_profile_free(all);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("sample-values");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, sample_keeps_the_value_named);
	tcase_add_test(tc, sample_default_is_pprofs_choice);
	tcase_add_test(tc, top_stacks_keeps_the_heaviest);
	tcase_add_test(tc, top_stacks_keeps_labels);
	suite_add_tcase(s, tc);
	return s;
}
