/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gperftools CPU profile codec: real files (the shared corpus and the
 * libprofiler fixtures), round trips, every layout checked against an
 * independent slot parser written here, damaged input, the Java variant,
 * maps parsing and options.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- an independent reading of the binary part, a few lines of C ---- */

typedef struct indep {
	unsigned ws;
	int be;
	uint64_t hdr[8];
	size_t nhdr;            /* header slots, all of them */
	size_t nrecs;
	uint64_t counts[4096];
	size_t npcs[4096];
	uint64_t pcs[4096][64];
	int trailer;
	size_t text_off;        /* where the text after the trailer starts */
} indep;

static uint64_t slot(const unsigned char *p, unsigned ws, int be)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < ws; i++)
		v |= (uint64_t)p[be ? ws - 1 - i : i] << (8 * i);
	return v;
}

/* The parse result is large: keep it off the stack. */
static indep *indep_alloc(void)
{
	indep *x = calloc(1, sizeof(*x));
	ck_assert_ptr_nonnull(x);
	return x;
}

/* Parse with a known layout; returns 0 when the header is not there. */
static int indep_parse(const unsigned char *b, size_t len, unsigned ws, int be, indep *x)
{
	memset(x, 0, sizeof(*x));
	x->ws = ws;
	x->be = be;
	if (len < 5 * ws)
		return 0;
	size_t n = 2 + slot(b + ws, ws, be), pos;
	if (n > 8 || len < n * ws)
		return 0;
	for (size_t i = 0; i < n; i++)
		x->hdr[i] = slot(b + i * ws, ws, be);
	x->nhdr = n;
	pos = n * ws;
	while (pos + 2 * ws <= len) {
		uint64_t c = slot(b + pos, ws, be), k = slot(b + pos + ws, ws, be);
		if (pos + (2 + k) * ws > len)
			break;
		if (c == 0 && k == 1 && slot(b + pos + 2 * ws, ws, be) == 0) {
			x->trailer = 1;
			x->text_off = pos + 3 * ws;
			return 1;
		}
		ck_assert_uint_lt(x->nrecs, 4096);
		ck_assert_uint_le(k, 64);
		x->counts[x->nrecs] = c;
		x->npcs[x->nrecs] = k;
		for (uint64_t i = 0; i < k; i++)
			x->pcs[x->nrecs][i] = slot(b + pos + (2 + i) * ws, ws, be);
		x->nrecs++;
		pos += (2 + k) * ws;
	}
	return 1;
}

/* The model's samples must be the records, in order, with the same PCs. */
static void check_model_against(const profdata_profile *p, const indep *x)
{
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), x->nrecs);
	for (size_t i = 0; i < x->nrecs; i++) {
		profdata_sample s;
		profdata_stack st;
		size_t si;
		ck_assert_int_eq(profdata_profile_sample(p, i, &s), 0);
		ck_assert_uint_eq(s.nvalues, 2);
		ck_assert_int_eq(s.values[0], (int64_t)x->counts[i]);
		ck_assert_int_eq(s.values[1], (int64_t)(x->counts[i] * x->hdr[3] * 1000));
		ck_assert_int_eq(profdata_profile_find_stack(p, s.stack_serial, &si), 0);
		ck_assert_int_eq(profdata_profile_stack(p, si, &st), 0);
		ck_assert_uint_eq(st.nframes, x->npcs[i]);
		for (size_t k = 0; k < st.nframes; k++) {
			size_t fi;
			profdata_frame f;
			ck_assert_int_eq(profdata_profile_find_frame(p, st.frame_ids[k], &fi), 0);
			ck_assert_int_eq(profdata_profile_frame(p, fi, &f), 0);
			ck_assert(f.has_address);
			ck_assert_uint_eq(f.address, x->pcs[i][k]);
		}
	}
}

/* Read from memory; returns the profile or NULL, with the reader's diagnostics copied out. */
typedef struct rd {
	int rc;
	int err_code;
	uint64_t err_off;
	size_t nwarn;
	int warn_code;
	uint64_t warn_off;
	char msg[512];
} rd;

static profdata_profile *read_mem(const void *buf, size_t len, int mode, const char *options, rd *out)
{
	profdata_reader *r;
	profdata_profile *p = NULL;
	ck_assert_int_eq(profdata_reader_open_memory(&r, buf, len, "<mem>"), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "gperftools";
	o.mode = mode;
	o.options = options;
	memset(out, 0, sizeof(*out));
	out->rc = profdata_read(&p, r, &o);
	if (profdata_reader_error(r)) {
		out->err_code = profdata_reader_error(r)->code;
		out->err_off = profdata_reader_error(r)->offset;
		snprintf(out->msg, sizeof(out->msg), "%s", profdata_reader_error(r)->message);
	}
	out->nwarn = profdata_reader_warning_count(r);
	if (out->nwarn) {
		out->warn_code = profdata_reader_warning(r, 0)->code;
		out->warn_off = profdata_reader_warning(r, 0)->offset;
		snprintf(out->msg, sizeof(out->msg), "%s", profdata_reader_warning(r, 0)->message);
	}
	profdata_reader_free(r);
	return p;
}

/* Callback reader handing out at most `chunk` bytes per call: no mmap, small windows. */
static profdata_profile *read_trickle(const void *buf, size_t len, size_t chunk)
{
	test_chunks t = { buf, len, 0, chunk, 0 };
	profdata_reader *r;
	profdata_profile *p = NULL;
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, test_chunk_read, &t, "<trickle>"), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "gperftools";
	int rc = profdata_read(&p, r, &o);
	ck_assert_msg(rc == 0, "trickle read: %s", profdata_reader_error(r) ? profdata_reader_error(r)->message : "?");
	profdata_reader_free(r);
	return p;
}

/* ---- a synthetic native profile through the builder ---- */

typedef struct synth_opts {
	uint64_t pc_base;       /* PCs are pc_base + small offsets */
	int first_pc_zero;      /* one record whose leaf PC is 0 */
	int with_maps_attachment;
} synth_opts;

