/* SPDX-License-Identifier: Apache-2.0 */
/* pprof export: gunzip and decode what we write with protobuf-c, then check it. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "codecs/pprof/profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;

static unsigned char *gunzip(const unsigned char *b, size_t len, size_t *out_len)
{
	ck_assert_uint_ge(len, 2);
	ck_assert_msg(b[0] == 0x1f && b[1] == 0x8b, "not gzip");
	z_stream z;
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
	size_t cap = len * 4 + 1024, n = 0;
	unsigned char *out = malloc(cap);
	z.next_in = (unsigned char *)b;
	z.avail_in = (uInt)len;
	int rc;
	do {
		if (n == cap)
			out = realloc(out, cap *= 2);
		z.next_out = out + n;
		z.avail_out = (uInt)(cap - n);
		rc = inflate(&z, Z_NO_FLUSH);
		ck_assert_msg(rc == Z_OK || rc == Z_STREAM_END, "inflate %d", rc);
		n = cap - z.avail_out;
	} while (rc != Z_STREAM_END);
	inflateEnd(&z);
	*out_len = n;
	return out;
}

static Profile *export_pprof(const profdata_profile *p, const char *options)
{
	size_t len, plen;
	unsigned char *gz = test_write(p, "pprof", options, &len);
	unsigned char *raw = gunzip(gz, len, &plen);
	Profile *pb = perftools__profiles__profile__unpack(NULL, plen, raw);
	ck_assert_ptr_nonnull(pb);
	free(raw);
	free(gz);
	return pb;
}

static const char *S(const Profile *pb, int64_t i)
{
	ck_assert_int_ge(i, 0);
	ck_assert_uint_lt((size_t)i, pb->n_string_table);
	return pb->string_table[i];
}

/* What pprof's own validation checks, and what we promise. */
static void check_valid(const Profile *pb)
{
	ck_assert_uint_ge(pb->n_string_table, 1);
	ck_assert_str_eq(pb->string_table[0], "");
	if (pb->n_sample)
		ck_assert_uint_ge(pb->n_sample_type, 1);
	for (size_t i = 0; i < pb->n_sample; i++) {
		ck_assert_uint_eq(pb->sample[i]->n_value, pb->n_sample_type);
		for (size_t k = 0; k < pb->sample[i]->n_location_id; k++) {
			uint64_t id = pb->sample[i]->location_id[k];
			ck_assert(id >= 1 && id <= pb->n_location);
		}
	}
	for (size_t i = 0; i < pb->n_location; i++) {
		ck_assert_uint_eq(pb->location[i]->id, i + 1);
		ck_assert_uint_le(pb->location[i]->mapping_id, pb->n_mapping);
		for (size_t k = 0; k < pb->location[i]->n_line; k++) {
			uint64_t f = pb->location[i]->line[k]->function_id;
			ck_assert(f >= 1 && f <= pb->n_function);
		}
	}
	for (size_t i = 0; i < pb->n_function; i++) {
		ck_assert_uint_eq(pb->function[i]->id, i + 1);
		S(pb, pb->function[i]->name);
		S(pb, pb->function[i]->system_name);
		S(pb, pb->function[i]->filename);
	}
	for (size_t i = 0; i < pb->n_mapping; i++) {
		ck_assert_uint_eq(pb->mapping[i]->id, i + 1);
		ck_assert_uint_lt(pb->mapping[i]->memory_start, pb->mapping[i]->memory_limit);
		S(pb, pb->mapping[i]->filename);
	}
}

static int64_t total(const Profile *pb, size_t col)
{
	int64_t t = 0;
	for (size_t i = 0; i < pb->n_sample; i++)
		t += pb->sample[i]->value[col];
	return t;
}

