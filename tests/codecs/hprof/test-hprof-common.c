/* SPDX-License-Identifier: Apache-2.0 */
/* Round trips shared by the HPROF suites. */
#include "test-hprof-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A replay filter that rewrites the version text, identifier size and dump
 * kinds on the way into a builder. Test-only state: Check runs each test on
 * its own, one at a time.
 */
static struct {
	profdata_events builder;
	const char *version;
	unsigned id_size;
	int kind;
} norm;

static int norm_begin(void *payload, const profdata_meta *m)
{
	profdata_meta copy = *m;
	copy.version = norm.version;
	if (norm.id_size)
		copy.id_size = norm.id_size;
	return norm.builder.begin(payload, &copy);
}

static int norm_dump_begin(void *payload, const profdata_dump *d)
{
	profdata_dump copy = *d;
	if (norm.kind >= 0)
		copy.kind = norm.kind;
	return norm.builder.dump_begin(payload, &copy);
}

profdata_profile *hprof_normalized(const profdata_profile *p, const char *version, unsigned id_size, int kind)
{
	profdata_profile *q;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&q), 0);
	norm.builder = *profdata_profile_builder_events();
	norm.version = version;
	norm.id_size = id_size;
	norm.kind = kind;
	ev = norm.builder;
	ev.begin = norm_begin;
	ev.dump_begin = norm_dump_begin;
	ck_assert_int_eq(profdata_profile_replay(p, &ev, q), 0);
	return q;
}

long hprof_visualvm_instances(const char *histo_path)
{
	FILE *f = fopen(histo_path, "r");
	char line[4096];
	long total = 0;
	ck_assert_msg(f != NULL, "cannot open %s", histo_path);
	while (fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t');
		if (tab)
			total += strtol(tab + 1, NULL, 10);
	}
	fclose(f);
	return total;
}

static void assert_equal(const profdata_profile *a, const profdata_profile *b, const char *what, const char *path)
{
	char why[512] = "";
	ck_assert_msg(profdata_profile_equal(a, b, why, sizeof why), "%s: %s: %s", path, what, why);
}