static profdata_profile *synth_native(const synth_opts *so)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	m.format = "synthetic";
	m.period = 2500;
	m.period_type = "cpu";
	m.period_unit = "microseconds";
	ck_assert_int_eq(ev.begin(p, &m), 0);
	const char *strs[] = { "samples", "count", "cpu", "nanoseconds", "/usr/bin/app", "/lib/libc.so.6" };
	for (unsigned i = 0; i < 6; i++)
		ck_assert_int_eq(ev.string(p, i + 1, strs[i], strlen(strs[i])), 0);
	profdata_sample_type t1 = { 1, 2 }, t2 = { 3, 4 };
	ck_assert_int_eq(ev.sample_type(p, &t1), 0);
	ck_assert_int_eq(ev.sample_type(p, &t2), 0);
	for (uint64_t i = 1; i <= 6; i++) {
		profdata_frame f = { i, 0, 0, (i == 6 && so->first_pc_zero) ? 0 : so->pc_base + 0x100 * i, 1, 0 };
		ck_assert_int_eq(ev.frame(p, &f), 0);
	}
	uint64_t s1[] = { 1, 2, 3 }, s2[] = { 4, 2, 3 }, s3[] = { 6, 5 };
	profdata_stack st1 = { 10, 0, s1, 3 }, st2 = { 11, 0, s2, 3 }, st3 = { 12, 0, s3, 2 };
	ck_assert_int_eq(ev.stack(p, &st1), 0);
	ck_assert_int_eq(ev.stack(p, &st2), 0);
	ck_assert_int_eq(ev.stack(p, &st3), 0);
	uint32_t order[] = { 10, 11, 10, 12, 11, 10 };
	for (unsigned i = 0; i < 6; i++) {
		int64_t v[2] = { (int64_t)i + 1, ((int64_t)i + 1) * 2500000 };
		profdata_sample s = { order[i], 0, 0, v, 2 };
		ck_assert_int_eq(ev.sample(p, &s), 0);
	}
	profdata_mapping m1 = { so->pc_base, so->pc_base + 0x10000, 0, 42, 5, 0, "r-xp", "08:01" };
	profdata_mapping m2 = { so->pc_base + 0x20000, so->pc_base + 0x30000, 0x1000, 0, 6, 0, "", "" };
	ck_assert_int_eq(ev.mapping(p, &m1), 0);
	ck_assert_int_eq(ev.mapping(p, &m2), 0);
	if (so->with_maps_attachment) {
		static const char txt[] = "build=/opt/app\n10000-20000 r-xp 00000000 08:01 7 $build/bin/app\n";
		profdata_attachment a = { "maps", txt, sizeof(txt) - 1 };
		ck_assert_int_eq(ev.attachment(p, &a), 0);
	}
	ck_assert_int_eq(ev.end(p), 0);
	return p;
}

/* ---- the shared corpus file ---- */

START_TEST(corpus_cppbench)
{
	const char *dir = test_corpus_dir();
	/* Runs as its own Meson test (CK_RUN_CASE=corpus), which skips without the corpus. */
	ck_assert_ptr_nonnull(dir);
	char path[4096];
	snprintf(path, sizeof(path), "%s/gperftools/cppbench.cpu", dir);
	size_t len;
	unsigned char *b = test_slurp(path, &len);
	ck_assert_ptr_nonnull(b);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	const profdata_meta *m = profdata_profile_meta(p);
	ck_assert_str_eq(m->format, "gperftools");
	ck_assert_uint_eq(m->word_size, 8);
	ck_assert_int_eq(m->big_endian, 0);
	ck_assert_uint_eq(m->period, 10000);
	ck_assert_str_eq(m->period_type, "cpu");
	ck_assert_str_eq(m->period_unit, "microseconds");
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 52);
	ck_assert_uint_eq(test_total_count(p), 712);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), 50);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FRAMES), 110);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), 2);

	indep *x = indep_alloc();
	ck_assert(indep_parse(b, len, 8, 0, x));
	ck_assert(x->trailer);
	check_model_against(p, x);

	/* maps: verbatim, and parsed */
	profdata_attachment at;
	ck_assert_int_eq(profdata_profile_find_attachment(p, "maps", &at), 0);
	ck_assert_uint_eq(at.len, len - x->text_off);
	ck_assert_mem_eq(at.data, b + x->text_off, at.len);
	profdata_mapping mp;
	ck_assert_int_eq(profdata_profile_mapping(p, 0, &mp), 0);
	ck_assert_uint_eq(mp.start, 0x400000);
	ck_assert_uint_eq(mp.limit, 0xfcb000);
	ck_assert_str_eq(mp.perms, "r-xp");
	ck_assert_str_eq(mp.device, "00:00");
	ck_assert_uint_eq(mp.inode, 21306940);
	ck_assert_str_eq(profdata_profile_string(p, mp.path_id, NULL), "cppbench_server_main");
	/* every line of the maps text is a full /proc/self/maps line here */
	size_t lines = 0;
	for (size_t i = 0; i < at.len; i++)
		lines += ((const char *)at.data)[i] == '\n';
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_MAPPINGS), lines);

	/* our rewrite is the same file, byte for byte */
	size_t olen;
	unsigned char *out = test_write(p, "gperftools", NULL, &olen);
	ck_assert_uint_eq(olen, len);
	ck_assert_mem_eq(out, b, len);
	free(out);
	profdata_profile_free(p);
	free(b);
	free(x);
}
END_TEST

/* ---- the fixtures made by libprofiler ---- */

static const struct fixture {
	const char *name;
	size_t records;
	uint64_t total;
	uint64_t period;
	int trailer;
	int maps;
} fixtures[] = {
	{ "cpu-100hz.prof", 118, 255, 10000, 1, 1 },
	{ "cpu-1000hz.prof", 256, 639, 1000, 1, 1 },
	{ "api-start-stop.prof", 118, 250, 10000, 1, 1 },
	{ "short.prof", 0, 0, 10000, 1, 1 },
	{ "short-64bytes.prof", 0, 0, 10000, 1, 0 },
	{ "killed-flushed.prof", 113, 173, 10000, 0, 0 },
};

