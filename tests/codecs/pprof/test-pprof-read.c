/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pprof reader: a Profile built here field by field (the wire format is
 * small enough to write by hand), read into the model, every field checked;
 * the sample= option; and broken messages, each refused with the byte
 * where it went wrong.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message being written: varints, keys, length-delimited fields. */
typedef struct msg {
	unsigned char b[4096];
	size_t n;
} msg;

static void put_varint(msg *m, uint64_t v)
{
	do {
		ck_assert_uint_lt(m->n, sizeof m->b);
		m->b[m->n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static void put_int(msg *m, unsigned field, uint64_t v)
{
	put_varint(m, (uint64_t)field << 3);
	put_varint(m, v);
}

static void put_bytes(msg *m, unsigned field, const void *p, size_t len)
{
	put_varint(m, (uint64_t)field << 3 | 2);
	put_varint(m, len);
	ck_assert_uint_le(m->n + len, sizeof m->b);
	memcpy(m->b + m->n, p, len);
	m->n += len;
}

static void put_msg(msg *m, unsigned field, const msg *sub) { put_bytes(m, field, sub->b, sub->n); }

static void put_string(msg *m, const char *s) { put_bytes(m, 6, s, strlen(s)); }

/* String table indexes of the profile below. */
enum { S_EMPTY, S_SAMPLES, S_COUNT, S_CPU, S_NS, S_MAIN, S_INLINED, S_FILE, S_BIN, S_WORKER, S_ALPHA, S_THREAD,
       S_T1, S_BYTES, S_SIZE, S_HELLO, S_DROP, S_URL, S_SYS, S_NSTRINGS };
static const char *const strings[S_NSTRINGS] = { "", "samples", "count", "cpu", "nanoseconds", "main", "inlined",
	                                         "main.c", "/bin/app", "worker", "alpha", "thread", "t1", "bytes",
	                                         "size", "hello", "drop.*", "https://example.org/doc", "_Z4mainv" };

static void value_type(msg *m, unsigned field, int64_t type, int64_t unit)
{
	msg vt = { .n = 0 };
	put_int(&vt, 1, (uint64_t)type);
	put_int(&vt, 2, (uint64_t)unit);
	put_msg(m, field, &vt);
}

/* A sample at location 1 (then 2 when two_locations), values v0 v1, labels worker=alpha, thread=t1, size=64 bytes. */
static void sample(msg *m, int two_locations, int64_t v0, int64_t v1)
{
	msg s = { .n = 0 }, l = { .n = 0 };
	put_int(&s, 1, 1);
	if (two_locations)
		put_int(&s, 1, 2);
	put_int(&s, 2, (uint64_t)v0);
	put_int(&s, 2, (uint64_t)v1);
	put_int(&l, 1, S_WORKER);
	put_int(&l, 2, S_ALPHA);
	put_msg(&s, 3, &l);
	l.n = 0;
	put_int(&l, 1, S_THREAD);
	put_int(&l, 2, S_T1);
	put_msg(&s, 3, &l);
	l.n = 0;
	put_int(&l, 1, S_SIZE);
	put_int(&l, 3, 64);
	put_int(&l, 4, S_BYTES);
	put_msg(&s, 3, &l);
	put_msg(m, 2, &s);
}

/* Location 1: 0x1010 in mapping 7, "inlined" inlined into "main"; location 2: 0x1020, main only. */
static void locations(msg *m)
{
	msg loc = { .n = 0 }, line = { .n = 0 };
	put_int(&loc, 1, 1);
	put_int(&loc, 2, 7);
	put_int(&loc, 3, 0x1010);
	put_int(&line, 1, 2);
	put_int(&line, 2, 12);
	put_msg(&loc, 4, &line);
	line.n = 0;
	put_int(&line, 1, 1);
	put_int(&line, 2, 30);
	put_msg(&loc, 4, &line);
	put_msg(m, 4, &loc);
	loc.n = 0;
	put_int(&loc, 1, 2);
	put_int(&loc, 2, 7);
	put_int(&loc, 3, 0x1020);
	line.n = 0;
	put_int(&line, 1, 1);
	put_int(&line, 2, 31);
	put_msg(&loc, 4, &line);
	put_msg(m, 4, &loc);
}

static void functions_and_mapping(msg *m)
{
	msg f = { .n = 0 };
	put_int(&f, 1, 1);
	put_int(&f, 2, S_MAIN);
	put_int(&f, 3, S_SYS);
	put_int(&f, 4, S_FILE);
	put_int(&f, 5, 28);
	put_msg(m, 5, &f);
	f.n = 0;
	put_int(&f, 1, 2);
	put_int(&f, 2, S_INLINED);
	put_int(&f, 3, S_INLINED);
	put_int(&f, 4, S_FILE);
	put_msg(m, 5, &f);
	f.n = 0;
	put_int(&f, 1, 7);
	put_int(&f, 2, 0x1000);
	put_int(&f, 3, 0x2000);
	put_int(&f, 4, 0x100);
	put_int(&f, 5, S_BIN);
	put_int(&f, 7, 1);
	put_msg(m, 3, &f);
}

/* The whole Profile: samples first and the string table last, as Go writes it. */
static void profile(msg *m)
{
	m->n = 0;
	value_type(m, 1, S_SAMPLES, S_COUNT);
	value_type(m, 1, S_CPU, S_NS);
	sample(m, 1, 2, 20);
	sample(m, 0, 1, 10);
	functions_and_mapping(m);
	locations(m);
	put_int(m, 7, S_DROP);
	put_int(m, 9, 1700000000123456789);
	put_int(m, 10, 5000000000);
	value_type(m, 11, S_CPU, S_NS);
	put_int(m, 12, 10000000);
	put_int(m, 13, S_HELLO);
	put_int(m, 15, S_URL);
	put_int(m, 20, 42); /* a field profile.proto does not name */
	for (int i = 0; i < S_NSTRINGS; i++)
		put_string(m, strings[i]);
}

/* Read m with `options`: *code, and on failure the error (its message copied to message[]). */
static char message[512];
static profdata_profile *read_with(const msg *m, const char *options, int *code, profdata_error *err)
{
	profdata_reader *r;
	profdata_profile *p = NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	ck_assert_int_eq(profdata_reader_open_memory(&r, m->b, m->n, "<test>"), 0);
	o.options = options;
	o.format = "pprof";
	*code = profdata_read(&p, r, &o);
	if (*code && err) {
		*err = *profdata_reader_error(r);
		snprintf(message, sizeof message, "%s", err->message);
		err->message = message;
	}
	profdata_reader_free(r);
	return p;
}

static const char *text(const profdata_profile *p, uint64_t id)
{
	size_t len;
	const char *s = profdata_profile_string(p, id, &len);
	return s ? s : "";
}

static const char *comment(const profdata_profile *p, const char *key)
{
	const profdata_meta *m = profdata_profile_meta(p);
	for (size_t i = 0; i < m->ncomments; i++)
		if (strcmp(m->comments[i].key, key) == 0)
			return m->comments[i].value;
	return NULL;
}

START_TEST(every_field_reaches_the_model)
{
	msg m;
	int code;
	profile(&m);
	profdata_profile *p = read_with(&m, NULL, &code, NULL);
	ck_assert_int_eq(code, 0);
	ck_assert_str_eq(profdata_profile_meta(p)->format, "pprof");
	ck_assert_uint_eq(profdata_profile_meta(p)->period, 10000000);
	ck_assert_str_eq(profdata_profile_meta(p)->period_unit, "nanoseconds");
	ck_assert_str_eq(comment(p, "pprof.comment"), "hello");
	ck_assert_str_eq(comment(p, "pprof.drop_frames"), "drop.*");
	ck_assert_str_eq(comment(p, "pprof.time_nanos"), "1700000000123456789");
	ck_assert_str_eq(comment(p, "pprof.duration_nanos"), "5000000000");
	ck_assert_str_eq(comment(p, "pprof.doc_url"), "https://example.org/doc");
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN), 1);
	/* location 1 is two frames: the inlined call (no address, the mapping) and main at 0x1010 */
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FRAMES), 3);
	profdata_frame fr;
	profdata_profile_frame(p, 0, &fr);
	ck_assert(!fr.has_address && fr.mapping == 1 && fr.function_id == 2 && fr.line == 12);
	profdata_profile_frame(p, 1, &fr);
	ck_assert(fr.has_address && fr.address == 0x1010 && fr.function_id == 1 && fr.line == 30);
	profdata_function fn;
	profdata_profile_function(p, 0, &fn);
	ck_assert_str_eq(text(p, fn.name_id), "main");
	ck_assert_str_eq(text(p, fn.signature_id), "_Z4mainv");
	ck_assert_int_eq(fn.start_line, 28);
	profdata_mapping mp;
	profdata_profile_mapping(p, 0, &mp);
	ck_assert(mp.start == 0x1000 && mp.limit == 0x2000 && mp.offset == 0x100);
	ck_assert_str_eq(text(p, mp.path_id), "/bin/app");
	profdata_sample s;
	profdata_stack st;
	size_t si;
	profdata_profile_sample(p, 0, &s);
	ck_assert(s.nvalues == 2 && s.values[0] == 2 && s.values[1] == 20);
	ck_assert_int_eq(profdata_profile_find_stack(p, s.stack_serial, &si), 0);
	profdata_profile_stack(p, si, &st);
	ck_assert_uint_eq(st.nframes, 3);
	ck_assert_uint_ne(s.thread_serial, 0);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 1);
	const profdata_label *l;
	size_t nl;
	ck_assert_int_eq(profdata_profile_sample_labels(&l, &nl, p, 1), 0);
	ck_assert_uint_eq(nl, 3);
	ck_assert_str_eq(text(p, l[0].key_id), "worker");
	ck_assert_str_eq(text(p, l[0].str_id), "alpha");
	ck_assert(l[2].str_id == 0 && l[2].num == 64);
	ck_assert_str_eq(text(p, l[2].num_unit_id), "bytes");
	profdata_profile_free(p);
}
END_TEST

