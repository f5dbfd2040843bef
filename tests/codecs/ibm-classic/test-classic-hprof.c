/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IBM classic heapdumps and HPROF: the JDK-made HPROF fixtures converted to
 * classic and back keep every object, class and reference, and the classic
 * file's histogram is the HPROF's; classic fixtures converted to HPROF keep
 * their graph; the committed classic conversions of the JDK fixtures are
 * what the encoder writes today.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const jdk_fixtures[] = { "jdk17-minimal", "jdk17-types", "jdk17-threads", "jdk17-loaders" };
#define NJDK (sizeof jdk_fixtures / sizeof jdk_fixtures[0])

/* The internal name of object i's type: its class, or "[I" and the like for HPROF primitive arrays. */
static const char *type_of(const profdata_profile *p, const profdata_object *o, char *buf)
{
	static const char letters[] = "??L?ZCFDBSIJ";
	const char *n = test_class_name(p, o->class_id);
	if (n)
		return n;
	if (o->kind == PROFDATA_OBJECT_PRIM_ARRAY && o->elem_type < 12) {
		buf[0] = '[';
		buf[1] = letters[o->elem_type];
		buf[2] = 0;
		return buf;
	}
	return "?";
}

static uint64_t *refs_of(const profdata_profile *p, size_t i, long *n)
{
	*n = profdata_profile_object_refs(p, i, 0, NULL, 0);
	ck_assert_int_ge(*n, 0);
	uint64_t *r = calloc((size_t)*n + 1, 8);
	profdata_profile_object_refs(p, i, 0, r, (size_t)*n);
	return r;
}

/* Non-null object statics of class ci, in order. */
static size_t static_refs(const profdata_profile *p, size_t ci, uint64_t *out, size_t cap)
{
	profdata_class_info c;
	size_t n = 0;
	profdata_profile_class(p, ci, &c);
	for (size_t k = 0; k < c.dump.nstatics; k++)
		if (c.dump.statics[k].type == PROFDATA_TYPE_OBJECT && c.dump.statics[k].value) {
			if (n < cap)
				out[n] = c.dump.statics[k].value;
			n++;
		}
	for (size_t k = 0; c.dump.refs && k < c.dump.nrefs; k++)
		if (c.dump.refs[k]) {
			if (n < cap)
				out[n] = c.dump.refs[k];
			n++;
		}
	return n;
}

/* Every object, dumped class and non-null reference of a is in b, the same. */
static void assert_graph_kept(const profdata_profile *a, const profdata_profile *b, const char *what)
{
	size_t n = profdata_profile_count(a, PROFDATA_TABLE_OBJECTS);
	ck_assert_msg(n == profdata_profile_count(b, PROFDATA_TABLE_OBJECTS), "%s: object count", what);
	for (size_t i = 0; i < n; i++) {
		profdata_object x, y;
		size_t j;
		char bx[4], by[4];
		profdata_profile_object(a, i, &x);
		ck_assert_msg(profdata_profile_find_object(b, x.id, &j) == 0, "%s: object 0x%llx lost", what,
		              (unsigned long long)x.id);
		profdata_profile_object(b, j, &y);
		ck_assert_uint_eq(x.kind, y.kind);
		ck_assert_str_eq(type_of(a, &x, bx), type_of(b, &y, by));
		long nx, ny;
		uint64_t *rx = refs_of(a, i, &nx), *ry = refs_of(b, j, &ny);
		ck_assert_msg(nx == ny && memcmp(rx, ry, (size_t)nx * 8) == 0, "%s: references of 0x%llx: %ld vs %ld",
		              what, (unsigned long long)x.id, nx, ny);
		free(rx);
		free(ry);
	}
	for (size_t ci = 0; ci < profdata_profile_count(a, PROFDATA_TABLE_CLASSES); ci++) {
		profdata_class_info c, d;
		size_t cj;
		profdata_profile_class(a, ci, &c);
		if (!c.has_dump)
			continue;
		ck_assert_msg(profdata_profile_find_class(b, c.dump.id, &cj) == 0, "%s: class %s lost", what, c.name);
		profdata_profile_class(b, cj, &d);
		ck_assert(d.has_dump);
		ck_assert_str_eq(c.name, d.name);
		uint64_t sa[4096], sb[4096];
		size_t na = static_refs(a, ci, sa, 4096), nb = static_refs(b, cj, sb, 4096);
		ck_assert_msg(na == nb && memcmp(sa, sb, (na < 4096 ? na : 4096) * 8) == 0,
		              "%s: class %s: %zu vs %zu static references", what, c.name, na, nb);
	}
}