START_TEST(fixture_totals)
{
	const struct fixture *fx = &fixtures[_i];
	char path[4096];
	test_data_path(path, sizeof(path), "gperftools/");
	strncat(path, fx->name, sizeof(path) - strlen(path) - 1);
	size_t len;
	unsigned char *b = test_slurp(path, &len);
	ck_assert_ptr_nonnull(b);
	rd r;
	profdata_profile *p = read_mem(b, len, PROFDATA_MODE_PERMISSIVE, NULL, &r);
	ck_assert_msg(p != NULL, "%s: %s", fx->name, r.msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), fx->records);
	ck_assert_uint_eq(test_total_count(p), fx->total);
	ck_assert_uint_eq(profdata_profile_meta(p)->period, fx->period);
	ck_assert_uint_eq(r.nwarn, fx->trailer ? 0 : 1);
	if (!fx->trailer) {
		ck_assert_int_eq(r.warn_code, PROFDATA_ETRUNCATED);
		ck_assert_uint_eq(r.warn_off, len);
	}
	profdata_attachment at;
	ck_assert_int_eq(profdata_profile_find_attachment(p, "maps", &at), fx->maps ? 0 : PROFDATA_ENOTFOUND);
	if (fx->maps)
		ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_MAPPINGS), 0);

	indep *x = indep_alloc();
	ck_assert(indep_parse(b, len, 8, 0, x));
	ck_assert_int_eq(x->trailer, fx->trailer);
	check_model_against(p, x);

	/* strict: the missing trailer is an error at the end of the data */
	profdata_profile *ps = read_mem(b, len, PROFDATA_MODE_STRICT, NULL, &r);
	if (fx->trailer) {
		ck_assert_ptr_nonnull(ps);
		test_assert_equal(p, ps, NULL);
		profdata_profile_free(ps);
	} else {
		ck_assert_ptr_null(ps);
		ck_assert_int_eq(r.err_code, PROFDATA_ETRUNCATED);
		ck_assert_uint_eq(r.err_off, len);
	}

	/* a reader without mmap, handing out 7 bytes at a time, sees the same */
	profdata_profile *pt = read_trickle(b, len, 7);
	test_assert_equal(p, pt, NULL);
	profdata_profile_free(pt);

	/* round trip: same model; our output rewrites byte-identically; files
	 * with a trailer come back byte for byte */
	size_t l1, l2;
	unsigned char *w1 = test_write(p, "gperftools", NULL, &l1);
	if (fx->trailer) {
		ck_assert_uint_eq(l1, len);
		ck_assert_mem_eq(w1, b, len);
	}
	profdata_profile *p2 = read_mem(w1, l1, PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_msg(p2 != NULL, "%s", r.msg);
	test_assert_equal(p, p2, NULL);
	unsigned char *w2 = test_write(p2, "gperftools", NULL, &l2);
	ck_assert_uint_eq(l1, l2);
	ck_assert_mem_eq(w1, w2, l1);
	free(w1);
	free(w2);
	profdata_profile_free(p2);
	profdata_profile_free(p);
	free(b);
	free(x);
}
END_TEST

START_TEST(fixture_killed_empty)
{
	char path[4096];
	size_t len;
	rd r;
	unsigned char *b = test_slurp(test_data_path(path, sizeof(path), "gperftools/killed.prof"), &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(len, 0);
	ck_assert_ptr_null(read_mem(b, len, PROFDATA_MODE_PERMISSIVE, NULL, &r));
	ck_assert_int_eq(r.err_code, PROFDATA_ETRUNCATED);
	free(b);
}
END_TEST

/* ---- layouts: what we write, read by the independent parser ---- */

static const struct layout {
	const char *options;
	unsigned ws;
	int be;
} layouts[] = {
	{ NULL, 8, 0 },
	{ "word_size=8,byte_order=little", 8, 0 },
	{ "word_size=8,byte_order=big", 8, 1 },
	{ "word_size=4", 4, 0 },
	{ "word_size=4,byte_order=big", 4, 1 },
	{ "byte_order=big", 8, 1 },
};

START_TEST(layouts_independent)
{
	const struct layout *lo = &layouts[_i];
	synth_opts so = { 0x400000, 0, 0 };
	profdata_profile *p = synth_native(&so);
	size_t len;
	unsigned char *b = test_write(p, "gperftools", lo->options, &len);

	indep *x = indep_alloc();
	ck_assert(indep_parse(b, len, lo->ws, lo->be, x));
	ck_assert_uint_eq(x->nhdr, 5);
	ck_assert_uint_eq(x->hdr[0], 0);
	ck_assert_uint_eq(x->hdr[1], 3);
	ck_assert_uint_eq(x->hdr[2], 0);
	ck_assert_uint_eq(x->hdr[3], 2500);
	ck_assert_uint_eq(x->hdr[4], 0);
	ck_assert(x->trailer);
	ck_assert_uint_eq(x->nrecs, 6);
	static const uint64_t want_pcs[6][3] = {
		{ 0x400100, 0x400200, 0x400300 }, { 0x400400, 0x400200, 0x400300 }, { 0x400100, 0x400200, 0x400300 },
		{ 0x400600, 0x400500, 0 },        { 0x400400, 0x400200, 0x400300 }, { 0x400100, 0x400200, 0x400300 },
	};
	for (size_t i = 0; i < 6; i++) {
		ck_assert_uint_eq(x->counts[i], i + 1);
		ck_assert_uint_eq(x->npcs[i], i == 3 ? 2 : 3);
		for (size_t k = 0; k < x->npcs[i]; k++)
			ck_assert_uint_eq(x->pcs[i][k], want_pcs[i][k]);
	}
	/* the maps text synthesized from the mappings */
	const char *want_text = "00400000-00410000 r-xp 00000000 08:01 42 /usr/bin/app\n"
	                        "420000-430000 /lib/libc.so.6\n";
	ck_assert_uint_eq(len - x->text_off, strlen(want_text));
	ck_assert_mem_eq(b + x->text_off, want_text, strlen(want_text));

	/* sniffed without options, the layout is found */
	ck_assert_str_eq(profdata_format_name(profdata_format_sniff(b, len)), "gperftools");
	rd r;
	profdata_profile *q = read_mem(b, len, PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_msg(q != NULL, "%s", r.msg);
	ck_assert_uint_eq(profdata_profile_meta(q)->word_size, lo->ws);
	ck_assert_int_eq(profdata_profile_meta(q)->big_endian, lo->be);
	check_model_against(q, x);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_MAPPINGS), 2);
	profdata_mapping m;
	ck_assert_int_eq(profdata_profile_mapping(q, 1, &m), 0);
	ck_assert_uint_eq(m.start, 0x420000);
	ck_assert_uint_eq(m.limit, 0x430000);
	ck_assert_str_eq(m.perms, "");
	ck_assert_str_eq(profdata_profile_string(q, m.path_id, NULL), "/lib/libc.so.6");

	/* options forcing the right layout agree; the wrong word size fails */
	char opt[64];
	snprintf(opt, sizeof(opt), "word_size=%u,byte_order=%s", lo->ws, lo->be ? "big" : "little");
	profdata_profile *q2 = read_mem(b, len, PROFDATA_MODE_STRICT, opt, &r);
	ck_assert_ptr_nonnull(q2);
	test_assert_equal(q, q2, NULL);
	profdata_profile_free(q2);
	snprintf(opt, sizeof(opt), "word_size=%u", lo->ws == 8 ? 4 : 8);
	ck_assert_ptr_null(read_mem(b, len, PROFDATA_MODE_STRICT, opt, &r));
	ck_assert_int_eq(r.err_code, PROFDATA_EFORMAT);

	/* rewriting in the same layout is byte-identical */
	size_t len2;
	unsigned char *b2 = test_write(q, "gperftools", lo->options, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_mem_eq(b, b2, len);
	free(b2);
	profdata_profile_free(q);
	free(b);
	profdata_profile_free(p);
	free(x);
}
END_TEST

START_TEST(range_32bit)
{
	synth_opts so = { 0x7f0000000000ull, 0, 0 };
	profdata_profile *p = synth_native(&so);
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "gperftools";
	o.options = "word_size=4";
	ck_assert_int_eq(profdata_write(p, w, &o), PROFDATA_ERANGE);
	ck_assert_ptr_nonnull(profdata_writer_error(w));
	ck_assert_int_eq(profdata_writer_error(w)->code, PROFDATA_ERANGE);
	profdata_writer_free(w);
	/* 64-bit is fine */
	size_t len;
	free(test_write(p, "gperftools", "word_size=8", &len));
	profdata_profile_free(p);
}
END_TEST

START_TEST(bad_options)
{
	synth_opts so = { 0x400000, 0, 0 };
	profdata_profile *p = synth_native(&so);
	const char *bad[] = { "word_size=5", "byte_order=middle", "word_size=16", "colour=blue" };
	for (unsigned i = 0; i < 4; i++) {
		profdata_writer *w;
		ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
		profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
		o.format = "gperftools";
		o.options = bad[i];
		ck_assert_int_eq(profdata_write(p, w, &o), PROFDATA_EINVAL);
		profdata_writer_free(w);
	}
	size_t len;
	unsigned char *b = test_write(p, "gperftools", NULL, &len);
	rd r;
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_ptr_null(read_mem(b, len, PROFDATA_MODE_PERMISSIVE, bad[i], &r));
		ck_assert_int_eq(r.err_code, PROFDATA_EINVAL);
	}
	free(b);
	profdata_profile_free(p);
}
END_TEST

