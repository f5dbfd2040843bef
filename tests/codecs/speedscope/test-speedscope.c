/* SPDX-License-Identifier: Apache-2.0 */
/*
 * speedscope: export (sampled profiles with folded's totals, evented
 * profiles from traces) and, with yajl, reading: our output reads back and
 * writes again byte for byte; other files' profiles are threads, their
 * units kept apart.
 */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-profile.h"
#include "pd_config.h"

/* The sum of the numbers in the first "weights" array after `from`. */
static long long weights_sum(const char *from)
{
	const char *w = strstr(from, "\"weights\":[");
	ck_assert_ptr_nonnull(w);
	w += strlen("\"weights\":[");
	long long sum = 0;
	while (*w != ']') {
		char *end;
		sum += strtoll(w, &end, 10);
		ck_assert_ptr_ne(end, w);
		w = *end == ',' ? end + 1 : end;
	}
	return sum;
}

static const char *const fixtures[] = { "cpu-100hz.prof", "cpu-1000hz.prof", "api-start-stop.prof",
	                                    "killed-flushed.prof" };

START_TEST(fixtures_have_folded_totals)
{
	char path[4096];
	test_data_path(path, sizeof(path), "gperftools/");
	strncat(path, fixtures[_i], sizeof(path) - strlen(path) - 1);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	char *s = test_write_text(p, "speedscope", NULL);
	ck_assert_ptr_nonnull(strstr(s, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""));
	/* gperftools: samples (count), then cpu (nanoseconds) */
	const char *count = strstr(s, "\"name\":\"samples (count)\",\"unit\":\"none\"");
	const char *cpu = strstr(s, "\"name\":\"cpu (nanoseconds)\",\"unit\":\"nanoseconds\"");
	ck_assert_ptr_nonnull(count);
	ck_assert_ptr_nonnull(cpu);
	ck_assert_int_eq(weights_sum(count), (long long)test_total_count(p));
	char end[64];
	snprintf(end, sizeof end, "\"endValue\":%" PRIu64 ",", test_total_count(p));
	ck_assert_ptr_nonnull(strstr(count, end));
	free(s);
	profdata_profile_free(p);
}
END_TEST

START_TEST(trace_threads)
{
	profdata_profile *p = test_trace_profile();
	char *s = test_write_text(p, "speedscope", NULL);
	ck_assert_ptr_nonnull(strstr(s, "{\"type\":\"evented\",\"name\":\"main-thread\",\"unit\":\"nanoseconds\","
	                                "\"startValue\":1000000,\"endValue\":1010000,\"events\":["));
	ck_assert_ptr_nonnull(strstr(s, "\"name\":\"thread 2\""));
	/* frames by name: Main.main, Main.work, the quote escaped, the unknown method by id */
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"Main.main\"}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"Main.work\"}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"q\\\"uote\"}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"method 0x63\"}"));
	/* thread 1: O main, O work, C work, O work, C work, C main */
	const char *t1 = strstr(s, "main-thread");
	static const char *const seq[] = { "\"O\",\"frame\":0,\"at\":1000000", "\"O\",\"frame\":1,\"at\":1002000",
		                               "\"C\",\"frame\":1,\"at\":1005000", "\"O\",\"frame\":1,\"at\":1006000",
		                               "\"C\",\"frame\":1,\"at\":1007500", "\"C\",\"frame\":0,\"at\":1010000" };
	for (size_t i = 0; i < 6; i++) {
		t1 = strstr(t1, seq[i]);
		ck_assert_msg(t1 != NULL, "missing %s", seq[i]);
	}
	/* thread 2: the stray exit dropped, the open call closed at the end */
	const char *t2 = strstr(s, "\"thread 2\"");
	ck_assert_ptr_nonnull(strstr(t2, "\"C\",\"frame\":2,\"at\":2004000"));
	ck_assert_ptr_null(strstr(t2, "\"at\":2000000}"));
	free(s);
	profdata_profile_free(p);
}
END_TEST

START_TEST(empty_profile)
{
	test_cpu_profile spec;
	memset(&spec, 0, sizeof spec);
	profdata_profile *p = test_build_cpu_profile(&spec);
	char *s = test_write_text(p, "speedscope", NULL);
	ck_assert_ptr_nonnull(strstr(s, "\"samples\":[],\"weights\":[]}"));
	ck_assert_ptr_nonnull(strstr(s, "\"shared\":{\"frames\":[]}}"));
	free(s);
	profdata_profile_free(p);
}
END_TEST

/* Names are JSON strings: quotes and control characters escaped, bytes that are not UTF-8 replaced. */
START_TEST(json_names)
{
	static const char *const strs[] = { "a\001b\xff\"c\\d \xc3\xa9t\xc3\xa9", "samples", "count" };
	static const profdata_function fns[] = { { 1, 100, 0, 0, 0, 0, 0 } };
	static const profdata_frame frs[] = { { 11, 1, 0, 0, 0, 0 } };
	static const uint64_t chain[] = { 11 };
	static const profdata_stack sts[] = { { 1, 0, chain, 1 } };
	static const profdata_sample_type t = { 101, 102 };
	static const int64_t v[] = { 4 };
	static const profdata_sample xs[] = { { 1, 0, 0, v, 1 } };
	test_cpu_profile spec = { .strings = strs, .nstrings = 3, .first_string_id = 100, .functions = fns,
		                      .nfunctions = 1, .frames = frs, .nframes = 1, .stacks = sts, .nstacks = 1,
		                      .sample_type = &t, .samples = xs, .nsamples = 1 };
	profdata_profile *p = test_build_cpu_profile(&spec);
	char *s = test_write_text(p, "speedscope", NULL);
	ck_assert_msg(strstr(s, "{\"name\":\"a\\u0001b\\ufffd\\\"c\\\\d \xc3\xa9t\xc3\xa9\"}") != NULL, "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "\"samples\":[\n[0]],\"weights\":[4]}"));
	free(s);
	s = test_write_text(p, "chrome-trace", NULL);
	ck_assert_ptr_nonnull(strstr(s, "\"name\":\"a\\u0001b\\ufffd\\\"c\\\\d \xc3\xa9t\xc3\xa9\"}"));
	free(s);
	profdata_profile_free(p);
}
END_TEST

