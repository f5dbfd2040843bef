/* SPDX-License-Identifier: Apache-2.0 */
/* Profiles merged as pprof merges them (profdata/merge.h). */
#define PROFDATA_EXPERIMENTAL
#include <stdlib.h>
#include <string.h>

#include "support.h"

/*
 * Functions f1..f3, a frame each; stacks [f1], [f2, f1], [f3, f1]; the
 * types `ntypes` of ("samples", "count"), ("cpu", "nanoseconds"); one
 * sample per stack listed in `stacks` (values i + 1 and 10 times that),
 * the sample of stack 2 labelled worker=alpha.
 */
/* Frame kinds (kinds[f - 1] of frame f, 0 none) and stacks cut short (bit s - 1 of `cut`): marks. */
typedef struct marks {
	uint32_t kinds[3];
	unsigned cut;
} marks;

static void send_marks(profdata_profile *p, const profdata_events *ev, const marks *mk)
{
	for (uint64_t f = 1; mk && f <= 3; f++) {
		profdata_frame_kind k = { 200 + f, mk->kinds[f - 1] };
		if (k.kind)
			ck_assert_int_eq(ev->frame_kind(p, &k), 0);
	}
	for (uint32_t st = 1; mk && st <= 3; st++) {
		profdata_stack_truncated t = { st };
		if (mk->cut & (1u << (st - 1)))
			ck_assert_int_eq(ev->stack_truncated(p, &t), 0);
	}
}

static profdata_profile *marked_profile(const uint32_t *stacks, size_t n, size_t ntypes, const marks *mk)
{
	profdata_profile *p;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	const profdata_events *ev = profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof m);
	m.period = 10;
	m.period_type = "cpu";
	m.period_unit = "nanoseconds";
	ck_assert_int_eq(ev->begin(p, &m), 0);
	const char *strs[] = { "f1", "f2", "f3", "samples", "count", "cpu", "nanoseconds", "worker", "alpha" };
	for (unsigned i = 0; i < sizeof strs / sizeof strs[0]; i++)
		ck_assert_int_eq(ev->string(p, 10 + i, strs[i], strlen(strs[i])), 0);
	for (uint64_t f = 1; f <= 3; f++) {
		profdata_function fn = { 100 + f, 9 + f, 0, 0, 0, 0, 0 };
		profdata_frame fr = { 200 + f, 100 + f, 0, 0, 0, 0 };
		ck_assert_int_eq(ev->function(p, &fn), 0);
		ck_assert_int_eq(ev->frame(p, &fr), 0);
	}
	static const uint64_t s1[] = { 201 }, s2[] = { 202, 201 }, s3[] = { 203, 201 };
	const uint64_t *frames[] = { s1, s2, s3 };
	for (uint32_t s = 0; s < 3; s++) {
		profdata_stack st = { s + 1, 0, frames[s], s ? 2 : 1 };
		ck_assert_int_eq(ev->stack(p, &st), 0);
	}
	profdata_sample_type types[] = { { 13, 14 }, { 15, 16 } };
	for (size_t t = 0; t < ntypes; t++)
		ck_assert_int_eq(ev->sample_type(p, &types[t]), 0);
	for (size_t i = 0; i < n; i++) {
		int64_t values[] = { (int64_t)i + 1, 10 * ((int64_t)i + 1) };
		profdata_label worker = { 17, 18, 0, 0 };
		profdata_sample_labels l = { &worker, 1 };
		if (stacks[i] == 2)
			ck_assert_int_eq(ev->sample_labels(p, &l), 0);
		profdata_sample s = { stacks[i], 0, 0, values, ntypes };
		ck_assert_int_eq(ev->sample(p, &s), 0);
	}
	send_marks(p, ev, mk); /* after the samples, as a model replays them */
	ck_assert_int_eq(ev->end(p), 0);
	return p;
}

