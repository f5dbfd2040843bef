/* SPDX-License-Identifier: Apache-2.0 */
/* The IBM classic heapdump codec: every variant fixture, strictness, rewrites, streaming, malformed input. */
#include "support.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FMT "ibm-classic"

static const char *fixture(char *buf, size_t len, const char *name)
{
	char rel[256];
	snprintf(rel, sizeof rel, "classic/%s", name);
	return test_data_path(buf, len, rel);
}

static profdata_profile *read_fixture(const char *name, int mode)
{
	char path[1024];
	return test_read(fixture(path, sizeof path, name), FMT, mode);
}

/* Read `name` and return the reader (for its diagnostics); *out gets the profile or NULL. */
static profdata_reader *read_with_reader(const char *name, int mode, profdata_profile **out, int *rc)
{
	char path[1024];
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, fixture(path, sizeof path, name)), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.mode = mode;
	*rc = profdata_read(out, r, &o);
	return r;
}

static const void *find_bytes(const void *hay, size_t n, const void *needle, size_t m)
{
	const unsigned char *h = hay;
	for (size_t i = 0; m <= n && i <= n - m; i++)
		if (memcmp(h + i, needle, m) == 0)
			return h + i;
	return NULL;
}

/*
 * The same objects (id, class name, kind, size, non-null references in order)
 * and the same dumped classes (id, name, size, references): the heap graph,
 * whatever ids the classes of the objects got.
 */
static void assert_same_graph(const profdata_profile *a, const profdata_profile *b)
{
	size_t n = profdata_profile_count(a, PROFDATA_TABLE_OBJECTS);
	ck_assert_uint_eq(n, profdata_profile_count(b, PROFDATA_TABLE_OBJECTS));
	for (size_t i = 0; i < n; i++) {
		profdata_object x, y;
		profdata_profile_object(a, i, &x);
		profdata_profile_object(b, i, &y);
		ck_assert_uint_eq(x.id, y.id);
		ck_assert_uint_eq(x.kind, y.kind);
		ck_assert_uint_eq(x.elem_type, y.elem_type);
		ck_assert_uint_eq(profdata_profile_object_size(a, i), profdata_profile_object_size(b, i));
		const char *nx = test_class_name(a, x.class_id), *ny = test_class_name(b, y.class_id);
		ck_assert_ptr_nonnull(nx);
		ck_assert_ptr_nonnull(ny);
		ck_assert_str_eq(nx, ny);
		long rx = profdata_profile_object_refs(a, i, 0, NULL, 0), ry = profdata_profile_object_refs(b, i, 0, NULL, 0);
		ck_assert_int_eq(rx, ry);
		uint64_t *ra = calloc((size_t)rx + 1, 8), *rb = calloc((size_t)ry + 1, 8);
		profdata_profile_object_refs(a, i, 0, ra, (size_t)rx);
		profdata_profile_object_refs(b, i, 0, rb, (size_t)ry);
		ck_assert(memcmp(ra, rb, (size_t)rx * 8) == 0);
		free(ra);
		free(rb);
	}
	size_t na = 0, nb = 0;
	for (size_t i = 0; i < profdata_profile_count(a, PROFDATA_TABLE_CLASSES); i++) {
		profdata_class_info c;
		profdata_profile_class(a, i, &c);
		na += c.has_dump;
	}
	for (size_t i = 0; i < profdata_profile_count(b, PROFDATA_TABLE_CLASSES); i++) {
		profdata_class_info c;
		profdata_profile_class(b, i, &c);
		nb += c.has_dump;
		if (!c.has_dump)
			continue;
		size_t ai;
		profdata_class_info d;
		ck_assert_int_eq(profdata_profile_find_class(a, c.dump.id, &ai), 0);
		profdata_profile_class(a, ai, &d);
		ck_assert(d.has_dump);
		ck_assert_str_eq(c.name, d.name);
		ck_assert_uint_eq(c.dump.size, d.dump.size);
		ck_assert_uint_eq(c.dump.nrefs, d.dump.nrefs);
		ck_assert(c.dump.nrefs == 0 || memcmp(c.dump.refs, d.dump.refs, c.dump.nrefs * 8) == 0);
	}
	ck_assert_uint_eq(na, nb);
}

/* ---- what each fixture holds ---- */

typedef struct expect {
	const char *file;
	size_t objects, dumped_classes, classes, dumps;
	uint64_t refs; /* non-null object references */
	unsigned word_size;
	const char *style; /* meta comment, or NULL */
	size_t warnings;
	int clean; /* reads in strict mode and rewrites byte-identical */
} expect;

static const expect fixtures[] = {
	{ "openj9-64.txt", 9, 4, 7, 1, 7, 8, NULL, 0, 1 },
	{ "openj9-32.txt", 9, 4, 7, 1, 7, 4, NULL, 0, 1 },
	{ "openj9-crlf.txt", 9, 4, 7, 1, 7, 8, NULL, 0, 1 },
	{ "jdmpview.txt", 9, 4, 7, 1, 7, 8, "jdmpview", 0, 1 },
	{ "classblock.txt", 5, 2, 4, 1, 3, 4, "classblock", 0, 1 },
	{ "single-line.txt", 3, 1, 4, 1, 5, 8, NULL, 0, 1 },
	{ "multi-heap.txt", 11, 4, 7, 2, 8, 8, NULL, 0, 1 },
	{ "truncated.txt", 8, 0, 6, 1, 6, 8, NULL, 2, 0 },
	{ "bad-trailer.txt", 9, 4, 7, 1, 7, 8, NULL, 1, 0 },
};
#define NFIXTURES (sizeof fixtures / sizeof fixtures[0])

static const char *comment(const profdata_meta *m, const char *key)
{
	for (size_t i = 0; i < m->ncomments; i++)
		if (strcmp(m->comments[i].key, key) == 0)
			return m->comments[i].value;
	return NULL;
}