START_TEST(corpus_totals)
{
	const char *dir = test_corpus_dir();
	ck_assert_ptr_nonnull(dir);
	char path[4096];
	snprintf(path, sizeof path, "%s/gperftools/cppbench.cpu", dir);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	char *s = test_write_text(p, "speedscope", NULL);
	ck_assert_int_eq(weights_sum(strstr(s, "samples (count)")), 712);
	free(s);
	profdata_profile_free(p);
}
END_TEST

#if PD_HAVE_YAJL
/* What we write reads back and writes again byte for byte: samples, and a trace's evented profiles. */
START_TEST(reads_back_byte_for_byte)
{
	char path[4096];
	profdata_profile *p;
	if (_i < (int)(sizeof fixtures / sizeof fixtures[0])) {
		test_data_path(path, sizeof(path), "gperftools/");
		strncat(path, fixtures[_i], sizeof(path) - strlen(path) - 1);
		p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	} else {
		p = test_trace_profile();
	}
	size_t len, len2;
	unsigned char *a = test_write(p, "speedscope", NULL, &len);
	char msg[256] = "";
	profdata_profile *q = test_read_memory(a, len, NULL, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(q != NULL, "%s", msg);
	unsigned char *b = test_write(q, "speedscope", NULL, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_int_eq(memcmp(a, b, len), 0);
	free(a);
	free(b);
	profdata_profile_free(q);
	profdata_profile_free(p);
}
END_TEST

/* A file another program wrote: each sampled profile a thread, time in nanoseconds beside counts. */
START_TEST(foreign_profiles_are_threads)
{
	static const char json[] =
		"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":["
		"{\"name\":\"a\",\"file\":\"a.js\",\"line\":3},{\"name\":\"b\"}]},\"profiles\":["
		"{\"type\":\"sampled\",\"name\":\"t1\",\"unit\":\"milliseconds\",\"startValue\":0,\"endValue\":3,"
		"\"samples\":[[0],[0,1]],\"weights\":[1.5,1.5]},"
		"{\"type\":\"sampled\",\"name\":\"t2\",\"unit\":\"none\",\"startValue\":0,\"endValue\":2,"
		"\"samples\":[[1]],\"weights\":[2]}]}";
	char msg[256] = "";
	profdata_profile *p = test_read_memory(json, strlen(json), NULL, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), 2);
	profdata_sample smp;
	ck_assert_int_eq(profdata_profile_sample(p, 1, &smp), 0);
	ck_assert_uint_eq(smp.nvalues, 2);
	ck_assert_int_eq(smp.values[0], 1500000);
	ck_assert_int_eq(profdata_profile_sample(p, 2, &smp), 0);
	ck_assert_int_eq(smp.values[1], 2);
	ck_assert_uint_eq(smp.thread_serial, 2);
	profdata_profile_free(p);
}
END_TEST

static const char *const bad_files[][2] = {
	{ "{\"profiles\":[{\"type\":\"sampled\",\"unit\":\"none\",\"samples\":[[0]],\"weights\":[]}]}",
	  "1 samples and 0 weights" },
	{ "{\"profiles\":[{\"type\":\"sampled\",\"unit\":\"none\",\"samples\":[[3]],\"weights\":[1]}],"
	  "\"shared\":{\"frames\":[{\"name\":\"a\"}]}}", "frame 3 past the 1 shared frames" },
	{ "{\"profiles\":[{\"type\":\"other\"}]}", "neither sampled nor evented" },
	{ "{\"profiles\":[{\"type\":\"sampled\",\"unit\":\"parsecs\"}]}", "not one of speedscope's" },
	{ "{\"profiles\":[{\"type\":\"evented\",\"events\":[{\"type\":\"O\",\"at\":1}]}]}", "without a frame" },
	{ "{\"profiles\":[", "premature EOF" },
};

START_TEST(bad_files_say_why)
{
	char msg[256] = "";
	const char *json = bad_files[_i][0];
	profdata_profile *p = test_read_memory(json, strlen(json), "speedscope", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(msg, bad_files[_i][1]) != NULL, "\"%s\" lacks \"%s\"", msg, bad_files[_i][1]);
}
END_TEST
#endif

Suite *suite_main(void)
{
	Suite *s = suite_create("speedscope");
	TCase *tc = tcase_create("speedscope");
	tcase_add_loop_test(tc, fixtures_have_folded_totals, 0, sizeof(fixtures) / sizeof(fixtures[0]));
	tcase_add_test(tc, trace_threads);
	tcase_add_test(tc, empty_profile);
	tcase_add_test(tc, json_names);
#if PD_HAVE_YAJL
	tcase_add_loop_test(tc, reads_back_byte_for_byte, 0, sizeof(fixtures) / sizeof(fixtures[0]) + 1);
	tcase_add_test(tc, foreign_profiles_are_threads);
	tcase_add_loop_test(tc, bad_files_say_why, 0, sizeof bad_files / sizeof bad_files[0]);
#endif
	suite_add_tcase(s, tc);
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_add_test(tc, corpus_totals);
		suite_add_tcase(s, tc);
	}
	return s;
}
