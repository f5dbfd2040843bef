/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core's registry and seams: table names from the one list, formats
 * found by file name, what a build left out, read transforms chained by
 * the core, and events an encoder drops counted and reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

START_TEST(every_table_has_a_name_that_leads_back_to_it)
{
	for (int t = 0; t < PROFDATA_TABLE_COUNT_; t++) {
		const char *name = profdata_table_name((profdata_table)t);
		profdata_table back = PROFDATA_TABLE_COUNT_;
		ck_assert_ptr_nonnull(name);
		ck_assert_int_eq(profdata_table_from_name(&back, name), 0);
		ck_assert_int_eq(back, t);
	}
	ck_assert_str_eq(profdata_table_name(PROFDATA_TABLE_TRACE_CONTEXTS), "trace_contexts");
	ck_assert_str_eq(profdata_table_name(PROFDATA_TABLE_UNKNOWN), "unknown_records");
	ck_assert_ptr_null(profdata_table_name(PROFDATA_TABLE_COUNT_));
	ck_assert_ptr_null(profdata_table_name((profdata_table)-1));
}
END_TEST

START_TEST(a_text_that_names_no_table_is_not_found)
{
	profdata_table t = PROFDATA_TABLE_OBJECTS;
	ck_assert_int_eq(profdata_table_from_name(&t, "object"), PROFDATA_ENOTFOUND);
	ck_assert_int_eq(profdata_table_from_name(&t, ""), PROFDATA_ENOTFOUND);
	ck_assert_int_eq(profdata_table_from_name(&t, NULL), PROFDATA_ENOTFOUND);
	ck_assert_int_eq(t, PROFDATA_TABLE_OBJECTS);
}
END_TEST

/* The name of the format for_filename gives `name`, or its return code as text. */
static const char *format_of(const char *name, char *buf, size_t cap)
{
	const profdata_format *f = NULL;
	int rc = profdata_format_for_filename(&f, name);
	if (rc != 0)
		snprintf(buf, cap, "rc %d", rc);
	return rc == 0 ? profdata_format_name(f) : buf;
}

START_TEST(a_file_name_s_longest_ending_names_its_format)
{
	char buf[32];
	ck_assert_str_eq(format_of("out.speedscope.json", buf, sizeof buf), "speedscope");
	ck_assert_str_eq(format_of("out.trace.json", buf, sizeof buf), "chrome-trace");
	ck_assert_str_eq(format_of("/tmp/a.b/dump.hprof", buf, sizeof buf), "hprof");
	ck_assert_str_eq(format_of("dump.hprof.gz", buf, sizeof buf), "hprof");
	ck_assert_str_eq(format_of("cpu.prof", buf, sizeof buf), "gperftools");
	ck_assert_str_eq(format_of("cpu.svg", buf, sizeof buf), "flamegraph");
	ck_assert_str_eq(format_of("stacks.folded", buf, sizeof buf), "folded");
	if (profdata_format_find("pprof"))
		ck_assert_str_eq(format_of("cpu.pb.gz", buf, sizeof buf), "pprof");
	if (profdata_format_find("tracexml"))
		ck_assert_str_eq(format_of("run.trcxml", buf, sizeof buf), "tracexml");
}
END_TEST

START_TEST(an_ending_no_format_claims_is_not_found)
{
	const char *names[] = { "out.json", "heapdump.txt", "x.gz", ".hprof", "hprof", "", NULL };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const profdata_format *f = profdata_format_find("hprof");
		ck_assert_int_eq(profdata_format_for_filename(&f, names[i]), PROFDATA_ENOTFOUND);
		ck_assert_ptr_null(f);
	}
}
END_TEST

/* No two formats claim one ending, so for_filename never has to answer "ambiguous" today. */
START_TEST(every_ending_leads_back_to_its_one_format)
{
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		for (const char *const *e = profdata_format_extensions(f); *e; e++) {
			char name[64];
			const profdata_format *g = NULL;
			snprintf(name, sizeof name, "file%s", *e);
			ck_assert_int_eq(profdata_format_for_filename(&g, name), 0);
			ck_assert_ptr_eq(g, f);
		}
		ck_assert_ptr_nonnull(profdata_format_read_options(f));
		ck_assert_ptr_nonnull(profdata_format_write_options(f));
	}
}
END_TEST

START_TEST(a_format_left_out_says_what_it_needs)
{
	ck_assert_ptr_null(profdata_format_missing("hprof"));
	ck_assert_ptr_null(profdata_format_missing("no-such-format"));
	ck_assert_ptr_null(profdata_format_missing(NULL));
	const char *optional[] = { "pprof", "tracexml" };
	for (size_t i = 0; i < 2; i++) {
		const char *needs = profdata_format_missing(optional[i]);
		if (profdata_format_find(optional[i]))
			ck_assert_ptr_null(needs);
		else
			ck_assert_ptr_nonnull(needs);
	}
}
END_TEST

static int lists(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (strcmp(*list, key) == 0)
			return 1;
	return 0;
}

START_TEST(read_options_include_the_read_transforms_keys)
{
	const profdata_format *g = profdata_format_find("gperftools");
	ck_assert(lists(profdata_format_read_options(g), "symbolize"));
	ck_assert(lists(profdata_format_read_options(g), "sysroot"));
	ck_assert(!lists(profdata_format_read_options(profdata_format_find("hprof")), "symbolize"));
}
END_TEST