static profdata_profile *reread(const unsigned char *buf, size_t len, const char *what, const char *path)
{
	char msg[512] = "";
	profdata_profile *p = test_read_memory(buf, len, "hprof", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s: %s: reading back failed: %s", path, what, msg);
	return p;
}

/* Write p with options; NULL with *code set when the writer refused. */
static unsigned char *try_write(const profdata_profile *p, const char *options, size_t *len, int *code,
                                char *msg, size_t msg_len)
{
	profdata_writer *w;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	const void *data;
	unsigned char *copy = NULL;

	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	o.format = "hprof";
	o.options = options;
	*code = profdata_write(p, w, &o);
	if (*code == 0)
		*code = profdata_writer_close(w);
	if (*code == 0) {
		ck_assert_int_eq(profdata_writer_memory(w, &data, len), 0);
		copy = malloc(*len ? *len : 1);
		memcpy(copy, data, *len);
	} else if (msg) {
		snprintf(msg, msg_len, "%s", profdata_writer_error(w) ? profdata_writer_error(w)->message : "");
	}
	profdata_writer_free(w);
	return copy;
}

/* Decode `path` straight into the encoder (no model), into memory. */
static unsigned char *convert_streaming(const char *path, const char *options, size_t *len)
{
	profdata_reader *r;
	profdata_writer *w;
	profdata_read_options ro = PROFDATA_READ_OPTIONS_INIT;
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	const void *data;
	unsigned char *copy;
	int e;

	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ro.mode = PROFDATA_MODE_STRICT;
	wo.format = "hprof";
	wo.options = options;
	e = profdata_convert(r, &ro, w, &wo);
	ck_assert_msg(e == 0, "%s: convert: %s / %s", path,
	              profdata_reader_error(r) ? profdata_reader_error(r)->message : "",
	              profdata_writer_error(w) ? profdata_writer_error(w)->message : "");
	ck_assert_int_eq(profdata_writer_close(w), 0);
	ck_assert_int_eq(profdata_writer_memory(w, &data, len), 0);
	copy = malloc(*len ? *len : 1);
	memcpy(copy, data, *len);
	profdata_writer_free(w);
	profdata_reader_free(r);
	return copy;
}

void hprof_round_trips(const char *path)
{
	profdata_profile *p = test_read(path, "hprof", PROFDATA_MODE_STRICT), *q, *n;
	const profdata_meta *m = profdata_profile_meta(p);
	unsigned char *b1, *b2;
	size_t l1, l2;
	int code;
	char msg[512];

	/* Keeping the version: equal model, and writing what was written gives the same bytes. */
	b1 = test_write(p, "hprof", "version=source", &l1);
	q = reread(b1, l1, "version=source", path);
	assert_equal(p, q, "version=source", path);
	b2 = test_write(q, "hprof", "version=source", &l2);
	ck_assert_msg(l1 == l2 && memcmp(b1, b2, l1) == 0, "%s: writing twice gave different bytes", path);
	profdata_profile_free(q);
	free(b2);

	/* Streaming conversion (no model in between) reads back equal too. */
	b2 = convert_streaming(path, "version=source", &l2);
	q = reread(b2, l2, "streaming convert", path);
	assert_equal(p, q, "streaming convert", path);
	profdata_profile_free(q);
	free(b2);
	free(b1);

	/* The default, 1.0.2 with segments. */
	b1 = test_write(p, "hprof", NULL, &l1);
	ck_assert_int_eq(memcmp(b1, "JAVA PROFILE 1.0.2", 19), 0);
	q = reread(b1, l1, "default", path);
	n = hprof_normalized(p, "JAVA PROFILE 1.0.2", 0, PROFDATA_DUMP_SEGMENTED);
	assert_equal(n, q, "default 1.0.2", path);
	profdata_profile_free(q);
	profdata_profile_free(n);
	free(b1);

	/* 1.0.1, one HEAP DUMP record per dump. */
	b1 = test_write(p, "hprof", "version=1.0.1", &l1);
	ck_assert_int_eq(memcmp(b1, "JAVA PROFILE 1.0.1", 19), 0);
	q = reread(b1, l1, "version=1.0.1", path);
	n = hprof_normalized(p, "JAVA PROFILE 1.0.1", 0, PROFDATA_DUMP_HEAP);
	assert_equal(n, q, "1.0.1", path);
	profdata_profile_free(q);
	profdata_profile_free(n);
	free(b1);

	/* Identifier sizes: 4 -> 8 -> 4 gives back the model; 8 -> 4 when every id fits. */
	if (m->id_size == 4) {
		b1 = test_write(p, "hprof", "version=source,id_size=8", &l1);
		q = reread(b1, l1, "id_size=8", path);
		ck_assert_uint_eq(profdata_profile_meta(q)->id_size, 8);
		b2 = test_write(q, "hprof", "version=source,id_size=4", &l2);
		profdata_profile_free(q);
		q = reread(b2, l2, "id_size=8 then 4", path);
		assert_equal(p, q, "id_size 4 -> 8 -> 4", path);
		profdata_profile_free(q);
		free(b1);
		free(b2);
	} else {
		b1 = try_write(p, "version=source,id_size=4", &l1, &code, msg, sizeof msg);
		if (b1) {
			q = reread(b1, l1, "id_size=4", path);
			ck_assert_uint_eq(profdata_profile_meta(q)->id_size, 4);
			b2 = test_write(q, "hprof", "version=source,id_size=8", &l2);
			profdata_profile_free(q);
			q = reread(b2, l2, "id_size=4 then 8", path);
			assert_equal(p, q, "id_size 8 -> 4 -> 8", path);
			profdata_profile_free(q);
			free(b1);
			free(b2);
		} else {
			ck_assert_msg(code == PROFDATA_ERANGE, "%s: id_size=4 failed with %d: %s", path, code, msg);
			ck_assert_msg(strstr(msg, "identifier 0x") != NULL, "%s: the error does not name the id: %s",
			              path, msg);
		}
	}
	profdata_profile_free(p);
}