/* m read, written as pprof and read back: the same model. */
static void assert_rewrites_equal(const msg *m, const char *what)
{
	int code;
	size_t len;
	char why[256];
	profdata_profile *p = read_with(m, NULL, &code, NULL);
	ck_assert_int_eq(code, 0);
	unsigned char *out = test_write(p, "pprof", NULL, &len);
	profdata_profile *q = test_read_memory(out, len, "pprof", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(q != NULL, "%s", why);
	test_assert_equal(p, q, what);
	profdata_profile_free(q);
	profdata_profile_free(p);
	free(out);
}

START_TEST(a_rewrite_reads_back_equal)
{
	msg m;
	profile(&m);
	assert_rewrites_equal(&m, "pprof -> pprof");
}
END_TEST

/* Samples without sample types or values, and a string repeated: written back as they were. */
START_TEST(odd_profiles_rewrite_equal)
{
	msg m = { .n = 0 }, s = { .n = 0 };
	put_msg(&m, 2, &s);
	put_string(&m, "");
	put_string(&m, "x");
	put_string(&m, "x");
	put_int(&m, 13, 2);
	assert_rewrites_equal(&m, "pprof without sample types -> pprof");
}
END_TEST

/*
 * A default_sample_type that names no sample type (go tool pprof refuses to
 * use such a file) is left out with a warning, so a rewrite, which writes
 * only one that names a written type, reads back the same. One that names a
 * type is kept.
 */
START_TEST(a_default_type_that_names_no_type_is_left_out)
{
	msg m;
	int code;
	profile(&m);
	put_int(&m, 14, S_HELLO);
	profdata_profile *p = read_with(&m, NULL, &code, NULL);
	ck_assert_int_eq(code, 0);
	ck_assert_ptr_null(comment(p, "pprof.default_sample_type"));
	profdata_profile_free(p);
	assert_rewrites_equal(&m, "pprof with a default type of no sample type -> pprof");
	put_int(&m, 14, S_SAMPLES);
	p = read_with(&m, NULL, &code, NULL);
	ck_assert_str_eq(comment(p, "pprof.default_sample_type"), "samples");
	profdata_profile_free(p);
	assert_rewrites_equal(&m, "pprof with a default type -> pprof");
}
END_TEST

START_TEST(the_sample_option_keeps_one_value)
{
	msg m;
	int code;
	profile(&m);
	profdata_profile *p = read_with(&m, "sample=samples", &code, NULL);
	profdata_sample s;
	ck_assert_int_eq(code, 0);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), 1);
	profdata_profile_sample(p, 0, &s);
	ck_assert(s.nvalues == 1 && s.values[0] == 2);
	profdata_profile_free(p);
	/* no default_sample_type: the last, as pprof */
	p = read_with(&m, "sample=default", &code, NULL);
	profdata_profile_sample(p, 0, &s);
	ck_assert(s.nvalues == 1 && s.values[0] == 20);
	profdata_profile_free(p);
	profdata_error err;
	p = read_with(&m, "sample=nothing", &code, &err);
	ck_assert_int_eq(code, PROFDATA_EINVAL);
	ck_assert_msg(strstr(err.message, "nothing") != NULL, "%s", err.message);
	profdata_profile_free(p);
}
END_TEST

