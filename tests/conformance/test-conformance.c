/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Conformance, driven by the format registry: for every codec that both reads
 * and writes, and every fixture under tests/data/<its folder>/ that sniffs as
 * that codec (gzip looked through by the library), read -> write -> read gives
 * an equal model, writing that model again gives the same bytes, and the
 * model does not depend on whether the input was mapped or streamed. A new
 * codec that reads and writes is checked here once it has fixtures; it must
 * have some.
 */
#include "support.h"
#include "internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * What a codec needs to round-trip, where its name alone does not say it.
 * Everything not listed: fixtures in tests/data/<name>/, no write options,
 * and the same model whether the input is mapped or streamed.
 */
static const struct {
	const char *format, *folder, *write_options;
	int stream_differs;
	const char *const *refused; /* fixtures broken on purpose, refused even permissively: nothing to round-trip */
	int first_write_loses;      /* the writer keeps less than the reader reads: stable from the first rewrite on */
} quirks[] = {
	/*
	 * From a mapped input the decoder reads the CLS records at the end first,
	 * so objects carry their class's address; from a stream it cannot, and
	 * numbers class names and ids as it meets them (doc/formats-classic.md).
	 * The heap graph is the same (tests/test-classic.c checks that).
	 */
	{ "ibm-classic", "classic", NULL, 1, NULL, 0 },
	/*
	 * The HPROF encoder writes 1.0.2 by default, which changes the version text
	 * and the dump kind of a 1.0.1 or 1.0.3 file: the model read back differs by
	 * design. version=source writes each file in its own version.
	 */
	{ "hprof", "hprof", "version=source", 0, NULL, 0 },
	/*
	 * tests/data/jfr/synthetic holds recordings the reader must refuse at
	 * their byte (test-jfr.c). The writer writes the samples, not the other
	 * events a recording holds (doc/formats-jfr.md, "Writing"), whose counts
	 * the reader keeps: from the first rewrite on, nothing more is lost.
	 * test-jfr.c checks that the first write keeps stacks, times and threads.
	 */
	{ "jfr", "jfr", NULL, 0,
	  (const char *const[]){ "event-past-chunk.jfr", "event-shorter-than-size.jfr", "huge-array.jfr",
	                        "metadata-size-zero.jfr", "type-cycle.jfr", "unknown-type.jfr", NULL },
	  1 },
};

static int quirk_of(const profdata_format *f)
{
	for (size_t i = 0; i < sizeof quirks / sizeof quirks[0]; i++)
		if (strcmp(quirks[i].format, profdata_format_name(f)) == 0)
			return (int)i;
	return -1;
}

static const char *folder_of(const profdata_format *f)
{
	int q = quirk_of(f);
	return q >= 0 ? quirks[q].folder : profdata_format_name(f);
}

static const char *write_options_of(const profdata_format *f)
{
	int q = quirk_of(f);
	return q >= 0 ? quirks[q].write_options : NULL;
}

static int refused_on_purpose(const profdata_format *f, const char *name)
{
	int q = quirk_of(f);
	for (const char *const *r = q >= 0 ? quirks[q].refused : NULL; r && *r; r++)
		if (strcmp(*r, name) == 0)
			return 1;
	return 0;
}

static int first_write_loses(const profdata_format *f)
{
	int q = quirk_of(f);
	return q >= 0 && quirks[q].first_write_loses;
}

static int stream_differs(const profdata_format *f)
{
	int q = quirk_of(f);
	return q >= 0 && quirks[q].stream_differs;
}

typedef struct fixture {
	const profdata_format *format;
	char path[1024];
} fixture;

typedef struct fixture_list {
	fixture *items;
	size_t n, cap;
} fixture_list;

/* Whether the first bytes of `path`, decompressed by the reader when gzip, sniff as `f`. */
static int sniffs_as(const char *path, const profdata_format *f)
{
	profdata_reader *r;
	const unsigned char *head;
	if (profdata_reader_open_path(&r, path) != 0) {
		profdata_reader_free(r);
		return 0;
	}
	int64_t n = pd_in_peek(r, 4096, &head);
	int yes = n > 0 && profdata_format_sniff(head, (size_t)(n < 4096 ? n : 4096)) == f;
	profdata_reader_free(r);
	return yes;
}

