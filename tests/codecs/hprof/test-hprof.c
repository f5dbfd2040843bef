/* SPDX-License-Identifier: Apache-2.0 */
/* The HPROF codec: JDK fixtures, synthetic fixtures from two writers, repairs, errors and options. */
#include "test-hprof-common.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const jdk_fixtures[] = {
	"hprof/jdk17-minimal.hprof",     "hprof/jdk17-types.hprof",        "hprof/jdk17-threads.hprof",
	"hprof/jdk17-loaders.hprof",     "hprof/jdk17-minimal.hprof.gz",   "hprof/jdk17-types.hprof.gz",
	"hprof/jdk17-threads.hprof.gz",  "hprof/jdk17-loaders.hprof.gz",   "hprof/jdk17-types-nocoops.hprof.gz",
};
#define NJDK (sizeof jdk_fixtures / sizeof jdk_fixtures[0])

static const char *const synthetic[] = {
	"hprof/synthetic/agent-1.0.1-id4.hprof",
	"hprof/synthetic/android-1.0.3-tiny-segments.hprof",
	"hprof/synthetic/multi-dump-1.0.2-id8.hprof",
};
#define NSYN (sizeof synthetic / sizeof synthetic[0])

static size_t count(const profdata_profile *p, profdata_table t) { return profdata_profile_count(p, t); }

static profdata_profile *read_mem(const void *buf, size_t len, int mode, char *msg, size_t msg_len)
{
	return test_read_memory(buf, len, "hprof", mode, msg, msg_len);
}

/* Read a buffer and keep the reader, for its warnings and error. */
static profdata_profile *read_keep(const void *buf, size_t len, int mode, profdata_reader **r, int *code)
{
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	ck_assert_int_eq(profdata_reader_open_memory(r, buf, len, "<test>"), 0);
	o.format = "hprof";
	o.mode = mode;
	*code = profdata_read(&p, *r, &o);
	return p;
}

/* ---- a little HPROF writer for hand-made inputs ---- */

typedef struct hb {
	unsigned char *p;
	size_t len, cap;
} hb;

static void put(hb *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		ck_assert_ptr_nonnull(b->p);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}
static void u1(hb *b, unsigned v) { unsigned char c = (unsigned char)v; put(b, &c, 1); }
static void u4(hb *b, uint32_t v)
{
	unsigned char c[4] = { (unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
		               (unsigned char)v };
	put(b, c, 4);
}
static void id8(hb *b, uint64_t v) { u4(b, (uint32_t)(v >> 32)); u4(b, (uint32_t)v); }
static void header(hb *b, const char *version, uint32_t ids)
{
	put(b, version, strlen(version) + 1);
	u4(b, ids);
	u4(b, 0);
	u4(b, 1000);
}
static void rec(hb *b, unsigned tag, uint32_t len)
{
	u1(b, tag);
	u4(b, 0);
	u4(b, len);
}

/* ---- synthetic fixtures from the independent Python writer ---- */

static const struct {
	const char *key;
	profdata_table table;
} count_keys[] = {
	{ "strings", PROFDATA_TABLE_STRINGS },       { "classes", PROFDATA_TABLE_CLASSES },
	{ "objects", PROFDATA_TABLE_OBJECTS },       { "roots", PROFDATA_TABLE_ROOTS },
	{ "dumps", PROFDATA_TABLE_DUMPS },           { "heap_infos", PROFDATA_TABLE_HEAP_INFOS },
	{ "threads", PROFDATA_TABLE_THREADS },       { "functions", PROFDATA_TABLE_FUNCTIONS },
	{ "frames", PROFDATA_TABLE_FRAMES },         { "stacks", PROFDATA_TABLE_STACKS },
	{ "sample_types", PROFDATA_TABLE_SAMPLE_TYPES }, { "sample_groups", PROFDATA_TABLE_SAMPLE_GROUPS },
	{ "samples", PROFDATA_TABLE_SAMPLES },       { "alloc_sites", PROFDATA_TABLE_ALLOC_SITES },
	{ "heap_summaries", PROFDATA_TABLE_HEAP_SUMMARIES }, { "control_settings", PROFDATA_TABLE_CONTROL_SETTINGS },
	{ "unknown", PROFDATA_TABLE_UNKNOWN },       { "unloads", PROFDATA_TABLE_UNLOADS },
};

START_TEST(synthetic_fixtures_have_the_expected_counts)
{
	char path[4096], line[512], file[256], key[64];
	long value;
	int checked = 0;
	FILE *f = fopen(test_data_path(path, sizeof path, "hprof/synthetic/expected-counts.txt"), "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f)) {
		char rel[512];
		profdata_profile *p;
		size_t k;
		if (line[0] == '#' || sscanf(line, "%255s %63s %ld", file, key, &value) != 3)
			continue;
		snprintf(rel, sizeof rel, "hprof/synthetic/%s", file);
		p = test_read(test_data_path(path, sizeof path, rel), "hprof", PROFDATA_MODE_STRICT);
		for (k = 0; k < sizeof count_keys / sizeof count_keys[0]; k++)
			if (strcmp(count_keys[k].key, key) == 0) {
				ck_assert_msg(count(p, count_keys[k].table) == (size_t)value, "%s: %s: %zu, expected %ld",
				              file, key, count(p, count_keys[k].table), value);
				checked++;
			}
		profdata_profile_free(p);
	}
	fclose(f);
	ck_assert_int_ge(checked, 30);
}
END_TEST

START_TEST(synthetic_round_trips)
{
	char path[4096];
	hprof_round_trips(test_data_path(path, sizeof path, synthetic[_i]));
}
END_TEST

/* The independent writer and the library's encoder agree byte for byte. */
START_TEST(encoder_rewrites_the_python_agent_file_identically)
{
	char path[4096];
	size_t len, out_len;
	unsigned char *orig = test_slurp(test_data_path(path, sizeof path, synthetic[0]), &len);
	profdata_reader *r;
	profdata_writer *w;
	profdata_read_options ro = PROFDATA_READ_OPTIONS_INIT;
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	const void *out;

	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ro.mode = PROFDATA_MODE_STRICT;
	wo.format = "hprof";
	wo.options = "version=source";
	ck_assert_int_eq(profdata_convert(r, &ro, w, &wo), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	ck_assert_int_eq(profdata_writer_memory(w, &out, &out_len), 0);
	ck_assert_uint_eq(out_len, len);
	ck_assert(memcmp(out, orig, len) == 0);
	profdata_writer_free(w);
	profdata_reader_free(r);
	free(orig);
}
END_TEST

START_TEST(agent_records_read_as_written)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, synthetic[0]), "hprof", PROFDATA_MODE_STRICT);
	profdata_sample_type st;
	profdata_sample_group g;
	profdata_sample s;
	profdata_frame fr;
	profdata_control_settings cs;
	profdata_alloc_sites as;
	profdata_class_unload cu;
	size_t first, n, i;
	int lines[5];

	ck_assert_str_eq(profdata_profile_meta(p)->version, "JAVA PROFILE 1.0.1");
	ck_assert_uint_eq(profdata_profile_meta(p)->id_size, 4);
	ck_assert_uint_eq(profdata_profile_meta(p)->timestamp_ms, 1700000000123ULL);
	/* CPU SAMPLES come with the sample type ("samples", "count"). */
	ck_assert_int_eq(profdata_profile_sample_type(p, 0, &st), 0);
	ck_assert_str_eq(profdata_profile_string(p, st.type_id, NULL), "samples");
	ck_assert_str_eq(profdata_profile_string(p, st.unit_id, NULL), "count");
	ck_assert_int_eq(profdata_profile_sample_group(p, 0, &g, &first, &n), 0);
	ck_assert_uint_eq(g.total, 12);
	ck_assert_uint_eq(g.time_us, 100);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(profdata_profile_sample(p, first, &s), 0);
	ck_assert_uint_eq(s.stack_serial, 2);
	ck_assert_int_eq(s.values[0], 10);
	/* Frame lines keep HPROF's special values. */
	for (i = 0; i < 5; i++) {
		size_t k;
		ck_assert_int_eq(profdata_profile_find_frame(p, 0x500 + i, &k), 0);
		ck_assert_int_eq(profdata_profile_frame(p, k, &fr), 0);
		ck_assert_uint_eq(fr.function_id, 0x500 + i);
		lines[i] = fr.line;
	}
	ck_assert_int_eq(lines[0], 17);
	ck_assert_int_eq(lines[1], PROFDATA_LINE_UNKNOWN);
	ck_assert_int_eq(lines[2], PROFDATA_LINE_COMPILED);
	ck_assert_int_eq(lines[3], PROFDATA_LINE_NATIVE);
	ck_assert_int_eq(lines[4], PROFDATA_LINE_NONE);
	ck_assert_int_eq(profdata_profile_control_settings(p, 0, &cs), 0);
	ck_assert_uint_eq(cs.flags, 3);
	ck_assert_uint_eq(cs.stack_depth, 4);
	ck_assert_int_eq(profdata_profile_alloc_sites(p, 0, &as), 0);
	ck_assert_uint_eq(as.nsites, 2);
	ck_assert_uint_eq(as.sites[1].array_type, PROFDATA_TYPE_INT);
	ck_assert_uint_eq(as.total_alloc_bytes, 5000);
	ck_assert_int_eq(profdata_profile_unload(p, 0, &cu), 0);
	ck_assert_uint_eq(cu.serial, 4);
	profdata_profile_free(p);
}
END_TEST

