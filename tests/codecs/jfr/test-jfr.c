/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JFR reader: the hand-made recordings of tests/data/jfr/synthetic
 * (make-synthetic.py) read into the model, every typed field checked, in
 * both integer layouts and as two chunks; the broken ones refused at their
 * byte; the JDK's recordings of tests/data/jfr read with every event
 * counted; and the corpus's recordings (case "corpus", skipped without
 * ../shared/corpus). Case "write": recordings we write read back with the
 * same stacks (the JDK's reading of them is tests/interop/jfr-writer.sh).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read tests/data/jfr/synthetic/NAME; on failure its message into why[] and its byte into *at (when not NULL). */
static profdata_profile *read_synthetic_at(const char *name, int mode, char *why, size_t why_len, uint64_t *at)
{
	char path[4096], rel[256];
	size_t len;
	profdata_reader *r;
	profdata_profile *p = NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	snprintf(rel, sizeof rel, "jfr/synthetic/%s", name);
	unsigned char *bytes = test_slurp(test_data_path(path, sizeof path, rel), &len);
	ck_assert_ptr_nonnull(bytes);
	ck_assert_int_eq(profdata_reader_open_memory(&r, bytes, len, name), 0);
	o.mode = mode;
	if (profdata_read(&p, r, &o) != 0) {
		if (why)
			snprintf(why, why_len, "%s", profdata_reader_error(r)->message);
		if (at)
			*at = profdata_reader_error(r)->offset;
	}
	profdata_reader_free(r);
	free(bytes);
	return p;
}

static profdata_profile *read_synthetic(const char *name, int mode, char *why, size_t why_len)
{
	return read_synthetic_at(name, mode, why, why_len, NULL);
}

static const char *comment(const profdata_profile *p, const char *key)
{
	const profdata_meta *m = profdata_profile_meta(p);
	for (size_t i = 0; i < m->ncomments; i++)
		if (strcmp(m->comments[i].key, key) == 0)
			return m->comments[i].value;
	return NULL;
}

static const char *text(const profdata_profile *p, uint64_t id)
{
	const char *s = profdata_profile_string(p, id, NULL);
	return s ? s : "";
}

/* tiny.jfr: 3 samples of 2 stacks on thread "main", 2 test.Other events; names in UTF-8, Latin-1, chars, a pool. */
static void check_tiny(const profdata_profile *p, const char *samples)
{
	ck_assert_str_eq(profdata_profile_meta(p)->format, "jfr");
	ck_assert_str_eq(profdata_profile_meta(p)->version, "2.0");
	ck_assert_str_eq(comment(p, "jfr.events.jdk.ExecutionSample"), samples);
	ck_assert_str_eq(comment(p, "jfr.events.jdk.Metadata"), strcmp(samples, "3") == 0 ? "1" : "2");
	ck_assert_ptr_null(comment(p, "jfr.events.jdk.types.Symbol"));
	char *folded = test_folded(p, NULL);
	const char *want = strcmp(samples, "3") == 0 ? "com.example.Main.main;com.example.Main.work 2\n"
	                                               "com.example.Main.main;com.example.Main.gr\xc3\xbcn 1\n"
	                                             : "com.example.Main.main;com.example.Main.work 4\n"
	                                               "com.example.Main.main;com.example.Main.gr\xc3\xbcn 2\n";
	ck_assert_str_eq(folded, want);
	free(folded);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 1);
	profdata_function f;
	profdata_profile_function(p, 0, &f);
	ck_assert_str_eq(text(p, f.name_id), "work");
	ck_assert_str_eq(text(p, f.signature_id), "()V");
	profdata_frame fr;
	profdata_profile_frame(p, 0, &fr);
	ck_assert_int_eq(fr.line, 12);
	profdata_sample s;
	profdata_profile_sample(p, 0, &s);
	/* start 1.7e18 ns at tick 1000, a tick a nanosecond: tick 2000 is 1000 ns later */
	ck_assert_uint_eq(s.time_ns, UINT64_C(1700000000000001000));
	ck_assert_uint_ne(s.thread_serial, 0);
}

START_TEST(a_recording_reaches_the_model)
{
	profdata_profile *p = read_synthetic("tiny.jfr", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(p);
	check_tiny(p, "3");
	ck_assert_str_eq(comment(p, "jfr.events.test.Other"), "2");
	ck_assert_str_eq(comment(p, "jfr.events.jdk.CheckPoint"), "1");
	ck_assert_str_eq(comment(p, "jfr.chunks"), "1");
	profdata_profile_free(p);
}
END_TEST

/* tiny.jfr in the fixed-size layout: the same model, but for the bytes of the events kept unread. */
START_TEST(fixed_size_integers_read_alike)
{
	profdata_profile *p = read_synthetic("tiny.jfr", PROFDATA_MODE_STRICT, NULL, 0);
	profdata_profile *q = read_synthetic("tiny-fixed.jfr", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(q);
	check_tiny(q, "3");
	/* the events kept for JFR -> JFR are the file's bytes, which differ; the same events are kept */
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_UNKNOWN), n);
	for (size_t i = 0; i < n; i++) {
		profdata_unknown a, b;
		profdata_profile_unknown(p, i, &a);
		profdata_profile_unknown(q, i, &b);
		ck_assert_uint_eq(a.tag, b.tag);
	}
	profdata_profile_free(p);
	profdata_profile_free(q);
}
END_TEST

START_TEST(chunks_share_what_they_name)
{
	profdata_profile *p = read_synthetic("two-chunks.jfr", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(p);
	check_tiny(p, "6");
	ck_assert_str_eq(comment(p, "jfr.chunks"), "2");
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FUNCTIONS), 3);
	profdata_profile_free(p);
}
END_TEST

/*
 * Chunks whose metadata differ, one after another and repeated: the first
 * pass notes which chunk's metadata repeats the one before, and the second
 * trusts the note, so each chunk must still be read with its own types.
 */