START_TEST(fixture_contents)
{
	const expect *x = &fixtures[_i];
	int rc;
	profdata_profile *p = NULL;
	profdata_reader *r = read_with_reader(x->file, PROFDATA_MODE_PERMISSIVE, &p, &rc);
	ck_assert_msg(rc == 0, "%s: %s", x->file, profdata_reader_error(r)->message);
	ck_assert_uint_eq(profdata_reader_warning_count(r), x->warnings);
	const profdata_meta *m = profdata_profile_meta(p);
	ck_assert_str_eq(m->format, FMT);
	ck_assert_uint_eq(m->word_size, x->word_size);
	const char *style = comment(m, "style");
	if (x->style)
		ck_assert_str_eq(style, x->style);
	else
		ck_assert_ptr_null(style);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), x->objects);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_CLASSES), x->classes);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_DUMPS), x->dumps);
	ck_assert_uint_eq(profdata_profile_reference_count(p), x->refs);
	size_t dumped = 0;
	for (size_t i = 0; i < x->classes; i++) {
		profdata_class_info c;
		ck_assert_int_eq(profdata_profile_class(p, i, &c), 0);
		ck_assert(c.has_load);
		ck_assert_ptr_nonnull(c.name);
		ck_assert_uint_eq(c.load.serial, i + 1);
		dumped += c.has_dump;
	}
	ck_assert_uint_eq(dumped, x->dumped_classes);
	for (size_t i = 0; i < x->objects; i++) {
		profdata_object o;
		profdata_profile_object(p, i, &o);
		ck_assert_ptr_null(o.data);
		ck_assert_uint_ne(o.size, 0);
		ck_assert_uint_eq(o.length, 0);
		ck_assert_ptr_nonnull(test_class_name(p, o.class_id));
	}
	profdata_profile_free(p);
	profdata_reader_free(r);
}
END_TEST

