/* SPDX-License-Identifier: Apache-2.0 */
/* What the Check suites share: fixture paths, reading and writing in memory, cases with needs. */
#include "support.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int test_case_requested(const char *name)
{
	const char *only = getenv("CK_RUN_CASE");
	return only && strcmp(only, name) == 0;
}

static const char *corpus_missing(void)
{
	return test_corpus_dir() ? NULL
	                         : "no corpus folder (" PD_CORPUS_DIR "; set -Dcorpus=DIR or PROFDATA_CORPUS=DIR)";
}

static const char *no_sparse_files(void)
{
	if (sizeof(size_t) < 8)
		return "sizes are 32 bits here";
	char name[] = "/tmp/pd-sparse-probe-XXXXXX";
	int fd = mkstemp(name);
	if (fd < 0)
		return "cannot create a file in /tmp";
	/* The largest file the case makes is a little over 5 GiB. */
	const off_t size = (off_t)6 << 30;
	int ok = ftruncate(fd, size) == 0 && pwrite(fd, "x", 1, size - 1) == 1;
	close(fd);
	unlink(name);
	return ok ? NULL : "/tmp cannot hold a sparse file of 6 GiB";
}

static const char *pprof_missing(void)
{
	return profdata_format_find("pprof") ? NULL : "built without protobuf-c: no pprof reader";
}

static const char *under_valgrind(void)
{
	return getenv("PD_UNDER_VALGRIND") ? "under valgrind (PD_UNDER_VALGRIND is set), where it takes minutes" : NULL;
}

const char *test_unmet_need(const char *name)
{
	static const struct {
		const char *name;
		const char *(*unmet)(void);
	} needs[] = {
		{ "corpus", corpus_missing },
		{ "beyond-4gib", no_sparse_files },
		{ "pprof", pprof_missing },
		{ "big", under_valgrind },
	};
	for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++)
		if (strcmp(needs[i].name, name) == 0)
			return needs[i].unmet();
	return NULL;
}

const char *test_data_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/tests/data/%s", PD_SOURCE_ROOT, rel);
	return buf;
}

const char *test_corpus_dir(void)
{
	const char *dir = getenv("PROFDATA_CORPUS");
	if (!dir || !*dir)
		dir = PD_CORPUS_DIR;
	struct stat st;
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}

unsigned char *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	size_t k;
	while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			unsigned char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

profdata_profile *test_read(const char *path, const char *format, int mode)
{
	profdata_reader *r;
	int e = profdata_reader_open_path(&r, path);
	ck_assert_msg(e == 0, "open %s: %s", path, r ? profdata_reader_error(r)->message : profdata_strerror(e));
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = format;
	o.mode = mode;
	profdata_profile *p = NULL;
	e = profdata_read(&p, r, &o);
	ck_assert_msg(e == 0, "read %s: %s", path,
	              profdata_reader_error(r) ? profdata_reader_error(r)->message : profdata_strerror(e));
	profdata_reader_free(r);
	return p;
}

profdata_profile *test_read_memory(const void *buf, size_t len, const char *format, int mode, char *msg,
                                   size_t msg_len)
{
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, buf, len, "<test>"), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = format;
	o.mode = mode;
	profdata_profile *p = NULL;
	int e = profdata_read(&p, r, &o);
	if (e != 0 && msg && msg_len)
		snprintf(msg, msg_len, "%s", profdata_reader_error(r) ? profdata_reader_error(r)->message : "?");
	profdata_reader_free(r);
	return p;
}

unsigned char *test_write(const profdata_profile *p, const char *format, const char *options, size_t *len)
{
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = format;
	o.options = options;
	int e = profdata_write(p, w, &o);
	ck_assert_msg(e == 0, "write %s: %s", format,
	              profdata_writer_error(w) ? profdata_writer_error(w)->message : profdata_strerror(e));
	ck_assert_int_eq(profdata_writer_close(w), 0);
	const void *data;
	ck_assert_int_eq(profdata_writer_memory(w, &data, len), 0);
	unsigned char *copy = malloc(*len ? *len : 1);
	ck_assert_ptr_nonnull(copy);
	if (*len)
		memcpy(copy, data, *len);
	profdata_writer_free(w);
	return copy;
}