START_TEST(corpus)
{
	const char *dir = test_corpus_dir();
	/* Runs as its own Meson test (CK_RUN_CASE=corpus), which skips without the corpus. */
	ck_assert_ptr_nonnull(dir);
	char path[4096];
	snprintf(path, sizeof(path), "%s/gperftools/cppbench.cpu", dir);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	Profile *pb = export_pprof(p, NULL);
	check_valid(pb);
	ck_assert_uint_eq(pb->n_sample_type, 2);
	ck_assert_str_eq(S(pb, pb->sample_type[0]->type), "samples");
	ck_assert_str_eq(S(pb, pb->sample_type[0]->unit), "count");
	ck_assert_str_eq(S(pb, pb->sample_type[1]->type), "cpu");
	ck_assert_str_eq(S(pb, pb->sample_type[1]->unit), "nanoseconds");
	ck_assert_ptr_nonnull(pb->period_type);
	ck_assert_str_eq(S(pb, pb->period_type->type), "cpu");
	ck_assert_str_eq(S(pb, pb->period_type->unit), "nanoseconds");
	ck_assert_int_eq(pb->period, 10000000);
	ck_assert_int_eq(total(pb, 0), 712);
	ck_assert_int_eq(total(pb, 1), 7120000000);
	/* identical chains are one sample: 50 distinct ones */
	ck_assert_uint_eq(pb->n_sample, 50);
	/* one location per distinct PC, addresses as stored */
	ck_assert_uint_eq(pb->n_location, 110);
	ck_assert_uint_eq(pb->n_function, 0);
	ck_assert_uint_eq(pb->sample[0]->n_location_id, 11);
	ck_assert_uint_eq(pb->location[pb->sample[0]->location_id[0] - 1]->address, 0x42ef04);
	/* the executable mappings of the maps text; 0x42ef04 is in the first */
	ck_assert_uint_gt(pb->n_mapping, 0);
	ck_assert_uint_eq(pb->mapping[0]->memory_start, 0x400000);
	ck_assert_uint_eq(pb->mapping[0]->memory_limit, 0xfcb000);
	ck_assert_str_eq(S(pb, pb->mapping[0]->filename), "cppbench_server_main");
	ck_assert_uint_eq(pb->location[pb->sample[0]->location_id[0] - 1]->mapping_id, 1);
	for (size_t i = 0; i < pb->n_location; i++) {
		const Perftools__Profiles__Location *l = pb->location[i];
		if (l->mapping_id) {
			const Perftools__Profiles__Mapping *m = pb->mapping[l->mapping_id - 1];
			ck_assert(l->address >= m->memory_start && l->address < m->memory_limit);
		}
	}
	perftools__profiles__profile__free_unpacked(pb, NULL);
	profdata_profile_free(p);
}
END_TEST

START_TEST(fixtures)
{
	static const char *const names[] = { "cpu-100hz.prof", "killed-flushed.prof", "short.prof",
		                                 "short-64bytes.prof" };
	static const int64_t totals[] = { 255, 173, 0, 0 };
	for (unsigned i = 0; i < 4; i++) {
		char path[4096];
		test_data_path(path, sizeof(path), "gperftools/");
		strncat(path, names[i], sizeof(path) - strlen(path) - 1);
		profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
		Profile *pb = export_pprof(p, i == 1 ? "gzip=1" : NULL);
		check_valid(pb);
		ck_assert_int_eq(total(pb, 0), totals[i]);
		perftools__profiles__profile__free_unpacked(pb, NULL);
		profdata_profile_free(p);
	}
}
END_TEST