START_TEST(chunks_of_other_metadata_read_alike)
{
	static const char folded[] = "main;work 1\nmain;rest 1\n";
	char path[4096], why[512], *got;
	size_t tiny_len, ours_len, at = 0;
	profdata_profile *p = test_read_memory(folded, sizeof folded - 1, "folded", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(p != NULL, "%s", why);
	unsigned char *ours = test_write(p, "jfr", NULL, &ours_len);
	unsigned char *tiny = test_slurp(test_data_path(path, sizeof path, "jfr/synthetic/tiny.jfr"), &tiny_len);
	ck_assert_ptr_nonnull(tiny);
	unsigned char *all = malloc(3 * tiny_len + 2 * ours_len);
	ck_assert_ptr_nonnull(all);
	const unsigned char *order[] = { tiny, ours, tiny, tiny, ours }; /* metadata: T, W, T, T (repeats), W */
	for (size_t i = 0; i < 5; i++) {
		size_t n = order[i] == tiny ? tiny_len : ours_len;
		memcpy(all + at, order[i], n);
		at += n;
	}
	profdata_profile *q = test_read_memory(all, at, "jfr", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(q != NULL, "%s", why);
	ck_assert_str_eq(comment(q, "jfr.chunks"), "5");
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_SAMPLES), 3 * 3 + 2 * 2);
	got = test_folded(q, NULL);
	ck_assert_ptr_nonnull(strstr(got, "com.example.Main.main;com.example.Main.work 6\n"));
	ck_assert_ptr_nonnull(strstr(got, "com.example.Main.main;com.example.Main.gr\xc3\xbcn 3\n"));
	ck_assert_ptr_nonnull(strstr(got, "main;work 2\n"));
	ck_assert_ptr_nonnull(strstr(got, "main;rest 2\n"));
	free(got);
	free(all);
	free(tiny);
	free(ours);
	profdata_profile_free(q);
	profdata_profile_free(p);
}
END_TEST

START_TEST(a_chunk_cut_short_keeps_the_ones_before)
{
	char why[512];
	uint64_t at = 0;
	ck_assert_ptr_null(read_synthetic_at("second-chunk-cut.jfr", PROFDATA_MODE_STRICT, why, sizeof why, &at));
	ck_assert_ptr_nonnull(strstr(why, "chunk 2 of 980 bytes cut short"));
	ck_assert_uint_eq(at, 980);
	profdata_profile *p = read_synthetic("second-chunk-cut.jfr", PROFDATA_MODE_PERMISSIVE, why, sizeof why);
	ck_assert_ptr_nonnull(p);
	check_tiny(p, "3");
	profdata_profile_free(p);
}
END_TEST

static const struct {
	const char *file;
	uint64_t at;
	const char *what;
} broken[] = {
	{ "type-cycle.jfr", 1018, "nested deeper than 32" },
	{ "huge-array.jfr", 947, "an array of 2147483648 elements" },
	{ "unknown-type.jfr", 868, "type id 999, which the metadata lacks" },
	{ "event-past-chunk.jfr", 865, "an event of 100000 bytes" },
	{ "event-shorter-than-size.jfr", 865, "an event of 2 bytes, shorter than its size" },
	{ "metadata-size-zero.jfr", 68, "a metadata event of 0 bytes, shorter than its size and type" },
};

START_TEST(broken_recordings_are_refused_at_their_byte)
{
	char why[512];
	for (int mode = 0; mode < 2; mode++) {
		uint64_t at = 0;
		ck_assert_ptr_null(read_synthetic_at(broken[_i].file, mode ? PROFDATA_MODE_PERMISSIVE : PROFDATA_MODE_STRICT,
		                                     why, sizeof why, &at));
		ck_assert_msg(at == broken[_i].at && strstr(why, broken[_i].what), "%s: byte %llu: %s", broken[_i].file,
		              (unsigned long long)at, why);
	}
}
END_TEST

START_TEST(every_cut_of_a_recording_is_refused_or_read)
{
	char path[4096];
	size_t len;
	unsigned char *bytes = test_slurp(test_data_path(path, sizeof path, "jfr/synthetic/tiny.jfr"), &len);
	for (size_t n = 0; n < len; n++) {
		profdata_profile *p = test_read_memory(bytes, n, "jfr", PROFDATA_MODE_PERMISSIVE, NULL, 0);
		profdata_profile_free(p);
	}
	free(bytes);
}
END_TEST

/* The JDK's recordings (tests/interop/jfr-gen/gen.sh). */
static const char *const jdk_recordings[] = { "jfr/jdk17-default.jfr.gz", "jfr/jdk17-profile.jfr.gz",
	                                      "jfr/jdk17-deep.jfr.gz", "jfr/jdk17-leak.jfr.gz" };

/* The JDK's recordings: jdk.ExecutionSample as many samples as events counted. */
START_TEST(jdk_recordings_read)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, jdk_recordings[_i]), NULL, PROFDATA_MODE_STRICT);
	const char *n = comment(p, "jfr.events.jdk.ExecutionSample");
	ck_assert_ptr_nonnull(n);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), strtoull(n, NULL, 10));
	ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 0);
	profdata_profile_free(p);
}
END_TEST

/* events= reads other event types as samples: by kind (values and units) or by name. */
START_TEST(the_events_option_chooses_the_samples)
{
	static const struct {
		const char *options;
		size_t types, samples;
		const char *unit;
	} want[] = { /* JDK 17's settings record allocations as samples, not per TLAB */
		     { "events=alloc", 2, 0, "bytes" }, { "events=lock", 2, 3, "nanoseconds" },
		     { "events=jdk.ObjectAllocationSample", 2, 183, "bytes" }, { "events=jdk.ThreadSleep", 1, 1, "count" } };
	char path[4096];
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	profdata_sample_type t;
	o.options = want[_i].options;
	test_data_path(path, sizeof path, "jfr/jdk17-profile.jfr.gz");
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_int_eq(profdata_read(&p, r, &o), 0);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), want[_i].types);
	ck_assert_uint_ge(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), want[_i].samples);
	profdata_profile_sample_type(p, want[_i].types - 1, &t);
	ck_assert_str_eq(text(p, t.unit_id), want[_i].unit);
	profdata_profile_free(p);
	profdata_reader_free(r);
}
END_TEST