START_TEST(android_records_read_as_written)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, synthetic[1]), "hprof", PROFDATA_MODE_STRICT);
	profdata_object o;
	profdata_heap_info h;
	profdata_dump d;
	size_t i, k, nodata = 0;
	int kinds[256] = { 0 };

	ck_assert_int_eq(profdata_profile_dump(p, 0, &d), 0);
	ck_assert_int_eq(d.kind, PROFDATA_DUMP_SEGMENTED);
	for (i = 0; i < count(p, PROFDATA_TABLE_ROOTS); i++) {
		profdata_root r;
		uint32_t dump;
		ck_assert_int_eq(profdata_profile_root(p, i, &r, &dump), 0);
		kinds[r.kind]++;
	}
	for (k = 0x89; k <= 0x8E; k++)
		ck_assert_int_eq(kinds[k], 1);
	ck_assert_int_eq(kinds[0x90], 1);
	ck_assert_int_eq(profdata_profile_heap_info(p, 1, &h), 0);
	ck_assert_uint_eq(h.heap_id, 'Z');
	for (i = 0; i < count(p, PROFDATA_TABLE_OBJECTS); i++) {
		ck_assert_int_eq(profdata_profile_object(p, i, &o), 0);
		if (o.flags & PROFDATA_OBJECT_NODATA) {
			nodata++;
			ck_assert_uint_eq(o.kind, PROFDATA_OBJECT_PRIM_ARRAY);
			ck_assert_uint_eq(o.data_len, 0);
		}
	}
	ck_assert_uint_eq(nodata, 2);
	ck_assert_int_eq(profdata_profile_find_object(p, 0x7028, &k), 0);
	ck_assert_int_eq(profdata_profile_object(p, k, &o), 0);
	ck_assert_uint_eq(o.length, 1000);
	ck_assert_uint_eq(o.elem_type, PROFDATA_TYPE_INT);
	profdata_profile_free(p);
}
END_TEST

/* ---- JDK fixtures ---- */

START_TEST(jdk_round_trips)
{
	char path[4096];
	hprof_round_trips(test_data_path(path, sizeof path, jdk_fixtures[_i]));
}
END_TEST

START_TEST(jdk_objects_match_visualvm)
{
	char path[4096], histo[4096], rel[512];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, jdk_fixtures[_i]), "hprof",
	                                PROFDATA_MODE_STRICT);
	snprintf(rel, sizeof rel, "hprof/visualvm/%s.histo.tsv", strrchr(jdk_fixtures[_i], '/') + 1);
	ck_assert_int_eq((long)count(p, PROFDATA_TABLE_OBJECTS),
	                 hprof_visualvm_instances(test_data_path(histo, sizeof histo, rel)));
	profdata_profile_free(p);
}
END_TEST

/* A child process writes the file into a pipe; the reader sees only a stream. */
static profdata_profile *read_through_pipe(const char *path)
{
	int fds[2];
	pid_t pid;
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	int status, e;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		size_t len, off = 0;
		unsigned char *b = test_slurp(path, &len);
		close(fds[0]);
		while (b && off < len) {
			ssize_t k = write(fds[1], b + off, len - off < 65536 ? len - off : 65536);
			if (k <= 0)
				_exit(1);
			off += (size_t)k;
		}
		_exit(b ? 0 : 1);
	}
	close(fds[1]);
	ck_assert_int_eq(profdata_reader_open_fd(&r, fds[0], "<pipe>"), 0);
	o.mode = PROFDATA_MODE_STRICT;
	e = profdata_read(&p, r, &o);
	ck_assert_msg(e == 0, "%s through a pipe: %s", path,
	              profdata_reader_error(r) ? profdata_reader_error(r)->message : "");
	ck_assert_int_eq(profdata_reader_is_gzip(r), strstr(path, ".gz") != NULL);
	profdata_reader_free(r);
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return p;
}

START_TEST(gzip_from_path_and_pipe)
{
	static const char *const gz[] = { "hprof/jdk17-minimal.hprof.gz", "hprof/jdk17-threads.hprof.gz",
		                          "hprof/jdk17-types-nocoops.hprof.gz" };
	char path[4096], why[512];
	size_t i;
	for (i = 0; i < sizeof gz / sizeof gz[0]; i++) {
		profdata_profile *a = test_read(test_data_path(path, sizeof path, gz[i]), NULL, PROFDATA_MODE_STRICT);
		profdata_profile *b = read_through_pipe(path);
		ck_assert_msg(profdata_profile_equal(a, b, why, sizeof why), "%s: path vs pipe: %s", gz[i], why);
		ck_assert_str_eq(profdata_profile_meta(a)->format, "hprof");
		ck_assert_uint_gt(count(a, PROFDATA_TABLE_OBJECTS), 8000);
		profdata_profile_free(a);
		profdata_profile_free(b);
	}
	/* A plain file through a pipe reads the same as mapped. */
	{
		profdata_profile *a = test_read(test_data_path(path, sizeof path, "hprof/jdk17-types.hprof"), NULL,
		                                PROFDATA_MODE_STRICT);
		profdata_profile *b = read_through_pipe(path);
		ck_assert_msg(profdata_profile_equal(a, b, why, sizeof why), "plain path vs pipe: %s", why);
		profdata_profile_free(a);
		profdata_profile_free(b);
	}
}
END_TEST

/* ---- truncation ---- */

/* Read through callbacks that hand out a few bytes at a time: no blob, only windows. */
static profdata_profile *read_stream(const unsigned char *buf, size_t len, int mode, profdata_reader **r, int *code)
{
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	test_chunks *c = malloc(sizeof *c);
	*c = (test_chunks){ buf, len, 0, 3, 1 };
	ck_assert_int_eq(profdata_reader_open_callbacks(r, test_chunk_read, c, "<chunks>"), 0);
	o.format = "hprof";
	o.mode = mode;
	*code = profdata_read(&p, *r, &o);
	free(c);
	return p;
}