/* name -> instances, bytes, aggregated over classes of one name. */
typedef struct hrow {
	char name[256];
	uint64_t instances, bytes;
} hrow;

static int by_name(const void *x, const void *y)
{
	return strcmp(((const hrow *)x)->name, ((const hrow *)y)->name);
}

static hrow *histo_rows(profdata_histogram *h, size_t *n)
{
	size_t m = profdata_histogram_count(h), k = 0;
	hrow *r = calloc(m + 1, sizeof *r);
	for (size_t i = 0; i < m; i++) {
		const profdata_histogram_entry *e = profdata_histogram_entry_at(h, i);
		snprintf(r[i].name, sizeof r[i].name, "%s", e->name);
		r[i].instances = e->instances;
		r[i].bytes = e->bytes;
	}
	qsort(r, m, sizeof *r, by_name);
	for (size_t i = 0; i < m; i++) {
		if (k && strcmp(r[k - 1].name, r[i].name) == 0) {
			r[k - 1].instances += r[i].instances;
			r[k - 1].bytes += r[i].bytes;
		} else {
			r[k++] = r[i];
		}
	}
	*n = k;
	profdata_histogram_free(h);
	return r;
}

static hrow *histo_of_profile(const profdata_profile *p, size_t *n)
{
	profdata_histogram *h;
	ck_assert_int_eq(profdata_histogram_new(&h, p, PROFDATA_HISTOGRAM_ALL_DUMPS), 0);
	return histo_rows(h, n);
}

static hrow *histo_of_memory(const void *buf, size_t len, size_t *n)
{
	profdata_reader *r;
	profdata_histogram *h;
	ck_assert_int_eq(profdata_reader_open_memory(&r, buf, len, "mem"), 0);
	ck_assert_int_eq(profdata_histogram_read(&h, r, NULL, PROFDATA_HISTOGRAM_ALL_DUMPS), 0);
	profdata_reader_free(r);
	return histo_rows(h, n);
}

/*
 * With `object_bytes` 0, java.lang.Object's bytes are not compared: an HPROF
 * made from classic states java/lang/Object's size as the object header (it
 * tells readers the reference size), so its own instances count that.
 */
static void assert_same_histo(const hrow *a, size_t na, const hrow *b, size_t nb, const char *what, int object_bytes)
{
	size_t i = 0, j = 0;
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].name, b[j].name);
		ck_assert_msg(c == 0, "%s: %s only in %s", what, c < 0 ? a[i].name : b[j].name, c < 0 ? "the first" : "the second");
		ck_assert_msg(a[i].instances == b[j].instances &&
		              (a[i].bytes == b[j].bytes || (!object_bytes && strcmp(a[i].name, "java.lang.Object") == 0)),
		              "%s: %s: %llu/%llu vs %llu/%llu", what, a[i].name, (unsigned long long)a[i].instances,
		              (unsigned long long)a[i].bytes, (unsigned long long)b[j].instances,
		              (unsigned long long)b[j].bytes);
		i++;
		j++;
	}
}

static profdata_profile *read_jdk(const char *name)
{
	char rel[256], path[1024];
	snprintf(rel, sizeof rel, "hprof/%s.hprof", name);
	return test_read(test_data_path(path, sizeof path, rel), "hprof", PROFDATA_MODE_PERMISSIVE);
}