/* Every file under `dir` (depth first, in name order) that sniffs as `f`. */
static void collect(fixture_list *list, const profdata_format *f, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return; /* no such folder: the fixtures test says so */
	for (int i = 0; i < n; i++) {
		char path[1024];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] == '.' || stat(path, &st) != 0 || refused_on_purpose(f, names[i]->d_name)) {
			free(names[i]);
			continue;
		}
		/* An empty file (gperftools/killed.prof) is no format's and has nothing to round-trip. */
		if (S_ISDIR(st.st_mode)) {
			collect(list, f, path);
		} else if (S_ISREG(st.st_mode) && st.st_size > 0 && sniffs_as(path, f)) {
			if (list->n == list->cap) {
				list->cap = list->cap ? list->cap * 2 : 16;
				/* No ck_assert here: suite_main() counts the fixtures outside any test. */
				list->items = realloc(list->items, list->cap * sizeof *list->items);
				if (!list->items)
					abort();
			}
			list->items[list->n].format = f;
			snprintf(list->items[list->n].path, sizeof list->items[list->n].path, "%s", path);
			list->n++;
		}
		free(names[i]);
	}
	free(names);
}

/* The fixtures of every codec that reads and writes, in registry order; the same on every call. */
static fixture_list all_fixtures(void)
{
	fixture_list list = { NULL, 0, 0 };
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		if (!profdata_format_can_read(f) || !profdata_format_can_write(f))
			continue;
		char dir[1024];
		collect(&list, f, test_data_path(dir, sizeof dir, folder_of(f)));
	}
	return list;
}

START_TEST(every_reading_writing_codec_has_fixtures)
{
	fixture_list list = all_fixtures();
	size_t codecs = 0;
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		if (!profdata_format_can_read(f) || !profdata_format_can_write(f))
			continue;
		codecs++;
		size_t mine = 0;
		for (size_t k = 0; k < list.n; k++)
			mine += list.items[k].format == f;
		ck_assert_msg(mine > 0, "%s reads and writes but tests/data/%s/ holds no file that sniffs as it",
		              profdata_format_name(f), folder_of(f));
	}
	ck_assert_uint_gt(codecs, 0);
	free(list.items);
}
END_TEST

static unsigned char *write_as(const profdata_profile *p, const profdata_format *f, size_t *len)
{
	return test_write(p, profdata_format_name(f), write_options_of(f), len);
}

static profdata_profile *read_back(const unsigned char *buf, size_t len, const profdata_format *f,
                                   const char *path)
{
	char why[512] = "";
	profdata_profile *p = test_read_memory(buf, len, profdata_format_name(f), PROFDATA_MODE_STRICT, why,
	                                       sizeof why);
	ck_assert_msg(p != NULL, "%s: what %s wrote does not read back strictly: %s", path,
	              profdata_format_name(f), why);
	return p;
}

/* The whole of a fixture, decompressed by the library's reader when gzip (malloc'd). */
static unsigned char *fixture_bytes(const fixture *x, size_t *len)
{
	profdata_reader *r;
	const unsigned char *text;
	ck_assert_int_eq(profdata_reader_open_path(&r, x->path), 0);
	int64_t n = pd_in_fill(r, (size_t)1 << 30, &text);
	ck_assert_int_ge(n, 0);
	unsigned char *copy = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, (size_t)n);
	*len = (size_t)n;
	profdata_reader_free(r);
	return copy;
}

/*
 * Reads permissively from memory, as what was written is read back: the
 * same kind of source on both sides. *repaired says whether the decoder
 * reported a repair.
 */
static profdata_profile *read_fixture(const fixture *x, const unsigned char *bytes, size_t len, int *repaired)
{
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, bytes, len, x->path), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = profdata_format_name(x->format);
	o.mode = PROFDATA_MODE_PERMISSIVE;
	profdata_profile *p = NULL;
	int e = profdata_read(&p, r, &o);
	ck_assert_msg(e == 0, "%s: %s", x->path,
	              profdata_reader_error(r) ? profdata_reader_error(r)->message : profdata_strerror(e));
	*repaired = profdata_reader_warning_count(r) > 0;
	profdata_reader_free(r);
	return p;
}

