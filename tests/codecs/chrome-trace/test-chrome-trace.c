/* SPDX-License-Identifier: Apache-2.0 */
/* chrome-trace export: B/E events per thread from traces, the samples' call tree with folded's total. */
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

START_TEST(trace_events)
{
	profdata_profile *p = test_trace_profile();
	char *s = test_write_text(p, "chrome-trace", NULL);
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"trace\"}}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main-thread\"}}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"thread 2\"}}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":1000.000,\"cat\":\"method\",\"name\":\"Main.main\"}"));
	ck_assert_ptr_nonnull(strstr(s, "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":1007.500,\"cat\":\"method\",\"name\":\"Main.work\"}"));
	/* balanced: 6 begins, 6 ends (thread 1: 3 calls, thread 2: 2 calls + the one closed at the end) */
	ck_assert_uint_eq(count_of(s, "\"ph\":\"B\""), 5);
	ck_assert_uint_eq(count_of(s, "\"ph\":\"E\""), 5);
	ck_assert_ptr_nonnull(strstr(s, "\"displayTimeUnit\":\"ns\""));
	free(s);
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

Suite *suite_main(void)
{
	Suite *s = suite_create("chrome-trace");
	TCase *tc = tcase_create("chrome-trace");
	tcase_add_test(tc, trace_events);
	tcase_add_test(tc, samples_call_tree);
	suite_add_tcase(s, tc);
	return s;
}