/* The details of openj9-64.txt, record by record. */
START_TEST(openj9_records)
{
	profdata_profile *p = read_fixture("openj9-64.txt", PROFDATA_MODE_STRICT);
	const profdata_meta *m = profdata_profile_meta(p);
	ck_assert_str_eq(m->version, "JRE 1.8.0 Linux amd64-64-Bit Compressed References 20230418_580 (JIT enabled, AOT enabled)");
	profdata_object o;
	size_t i;
	ck_assert_int_eq(profdata_profile_find_object(p, 0xFFF00010, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.kind, PROFDATA_OBJECT_INSTANCE);
	ck_assert_uint_eq(o.size, 24);
	ck_assert_uint_eq(o.class_id, 0xA1200); /* its CLS record's address, read before the objects */
	ck_assert_str_eq(test_class_name(p, o.class_id), "java/lang/String");
	ck_assert_uint_eq(o.nrefs, 1);
	ck_assert_uint_eq(o.refs[0], 0xFFF00028);

	ck_assert_int_eq(profdata_profile_find_object(p, 0xFFF00028, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.kind, PROFDATA_OBJECT_PRIM_ARRAY);
	ck_assert_uint_eq(o.elem_type, PROFDATA_TYPE_CHAR);
	ck_assert_uint_eq(o.nrefs, 0);

	ck_assert_int_eq(profdata_profile_find_object(p, 0xFFF00048, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.kind, PROFDATA_OBJECT_ARRAY);
	ck_assert_str_eq(test_class_name(p, o.class_id), "[Ljava/lang/String;");
	ck_assert_uint_eq(o.class_id & 1, 1); /* no CLS record: a synthetic, odd id */

	ck_assert_int_eq(profdata_profile_find_object(p, 0xFFF000A0, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.kind, PROFDATA_OBJECT_ARRAY); /* [[I holds references */
	ck_assert_uint_eq(o.nrefs, 1);

	ck_assert_int_eq(profdata_profile_find_object(p, 0xFFF000B8, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.kind, PROFDATA_OBJECT_PRIM_ARRAY);
	ck_assert_uint_eq(o.elem_type, PROFDATA_TYPE_INT);

	size_t ci;
	profdata_class_info c;
	ck_assert_int_eq(profdata_profile_find_class(p, 0xA1200, &ci), 0);
	profdata_profile_class(p, ci, &c);
	ck_assert(c.has_dump);
	ck_assert_uint_eq(c.dump.size, 344);
	ck_assert_uint_eq(c.dump.nrefs, 1);
	ck_assert_uint_eq(c.dump.refs[0], 0xFFF00048);

	/* OpenJ9 counts 2 nulls it does not print: only the trailer knows */
	profdata_attachment at;
	ck_assert_int_eq(profdata_profile_find_attachment(p, "ibm-classic/trailer:1", &at), 0);
	ck_assert(find_bytes(at.data, at.len, "13,10(2)", 8) != NULL);
	profdata_profile_free(p);
}
END_TEST

START_TEST(jdmpview_nulls_are_references)
{
	profdata_profile *p = read_fixture("jdmpview.txt", PROFDATA_MODE_STRICT);
	size_t i;
	profdata_object o;
	ck_assert_int_eq(profdata_profile_find_object(p, 0xFFF000D0, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.nrefs, 3);
	ck_assert_uint_eq(o.refs[2], 0);
	ck_assert_int_eq(profdata_profile_object_refs(p, i, 1, NULL, 0), 3);
	ck_assert_int_eq(profdata_profile_object_refs(p, i, 0, NULL, 0), 2);
	/* the trailer is exactly what the records give: nothing kept beside them */
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_ATTACHMENTS), 0);
	profdata_profile_free(p);
}
END_TEST

START_TEST(classblock_is_the_class)
{
	profdata_profile *p = read_fixture("classblock.txt", PROFDATA_MODE_STRICT);
	size_t i;
	profdata_object o;
	ck_assert_int_eq(profdata_profile_find_object(p, 0x00A01000, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.class_id, 0x000C1200);
	ck_assert_uint_eq(o.nrefs, 1);
	ck_assert_uint_eq(o.refs[0], 0x00A01018);
	ck_assert_str_eq(test_class_name(p, o.class_id), "java/lang/String");
	ck_assert_int_eq(profdata_profile_find_object(p, 0x00A01018, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.nrefs, 0); /* the primitive array's only item was its class */
	ck_assert_uint_eq(o.class_id, 0x000C1300);
	ck_assert_int_eq(profdata_profile_find_object(p, 0x00A01038, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.nrefs, 2); /* the padded null is kept as 0 */
	ck_assert_uint_eq(o.refs[1], 0);
	ck_assert_str_eq(test_class_name(p, o.class_id), "[Ljava/lang/String;");
	profdata_profile_free(p);
}
END_TEST

START_TEST(multi_heap_dumps)
{
	profdata_profile *p = read_fixture("multi-heap.txt", PROFDATA_MODE_STRICT);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_DUMPS), 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_CLASS_DUMPS), 8); /* each heap has its CLS records */
	uint32_t d;
	size_t i;
	ck_assert_int_eq(profdata_profile_find_object(p, 0x7FF00010, &i), 0);
	ck_assert_int_eq(profdata_profile_object_place(p, i, &d, NULL), 0);
	ck_assert_uint_eq(d, 1);
	ck_assert_int_eq(profdata_profile_find_object(p, 0xFFF000F0, &i), 0);
	ck_assert_int_eq(profdata_profile_object_place(p, i, &d, NULL), 0);
	ck_assert_uint_eq(d, 0);
	profdata_profile_free(p);
}
END_TEST

/* ---- rewriting ---- */

START_TEST(rewrite_is_byte_identical)
{
	const expect *x = &fixtures[_i];
	char path[1024];
	size_t len, out_len;
	unsigned char *orig = test_slurp(fixture(path, sizeof path, x->file), &len);
	ck_assert_ptr_nonnull(orig);
	profdata_profile *p = read_fixture(x->file, x->clean ? PROFDATA_MODE_STRICT : PROFDATA_MODE_PERMISSIVE);
	unsigned char *out = test_write(p, FMT, NULL, &out_len);
	if (x->clean)
		ck_assert_msg(out_len == len && memcmp(out, orig, len) == 0, "%s: rewrite differs:\n%.*s", x->file,
		              (int)out_len, (const char *)out);
	else /* the damage is repaired, not copied */
		ck_assert_msg(out_len != len || memcmp(out, orig, len) != 0, "%s: damaged input rewritten as is", x->file);
	free(out);
	free(orig);
	profdata_profile_free(p);
}
END_TEST

START_TEST(read_write_read_same_model)
{
	const expect *x = &fixtures[_i];
	char why[512];
	size_t len, len2;
	profdata_profile *p = read_fixture(x->file, PROFDATA_MODE_PERMISSIVE);
	unsigned char *out = test_write(p, FMT, NULL, &len);
	profdata_profile *q = test_read_memory(out, len, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(q != NULL, "%s: our output does not read strictly: %s", x->file, why);
	if (x->clean) {
		ck_assert_msg(profdata_profile_equal(p, q, why, sizeof why), "%s: %s", x->file, why);
	} else {
		/* Inconsistent input is repaired once; from then on the model is stable. */
		assert_same_graph(p, q);
		unsigned char *out2 = test_write(q, FMT, NULL, &len2);
		profdata_profile *q2 = test_read_memory(out2, len2, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
		ck_assert_ptr_nonnull(q2);
		ck_assert_msg(profdata_profile_equal(q, q2, why, sizeof why), "%s: %s", x->file, why);
		ck_assert(len == len2 && memcmp(out, out2, len) == 0);
		profdata_profile_free(q2);
		free(out2);
	}
	profdata_profile_free(q);
	profdata_profile_free(p);
	free(out);
}
END_TEST

static unsigned char *write_opts(const char *file, const char *opts, size_t *len)
{
	profdata_profile *p = read_fixture(file, PROFDATA_MODE_STRICT);
	unsigned char *out = test_write(p, FMT, opts, len);
	profdata_profile_free(p);
	return out;
}

static int contains(const unsigned char *buf, size_t len, const char *s)
{
	return find_bytes(buf, len, s, strlen(s)) != NULL;
}

START_TEST(writer_options)
{
	size_t len;
	char why[256];
	unsigned char *out;
	profdata_profile *a = read_fixture("openj9-64.txt", PROFDATA_MODE_STRICT), *b;

	out = write_opts("openj9-64.txt", "style=jdmpview", &len);
	ck_assert(contains(out, len, "// Breakdown - Classes:4, Objects:4, ObjectArrays:2, PrimitiveArrays:3\n"));
	/* the two unprinted nulls are still counted */
	ck_assert(contains(out, len, "// EOF: Total 'Objects',Refs(null) :13,10(2)\n"));
	b = test_read_memory(out, len, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_ptr_nonnull(b);
	assert_same_graph(a, b);
	profdata_profile_free(b);
	free(out);

	out = write_opts("openj9-64.txt", "word_size=4", &len);
	ck_assert(contains(out, len, "\n0xFFF00010 [24] OBJ java/lang/String\n\t0xFFF00028 \n"));
	b = test_read_memory(out, len, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_uint_eq(profdata_profile_meta(b)->word_size, 4);
	assert_same_graph(a, b);
	profdata_profile_free(b);
	free(out);

	out = write_opts("openj9-64.txt", "line_end=crlf", &len);
	ck_assert(contains(out, len, "\r\n0x00000000FFF00010 [24] OBJ java/lang/String\r\n\t0x00000000FFF00028 \r\n"));
	b = test_read_memory(out, len, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
	assert_same_graph(a, b);
	profdata_profile_free(b);
	free(out);

	out = write_opts("openj9-64.txt", "layout=single-line", &len);
	ck_assert(contains(out, len, "\n0x00000000FFF00010 [24] OBJ java/lang/String 0x00000000FFF00028\n"));
	b = test_read_memory(out, len, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
	assert_same_graph(a, b);
	profdata_profile_free(b);
	free(out);

	out = write_opts("openj9-32.txt", "style=classblock", &len);
	b = test_read_memory(out, len, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(b != NULL, "%s", why);
	ck_assert_str_eq(comment(profdata_profile_meta(b), "style"), "classblock");
	ck_assert_uint_eq(profdata_profile_count(b, PROFDATA_TABLE_OBJECTS), 9);
	profdata_profile_free(b);
	free(out);

	/* jdmpview output printed as OpenJ9 keeps its nulls as "0x0": nothing is lost */
	profdata_profile *j = read_fixture("jdmpview.txt", PROFDATA_MODE_STRICT);
	out = test_write(j, FMT, "style=openj9", &len);
	ck_assert(contains(out, len, "0x00000000FFF00070 0x0 \n"));
	b = test_read_memory(out, len, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_int_eq(profdata_profile_reference_count(b), profdata_profile_reference_count(j));
	profdata_profile_free(b);
	profdata_profile_free(j);
	free(out);

	profdata_profile_free(a);

	/* bad values are refused with a message */
	profdata_profile *p = read_fixture("openj9-64.txt", PROFDATA_MODE_STRICT);
	test_assert_write_refused(p, FMT, "word_size=2", PROFDATA_EINVAL, "word_size");
	profdata_profile_free(p);
}
END_TEST

/* The conversions of the JDK fixtures: real heaps, read strictly and rewritten byte-identically. */
START_TEST(jdk_conversions_rewrite)
{
	static const char *const files[] = { "jdk17-minimal.txt.gz", "jdk17-types.txt.gz", "jdk17-threads.txt.gz",
	                                     "jdk17-loaders.txt.gz" };
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char path[1024];
		profdata_reader *r;
		const unsigned char *text;
		size_t out_len;
		ck_assert_int_eq(profdata_reader_open_path(&r, fixture(path, sizeof path, files[f])), 0);
		int64_t len = pd_in_fill(r, (size_t)1 << 30, &text); /* the whole decompressed text */
		ck_assert_int_gt(len, 0);
		profdata_profile *p = read_fixture(files[f], PROFDATA_MODE_STRICT);
		ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), 8000);
		unsigned char *out = test_write(p, FMT, NULL, &out_len);
		ck_assert_msg(out_len == (size_t)len && memcmp(out, text, out_len) == 0, "%s: rewrite differs", files[f]);
		free(out);
		profdata_profile_free(p);
		profdata_reader_free(r);
	}
}
END_TEST

/* ---- strictness and diagnostics ---- */

START_TEST(strict_reads_clean_fixtures)
{
	const expect *x = &fixtures[_i];
	int rc;
	profdata_profile *p = NULL;
	profdata_reader *r = read_with_reader(x->file, PROFDATA_MODE_STRICT, &p, &rc);
	if (x->clean) {
		ck_assert_msg(rc == 0, "%s: %s", x->file, profdata_reader_error(r)->message);
		ck_assert_uint_eq(profdata_reader_warning_count(r), 0);
	} else {
		ck_assert_int_lt(rc, 0);
		ck_assert_ptr_null(p);
		ck_assert_uint_ne(profdata_reader_error(r)->line, 0);
		ck_assert_uint_ne(profdata_reader_error(r)->offset, UINT64_MAX);
	}
	profdata_profile_free(p);
	profdata_reader_free(r);
}
END_TEST

START_TEST(trailer_mismatch_names_its_line)
{
	int rc;
	profdata_profile *p = NULL;
	profdata_reader *r = read_with_reader("bad-trailer.txt", PROFDATA_MODE_PERMISSIVE, &p, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(profdata_reader_warning_count(r), 1);
	const profdata_error *w = profdata_reader_warning(r, 0);
	ck_assert_uint_eq(w->line, 28);
	ck_assert_uint_eq(w->offset, 816);
	ck_assert_ptr_nonnull(strstr(w->message, "5 objects"));
	profdata_profile_free(p);
	profdata_reader_free(r);

	r = read_with_reader("bad-trailer.txt", PROFDATA_MODE_STRICT, &p, &rc);
	ck_assert_int_eq(rc, PROFDATA_EFORMAT);
	ck_assert_uint_eq(profdata_reader_error(r)->line, 28);
	ck_assert_uint_eq(profdata_reader_error(r)->offset, 816);
	profdata_reader_free(r);
}
END_TEST

START_TEST(cut_short_keeps_what_was_read)
{
	int rc;
	profdata_profile *p = NULL;
	profdata_reader *r = read_with_reader("truncated.txt", PROFDATA_MODE_PERMISSIVE, &p, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(profdata_reader_warning_count(r), 2);
	ck_assert_uint_eq(profdata_reader_warning(r, 0)->line, 17);
	ck_assert_int_eq(profdata_reader_warning(r, 1)->code, PROFDATA_ETRUNCATED);
	size_t i;
	profdata_object o;
	/* the last record keeps its complete reference, not the partial one */
	ck_assert_int_eq(profdata_profile_find_object(p, 0xFFF000D0, &i), 0);
	profdata_profile_object(p, i, &o);
	ck_assert_uint_eq(o.nrefs, 1);
	ck_assert_uint_eq(o.refs[0], 0xFFF00010);
	profdata_profile_free(p);
	profdata_reader_free(r);

	r = read_with_reader("truncated.txt", PROFDATA_MODE_STRICT, &p, &rc);
	ck_assert_int_eq(rc, PROFDATA_ETRUNCATED);
	ck_assert_uint_eq(profdata_reader_error(r)->line, 17);
	profdata_reader_free(r);
}
END_TEST

/* Read text from memory; returns the rc, the warning count and the first diagnostic's line. */
static int read_text(const char *text, int mode, size_t *warnings, uint64_t *line, profdata_profile **out)
{
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, text, strlen(text), "<text>"), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.mode = mode;
	o.format = FMT;
	profdata_profile *p = NULL;
	int rc = profdata_read(&p, r, &o);
	*warnings = profdata_reader_warning_count(r);
	*line = rc ? profdata_reader_error(r)->line : *warnings ? profdata_reader_warning(r, 0)->line : 0;
	if (out)
		*out = p;
	else
		profdata_profile_free(p);
	profdata_reader_free(r);
	return rc;
}

START_TEST(malformed_lines)
{
	size_t nw;
	uint64_t line;
	profdata_profile *p;
	const char *hdr = "// Version: test\n";
	char buf[2048];

	ck_assert_int_eq(read_text("hello world\n", PROFDATA_MODE_PERMISSIVE, &nw, &line, NULL), PROFDATA_EFORMAT);
	ck_assert_uint_eq(line, 1);
	ck_assert_int_eq(read_text("", PROFDATA_MODE_PERMISSIVE, &nw, &line, NULL), PROFDATA_EFORMAT);

	/* a garbage record line among good ones: skipped with a warning naming it */
	snprintf(buf, sizeof buf, "%s0x0000000000001000 [16] OBJ A\n\t\n0x00000000000010 [x] OBJ B\n\t\n"
	         "0x0000000000001010 [16] OBJ A\n\t0x0000000000001000 \n"
	         "// Breakdown - Classes: 0, Objects: 2, ObjectArrays: 0, PrimitiveArrays: 0\n"
	         "// EOF:  Total 'Objects',Refs(null) : 2,1(0)\n", hdr);
	ck_assert_int_eq(read_text(buf, PROFDATA_MODE_PERMISSIVE, &nw, &line, &p), 0);
	ck_assert_uint_ge(nw, 1);
	ck_assert_uint_eq(line, 4);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), 2);
	profdata_profile_free(p);
	ck_assert_int_eq(read_text(buf, PROFDATA_MODE_STRICT, &nw, &line, NULL), PROFDATA_EFORMAT);
	ck_assert_uint_eq(line, 4);

	/* 17 hex digits, a bad reference, a reference line with no record, an unknown comment */
	snprintf(buf, sizeof buf, "%s0x00000000000001000 [16] OBJ A\n\t\n\t0x10 \n"
	         "0x0000000000001000 [16] OBJ A\n\t0x00000000000020 zz 0x30 \n// hello\n", hdr);
	ck_assert_int_eq(read_text(buf, PROFDATA_MODE_PERMISSIVE, &nw, &line, &p), 0);
	ck_assert_uint_eq(nw, 6); /* two lone reference lines, + the missing trailer */
	ck_assert_uint_eq(line, 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), 1);
	ck_assert_uint_eq(profdata_profile_reference_count(p), 1);
	profdata_profile_free(p);

	/* no header: read with a warning */
	ck_assert_int_eq(read_text("0x00001000 [8] OBJ java/lang/Object\n\t\n", PROFDATA_MODE_PERMISSIVE, &nw, &line, &p),
	                 0);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), 1);
	ck_assert_ptr_null(profdata_profile_meta(p)->version);
	ck_assert_uint_eq(profdata_profile_meta(p)->word_size, 4);
	profdata_profile_free(p);

	/* a record at address 0, an object record with no type */
	snprintf(buf, sizeof buf, "%s0x0000000000000000 [16] OBJ A\n\t\n0x0000000000001000 [16] OBJ \n\t\n", hdr);
	ck_assert_int_eq(read_text(buf, PROFDATA_MODE_PERMISSIVE, &nw, &line, &p), 0);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), 0);
	profdata_profile_free(p);

	/* several EOF lines: a trailer after a trailer is an empty dump without header */
	snprintf(buf, sizeof buf, "%s// EOF:  Total 'Objects',Refs(null) : 0,0(0)\n"
	         "// EOF:  Total 'Objects',Refs(null) : 0,0(0)\n// Breakdown - nonsense\n", hdr);
	ck_assert_int_eq(read_text(buf, PROFDATA_MODE_PERMISSIVE, &nw, &line, &p), 0);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_DUMPS), 3);
	profdata_profile_free(p);
}
END_TEST

START_TEST(hex_digits_every_byte)
{
	/* Each byte in every position of 16- and 8-digit addresses: only hex digits read. */
	for (int width = 8; width <= 16; width += 8) {
		for (int pos = 0; pos < width; pos++) {
			for (int b = 1; b < 256; b++) {
				char text[128];
				char addr[17];
				memset(addr, '1', (size_t)width);
				addr[width] = 0;
				addr[pos] = (char)b;
				snprintf(text, sizeof text, "// Version: x\n0x%s [8] OBJ A\n\t\n", addr);
				size_t nw;
				uint64_t line;
				profdata_profile *p;
				if (b == '\n' || b == '\r')
					continue;
				int rc = read_text(text, PROFDATA_MODE_PERMISSIVE, &nw, &line, &p);
				ck_assert_int_eq(rc, 0);
				int hex = (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
				ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), hex);
				if (hex) {
					profdata_object o;
					profdata_profile_object(p, 0, &o);
					uint64_t want = 0;
					for (int i = 0; i < width; i++) {
						int c = addr[i];
						want = want << 4 | (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
					}
					ck_assert_uint_eq(o.id, want);
				}
				profdata_profile_free(p);
			}
		}
	}
}
END_TEST

/* ---- events and streaming ---- */

typedef struct trace {
	char log[8192];
	size_t len;
	uint64_t max_string;
	int strings_in_order;
} trace;

static void logf_(trace *t, const char *s)
{
	size_t n = strlen(s);
	if (t->len + n + 1 < sizeof t->log) {
		memcpy(t->log + t->len, s, n);
		t->len += n;
		t->log[t->len++] = ' ';
		t->log[t->len] = 0;
	}
}

static int t_begin(void *u, const profdata_meta *m) { (void)m; logf_(u, "begin"); return 0; }
static int t_string(void *u, uint64_t id, const char *s, size_t n)
{
	trace *t = u;
	(void)s;
	(void)n;
	if (id != t->max_string + 1)
		t->strings_in_order = 0;
	t->max_string = id;
	logf_(u, "S");
	return 0;
}
static int t_load(void *u, const profdata_class_load *c) { (void)c; logf_(u, "L"); return 0; }
static int t_cdump(void *u, const profdata_class_dump *c) { (void)c; logf_(u, "C"); return 0; }
static int t_obj(void *u, const profdata_object *o) { (void)o; logf_(u, "O"); return 0; }
static int t_db(void *u, const profdata_dump *d) { (void)d; logf_(u, "["); return 0; }
static int t_de(void *u) { logf_(u, "]"); return 0; }
static int t_att(void *u, const profdata_attachment *a) { (void)a; logf_(u, "A"); return 0; }
static int t_end(void *u) { logf_(u, "end"); return 0; }

START_TEST(event_order)
{
	char path[1024];
	size_t len;
	unsigned char *data = test_slurp(fixture(path, sizeof path, "multi-heap.txt"), &len);
	profdata_events ev;
	profdata_events_init(&ev, sizeof ev);
	ev.begin = t_begin;
	ev.string = t_string;
	ev.class_load = t_load;
	ev.class_dump = t_cdump;
	ev.object = t_obj;
	ev.dump_begin = t_db;
	ev.dump_end = t_de;
	ev.attachment = t_att;
	ev.end = t_end;
	trace t;
	memset(&t, 0, sizeof t);
	t.strings_in_order = 1;
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, data, len, "m"), 0);
	ck_assert_int_eq(profdata_decode(r, NULL, &ev, &t), 0);
	profdata_reader_free(r);
	ck_assert(t.strings_in_order);
	/* the CLS classes first in file order, then dumps; the second heap repeats the class dumps */
	ck_assert_str_eq(t.log, "begin S L S L S L S L [ O O S L O O O S L O S L O O O C C C C A ] [ O O C C C C A ] end ");
	free(data);
}
END_TEST