START_TEST(read_write_read_is_equal)
{
	fixture_list list = all_fixtures();
	ck_assert_uint_lt((size_t)_i, list.n);
	const fixture *x = &list.items[_i];
	const profdata_format *f = x->format;
	int repaired;
	size_t len1, len2;
	char what[1200];

	size_t len;
	unsigned char *bytes = fixture_bytes(x, &len);
	/* A model read from memory may point into it: the bytes outlive it. */
	profdata_profile *p = read_fixture(x, bytes, len, &repaired);
	unsigned char *b1 = write_as(p, f, &len1);
	profdata_profile *q = read_back(b1, len1, f, x->path);
	if (repaired || first_write_loses(f)) {
		/*
		 * A damaged fixture (its read warned) is repaired on the first write:
		 * what was read and what was written differ by the repair (or by what
		 * the writer does not keep, quirks[]). From the first rewrite on, the
		 * model and the bytes are stable.
		 */
		profdata_profile_free(p);
		p = q;
		unsigned char *first = b1;
		b1 = write_as(p, f, &len1);
		q = read_back(b1, len1, f, x->path);
		free(bytes);
		bytes = first; /* p points into it */
	}
	snprintf(what, sizeof what, "%s as %s: read -> write -> read", x->path, profdata_format_name(f));
	test_assert_equal(p, q, what);
	unsigned char *b2 = write_as(q, f, &len2);
	ck_assert_msg(len1 == len2 && memcmp(b1, b2, len1) == 0,
	              "%s as %s: writing the model read back gives other bytes (%zu, then %zu)", x->path,
	              profdata_format_name(f), len1, len2);
	free(b2);
	profdata_profile_free(q);
	profdata_profile_free(p);
	free(b1);
	free(bytes);
	free(list.items);
}
END_TEST

/* The model does not depend on how the input arrives: mapped, or streamed in small reads. */
START_TEST(mapped_and_streamed_reads_agree)
{
	fixture_list list = all_fixtures();
	ck_assert_uint_lt((size_t)_i, list.n);
	const fixture *x = &list.items[_i];
	int repaired;
	size_t len;
	unsigned char *bytes = fixture_bytes(x, &len);
	profdata_profile *p = read_fixture(x, bytes, len, &repaired);
	test_chunks c = { bytes, len, 0, 4093, 1 };
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, test_chunk_read, &c, x->path), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = profdata_format_name(x->format);
	profdata_profile *q = NULL;
	int e = profdata_read(&q, r, &o);
	ck_assert_msg(e == 0, "%s streamed: %s", x->path,
	              profdata_reader_error(r) ? profdata_reader_error(r)->message : profdata_strerror(e));
	ck_assert_uint_eq(profdata_reader_warning_count(r) > 0, repaired);
	profdata_reader_free(r);
	if (stream_differs(x->format)) {
		/* What is the same however the input arrives (see quirks[]). */
		size_t t[] = { PROFDATA_TABLE_OBJECTS, PROFDATA_TABLE_DUMPS, PROFDATA_TABLE_SAMPLES,
		               PROFDATA_TABLE_STACKS, PROFDATA_TABLE_FRAMES };
		for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
			ck_assert_uint_eq(profdata_profile_count(p, (profdata_table)t[i]),
			                  profdata_profile_count(q, (profdata_table)t[i]));
	} else {
		test_assert_equal(p, q, x->path);
	}
	profdata_profile_free(q);
	profdata_profile_free(p);
	free(bytes);
	free(list.items);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("conformance");
	TCase *tc = tcase_create("conformance");
	tcase_set_timeout(tc, 300);
	fixture_list list = all_fixtures();
	tcase_add_test(tc, every_reading_writing_codec_has_fixtures);
	tcase_add_loop_test(tc, read_write_read_is_equal, 0, (int)list.n);
	tcase_add_loop_test(tc, mapped_and_streamed_reads_agree, 0, (int)list.n);
	free(list.items);
	suite_add_tcase(s, tc);
	return s;
}