void test_assert_write_refused(const profdata_profile *p, const char *format, const char *options, int code,
                               const char *says)
{
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = format;
	o.options = options;
	ck_assert_int_eq(profdata_write(p, w, &o), code);
	ck_assert_ptr_nonnull(profdata_writer_error(w));
	ck_assert_msg(strstr(profdata_writer_error(w)->message, says) != NULL, "write %s: \"%s\" does not say \"%s\"",
	              format, profdata_writer_error(w)->message, says);
	profdata_writer_free(w);
}

char *test_folded(const profdata_profile *p, size_t *len)
{
	size_t n;
	unsigned char *b = test_write(p, "folded", NULL, &n);
	char *s = malloc(n + 1);
	ck_assert_ptr_nonnull(s);
	memcpy(s, b, n);
	s[n] = 0;
	free(b);
	if (len)
		*len = n;
	return s;
}

uint64_t test_total_count(const profdata_profile *p)
{
	uint64_t t = 0;
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_SAMPLES); i++) {
		profdata_sample s;
		ck_assert_int_eq(profdata_profile_sample(p, i, &s), 0);
		t += (uint64_t)s.values[0];
	}
	return t;
}

const char *test_class_name(const profdata_profile *p, uint64_t class_id)
{
	size_t ci;
	profdata_class_info info;
	if (!class_id || profdata_profile_find_class(p, class_id, &ci) != 0)
		return NULL;
	profdata_profile_class(p, ci, &info);
	return info.name;
}

void test_assert_equal(const profdata_profile *a, const profdata_profile *b, const char *what)
{
	char why[512] = "";
	ck_assert_msg(profdata_profile_equal(a, b, why, sizeof why), "%s%smodels differ: %s", what ? what : "",
	              what ? ": " : "", why);
}

void test_assert_text_damage(const char *text, const char *format, const char *what, uint64_t line, uint64_t offset)
{
	profdata_reader *r;
	profdata_profile *p = NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	char msg[256];
	o.format = format;
	o.mode = PROFDATA_MODE_STRICT;
	ck_assert_int_eq(profdata_reader_open_memory(&r, text, strlen(text), "t"), 0);
	ck_assert_int_eq(profdata_read(&p, r, &o), PROFDATA_EFORMAT);
	const profdata_error *e = profdata_reader_error(r);
	ck_assert_msg(strstr(e->message, what) != NULL, "%s: %s", text, e->message);
	ck_assert_uint_eq(e->line, line);
	ck_assert_uint_eq(e->offset, offset);
	profdata_profile_free(p);
	profdata_reader_free(r);
	p = test_read_memory(text, strlen(text), format, PROFDATA_MODE_PERMISSIVE, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	profdata_profile_free(p);
}

long test_chunk_read(void *payload, void *buf, size_t len)
{
	test_chunks *c = payload;
	size_t n = c->len - c->pos;
	if (n > len)
		n = len;
	if (n > c->step)
		n = c->step;
	memcpy(buf, c->bytes + c->pos, n);
	c->pos += n;
	if (c->vary)
		c->step = c->step * 5 % 97 + 1;
	return (long)n;
}

profdata_profile *test_build_cpu_profile(const test_cpu_profile *spec)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	ck_assert_int_eq(ev.begin(p, &spec->meta), 0);
	for (size_t i = 0; i < spec->nstrings; i++)
		ck_assert_int_eq(ev.string(p, spec->first_string_id + i, spec->strings[i], strlen(spec->strings[i])), 0);
	for (size_t i = 0; i < spec->nfunctions; i++)
		ck_assert_int_eq(ev.function(p, &spec->functions[i]), 0);
	for (size_t i = 0; i < spec->nframes; i++)
		ck_assert_int_eq(ev.frame(p, &spec->frames[i]), 0);
	for (size_t i = 0; i < spec->nstacks; i++)
		ck_assert_int_eq(ev.stack(p, &spec->stacks[i]), 0);
	for (size_t i = 0; i < spec->nclass_loads; i++)
		ck_assert_int_eq(ev.class_load(p, &spec->class_loads[i]), 0);
	if (spec->sample_type)
		ck_assert_int_eq(ev.sample_type(p, spec->sample_type), 0);
	if (spec->sample_group)
		ck_assert_int_eq(ev.sample_group(p, spec->sample_group), 0);
	for (size_t i = 0; i < spec->nsamples; i++)
		ck_assert_int_eq(ev.sample(p, &spec->samples[i]), 0);
	ck_assert_int_eq(ev.end(p), 0);
	return p;
}
