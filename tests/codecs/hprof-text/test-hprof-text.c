/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HPROF agent's text output (hprof-text): the hand-written fixtures of
 * every section, a file cut short, malformed lines, the binary decoder's
 * word for a text file; and the corpus's real files (case "corpus").
 */
#include "support.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FMT "hprof-text"

static profdata_profile *read_fixture(const char *name)
{
	char path[1024], rel[256];
	snprintf(rel, sizeof rel, "hprof-text/%s", name);
	return test_read(test_data_path(path, sizeof path, rel), FMT, PROFDATA_MODE_STRICT);
}

static const char *text(const profdata_profile *p, uint64_t id)
{
	const char *s = profdata_profile_string(p, id, NULL);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* The frame whose function is named `method`, with its line. */
static int32_t line_of(const profdata_profile *p, const char *method, int nth)
{
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_FRAMES); i++) {
		profdata_frame fr;
		profdata_function fn;
		size_t fi;
		profdata_profile_frame(p, i, &fr);
		ck_assert_int_eq(profdata_profile_find_function(p, fr.function_id, &fi), 0);
		profdata_profile_function(p, fi, &fn);
		if (strcmp(text(p, fn.name_id), method) == 0 && nth-- == 0)
			return fr.line;
	}
	ck_abort_msg("no frame of %s", method);
	return 0;
}

START_TEST(cpu_samples_with_threads)
{
	profdata_profile *p = read_fixture("cpu-samples.txt");
	ck_assert_str_eq(profdata_profile_meta(p)->format, FMT);
	ck_assert_str_eq(profdata_profile_meta(p)->version, "JAVA PROFILE 1.0.1");
	ck_assert_uint_eq(profdata_profile_meta(p)->period, 10);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), 4);
	ck_assert_uint_eq(test_total_count(p), 10);
	ck_assert_int_eq(line_of(p, "wait", 0), PROFDATA_LINE_NATIVE);
	ck_assert_int_eq(line_of(p, "wait", 1), 485);
	ck_assert_int_eq(line_of(p, "park", 0), PROFDATA_LINE_COMPILED);
	ck_assert_int_eq(line_of(p, "calculé", 0), PROFDATA_LINE_UNKNOWN);
	/* a sample is on its trace's thread */
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_SAMPLES); i++) {
		profdata_sample s;
		profdata_profile_sample(p, i, &s);
		ck_assert_uint_eq(s.thread_serial, s.stack_serial == 300002 ? 200002 : 200001);
	}
	char *folded = test_folded(p, NULL);
	ck_assert_str_eq(folded, "java.lang.Thread.run;Démo$Tâche.calculé 5\n"
	                         "Demo.main;java.lang.Object.wait;java.lang.Object.wait 3\n"
	                         "Demo.main;sun.misc.Unsafe.park 1\n"
	                         "[empty] 1\n");
	free(folded);
	profdata_profile_free(p);
}
END_TEST

START_TEST(cpu_times_are_milliseconds_and_calls)
{
	profdata_profile *p = read_fixture("cpu-times.txt");
	profdata_sample_type t;
	profdata_sample s;
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), 2);
	profdata_profile_sample_type(p, 0, &t);
	ck_assert_str_eq(text(p, t.type_id), "cpu");
	ck_assert_str_eq(text(p, t.unit_id), "milliseconds");
	profdata_profile_sample_type(p, 1, &t);
	ck_assert_str_eq(text(p, t.type_id), "calls");
	profdata_profile_sample(p, 0, &s);
	ck_assert_int_eq(s.values[0], 761); /* 61.67% of 1234 ms */
	ck_assert_int_eq(s.values[1], 5000);
	ck_assert_uint_eq(s.thread_serial, 0);
	ck_assert_uint_eq(test_total_count(p), 761 + 372 + 101);
	profdata_profile_free(p);
}
END_TEST

