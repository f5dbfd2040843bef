/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `perf script` output read: the fixtures perf made (tests/interop/perf-gen),
 * the fields -F chooses, inlined frames, several events, threads and times,
 * and errors that name their line and byte.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static profdata_profile *read_text(const char *text, int mode, char *msg, size_t msg_len)
{
	return test_read_memory(text, strlen(text), "perf-script", mode, msg, msg_len);
}

static profdata_profile *read_fixture(const char *name)
{
	char path[4096], rel[256];
	snprintf(rel, sizeof rel, "perf-script/%s", name);
	return test_read(test_data_path(path, sizeof path, rel), NULL, PROFDATA_MODE_STRICT);
}

/* Samples and the sum of value `v` over them. */
static int64_t value_sum(const profdata_profile *p, size_t v)
{
	int64_t sum = 0;
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_SAMPLES); i++) {
		profdata_sample s;
		profdata_profile_sample(p, i, &s);
		sum += v < s.nvalues ? s.values[v] : 0;
	}
	return sum;
}

/* Each fixture sniffs as perf-script, and every sample has a time, a thread and its period. */
START_TEST(fixtures)
{
	static const struct { const char *name; size_t samples, types; int64_t period; } want[] = {
		{ "fp.perf", 299, 2, 299000000 },
		{ "no-chain.perf", 299, 2, 299000000 },
		{ "dwarf.perf", 0, 2, 0 },
		{ "two-events.perf", 150, 4, 300000000 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		profdata_profile *p = read_fixture(want[i].name);
		size_t n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES);
		if (want[i].samples)
			ck_assert_uint_eq(n, want[i].samples);
		ck_assert_uint_gt(n, 0);
		ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), want[i].types);
		ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 0);
		int64_t periods = value_sum(p, 1) + (want[i].types > 2 ? value_sum(p, 3) : 0);
		if (want[i].period)
			ck_assert_int_eq(periods, want[i].period);
		for (size_t k = 0; k < n; k++) {
			profdata_sample s;
			profdata_profile_sample(p, k, &s);
			ck_assert_uint_gt(s.time_ns, 0);
			ck_assert_uint_gt(s.thread_serial, 0);
		}
		profdata_profile_free(p);
	}
}
END_TEST

/* -F with source lines: inlined calls are frames without an address, in their caller's mapping, of kind inlined. */
START_TEST(dwarf_inlined)
{
	static const char text[] =
		"workload 26643/26650  3526.584010:    4000000 cpu-clock: \n"
		"\t            12af mix+0x2f\n"
		"  workload.c:16 (inlined)\n"
		"\t            12af leaf_a+0x2f (/tmp/perf-gen/workload)\n"
		"  workload.c:22\n"
		"\t           27304 __libc_start_main_impl+0x84 (inlined)\n"
		"\t           27249 __libc_start_call_main+0x79 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
		"  ??:0\n"
		"\tffffffff8225fd19 pvm_irq_enable+0x19 ([kernel.kallsyms])\n"
		"  [kernel.kallsyms][ffffffff8225fd19]\n"
		"\n";
	char msg[256];
	profdata_profile *p = read_text(text, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	char *s = test_folded(p, NULL);
	ck_assert_str_eq(s, "pvm_irq_enable;__libc_start_call_main;__libc_start_main_impl;leaf_a;mix 1\n");
	free(s);
	profdata_stack st;
	profdata_profile_stack(p, 0, &st);
	ck_assert_uint_eq(st.nframes, 5);
	profdata_frame leaf, caller;
	size_t fi;
	ck_assert_int_eq(profdata_profile_find_frame(p, st.frame_ids[0], &fi), 0);
	profdata_profile_frame(p, fi, &leaf);
	ck_assert_int_eq(profdata_profile_find_frame(p, st.frame_ids[1], &fi), 0);
	profdata_profile_frame(p, fi, &caller);
	ck_assert_int_eq(leaf.has_address, 0);
	ck_assert_int_eq(leaf.line, 16);
	ck_assert_int_eq(caller.has_address, 1);
	ck_assert_uint_eq(caller.address, 0x12af);
	ck_assert_int_eq(caller.line, 22);
	ck_assert_uint_ne(caller.mapping, 0);
	ck_assert_uint_eq(leaf.mapping, caller.mapping);
	/* kinds: the inlined calls and the kernel's frame; the others unknown */
	static const uint32_t want_kind[] = { PROFDATA_FRAME_KIND_INLINED, 0, PROFDATA_FRAME_KIND_INLINED, 0,
		                              PROFDATA_FRAME_KIND_KERNEL };
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FRAME_KINDS), 3);
	for (size_t k = 0; k < 5; k++) {
		uint32_t kind = 0;
		for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_FRAME_KINDS); i++) {
			profdata_frame_kind fk;
			profdata_profile_frame_kind(p, i, &fk);
			if (fk.frame_id == st.frame_ids[k])
				kind = fk.kind;
		}
		ck_assert_uint_eq(kind, want_kind[k]);
	}
	profdata_thread_info t;
	profdata_profile_thread(p, 0, &t);
	ck_assert_uint_eq(t.start.object_id, 26650);
	profdata_sample smp;
	profdata_profile_sample(p, 0, &smp);
	ck_assert_uint_eq(smp.time_ns, UINT64_C(3526584010000));
	ck_assert_int_eq(smp.values[1], 4000000);
	profdata_profile_free(p);
}
END_TEST

