/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A trace through the builder events, for the exports that draw traces
 * (speedscope, chrome-trace): thread 1 "main" calls Main.main, which calls
 * Main.work twice; thread 2 (no start event) has one unmatched exit and a
 * call left open. Times in nanoseconds.
 */
#ifndef TEST_TRACE_PROFILE_H
#define TEST_TRACE_PROFILE_H

#include "support.h"

/* A new profile, begun through the builder's events (`*ev`), for the test to add to. */
static inline profdata_profile *test_trace_begin(profdata_events *ev)
{
	profdata_profile *p;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	*ev = *profdata_profile_builder_events();
	profdata_meta meta;
	memset(&meta, 0, sizeof meta);
	ck_assert_int_eq(ev->begin(p, &meta), 0);
	return p;
}

static inline profdata_profile *test_trace_profile(void)
{
	profdata_events ev;
	profdata_profile *p = test_trace_begin(&ev);
	static const char *const strs[] = { "Main", "main", "work", "main-thread", "q\"uote" };
	for (uint64_t i = 0; i < 5; i++)
		ck_assert_int_eq(ev.string(p, i + 1, strs[i], strlen(strs[i])), 0);
	profdata_class_load cl = { 0, 1, 0x100, 0, 1 };
	ck_assert_int_eq(ev.class_load(p, &cl), 0);
	profdata_function f1 = { 7, 2, 0, 0, 1, 0, 0 }, f2 = { 8, 3, 0, 0, 1, 0, 0 }, f3 = { 9, 5, 0, 0, 0, 0, 0 };
	ck_assert_int_eq(ev.function(p, &f1), 0);
	ck_assert_int_eq(ev.function(p, &f2), 0);
	ck_assert_int_eq(ev.function(p, &f3), 0);
	profdata_thread_start ts = { 0, 1, 0x500, 0, 4, 0, 0 };
	ck_assert_int_eq(ev.thread_start(p, &ts), 0);
	static const struct { uint16_t kind; uint64_t t; uint32_t thread; uint64_t method; } e[] = {
		{ PROFDATA_TRACE_METHOD_ENTRY, 1000000, 1, 7 }, { PROFDATA_TRACE_METHOD_ENTRY, 1002000, 1, 8 },
		{ PROFDATA_TRACE_METHOD_EXIT, 1005000, 1, 8 },  { PROFDATA_TRACE_GC_START, 1005500, 1, 0 },
		{ PROFDATA_TRACE_METHOD_ENTRY, 1006000, 1, 8 }, { PROFDATA_TRACE_METHOD_EXIT, 1007500, 1, 8 },
		{ PROFDATA_TRACE_METHOD_EXIT, 1010000, 1, 7 },  { PROFDATA_TRACE_METHOD_EXIT, 2000000, 2, 7 },
		{ PROFDATA_TRACE_METHOD_ENTRY, 2001000, 2, 9 }, { PROFDATA_TRACE_METHOD_ENTRY, 2003000, 2, 99 },
		{ PROFDATA_TRACE_METHOD_EXIT, 2004000, 2, 99 },
	};
	for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
		profdata_trace_event te;
		memset(&te, 0, sizeof te);
		te.kind = e[i].kind;
		te.time_ns = e[i].t;
		te.thread_serial = e[i].thread;
		te.method_id = e[i].method;
		ck_assert_int_eq(ev.trace_event(p, &te), 0);
	}
	ck_assert_int_eq(ev.end(p), 0);
	return p;
}

/* What `format` writes, NUL-terminated. */
static inline char *test_write_text(const profdata_profile *p, const char *format, const char *options)
{
	size_t len;
	unsigned char *b = test_write(p, format, options, &len);
	char *s = malloc(len + 1);
	memcpy(s, b, len);
	s[len] = '\0';
	free(b);
	return s;
}

#endif