START_TEST(heap_dump_classes_objects_roots)
{
	static const uint8_t kinds[] = { PROFDATA_ROOT_THREAD_OBJECT, PROFDATA_ROOT_JNI_GLOBAL,
		                         PROFDATA_ROOT_JNI_LOCAL,     PROFDATA_ROOT_JAVA_FRAME,
		                         PROFDATA_ROOT_NATIVE_STACK,  PROFDATA_ROOT_STICKY_CLASS,
		                         PROFDATA_ROOT_THREAD_BLOCK,  PROFDATA_ROOT_MONITOR_USED, PROFDATA_ROOT_UNKNOWN };
	profdata_profile *p = read_fixture("heap.txt");
	profdata_root r;
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_ROOTS), 9);
	for (size_t i = 0; i < 9; i++) {
		ck_assert_int_eq(profdata_profile_root(p, i, &r, NULL), 0);
		ck_assert_uint_eq(r.kind, kinds[i]);
	}
	profdata_profile_root(p, 0, &r, NULL);
	ck_assert_uint_eq(r.thread_serial, 200001);
	ck_assert_uint_eq(r.frame, 300001);
	profdata_profile_root(p, 1, &r, NULL);
	ck_assert_uint_eq(r.extra_id, 0x1a);
	profdata_profile_root(p, 2, &r, NULL);
	ck_assert_uint_eq(r.frame, UINT32_MAX);
	size_t ci;
	profdata_class_info c;
	ck_assert_int_eq(profdata_profile_find_class(p, 0x50000003, &ci), 0);
	profdata_profile_class(p, ci, &c);
	ck_assert_str_eq(c.name, "Demo$Node");
	ck_assert_uint_eq(c.dump.super_id, 0x50000001);
	ck_assert_uint_eq(c.dump.loader_id, 0x50000020);
	ck_assert_uint_eq(c.dump.signers_id, 0x50000021);
	ck_assert_uint_eq(c.dump.protection_domain_id, 0x50000022);
	ck_assert_uint_eq(c.dump.nstatics, 2);
	ck_assert_str_eq(text(p, c.dump.statics[1].name_id), "ROOT");
	ck_assert_uint_eq(c.dump.statics[1].value, 0x50000010);
	ck_assert_uint_eq(c.dump.nconstants, 2);
	ck_assert_uint_eq(c.dump.constants[1].index, 9);
	/* the object array's elements at their indices, the nulls the text leaves out filled in */
	uint64_t refs[8];
	profdata_object o;
	profdata_profile_object(p, 2, &o);
	ck_assert_uint_eq(o.kind, PROFDATA_OBJECT_ARRAY);
	ck_assert_uint_eq(o.length, 6);
	ck_assert_str_eq(test_class_name(p, o.class_id), "[LDemo$Node;");
	ck_assert_uint_eq(o.nrefs, 5);
	ck_assert_uint_eq(o.refs[0], 0x50000010);
	ck_assert_uint_eq(o.refs[1], 0);
	ck_assert_uint_eq(o.refs[4], 0x50000011);
	ck_assert_int_eq(profdata_profile_object_refs(p, 2, 0, refs, 8), 2);
	profdata_profile_object(p, 3, &o);
	ck_assert_uint_eq(o.kind, PROFDATA_OBJECT_PRIM_ARRAY);
	ck_assert_uint_eq(o.elem_type, PROFDATA_TYPE_CHAR);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_ALLOC_SITES), 1);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_ATTACHMENTS), 3);
	profdata_profile_free(p);
}
END_TEST

/* Through binary HPROF: as many objects of each class, the class dumps' statics and constants kept. */
START_TEST(heap_dump_to_binary_hprof)
{
	profdata_profile *p = read_fixture("heap.txt");
	size_t n, ci;
	unsigned char *bin = test_write(p, "hprof", NULL, &n);
	char msg[256] = "";
	profdata_profile *q = test_read_memory(bin, n, "hprof", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(q != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_OBJECTS), 7);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_ROOTS), 9);
	for (size_t i = 0; i < 7; i++) {
		profdata_object a, b;
		profdata_profile_object(p, i, &a);
		profdata_profile_object(q, i, &b);
		ck_assert_uint_eq(a.id, b.id);
		ck_assert_uint_eq(a.kind, b.kind);
		if (a.class_id)
			ck_assert_str_eq(test_class_name(p, a.class_id), test_class_name(q, b.class_id));
	}
	profdata_class_info c;
	ck_assert_int_eq(profdata_profile_find_class(q, 0x50000003, &ci), 0);
	profdata_profile_class(q, ci, &c);
	ck_assert_uint_ge(c.dump.nstatics, 2);
	ck_assert_str_eq(text(q, c.dump.statics[0].name_id), "EMPTY");
	ck_assert_uint_eq(c.dump.nconstants, 2);
	free(bin);
	profdata_profile_free(q);
	profdata_profile_free(p);
}
END_TEST