START_TEST(streaming_convert_rewrites_identically)
{
	/* From a callback reader (no stable span, tiny reads) into the encoder: no model. */
	static const char *const files[] = { "openj9-64.txt", "jdmpview.txt", "classblock.txt", "openj9-crlf.txt",
	                                     "multi-heap.txt", "single-line.txt" };
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char path[1024];
		size_t len;
		unsigned char *data = test_slurp(fixture(path, sizeof path, files[f]), &len);
		test_chunks src = { data, len, 0, 7, 0 };
		profdata_reader *r;
		profdata_writer *w;
		ck_assert_int_eq(profdata_reader_open_callbacks(&r, test_chunk_read, &src, "cb"), 0);
		ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
		profdata_read_options ro = PROFDATA_READ_OPTIONS_INIT;
		ro.mode = PROFDATA_MODE_STRICT;
		profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
		wo.format = FMT;
		int rc = profdata_convert(r, &ro, w, &wo);
		ck_assert_msg(rc == 0, "%s: %s", files[f],
		              profdata_reader_error(r) ? profdata_reader_error(r)->message
		                                       : profdata_writer_error(w) ? profdata_writer_error(w)->message : "?");
		ck_assert_int_eq(profdata_writer_close(w), 0);
		const void *out;
		size_t out_len;
		profdata_writer_memory(w, &out, &out_len);
		ck_assert_msg(out_len == len && memcmp(out, data, len) == 0, "%s: streaming rewrite differs:\n%.*s",
		              files[f], (int)out_len, (const char *)out);
		profdata_writer_free(w);
		profdata_reader_free(r);
		free(data);
	}
}
END_TEST