static profdata_profile *small_profile(const uint32_t *stacks, size_t n, size_t ntypes)
{
	return marked_profile(stacks, n, ntypes, NULL);
}

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folded stacks of `p`, lines sorted: a reading that ignores the order of rows. */
static char *sorted_folded(const profdata_profile *p)
{
	char *text = test_folded(p, NULL), *lines[64], *out = calloc(1, strlen(text) + 1);
	size_t n = 0;
	for (char *line = strtok(text, "\n"); line && n < 64; line = strtok(NULL, "\n"))
		lines[n++] = line;
	qsort(lines, n, sizeof lines[0], compare_lines);
	for (size_t i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	free(text);
	return out;
}

/* The merge of `inputs` (added in that order) as a model. */
static profdata_profile *merged(profdata_profile *const *inputs, size_t n)
{
	profdata_merge *m;
	profdata_profile *out;
	ck_assert_int_eq(profdata_merge_new(&m), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(profdata_merge_add(m, inputs[i]), 0);
	ck_assert_uint_eq(profdata_merge_inputs(m), n);
	ck_assert_int_eq(profdata_merge_profile(&out, m), 0);
	profdata_merge_free(m);
	return out;
}

static int64_t sample_value(const profdata_profile *p, size_t i, size_t v)
{
	profdata_sample s;
	ck_assert_int_eq(profdata_profile_sample_sized(p, i, &s, sizeof s), 0);
	ck_assert_uint_gt(s.nvalues, v);
	return s.values[v];
}

START_TEST(equal_stacks_and_labels_are_summed_and_rows_kept_once)
{
	static const uint32_t stacks[] = { 1, 2, 3, 2 };
	profdata_profile *a = small_profile(stacks, 4, 2);
	profdata_profile *inputs[] = { a, a };
	profdata_profile *m = merged(inputs, 2);
	ck_assert_uint_eq(profdata_profile_count(m, PROFDATA_TABLE_FUNCTIONS), 3);
	ck_assert_uint_eq(profdata_profile_count(m, PROFDATA_TABLE_FRAMES), 3);
	ck_assert_uint_eq(profdata_profile_count(m, PROFDATA_TABLE_STACKS), 3);
	ck_assert_uint_eq(profdata_profile_count(m, PROFDATA_TABLE_SAMPLES), 3);
	/* stack 2's two samples (2 and 4, cpu 20 and 40) of each input, one sample */
	ck_assert_int_eq(sample_value(m, 1, 0), 12);
	ck_assert_int_eq(sample_value(m, 1, 1), 120);
	const profdata_label *labels;
	size_t nlabels;
	ck_assert_int_eq(profdata_profile_sample_labels(&labels, &nlabels, m, 1), 0);
	ck_assert_uint_eq(nlabels, 1);
	size_t len;
	ck_assert_str_eq(profdata_profile_string(m, labels[0].str_id, &len), "alpha");
	ck_assert_uint_eq(profdata_profile_meta(m)->period, 10);
	profdata_profile_free(m);
	profdata_profile_free(a);
}
END_TEST

START_TEST(merging_is_associative_and_commutative)
{
	static const uint32_t sa[] = { 1, 2 }, sb[] = { 3, 3, 1 }, sc[] = { 2, 1, 3 };
	profdata_profile *a = small_profile(sa, 2, 2), *b = small_profile(sb, 3, 2), *c = small_profile(sc, 3, 2);
	profdata_profile *abc[] = { a, b, c }, *cba[] = { c, b, a };
	profdata_profile *ab_inputs[] = { a, b };
	profdata_profile *ab = merged(ab_inputs, 2);
	profdata_profile *ab_c_inputs[] = { ab, c };
	profdata_profile *m1 = merged(abc, 3), *m2 = merged(cba, 3), *m3 = merged(ab_c_inputs, 2);
	char *f1 = sorted_folded(m1), *f2 = sorted_folded(m2), *f3 = sorted_folded(m3);
	ck_assert_str_eq(f1, "f1 6\nf1;f2 3\nf1;f3 6\n");
	ck_assert_str_eq(f1, f2);
	ck_assert_str_eq(f1, f3);
	free(f1);
	free(f2);
	free(f3);
	profdata_profile *all[] = { a, b, c, ab, m1, m2, m3 };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		profdata_profile_free(all[i]);
}
END_TEST

/* The kind of the merged frame of function `name` (0 none), and whether the merged stack `st` (frames' names, leaf first) is cut short. */
static uint32_t merged_kind(const profdata_profile *p, const char *name)
{
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_FRAME_KINDS); i++) {
		profdata_frame_kind k;
		profdata_frame fr;
		profdata_function fn;
		size_t fi, fni, len;
		ck_assert_int_eq(profdata_profile_frame_kind(p, i, &k), 0);
		ck_assert_int_eq(profdata_profile_find_frame(p, k.frame_id, &fi), 0);
		ck_assert_int_eq(profdata_profile_frame(p, fi, &fr), 0);
		ck_assert_int_eq(profdata_profile_find_function(p, fr.function_id, &fni), 0);
		ck_assert_int_eq(profdata_profile_function(p, fni, &fn), 0);
		const char *s = profdata_profile_string(p, fn.name_id, &len);
		if (len == strlen(name) && memcmp(s, name, len) == 0)
			return k.kind;
	}
	return 0;
}