START_TEST(an_unknown_kind_is_refused)
{
	char path[4096];
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	o.options = "events=heat";
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, "jfr/synthetic/tiny.jfr")), 0);
	ck_assert_int_eq(profdata_read(&p, r, &o), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_reader_error(r)->message, "events=heat"));
	profdata_profile_free(p);
	profdata_reader_free(r);
}
END_TEST

/* The corpus's recordings: their execution samples (the README counts async-profiler's). */
static const struct {
	const char *file;
	size_t samples;
} corpus[] = {
	{ "async-profiler.jfr.gz", 199661 }, { "goland-multichunk.jfr.gz", 1776 }, { "example.jfr.gz", 1031 },
	{ "cpool-uint64-constant-index.jfr.gz", 88 }, { "dd-trace-java.jfr.gz", 113 }, { "wall.jfr.gz", 0 },
	{ "nativemem.jfr.gz", 0 },
};

START_TEST(corpus_recordings)
{
	const char *dir = test_corpus_dir();
	ck_assert_ptr_nonnull(dir);
	char path[4096];
	snprintf(path, sizeof path, "%s/jfr/%s", dir, corpus[_i].file);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), corpus[_i].samples);
	profdata_profile_free(p);
}
END_TEST

START_TEST(sniffed_by_its_magic)
{
	char path[4096];
	const profdata_format *f = NULL;
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, "jfr/jdk17-default.jfr.gz")), 0);
	ck_assert_int_eq(profdata_reader_sniff(r, &f), 0);
	ck_assert_str_eq(profdata_format_name(f), "jfr");
	profdata_reader_free(r);
}
END_TEST

/* ---- the writer ---- */

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/*
 * The chunks of a recording we wrote: each a header of its own size, the
 * kept ones (JFR -> JFR) as their source wrote them, the last one ours
 * (integers compressed) and the only one flagged the last. How many.
 */
static size_t check_chunks(const unsigned char *b, size_t len)
{
	size_t at = 0, n = 0;
	while (at < len) {
		ck_assert_uint_ge(len - at, 68);
		ck_assert_mem_eq(b + at, "FLR\0\0\2", 6);
		uint64_t size = be64(b + at + 8);
		ck_assert_uint_ge(size, 68);
		ck_assert_uint_le(size, len - at);
		ck_assert_uint_eq(b[at + 67] & 2, at + size == len ? 2 : 0); /* the last chunk */
		if (at + size == len)
			ck_assert_uint_eq(b[at + 67] & 1, 1); /* ours: integers compressed */
		at += size;
		n++;
	}
	return n;
}

/* p written as JFR, its chunks checked, read back: the same folded stacks (and the back's model to *out). */
static void check_written(const profdata_profile *p, profdata_profile **out)
{
	size_t len;
	char why[512];
	unsigned char *b = test_write(p, "jfr", NULL, &len);
	ck_assert_uint_gt(len, 68);
	check_chunks(b, len);
	profdata_profile *back = test_read_memory(b, len, NULL, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(back != NULL, "reading it back: %s", why);
	char *want = test_folded(p, NULL), *got = test_folded(back, NULL);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	if (out)
		*out = back;
	else
		profdata_profile_free(back);
	free(b);
}

START_TEST(a_written_jdk_recording_reads_back)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, jdk_recordings[_i]), NULL, PROFDATA_MODE_STRICT), *back;
	check_written(p, &back);
	/* one event a sample, in order: each keeps its time and its thread's name */
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES);
	ck_assert_uint_eq(profdata_profile_count(back, PROFDATA_TABLE_SAMPLES), n);
	for (size_t i = 0; i < n; i++) {
		profdata_sample a, b;
		profdata_thread_info ta, tb;
		size_t ia, ib;
		profdata_profile_sample(p, i, &a);
		profdata_profile_sample(back, i, &b);
		ck_assert_uint_eq(a.time_ns, b.time_ns);
		ck_assert_int_eq(profdata_profile_find_thread(p, a.thread_serial, &ia), 0);
		ck_assert_int_eq(profdata_profile_find_thread(back, b.thread_serial, &ib), 0);
		profdata_profile_thread(p, ia, &ta);
		profdata_profile_thread(back, ib, &tb);
		ck_assert_str_eq(text(back, tb.start.name_id), text(p, ta.start.name_id));
		ck_assert_uint_eq(tb.start.object_id, ta.start.object_id);
	}
	profdata_profile_free(back);
	profdata_profile_free(p);
}
END_TEST

/* Per frame kind, how many frames of the stacks' frames are of it; and how many stacks are truncated. */
static void kinds_of_stacks(const profdata_profile *p, size_t count[PROFDATA_FRAME_KIND_C1 + 1], size_t *truncated)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_FRAME_KINDS), fi;
	uint32_t *kind = calloc(profdata_profile_count(p, PROFDATA_TABLE_FRAMES) + 1, sizeof *kind);
	ck_assert_ptr_nonnull(kind);
	for (size_t i = 0; i < n; i++) {
		profdata_frame_kind k;
		profdata_profile_frame_kind(p, i, &k);
		ck_assert_int_eq(profdata_profile_find_frame(p, k.frame_id, &fi), 0);
		ck_assert_uint_le(k.kind, PROFDATA_FRAME_KIND_C1);
		kind[fi] = k.kind;
	}
	memset(count, 0, (PROFDATA_FRAME_KIND_C1 + 1) * sizeof *count);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_STACKS); i++) {
		profdata_stack st;
		profdata_profile_stack(p, i, &st);
		for (size_t k = 0; k < st.nframes; k++) {
			ck_assert_int_eq(profdata_profile_find_frame(p, st.frame_ids[k], &fi), 0);
			count[kind[fi]]++;
		}
	}
	*truncated = profdata_profile_count(p, PROFDATA_TABLE_TRUNCATED_STACKS);
	free(kind);
}

/*
 * jdk17-deep (a thread 80 calls deep under a stack depth of 32): its stacks
 * truncated, its frames interpreted and JIT-compiled, kept by JFR -> JFR
 * (tests/interop/jfr-writer.sh checks the JDK's reading, event by event).
 */
