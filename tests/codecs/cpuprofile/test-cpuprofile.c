/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cpuprofile reader: Node's own profiles (tests/data/cpuprofile), nodes
 * in any order, the trace-event form, and hostile input (an error naming
 * the byte, never a crash).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static profdata_profile *read_text(const char *json, char *msg, size_t cap)
{
	return test_read_memory(json, strlen(json), "cpuprofile", PROFDATA_MODE_STRICT, msg, cap);
}

static void assert_folded(const char *json, const char *want)
{
	char msg[256] = "";
	profdata_profile *p = read_text(json, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	char *got = test_folded(p, NULL);
	ck_assert_str_eq(got, want);
	free(got);
	profdata_profile_free(p);
}

static void assert_fails(const char *json, const char *words)
{
	char msg[256] = "";
	profdata_profile *p = read_text(json, msg, sizeof msg);
	ck_assert_msg(p == NULL, "read: %s", json);
	ck_assert_msg(strstr(msg, words) != NULL, "message \"%s\" lacks \"%s\"", msg, words);
}

START_TEST(node_fixture)
{
	char path[4096];
	test_data_path(path, sizeof path, "cpuprofile/node-cpu.cpuprofile");
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	ck_assert_uint_eq(test_total_count(p), profdata_profile_count(p, PROFDATA_TABLE_SAMPLES));
	ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 50);
	char *folded = test_folded(p, NULL);
	ck_assert_ptr_nonnull(strstr(folded, ";hashLoop "));
	ck_assert_ptr_nonnull(strstr(folded, "(anonymous);executeUserEntryPoint"));
	ck_assert_ptr_null(strstr(folded, "(root)"));
	free(folded);
	/* samples carry their times: startTime plus the deltas, in nanoseconds */
	profdata_sample s;
	ck_assert_int_eq(profdata_profile_sample(p, 0, &s), 0);
	ck_assert_uint_gt(s.time_ns, 0);
	profdata_profile_free(p);
}
END_TEST

START_TEST(trace_fixture)
{
	char path[4096];
	test_data_path(path, sizeof path, "cpuprofile/node-trace.json");
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 50);
	ck_assert_uint_ge(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 1);
	profdata_profile_free(p);
}
END_TEST

/* Children listed before they are defined, a parent defined after its child, keys in any order. */
START_TEST(nodes_in_any_order)
{
	assert_folded("{\"nodes\":[{\"id\":3,\"callFrame\":{\"functionName\":\"leaf\",\"url\":\"a.js\",\"lineNumber\":4,"
	              "\"columnNumber\":1}},{\"children\":[3],\"id\":2,\"callFrame\":{\"functionName\":\"\"}},"
	              "{\"callFrame\":{\"functionName\":\"(root)\"},\"id\":1,\"children\":[2]}],"
	              "\"startTime\":10,\"endTime\":40,\"samples\":[3,3,2],\"timeDeltas\":[1,2,3]}",
	              "(anonymous);leaf 2\n(anonymous) 1\n");
}
END_TEST

/* Trace events: nodes name their parents, chunks continue a profile, args before name. */
START_TEST(trace_chunks)
{
	assert_folded("[{\"args\":{\"data\":{\"startTime\":5}},\"id\":\"0x1\",\"name\":\"Profile\",\"pid\":1,\"tid\":1},"
	              "{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[{\"callFrame\":{\"functionName\":\"(root)\"},"
	              "\"id\":1},{\"callFrame\":{\"functionName\":\"f\"},\"id\":2,\"parent\":1}],\"samples\":[2,2]},"
	              "\"timeDeltas\":[1,1]}},\"id\":\"0x1\",\"name\":\"ProfileChunk\",\"pid\":1,\"tid\":9},"
	              "{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[{\"callFrame\":{\"functionName\":\"g\"},\"id\":3,"
	              "\"parent\":2}],\"samples\":[3]},\"timeDeltas\":[4]}},\"id\":\"0x1\",\"name\":\"ProfileChunk\","
	              "\"pid\":1,\"tid\":9},{\"name\":\"other\",\"args\":{\"data\":{\"cpuProfile\":{\"samples\":[7]}}}}]",
	              "f 2\nf;g 1\n");
}
END_TEST

/* A string holding the key's text, and keys escaped, are not the samples. */
START_TEST(keys_in_strings)
{
	assert_folded("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"x\\\"samples\\\"\",\"url\":\"\\\"samples\"}}],"
	              "\"samples\":[1],\"timeDeltas\":[0]}",
	              "x\"samples\" 1\n");
}
END_TEST

static const char *const hostile[][2] = {
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{}}],\"samples\":[1,", "not an array" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{}}],\"samples\":[2],\"timeDeltas\":[0]}", "node 2, which the profile" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{}}],\"samples\":[1.5],\"timeDeltas\":[0]}", "samples: not an integer" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{},\"children\":[2]},{\"id\":2,\"callFrame\":{},\"children\":[1]}],"
	  "\"samples\":[1],\"timeDeltas\":[0]}", "a cycle" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{},\"children\":[5]}],\"samples\":[],\"timeDeltas\":[]}", "names node 5" },
	{ "{\"nodes\":[{\"id\":1}],\"samples\":[]}", "without a callFrame" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{}},{\"id\":1,\"callFrame\":{}}]}", "used twice" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{}}],\"samples\":[1],\"timeDeltas\":[]}", "without a time delta" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{}}],\"samples\":[1,1,1],\"timeDeltas\":[4]}",
	  "2 samples without a time delta" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"a\"}},", "premature EOF" },
	{ "{\"nodes\":[]", "premature EOF" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"\xff\"}}]}", "invalid" },
	{ "{}", "no profile" },
	{ "{\"nodes\":[{\"id\":1,\"callFrame\":{}}],\"samples\":{}}", "samples: not an array" },
};

