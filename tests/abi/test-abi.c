/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rules of doc/api-policy.md that keep tables and rows growable: event
 * tables declare their version and drivers read nothing past it, callbacks'
 * codes reach the caller unchanged, getters write no more than the caller's
 * size; and those of doc/conventions.md: callers' codes, progress that can
 * stop reading, what the build has, messages on handles.
 */
#include "support.h"
#include "internal.h"
#include "pd_config.h"

#include <stdlib.h>
#include <string.h>

typedef struct stop_at {
	unsigned seen, at; /* return `rc` from the `at`-th call */
	int rc;
} stop_at;

static int stop_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	stop_at *s = payload;
	(void)id;
	(void)utf8;
	(void)len;
	return ++s->seen == s->at ? s->rc : 0;
}

static int stop_object(void *payload, const profdata_object *o)
{
	stop_at *s = payload;
	(void)o;
	return ++s->seen == s->at ? s->rc : 0;
}

/* Decode a fixture into a table whose string or object callback stops with `rc`. */
static int decode_stopping(const char *rel, int on_objects, int rc, stop_at *s)
{
	char path[1024];
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, rel)), 0);
	profdata_events ev;
	ck_assert_int_eq(profdata_events_init(&ev, sizeof ev), 0);
	if (on_objects)
		ev.object = stop_object;
	else
		ev.string = stop_string;
	memset(s, 0, sizeof(*s));
	s->at = 3;
	s->rc = rc;
	int e = profdata_decode(r, NULL, &ev, s);
	profdata_reader_free(r);
	return e;
}

START_TEST(events_init_sets_the_version_of_the_size_given)
{
	unsigned char buf[sizeof(profdata_events) + 32];
	memset(buf, 0xA5, sizeof buf);
	ck_assert_int_eq(profdata_events_init((profdata_events *)(void *)buf, PD_EVENTS_SIZE_V1 - 1), PROFDATA_EINVAL);
	for (size_t i = 0; i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0xA5);

	profdata_events ev;
	memset(&ev, 0xA5, sizeof ev);
	ck_assert_int_eq(profdata_events_init(&ev, sizeof ev), 0);
	ck_assert_uint_eq(ev.version, PROFDATA_EVENTS_VERSION);
	ck_assert_ptr_null(ev.begin);
	ck_assert_ptr_null(ev.end);

	/* A caller with newer headers: its larger table is zeroed, the version is ours. */
	profdata_events *big = (profdata_events *)(void *)buf;
	ck_assert_int_eq(profdata_events_init(big, sizeof buf - 16), 0);
	ck_assert_uint_eq(big->version, PROFDATA_EVENTS_VERSION);
	for (size_t i = offsetof(profdata_events, begin); i < sizeof buf - 16; i++)
		ck_assert_uint_eq(buf[i], 0);
	for (size_t i = sizeof buf - 16; i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0xA5);
}
END_TEST

static int end_marker(void *payload)
{
	(void)payload;
	return 0;
}

START_TEST(adopting_a_table_reads_only_its_version)
{
	profdata_events theirs, full;
	ck_assert_int_eq(profdata_events_init(&theirs, sizeof theirs), 0);
	theirs.end = end_marker;
	ck_assert_int_eq(pd_events_adopt(&full, &theirs), 0);
	ck_assert_ptr_eq((void *)full.end, (void *)theirs.end);
	theirs.version = 0;
	ck_assert_int_eq(pd_events_adopt(&full, &theirs), PROFDATA_EINVAL);
	ck_assert_int_eq(pd_events_adopt(&full, NULL), PROFDATA_EINVAL);
	ck_assert_uint_eq(pd_events_size(1), PD_EVENTS_SIZE_V1);
	ck_assert_uint_eq(pd_events_size(PROFDATA_EVENTS_VERSION + 5), sizeof(profdata_events));
	/* A table from newer headers is read up to what this library knows. */
	theirs.version = PROFDATA_EVENTS_VERSION + 1;
	ck_assert_int_eq(pd_events_adopt(&full, &theirs), 0);
	ck_assert_uint_eq(full.version, PROFDATA_EVENTS_VERSION);
}
END_TEST