/* The names of class `id`'s instance fields in p, joined by spaces. */
static const char *field_names(const profdata_profile *p, uint64_t id, char *buf, size_t cap)
{
	size_t ci, at = 0;
	profdata_class_info c;
	ck_assert_int_eq(profdata_profile_find_class(p, id, &ci), 0);
	profdata_profile_class(p, ci, &c);
	buf[0] = '\0';
	for (size_t i = 0; i < c.dump.nfields; i++)
		at += (size_t)snprintf(buf + at, cap - at, "%s%s", i ? " " : "", text(p, c.dump.fields[i].name_id));
	return buf;
}

/* Object `id`'s references, nulls included, joined as hex. */
static const char *refs_of(const profdata_profile *p, uint64_t id, char *buf, size_t cap)
{
	uint64_t refs[8];
	size_t oi, at = 0;
	ck_assert_int_eq(profdata_profile_find_object(p, id, &oi), 0);
	long n = profdata_profile_object_refs(p, oi, 1, refs, 8);
	buf[0] = '\0';
	for (long i = 0; i < n; i++)
		at += (size_t)snprintf(buf + at, cap - at, "%s%llx", i ? " " : "", (unsigned long long)refs[i]);
	return buf;
}

/*
 * Field names: each class declares the names its instances list, a
 * reference at its name's slot; through binary HPROF a subclass declares
 * only what its superclass lacks (the second "name"), and back to text
 * every OBJ lists its fields as the agent did.
 */
START_TEST(instance_fields_keep_their_names)
{
	char buf[256];
	size_t n;
	profdata_profile *p = read_fixture("fields.txt");
	ck_assert_str_eq(field_names(p, 0x50000002, buf, sizeof buf), "name owner");
	ck_assert_str_eq(field_names(p, 0x50000003, buf, sizeof buf), "name owner next name");
	ck_assert_str_eq(refs_of(p, 0x50000011, buf, sizeof buf), "0 50000021");
	ck_assert_str_eq(refs_of(p, 0x50000012, buf, sizeof buf), "50000020 50000021 50000010 50000022");
	ck_assert_str_eq(refs_of(p, 0x50000013, buf, sizeof buf), "0 0 50000012");
	unsigned char *bin = test_write(p, "hprof", NULL, &n);
	char msg[256] = "";
	profdata_profile *q = test_read_memory(bin, n, "hprof", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(q != NULL, "%s", msg);
	ck_assert_str_eq(field_names(q, 0x50000002, buf, sizeof buf), "name owner");
	ck_assert_str_eq(field_names(q, 0x50000003, buf, sizeof buf), "next name");
	/* payload order: Derived's next and name, then Base's name and owner */
	ck_assert_str_eq(refs_of(q, 0x50000012, buf, sizeof buf), "50000010 50000022 50000020 50000021");
	ck_assert_str_eq(refs_of(q, 0x50000013, buf, sizeof buf), "50000012 0 0 0");
	size_t tn;
	unsigned char *written = test_write(q, FMT, NULL, &tn);
	char *t = malloc(tn + 1); /* NUL-terminated for strstr */
	ck_assert_ptr_nonnull(t);
	memcpy(t, written, tn);
	t[tn] = '\0';
	const char *obj = strstr(t, "OBJ 50000012");
	const char *want = "OBJ 50000012 (sz=32, trace=300000, class=Demo$Derived@50000003)\n"
	                   "\tname\t\t50000020\n\towner\t\t50000021\n\tnext\t\t50000010\n\tname\t\t50000022\n"
	                   "OBJ 50000013";
	ck_assert_ptr_nonnull(obj);
	ck_assert_int_eq(strncmp(obj, want, strlen(want)), 0);
	PD_FREE_ALL(bin, written, t);
	profdata_profile_free(q);
	profdata_profile_free(p);
}
END_TEST

/* Read `name` with `mode`: the code, and the error or first warning in *e. */
static int read_fixture_mode(const char *name, int mode, profdata_error *e, profdata_profile **out)
{
	char path[1024], rel[256];
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	snprintf(rel, sizeof rel, "hprof-text/%s", name);
	ck_assert_int_eq(profdata_reader_open_path(&r, test_data_path(path, sizeof path, rel)), 0);
	o.mode = mode;
	o.format = FMT;
	int rc = profdata_read(out, r, &o);
	const profdata_error *x = rc ? profdata_reader_error(r) : profdata_reader_warning(r, 0);
	ck_assert_ptr_nonnull(x);
	*e = *x;
	static char keep[512];
	snprintf(keep, sizeof keep, "%s", x->message);
	e->message = keep;
	profdata_reader_free(r);
	return rc;
}

START_TEST(a_file_cut_short)
{
	profdata_error e;
	profdata_profile *p = NULL;
	ck_assert_int_eq(read_fixture_mode("truncated.txt", PROFDATA_MODE_STRICT, &e, &p), PROFDATA_ETRUNCATED);
	ck_assert_uint_eq(e.line, 12);
	ck_assert_uint_eq(e.offset, 384);
	ck_assert_ptr_nonnull(strstr(e.message, "cut short"));
	profdata_profile_free(p);
	ck_assert_int_eq(read_fixture_mode("truncated.txt", PROFDATA_MODE_PERMISSIVE, &e, &p), 0);
	ck_assert_int_eq(e.code, PROFDATA_ETRUNCATED);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), 2);
	profdata_profile_free(p);
}
END_TEST