/*
 * Offsets where a prefix is itself a complete file: record boundaries
 * outside a run of HEAP DUMP SEGMENTs. clean[k] is 1 for those.
 */
static unsigned char *clean_boundaries(const unsigned char *b, size_t len)
{
	unsigned char *clean = calloc(len + 1, 1);
	size_t pos = 0;
	int open = 0;
	while (pos < len && b[pos])
		pos++;
	pos += 13;
	while (pos + 9 <= len) {
		unsigned tag = b[pos];
		uint32_t l = ((uint32_t)b[pos + 5] << 24) | ((uint32_t)b[pos + 6] << 16) | ((uint32_t)b[pos + 7] << 8) |
		             b[pos + 8];
		if (!open)
			clean[pos] = 1;
		if (tag == 0x1C)
			open = 1;
		if (tag == 0x2C)
			open = 0;
		pos += 9 + (size_t)l;
	}
	if (pos == len && !open)
		clean[pos] = 1;
	return clean;
}

START_TEST(truncation_at_every_offset)
{
	char path[4096], why[512];
	size_t len, k, header_len;
	unsigned char *b = test_slurp(test_data_path(path, sizeof path, synthetic[_i]), &len);
	unsigned char *clean = clean_boundaries(b, len);
	header_len = strlen((const char *)b) + 13;

	for (k = 0; k < len; k++) {
		unsigned char *cut = malloc(k ? k : 1);
		profdata_reader *r, *rs;
		profdata_profile *p, *ps;
		int code, code_s;
		memcpy(cut, b, k);

		/* Strict: an error with an offset inside the prefix, unless the prefix is a whole file. */
		p = read_keep(cut, k, PROFDATA_MODE_STRICT, &r, &code);
		if (clean[k]) {
			ck_assert_msg(code == 0, "%s: strict, cut at record boundary %zu: %s", synthetic[_i], k,
			              profdata_reader_error(r) ? profdata_reader_error(r)->message : "");
		} else {
			const profdata_error *e = profdata_reader_error(r);
			ck_assert_msg(code < 0 && p == NULL, "%s: strict accepted a cut at %zu", synthetic[_i], k);
			ck_assert_ptr_nonnull(e);
			ck_assert_msg(e->offset <= k, "%s: cut at %zu: error offset %llu", synthetic[_i], k,
			              (unsigned long long)e->offset);
			ck_assert_msg(strstr(e->message, "offset") != NULL, "%s: cut at %zu: %s", synthetic[_i], k,
			              e->message);
		}
		profdata_profile_free(p);
		profdata_reader_free(r);

		/* Permissive: a model of what was complete, and a warning when something was cut. */
		p = read_keep(cut, k, PROFDATA_MODE_PERMISSIVE, &r, &code);
		if (k < header_len) {
			ck_assert_int_lt(code, 0);
		} else {
			ck_assert_msg(code == 0 && p, "%s: permissive failed on a cut at %zu: %s", synthetic[_i], k,
			              profdata_reader_error(r) ? profdata_reader_error(r)->message : "");
			if (!clean[k])
				ck_assert_msg(profdata_reader_warning_count(r) > 0, "%s: cut at %zu: no warning",
				              synthetic[_i], k);
			/* A stream (no mapping, tiny windows) gives the same model. */
			ps = read_stream(cut, k, PROFDATA_MODE_PERMISSIVE, &rs, &code_s);
			ck_assert_int_eq(code_s, 0);
			ck_assert_msg(profdata_profile_equal(p, ps, why, sizeof why), "%s: cut at %zu: stream differs: %s",
			              synthetic[_i], k, why);
			profdata_profile_free(ps);
			profdata_reader_free(rs);
		}
		profdata_profile_free(p);
		profdata_reader_free(r);
		free(cut);
	}
	free(clean);
	free(b);
}
END_TEST

START_TEST(truncated_jdk_dump_keeps_what_was_complete)
{
	char path[4096];
	size_t len, cuts[] = { 1200000, 1639301 - 9, 700001 };
	unsigned char *b = test_slurp(test_data_path(path, sizeof path, "hprof/jdk17-minimal.hprof"), &len);
	profdata_profile *full = test_read(path, "hprof", PROFDATA_MODE_STRICT);
	size_t i;
	ck_assert_ptr_nonnull(b);
	for (i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		profdata_reader *r;
		profdata_profile *p;
		int code;
		const profdata_error *e;
		ck_assert_uint_lt(cuts[i], len);
		p = read_stream(b, cuts[i], PROFDATA_MODE_STRICT, &r, &code);
		e = profdata_reader_error(r);
		ck_assert_int_lt(code, 0);
		ck_assert_ptr_null(p);
		ck_assert_msg((strstr(e->message, "truncated") || strstr(e->message, "HEAP DUMP END")) &&
		                      strstr(e->message, "offset"),
		              "%s", e->message);
		ck_assert_uint_le(e->offset, cuts[i]);
		profdata_reader_free(r);

		p = read_stream(b, cuts[i], PROFDATA_MODE_PERMISSIVE, &r, &code);
		ck_assert_int_eq(code, 0);
		ck_assert_uint_gt(profdata_reader_warning_count(r), 0);
		ck_assert_uint_le(count(p, PROFDATA_TABLE_OBJECTS), count(full, PROFDATA_TABLE_OBJECTS));
		ck_assert_uint_eq(count(p, PROFDATA_TABLE_DUMPS), cuts[i] > 1000000 ? 1 : count(p, PROFDATA_TABLE_DUMPS));
		profdata_profile_free(p);
		profdata_reader_free(r);
	}
	profdata_profile_free(full);
	free(b);
}
END_TEST

/* ---- fixtures written by the library's encoder ---- */

/* The model compares event structs by their bytes, padding included. */
#define ZERO(x) memset(&(x), 0, sizeof(x))

#define BIG_ARRAY (3u << 20)
#define N_INSTANCES 40000

/*
 * What the JDK no longer writes, made through events: 4-byte ids, 1.0.3,
 * the agent's records, Android sub-records, a sub-record larger than a
 * segment, many objects, three dumps (segmented, HEAP DUMP, empty) and
 * unknown records.
 */