/* ---- damaged input ---- */

/* Every prefix of a small file: no crash; errors and warnings as specified. */
START_TEST(every_prefix)
{
	synth_opts so = { 0x400000, 1, 1 };
	profdata_profile *p = synth_native(&so);
	size_t len;
	unsigned char *b = test_write(p, "gperftools", _i ? "word_size=4,byte_order=big" : NULL, &len);
	indep *x = indep_alloc();
	unsigned ws = _i ? 4 : 8;
	ck_assert(indep_parse(b, len, ws, _i, x));
	ck_assert(x->trailer);
	size_t hdr_end = 5 * ws, rec_end[6], pos = hdr_end;
	for (size_t i = 0; i < x->nrecs; i++) {
		pos += (2 + x->npcs[i]) * ws;
		rec_end[i] = pos;
	}
	size_t trailer_end = x->text_off;
	for (size_t cut = 0; cut <= len; cut++) {
		unsigned char *c = malloc(cut ? cut : 1);
		memcpy(c, b, cut);
		rd r, rs;
		profdata_profile *q = read_mem(c, cut, PROFDATA_MODE_PERMISSIVE, NULL, &r);
		profdata_profile *qs = read_mem(c, cut, PROFDATA_MODE_STRICT, NULL, &rs);
		if (cut < hdr_end) {
			ck_assert_msg(q == NULL && qs == NULL, "prefix %zu read", cut);
			ck_assert_int_eq(r.err_code, PROFDATA_ETRUNCATED);
		} else if (cut < trailer_end) {
			size_t complete = 0, start = hdr_end;
			while (complete < x->nrecs && rec_end[complete] <= cut)
				start = rec_end[complete++];
			ck_assert_msg(q != NULL, "prefix %zu: %s", cut, r.msg);
			ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_SAMPLES), complete);
			ck_assert_uint_eq(r.nwarn, 1);
			ck_assert_int_eq(r.warn_code, PROFDATA_ETRUNCATED);
			/* at a record boundary the warning points at the end, else at the cut record */
			ck_assert_uint_eq(r.warn_off, start);
			ck_assert_ptr_null(qs);
			ck_assert_int_eq(rs.err_code, PROFDATA_ETRUNCATED);
			ck_assert_uint_eq(rs.err_off, start);
		} else {
			ck_assert_msg(q != NULL && qs != NULL, "prefix %zu: %s", cut, r.msg);
			ck_assert_uint_eq(r.nwarn, 0);
			ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_SAMPLES), 6);
			profdata_attachment at;
			ck_assert_int_eq(profdata_profile_find_attachment(q, "maps", &at),
			                 cut > trailer_end ? 0 : PROFDATA_ENOTFOUND);
			if (cut > trailer_end)
				ck_assert_uint_eq(at.len, cut - trailer_end);
			test_assert_equal(q, qs, NULL);
		}
		profdata_profile_free(q);
		profdata_profile_free(qs);
		free(c);
	}
	free(b);
	profdata_profile_free(p);
	free(x);
}
END_TEST

/* A leaf PC of 0 is data; only count 0, one PC, PC 0 ends the records. */
START_TEST(zero_pc_is_data)
{
	synth_opts so = { 0x400000, 1, 0 };
	profdata_profile *p = synth_native(&so);
	size_t len;
	unsigned char *b = test_write(p, "gperftools", NULL, &len);
	rd r;
	profdata_profile *q = read_mem(b, len, PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_SAMPLES), 6);
	ck_assert_uint_eq(test_total_count(q), 21);
	indep *x = indep_alloc();
	ck_assert(indep_parse(b, len, 8, 0, x));
	ck_assert_uint_eq(x->pcs[3][0], 0);
	check_model_against(q, x);
	profdata_profile_free(q);

	/* count 0 with a single PC of 0 is the trailer: what follows is text */
	static const uint64_t slots[] = { 0, 3, 0, 100, 0, 2, 1, 0x1234, 0, 1, 0, 7, 1, 0x5678 };
	unsigned char raw[sizeof(slots)];
	for (size_t i = 0; i < sizeof(slots) / 8; i++)
		for (unsigned k = 0; k < 8; k++)
			raw[i * 8 + k] = (unsigned char)(slots[i] >> (8 * k));
	q = read_mem(raw, sizeof(raw), PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_SAMPLES), 1);
	profdata_attachment at;
	ck_assert_int_eq(profdata_profile_find_attachment(q, "maps", &at), 0);
	ck_assert_uint_eq(at.len, 24);
	profdata_profile_free(q);
	free(b);
	profdata_profile_free(p);
	free(x);
}
END_TEST