/* -F choices: no time, no event, no period; comms with spaces; [unknown] frames as addresses; a tracepoint. */
START_TEST(field_choices)
{
	static const char text[] =
		"Web Content 4242/4243 [003] 10.000001: sched:sched_switch: prev_comm=x prev_pid=1\n"
		"\tffffffff81000000 __schedule+0x1 ([kernel.kallsyms])\n"
		"\n"
		"prog 12228    1000000 \n"
		"\t           23aa0 strlen\n"
		"\t            6abf [unknown] ([unknown])\n"
		"\n"
		"            prog 12228   977.285098: cpu-clock:      7f426a68ab73 _start (/lib/ld.so)\n"
		"            prog 12228   977.286243: cpu-clock:      7f426a693aa0 [unknown] (/lib/ld.so)\n";
	char msg[256];
	profdata_profile *p = read_text(text, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 4);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), 6);
	profdata_thread_info t;
	profdata_profile_thread(p, 0, &t);
	ck_assert_str_eq(profdata_profile_string(p, t.start.name_id, NULL), "Web Content");
	ck_assert_str_eq(profdata_profile_string(p, t.start.group_name_id, NULL), "4242");
	char *s = test_folded(p, NULL);
	/* folded stacks count the first event's samples: the others' stacks are there with 0 */
	ck_assert_str_eq(s, "__schedule 1\n0x6abf;strlen 0\n_start 0\n0x7f426a693aa0 0\n");
	free(s);
	profdata_profile_free(p);
	/* the events after the first as their own sample types */
	p = read_text(text, PROFDATA_MODE_STRICT, msg, sizeof msg);
	profdata_sample smp;
	profdata_profile_sample(p, 1, &smp);
	ck_assert_uint_eq(smp.time_ns, 0);
	ck_assert_int_eq(smp.values[3], 1000000);
	profdata_profile_sample(p, 3, &smp);
	ck_assert_int_eq(smp.values[4], 1);
	profdata_profile_free(p);
}
END_TEST

/* Errors name the line and the byte; permissive reading passes the line over with a warning. */
START_TEST(errors)
{
	static const struct { const char *text, *what; uint64_t line, offset; } bad[] = {
		{ "p 1 1.0: 1 e:\n\tzz sym (dso)\n", "call chain's line", 2, 15 },
		{ "p 1 1.0: 1 e:\n\n\tffff sym (dso)\n", "neither a sample's first line", 3, 16 },
		{ "p 1 1.0: 1 e:\n\tffff sym (dso)\nnonsense\n", "neither a sample's first line", 3, 30 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		test_assert_text_damage(bad[i].text, "perf-script", bad[i].what, bad[i].line, bad[i].offset);
}
END_TEST

/* A stream of small reads reads as memory does. */
START_TEST(stream)
{
	char path[4096];
	size_t len;
	unsigned char *bytes = test_slurp(test_data_path(path, sizeof path, "perf-script/fp.perf"), &len);
	ck_assert_ptr_nonnull(bytes);
	test_chunks src = { bytes, len, 0, 61, 1 };
	profdata_reader *r;
	profdata_profile *p = NULL, *q = read_fixture("fp.perf");
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, test_chunk_read, &src, "stream"), 0);
	ck_assert_int_eq(profdata_read(&p, r, NULL), 0);
	test_assert_equal(q, p, "fp.perf read from a stream");
	profdata_profile_free(p);
	profdata_profile_free(q);
	profdata_reader_free(r);
	free(bytes);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("perf-script");
	TCase *tc = tcase_create("perf-script");
	tcase_add_test(tc, fixtures);
	tcase_add_test(tc, dwarf_inlined);
	tcase_add_test(tc, field_choices);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, stream);
	suite_add_tcase(s, tc);
	return s;
}