static profdata_profile *build_synthetic(unsigned char **big)
{
	profdata_profile *p;
	profdata_events ev;
	profdata_meta m;
	static const char *const strs[] = { "java/lang/Object", "Main", "[B", "main", "()V", "Main.java", "x",
		                            "main-thread", "group", "samples", "count" };
	size_t i;
	uint64_t frames[2] = { 0x500, 0x501 };
	int64_t v;

	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	memset(&m, 0, sizeof m);
	m.format = "hprof";
	m.version = "JAVA PROFILE 1.0.3";
	m.id_size = 4;
	m.timestamp_ms = 1234567890123ULL;
	ck_assert_int_eq(ev.begin(p, &m), 0);
	for (i = 0; i < 9; i++)
		ck_assert_int_eq(ev.string(p, i + 1, strs[i], strlen(strs[i])), 0);
	{
		profdata_control_settings c;
		ZERO(c);
		c.time_us = 5, c.flags = 2, c.stack_depth = 16;
		ck_assert_int_eq(ev.control_settings(p, &c), 0);
	}
	{
		profdata_class_load c;
		ZERO(c);
		c.time_us = 10, c.serial = 1, c.id = 0x100, c.name_id = 1;
		ck_assert_int_eq(ev.class_load(p, &c), 0);
		c.serial = 2, c.id = 0x101, c.name_id = 2;
		ck_assert_int_eq(ev.class_load(p, &c), 0);
		c.serial = 3, c.id = 0x102, c.name_id = 3;
		ck_assert_int_eq(ev.class_load(p, &c), 0);
	}
	for (i = 0; i < 2; i++) {
		profdata_function f;
		profdata_frame fr;
		ZERO(f);
		ZERO(fr);
		f.id = frames[i], f.name_id = 4, f.signature_id = 5, f.source_file_id = 6, f.class_serial = 2;
		fr.id = fr.function_id = frames[i], fr.line = i ? PROFDATA_LINE_NATIVE : 12;
		ck_assert_int_eq(ev.function(p, &f), 0);
		ck_assert_int_eq(ev.frame(p, &fr), 0);
	}
	{
		profdata_stack s;
		ZERO(s);
		s.serial = 7, s.thread_serial = 1, s.frame_ids = frames, s.nframes = 2;
		ck_assert_int_eq(ev.stack(p, &s), 0);
	}
	{
		profdata_thread_start t;
		profdata_thread_end te;
		/* Event structs are compared by their bytes: zero the padding too. */
		memset(&t, 0, sizeof t);
		memset(&te, 0, sizeof te);
		t.time_us = 20, t.serial = 1, t.object_id = 0x300, t.trace_serial = 7, t.name_id = 8, t.group_name_id = 9;
		te.time_us = 30, te.serial = 1;
		ck_assert_int_eq(ev.thread_start(p, &t), 0);
		ck_assert_int_eq(ev.thread_end(p, &te), 0);
	}
	{
		/* The strings the decoder makes up for CPU SAMPLES, with its ids. */
		profdata_sample_type st;
		ZERO(st);
		st.type_id = UINT64_C(0xFFFFFFFFFFFFFF01), st.unit_id = UINT64_C(0xFFFFFFFFFFFFFF02);
		profdata_sample_group g;
		profdata_sample s;
		ZERO(g);
		ZERO(s);
		g.time_us = 40, g.total = 9;
		s.stack_serial = 7, s.values = &v, s.nvalues = 1;
		ck_assert_int_eq(ev.string(p, st.type_id, "samples", 7), 0);
		ck_assert_int_eq(ev.string(p, st.unit_id, "count", 5), 0);
		ck_assert_int_eq(ev.sample_type(p, &st), 0);
		ck_assert_int_eq(ev.sample_group(p, &g), 0);
		v = 9;
		ck_assert_int_eq(ev.sample(p, &s), 0);
	}
	{
		profdata_alloc_site site;
		profdata_alloc_sites a;
		profdata_heap_summary h;
		profdata_class_unload u;
		ZERO(site);
		ZERO(a);
		ZERO(h);
		ZERO(u);
		site.array_type = 8, site.class_serial = 3, site.trace_serial = 7, site.live_bytes = 100;
		site.live_instances = 1, site.alloc_bytes = 200, site.alloc_instances = 2;
		a.time_us = 50, a.flags = 1, a.cutoff_bits = 0x3dcccccd, a.total_live_bytes = 100;
		a.total_live_instances = 1, a.total_alloc_bytes = 200, a.total_alloc_instances = 2;
		a.sites = &site, a.nsites = 1;
		h.time_us = 60, h.live_bytes = 100, h.live_instances = 1, h.alloc_bytes = 200, h.alloc_instances = 2;
		u.time_us = 70, u.serial = 3;
		ck_assert_int_eq(ev.alloc_sites(p, &a), 0);
		ck_assert_int_eq(ev.heap_summary(p, &h), 0);
		ck_assert_int_eq(ev.class_unload(p, &u), 0);
	}
	{
		profdata_unknown u;
		ZERO(u);
		u.tag = 0x42, u.time_us = 80, u.data = "abc", u.len = 3;
		ck_assert_int_eq(ev.unknown(p, &u), 0);
	}

	/* Dump 1: segmented, Android records, many objects, one giant array. */
	{
		profdata_dump d;
		profdata_field fld, st;
		profdata_constant cp;
		profdata_class_dump c0, c1;
		profdata_heap_info hi;
		ZERO(d);
		ZERO(fld);
		ZERO(st);
		ZERO(cp);
		ZERO(hi);
		d.time_us = 100, d.kind = PROFDATA_DUMP_SEGMENTED;
		fld.name_id = 7, fld.type = PROFDATA_TYPE_OBJECT;
		st.name_id = 7, st.type = PROFDATA_TYPE_LONG, st.value = 0x1122334455667788ULL;
		cp.index = 3, cp.type = PROFDATA_TYPE_SHORT, cp.value = 0x7FFF;
		hi.heap_id = 'A', hi.name_id = 4;
		unsigned char payload[4];
		ck_assert_int_eq(ev.dump_begin(p, &d), 0);
		memset(&c0, 0, sizeof c0);
		c0.id = 0x100;
		ck_assert_int_eq(ev.class_dump(p, &c0), 0);
		memset(&c1, 0, sizeof c1);
		c1.id = 0x101;
		c1.super_id = 0x100;
		c1.instance_size = 4;
		c1.constants = &cp;
		c1.nconstants = 1;
		c1.statics = &st;
		c1.nstatics = 1;
		c1.fields = &fld;
		c1.nfields = 1;
		ck_assert_int_eq(ev.class_dump(p, &c1), 0);
		c0.id = 0x102;
		c0.super_id = 0x100;
		ck_assert_int_eq(ev.class_dump(p, &c0), 0);
		ck_assert_int_eq(ev.heap_info(p, &hi), 0);
		for (i = 0; i < 0x91; i++) {
			profdata_root r;
			ZERO(r);
			r.kind = (uint8_t)(i < 9 ? (i ? i : 0xFF) : 0x89 + (i - 9) % 6);
			r.object_id = 0x1000, r.thread_serial = 1, r.frame = 2;
			if (i >= 15 && i != 0x90)
				continue;
			if (i == 0x90)
				r.kind = 0x90;
			if (r.kind == 0x01)
				r.extra_id = 0x77, r.thread_serial = 0, r.frame = 0;
			if (r.kind == 0x04 || r.kind == 0x06)
				r.frame = 0;
			if (r.kind == 0xFF || r.kind == 0x05 || r.kind == 0x07 || (r.kind >= 0x89 && r.kind <= 0x8D) ||
			    r.kind == 0x90)
				r.thread_serial = 0, r.frame = 0;
			ck_assert_int_eq(ev.root(p, &r), 0);
		}
		for (i = 0; i < N_INSTANCES; i++) {
			profdata_object o;
			memset(&o, 0, sizeof o);
			o.id = 0x1000 + i;
			o.class_id = 0x101;
			o.kind = PROFDATA_OBJECT_INSTANCE;
			payload[0] = 0, payload[1] = 0, payload[2] = (unsigned char)(i >> 8), payload[3] = (unsigned char)i;
			o.data = payload;
			o.data_len = o.length = 4;
			ck_assert_int_eq(ev.object(p, &o), 0);
		}
		*big = malloc(BIG_ARRAY);
		for (i = 0; i < BIG_ARRAY; i++)
			(*big)[i] = (unsigned char)(i * 31 + (i >> 12));
		{
			profdata_object o;
			memset(&o, 0, sizeof o);
			o.id = 0x100000;
			o.kind = PROFDATA_OBJECT_PRIM_ARRAY;
			o.elem_type = PROFDATA_TYPE_BYTE;
			o.data = *big;
			o.data_len = o.length = BIG_ARRAY;
			ck_assert_int_eq(ev.object(p, &o), 0);
			o.id = 0x100001;
			o.elem_type = PROFDATA_TYPE_INT;
			o.flags = PROFDATA_OBJECT_NODATA;
			o.data = NULL;
			o.data_len = 0;
			o.length = 12345;
			ck_assert_int_eq(ev.object(p, &o), 0);
		}
		ck_assert_int_eq(ev.dump_end(p), 0);
	}
	/* Dump 2: one HEAP DUMP record. Dump 3: empty. */
	{
		profdata_dump d;
		profdata_root r;
		ZERO(d);
		ZERO(r);
		d.time_us = 200, d.kind = PROFDATA_DUMP_HEAP;
		r.kind = PROFDATA_ROOT_STICKY_CLASS, r.object_id = 0x101;
		uint32_t elems[2] = { 0x01100000, 0 };
		profdata_object o;
		ck_assert_int_eq(ev.dump_begin(p, &d), 0);
		ck_assert_int_eq(ev.root(p, &r), 0);
		memset(&o, 0, sizeof o);
		o.id = 0x200000;
		o.class_id = 0x102;
		o.kind = PROFDATA_OBJECT_ARRAY;
		o.elem_type = PROFDATA_TYPE_OBJECT;
		o.length = 2;
		o.data = elems;
		o.data_len = 8;
		ck_assert_int_eq(ev.object(p, &o), 0);
		ck_assert_int_eq(ev.dump_end(p), 0);
		d.time_us = 300;
		d.kind = PROFDATA_DUMP_SEGMENTED;
		ck_assert_int_eq(ev.dump_begin(p, &d), 0);
		ck_assert_int_eq(ev.dump_end(p), 0);
	}
	ck_assert_int_eq(ev.end(p), 0);
	return p;
}