/* A record claiming an absurd number of PCs is a cut record, not an allocation. */
START_TEST(huge_length)
{
	for (unsigned ws = 4; ws <= 8; ws += 4) {
		uint64_t slots[] = { 0, 3, 0, 100, 0, 1, 1, 0x1234, 5, ws == 8 ? UINT64_MAX / 2 : 0xffffffffu, 0x1 };
		unsigned char raw[sizeof(slots)];
		for (size_t i = 0; i < sizeof(slots) / 8; i++)
			for (unsigned k = 0; k < ws; k++)
				raw[i * ws + k] = (unsigned char)(slots[i] >> (8 * k));
		rd r;
		profdata_profile *q = read_mem(raw, sizeof(slots) / 8 * ws, PROFDATA_MODE_PERMISSIVE, NULL, &r);
		ck_assert_msg(q != NULL, "%s", r.msg);
		ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_SAMPLES), 1);
		ck_assert_uint_eq(r.nwarn, 1);
		ck_assert_uint_eq(r.warn_off, 8 * ws);
		profdata_profile_free(q);
		ck_assert_ptr_null(read_mem(raw, sizeof(slots) / 8 * ws, PROFDATA_MODE_STRICT, NULL, &r));
		ck_assert_int_eq(r.err_code, PROFDATA_ETRUNCATED);
	}
}
END_TEST

START_TEST(not_gperftools)
{
	static const unsigned char junk[64] = "JAVA PROFILE 1.0.2";
	rd r;
	ck_assert_ptr_null(read_mem(junk, sizeof(junk), PROFDATA_MODE_PERMISSIVE, NULL, &r));
	ck_assert_int_eq(r.err_code, PROFDATA_EFORMAT);
	/* version 2 and period 0 are not this format */
	uint64_t v2[] = { 0, 3, 2, 100, 0, 0, 1, 0 }, p0[] = { 0, 3, 0, 0, 0, 0, 1, 0 };
	ck_assert_ptr_null(read_mem(v2, sizeof(v2), PROFDATA_MODE_PERMISSIVE, NULL, &r));
	ck_assert_int_eq(r.err_code, PROFDATA_EFORMAT);
	ck_assert_ptr_null(read_mem(p0, sizeof(p0), PROFDATA_MODE_PERMISSIVE, NULL, &r));
	ck_assert_int_eq(r.err_code, PROFDATA_EFORMAT);
	ck_assert_ptr_null(profdata_format_sniff(v2, sizeof(v2)));
}
END_TEST

/* ---- header slots beyond the usual ---- */

START_TEST(extra_header_slots)
{
	/* 4 header slots after slot 1: version, period, padding 0, and 0x77 */
	static const uint64_t slots[] = { 0, 4, 0, 100, 0, 0x77, 3, 2, 0x10, 0x20, 0, 1, 0 };
	unsigned char raw[sizeof(slots)];
	for (size_t i = 0; i < sizeof(slots) / 8; i++)
		for (unsigned k = 0; k < 8; k++)
			raw[i * 8 + k] = (unsigned char)(slots[i] >> (8 * k));
	rd r;
	profdata_profile *q = read_mem(raw, sizeof(raw), PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_msg(q != NULL, "%s", r.msg);
	ck_assert_uint_eq(test_total_count(q), 3);
	const profdata_meta *m = profdata_profile_meta(q);
	ck_assert_uint_eq(m->ncomments, 1);
	ck_assert_str_eq(m->comments[0].value, "0x0 0x77");
	size_t len;
	unsigned char *b = test_write(q, "gperftools", NULL, &len);
	ck_assert_uint_eq(len, sizeof(raw));
	ck_assert_mem_eq(b, raw, len);
	free(b);
	/* and in 32-bit big-endian */
	b = test_write(q, "gperftools", "word_size=4,byte_order=big", &len);
	indep *x = indep_alloc();
	ck_assert(indep_parse(b, len, 4, 1, x));
	ck_assert_uint_eq(x->nhdr, 6);
	ck_assert_uint_eq(x->hdr[5], 0x77);
	free(b);
	profdata_profile_free(q);
	free(x);
}
END_TEST

/* ---- maps text ---- */

START_TEST(maps_parsing)
{
	static const char text[] =
		"build=/opt/build\n"
		"00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/dbus-daemon\n"
		"00651000-00652000 rw-p 00051000 08:02 173521 $build/bin/x (deleted)\n"
		"01000000-02000000 $build_dir/notsubstituted\n"
		"  build=/other\n"
		"7f0000000000-7f0000001000 r-xp 00001000 fd:01 99 $build/lib.so\n"
		"3000-4000 /short/form\n"
		"this line is ignored\n"
		"  40000000-40015000 r-xp 00000000 03:01 12845071   /lib/leading-space-ignored\n"
		"7fff0000-7fff1000 rw-p 00000000 00:00 0\n"
		"ffff-1000 r-xp 0 0 0 tail\r\n";
	uint64_t hdr[] = { 0, 3, 0, 100, 0, 1, 1, 0x400100, 0, 1, 0 };
	size_t blen = sizeof(hdr) + strlen(text);
	unsigned char *raw = malloc(blen);
	for (size_t i = 0; i < sizeof(hdr) / 8; i++)
		for (unsigned k = 0; k < 8; k++)
			raw[i * 8 + k] = (unsigned char)(hdr[i] >> (8 * k));
	memcpy(raw + sizeof(hdr), text, strlen(text));
	rd r;
	profdata_profile *q = read_mem(raw, blen, PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_msg(q != NULL, "%s", r.msg);
	struct want {
		uint64_t start, limit, offset, inode;
		const char *perms, *dev, *path;
	} want[] = {
		{ 0x400000, 0x452000, 0, 173521, "r-xp", "08:02", "/usr/bin/dbus-daemon" },
		{ 0x651000, 0x652000, 0x51000, 173521, "rw-p", "08:02", "/opt/build/bin/x (deleted)" },
		{ 0x1000000, 0x2000000, 0, 0, "", "", "$build_dir/notsubstituted" },
		{ 0x7f0000000000ull, 0x7f0000001000ull, 0x1000, 99, "r-xp", "fd:01", "/other/lib.so" },
		{ 0x3000, 0x4000, 0, 0, "", "", "/short/form" },
		{ 0x7fff0000, 0x7fff1000, 0, 0, "rw-p", "00:00", NULL },
		{ 0xffff, 0x1000, 0, 0, "", "", "r-xp 0 0 0 tail" },
	};
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_MAPPINGS), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		profdata_mapping m;
		ck_assert_int_eq(profdata_profile_mapping(q, i, &m), 0);
		ck_assert_uint_eq(m.start, want[i].start);
		ck_assert_uint_eq(m.limit, want[i].limit);
		ck_assert_uint_eq(m.offset, want[i].offset);
		ck_assert_uint_eq(m.inode, want[i].inode);
		ck_assert_str_eq(m.perms, want[i].perms);
		ck_assert_str_eq(m.device, want[i].dev);
		if (want[i].path)
			ck_assert_str_eq(profdata_profile_string(q, m.path_id, NULL), want[i].path);
		else
			ck_assert_uint_eq(m.path_id, 0);
	}
	/* verbatim text survives a rewrite */
	size_t len;
	unsigned char *b = test_write(q, "gperftools", NULL, &len);
	ck_assert_uint_eq(len, blen);
	ck_assert_mem_eq(b, raw, blen);
	free(b);
	profdata_profile_free(q);
	free(raw);
}
END_TEST