START_TEST(a_callbacks_negative_code_reaches_the_caller)
{
	stop_at s;
	ck_assert_int_eq(decode_stopping("hprof/jdk17-minimal.hprof", 0, -42, &s), -42);
	ck_assert_uint_eq(s.seen, 3);
	ck_assert_int_eq(decode_stopping("gperftools/cpu-100hz.prof", 0, PROFDATA_ERANGE, &s), PROFDATA_ERANGE);
	ck_assert_int_eq(decode_stopping("classic/multi-heap.txt", 1, -1000, &s), -1000);
	ck_assert_uint_eq(s.seen, 3);
}
END_TEST

START_TEST(a_callbacks_positive_code_stops_without_error)
{
	stop_at s;
	ck_assert_int_eq(decode_stopping("hprof/jdk17-minimal.hprof", 0, 7, &s), PROFDATA_STOPPED);
	ck_assert_int_eq(decode_stopping("classic/multi-heap.txt", 1, 1, &s), PROFDATA_STOPPED);
	ck_assert_uint_eq(s.seen, 3);
}
END_TEST

START_TEST(replay_returns_the_callbacks_code)
{
	char path[1024];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "hprof/jdk17-minimal.hprof"), NULL,
	                                PROFDATA_MODE_STRICT);
	profdata_events ev;
	profdata_events_init(&ev, sizeof ev);
	ev.object = stop_object;
	stop_at s = { 0, 2, -77 };
	ck_assert_int_eq(profdata_profile_replay(p, &ev, &s), -77);
	s.seen = 0;
	s.rc = 5;
	ck_assert_int_eq(profdata_profile_replay(p, &ev, &s), PROFDATA_STOPPED);
	ev.version = 0;
	ck_assert_int_eq(profdata_profile_replay(p, &ev, &s), PROFDATA_EINVAL);
	profdata_profile_free(p);
}
END_TEST

/* A profile with one function and one class, built through the library's table. */
static profdata_profile *tiny_profile(void)
{
	const profdata_events *ev = profdata_profile_builder_events();
	ck_assert_uint_eq(ev->version, PROFDATA_EVENTS_VERSION);
	profdata_profile *p;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	profdata_meta m;
	memset(&m, 0, sizeof m);
	m.id_size = 8;
	ck_assert_int_eq(ev->begin(p, &m), 0);
	ck_assert_int_eq(ev->string(p, 1, "Foo", 3), 0);
	profdata_function fn = { 7, 1, 1, 1, 1, 10, 20 };
	ck_assert_int_eq(ev->function(p, &fn), 0);
	profdata_class_load cl = { 0, 1, 0x100, 0, 1 };
	ck_assert_int_eq(ev->class_load(p, &cl), 0);
	ck_assert_int_eq(ev->end(p), 0);
	return p;
}

START_TEST(getters_write_no_more_than_the_callers_size)
{
	profdata_profile *p = tiny_profile();
	unsigned char buf[sizeof(profdata_class_info) + 64];
	size_t small = offsetof(profdata_function, start_line);
	memset(buf, 0xA5, sizeof buf);
	ck_assert_int_eq(profdata_profile_function_sized(p, 0, (profdata_function *)(void *)buf, small), 0);
	ck_assert_uint_eq(((profdata_function *)(void *)buf)->id, 7);
	for (size_t i = small; i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0xA5);

	/* A caller whose struct is larger (newer headers): the rest reads as zero. */
	memset(buf, 0xA5, sizeof buf);
	ck_assert_int_eq(profdata_profile_class_sized(p, 0, (profdata_class_info *)(void *)buf, sizeof buf - 8), 0);
	ck_assert_str_eq(((profdata_class_info *)(void *)buf)->name, "Foo");
	for (size_t i = sizeof(profdata_class_info); i < sizeof buf - 8; i++)
		ck_assert_uint_eq(buf[i], 0);
	for (size_t i = sizeof buf - 8; i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0xA5);

	/* The macro passes sizeof(*out). */
	profdata_function fn;
	ck_assert_int_eq(profdata_profile_function(p, 0, &fn), 0);
	ck_assert_int_eq(fn.end_line, 20);
	ck_assert_int_eq(profdata_profile_function(p, 1, &fn), PROFDATA_ENOTFOUND);
	profdata_profile_free(p);
}
END_TEST