START_TEST(encoder_written_fixture_reads_back)
{
	unsigned char *big, *b1, *b2;
	size_t l1, l2, pos, segments = 0, big_segments = 0;
	profdata_profile *p = build_synthetic(&big), *q, *s;
	profdata_reader *r;
	char why[512];
	int code;

	b1 = test_write(p, "hprof", "version=source", &l1);
	ck_assert_int_eq(memcmp(b1, "JAVA PROFILE 1.0.3", 19), 0);
	/* HotSpot's segmenting: none passes 1 MiB unless it holds one sub-record. */
	pos = 19 + 12;
	while (pos + 9 <= l1) {
		uint32_t len = ((uint32_t)b1[pos + 5] << 24) | ((uint32_t)b1[pos + 6] << 16) | ((uint32_t)b1[pos + 7] << 8) |
		               b1[pos + 8];
		if (b1[pos] == 0x1C) {
			segments++;
			if (len > (1u << 20)) {
				big_segments++;
				ck_assert_uint_eq(b1[pos + 9], 0x23);
				ck_assert_uint_eq(len, 1 + 4 + 4 + 4 + 1 + BIG_ARRAY);
			}
		}
		pos += 9 + (size_t)len;
	}
	ck_assert_uint_eq(pos, l1);
	ck_assert_uint_ge(segments, 3);
	ck_assert_uint_eq(big_segments, 1);

	q = read_mem(b1, l1, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(q != NULL, "%s", why);
	ck_assert_msg(profdata_profile_equal(p, q, why, sizeof why), "%s", why);
	ck_assert_uint_eq(count(q, PROFDATA_TABLE_DUMPS), 3);
	ck_assert_uint_eq(count(q, PROFDATA_TABLE_OBJECTS), N_INSTANCES + 3);

	/* Through a stream of tiny windows: the 3 MiB sub-record is read incrementally. */
	s = read_stream(b1, l1, PROFDATA_MODE_STRICT, &r, &code);
	ck_assert_msg(code == 0, "%s", profdata_reader_error(r) ? profdata_reader_error(r)->message : "");
	ck_assert_msg(profdata_profile_equal(p, s, why, sizeof why), "%s", why);
	profdata_reader_free(r);
	profdata_profile_free(s);

	b2 = test_write(q, "hprof", "version=source", &l2);
	ck_assert(l1 == l2 && memcmp(b1, b2, l1) == 0);
	free(b2);
	profdata_profile_free(q);
	free(b1);
	profdata_profile_free(p);
	free(big);
}
END_TEST

/* ---- options ---- */

START_TEST(strip_primitive_arrays_writes_them_empty)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "hprof/jdk17-types.hprof"), "hprof",
	                                PROFDATA_MODE_STRICT), *q;
	size_t l, l_full, i, arrays = 0;
	unsigned char *b = test_write(p, "hprof", NULL, &l_full);
	profdata_object o;
	free(b);
	b = test_write(p, "hprof", "strip_primitive_arrays=1", &l);
	q = read_mem(b, l, PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(count(q, PROFDATA_TABLE_OBJECTS), count(p, PROFDATA_TABLE_OBJECTS));
	for (i = 0; i < count(q, PROFDATA_TABLE_OBJECTS); i++) {
		ck_assert_int_eq(profdata_profile_object(q, i, &o), 0);
		if (o.kind == PROFDATA_OBJECT_PRIM_ARRAY) {
			arrays++;
			ck_assert_uint_eq(o.length, 0);
		}
	}
	ck_assert_uint_gt(arrays, 1000);
	ck_assert_uint_lt(l + 100000, l_full); /* the fixture has a 100,000-element byte[] */
	profdata_profile_free(q);
	profdata_profile_free(p);
	free(b);
}
END_TEST

START_TEST(android_to_hotspot_does_what_hprof_conv_does)
{
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, synthetic[1]), "hprof", PROFDATA_MODE_STRICT), *q;
	size_t l, i;
	unsigned char *b = test_write(p, "hprof", "android_to_hotspot=1", &l);
	profdata_object o;
	profdata_root r;
	uint32_t dump;

	ck_assert_int_eq(memcmp(b, "JAVA PROFILE 1.0.2", 19), 0);
	q = read_mem(b, l, PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(count(q, PROFDATA_TABLE_HEAP_INFOS), 0);
	ck_assert_uint_eq(count(q, PROFDATA_TABLE_ROOTS), count(p, PROFDATA_TABLE_ROOTS));
	for (i = 0; i < count(q, PROFDATA_TABLE_ROOTS); i++) {
		ck_assert_int_eq(profdata_profile_root(q, i, &r, &dump), 0);
		ck_assert(r.kind <= 0x08 || r.kind == 0xFF);
	}
	for (i = 0; i < count(q, PROFDATA_TABLE_OBJECTS); i++) {
		ck_assert_int_eq(profdata_profile_object(q, i, &o), 0);
		ck_assert_uint_eq(o.flags & PROFDATA_OBJECT_NODATA, 0);
		if (o.id == 0x7028)
			ck_assert_uint_eq(o.length, 0);
	}
	profdata_profile_free(q);
	profdata_profile_free(p);
	free(b);
}
END_TEST

START_TEST(bad_options_are_refused)
{
	static const char *const bad[] = { "version=1.0.4", "id_size=6", "strip_primitive_arrays=maybe", "colour=blue" };
	char path[4096];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, synthetic[0]), "hprof", PROFDATA_MODE_STRICT);
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		profdata_writer *w;
		profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
		ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
		o.format = "hprof";
		o.options = bad[i];
		ck_assert_msg(profdata_write(p, w, &o) == PROFDATA_EINVAL, "%s was accepted", bad[i]);
		ck_assert_ptr_nonnull(profdata_writer_error(w));
		profdata_writer_free(w);
	}
	profdata_profile_free(p);
}
END_TEST

/* ---- input errors and repairs ---- */

START_TEST(identifier_size_must_be_4_or_8)
{
	hb b = { 0 };
	char msg[512];
	header(&b, "JAVA PROFILE 1.0.2", 5);
	ck_assert_ptr_null(read_mem(b.p, b.len, PROFDATA_MODE_PERMISSIVE, msg, sizeof msg));
	ck_assert_msg(strstr(msg, "identifier size 5") && strstr(msg, "offset 19"), "%s", msg);
	free(b.p);
}
END_TEST