START_TEST(long_lines_through_small_reads)
{
	/* an object array with 200000 references on one line, read through 7-byte reads */
	size_t n = 200000, cap = n * 20 + 4096, len = 0;
	char *text = malloc(cap);
	len += (size_t)snprintf(text + len, cap - len, "// Version: big\n0x0000000010000000 [%zu] OBJ [Ljava/lang/Object;\n\t",
	                        16 + n * 8);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "0x%016zX ", (size_t)0x20000000 + i * 16);
	len += (size_t)snprintf(text + len, cap - len,
	                        "\n// Breakdown - Classes: 0, Objects: 0, ObjectArrays: 1, PrimitiveArrays: 0\n"
	                        "// EOF:  Total 'Objects',Refs(null) : 1,%zu(0)\n", n);
	test_chunks src = { (unsigned char *)text, len, 0, 7, 0 };
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, test_chunk_read, &src, "cb"), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.mode = PROFDATA_MODE_STRICT;
	profdata_profile *p = NULL;
	ck_assert_int_eq(profdata_read(&p, r, &o), 0);
	ck_assert_uint_eq(profdata_profile_reference_count(p), n);
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(text);
}
END_TEST

/* A few MiB: the decoder moves the reader along a mapping as it goes; the same as streamed. */
START_TEST(big_input_stable_and_streamed)
{
	size_t n = 80000, cap = n * 80 + 4096, len = 0;
	char *text = malloc(cap);
	len += (size_t)snprintf(text + len, cap - len, "// Version: big\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "0x%016zX [24] OBJ java/lang/String\n\t0x%016zX \n",
		                        (size_t)0x10000000 + i * 32, (size_t)0x10000000 + ((i * 7919) % n) * 32);
	len += (size_t)snprintf(text + len, cap - len,
	                        "// Breakdown - Classes: 0, Objects: %zu, ObjectArrays: 0, PrimitiveArrays: 0\n"
	                        "// EOF:  Total 'Objects',Refs(null) : %zu,%zu(0)\n", n, n, n);
	ck_assert_uint_gt(len, (size_t)4 << 20);
	char why[256];
	profdata_profile *a = test_read_memory(text, len, FMT, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(a != NULL, "%s", why);
	test_chunks src = { (unsigned char *)text, len, 0, 7, 0 };
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, test_chunk_read, &src, "cb"), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.mode = PROFDATA_MODE_STRICT;
	profdata_profile *b = NULL;
	ck_assert_int_eq(profdata_read(&b, r, &o), 0);
	ck_assert_msg(profdata_profile_equal(a, b, why, sizeof why), "%s", why);
	size_t out_len;
	unsigned char *out = test_write(a, FMT, NULL, &out_len);
	ck_assert(out_len == len && memcmp(out, text, len) == 0);
	free(out);
	profdata_profile_free(a);
	profdata_profile_free(b);
	profdata_reader_free(r);
	free(text);
}
END_TEST