START_TEST(frame_kinds_and_truncation_come_back)
{
	char path[4096];
	size_t want[PROFDATA_FRAME_KIND_C1 + 1], got[PROFDATA_FRAME_KIND_C1 + 1], want_cut, got_cut;
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "jfr/jdk17-deep.jfr.gz"), NULL,
	                                PROFDATA_MODE_STRICT), *back;
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FRAME_KINDS),
	                  profdata_profile_count(p, PROFDATA_TABLE_FRAMES));
	kinds_of_stacks(p, want, &want_cut);
	ck_assert_uint_gt(want_cut, 0);
	ck_assert_uint_lt(want_cut, profdata_profile_count(p, PROFDATA_TABLE_STACKS));
	ck_assert_uint_gt(want[PROFDATA_FRAME_KIND_INTERPRETED] + want[PROFDATA_FRAME_KIND_JIT], 0);
	ck_assert_uint_eq(want[PROFDATA_FRAME_KIND_UNKNOWN], 0);
	check_written(p, &back);
	kinds_of_stacks(back, got, &got_cut);
	ck_assert_mem_eq(got, want, sizeof want);
	ck_assert_uint_eq(got_cut, want_cut);
	profdata_profile_free(back);
	profdata_profile_free(p);
}
END_TEST

/* Object i's class name (internal form), "" without one. */
static const char *class_of_object(const profdata_profile *p, size_t i)
{
	profdata_object o;
	profdata_class_info c;
	size_t row;
	ck_assert_int_eq(profdata_profile_object(p, i, &o), 0);
	if (!o.class_id || profdata_profile_find_class(p, o.class_id, &row) != 0)
		return "";
	ck_assert_int_eq(profdata_profile_class(p, row, &c), 0);
	return c.name ? c.name : "";
}

/* An object sample's object: allocated before it was sampled, with an allocation stack; 1 when it names `root`. */
static int check_object_sample(const profdata_profile *p, const profdata_object_sample *s, const char *root)
{
	profdata_object o;
	size_t row;
	ck_assert_int_eq(profdata_profile_find_object(p, s->object_id, &row), 0);
	ck_assert_int_eq(profdata_profile_object(p, row, &o), 0);
	ck_assert_int_eq(profdata_profile_find_stack(p, o.trace_serial, &row), 0);
	ck_assert_uint_gt(s->allocation_ns, 0);
	ck_assert_uint_lt(s->allocation_ns, s->time_ns);
	ck_assert_uint_gt(s->age_ns, 0);
	ck_assert_uint_gt(s->heap_used, 0);
	ck_assert_int_eq(profdata_profile_find_thread(p, s->thread_serial, &row), 0);
	if (!s->root_name_id) /* the recorder found no path to a root */
		return 0;
	ck_assert_str_eq(text(p, s->root_name_id), root);
	return 1;
}

/*
 * jdk17-leak (a static HashMap filled for two seconds, recorded with
 * path-to-gc-roots=true): each jdk.OldObjectSample is an object sample,
 * its object and the objects of its path to a GC root a heap dump, and
 * most paths pass through the map's table (tests/interop/jfr-oracle.sh
 * compares every object and reference with `jfr print`).
 */
START_TEST(old_objects_are_a_heap_dump)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "jfr/jdk17-leak.jfr.gz"), NULL,
	                                PROFDATA_MODE_STRICT);
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_OBJECT_SAMPLES), table_refs = 0, rooted = 0;
	profdata_object_sample s;
	profdata_root r;
	ck_assert_ptr_nonnull(comment(p, "jfr.events.jdk.OldObjectSample"));
	ck_assert_uint_eq(n, strtoull(comment(p, "jfr.events.jdk.OldObjectSample"), NULL, 10));
	ck_assert_uint_gt(n, 100);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(profdata_profile_object_sample(p, i, &s), 0);
		rooted += (size_t)check_object_sample(p, &s, "Class Loader Data");
	}
	ck_assert_uint_gt(rooted, n / 2);
	ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_ROOTS), 0);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_ROOTS); i++) {
		ck_assert_int_eq(profdata_profile_root(p, i, &r, NULL), 0);
		ck_assert_uint_eq(r.kind, PROFDATA_ROOT_STICKY_CLASS);
	}
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_OBJECTS); i++) {
		profdata_object o;
		ck_assert_int_eq(profdata_profile_object(p, i, &o), 0);
		if (strcmp(class_of_object(p, i), "[Ljava/util/HashMap$Node;") == 0 && o.nrefs > table_refs) {
			table_refs = o.nrefs;
			ck_assert_uint_ge(o.length, o.nrefs);
		}
	}
	ck_assert_uint_gt(table_refs, n / 2);
	profdata_profile_free(p);
}
END_TEST

/* Object `id` of p: its class name, kind, length and references (at most 4) into refs; the count of them. */
static size_t synthetic_object(const profdata_profile *p, uint64_t id, const char *class_name, int kind,
                               uint64_t length, uint64_t *refs)
{
	profdata_object o;
	size_t row;
	ck_assert_int_eq(profdata_profile_find_object(p, id, &row), 0);
	ck_assert_int_eq(profdata_profile_object(p, row, &o), 0);
	ck_assert_str_eq(class_of_object(p, row), class_name);
	ck_assert_int_eq(o.kind, kind);
	ck_assert_uint_eq(o.length, length);
	long n = profdata_profile_object_refs(p, row, 1, refs, 4);
	ck_assert_int_ge(n, 0);
	return (size_t)n;
}

/*
 * old-objects.jfr (make-synthetic.py): a path 0x3000 (a root, "Threads,
 * Stack Variable") -> 0x2000 (Object[4]) -> 0x1000 (byte[16]), an object
 * 0x4000 that is its own referrer (a cycle of the pool), an object of
 * address 0 (none), and a sample of 0x2000, met first on 0x1000's path.
 */