START_TEST(unknown_version_is_strict_error_permissive_warning)
{
	hb b = { 0 };
	profdata_reader *r;
	int code;
	profdata_profile *p;
	header(&b, "JAVA PROFILE 1.0.9", 8);
	p = read_keep(b.p, b.len, PROFDATA_MODE_STRICT, &r, &code);
	ck_assert_int_eq(code, PROFDATA_EUNSUPPORTED);
	ck_assert_ptr_null(p);
	profdata_reader_free(r);
	p = read_keep(b.p, b.len, PROFDATA_MODE_PERMISSIVE, &r, &code);
	ck_assert_int_eq(code, 0);
	ck_assert_uint_eq(profdata_reader_warning_count(r), 1);
	ck_assert_str_eq(profdata_profile_meta(p)->version, "JAVA PROFILE 1.0.9");
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(b.p);
}
END_TEST

START_TEST(unknown_subrecord_strict_error_permissive_kept)
{
	hb b = { 0 };
	profdata_reader *r;
	int code;
	profdata_profile *p, *q;
	unsigned char *w;
	size_t l;
	char why[512];
	header(&b, "JAVA PROFILE 1.0.2", 8);
	rec(&b, 0x1C, 1 + 8 + 6);
	u1(&b, 0xFF);
	id8(&b, 0x42);
	u1(&b, 0x77); /* no such sub-record */
	put(&b, "hello", 5);
	rec(&b, 0x1C, 9);
	u1(&b, 0x05);
	id8(&b, 0x43);
	rec(&b, 0x2C, 0);

	p = read_keep(b.p, b.len, PROFDATA_MODE_STRICT, &r, &code);
	ck_assert_int_eq(code, PROFDATA_EFORMAT);
	ck_assert_uint_eq(profdata_reader_error(r)->offset, 31 + 9 + 9);
	ck_assert_msg(strstr(profdata_reader_error(r)->message, "0x77"), "%s", profdata_reader_error(r)->message);
	profdata_reader_free(r);

	p = read_keep(b.p, b.len, PROFDATA_MODE_PERMISSIVE, &r, &code);
	ck_assert_int_eq(code, 0);
	ck_assert_uint_eq(profdata_reader_warning_count(r), 1);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_ROOTS), 2);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_UNKNOWN), 1);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_DUMPS), 1);
	/* The kept bytes are written back where a reader skips only them. */
	w = test_write(p, "hprof", "version=source", &l);
	q = read_mem(w, l, PROFDATA_MODE_PERMISSIVE, NULL, 0);
	ck_assert_msg(profdata_profile_equal(p, q, why, sizeof why), "%s", why);
	profdata_profile_free(q);
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(w);
	free(b.p);
}
END_TEST

START_TEST(zero_length_segment_reads_to_the_end_when_permissive)
{
	hb b = { 0 };
	profdata_reader *r;
	int code;
	profdata_profile *p;
	header(&b, "JAVA PROFILE 1.0.2", 8);
	rec(&b, 0x1C, 0); /* a JVM killed before it patched the length */
	u1(&b, 0x21);
	id8(&b, 0x100);
	u4(&b, 0);
	id8(&b, 0x200);
	u4(&b, 0);
	u1(&b, 0xFF);
	id8(&b, 0x100);

	p = read_keep(b.p, b.len, PROFDATA_MODE_PERMISSIVE, &r, &code);
	ck_assert_int_eq(code, 0);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_OBJECTS), 1);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_ROOTS), 1);
	ck_assert_uint_ge(profdata_reader_warning_count(r), 1);
	profdata_profile_free(p);
	profdata_reader_free(r);

	p = read_keep(b.p, b.len, PROFDATA_MODE_STRICT, &r, &code);
	ck_assert_int_lt(code, 0);
	profdata_reader_free(r);
	free(b.p);

	/* An empty segment followed by a HEAP DUMP END is just empty. */
	memset(&b, 0, sizeof b);
	header(&b, "JAVA PROFILE 1.0.2", 8);
	rec(&b, 0x1C, 0);
	rec(&b, 0x2C, 0);
	p = read_keep(b.p, b.len, PROFDATA_MODE_PERMISSIVE, &r, &code);
	ck_assert_int_eq(code, 0);
	ck_assert_uint_eq(profdata_reader_warning_count(r), 0);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_DUMPS), 1);
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(b.p);
}
END_TEST

START_TEST(lying_counts_allocate_nothing)
{
	static const unsigned tags[] = { 0x05, 0x06, 0x0D };
	size_t i;
	for (i = 0; i < 3; i++) {
		hb b = { 0 };
		profdata_reader *r;
		int code;
		profdata_profile *p;
		header(&b, "JAVA PROFILE 1.0.1", 4);
		rec(&b, tags[i], 40);
		u4(&b, 1);
		u4(&b, 0xFFFFFFFF);
		u4(&b, 0xFFFFFFFF);
		u4(&b, 0xFFFFFFFF);
		u4(&b, 0xFFFFFFFF);
		u4(&b, 0xFFFFFFFF);
		u4(&b, 0xFFFFFFFF);
		u4(&b, 0xFFFFFFFF);
		u4(&b, 0xFFFFFFFF);
		u4(&b, 0xFFFFFFFF);
		p = read_keep(b.p, b.len, PROFDATA_MODE_STRICT, &r, &code);
		ck_assert_int_eq(code, PROFDATA_EFORMAT);
		ck_assert_msg(strstr(profdata_reader_error(r)->message, "does not match"), "%s",
		              profdata_reader_error(r)->message);
		profdata_reader_free(r);
		p = read_keep(b.p, b.len, PROFDATA_MODE_PERMISSIVE, &r, &code);
		ck_assert_int_eq(code, 0);
		ck_assert_uint_eq(profdata_reader_warning_count(r), 1);
		profdata_profile_free(p);
		profdata_reader_free(r);
		free(b.p);
	}
}
END_TEST

START_TEST(subrecord_past_its_segment)
{
	hb b = { 0 };
	profdata_reader *r;
	int code;
	profdata_profile *p;
	header(&b, "JAVA PROFILE 1.0.2", 8);
	rec(&b, 0x1C, 9 + 5);
	u1(&b, 0xFF);
	id8(&b, 0x100);
	u1(&b, 0x23); /* a primitive array cut by its segment's end */
	u4(&b, 0);
	rec(&b, 0x1C, 9);
	u1(&b, 0xFF);
	id8(&b, 0x101);
	rec(&b, 0x2C, 0);
	p = read_keep(b.p, b.len, PROFDATA_MODE_STRICT, &r, &code);
	ck_assert_int_eq(code, PROFDATA_EFORMAT);
	ck_assert_msg(strstr(profdata_reader_error(r)->message, "runs past the end"), "%s",
	              profdata_reader_error(r)->message);
	profdata_reader_free(r);
	p = read_keep(b.p, b.len, PROFDATA_MODE_PERMISSIVE, &r, &code);
	ck_assert_int_eq(code, 0);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_ROOTS), 2);
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(b.p);
}
END_TEST

START_TEST(reserved_string_ids)
{
	hb b = { 0 };
	profdata_reader *r;
	int code;
	profdata_profile *p;
	header(&b, "JAVA PROFILE 1.0.2", 8);
	rec(&b, 0x01, 8 + 3);
	id8(&b, UINT64_C(0xFFFFFFFFFFFFFF01));
	put(&b, "abc", 3);
	p = read_keep(b.p, b.len, PROFDATA_MODE_STRICT, &r, &code);
	ck_assert_int_eq(code, PROFDATA_EUNSUPPORTED);
	profdata_reader_free(r);
	p = read_keep(b.p, b.len, PROFDATA_MODE_PERMISSIVE, &r, &code);
	ck_assert_int_eq(code, 0);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_STRINGS), 0);
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(b.p);
}
END_TEST

/*
 * Write `b` at the start and `tail` at `tail_at` of a sparse temporary file
 * of `size` bytes; NULL when the file system cannot hold it.
 */