START_TEST(sniffing)
{
	const profdata_format *f = profdata_format_find(FMT);
	ck_assert_ptr_nonnull(f);
	ck_assert(profdata_format_can_read(f) && profdata_format_can_write(f));
	const char *a = "// Version: JRE 1.8.0\n";
	const char *b = "0x00001000 [16] OBJ java/lang/Object\n\t\n";
	ck_assert_ptr_eq(profdata_format_sniff(a, strlen(a)), f);
	ck_assert_ptr_eq(profdata_format_sniff(b, strlen(b)), f);
	ck_assert_ptr_ne(profdata_format_sniff("JAVA PROFILE 1.0.2", 19), f);
}
END_TEST

/*
 * The encoder from payloads (what HPROF gives): references decoded through the
 * class layout and superclass chain, nulls counted, VisualVM's sizes, classes
 * after objects, an instance that comes before its class dump held until the
 * dump ends, primitive arrays named by element type.
 */
static void emit_payload_heap(const profdata_events *e, void *p)
{
	profdata_events ev = *e;
	profdata_meta m;
	memset(&m, 0, sizeof m);
	m.format = "hprof";
	m.version = "JAVA PROFILE 1.0.2";
	m.id_size = 8;
	ck_assert_int_eq(ev.begin(p, &m), 0);
	const char *names[] = { "", "java/lang/Object", "Base", "Derived", "[LBase;", "next", "count", "other", "x" };
	for (uint64_t i = 1; i < sizeof names / sizeof names[0]; i++)
		ck_assert_int_eq(ev.string(p, i, names[i], strlen(names[i])), 0);
	profdata_class_load cl;
	memset(&cl, 0, sizeof cl);
	uint64_t ids[] = { 0, 0x100, 0x200, 0x300, 0x400 };
	for (uint32_t i = 1; i <= 4; i++) {
		cl.serial = i;
		cl.id = ids[i];
		cl.name_id = i;
		ck_assert_int_eq(ev.class_load(p, &cl), 0);
	}
	profdata_dump d = { 0, PROFDATA_DUMP_SEGMENTED };
	ck_assert_int_eq(ev.dump_begin(p, &d), 0);
	profdata_class_dump cd;
	profdata_field f[2], st[2];
	memset(&cd, 0, sizeof cd);
	cd.id = 0x100; /* java/lang/Object */
	ck_assert_int_eq(ev.class_dump(p, &cd), 0);
	/* Base: Object next; int count. Statics: Object other = 0x9000, Object x = null */
	f[0].name_id = 5, f[0].type = PROFDATA_TYPE_OBJECT, f[0].value = 0;
	f[1].name_id = 6, f[1].type = PROFDATA_TYPE_INT, f[1].value = 0;
	st[0].name_id = 7, st[0].type = PROFDATA_TYPE_OBJECT, st[0].value = 0x9000;
	st[1].name_id = 8, st[1].type = PROFDATA_TYPE_OBJECT, st[1].value = 0;
	memset(&cd, 0, sizeof cd);
	cd.id = 0x200;
	cd.super_id = 0x100;
	cd.instance_size = 12;
	cd.fields = f;
	cd.nfields = 2;
	cd.statics = st;
	cd.nstatics = 2;
	ck_assert_int_eq(ev.class_dump(p, &cd), 0);
	unsigned char inst[12 + 8];
	profdata_object o;
	/* a Derived before its class dump: held until the dump ends */
	memset(&o, 0, sizeof o);
	o.id = 0x1000;
	o.class_id = 0x300;
	o.kind = PROFDATA_OBJECT_INSTANCE;
	memset(inst, 0, sizeof inst);
	pd_put_be64(inst, 0x1100);     /* Derived.other */
	pd_put_be64(inst + 8, 0);      /* Base.next (null) */
	pd_put_be32(inst + 16, 7);     /* Base.count */
	o.data = inst;
	o.data_len = o.length = 20;
	ck_assert_int_eq(ev.object(p, &o), 0);
	/* Derived: Object other */
	profdata_field g[1];
	g[0].name_id = 7, g[0].type = PROFDATA_TYPE_OBJECT, g[0].value = 0;
	memset(&cd, 0, sizeof cd);
	cd.id = 0x300;
	cd.super_id = 0x200;
	cd.instance_size = 8;
	cd.fields = g;
	cd.nfields = 1;
	ck_assert_int_eq(ev.class_dump(p, &cd), 0);
	/* a Base */
	unsigned char b[12];
	pd_put_be64(b, 0x1000);
	pd_put_be32(b + 8, 1);
	memset(&o, 0, sizeof o);
	o.id = 0x1100;
	o.class_id = 0x200;
	o.kind = PROFDATA_OBJECT_INSTANCE;
	o.data = b;
	o.data_len = o.length = 12;
	ck_assert_int_eq(ev.object(p, &o), 0);
	/* Base[3] = { 0x1000, null, 0x1100 } */
	unsigned char arr[24];
	pd_put_be64(arr, 0x1000);
	pd_put_be64(arr + 8, 0);
	pd_put_be64(arr + 16, 0x1100);
	memset(&o, 0, sizeof o);
	o.id = 0x1200;
	o.class_id = 0x400;
	o.kind = PROFDATA_OBJECT_ARRAY;
	o.data = arr;
	o.data_len = 24;
	o.length = 3;
	ck_assert_int_eq(ev.object(p, &o), 0);
	/* int[5], no class */
	unsigned char ints[20] = { 0 };
	memset(&o, 0, sizeof o);
	o.id = 0x1300;
	o.kind = PROFDATA_OBJECT_PRIM_ARRAY;
	o.elem_type = PROFDATA_TYPE_INT;
	o.data = ints;
	o.data_len = 20;
	o.length = 5;
	ck_assert_int_eq(ev.object(p, &o), 0);
	ck_assert_int_eq(ev.dump_end(p), 0);
	if (ev.end)
		ck_assert_int_eq(ev.end(p), 0);

}