/* What reading m gives: the code, and the offset of the error. */
static int refused_at(const msg *m, uint64_t *offset, const char *what)
{
	int code;
	profdata_error err;
	profdata_profile *p = read_with(m, NULL, &code, &err);
	ck_assert_msg(code < 0, "%s was read", what);
	*offset = err.offset;
	profdata_profile_free(p);
	return code;
}

START_TEST(broken_messages_are_refused_at_their_byte)
{
	msg m;
	uint64_t at;
	/* a varint of 11 bytes */
	m.n = 0;
	put_varint(&m, 6 << 3 | 2);
	memset(m.b + m.n, 0xff, 11);
	m.n += 11;
	ck_assert_int_eq(refused_at(&m, &at, "an overlong varint"), PROFDATA_EFORMAT);
	ck_assert_uint_eq(at, 11);
	/* a length past the end: the message claims 1 GiB */
	m.n = 0;
	put_string(&m, "");
	put_varint(&m, 2 << 3 | 2);
	put_varint(&m, 1u << 30);
	ck_assert_int_eq(refused_at(&m, &at, "a length past the end"), PROFDATA_EFORMAT);
	ck_assert_uint_eq(at, 2);
	/* a string index 2^32 past the table */
	m.n = 0;
	value_type(&m, 1, (int64_t)1 << 32, 0);
	put_string(&m, "");
	ck_assert_int_eq(refused_at(&m, &at, "a string index 2^32"), PROFDATA_EFORMAT);
	ck_assert_uint_eq(at, 2);
	/* a sample naming a location that is not there */
	profile(&m);
	msg s = { .n = 0 };
	put_int(&s, 1, 99);
	put_int(&s, 2, 1);
	put_int(&s, 2, 1);
	put_msg(&m, 2, &s);
	ck_assert_int_eq(refused_at(&m, &at, "an unknown location"), PROFDATA_EFORMAT);
	ck_assert_uint_eq(at, m.n - s.n);
	/* cut inside a field */
	profile(&m);
	m.n -= 3;
	ck_assert_int_lt(refused_at(&m, &at, "a cut message"), 0);
}
END_TEST

START_TEST(raw_protobuf_is_sniffed)
{
	msg m;
	const profdata_format *f = NULL;
	profdata_reader *r;
	profile(&m);
	ck_assert_int_eq(profdata_reader_open_memory(&r, m.b, m.n, "<test>"), 0);
	ck_assert_int_eq(profdata_reader_sniff(r, &f), 0);
	ck_assert_str_eq(profdata_format_name(f), "pprof");
	profdata_reader_free(r);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("pprof-read");
	TCase *tc = tcase_create("pprof-read");
	tcase_add_test(tc, every_field_reaches_the_model);
	tcase_add_test(tc, a_rewrite_reads_back_equal);
	tcase_add_test(tc, odd_profiles_rewrite_equal);
	tcase_add_test(tc, a_default_type_that_names_no_type_is_left_out);
	tcase_add_test(tc, the_sample_option_keeps_one_value);
	tcase_add_test(tc, broken_messages_are_refused_at_their_byte);
	tcase_add_test(tc, raw_protobuf_is_sniffed);
	suite_add_tcase(s, tc);
	return s;
}