/* A line the grammar refuses: the error names its line and byte. */
#define REPEAT4(s) s s s s
#define REPEAT64(s) REPEAT4(REPEAT4(REPEAT4(s)))

START_TEST(malformed_lines_are_refused_where_they_are)
{
	static const struct {
		const char *body;
		uint64_t line;
	} cases[] = {
		{ "TRACE x:\n", 3 },
		{ "TRACE 1:\n\tnot a frame\n", 4 },
		{ "TRACE 1:\n\tA.b(A.java:12x)\n", 4 },
		{ "HEAP DUMP BEGIN (1 objects, 1 bytes) x\nROOT 1 (kind=<nonsense>)\n", 4 },
		{ "HEAP DUMP BEGIN (1 objects, 1 bytes) x\nARR 1 (sz=4, trace=0, nelems=2, elem type=A[]@2)\n"
		  "\t[5]\t\t3\n", 5 },
		{ "HEAP DUMP BEGIN (1 objects, 1 bytes) x\nOBJ 1 (sz=4, trace=0, class=A)\n", 4 },
		{ "CPU SAMPLES BEGIN (total = 1) x\n   1 100% 100% 1\n", 4 },
		/* gaps each within the text read plus 1 MiB, all of them not: the second array's item */
		{ "HEAP DUMP BEGIN (1 objects, 1 bytes) x\nARR 1 (sz=4, trace=0, nelems=2000000, elem type=A[]@2)\n"
		  "\t[1000000]\t\t3\nARR 4 (sz=4, trace=0, nelems=2000000, elem type=A[]@2)\n\t[1000000]\t\t3\n", 7 },
		/* one field name 65 times in an OBJ: the 65th line */
		{ "HEAP DUMP BEGIN (1 objects, 1 bytes) x\nOBJ 1 (sz=4, trace=0, class=A@2)\n" REPEAT64("\tf\t\t3\n")
		  "\tf\t\t3\n", 69 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[1024], msg[512] = "";
		int n = snprintf(buf, sizeof buf, "JAVA PROFILE 1.0.1, created now\n--------\n%s", cases[i].body);
		profdata_reader *r;
		profdata_profile *p = NULL;
		profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
		o.mode = PROFDATA_MODE_STRICT;
		ck_assert_int_eq(profdata_reader_open_memory(&r, buf, (size_t)n, "<test>"), 0);
		ck_assert_int_lt(profdata_read(&p, r, &o), 0);
		snprintf(msg, sizeof msg, "%s", profdata_reader_error(r)->message);
		ck_assert_msg(profdata_reader_error(r)->line == cases[i].line, "case %zu: line %llu: %s", i,
		              (unsigned long long)profdata_reader_error(r)->line, msg);
		profdata_profile_free(p);
		profdata_reader_free(r);
	}
}
END_TEST

START_TEST(sniffed_and_named_by_the_binary_decoder)
{
	static const char t[] = "JAVA PROFILE 1.0.1, created Fri Jun 14 01:16:23 2013\n\n--------\n";
	const profdata_format *f = NULL;
	profdata_reader *r;
	profdata_profile *p = NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	ck_assert_int_eq(profdata_reader_open_memory(&r, t, sizeof t - 1, "<test>"), 0);
	ck_assert_int_eq(profdata_reader_sniff(r, &f), 0);
	ck_assert_str_eq(profdata_format_name(f), FMT);
	profdata_reader_free(r);
	ck_assert_int_eq(profdata_reader_open_memory(&r, t, sizeof t - 1, "<test>"), 0);
	o.format = "hprof";
	ck_assert_int_eq(profdata_read(&p, r, &o), PROFDATA_EFORMAT);
	ck_assert_ptr_nonnull(strstr(profdata_reader_error(r)->message, "the HPROF agent's text output"));
	profdata_profile_free(p);
	profdata_reader_free(r);
}
END_TEST

/* ---- the corpus: the agent's real output ---- */

/* ---- the writer ---- */

static const char *const fixtures[] = { "cpu-samples.txt", "cpu-times.txt", "heap.txt", "truncated.txt" };

/* Written, read and written again: the same bytes, and the reader's tables as the fixture's. */
START_TEST(written_fixtures_rewrite_byte_identical)
{
	static const profdata_table tables[] = { PROFDATA_TABLE_THREADS, PROFDATA_TABLE_STACKS, PROFDATA_TABLE_FRAMES,
		                                 PROFDATA_TABLE_SAMPLES, PROFDATA_TABLE_ALLOC_SITES, PROFDATA_TABLE_CLASSES,
		                                 PROFDATA_TABLE_OBJECTS, PROFDATA_TABLE_ROOTS, PROFDATA_TABLE_ATTACHMENTS };
	char path[1024], rel[256], msg[256] = "";
	snprintf(rel, sizeof rel, "hprof-text/%s", fixtures[_i]);
	profdata_profile *p = test_read(test_data_path(path, sizeof path, rel), FMT, PROFDATA_MODE_PERMISSIVE);
	size_t n1, n2;
	unsigned char *once = test_write(p, FMT, NULL, &n1);
	profdata_profile *q = test_read_memory(once, n1, FMT, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(q != NULL, "%s: %s", fixtures[_i], msg);
	unsigned char *twice = test_write(q, FMT, NULL, &n2);
	ck_assert_uint_eq(n1, n2);
	ck_assert_int_eq(memcmp(once, twice, n1), 0);
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
		ck_assert_uint_eq(profdata_profile_count(p, tables[t]), profdata_profile_count(q, tables[t]));
	free(once);
	free(twice);
	profdata_profile_free(q);
	profdata_profile_free(p);
}
END_TEST

/* The agent's layout: its first line, tab-indented frames, its CPU and heap lines, the MONITOR sections whole. */
START_TEST(written_in_the_agents_layout)
{
	profdata_profile *p = read_fixture("heap.txt");
	size_t n;
	char *out = (char *)test_write(p, FMT, NULL, &n);
	out = realloc(out, n + 1);
	out[n] = '\0';
	ck_assert_msg(strncmp(out, "JAVA PROFILE 1.0.1, created Tue Mar  3 10:00:00 2009\n", 53) == 0, "%.60s", out);
	static const char *const lines[] = {
		"\n--------\n\nTHREAD START (obj=50000168, id = 200001, name=\"main\", group=\"main\")\n",
		"TRACE 300001: (thread=200001)\n\tDemo.main(Demo.java:7)\n",
		"\nHEAP DUMP BEGIN (7 objects, 162 bytes) Tue Mar  3 10:00:00 2009\n",
		"\nROOT 50000011 (kind=<JNI local ref>, thread=200001, frame=-1)\n",
		"\nCLS 50000003 (name=Demo$Node, trace=300001)\n\tsuper\t\t50000001\n",
		"\nARR 50000012 (sz=40, trace=300001, nelems=6, elem type=Demo$Node[]@50000004)\n\t[0]\t\t50000010\n\t[4]\t\t50000011\n",
		"\n    1 29.63% 29.63%        48    2        96     4 300001 Demo$Node\n",
		"\nMONITOR TIME BEGIN (total = 12 ms) Tue Mar  3 10:00:09 2009\n",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		ck_assert_msg(strstr(out, lines[i]) != NULL, "no \"%s\" in the output", lines[i]);
	free(out);
	profdata_profile_free(p);
}
END_TEST

/* From a format without trace serials (gperftools): TRACEs from 300001 in rank order, CPU SAMPLES of its counts. */
START_TEST(written_from_gperftools_numbers_traces_from_300001)
{
	char path[1024], msg[256] = "";
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "gperftools/cpu-100hz.prof"), "gperftools",
	                                PROFDATA_MODE_STRICT);
	size_t n;
	char *out = (char *)test_write(p, FMT, NULL, &n);
	profdata_profile *q = test_read_memory((unsigned char *)out, n, FMT, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(q != NULL, "%s", msg);
	out = realloc(out, n + 1);
	out[n] = '\0';
	const char *first = strstr(out, "\nTRACE ");
	ck_assert_ptr_nonnull(first);
	ck_assert_int_eq(strncmp(first, "\nTRACE 300001:\n\t", 16), 0);
	const char *table = strstr(out, "\nCPU SAMPLES BEGIN (total = 255) ");
	ck_assert_ptr_nonnull(table);
	ck_assert_ptr_nonnull(strstr(table, "\nrank   self  accum   count trace method\n   1 "));
	ck_assert_ptr_nonnull(strstr(table, " 300001 "));
	int64_t total = 0;
	for (size_t i = 0; i < profdata_profile_count(q, PROFDATA_TABLE_SAMPLES); i++) {
		profdata_sample s;
		profdata_profile_sample(q, i, &s);
		total += s.values[0];
	}
	ck_assert_int_eq(total, 255);
	free(out);
	profdata_profile_free(q);
	profdata_profile_free(p);
}
END_TEST

static const struct {
	const char *name;
	uint64_t samples, total, objects, roots, classes;
} corpus[] = {
	{ "hprof2flamegraph_cpu-samples_lineno-y_thread-y.hprof.txt", 890, 981, 0, 0, 0 },
	{ "hprof2flamegraph_cpu-times_lineno-n_thread-n.hprof.txt", 424, 0, 0, 0, 0 },
	{ "hprof2flamegraph_non-ascii.hprof.txt", 36, 266, 0, 0, 0 },
	{ "optimization_heap-dump-sites.hprof.txt", 0, 0, 5118, 1519, 558 },
};

/* Every file reads strictly, without a warning, with the counts grep finds in it. */
START_TEST(corpus_reads)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/hprof-text/%s", test_corpus_dir(), corpus[_i].name);
	profdata_profile *p = test_read(path, FMT, PROFDATA_MODE_STRICT);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), corpus[_i].samples);
	if (corpus[_i].total)
		ck_assert_uint_eq(test_total_count(p), corpus[_i].total);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), corpus[_i].objects);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_ROOTS), corpus[_i].roots);
	if (corpus[_i].classes) {
		size_t n;
		unsigned char *bin = test_write(p, "hprof", NULL, &n);
		char msg[256] = "";
		profdata_profile *q = test_read_memory(bin, n, "hprof", PROFDATA_MODE_STRICT, msg, sizeof msg);
		ck_assert_msg(q != NULL, "%s", msg);
		ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_OBJECTS), corpus[_i].objects);
		ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_ROOTS), corpus[_i].roots);
		free(bin);
		profdata_profile_free(q);
	}
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create(FMT);
	TCase *tc = tcase_create(FMT);
	tcase_add_test(tc, cpu_samples_with_threads);
	tcase_add_test(tc, cpu_times_are_milliseconds_and_calls);
	tcase_add_test(tc, heap_dump_classes_objects_roots);
	tcase_add_test(tc, heap_dump_to_binary_hprof);
	tcase_add_test(tc, instance_fields_keep_their_names);
	tcase_add_test(tc, a_file_cut_short);
	tcase_add_test(tc, malformed_lines_are_refused_where_they_are);
	tcase_add_test(tc, sniffed_and_named_by_the_binary_decoder);
	tcase_add_loop_test(tc, written_fixtures_rewrite_byte_identical, 0, (int)(sizeof fixtures / sizeof fixtures[0]));
	tcase_add_test(tc, written_in_the_agents_layout);
	tcase_add_test(tc, written_from_gperftools_numbers_traces_from_300001);
	suite_add_tcase(s, tc);
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_add_loop_test(tc, corpus_reads, 0, (int)(sizeof corpus / sizeof corpus[0]));
		suite_add_tcase(s, tc);
	}
	return s;
}