START_TEST(old_objects_of_a_synthetic_recording)
{
	profdata_profile *p = read_synthetic("old-objects.jfr", PROFDATA_MODE_STRICT, NULL, 0);
	profdata_object_sample s;
	profdata_root r;
	uint64_t refs[4];
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), 4);
	ck_assert_uint_eq(synthetic_object(p, 0x1000, "[B", PROFDATA_OBJECT_PRIM_ARRAY, 16, refs), 0);
	ck_assert_uint_eq(synthetic_object(p, 0x2000, "[Ljava/lang/Object;", PROFDATA_OBJECT_ARRAY, 4, refs), 1);
	ck_assert_uint_eq(refs[0], 0x1000);
	ck_assert_uint_eq(synthetic_object(p, 0x3000, "java/util/HashMap", PROFDATA_OBJECT_INSTANCE, 0, refs), 1);
	ck_assert_uint_eq(refs[0], 0x2000);
	ck_assert_uint_eq(synthetic_object(p, 0x4000, "java/util/HashMap", PROFDATA_OBJECT_INSTANCE, 0, refs), 1);
	ck_assert_uint_eq(refs[0], 0x4000);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_ROOTS), 1);
	ck_assert_int_eq(profdata_profile_root(p, 0, &r, NULL), 0);
	ck_assert_uint_eq(r.kind, PROFDATA_ROOT_JAVA_FRAME);
	ck_assert_uint_eq(r.object_id, 0x3000);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECT_SAMPLES), 3);
	static const uint64_t sampled[3] = { 0x1000, 0x4000, 0x2000 };
	for (size_t i = 0; i < 3; i++) {
		ck_assert_int_eq(profdata_profile_object_sample(p, i, &s), 0);
		ck_assert_uint_eq(s.object_id, sampled[i]);
		ck_assert_uint_eq(s.age_ns, 1000); /* ticks of a nanosecond */
		ck_assert_int_eq(check_object_sample(p, &s, "Threads, Stack Variable"), i != 1);
	}
	profdata_profile_free(p);
}
END_TEST

/*
 * The old objects written as HPROF: the same objects and references, and
 * the primitive arrays, whose elements the recording does not hold, as
 * arrays of zeros of their length (a HotSpot reader knows no Android 0xC3).
 */
START_TEST(old_objects_written_as_hprof)
{
	char path[4096];
	size_t len, nprim = 0;
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "jfr/jdk17-leak.jfr.gz"), NULL,
	                                PROFDATA_MODE_STRICT);
	unsigned char *bytes = test_write(p, "hprof", NULL, &len);
	profdata_profile *back = test_read_memory(bytes, len, "hprof", PROFDATA_MODE_STRICT, NULL, 0);
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_OBJECTS);
	ck_assert_uint_eq(profdata_profile_count(back, PROFDATA_TABLE_OBJECTS), n);
	ck_assert_uint_eq(profdata_profile_reference_count(back), profdata_profile_reference_count(p));
	for (size_t i = 0; i < n; i++) {
		profdata_object o, b;
		size_t row;
		ck_assert_int_eq(profdata_profile_object(p, i, &o), 0);
		ck_assert_int_eq(profdata_profile_find_object(back, o.id, &row), 0);
		ck_assert_int_eq(profdata_profile_object(back, row, &b), 0);
		ck_assert_uint_eq(b.kind, o.kind);
		if (o.kind != PROFDATA_OBJECT_PRIM_ARRAY)
			continue;
		nprim++;
		ck_assert_uint_eq(o.flags, PROFDATA_OBJECT_NODATA);
		ck_assert_uint_eq(b.flags, 0);
		ck_assert_uint_eq(b.length, o.length);
		ck_assert_uint_eq(profdata_profile_object_size(back, row), profdata_profile_object_size(p, i));
	}
	ck_assert_uint_gt(nprim, 100);
	profdata_profile_free(back);
	profdata_profile_free(p);
	free(bytes);
}
END_TEST

/*
 * jdk17-profile's old objects (two chunks, no paths): the JDK names 11 of
 * the 12 allocation stacks by ids the recording holds no entry for (`jfr
 * print` shows them null): unknown, and no damage.
 */
START_TEST(old_objects_without_their_stacks)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "jfr/jdk17-profile.jfr.gz"), NULL,
	                                PROFDATA_MODE_STRICT);
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_OBJECT_SAMPLES), unknown = 0;
	profdata_object o;
	ck_assert_uint_eq(n, 12);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), n);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_ROOTS), 0);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(profdata_profile_object(p, i, &o), 0);
		unknown += o.trace_serial == 0;
	}
	ck_assert_uint_eq(unknown, 11);
	profdata_profile_free(p);
}
END_TEST

/* Settings (jdk.ActiveSetting: event type, name, value) and the recording's record as meta comments. */
START_TEST(settings_and_recording_are_metadata)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "jfr/jdk17-default.jfr.gz"), NULL,
	                                PROFDATA_MODE_STRICT);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(comment(p, "jfr.setting.jdk.ExecutionSample.period"), "20 ms");
	ck_assert_str_eq(comment(p, "jfr.setting.jdk.ExecutionSample.enabled"), "true");
	ck_assert_str_eq(comment(p, "jfr.recording.name"), "1");
	ck_assert_str_eq(comment(p, "jfr.recording.maxSize"), "0");
	ck_assert_ptr_null(comment(p, "jfr.recording.startTime")); /* the event's own time, not the recording's */
	size_t settings = 0;
	const profdata_meta *m = profdata_profile_meta(p);
	for (size_t i = 0; i < m->ncomments; i++)
		settings += strncmp(m->comments[i].key, "jfr.setting.", 12) == 0;
	ck_assert_uint_eq(settings, 337); /* jdk.ActiveSetting's events, each of another key */
	profdata_profile_free(p);
}
END_TEST

/* The value of meta comment `key` as a number, 0 when absent. */
static uint64_t count_of(const profdata_profile *p, const char *key)
{
	const char *v = comment(p, key);
	return v ? strtoull(v, NULL, 10) : 0;
}

/*
 * JFR -> JFR keeps every event: each type's count comes back (the chunk of
 * samples adds one jdk.Metadata and one jdk.CheckPoint), and a second round
 * trip writes the same bytes as the first (tests/interop/jfr-writer.sh
 * checks that the JDK prints every kept event as it printed the input's).
 */