static size_t cut_stack_frames(const profdata_profile *p)
{
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_TRUNCATED_STACKS), 1);
	profdata_stack_truncated t;
	profdata_stack st;
	size_t si;
	ck_assert_int_eq(profdata_profile_stack_truncated(p, 0, &t), 0);
	ck_assert_int_eq(profdata_profile_find_stack(p, t.stack_serial, &si), 0);
	ck_assert_int_eq(profdata_profile_stack(p, si, &st), 0);
	return st.nframes;
}

/*
 * Kinds and cut-short stacks: a frame keeps the kind its inputs agree on
 * (one input's silence is no disagreement); a stack is cut short when
 * every input's stack of its frames was.
 */
START_TEST(frame_kinds_and_cut_stacks_merge_where_inputs_agree)
{
	static const uint32_t all[] = { 1, 2, 3 };
	const marks a = { { PROFDATA_FRAME_KIND_JIT, PROFDATA_FRAME_KIND_INTERPRETED, 0 }, 1u | 2u };
	const marks b = { { PROFDATA_FRAME_KIND_JIT, PROFDATA_FRAME_KIND_NATIVE, PROFDATA_FRAME_KIND_INLINED }, 1u | 4u };
	profdata_profile *in[2] = { marked_profile(all, 3, 1, &a), marked_profile(all, 3, 1, &b) };
	profdata_profile *out = merged(in, 2);
	ck_assert_uint_eq(profdata_profile_count(out, PROFDATA_TABLE_FRAME_KINDS), 2);
	ck_assert_uint_eq(merged_kind(out, "f1"), PROFDATA_FRAME_KIND_JIT);
	ck_assert_uint_eq(merged_kind(out, "f2"), 0); /* interpreted in one, native in the other */
	ck_assert_uint_eq(merged_kind(out, "f3"), PROFDATA_FRAME_KIND_INLINED);
	ck_assert_uint_eq(cut_stack_frames(out), 1); /* [f1] in both; [f2 f1] and [f3 f1] whole in one */
	profdata_profile_free(out);
	out = merged(in, 1); /* one input: its marks as they were */
	ck_assert_uint_eq(profdata_profile_count(out, PROFDATA_TABLE_FRAME_KINDS), 2);
	ck_assert_uint_eq(profdata_profile_count(out, PROFDATA_TABLE_TRUNCATED_STACKS), 2);
	profdata_profile_free(out);
	for (size_t i = 0; i < 2; i++)
		profdata_profile_free(in[i]);
}
END_TEST

START_TEST(sample_types_are_those_every_input_has)
{
	static const uint32_t stacks[] = { 1, 2 };
	profdata_profile *both = small_profile(stacks, 2, 2), *count_only = small_profile(stacks, 2, 1);
	profdata_merge *m;
	profdata_profile *out;
	ck_assert_int_eq(profdata_merge_new(&m), 0);
	ck_assert_int_eq(profdata_merge_add(m, both), 0);
	ck_assert_int_eq(profdata_merge_add(m, count_only), 0);
	ck_assert_uint_eq(profdata_merge_warning_count(m), 1);
	ck_assert_ptr_nonnull(strstr(profdata_merge_warning(m, 0)->message, "sample type cpu left out"));
	ck_assert_int_eq(profdata_merge_profile(&out, m), 0);
	ck_assert_uint_eq(profdata_profile_count(out, PROFDATA_TABLE_SAMPLE_TYPES), 1);
	ck_assert_int_eq(sample_value(out, 0, 0), 2);
	ck_assert_int_eq(sample_value(out, 1, 0), 4);
	profdata_profile_free(out);
	profdata_merge_free(m);
	profdata_profile_free(both);
	profdata_profile_free(count_only);
}
END_TEST