START_TEST(encoder_from_payloads)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	emit_payload_heap(&ev, p);
	size_t len;
	unsigned char *out = test_write(p, FMT, NULL, &len);
	/* 8-byte ids without compressed-oops hints: header 16, references 8 (jvm/jvm.h) */
	const char *objs =
		"0x0000000000001000 [40] OBJ Derived\n\t0x0000000000001100 \n"
		"0x0000000000001100 [32] OBJ Base\n\t0x0000000000001000 \n"
		"0x0000000000001200 [48] OBJ [LBase;\n\t0x0000000000001000 0x0000000000001100 \n"
		"0x0000000000001300 [40] OBJ [I\n\t\n";
	const char *classes =
		"0x0000000000000100 [16] CLS java/lang/Object\n\t\n"
		"0x0000000000000200 [32] CLS Base\n\t0x0000000000009000 \n"
		"0x0000000000000300 [16] CLS Derived\n\t\n"
		"// Breakdown - Classes: 3, Objects: 2, ObjectArrays: 1, PrimitiveArrays: 1\n"
		"// EOF:  Total 'Objects',Refs(null) : 7,8(3)\n";
	char want[2048];
	snprintf(want, sizeof want, "// Version: converted by libprofdata %s from hprof (JAVA PROFILE 1.0.2)\n%s%s",
	         PROFDATA_VERSION_STRING, objs, classes);
	ck_assert_msg(len == strlen(want) && memcmp(out, want, len) == 0, "got:\n%.*s", (int)len, (const char *)out);
	free(out);

	/* jdmpview prints the nulls */
	out = test_write(p, FMT, "style=jdmpview", &len);
	ck_assert(contains(out, len, "\t0x0000000000001000 0x0 0x0000000000001100 \n"));
	ck_assert(contains(out, len, "\t0x0000000000001100 0x0 \n"));
	ck_assert(contains(out, len, "// EOF: Total 'Objects',Refs(null) :7,8(3)\n"));
	free(out);
	profdata_profile_free(p);

	/* Streaming, the Derived comes before its class dump: held until the dump ends. */
	profdata_writer *w;
	profdata_encoder *enc;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	wo.format = FMT;
	ck_assert_int_eq(profdata_encoder_new(&enc, w, &wo), 0);
	emit_payload_heap(profdata_encoder_events(enc), profdata_encoder_payload(enc));
	ck_assert_int_eq(profdata_encoder_finish(enc), 0);
	profdata_encoder_free(enc);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	const void *data;
	profdata_writer_memory(w, &data, &len);
	const char *held = "0x0000000000001000 [40] OBJ Derived\n\t0x0000000000001100 \n";
	ck_assert(contains(data, len, held));
	ck_assert(((const char *)find_bytes(data, len, held, strlen(held))) >
	          ((const char *)find_bytes(data, len, "OBJ [I\n", 7)));
	profdata_writer_free(w);
}
END_TEST