START_TEST(jfr_to_jfr_keeps_every_event)
{
	char path[4096], why[512];
	size_t len, len2;
	profdata_profile *p = test_read(test_data_path(path, sizeof path, jdk_recordings[_i]), NULL, PROFDATA_MODE_STRICT);
	unsigned char *b = test_write(p, "jfr", NULL, &len);
	size_t chunks = check_chunks(b, len);
	profdata_profile *back = test_read_memory(b, len, "jfr", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(back != NULL, "%s", why);
	ck_assert_uint_eq(count_of(back, "jfr.chunks"), chunks);
	ck_assert_uint_eq(count_of(back, "jfr.events.jdk.Metadata"), chunks);
	ck_assert_uint_eq(count_of(back, "jfr.events.jdk.CheckPoint"), count_of(p, "jfr.events.jdk.CheckPoint") + 1);
	const profdata_meta *m = profdata_profile_meta(p);
	size_t types = 0;
	for (size_t i = 0; i < m->ncomments; i++) {
		const char *key = m->comments[i].key;
		if (strncmp(key, "jfr.events.", 11) != 0 || strcmp(key, "jfr.events.jdk.Metadata") == 0 ||
		    strcmp(key, "jfr.events.jdk.CheckPoint") == 0)
			continue;
		ck_assert_msg(count_of(back, key) == count_of(p, key), "%s: %s, back %s", key, m->comments[i].value,
		              comment(back, key));
		types++;
	}
	ck_assert_uint_gt(types, 40);
	unsigned char *b2 = test_write(back, "jfr", NULL, &len2);
	ck_assert_uint_eq(len2, len);
	ck_assert_mem_eq(b2, b, len);
	free(b2);
	free(b);
	profdata_profile_free(back);
	profdata_profile_free(p);
}
END_TEST

/* A chunk of fixed-size integers is kept in its layout: its checkpoint's distance back is 8 bytes again. */
START_TEST(fixed_size_chunks_are_kept_too)
{
	char why[512];
	size_t len;
	profdata_profile *p = read_synthetic("tiny-fixed.jfr", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(p);
	unsigned char *b = test_write(p, "jfr", NULL, &len);
	ck_assert_uint_eq(check_chunks(b, len), 2);
	ck_assert_uint_eq(b[67] & 1, 0); /* the kept chunk: integers not compressed */
	profdata_profile *back = test_read_memory(b, len, "jfr", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(back != NULL, "%s", why);
	ck_assert_str_eq(comment(back, "jfr.events.test.Other"), "2");
	ck_assert_str_eq(comment(back, "jfr.events.jdk.ExecutionSample"), "3");
	free(b);
	profdata_profile_free(back);
	profdata_profile_free(p);
}
END_TEST

/* Sample i's label `key` (a string's text), or NULL. */
static const char *label_of(const profdata_profile *p, size_t i, const char *key)
{
	const profdata_label *labels;
	size_t n;
	ck_assert_int_eq(profdata_profile_sample_labels(&labels, &n, p, i), 0);
	for (size_t k = 0; k < n; k++)
		if (strcmp(text(p, labels[k].key_id), key) == 0 && labels[k].str_id)
			return text(p, labels[k].str_id);
	return NULL;
}

/* A sample's thread state (jdk.ExecutionSample's `state`) is its label "state", and JFR -> JFR keeps it. */
START_TEST(thread_states_are_labels)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "jfr/jdk17-deep.jfr.gz"), NULL,
	                                PROFDATA_MODE_STRICT), *back;
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES);
	ck_assert_uint_gt(n, 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(label_of(p, i, "state"), "STATE_RUNNABLE");
	check_written(p, &back);
	ck_assert_uint_eq(profdata_profile_count(back, PROFDATA_TABLE_SAMPLES), n);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(label_of(back, i, "state"), "STATE_RUNNABLE");
	profdata_profile_free(back);
	profdata_profile_free(p);
}
END_TEST

/* other_events=0 keeps none of them, and changes nothing else; other_events=2 is refused. */
START_TEST(other_events_0_keeps_none)
{
	char path[4096];
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL, *all = test_read(test_data_path(path, sizeof path, "jfr/jdk17-profile.jfr.gz"),
	                                             NULL, PROFDATA_MODE_STRICT);
	o.options = "other_events=0";
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_int_eq(profdata_read(&p, r, &o), 0);
	profdata_reader_free(r);
	ck_assert_uint_gt(profdata_profile_count(all, PROFDATA_TABLE_UNKNOWN), 0);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN), 0);
	char *want = test_folded(all, NULL), *got = test_folded(p, NULL);
	ck_assert_str_eq(got, want);
	ck_assert_str_eq(comment(p, "jfr.events.jdk.GCPhaseParallel"), comment(all, "jfr.events.jdk.GCPhaseParallel"));
	free(want);
	free(got);
	profdata_profile_free(p);
	o.options = "other_events=2";
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_int_eq(profdata_read(&p, r, &o), PROFDATA_EINVAL);
	profdata_reader_free(r);
	profdata_profile_free(all);
}
END_TEST

/* A read of `path` with read options `options` (strict). */
static profdata_profile *read_with(const char *path, const char *options)
{
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	o.options = options;
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_msg(profdata_read(&p, r, &o) == 0, "%s: %s", path, profdata_reader_error(r)->message);
	profdata_reader_free(r);
	return p;
}

/*
 * Without the other events, pass 2 reads the wanted ones where pass 1
 * noted them (the JDK's chunks, where they are few), or walks a chunk where
 * they are many (jdk.BooleanFlag: a burst at each chunk's start): either
 * way the samples, their stacks and the old objects are those of a read
 * that walks every event.
 */