/* The name of sample type t of p. */
static const char *type_name(const profdata_profile *p, size_t t)
{
	profdata_sample_type st;
	ck_assert_int_eq(profdata_profile_sample_type_sized(p, t, &st, sizeof st), 0);
	return profdata_profile_string(p, st.type_id, NULL);
}

/*
 * A differential flame graph's two sides in one merge: NEW's values under
 * its types, BASE's under "base TYPE", each stack with both, 0 where a side
 * lacks it; a scale set before NEW is added scales NEW's columns.
 */
START_TEST(sides_of_a_differential_graph_stand_beside_each_other)
{
	static const uint32_t base_stacks[] = { 1, 2 }, new_stacks[] = { 1, 3 };
	profdata_profile *base = small_profile(base_stacks, 2, 2), *now = small_profile(new_stacks, 2, 2), *out;
	profdata_merge *m;
	ck_assert_int_eq(profdata_merge_new(&m), 0);
	double half[] = { 0.5, 0.5 };
	ck_assert_int_eq(profdata_merge_set_scale(m, half, 2), 0); /* NEW normalized, as diff --normalize */
	ck_assert_int_eq(profdata_merge_add_side(m, now, 0), 0);
	ck_assert_int_eq(profdata_merge_set_scale(m, NULL, 0), 0);
	ck_assert_int_eq(profdata_merge_add_side(m, base, 1), 0);
	ck_assert_int_eq(profdata_merge_profile(&out, m), 0);
	ck_assert_uint_eq(profdata_profile_count(out, PROFDATA_TABLE_SAMPLE_TYPES), 4);
	const char *names[] = { "samples", "cpu", "base samples", "base cpu" };
	for (size_t t = 0; t < 4; t++)
		ck_assert_str_eq(type_name(out, t), names[t]);
	ck_assert_uint_eq(profdata_profile_count(out, PROFDATA_TABLE_SAMPLES), 3);
	/* rows as first seen: stack 1 (NEW's 1 and 10 halved, rounded half away from zero; BASE's 1 and 10),
	 * stack 3 (NEW's only), stack 2 (BASE's only) */
	static const int64_t want[3][4] = { { 1, 5, 1, 10 }, { 1, 10, 0, 0 }, { 0, 0, 2, 20 } };
	for (size_t i = 0; i < 3; i++)
		for (size_t v = 0; v < 4; v++)
			ck_assert_int_eq(sample_value(out, i, v), want[i][v]);
	profdata_profile_free(out);
	profdata_merge_free(m);
	profdata_profile_free(base);
	profdata_profile_free(now);
}
END_TEST

/* A merge of the files `first` and `second` (under tests/data; `second` may be NULL), each decoded straight into it, as a model in *out. */
static profdata_merge *decoded_pair(const char *first, const char *second, profdata_profile **out)
{
	const char *rel[] = { first, second };
	char path[4096];
	profdata_merge *m;
	ck_assert_int_eq(profdata_merge_new(&m), 0);
	for (size_t i = 0; i < 2 && rel[i]; i++) {
		profdata_reader *r;
		ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, rel[i])), 0);
		ck_assert_int_eq(profdata_decode(r, NULL, profdata_merge_events(), m), 0);
		profdata_reader_free(r);
	}
	ck_assert_int_eq(profdata_merge_profile(out, m), 0);
	return m;
}

START_TEST(cpu_profiles_of_different_formats_mix)
{
	char path[4096];
	profdata_profile *go = test_read(test_data_path(path, sizeof path, "pprof/cpu.pb.gz"), NULL, PROFDATA_MODE_STRICT);
	profdata_profile *gperf = test_read(test_data_path(path, sizeof path, "gperftools/cpu-100hz.prof"), NULL,
	                                    PROFDATA_MODE_STRICT);
	profdata_profile *out;
	profdata_merge *m = decoded_pair("pprof/cpu.pb.gz", "gperftools/cpu-100hz.prof", &out);
	ck_assert_uint_eq(profdata_profile_count(out, PROFDATA_TABLE_SAMPLE_TYPES), 2);
	ck_assert_uint_eq(test_total_count(out), test_total_count(go) + test_total_count(gperf));
	/* gperftools' period of 10000 microseconds, in the first input's nanoseconds */
	ck_assert_uint_eq(profdata_profile_meta(out)->period, 10000000);
	ck_assert_str_eq(profdata_profile_meta(out)->period_unit, "nanoseconds");
	profdata_profile_free(out);
	profdata_merge_free(m);
	profdata_profile_free(go);
	profdata_profile_free(gperf);
}
END_TEST