START_TEST(the_0_1_builder_writes_a_version_1_table_only)
{
	unsigned char buf[sizeof(profdata_events) + 32];
	memset(buf, 0xA5, sizeof buf);
	profdata_profile_builder((profdata_events *)(void *)buf);
	const profdata_events *ev = (const profdata_events *)(const void *)buf;
	ck_assert_uint_eq(ev->version, 1);
	ck_assert_ptr_eq((void *)ev->end, (void *)profdata_profile_builder_events()->end);
	for (size_t i = PD_EVENTS_SIZE_V1; i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0xA5);
}
END_TEST

/* ---- doc/conventions.md ---- */

START_TEST(a_code_from_the_users_range_comes_back_unchanged)
{
	stop_at s;
	ck_assert_int_eq(decode_stopping("hprof/jdk17-minimal.hprof", 1, PROFDATA_EUSER - 3, &s), PROFDATA_EUSER - 3);
	ck_assert_int_eq(decode_stopping("tracexml/every-element.xml", 0, PROFDATA_EUSER, &s), PROFDATA_EUSER);
	ck_assert_str_eq(profdata_strerror(PROFDATA_EUSER), "a callback's own error");
	ck_assert_str_eq(profdata_strerror(PROFDATA_EUSER - 12345), "a callback's own error");
	ck_assert_str_eq(profdata_strerror(PROFDATA_EUSER + 1), "unknown error code");
}
END_TEST

START_TEST(features_say_what_the_build_has)
{
	unsigned f = profdata_features();
	ck_assert_uint_eq(f & ~(PROFDATA_FEATURE_GZIP | PROFDATA_FEATURE_SYMBOLIZE | PROFDATA_FEATURE_EXPAT |
	                        PROFDATA_FEATURE_PPROF | PROFDATA_FEATURE_ZIP), 0);
	ck_assert_int_eq(!!(f & PROFDATA_FEATURE_GZIP), PD_HAVE_ZLIB);
	ck_assert_int_eq(!!(f & PROFDATA_FEATURE_SYMBOLIZE), PD_HAVE_SYMBOLIZE);
	/* the codecs a feature brings are in the registry exactly when it is there */
	ck_assert_int_eq(!!(f & PROFDATA_FEATURE_EXPAT), profdata_format_find("tracexml") != NULL);
	ck_assert_int_eq(!!(f & PROFDATA_FEATURE_PPROF), profdata_format_find("pprof") != NULL);
	ck_assert(!(f & PROFDATA_FEATURE_ZIP) || (f & PROFDATA_FEATURE_EXPAT));
	ck_assert_int_eq(!!(f & PROFDATA_FEATURE_ZIP), PD_HAVE_LIBARCHIVE && PD_HAVE_EXPAT);
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_writer_set_gzip(w, 6) == 0, !!(f & PROFDATA_FEATURE_GZIP));
	profdata_writer_free(w);
}
END_TEST

typedef struct read_stop {
	unsigned calls;
	int rc;          /* returned from the first call */
	uint64_t total;
	int bad_phase;
} read_stop;

static int stop_reading(void *payload, const char *phase, uint64_t done, uint64_t total)
{
	read_stop *s = payload;
	(void)done;
	s->bad_phase |= strcmp(phase, "read") != 0;
	s->total = total;
	return ++s->calls == 1 ? s->rc : 0;
}

/*
 * Read `rel` with a progress callback that returns `rc` on its first call,
 * through `how` (0 profdata_read, 1 profdata_convert, 2 the streaming
 * histogram); what the call returned, and the reader's error checked.
 */