START_TEST(wanted_events_read_where_they_were_noted)
{
	static const char *const files[] = { "jfr/jdk17-profile.jfr.gz", "jfr/jdk17-leak.jfr.gz",
		                             "jfr/jdk17-default.jfr.gz", "jfr/synthetic/two-chunks.jfr",
		                             "jfr/synthetic/old-objects.jfr" };
	static const char *const events[] = { "events=cpu", "events=lock", "events=jdk.ObjectAllocationSample",
		                              "events=wall", "events=jdk.BooleanFlag" };
	char path[4096], all_opts[64], few_opts[80];
	test_data_path(path, sizeof path, files[_i / 5]);
	snprintf(all_opts, sizeof all_opts, "%s", events[_i % 5]);
	snprintf(few_opts, sizeof few_opts, "%s,other_events=0", events[_i % 5]);
	profdata_profile *all = read_with(path, all_opts), *few = read_with(path, few_opts);
	if (strstr(path, "jdk17")) /* kept: the read walked every event */
		ck_assert_uint_gt(profdata_profile_count(all, PROFDATA_TABLE_UNKNOWN), 0);
	ck_assert_uint_eq(profdata_profile_count(few, PROFDATA_TABLE_UNKNOWN), 0);
	ck_assert_uint_eq(profdata_profile_count(few, PROFDATA_TABLE_SAMPLES),
	                  profdata_profile_count(all, PROFDATA_TABLE_SAMPLES));
	ck_assert_uint_eq(profdata_profile_count(few, PROFDATA_TABLE_STACKS),
	                  profdata_profile_count(all, PROFDATA_TABLE_STACKS));
	for (size_t i = 0; i < profdata_profile_count(all, PROFDATA_TABLE_SAMPLES); i++) {
		profdata_sample a, f;
		ck_assert_int_eq(profdata_profile_sample(all, i, &a), 0);
		ck_assert_int_eq(profdata_profile_sample(few, i, &f), 0);
		ck_assert_uint_eq(f.stack_serial, a.stack_serial);
		ck_assert_uint_eq(f.thread_serial, a.thread_serial);
		ck_assert_uint_eq(f.time_ns, a.time_ns);
		ck_assert_uint_eq(f.nvalues, a.nvalues);
		ck_assert_mem_eq(f.values, a.values, a.nvalues * sizeof *a.values);
	}
	static const profdata_table tables[] = { PROFDATA_TABLE_OBJECTS, PROFDATA_TABLE_ROOTS, PROFDATA_TABLE_OBJECT_SAMPLES,
		                                 PROFDATA_TABLE_CLASSES, PROFDATA_TABLE_FRAMES, PROFDATA_TABLE_THREADS };
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
		ck_assert_uint_eq(profdata_profile_count(few, tables[i]), profdata_profile_count(all, tables[i]));
	profdata_profile_free(few);
	profdata_profile_free(all);
}
END_TEST

/* Whether sample i of p is on a stack of no frames. */
static int on_no_frames(const profdata_profile *p, size_t i)
{
	profdata_sample s;
	profdata_stack st;
	size_t ix;
	ck_assert_int_eq(profdata_profile_sample(p, i, &s), 0);
	ck_assert_int_eq(profdata_profile_find_stack(p, s.stack_serial, &ix), 0);
	ck_assert_int_eq(profdata_profile_stack(p, ix, &st), 0);
	return st.nframes == 0;
}

/*
 * A sample whose stack trace is null (the JDK's with stackTrace=false), and
 * one of an event type without a stack trace (events=jdk.BooleanFlag), are
 * on the stack of no frames, which every writer takes: before, the first
 * was refused as a missing pool entry and the second named stack 0.
 */
START_TEST(a_sample_without_a_stack_is_on_no_frames)
{
	char path[4096];
	profdata_profile *p = read_synthetic("null-stack.jfr", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 4);
	ck_assert(!on_no_frames(p, 0));
	ck_assert(on_no_frames(p, 3));
	char *folded = test_folded(p, NULL);
	ck_assert_ptr_nonnull(strstr(folded, "[empty] 1\n")); /* the folded writer's name for no frames */
	free(folded);
	profdata_profile_free(p);
	p = read_with(test_data_path(path, sizeof path, "jfr/jdk17-profile.jfr.gz"), "events=jdk.BooleanFlag");
	const char *flags = comment(p, "jfr.events.jdk.BooleanFlag");
	ck_assert_ptr_nonnull(flags);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), strtoull(flags, NULL, 10));
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_SAMPLES); i++)
		ck_assert(on_no_frames(p, i));
	size_t len;
	unsigned char *pb = test_write(p, "pprof", NULL, &len);
	ck_assert_uint_gt(len, 0);
	free(pb);
	profdata_profile_free(p);
}
END_TEST

/* A recording's events are its format's: written as another (HPROF, streaming), none of them goes along. */
START_TEST(kept_events_stay_out_of_other_formats)
{
	char path[4096], why[512];
	size_t len;
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "jfr/jdk17-default.jfr.gz"), NULL,
	                                PROFDATA_MODE_STRICT);
	ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN), 1000);
	unsigned char *b = test_write(p, "hprof", NULL, &len);
	profdata_profile *back = test_read_memory(b, len, "hprof", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(back != NULL, "%s", why);
	ck_assert_uint_eq(profdata_profile_count(back, PROFDATA_TABLE_UNKNOWN), 0);
	ck_assert_uint_gt(profdata_profile_count(back, PROFDATA_TABLE_SAMPLES), 0);
	free(b);
	profdata_profile_free(back);
	profdata_profile_free(p);
}
END_TEST

/* profdata_convert() of `path` into `format`: the bytes (free them) and their length. */
static unsigned char *convert(const char *path, const char *format, size_t *len)
{
	profdata_reader *r;
	profdata_writer *w;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	const void *bytes;
	o.format = format;
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_convert(r, NULL, w, &o), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	ck_assert_int_eq(profdata_writer_memory(w, &bytes, len), 0);
	unsigned char *copy = malloc(*len + 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, bytes, *len);
	profdata_writer_free(w);
	profdata_reader_free(r);
	return copy;
}

/*
 * A conversion to another format than JFR, for which the reader makes no
 * record of the other events (the model would drop them), writes what a
 * read and a write give; JFR -> JFR keeps every one.
 */