/* JVM frames: functions with Java names, system names, files and lines. */
START_TEST(jvm)
{
	static const char *const strs[] = { "java/lang/Thread", "run", "()V", "Thread.java", "Main", "main",
	                                    "([Ljava/lang/String;)V", "Main.java", "samples", "count" };
	static const profdata_function fns[] = { { 1, 101, 102, 103, 1, 0, 0 }, { 2, 105, 106, 107, 2, 3, 0 } };
	static const profdata_frame frs[] = { { 11, 1, 748, 0, 0, 0 }, { 12, 2, PROFDATA_LINE_UNKNOWN, 0, 0, 0 } };
	static const uint64_t a[] = { 11, 12 };
	static const profdata_stack sts[] = { { 1, 1, a, 2 }, { 2, 2, a, 2 } };
	static const profdata_class_load loads[] = { { 0, 1, 0x100, 0, 100 }, { 0, 2, 0x200, 0, 104 } };
	static const profdata_sample_type t = { 108, 109 };
	static const int64_t v1 = 4, v2 = 6;
	static const profdata_sample xs[] = { { 1, 0, 0, &v1, 1 }, { 2, 0, 0, &v2, 1 } };
	test_cpu_profile spec = { .strings = strs, .nstrings = 10, .first_string_id = 100, .functions = fns,
		                      .nfunctions = 2, .frames = frs, .nframes = 2, .stacks = sts, .nstacks = 2,
		                      .class_loads = loads, .nclass_loads = 2, .sample_type = &t, .samples = xs,
		                      .nsamples = 2 };
	spec.meta.format = "hprof";
	spec.meta.timestamp_ms = 1700000000000ull;
	profdata_profile *p = test_build_cpu_profile(&spec);

	Profile *pb = export_pprof(p, "gzip=9");
	check_valid(pb);
	ck_assert_uint_eq(pb->n_sample_type, 1);
	ck_assert_int_eq(total(pb, 0), 10);
	ck_assert_ptr_null(pb->period_type);
	ck_assert_int_eq(pb->time_nanos, 1700000000000000000ll);
	ck_assert_uint_eq(pb->n_location, 2);
	ck_assert_uint_eq(pb->n_function, 2);
	const Perftools__Profiles__Location *l = pb->location[0];
	ck_assert_uint_eq(l->address, 0);
	ck_assert_uint_eq(l->n_line, 1);
	ck_assert_int_eq(l->line[0]->line, 748);
	const Perftools__Profiles__Function *f = pb->function[l->line[0]->function_id - 1];
	ck_assert_str_eq(S(pb, f->name), "java.lang.Thread.run");
	ck_assert_str_eq(S(pb, f->system_name), "java/lang/Thread.run()V");
	ck_assert_str_eq(S(pb, f->filename), "Thread.java");
	ck_assert_int_eq(pb->location[1]->line[0]->line, 0);
	f = pb->function[pb->location[1]->line[0]->function_id - 1];
	ck_assert_str_eq(S(pb, f->name), "Main.main");
	ck_assert_int_eq(f->start_line, 3);
	perftools__profiles__profile__free_unpacked(pb, NULL);
	profdata_profile_free(p);
}
END_TEST

START_TEST(bad_option)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(ev.begin(p, &m), 0);
	ck_assert_int_eq(ev.end(p), 0);
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "pprof";
	o.options = "gzip=10";
	ck_assert_int_eq(profdata_write(p, w, &o), PROFDATA_EINVAL);
	profdata_writer_free(w);
	/* empty profile: a valid message with just the string table */
	Profile *pb = export_pprof(p, NULL);
	check_valid(pb);
	ck_assert_uint_eq(pb->n_sample, 0);
	perftools__profiles__profile__free_unpacked(pb, NULL);
	profdata_profile_free(p);
}
END_TEST

/* A conversion (decoder -> model encoder -> pprof) writes what read + write writes. */
START_TEST(convert_matches_write)
{
	char path[4096];
	test_data_path(path, sizeof(path), "gperftools/cpu-100hz.prof");
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	size_t l1, l2;
	unsigned char *w1 = test_write(p, "pprof", "gzip=0", &l1);
	profdata_reader *r;
	profdata_writer *w;
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "pprof";
	o.options = "gzip=0";
	ck_assert_int_eq(profdata_convert(r, NULL, w, &o), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	const void *d;
	ck_assert_int_eq(profdata_writer_memory(w, &d, &l2), 0);
	ck_assert_uint_eq(l1, l2);
	ck_assert_mem_eq(w1, d, l1);
	Profile *pb = perftools__profiles__profile__unpack(NULL, l2, d);
	ck_assert_ptr_nonnull(pb);
	check_valid(pb);
	perftools__profiles__profile__free_unpacked(pb, NULL);
	free(w1);
	profdata_writer_free(w);
	profdata_reader_free(r);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("pprof");
	TCase *tc = tcase_create("pprof");
	tcase_add_test(tc, fixtures);
	tcase_add_test(tc, jvm);
	tcase_add_test(tc, bad_option);
	tcase_add_test(tc, convert_matches_write);
	suite_add_tcase(s, tc);
	/* Only in the "-corpus" Meson test, which skips (77) when ../shared/corpus is absent. */
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_add_test(tc, corpus);
		suite_add_tcase(s, tc);
	}
	return s;
}