/* ---- the Java variant and JVM input ---- */

/* A JVM-style profile: frames with functions and no addresses. */
static profdata_profile *synth_jvm(void)
{
	static const char *const strs[] = { "java/lang/Thread", "run", "()V", "Thread.java", "Main", "main",
	                                    "([Ljava/lang/String;)V", "Main.java", "samples", "count", "com/x/Y$Z",
	                                    "<init>" };
	static const profdata_function fns[] = { { 0x7001, 101, 102, 103, 1, 0, 0 },
		                                      { 0x7002, 105, 106, 107, 2, 0, 0 },
		                                      { 0x7003, 111, 102, 0, 3, 0, 0 } };
	static const profdata_frame frs[] = { { 0x7f0001, 0x7001, 748, 0, 0, 0 },
		                                  { 0x7f0002, 0x7002, 5, 0, 0, 0 },
		                                  { 0x7f0003, 0x7003, PROFDATA_LINE_UNKNOWN, 0, 0, 0 } };
	static const uint64_t a[] = { 0x7f0001, 0x7f0002 }, c[] = { 0x7f0003, 0x7f0002 };
	static const profdata_stack sts[] = { { 1, 1, a, 2 }, { 2, 2, a, 2 }, { 3, 1, c, 2 } };
	static const profdata_class_load loads[] = { { 0, 1, 0x100, 0, 100 }, { 0, 2, 0x200, 0, 104 },
		                                         { 0, 3, 0x300, 0, 110 } };
	static const profdata_sample_type t = { 108, 109 };
	static const profdata_sample_group g = { 0, 10 };
	static const int64_t v5 = 5, v3 = 3, v2 = 2;
	static const profdata_sample xs[] = { { 1, 0, 0, &v5, 1 }, { 3, 0, 0, &v2, 1 }, { 2, 0, 0, &v3, 1 } };
	test_cpu_profile spec = { .strings = strs, .nstrings = 12, .first_string_id = 100, .functions = fns,
		                      .nfunctions = 3, .frames = frs, .nframes = 3, .stacks = sts, .nstacks = 3,
		                      .class_loads = loads, .nclass_loads = 3, .sample_type = &t, .sample_group = &g,
		                      .samples = xs, .nsamples = 3 };
	spec.meta.format = "hprof";
	spec.meta.version = "JAVA PROFILE 1.0.2";
	spec.meta.id_size = 8;
	return test_build_cpu_profile(&spec);
}

START_TEST(jvm_to_java_variant)
{
	profdata_profile *p = synth_jvm();
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "gperftools";
	ck_assert_int_eq(profdata_write(p, w, &o), 0);
	/* no period in an HPROF profile: 100 Hz assumed, and said */
	ck_assert_uint_ge(profdata_writer_warning_count(w), 1);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	const void *data;
	size_t len;
	ck_assert_int_eq(profdata_writer_memory(w, &data, &len), 0);
	const unsigned char *b = data;

	indep *x = indep_alloc();
	ck_assert(indep_parse(b, len, 8, 0, x));
	ck_assert_uint_eq(x->hdr[2], 1); /* the Java variant */
	ck_assert_uint_eq(x->hdr[3], 10000);
	ck_assert_uint_eq(x->nrecs, 3);
	ck_assert_uint_eq(x->pcs[0][0], 1);
	ck_assert_uint_eq(x->pcs[0][1], 2);
	ck_assert_uint_eq(x->pcs[1][0], 3);
	const char *want = "0x0000000000000001 java.lang.Thread.run (Thread.java:748)\n"
	                   "0x0000000000000002 Main.main (Main.java:5)\n"
	                   "0x0000000000000003 com.x.Y$Z.<init>\n";
	ck_assert_uint_eq(len - x->text_off, strlen(want));
	ck_assert_mem_eq(b + x->text_off, want, strlen(want));

	/* read back: names from the symbol section */
	rd r;
	profdata_profile *q = read_mem(b, len, PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_msg(q != NULL, "%s", r.msg);
	ck_assert_str_eq(profdata_profile_meta(q)->version, "1");
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_FUNCTIONS), 3);
	profdata_function f;
	profdata_frame fr;
	ck_assert_int_eq(profdata_profile_function(q, 0, &f), 0);
	ck_assert_str_eq(profdata_profile_string(q, f.name_id, NULL), "java.lang.Thread.run");
	ck_assert_str_eq(profdata_profile_string(q, f.source_file_id, NULL), "Thread.java");
	ck_assert_int_eq(profdata_profile_frame(q, 0, &fr), 0);
	ck_assert_uint_eq(fr.address, 1);
	ck_assert_int_eq(fr.line, 748);
	ck_assert_uint_eq(fr.function_id, f.id);
	profdata_attachment at;
	ck_assert_int_eq(profdata_profile_find_attachment(q, "symbols", &at), 0);
	ck_assert_uint_eq(at.len, strlen(want));

	/* the folded view is the same from the JVM model and from the file */
	char *f1 = test_folded(p, NULL), *f2 = test_folded(q, NULL);
	ck_assert_str_eq(f1, "Main.main;java.lang.Thread.run 8\nMain.main;com.x.Y$Z.<init> 2\n");
	ck_assert_str_eq(f1, f2);
	free(f1);
	free(f2);

	/* the Java variant rewrites byte for byte, and reads back the same */
	size_t l2;
	unsigned char *b2 = test_write(q, "gperftools", NULL, &l2);
	ck_assert_uint_eq(l2, len);
	ck_assert_mem_eq(b2, b, len);
	profdata_profile *q2 = read_mem(b2, l2, PROFDATA_MODE_STRICT, NULL, &r);
	test_assert_equal(q, q2, NULL);
	profdata_profile_free(q2);
	free(b2);
	profdata_profile_free(q);
	profdata_writer_free(w);
	profdata_profile_free(p);
	free(x);
}
END_TEST