START_TEST(hprof_cpu_samples_mix_with_gperftools_on_their_common_type)
{
	profdata_profile *out;
	profdata_merge *m = decoded_pair("hprof/synthetic/agent-1.0.1-id4.hprof", "gperftools/cpu-100hz.prof", &out);
	/* HPROF counts samples only: gperftools' cpu time goes, said */
	ck_assert_uint_eq(profdata_profile_count(out, PROFDATA_TABLE_SAMPLE_TYPES), 1);
	ck_assert_uint_eq(profdata_merge_warning_count(m), 1);
	ck_assert_ptr_nonnull(strstr(profdata_merge_warning(m, 0)->message, "sample type cpu of input 2 left out"));
	profdata_profile_free(out);
	profdata_merge_free(m);
}
END_TEST

static size_t count(const profdata_profile *p, profdata_table t)
{
	return profdata_profile_count(p, t);
}

/*
 * File `rel` decoded into a merge, then its model added to that merge: the
 * same rows as the file alone, every value twice. A model replays its
 * mappings and class loads after the frames and functions that name them,
 * a decoder before them; the tool's merge on two threads adds one run's
 * merged model to the other run's merge, so a frame that lost its mapping
 * (or a function its class) there would stand twice in the result.
 */
static void check_added_as_decoded(const char *rel)
{
	char path[4096];
	profdata_profile *model = test_read(test_data_path(path, sizeof path, rel), NULL, PROFDATA_MODE_STRICT);
	profdata_profile *once, *twice;
	profdata_merge *m = decoded_pair(rel, NULL, &once);
	ck_assert_int_eq(profdata_merge_add(m, model), 0);
	ck_assert_int_eq(profdata_merge_profile(&twice, m), 0);
	ck_assert_uint_gt(count(once, PROFDATA_TABLE_FRAMES), 0);
	static const profdata_table tables[] = { PROFDATA_TABLE_FUNCTIONS, PROFDATA_TABLE_FRAMES, PROFDATA_TABLE_STACKS,
		                                     PROFDATA_TABLE_SAMPLES, PROFDATA_TABLE_MAPPINGS };
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
		ck_assert_uint_eq(count(twice, tables[t]), count(once, tables[t]));
	ck_assert_uint_eq(test_total_count(twice), 2 * test_total_count(once));
	for (size_t i = 0; i < count(once, PROFDATA_TABLE_FRAMES); i++) {
		profdata_frame a, b;
		ck_assert_int_eq(profdata_profile_frame(once, i, &a), 0);
		ck_assert_int_eq(profdata_profile_frame(twice, i, &b), 0);
		ck_assert_uint_eq(a.mapping, b.mapping);
	}
	profdata_profile_free(once);
	profdata_profile_free(twice);
	profdata_merge_free(m);
	profdata_profile_free(model);
}

START_TEST(a_profile_added_merges_as_its_file_decoded)
{
	/* functions of classes: HPROF's frames name them by class serial */
	check_added_as_decoded("hprof/synthetic/agent-1.0.1-id4.hprof");
	check_added_as_decoded("gperftools/cpu-100hz.prof");
}
END_TEST

START_TEST(a_pprof_profile_added_merges_as_its_file_decoded)
{
	check_added_as_decoded("pprof/cpu.pb.gz");
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("merge");
	tcase_add_test(tc, equal_stacks_and_labels_are_summed_and_rows_kept_once);
	tcase_add_test(tc, merging_is_associative_and_commutative);
	tcase_add_test(tc, frame_kinds_and_cut_stacks_merge_where_inputs_agree);
	tcase_add_test(tc, sample_types_are_those_every_input_has);
	tcase_add_test(tc, sides_of_a_differential_graph_stand_beside_each_other);
	tcase_add_test(tc, hprof_cpu_samples_mix_with_gperftools_on_their_common_type);
	tcase_add_test(tc, a_profile_added_merges_as_its_file_decoded);
	suite_add_tcase(s, tc);
	if (test_case_requested("pprof")) {
		tc = tcase_create("pprof");
		tcase_add_test(tc, cpu_profiles_of_different_formats_mix);
		tcase_add_test(tc, a_pprof_profile_added_merges_as_its_file_decoded);
		suite_add_tcase(s, tc);
	}
	return s;
}