START_TEST(hostile_inputs)
{
	assert_fails(hostile[_i][0], hostile[_i][1]);
}
END_TEST

/*
 * A profile long enough that its samples are read ahead on a second thread
 * (samples.c: a megabyte of them): every sample counted on its node and
 * timed by its delta, and a fault planted near the end reported at its
 * byte after the samples before it, as the one-thread reading does.
 */
typedef struct long_profile {
	char *text;
	size_t len, on_a, on_b, fault_at;
	int64_t last_time;
} long_profile;

/* fault: 0 none, 1 a sample of node 9 near the end, 2 five time deltas missing. */
static void make_long_profile(long_profile *lp, int fault)
{
	const size_t nsamples = 700000;
	size_t cap = 64 + 16 * nsamples, n = 0;
	uint64_t x = 1;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	lp->on_a = lp->on_b = lp->fault_at = 0;
	lp->last_time = 1000;
	n += (size_t)snprintf(t, cap, "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2]},"
	                               "{\"id\":2,\"callFrame\":{\"functionName\":\"a\"},\"children\":[3]},"
	                               "{\"id\":3,\"callFrame\":{\"functionName\":\"b\"}}],\"startTime\":1000,\"samples\":[");
	for (size_t i = 0; i < nsamples; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		int node = fault == 1 && i == nsamples - 10 ? 9 : 2 + (int)((x >> 33) & 1);
		n += (size_t)snprintf(t + n, cap - n, "%s%d", i ? "," : "", node);
		if (node == 9)
			lp->fault_at = n;
		*(node == 2 ? &lp->on_a : &lp->on_b) += node != 9;
	}
	n += (size_t)snprintf(t + n, cap - n, "],\"timeDeltas\":[");
	for (size_t i = 0; i < nsamples - (fault == 2 ? 5 : 0); i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		int delta = (int)((x >> 40) % 2000) - (i % 1000 == 0 ? 500 : 0);
		n += (size_t)snprintf(t + n, cap - n, "%s%d", i ? "," : "", delta);
		lp->last_time += delta;
	}
	n += (size_t)snprintf(t + n, cap - n, "]}");
	lp->text = t;
	lp->len = n;
}

START_TEST(long_profile_read_ahead)
{
	long_profile lp;
	char msg[256] = "", want[64];
	make_long_profile(&lp, 0);
	profdata_profile *p = test_read_memory(lp.text, lp.len, "cpuprofile", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	char *folded = test_folded(p, NULL);
	snprintf(want, sizeof want, "a %zu\n", lp.on_a);
	ck_assert_msg(strstr(folded, want) != NULL, "%s lacks %s", folded, want);
	snprintf(want, sizeof want, "a;b %zu\n", lp.on_b);
	ck_assert_msg(strstr(folded, want) != NULL, "%s lacks %s", folded, want);
	size_t last = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) - 1;
	profdata_sample smp;
	ck_assert_int_eq(profdata_profile_sample(p, last, &smp), 0);
	ck_assert_uint_eq(smp.time_ns, (uint64_t)lp.last_time * 1000);
	free(folded);
	profdata_profile_free(p);
	free(lp.text);
}
END_TEST

START_TEST(long_profile_faults_where_they_are)
{
	long_profile lp;
	char msg[256] = "";
	profdata_reader *r;
	profdata_profile *p = NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "cpuprofile";
	make_long_profile(&lp, 1);
	ck_assert_int_eq(profdata_reader_open_memory(&r, lp.text, lp.len, "<test>"), 0);
	ck_assert_int_eq(profdata_read(&p, r, &o), PROFDATA_EFORMAT);
	const profdata_error *err = profdata_reader_error(r);
	ck_assert_msg(strstr(err->message, "node 9, which the profile lacks") != NULL, "%s", err->message);
	ck_assert_uint_eq(err->offset, lp.fault_at);
	profdata_reader_free(r);
	free(lp.text);
	make_long_profile(&lp, 2);
	ck_assert_ptr_null(test_read_memory(lp.text, lp.len, "cpuprofile", PROFDATA_MODE_STRICT, msg, sizeof msg));
	ck_assert_msg(strstr(msg, "5 samples without a time delta") != NULL, "%s", msg);
	free(lp.text);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("cpuprofile");
	TCase *tc = tcase_create("cpuprofile");
	tcase_add_test(tc, node_fixture);
	tcase_add_test(tc, trace_fixture);
	tcase_add_test(tc, nodes_in_any_order);
	tcase_add_test(tc, trace_chunks);
	tcase_add_test(tc, keys_in_strings);
	tcase_add_test(tc, long_profile_read_ahead);
	tcase_add_test(tc, long_profile_faults_where_they_are);
	tcase_add_loop_test(tc, hostile_inputs, 0, sizeof hostile / sizeof hostile[0]);
	suite_add_tcase(s, tc);
	return s;
}
