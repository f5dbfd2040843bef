/* SPDX-License-Identifier: Apache-2.0 */
/* chrome-trace export: B/E events per thread from traces, the samples' call tree with folded's total, timed samples' timelines. */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../speedscope/trace-profile.h"

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *c = strstr(s, what); c; c = strstr(c + 1, what))
		n++;
	return n;
}

/* Each of want[0..n) in s, each after the one before. */
static void assert_in_order(const char *s, const char *const *want, size_t n)
{
	const char *at = s;
	for (size_t i = 0; i < n; i++) {
		at = strstr(at, want[i]);
		ck_assert_msg(at != NULL, "no %s in order in %s", want[i], s);
	}
}

START_TEST(trace_events)
{
	profdata_profile *p = test_trace_profile();
	char *s = test_write_text(p, "chrome-trace", NULL);
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"trace\"}}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main-thread\"}}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"thread 2\"}}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"cat\":\"method\",\"name\":\"Main.main\"}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":7.500,\"cat\":\"method\",\"name\":\"Main.work\"}"));
	/* balanced: 6 begins, 6 ends (thread 1: 3 calls, thread 2: 2 calls + the one closed at the end) */
	ck_assert_uint_eq(count_of(s, "\"ph\":\"B\""), 5);
	ck_assert_uint_eq(count_of(s, "\"ph\":\"E\""), 5);
	ck_assert_ptr_nonnull(strstr(s, "\"displayTimeUnit\":\"ns\""));
	/* times count from the trace's first event, which otherData keeps */
	ck_assert_ptr_nonnull(strstr(s, "\"trace_origin_ns\":\"1000000\""));
	free(s);
	profdata_profile_free(p);
}
END_TEST

/*
 * A call of zero length inside another, all four stamps equal, at a time
 * since 1970 that a double holds only to a quarter microsecond: written
 * exactly from the origin, a nanosecond apart, in their order, with a
 * warning saying so.
 */
START_TEST(tied_stamps_are_ordered)
{
	static const uint64_t t0 = UINT64_C(1171278545400000100);
	static const struct { uint16_t kind; uint64_t t; uint64_t method; } e[] = {
		{ PROFDATA_TRACE_METHOD_ENTRY, t0, 7 },       { PROFDATA_TRACE_METHOD_ENTRY, t0 + 2000, 8 },
		{ PROFDATA_TRACE_METHOD_ENTRY, t0 + 2000, 9 }, { PROFDATA_TRACE_METHOD_EXIT, t0 + 2000, 9 },
		{ PROFDATA_TRACE_METHOD_EXIT, t0 + 2000, 8 },  { PROFDATA_TRACE_METHOD_EXIT, t0 + 2001, 7 },
	};
	static const char *const names[] = { "outer", "mid", "inner" };
	profdata_events ev;
	profdata_profile *p = test_trace_begin(&ev);
	for (uint64_t i = 0; i < 3; i++) {
		profdata_function f = { 7 + i, i + 1, 0, 0, 0, 0, 0 };
		ck_assert_int_eq(ev.string(p, i + 1, names[i], strlen(names[i])), 0);
		ck_assert_int_eq(ev.function(p, &f), 0);
	}
	for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
		profdata_trace_event te;
		memset(&te, 0, sizeof te);
		te.kind = e[i].kind;
		te.time_ns = e[i].t;
		te.thread_serial = 1;
		te.method_id = e[i].method;
		ck_assert_int_eq(ev.trace_event(p, &te), 0);
	}
	ck_assert_int_eq(ev.end(p), 0);
	profdata_writer *w;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "chrome-trace";
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_write(p, w, &o), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	const void *data;
	size_t len;
	ck_assert_int_eq(profdata_writer_memory(w, &data, &len), 0);
	char *s = malloc(len + 1);
	memcpy(s, data, len);
	s[len] = '\0';
	static const char *const expected[] = {
		"\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"cat\":\"method\",\"name\":\"outer\"",
		"\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":2.000,\"cat\":\"method\",\"name\":\"mid\"",
		"\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":2.001,\"cat\":\"method\",\"name\":\"inner\"",
		"\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":2.002,\"cat\":\"method\",\"name\":\"inner\"",
		"\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":2.003,\"cat\":\"method\",\"name\":\"mid\"",
		"\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":2.004,\"cat\":\"method\",\"name\":\"outer\"",
	};
	assert_in_order(s, expected, sizeof expected / sizeof expected[0]);
	ck_assert_ptr_nonnull(strstr(s, "\"trace_origin_ns\":\"1171278545400000100\""));
	ck_assert_uint_eq(profdata_writer_warning_count(w), 1);
	ck_assert_ptr_nonnull(strstr(profdata_writer_warning(w, 0)->message, "4 events"));
	ck_assert_ptr_nonnull(strstr(profdata_writer_warning(w, 0)->message, "at most 3 ns"));
	free(s);
	profdata_writer_free(w);
	profdata_profile_free(p);
}
END_TEST