static char *sparse_file(const hb *b, uint64_t size, const hb *tail, uint64_t tail_at)
{
	static char name[64];
	int fd;
	snprintf(name, sizeof name, "/tmp/pd-hprof-big-XXXXXX");
	fd = mkstemp(name);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)size) != 0 || pwrite(fd, b->p, b->len, 0) != (ssize_t)b->len ||
	    (tail && pwrite(fd, tail->p, tail->len, (off_t)tail_at) != (ssize_t)tail->len)) {
		close(fd);
		unlink(name);
		return NULL;
	}
	close(fd);
	return name;
}

static void u2(hb *b, unsigned v)
{
	u1(b, (v >> 8) & 0xff);
	u1(b, v & 0xff);
}

/* A dump of more than 64 MiB: instances with two references (some null), a big object array, a primitive gap. */
static uint64_t write_big_ref_dump(hb *b)
{
	const uint32_t ninst = 1600000, nbig = 300000;
	const uint64_t node = 0x100, first = 0x1000;
	uint64_t expect = 0;
	header(b, "JAVA PROFILE 1.0.2", 8);
	rec(b, 0x01, 8 + 4);
	id8(b, 1);
	put(b, "Node", 4);
	rec(b, 0x02, 4 + 8 + 4 + 8);
	u4(b, 1);
	id8(b, node);
	u4(b, 0);
	id8(b, 1);
	size_t seg = b->len;
	rec(b, 0x1C, 0);
	u1(b, 0x20);
	id8(b, node);
	u4(b, 0);
	for (int k = 0; k < 6; k++)
		id8(b, 0); /* super, loader, signers, domain, reserved x2 */
	u4(b, 16);
	u2(b, 0);
	u2(b, 0);
	u2(b, 2);
	id8(b, 1), u1(b, PROFDATA_TYPE_OBJECT);
	id8(b, 1), u1(b, PROFDATA_TYPE_OBJECT);
	for (uint32_t i = 0; i < ninst; i++) {
		u1(b, 0x21);
		id8(b, first + 16 * (uint64_t)i);
		u4(b, 0);
		id8(b, node);
		u4(b, 16);
		id8(b, i % 3 ? first + 16 * (uint64_t)((i + 1) % ninst) : 0);
		id8(b, i % 5 ? 0 : first);
		expect += (i % 3 != 0) + (i % 5 == 0);
	}
	u1(b, 0x23); /* 5 MB of bytes: a gap the count skips */
	id8(b, 0x10);
	u4(b, 0);
	u4(b, 5u << 20);
	u1(b, PROFDATA_TYPE_BYTE);
	for (uint32_t i = 0; i < (5u << 20) / 4; i++)
		u4(b, 0);
	u1(b, 0x22); /* wider than the window's headroom */
	id8(b, 0x20);
	u4(b, 0);
	u4(b, nbig);
	id8(b, node);
	for (uint32_t i = 0; i < nbig; i++)
		id8(b, i % 2 ? first : 0);
	expect += nbig / 2;
	uint32_t seglen = (uint32_t)(b->len - seg - 9);
	b->p[seg + 5] = (unsigned char)(seglen >> 24), b->p[seg + 6] = (unsigned char)(seglen >> 16);
	b->p[seg + 7] = (unsigned char)(seglen >> 8), b->p[seg + 8] = (unsigned char)seglen;
	rec(b, 0x2C, 0);
	return expect;
}

START_TEST(reference_count_of_a_big_file_reads_it_through_a_window)
{
	hb b = { 0 };
	uint64_t expect = write_big_ref_dump(&b);
	ck_assert_uint_gt(b.len, (size_t)64 << 20);
	char *name = sparse_file(&b, b.len, NULL, 0);
	free(b.p);
	ck_assert_ptr_nonnull(name);
	profdata_reader *r;
	profdata_profile *p = NULL;
	ck_assert_int_eq(profdata_reader_open_path(&r, name), 0);
	ck_assert_int_eq(profdata_read(&p, r, NULL), 0);
	uint64_t one_by_one = 0;
	for (size_t i = 0; i < count(p, PROFDATA_TABLE_OBJECTS); i++)
		one_by_one += (uint64_t)profdata_profile_object_refs(p, i, 0, NULL, 0);
	ck_assert_uint_eq(one_by_one, expect);
	ck_assert_uint_eq(profdata_profile_reference_count(p), expect);
	profdata_profile_free(p);
	profdata_reader_free(r);
	unlink(name);
}
END_TEST

START_TEST(inputs_beyond_4_gib)
{
	hb b = { 0 }, t = { 0 };
	uint64_t n = ((uint64_t)1 << 29) + 1, body = 14 + 8 * n, size;
	char *name;
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	profdata_object obj;
	int e;

	/* Its own Meson test, skipped (77) where sizes are 32 bits or /tmp holds no sparse file. */
	ck_assert_uint_ge(sizeof(size_t), 8);
	/* A 1.0.1 HEAP DUMP of 4 GiB + 14 bytes: its u4 length says 14. */
	header(&b, "JAVA PROFILE 1.0.1", 4);
	rec(&b, 0x0C, (uint32_t)body);
	u1(&b, 0x23);
	u4(&b, 0x1234);
	u4(&b, 0);
	u4(&b, (uint32_t)n);
	u1(&b, PROFDATA_TYPE_LONG);
	size = 31 + 9 + body;
	name = sparse_file(&b, size, NULL, 0);
	free(b.p);
	ck_assert_ptr_nonnull(name);
	ck_assert_int_eq(profdata_reader_open_path(&r, name), 0);
	o.mode = PROFDATA_MODE_STRICT;
	e = profdata_read(&p, r, &o);
	ck_assert_int_eq(e, PROFDATA_EFORMAT);
	ck_assert_msg(strstr(profdata_reader_error(r)->message, "overflowed"), "%s", profdata_reader_error(r)->message);
	profdata_reader_free(r);
	ck_assert_int_eq(profdata_reader_open_path(&r, name), 0);
	o.mode = PROFDATA_MODE_PERMISSIVE;
	e = profdata_read(&p, r, &o);
	ck_assert_msg(e == 0, "%s", profdata_reader_error(r) ? profdata_reader_error(r)->message : "");
	ck_assert_uint_eq(profdata_reader_warning_count(r), 1);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_OBJECTS), 1);
	ck_assert_int_eq(profdata_profile_object(p, 0, &obj), 0);
	ck_assert_uint_eq(obj.length, n);
	ck_assert_uint_eq(obj.data_len, n * 8);
	profdata_profile_free(p);
	profdata_reader_free(r);
	unlink(name);

	/* 1.0.2: two segments of 2.5 GiB arrays, then records past 5 GiB. */
	memset(&b, 0, sizeof b);
	header(&b, "JAVA PROFILE 1.0.2", 8);
	n = (uint64_t)5 << 29; /* bytes of each byte[] */
	rec(&b, 0x1C, (uint32_t)(1 + 8 + 4 + 4 + 1 + n));
	u1(&b, 0x23);
	id8(&b, 0x10);
	u4(&b, 0);
	u4(&b, (uint32_t)n);
	u1(&b, PROFDATA_TYPE_BYTE);
	{
		uint64_t second = b.len + n;
		hb mid = { 0 };
		rec(&mid, 0x1C, (uint32_t)(1 + 8 + 4 + 4 + 1 + n));
		u1(&mid, 0x23);
		id8(&mid, 0x11);
		u4(&mid, 0);
		u4(&mid, (uint32_t)n);
		u1(&mid, PROFDATA_TYPE_BYTE);
		t.len = 0;
		put(&t, mid.p, mid.len);
		free(mid.p);
		size = second + t.len + n;
		/* the tail: after the second array, a STRING and the END */
		{
			hb end = { 0 };
			rec(&end, 0x01, 8 + 2);
			id8(&end, 0x99);
			put(&end, "hi", 2);
			rec(&end, 0x2C, 0);
			name = sparse_file(&b, size + end.len, &t, second);
			if (name) {
				int fd = open(name, O_WRONLY);
				ck_assert_int_ge(fd, 0);
				ck_assert_int_eq(pwrite(fd, end.p, end.len, (off_t)size), (ssize_t)end.len);
				close(fd);
			}
			free(end.p);
		}
	}
	free(b.p);
	free(t.p);
	ck_assert_ptr_nonnull(name);
	ck_assert_int_eq(profdata_reader_open_path(&r, name), 0);
	o.mode = PROFDATA_MODE_STRICT;
	e = profdata_read(&p, r, &o);
	ck_assert_msg(e == 0, "%s", profdata_reader_error(r) ? profdata_reader_error(r)->message : "");
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_OBJECTS), 2);
	ck_assert_uint_eq(count(p, PROFDATA_TABLE_DUMPS), 1);
	ck_assert_str_eq(profdata_profile_string(p, 0x99, NULL), "hi");
	profdata_profile_free(p);
	profdata_reader_free(r);
	unlink(name);
}
END_TEST