/* A Java-variant file as an agent would write it: symbol lines in pprof's forms. */
START_TEST(java_symbols)
{
	static const char text[] =
		"0x0000000000001000 com.example.Foo.bar (Foo.java:42)\n"
		"  0x2000   com.example.Foo.baz (Foo.java:-1)  \n"
		"0x3000 JVM_Sleep (/usr/lib/jvm/lib/server/libjvm.so)\n"
		"0x4000 GC\n"
		"0x1000 com.example.Duplicate.ignored (Dup.java:1)\n"
		"not a symbol line\n"
		"0x5000 unused.Function (Unused.java:3)\n";
	uint64_t hdr[] = { 0, 3, 1, 10000, 0, 2, 4, 0x1000, 0x2000, 0x3000, 0x4000, 1, 1, 0x6000, 0, 1, 0 };
	size_t blen = sizeof(hdr) + strlen(text);
	unsigned char *raw = malloc(blen);
	for (size_t i = 0; i < sizeof(hdr) / 8; i++)
		for (unsigned k = 0; k < 8; k++)
			raw[i * 8 + k] = (unsigned char)(hdr[i] >> (8 * k));
	memcpy(raw + sizeof(hdr), text, strlen(text));
	rd r;
	profdata_profile *q = read_mem(raw, blen, PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_msg(q != NULL, "%s", r.msg);
	ck_assert_uint_eq(test_total_count(q), 3);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_MAPPINGS), 0);
	struct {
		uint64_t pc;
		const char *name, *file;
		int32_t line;
	} want[] = {
		{ 0x1000, "com.example.Foo.bar", "Foo.java", 42 },
		{ 0x2000, "com.example.Foo.baz", "Foo.java", 0 },
		{ 0x3000, "JVM_Sleep", "libjvm.so", 0 },
		{ 0x4000, "GC", NULL, 0 },
		{ 0x6000, NULL, NULL, 0 },
	};
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_FRAMES), 5);
	for (size_t i = 0; i < 5; i++) {
		profdata_frame fr;
		ck_assert_int_eq(profdata_profile_frame(q, i, &fr), 0);
		ck_assert_uint_eq(fr.address, want[i].pc);
		ck_assert_int_eq(fr.line, want[i].line);
		if (!want[i].name) {
			ck_assert_uint_eq(fr.function_id, 0);
			continue;
		}
		size_t fi;
		profdata_function f;
		ck_assert_int_eq(profdata_profile_find_function(q, fr.function_id, &fi), 0);
		ck_assert_int_eq(profdata_profile_function(q, fi, &f), 0);
		ck_assert_str_eq(profdata_profile_string(q, f.name_id, NULL), want[i].name);
		if (want[i].file)
			ck_assert_str_eq(profdata_profile_string(q, f.source_file_id, NULL), want[i].file);
		else
			ck_assert_uint_eq(f.source_file_id, 0);
	}
	char *fo = test_folded(q, NULL);
	ck_assert_str_eq(fo, "GC;JVM_Sleep;com.example.Foo.baz;com.example.Foo.bar 2\n0x6000 1\n");
	free(fo);
	size_t len;
	unsigned char *b = test_write(q, "gperftools", NULL, &len);
	ck_assert_uint_eq(len, blen);
	ck_assert_mem_eq(b, raw, blen);
	free(b);
	profdata_profile_free(q);
	free(raw);
}
END_TEST

/* Streaming conversion gives what read + write gives. */
START_TEST(convert_streams)
{
	char path[4096];
	test_data_path(path, sizeof(path), "gperftools/cpu-100hz.prof");
	static const char *const formats[] = { "gperftools", "folded" };
	for (unsigned i = 0; i < 2; i++) {
		profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
		size_t l1, l2;
		unsigned char *w1 = test_write(p, formats[i], NULL, &l1);
		profdata_reader *r;
		profdata_writer *w;
		ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
		ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
		profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
		o.format = formats[i];
		ck_assert_int_eq(profdata_convert(r, NULL, w, &o), 0);
		ck_assert_int_eq(profdata_writer_close(w), 0);
		const void *d;
		ck_assert_int_eq(profdata_writer_memory(w, &d, &l2), 0);
		ck_assert_uint_eq(l1, l2);
		ck_assert_mem_eq(w1, d, l1);
		free(w1);
		profdata_writer_free(w);
		profdata_reader_free(r);
		profdata_profile_free(p);
	}
}
END_TEST

/*
 * ---- many records: the chain pass ahead of the emitter (ahead.c) ----
 * A profile whose records take more than 1 MiB is read from memory with
 * its chains found on a second thread (where there are two processors),
 * and through small callback windows in turn with the emitter: the two
 * models must be the same, and each record's sample must carry its PCs.
 */
enum { MANY_RECORDS = 20000, MANY_CHAINS = 3000, MANY_DEPTH = 12 };

typedef struct many {
	unsigned char *buf;
	size_t len;
	uint32_t chain_of[MANY_RECORDS];
	uint64_t count_of[MANY_RECORDS];
	uint64_t pcs[MANY_CHAINS][MANY_DEPTH];
} many;

static void put_slot(unsigned char *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Chains of 1..MANY_DEPTH PCs from a pool that repeats some (shared frames), records over them. */
static many *many_records(void)
{
	static const char maps[] = "400000-800000 r-xp 00000000 08:01 42 /opt/many/app\n";
	many *m = calloc(1, sizeof *m);
	ck_assert_ptr_nonnull(m);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t cap = (5 + 3) * 8 + (size_t)MANY_RECORDS * (2 + MANY_DEPTH) * 8 + sizeof maps, pos = 0;
	m->buf = malloc(cap);
	ck_assert_ptr_nonnull(m->buf);
	for (size_t c = 0; c < MANY_CHAINS; c++)
		for (size_t k = 0; k < MANY_DEPTH; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			/* each chain's leaf its own (so the chains differ); then one PC
			 * in four from a pool of 500, the rest nearly all new */
			m->pcs[c][k] = k == 0 ? 0x8000000 + c * 16
			                      : 0x400000 + ((x >> 62) == 0 ? (x >> 20) % 500 : (x >> 20) % 0x3fff00) * 16;
		}
	const uint64_t header[5] = { 0, 3, 0, 10000, 0 };
	for (size_t i = 0; i < 5; i++, pos += 8)
		put_slot(m->buf + pos, header[i]);
	for (size_t r = 0; r < MANY_RECORDS; r++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t c = r < MANY_CHAINS ? (uint32_t)r : (uint32_t)((x >> 33) % MANY_CHAINS);
		size_t depth = 1 + c % MANY_DEPTH;
		m->chain_of[r] = c;
		m->count_of[r] = 1 + (x >> 60);
		put_slot(m->buf + pos, m->count_of[r]);
		put_slot(m->buf + pos + 8, depth);
		pos += 16;
		for (size_t k = 0; k < depth; k++, pos += 8)
			put_slot(m->buf + pos, m->pcs[c][k]);
	}
	const uint64_t trailer[3] = { 0, 1, 0 };
	for (size_t i = 0; i < 3; i++, pos += 8)
		put_slot(m->buf + pos, trailer[i]);
	memcpy(m->buf + pos, maps, sizeof maps - 1);
	m->len = pos + sizeof maps - 1;
	ck_assert_uint_gt(m->len, (size_t)1 << 20);
	return m;
}

static void check_many(const profdata_profile *p, const many *m)
{
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), MANY_RECORDS);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), MANY_CHAINS);
	for (size_t r = 0; r < MANY_RECORDS; r++) {
		profdata_sample s;
		profdata_stack st;
		size_t si, c = m->chain_of[r];
		ck_assert_int_eq(profdata_profile_sample(p, r, &s), 0);
		ck_assert_int_eq(s.values[0], (int64_t)m->count_of[r]);
		ck_assert_int_eq(profdata_profile_find_stack(p, s.stack_serial, &si), 0);
		ck_assert_int_eq(profdata_profile_stack(p, si, &st), 0);
		ck_assert_uint_eq(st.nframes, 1 + c % MANY_DEPTH);
		for (size_t k = 0; k < st.nframes; k++) {
			size_t fi;
			profdata_frame f;
			ck_assert_int_eq(profdata_profile_find_frame(p, st.frame_ids[k], &fi), 0);
			ck_assert_int_eq(profdata_profile_frame(p, fi, &f), 0);
			ck_assert_uint_eq(f.address, m->pcs[c][k]);
		}
	}
}