/* HPROF -> classic: the same histogram; -> HPROF again: every object, class and reference. */
START_TEST(hprof_classic_hprof)
{
	const char *name = jdk_fixtures[_i];
	char why[512];
	size_t blen, clen, na, nb, nc;
	profdata_profile *a = read_jdk(name);
	unsigned char *b = test_write(a, "ibm-classic", NULL, &blen);
	profdata_profile *bp = test_read_memory(b, blen, "ibm-classic", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(bp != NULL, "%s: the classic file does not read strictly: %s", name, why);

	hrow *ha = histo_of_profile(a, &na), *hb = histo_of_memory(b, blen, &nb);
	assert_same_histo(ha, na, hb, nb, "hprof vs classic", 1);

	unsigned char *c = test_write(bp, "hprof", NULL, &clen);
	profdata_profile *cp = test_read_memory(c, clen, "hprof", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(cp != NULL, "%s: the HPROF from classic does not read strictly: %s", name, why);
	assert_graph_kept(a, cp, name);
	/* the sizes survive too: classic states them, the HPROF gets them back */
	hrow *hc = histo_of_profile(cp, &nc);
	assert_same_histo(ha, na, hc, nc, "hprof vs hprof from classic", 0);

	free(ha);
	free(hb);
	free(hc);
	profdata_profile_free(cp);
	profdata_profile_free(bp);
	profdata_profile_free(a);
	free(b);
	free(c);
}
END_TEST

/* The same through streaming conversion (no model): the same histogram. */
START_TEST(hprof_to_classic_streaming)
{
	const char *name = jdk_fixtures[_i];
	char rel[256], path[1024];
	size_t na, nb;
	snprintf(rel, sizeof rel, "hprof/%s.hprof.gz", name);
	profdata_reader *r;
	profdata_writer *w;
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, rel)), 0);
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	wo.format = "ibm-classic";
	ck_assert_int_eq(profdata_convert(r, NULL, w, &wo), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	profdata_reader_free(r);
	const void *out;
	size_t len;
	profdata_writer_memory(w, &out, &len);
	profdata_profile *a = test_read(path, "hprof", PROFDATA_MODE_PERMISSIVE);
	hrow *ha = histo_of_profile(a, &na), *hb = histo_of_memory(out, len, &nb);
	assert_same_histo(ha, na, hb, nb, "hprof.gz vs streamed classic", 1);
	char why[256];
	profdata_profile *bp = test_read_memory(out, len, "ibm-classic", PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_msg(bp != NULL, "%s", why);
	ck_assert_uint_eq(profdata_profile_count(bp, PROFDATA_TABLE_OBJECTS), profdata_profile_count(a, PROFDATA_TABLE_OBJECTS));
	ck_assert_uint_eq(profdata_profile_reference_count(bp), profdata_profile_reference_count(a));
	profdata_profile_free(bp);
	profdata_profile_free(a);
	profdata_writer_free(w);
	free(ha);
	free(hb);
}
END_TEST

/* The committed classic conversions are what we write now (header aside) and rewrite byte-identically. */
START_TEST(committed_conversions)
{
	const char *name = jdk_fixtures[_i];
	char rel[256], path[1024];
	size_t len, out_len;
	snprintf(rel, sizeof rel, "classic/%s.txt.gz", name);
	profdata_profile *p = test_read(test_data_path(path, sizeof path, rel), "ibm-classic", PROFDATA_MODE_STRICT);
	unsigned char *out = test_write(p, "ibm-classic", NULL, &out_len);
	profdata_profile *a = read_jdk(name);
	unsigned char *fresh = test_write(a, "ibm-classic", NULL, &len);
	/* skip the header line: it names the library version */
	const unsigned char *x = memchr(out, '\n', out_len), *y = memchr(fresh, '\n', len);
	ck_assert(x && y);
	ck_assert_msg(out_len - (size_t)(x - out) == len - (size_t)(y - fresh) &&
	              memcmp(x, y, out_len - (size_t)(x - out)) == 0,
	              "%s: tests/data/%s differs from a fresh conversion; rerun tests/data/classic/make-from-hprof.sh",
	              name, rel);
	profdata_profile_free(a);
	profdata_profile_free(p);
	free(out);
	free(fresh);
}
END_TEST

/* classic -> HPROF: the graph, strictly readable, and the histogram where sizes allow. */
START_TEST(classic_to_hprof)
{
	static const char *const files[] = { "openj9-64.txt", "openj9-32.txt", "openj9-crlf.txt", "jdmpview.txt",
	                                     "classblock.txt", "single-line.txt", "multi-heap.txt" };
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char rel[256], path[1024], why[512];
		size_t len;
		snprintf(rel, sizeof rel, "classic/%s", files[f]);
		profdata_profile *a = test_read(test_data_path(path, sizeof path, rel), "ibm-classic", PROFDATA_MODE_STRICT);
		unsigned char *h = test_write(a, "hprof", NULL, &len);
		profdata_profile *b = test_read_memory(h, len, "hprof", PROFDATA_MODE_STRICT, why, sizeof why);
		ck_assert_msg(b != NULL, "%s: %s", files[f], why);
		assert_graph_kept(a, b, files[f]);
		ck_assert_uint_eq(profdata_profile_meta(b)->id_size, profdata_profile_meta(a)->word_size);
		/* instances keep their stated size; every class has a dump (VisualVM needs them) */
		for (size_t i = 0; i < profdata_profile_count(b, PROFDATA_TABLE_OBJECTS); i++) {
			profdata_object o;
			profdata_profile_object(b, i, &o);
			if (o.kind == PROFDATA_OBJECT_INSTANCE && strcmp(test_class_name(b, o.class_id), "java/lang/Object") != 0) {
				size_t j;
				profdata_object x;
				ck_assert_int_eq(profdata_profile_find_object(a, o.id, &j), 0);
				profdata_profile_object(a, j, &x);
				ck_assert_uint_eq(profdata_profile_object_size(b, i), x.size);
			}
		}
		for (size_t ci = 0; ci < profdata_profile_count(b, PROFDATA_TABLE_CLASSES); ci++) {
			profdata_class_info c;
			profdata_profile_class(b, ci, &c);
			ck_assert_msg(c.has_dump && c.has_load, "%s: class %s", files[f], c.name);
		}
		profdata_profile_free(b);
		profdata_profile_free(a);
		free(h);
	}
}
END_TEST