START_TEST(sniffing_bids)
{
	const profdata_format *f = profdata_format_find("hprof");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_eq(profdata_format_sniff("JAVA PROFILE 1.0.2\0\0\0\0\x08", 24), f);
	ck_assert_ptr_eq(profdata_format_sniff("JAVA PROFILE 1.0.3\0\0\0\0\x04", 24), f);
	ck_assert_ptr_null(profdata_format_sniff("JAVA PROFILER", 13));
}
END_TEST

/* ---- events from other formats ---- */

START_TEST(foreign_events_still_give_valid_hprof)
{
	profdata_profile *p, *q;
	profdata_events ev;
	profdata_meta m;
	profdata_writer *w;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	const void *data;
	size_t len;
	uint64_t refs[3] = { 0x20, 0, 0x30 };

	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	memset(&m, 0, sizeof m);
	m.format = "ibm-classic";
	m.word_size = 8;
	ck_assert_int_eq(ev.begin(p, &m), 0);
	ck_assert_int_eq(ev.string(p, 1, "java/lang/Object", 16), 0);
	{
		profdata_class_load c = { 0, 0, 0x10, 0, 1 };
		profdata_function f = { 0x900, 1, 0, 0, 0, 0, 0 };
		profdata_frame fr = { 0x901, 0x900, 0, 0x400123, 1, 0 };
		profdata_frame native = { 0x902, 0, 0, 0x400456, 1, 0 };
		profdata_mapping mp;
		memset(&mp, 0, sizeof mp);
		ck_assert_int_eq(ev.class_load(p, &c), 0);
		ck_assert_int_eq(ev.function(p, &f), 0);
		ck_assert_int_eq(ev.frame(p, &fr), 0);
		ck_assert_int_eq(ev.frame(p, &native), 0);
		ck_assert_int_eq(ev.mapping(p, &mp), 0);
	}
	{
		profdata_dump d = { 0, PROFDATA_DUMP_HEAP };
		profdata_class_dump c;
		profdata_object ob;
		ck_assert_int_eq(ev.dump_begin(p, &d), 0);
		memset(&c, 0, sizeof c);
		c.id = 0x10;
		c.size = 40;
		c.refs = refs;
		c.nrefs = 1;
		ck_assert_int_eq(ev.class_dump(p, &c), 0);
		memset(&ob, 0, sizeof ob);
		ob.id = 0x20;
		ob.class_id = 0x10;
		ob.size = 24;
		ob.refs = refs;
		ob.nrefs = 3;
		ck_assert_int_eq(ev.object(p, &ob), 0);
		ob.id = 0x30;
		ob.kind = PROFDATA_OBJECT_ARRAY;
		ob.length = 3;
		ck_assert_int_eq(ev.object(p, &ob), 0);
		ob.id = 0x40;
		ob.kind = PROFDATA_OBJECT_PRIM_ARRAY;
		ob.elem_type = PROFDATA_TYPE_CHAR;
		ob.length = 5;
		ob.refs = NULL;
		ob.nrefs = 0;
		ck_assert_int_eq(ev.object(p, &ob), 0);
		ck_assert_int_eq(ev.dump_end(p), 0);
	}
	ck_assert_int_eq(ev.end(p), 0);

	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	o.format = "hprof";
	ck_assert_int_eq(profdata_write(p, w, &o), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	ck_assert_uint_ge(profdata_writer_warning_count(w), 3);
	ck_assert_int_eq(profdata_writer_memory(w, &data, &len), 0);
	q = read_mem(data, len, PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(profdata_profile_meta(q)->id_size, 8);
	ck_assert_uint_eq(count(q, PROFDATA_TABLE_OBJECTS), 3);
	ck_assert_uint_eq(count(q, PROFDATA_TABLE_FRAMES), 2);
	{
		/* The object array keeps its references as elements. */
		uint64_t out[4];
		size_t k;
		ck_assert_int_eq(profdata_profile_find_object(q, 0x30, &k), 0);
		ck_assert_int_eq(profdata_profile_object_refs(q, k, 1, out, 4), 3);
		ck_assert_uint_eq(out[0], 0x20);
		ck_assert_uint_eq(out[2], 0x30);
	}
	profdata_profile_free(q);
	profdata_writer_free(w);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("hprof");
	TCase *tc = tcase_create("hprof");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, synthetic_fixtures_have_the_expected_counts);
	tcase_add_test(tc, reference_count_of_a_big_file_reads_it_through_a_window);
	tcase_add_loop_test(tc, synthetic_round_trips, 0, NSYN);
	tcase_add_test(tc, encoder_rewrites_the_python_agent_file_identically);
	tcase_add_test(tc, agent_records_read_as_written);
	tcase_add_test(tc, android_records_read_as_written);
	tcase_add_loop_test(tc, jdk_round_trips, 0, NJDK);
	tcase_add_loop_test(tc, jdk_objects_match_visualvm, 0, NJDK);
	tcase_add_test(tc, gzip_from_path_and_pipe);
	tcase_add_loop_test(tc, truncation_at_every_offset, 0, NSYN);
	tcase_add_test(tc, truncated_jdk_dump_keeps_what_was_complete);
	tcase_add_test(tc, encoder_written_fixture_reads_back);
	tcase_add_test(tc, strip_primitive_arrays_writes_them_empty);
	tcase_add_test(tc, android_to_hotspot_does_what_hprof_conv_does);
	tcase_add_test(tc, bad_options_are_refused);
	tcase_add_test(tc, identifier_size_must_be_4_or_8);
	tcase_add_test(tc, unknown_version_is_strict_error_permissive_warning);
	tcase_add_test(tc, unknown_subrecord_strict_error_permissive_kept);
	tcase_add_test(tc, zero_length_segment_reads_to_the_end_when_permissive);
	tcase_add_test(tc, lying_counts_allocate_nothing);
	tcase_add_test(tc, subrecord_past_its_segment);
	tcase_add_test(tc, reserved_string_ids);
	tcase_add_test(tc, sniffing_bids);
	tcase_add_test(tc, foreign_events_still_give_valid_hprof);
	suite_add_tcase(s, tc);
	/* Cases with needs run as their own Meson tests, which skip (77) when the need is missing. */
	if (test_case_requested("beyond-4gib")) {
		tc = tcase_create("beyond-4gib");
		tcase_set_timeout(tc, 300);
		tcase_add_test(tc, inputs_beyond_4_gib);
		suite_add_tcase(s, tc);
	}
	if (test_case_requested("corpus"))
		suite_add_tcase(s, hprof_corpus_case());
	return s;
}