START_TEST(many_records_ahead_and_in_turn)
{
	many *m = many_records();
	rd r;
	profdata_profile *ahead = read_mem(m->buf, m->len, PROFDATA_MODE_STRICT, NULL, &r);
	ck_assert_msg(ahead != NULL, "%s", r.msg);
	profdata_profile *in_turn = read_trickle(m->buf, m->len, 4096);
	check_many(ahead, m);
	test_assert_equal(ahead, in_turn, "ahead and in turn");
	size_t l1, l2;
	unsigned char *f1 = test_write(ahead, "folded", NULL, &l1), *f2 = test_write(in_turn, "folded", NULL, &l2);
	ck_assert_uint_eq(l1, l2);
	ck_assert_mem_eq(f1, f2, l1);
	free(f1);
	free(f2);
	profdata_profile_free(ahead);
	profdata_profile_free(in_turn);
	free(m->buf);
	free(m);
}
END_TEST

/* A consumer that stops after `stop_after` samples: the pass ahead is stopped and nothing more is emitted. */
typedef struct stopper {
	size_t samples, stop_after;
} stopper;

static int stop_sample(void *payload, const profdata_sample *s)
{
	stopper *t = payload;
	(void)s;
	return ++t->samples >= t->stop_after;
}

START_TEST(many_records_stopped)
{
	static const size_t stops[] = { 1, 4095, 4096, 4097, 9000, MANY_RECORDS };
	many *m = many_records();
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
		profdata_events ev;
		profdata_events_init(&ev, sizeof ev);
		ev.sample = stop_sample;
		stopper t = { 0, stops[i] };
		profdata_reader *in;
		profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
		o.format = "gperftools";
		ck_assert_int_eq(profdata_reader_open_memory(&in, m->buf, m->len, "<many>"), 0);
		ck_assert_int_eq(profdata_decode(in, &o, &ev, &t), PROFDATA_STOPPED);
		ck_assert_uint_eq(t.samples, stops[i]);
		profdata_reader_free(in);
	}
	free(m->buf);
	free(m);
}
END_TEST

/* A progress callback that says stop once 256 KiB are read: the pass ahead stops too, and the read says why. */
static int stop_after_256k(void *payload, const char *phase, uint64_t done, uint64_t total)
{
	(void)payload;
	(void)phase;
	(void)total;
	return done >= ((uint64_t)256 << 10);
}

START_TEST(many_records_progress_stop)
{
	many *m = many_records();
	profdata_events ev;
	profdata_events_init(&ev, sizeof ev);
	ev.sample = stop_sample;
	stopper t = { 0, SIZE_MAX };
	profdata_reader *in;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "gperftools";
	ck_assert_int_eq(profdata_reader_open_memory(&in, m->buf, m->len, "<many>"), 0);
	profdata_reader_set_progress_cb(in, stop_after_256k, NULL, 64 << 10);
	ck_assert_int_eq(profdata_decode(in, &o, &ev, &t), PROFDATA_STOPPED);
	ck_assert_ptr_nonnull(profdata_reader_error(in));
	ck_assert_int_eq(profdata_reader_error(in)->code, PROFDATA_STOPPED);
	/* stopped within a batch or two of 256 KiB (about 3,900 records), not after all 20,000 */
	ck_assert_uint_gt(t.samples, 0);
	ck_assert_uint_lt(t.samples, 3 * 4096);
	profdata_reader_free(in);
	free(m->buf);
	free(m);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("gperftools");
	TCase *tc = tcase_create("real");
	tcase_add_loop_test(tc, fixture_totals, 0, sizeof(fixtures) / sizeof(fixtures[0]));
	tcase_add_test(tc, fixture_killed_empty);
	tcase_add_test(tc, convert_streams);
	suite_add_tcase(s, tc);
	tc = tcase_create("layouts");
	tcase_add_loop_test(tc, layouts_independent, 0, sizeof(layouts) / sizeof(layouts[0]));
	tcase_add_test(tc, range_32bit);
	tcase_add_test(tc, bad_options);
	tcase_add_test(tc, extra_header_slots);
	tcase_add_test(tc, maps_parsing);
	tcase_add_test(tc, many_records_ahead_and_in_turn);
	tcase_add_test(tc, many_records_stopped);
	tcase_add_test(tc, many_records_progress_stop);
	suite_add_tcase(s, tc);
	tc = tcase_create("damaged");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_prefix, 0, 2);
	tcase_add_test(tc, zero_pc_is_data);
	tcase_add_test(tc, huge_length);
	tcase_add_test(tc, not_gperftools);
	suite_add_tcase(s, tc);
	tc = tcase_create("java");
	tcase_add_test(tc, jvm_to_java_variant);
	tcase_add_test(tc, java_symbols);
	suite_add_tcase(s, tc);
	/* Only in the "-corpus" Meson test, which skips (77) when ../shared/corpus is absent. */
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_add_test(tc, corpus_cppbench);
		suite_add_tcase(s, tc);
	}
	return s;
}