static int read_stopped_by(const char *rel, int rc, int how)
{
	char path[1024];
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, rel)), 0);
	read_stop s = { 0, rc, 0, 0 };
	profdata_reader_set_progress_cb(r, stop_reading, &s, 4096);
	int e;
	if (how == 0) {
		profdata_profile *p = (profdata_profile *)&s;
		e = profdata_read(&p, r, NULL);
		ck_assert_ptr_null(p);
	} else if (how == 1) {
		profdata_writer *w;
		ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
		profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
		wo.format = "folded";
		e = profdata_convert(r, NULL, w, &wo);
		profdata_writer_free(w);
	} else {
		profdata_histogram *h;
		e = profdata_histogram_read(&h, r, NULL, 0);
		ck_assert_ptr_null(h);
	}
	ck_assert_uint_eq(s.calls, 1); /* never again once it said stop */
	ck_assert_int_eq(s.bad_phase, 0);
	ck_assert_uint_eq(s.total, profdata_reader_size(r));
	const profdata_error *err = profdata_reader_error(r);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, e);
	ck_assert_ptr_nonnull(strstr(err->message, "stopped by the progress callback at byte"));
	profdata_reader_free(r);
	return e;
}

START_TEST(the_readers_progress_callback_can_stop_reading)
{
	for (int how = 0; how < 3; how++) {
		ck_assert_int_eq(read_stopped_by("hprof/jdk17-minimal.hprof", 1, how), PROFDATA_STOPPED);
		ck_assert_int_eq(read_stopped_by("hprof/jdk17-minimal.hprof.gz", PROFDATA_EUSER - 1, how),
		                 PROFDATA_EUSER - 1);
	}
	ck_assert_int_eq(read_stopped_by("gperftools/cpu-1000hz.prof", 5, 0), PROFDATA_STOPPED);
}
END_TEST

static int count_reads(void *payload, const char *phase, uint64_t done, uint64_t total)
{
	read_stop *s = payload;
	s->bad_phase |= strcmp(phase, "read") != 0 || done > total;
	s->calls++;
	return 0;
}

START_TEST(the_readers_progress_callback_sees_it_all)
{
	char path[1024];
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, "hprof/jdk17-minimal.hprof")),
	                 0);
	read_stop s = { 0, 0, 0, 0 };
	profdata_reader_set_progress_cb(r, count_reads, &s, 64 << 10);
	profdata_profile *p;
	ck_assert_int_eq(profdata_read(&p, r, NULL), 0);
	ck_assert_uint_ge(s.calls, 4); /* per record read: a heap dump segment is one */
	ck_assert_int_eq(s.bad_phase, 0);
	ck_assert_ptr_null(profdata_reader_error(r));
	profdata_profile_free(p);
	profdata_reader_free(r);
}
END_TEST

START_TEST(a_histogram_of_a_model_is_a_handle_that_can_say_why)
{
	char path[1024];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "hprof/jdk17-minimal.hprof"), NULL,
	                                PROFDATA_MODE_STRICT);
	profdata_histogram *h;
	ck_assert_int_eq(profdata_histogram_new(&h, p, 0), 0);
	ck_assert_uint_gt(profdata_histogram_count(h), 10);
	ck_assert_ptr_null(profdata_histogram_error(h));
	profdata_histogram_free(h);
	ck_assert_int_eq(profdata_histogram_new(&h, p, 9), 0); /* past the last dump: empty */
	ck_assert_uint_eq(profdata_histogram_count(h), 0);
	profdata_histogram_free(h);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("abi");
	TCase *tc = tcase_create("abi");
	tcase_add_test(tc, events_init_sets_the_version_of_the_size_given);
	tcase_add_test(tc, adopting_a_table_reads_only_its_version);
	tcase_add_test(tc, a_callbacks_negative_code_reaches_the_caller);
	tcase_add_test(tc, a_callbacks_positive_code_stops_without_error);
	tcase_add_test(tc, replay_returns_the_callbacks_code);
	tcase_add_test(tc, getters_write_no_more_than_the_callers_size);
	tcase_add_test(tc, the_0_1_builder_writes_a_version_1_table_only);
	suite_add_tcase(s, tc);
	tc = tcase_create("conventions");
	tcase_add_test(tc, a_code_from_the_users_range_comes_back_unchanged);
	tcase_add_test(tc, features_say_what_the_build_has);
	tcase_add_test(tc, the_readers_progress_callback_can_stop_reading);
	tcase_add_test(tc, the_readers_progress_callback_sees_it_all);
	tcase_add_test(tc, a_histogram_of_a_model_is_a_handle_that_can_say_why);
	suite_add_tcase(s, tc);
	return s;
}