/* The samples' tree: the outermost frames' durations add up to the count total. */
START_TEST(samples_call_tree)
{
	char path[4096];
	test_data_path(path, sizeof(path), "gperftools/cpu-100hz.prof");
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	char *s = test_write_text(p, "chrome-trace", NULL);
	ck_assert_uint_eq(count_of(s, "\"ph\":\"B\""), count_of(s, "\"ph\":\"E\""));
	ck_assert_ptr_nonnull(strstr(s, "\"args\":{\"name\":\"call tree (samples)\"}"));
	/* every chain starts at one root PC here: its end is the total */
	char end[64];
	snprintf(end, sizeof end, "\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":%" PRIu64 ".000,", test_total_count(p));
	ck_assert_msg(strstr(s, end) != NULL, "no %s", end);
	free(s);
	/* nanoseconds become microseconds */
	s = test_write_text(p, "chrome-trace", "value=1");
	ck_assert_ptr_nonnull(strstr(s, "\"args\":{\"name\":\"call tree (nanoseconds)\"}"));
	snprintf(end, sizeof end, "\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":%" PRIu64 ".000,", test_total_count(p) * 10000);
	ck_assert_msg(strstr(s, end) != NULL, "no %s", end);
	free(s);
	profdata_profile_free(p);
}
END_TEST

/*
 * Samples with times: per thread, a frame shared by consecutive samples is
 * one event, from the first sample that has it to the first that does not;
 * the thread's last sample lasts the gap before it. Thread 1: [a] at 0,
 * [a b] at 10 µs, [c] at 20 µs; thread 2: [c] at 5 µs.
 */
START_TEST(samples_timeline)
{
	static const uint64_t t0 = UINT64_C(1700000000000000000);
	static const char *const names[] = { "a", "b", "c", "samples", "count" };
	static const uint64_t s1[] = { 1 }, s2[] = { 2, 1 }, s3[] = { 3 };
	static const struct { uint32_t stack, thread; uint64_t t; } smp[] = {
		{ 1, 1, t0 }, { 2, 1, t0 + 10000 }, { 3, 1, t0 + 20000 }, { 3, 2, t0 + 5000 },
	};
	profdata_events ev;
	profdata_profile *p = test_trace_begin(&ev);
	for (uint64_t i = 0; i < 5; i++)
		ck_assert_int_eq(ev.string(p, i + 1, names[i], strlen(names[i])), 0);
	for (uint64_t i = 1; i <= 3; i++) {
		profdata_function f = { i, i, 0, 0, 0, 0, 0 };
		profdata_frame fr = { i, i, 0, 0, 0, 0 };
		ck_assert_int_eq(ev.function(p, &f), 0);
		ck_assert_int_eq(ev.frame(p, &fr), 0);
	}
	profdata_stack st[] = { { 1, 0, s1, 1 }, { 2, 0, s2, 2 }, { 3, 0, s3, 1 } };
	for (size_t i = 0; i < 3; i++)
		ck_assert_int_eq(ev.stack(p, &st[i]), 0);
	profdata_sample_type type = { 4, 5 };
	ck_assert_int_eq(ev.sample_type(p, &type), 0);
	for (size_t i = 0; i < sizeof smp / sizeof smp[0]; i++) {
		int64_t one = 1;
		profdata_sample sm = { smp[i].stack, smp[i].thread, smp[i].t, &one, 1 };
		ck_assert_int_eq(ev.sample(p, &sm), 0);
	}
	ck_assert_int_eq(ev.end(p), 0);
	char *s = test_write_text(p, "chrome-trace", NULL);
	static const char *const want[] = {
		"\"pid\":1,\"tid\":1,\"ts\":0.000,\"cat\":\"native\",\"name\":\"a\"}",
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":10.000,\"cat\":\"native\",\"name\":\"b\"}",
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":20.000,\"cat\":\"native\",\"name\":\"b\"}",
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":20.000,\"cat\":\"native\",\"name\":\"a\"}",
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":20.000,\"cat\":\"native\",\"name\":\"c\"}",
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":30.000,\"cat\":\"native\",\"name\":\"c\"}",
		"{\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":5.000,\"cat\":\"native\",\"name\":\"c\"}",
		"{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":6.000,\"cat\":\"native\",\"name\":\"c\"}",
	};
	assert_in_order(s, want, sizeof want / sizeof want[0]);
	ck_assert_uint_eq(count_of(s, "\"ph\":\"B\""), 4);
	ck_assert_uint_eq(count_of(s, "\"ph\":\"E\""), 4);
	ck_assert_ptr_nonnull(strstr(s, "\"samples_origin_ns\":\"1700000000000000000\""));
	free(s);
	/* layout=tree keeps the call tree */
	s = test_write_text(p, "chrome-trace", "layout=tree");
	ck_assert_ptr_nonnull(strstr(s, "\"args\":{\"name\":\"call tree (samples)\"}"));
	free(s);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("chrome-trace");
	TCase *tc = tcase_create("chrome-trace");
	tcase_add_test(tc, trace_events);
	tcase_add_test(tc, tied_stamps_are_ordered);
	tcase_add_test(tc, samples_call_tree);
	tcase_add_test(tc, samples_timeline);
	suite_add_tcase(s, tc);
	return s;
}