/* The streaming histogram and the one read from the model agree, for all dumps and per dump. */
static const char *const histo_inputs[] = {
	"hprof/jdk17-types.hprof", "hprof/jdk17-loaders.hprof", "hprof/synthetic/agent-1.0.1-id4.hprof",
	"hprof/synthetic/multi-dump-1.0.2-id8.hprof", "hprof/synthetic/android-1.0.3-tiny-segments.hprof",
	"classic/openj9-64.txt", "classic/multi-heap.txt",
};

static hrow *histo_streamed(const void *buf, size_t len, long dump, size_t *n)
{
	profdata_reader *r;
	profdata_histogram *h;
	ck_assert_int_eq(profdata_reader_open_memory(&r, buf, len, "mem"), 0);
	ck_assert_int_eq(profdata_histogram_read(&h, r, NULL, dump), 0);
	profdata_reader_free(r);
	return histo_rows(h, n);
}

START_TEST(streaming_and_model_histograms_agree)
{
	char path[1024];
	size_t len, na, nb;
	unsigned char *buf = test_slurp(test_data_path(path, sizeof path, histo_inputs[_i]), &len);
	ck_assert_ptr_nonnull(buf);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	ck_assert_ptr_nonnull(p);
	long dumps[] = { PROFDATA_HISTOGRAM_ALL_DUMPS, 0, 1 };
	for (size_t d = 0; d < sizeof dumps / sizeof dumps[0]; d++) {
		profdata_histogram *h;
		ck_assert_int_eq(profdata_histogram_new(&h, p, dumps[d]), 0);
		hrow *a = histo_rows(h, &na);
		hrow *b = histo_streamed(buf, len, dumps[d], &nb);
		assert_same_histo(a, na, b, nb, histo_inputs[_i], 1);
		free(a);
		free(b);
	}
	profdata_profile_free(p);
	free(buf);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("classic-hprof");
	TCase *tc = tcase_create("classic-hprof");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, hprof_classic_hprof, 0, NJDK);
	tcase_add_loop_test(tc, hprof_to_classic_streaming, 0, NJDK);
	tcase_add_loop_test(tc, committed_conversions, 0, NJDK);
	tcase_add_test(tc, classic_to_hprof);
	tcase_add_loop_test(tc, streaming_and_model_histograms_agree, 0,
	                    (int)(sizeof histo_inputs / sizeof histo_inputs[0]));
	suite_add_tcase(s, tc);
	return s;
}