START_TEST(encoder_without_a_dump_fails)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof m);
	m.format = "gperftools";
	ev.begin(p, &m);
	ev.end(p);
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	wo.format = FMT;
	ck_assert_int_eq(profdata_write(p, w, &wo), PROFDATA_EUNSUPPORTED);
	profdata_writer_free(w);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("classic");
	TCase *tc = tcase_create("classic");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, fixture_contents, 0, NFIXTURES);
	tcase_add_test(tc, openj9_records);
	tcase_add_test(tc, jdmpview_nulls_are_references);
	tcase_add_test(tc, classblock_is_the_class);
	tcase_add_test(tc, multi_heap_dumps);
	tcase_add_loop_test(tc, rewrite_is_byte_identical, 0, NFIXTURES);
	tcase_add_loop_test(tc, read_write_read_same_model, 0, NFIXTURES);
	tcase_add_test(tc, writer_options);
	tcase_add_test(tc, jdk_conversions_rewrite);
	tcase_add_loop_test(tc, strict_reads_clean_fixtures, 0, NFIXTURES);
	tcase_add_test(tc, trailer_mismatch_names_its_line);
	tcase_add_test(tc, cut_short_keeps_what_was_read);
	tcase_add_test(tc, malformed_lines);
	tcase_add_test(tc, hex_digits_every_byte);
	tcase_add_test(tc, event_order);
	tcase_add_test(tc, streaming_convert_rewrites_identically);
	tcase_add_test(tc, long_lines_through_small_reads);
	tcase_add_test(tc, big_input_stable_and_streamed);
	tcase_add_test(tc, sniffing);
	tcase_add_test(tc, encoder_from_payloads);
	tcase_add_test(tc, encoder_without_a_dump_fails);
	suite_add_tcase(s, tc);
	return s;
}