START_TEST(convert_matches_read_then_write)
{
	char path[4096];
	size_t len, jlen;
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "jfr/jdk17-profile.jfr.gz"), NULL,
	                                PROFDATA_MODE_STRICT);
	char *want = test_folded(p, NULL);
	unsigned char *got = convert(path, "folded", &len);
	ck_assert_uint_eq(len, strlen(want));
	ck_assert_mem_eq(got, want, len);
	unsigned char *j = convert(path, "jfr", &jlen);
	profdata_profile *back = test_read_memory(j, jlen, "jfr", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(back);
	ck_assert_uint_eq(profdata_profile_count(back, PROFDATA_TABLE_UNKNOWN),
	                  profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN));
	free(want);
	free(got);
	free(j);
	profdata_profile_free(back);
	profdata_profile_free(p);
}
END_TEST

/* Kept records that are no recording's (a profile built by hand says it is JFR) are refused or left out, never read past. */
START_TEST(kept_records_that_do_not_parse_are_refused)
{
	static const unsigned char bad_checkpoint[] = { 0xff };
	unsigned char header[68] = { 'F', 'L', 'R', 0, 0, 2, 0, 1 };
	profdata_profile *p;
	const profdata_events *ev = profdata_profile_builder_events();
	profdata_meta m = { .format = "jfr" };
	profdata_unknown stray = { .tag = 7, .data = "x", .len = 1 };
	profdata_unknown head = { .tag = UINT32_MAX, .data = header, .len = sizeof header };
	profdata_unknown cp = { .tag = 1, .data = bad_checkpoint, .len = sizeof bad_checkpoint };
	header[67] = 1;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ck_assert_int_eq(ev->begin(p, &m), 0);
	ck_assert_int_eq(ev->unknown(p, &stray), 0);
	ck_assert_int_eq(ev->unknown(p, &head), 0);
	ck_assert_int_eq(ev->unknown(p, &cp), 0);
	ck_assert_int_eq(ev->end(p), 0);
	test_assert_write_refused(p, "jfr", NULL, PROFDATA_EFORMAT, "kept chunk 1");
	profdata_profile_free(p);
}
END_TEST

/* Names without a class are split into class and method where every reader joins them back alike. */
START_TEST(names_without_a_class_come_back_whole)
{
	static const char folded[] = "main;a.b.c;main.(*T).m;github.com/x/y.F;std::vector<int>::push_back 3\n"
	                             "main;x. 2\nmain;.y;0x4005d0;[unknown] 1\n";
	char why[512];
	profdata_profile *p = test_read_memory(folded, sizeof folded - 1, "folded", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(p != NULL, "%s", why);
	check_written(p, NULL);
	profdata_profile_free(p);
}
END_TEST

/* A count past what events can carry is written one event per sample: the stacks stay, the count goes. */
START_TEST(a_huge_count_is_one_event)
{
	static const char folded[] = "main;work 100000000\n";
	char why[512];
	size_t len;
	profdata_profile *p = test_read_memory(folded, sizeof folded - 1, "folded", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(p != NULL, "%s", why);
	unsigned char *b = test_write(p, "jfr", NULL, &len);
	ck_assert_uint_lt(len, 4096);
	profdata_profile *back = test_read_memory(b, len, "jfr", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(back != NULL, "%s", why);
	char *got = test_folded(back, NULL);
	ck_assert_str_eq(got, "main;work 1\n");
	free(got);
	free(b);
	profdata_profile_free(back);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("jfr");
	TCase *tc = tcase_create("jfr");
	tcase_add_test(tc, a_recording_reaches_the_model);
	tcase_add_test(tc, fixed_size_integers_read_alike);
	tcase_add_test(tc, chunks_share_what_they_name);
	tcase_add_test(tc, chunks_of_other_metadata_read_alike);
	tcase_add_test(tc, a_chunk_cut_short_keeps_the_ones_before);
	tcase_add_loop_test(tc, broken_recordings_are_refused_at_their_byte, 0, sizeof broken / sizeof broken[0]);
	tcase_add_test(tc, every_cut_of_a_recording_is_refused_or_read);
	tcase_add_loop_test(tc, jdk_recordings_read, 0, sizeof jdk_recordings / sizeof *jdk_recordings);
	tcase_add_test(tc, sniffed_by_its_magic);
	tcase_add_loop_test(tc, the_events_option_chooses_the_samples, 0, 4);
	tcase_add_test(tc, an_unknown_kind_is_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("write");
	tcase_add_loop_test(tc, a_written_jdk_recording_reads_back, 0, sizeof jdk_recordings / sizeof *jdk_recordings);
	tcase_add_test(tc, frame_kinds_and_truncation_come_back);
	tcase_add_test(tc, settings_and_recording_are_metadata);
	tcase_add_test(tc, names_without_a_class_come_back_whole);
	tcase_add_test(tc, a_huge_count_is_one_event);
	tcase_add_loop_test(tc, jfr_to_jfr_keeps_every_event, 0, sizeof jdk_recordings / sizeof *jdk_recordings);
	tcase_add_test(tc, fixed_size_chunks_are_kept_too);
	tcase_add_test(tc, thread_states_are_labels);
	tcase_add_test(tc, old_objects_are_a_heap_dump);
	tcase_add_test(tc, old_objects_of_a_synthetic_recording);
	tcase_add_test(tc, old_objects_without_their_stacks);
	tcase_add_test(tc, old_objects_written_as_hprof);
	tcase_add_test(tc, other_events_0_keeps_none);
	tcase_add_test(tc, kept_events_stay_out_of_other_formats);
	tcase_add_test(tc, convert_matches_read_then_write);
	tcase_add_loop_test(tc, wanted_events_read_where_they_were_noted, 0, 5 * 5);
	tcase_add_test(tc, a_sample_without_a_stack_is_on_no_frames);
	tcase_add_test(tc, kept_records_that_do_not_parse_are_refused);
	suite_add_tcase(s, tc);
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_set_timeout(tc, 120);
		tcase_add_loop_test(tc, corpus_recordings, 0, sizeof corpus / sizeof corpus[0]);
		suite_add_tcase(s, tc);
	}
	return s;
}