/* Read the gperftools fixture with `options`: the return code; the reader's message in msg. */
static int read_gperftools(const char *options, char *msg, size_t cap)
{
	char path[4096];
	profdata_reader *r = NULL;
	profdata_profile *p = NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.options = options;
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, "gperftools/cpu-100hz.prof")), 0);
	int rc = profdata_read(&p, r, &o);
	const profdata_error *e = profdata_reader_error(r);
	snprintf(msg, cap, "%s", e ? e->message : "");
	profdata_profile_free(p);
	profdata_reader_free(r);
	return rc;
}

START_TEST(the_core_asks_a_read_transform_s_gate)
{
	char msg[512];
	ck_assert_int_eq(read_gperftools("symbolize=none", msg, sizeof msg), 0);
	ck_assert_int_eq(read_gperftools("symbolize=auto", msg, sizeof msg), 0);
	ck_assert_int_eq(read_gperftools("symbolize=maybe", msg, sizeof msg), PROFDATA_EINVAL);
	ck_assert_msg(strstr(msg, "symbolize=maybe") != NULL, "%s", msg);
	int rc = read_gperftools("symbolize=1", msg, sizeof msg);
	if (rc != 0) { /* a build without libdw */
		ck_assert_int_eq(rc, PROFDATA_EUNSUPPORTED);
		ck_assert_msg(strstr(msg, "without symbolization") != NULL, "%s", msg);
	}
}
END_TEST

START_TEST(an_encoder_s_dropped_events_are_counted_and_said_once)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "gperftools/cpu-100hz.prof"), NULL,
	                                PROFDATA_MODE_STRICT);
	size_t nmappings = profdata_profile_count(p, PROFDATA_TABLE_MAPPINGS);
	ck_assert_uint_gt(nmappings, 0);
	profdata_writer *w = NULL;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "hprof";
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_write(p, w, &o), 0);
	char want[128];
	snprintf(want, sizeof want, "hprof: %zu mappings dropped: the format has no place for them", nmappings);
	size_t found = 0;
	for (size_t i = 0; i < profdata_writer_warning_count(w); i++)
		found += strcmp(profdata_writer_warning(w, i)->message, want) == 0;
	ck_assert_uint_eq(found, 1);
	profdata_writer_free(w);
	profdata_profile_free(p);
}
END_TEST

/* Convert the fixture heap dump to `format` in one pass: the return code; the writer's message in msg. */
static int convert_heap_dump(const char *format, char *msg, size_t cap)
{
	char path[4096];
	profdata_reader *r = NULL;
	profdata_writer *w = NULL;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = format;
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, "hprof/jdk17-minimal.hprof")), 0);
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	int rc = profdata_convert(r, NULL, w, &o);
	const profdata_error *e = profdata_writer_error(w);
	snprintf(msg, cap, "%s", e ? e->message : "");
	/* The one place a caller looks: the writer's refusal, with no place in the output to name. */
	ck_assert_ptr_eq(profdata_convert_error(r, w), e);
	ck_assert(!e || e->offset == UINT64_MAX);
	profdata_writer_free(w);
	profdata_reader_free(r);
	return rc;
}

START_TEST(a_heap_dump_to_a_format_of_samples_is_refused_with_the_reason)
{
	const char *formats[] = { "folded", "pprof", "flamegraph", "speedscope", "chrome-trace", "gperftools" };
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		char msg[512];
		if (!profdata_format_find(formats[i]))
			continue; /* pprof in a build without protobuf-c */
		ck_assert_int_eq(convert_heap_dump(formats[i], msg, sizeof msg), PROFDATA_EUNSUPPORTED);
		ck_assert_msg(strstr(msg, "holds no samples, only a heap") != NULL, "%s: %s", formats[i], msg);
	}
}
END_TEST

START_TEST(a_conversion_s_failure_is_in_one_place)
{
	static const char not_a_profile[] = "this is no profile";
	profdata_reader *r = NULL;
	profdata_writer *w = NULL;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "hprof";
	ck_assert_int_eq(profdata_reader_open_memory(&r, not_a_profile, sizeof not_a_profile - 1, "text"), 0);
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_convert(r, NULL, w, &o), PROFDATA_EFORMAT);
	ck_assert_ptr_eq(profdata_convert_error(r, w), profdata_reader_error(r));
	ck_assert_str_eq(profdata_convert_error(r, w)->name, "text");
	ck_assert_ptr_null(profdata_convert_error(NULL, NULL));
	profdata_writer_free(w);
	profdata_reader_free(r);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, every_table_has_a_name_that_leads_back_to_it);
	tcase_add_test(tc, a_text_that_names_no_table_is_not_found);
	tcase_add_test(tc, a_file_name_s_longest_ending_names_its_format);
	tcase_add_test(tc, an_ending_no_format_claims_is_not_found);
	tcase_add_test(tc, every_ending_leads_back_to_its_one_format);
	tcase_add_test(tc, a_format_left_out_says_what_it_needs);
	tcase_add_test(tc, read_options_include_the_read_transforms_keys);
	tcase_add_test(tc, the_core_asks_a_read_transform_s_gate);
	tcase_add_test(tc, an_encoder_s_dropped_events_are_counted_and_said_once);
	tcase_add_test(tc, a_heap_dump_to_a_format_of_samples_is_refused_with_the_reason);
	tcase_add_test(tc, a_conversion_s_failure_is_in_one_place);
	suite_add_tcase(s, tc);
	return s;
}
