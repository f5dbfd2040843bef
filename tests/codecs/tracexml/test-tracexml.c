/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XML trace elements: the synthetic fixtures (every element of the DTD,
 * made by tests/data/tracexml/gen-fixtures.py), layouts, ids, exact times,
 * archives, hostile input, and the real traces
 * of ../shared/corpus/tracexml (case "corpus", skipped without it).
 */
#include "support.h"
#include "pd_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static profdata_profile *fixture(const char *name)
{
	char path[1024], rel[256];
	snprintf(rel, sizeof rel, "tracexml/%s", name);
	return test_read(test_data_path(path, sizeof path, rel), "tracexml", PROFDATA_MODE_STRICT);
}

static profdata_profile *from_text(const char *text, int mode, char *why, size_t why_len)
{
	return test_read_memory(text, strlen(text), "tracexml", mode, why, why_len);
}

static const char *string_of(const profdata_profile *p, uint64_t id)
{
	size_t len;
	const char *s = id ? profdata_profile_string(p, id, &len) : NULL;
	return s ? s : "";
}

/* Trace events of `kind` (and element name, for OTHER and NESTED). */
static size_t count_kind(const profdata_profile *p, unsigned kind, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS); i++) {
		profdata_trace_event t;
		profdata_profile_trace_event(p, i, &t);
		n += t.kind == kind && (!name || strcmp(string_of(p, t.name_id), name) == 0);
	}
	return n;
}

START_TEST(every_element_is_read)
{
	profdata_profile *p = fixture("every-element.xml");
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_CLASSES), 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FUNCTIONS), 4);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 3);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_TRACE_CONTEXTS), 12);
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_METHOD_ENTRY, NULL), 4);
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_METHOD_CALL, NULL), 1);
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_NESTED, "value"), 5);
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_NESTED, "parameter"), 1);
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_NESTED, "detail"), 1);
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_OTHER, "vendorExtension"), 1);
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_OTHER, "lineTable"), 1);
	const char *names[] = { "objDef", "objRef", "line", "throw", "catch", "code", "tag", "methodCount",
	                        "classUnload", "runtimeInitDone", "runtimeShutdown", "gcAlloc" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		ck_assert_msg(count_kind(p, PROFDATA_TRACE_OTHER, names[i]) == 1, "%s", names[i]);
	profdata_class_info c;
	ck_assert_int_eq(profdata_profile_class(p, 0, &c), 0);
	ck_assert_str_eq(c.name, "com/example/Main");
	size_t fi;
	profdata_function f;
	ck_assert_int_eq(profdata_profile_find_function(p, 1001, &fi), 0);
	profdata_profile_function(p, fi, &f);
	ck_assert_str_eq(string_of(p, f.name_id), "<init>");
	ck_assert_str_eq(string_of(p, f.source_file_id), "Main.java");
	ck_assert_int_eq(f.start_line, 3);
	profdata_profile_free(p);
}
END_TEST

START_TEST(times_are_exact_and_text_is_kept)
{
	profdata_profile *p = fixture("every-element.xml");
	int seen_time = 0, seen_text = 0;
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS); i++) {
		profdata_trace_event t;
		profdata_profile_trace_event(p, i, &t);
		if (t.kind == PROFDATA_TRACE_METHOD_ENTRY && t.ticket == 2) {
			ck_assert_uint_eq(t.time_ns, 1171278545400000100ULL);
			ck_assert_uint_eq(t.object_id, 101);
			seen_time = 1;
		}
		if (t.kind == PROFDATA_TRACE_METHOD_ENTRY && t.ticket == 1)
			ck_assert_uint_eq(t.cpu_time_ns, 100000);
		if (t.kind == PROFDATA_TRACE_NESTED && t.name_id == 0 && strcmp(t.attrs[0].value, "seven & more") == 0) {
			ck_assert_uint_eq(t.nattrs, 1);
			ck_assert_str_eq(t.attrs[0].key, "");
			ck_assert_uint_eq(t.depth, 2);
			seen_text = 1;
		}
	}
	ck_assert(seen_time && seen_text);
	profdata_profile_free(p);
}
END_TEST

/* Thread id 2 ends and is defined again: a second thread, and the later elements name it. */
START_TEST(reused_ids_resolve_to_the_definition_in_force)
{
	profdata_profile *p = fixture("every-element.xml");
	uint32_t second = 0;
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_THREADS); i++) {
		profdata_thread_info t;
		profdata_profile_thread(p, i, &t);
		if (strcmp(string_of(p, t.start.name_id), "worker-2") == 0)
			second = t.start.serial;
	}
	ck_assert_uint_ne(second, 0);
	ck_assert_uint_ne(second, 2);
	int found = 0;
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS); i++) {
		profdata_trace_event t;
		profdata_profile_trace_event(p, i, &t);
		if (t.kind == PROFDATA_TRACE_METHOD_ENTRY && t.ticket == 5) {
			ck_assert_uint_eq(t.thread_serial, second);
			ck_assert_uint_eq(t.depth, 48);
			found = 1;
		}
	}
	ck_assert(found);
	profdata_profile_free(p);
}
END_TEST

/* The agent's layout (root never closed, one line), the patent's root and the archive read alike. */
START_TEST(layouts_read_alike)
{
	if (!PD_HAVE_LIBARCHIVE)
		return; /* archives are refused without libarchive */
	char path[1024];
	test_data_path(path, sizeof path, "../codecs/tracexml/agent.trcxml");
	profdata_profile *open = fixture("traceroot-open.xml");
	profdata_profile *zip = test_read(path, "tracexml", PROFDATA_MODE_STRICT);
	test_assert_equal(open, zip, "traceRoot never closed vs the .trcxml archive");
	size_t len;
	unsigned char *doc = test_write(zip, "tracexml", NULL, &len);
	ck_assert(len > 40 && memcmp(doc, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TRACE>\n", 47) == 0);
	ck_assert(memcmp(doc + len - 9, "</TRACE>\n", 9) == 0);
	unsigned char *z = test_write(zip, "tracexml", "zip=1", &len);
	profdata_profile *back = test_read_memory(z, len, NULL, PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(back);
	test_assert_equal(zip, back, "written with zip=1 and read back");
	unsigned char *frag = test_write(zip, "tracexml", "fragments=1,root=traceRoot", &len);
	ck_assert(memcmp(frag, "<node ", 6) == 0);
	profdata_profile *fb = test_read_memory(frag, len, NULL, PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(fb);
	test_assert_equal(zip, fb, "written as fragments and read back");
	free(doc);
	free(z);
	free(frag);
	profdata_profile_free(open);
	profdata_profile_free(zip);
	profdata_profile_free(back);
	profdata_profile_free(fb);
}
END_TEST

/* Two traces: an archive keeps them apart, one document joins them (with a warning). */
START_TEST(several_traces)
{
	if (!PD_HAVE_LIBARCHIVE)
		return;
	const profdata_events *b = profdata_profile_builder_events();
	profdata_profile *p;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	profdata_meta meta;
	memset(&meta, 0, sizeof meta);
	meta.format = "tracexml";
	ck_assert_int_eq(b->begin(p, &meta), 0);
	for (uint32_t k = 1; k <= 2; k++) {
		profdata_trace_context c = { PROFDATA_TRACE_CONTEXT_BEGIN, k, 0, NULL, NULL, 0, NULL, 0 };
		profdata_trace_context opt = { PROFDATA_TRACE_CONTEXT_OPTION, k, 0, "TICKET", "true", 0, NULL, 0 };
		profdata_trace_event e = { PROFDATA_TRACE_METHOD_ENTRY, 0, 5000000000ULL + k, 1, 10, 0, 0, k, 1, 0, NULL, 0 };
		ck_assert_int_eq(b->trace_context(p, &c), 0);
		ck_assert_int_eq(b->trace_context(p, &opt), 0);
		ck_assert_int_eq(b->trace_event(p, &e), 0);
	}
	ck_assert_int_eq(b->end(p), 0);
	size_t len;
	unsigned char *z = test_write(p, "tracexml", "zip=1", &len);
	profdata_profile *back = test_read_memory(z, len, "tracexml", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(back);
	test_assert_equal(p, back, "two traces through an archive");
	unsigned char *doc = test_write(p, "tracexml", NULL, &len);
	profdata_profile *joined = test_read_memory(doc, len, "tracexml", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(joined);
	ck_assert_uint_eq(profdata_profile_count(joined, PROFDATA_TABLE_TRACE_CONTEXTS), 3);
	free(z);
	free(doc);
	profdata_profile_free(p);
	profdata_profile_free(back);
	profdata_profile_free(joined);
}
END_TEST

START_TEST(sniffing)
{
	const profdata_format *tx = profdata_format_find("tracexml");
	ck_assert_ptr_nonnull(tx);
	const char *yes[] = { "<?xml version=\"1.0\"?>\n<TRACE>\n<node nodeId=\"1\"/>", "\xEF\xBB\xBF<traceRoot>",
	                      "<methodEntry threadIdRef=\"1\"/>", "  <TRACE>" };
	const char *no[] = { "<?xml version=\"1.0\"?>\n<html><body/></html>", "<svg xmlns=\"x\"/>", "hello" };
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		ck_assert_msg(profdata_format_sniff(yes[i], strlen(yes[i])) == tx, "%s", yes[i]);
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		ck_assert_msg(profdata_format_sniff(no[i], strlen(no[i])) != tx, "%s", no[i]);
	/* A ZIP whose first entry is not a trace. */
	static const unsigned char other_zip[40] = { 'P', 'K', 3, 4, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	                                             0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 'a', '.', 't', 'x', 't' };
	ck_assert_ptr_null(profdata_format_sniff(other_zip, sizeof other_zip));
}
END_TEST

START_TEST(billion_laughs_is_bounded)
{
	char doc[4096] = "<?xml version=\"1.0\"?>\n<!DOCTYPE TRACE [\n<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">\n";
	for (int i = 1; i < 10; i++) {
		char line[200];
		snprintf(line, sizeof line, "<!ENTITY %c \"&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;\">\n", 'a' + i,
		         'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1,
		         'a' + i - 1, 'a' + i - 1, 'a' + i - 1);
		strcat(doc, line);
	}
	strcat(doc, "]>\n<TRACE>\n<tag name=\"x\" value=\"&j;\"/>\n</TRACE>\n");
	char why[512] = "";
	profdata_profile *p = from_text(doc, PROFDATA_MODE_STRICT, why, sizeof why);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(why, "line") != NULL, "%s", why);
}
END_TEST

/* No external entity or DTD is read: the reference stays unexpanded, the file is never opened. */
START_TEST(no_external_entities)
{
	const char *doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE TRACE SYSTEM \"/nonexistent/trace.dtd\" [\n"
	                  "<!ENTITY ext SYSTEM \"file:///etc/passwd\">\n]>\n<TRACE>\n<tag name=\"x\">&ext;</tag>\n</TRACE>\n";
	profdata_profile *p = from_text(doc, PROFDATA_MODE_PERMISSIVE, NULL, 0);
	if (p) {
		for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS); i++) {
			profdata_trace_event t;
			profdata_profile_trace_event(p, i, &t);
			for (size_t k = 0; k < t.nattrs; k++)
				ck_assert_ptr_null(strstr(t.attrs[k].value, "root:"));
		}
		profdata_profile_free(p);
	}
}
END_TEST

START_TEST(depth_is_bounded)
{
	char doc[2048] = "<TRACE>";
	for (int i = 0; i < 100; i++)
		strcat(doc, "<value>");
	char why[512] = "";
	ck_assert_ptr_null(from_text(doc, PROFDATA_MODE_STRICT, why, sizeof why));
	ck_assert_msg(strstr(why, "deeper") != NULL, "%s", why);
}
END_TEST

START_TEST(attribute_size_is_bounded)
{
	size_t n = (1u << 20) + 64;
	char *doc = malloc(n + 64);
	ck_assert_ptr_nonnull(doc);
	strcpy(doc, "<TRACE><tag name=\"");
	size_t at = strlen(doc);
	memset(doc + at, 'x', n);
	strcpy(doc + at + n, "\"/></TRACE>");
	char why[512] = "";
	ck_assert_ptr_null(from_text(doc, PROFDATA_MODE_STRICT, why, sizeof why));
	ck_assert_msg(strstr(why, "1 MiB") != NULL, "%s", why);
	free(doc);
}
END_TEST

/* Strict reads (profdata check) warn of ids used before their definition and of unpaired tickets. */
START_TEST(check_ids_and_tickets)
{
	const char *doc = "<TRACE>\n<threadStart threadId=\"1\"/>\n"
	                  "<methodEntry threadIdRef=\"1\" methodIdRef=\"9\" ticket=\"1\"/>\n"
	                  "<methodExit threadIdRef=\"1\" methodIdRef=\"9\" ticket=\"2\"/>\n</TRACE>\n";
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, doc, strlen(doc), "check"), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.mode = PROFDATA_MODE_STRICT;
	profdata_profile *p = NULL;
	ck_assert_int_eq(profdata_read(&p, r, &o), 0);
	/* method 9 twice, ticket 2 exited unentered, ticket 1 never exited */
	ck_assert_uint_eq(profdata_reader_warning_count(r), 4);
	ck_assert_ptr_nonnull(strstr(profdata_reader_warning(r, 0)->message, "line 3, column"));
	profdata_profile_free(p);
	profdata_reader_free(r);
}
END_TEST

/* Malformed XML: line, column and byte offset; permissive mode keeps what came before. */
START_TEST(malformed_input)
{
	const char *doc = "<?xml version=\"1.0\"?>\n<TRACE>\n<methodEntry threadIdRef=\"1\" methodIdRef=\"2\"/>\n"
	                  "<methodExit threadIdRef=\"1\" <oops/>\n";
	char why[512] = "";
	ck_assert_ptr_null(from_text(doc, PROFDATA_MODE_STRICT, why, sizeof why));
	ck_assert_msg(strstr(why, "line 4") && strstr(why, "column") && strstr(why, "byte"), "%s", why);
	profdata_profile *p = from_text(doc, PROFDATA_MODE_PERMISSIVE, NULL, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_METHOD_ENTRY, NULL), 1);
	profdata_profile_free(p);
}
END_TEST

/* HPROF -> tracexml: classes, methods and threads come out as their defining elements. */
START_TEST(from_hprof)
{
	char path[1024];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "hprof/jdk17-threads.hprof"), NULL,
	                                PROFDATA_MODE_PERMISSIVE);
	size_t len;
	unsigned char *doc = test_write(p, "tracexml", NULL, &len);
	profdata_profile *q = test_read_memory(doc, len, "tracexml", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_CLASSES), profdata_profile_count(p, PROFDATA_TABLE_CLASSES));
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_THREADS), profdata_profile_count(p, PROFDATA_TABLE_THREADS));
	free(doc);
	profdata_profile_free(p);
	profdata_profile_free(q);
}
END_TEST

static const struct {
	const char *file;
	size_t elements, entries;
} corpus[] = {
	{ "statechum_1.trcxml", 14139, 6813 },
	{ "statechum_part1.trcxml", 44245, 21812 },
	{ "statechum_part2.trcxml", 9226, 4316 },
};

START_TEST(corpus_traces)
{
	if (!PD_HAVE_LIBARCHIVE)
		return; /* the real traces are .trcxml archives */
	const char *dir = test_corpus_dir();
	ck_assert_ptr_nonnull(dir);
	char path[4096];
	snprintf(path, sizeof path, "%s/tracexml/%s", dir, corpus[_i].file);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	size_t events = profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS);
	size_t contexts = profdata_profile_count(p, PROFDATA_TABLE_TRACE_CONTEXTS);
	ck_assert_uint_eq(events + contexts - 1, corpus[_i].elements); /* less the trace's begin */
	ck_assert_uint_eq(count_kind(p, PROFDATA_TRACE_METHOD_ENTRY, NULL), corpus[_i].entries);
	size_t len, len2;
	unsigned char *doc = test_write(p, "tracexml", NULL, &len);
	profdata_profile *q = test_read_memory(doc, len, "tracexml", PROFDATA_MODE_STRICT, NULL, 0);
	ck_assert_ptr_nonnull(q);
	test_assert_equal(p, q, corpus[_i].file);
	unsigned char *again = test_write(q, "tracexml", NULL, &len2);
	ck_assert(len == len2 && memcmp(doc, again, len) == 0);
	char *folded = test_folded(p, &len2);
	uint64_t total = 0;
	for (const char *s = folded; (s = strchr(s, '\n')) != NULL; s++) {
		const char *sp = s;
		while (sp[-1] != ' ')
			sp--;
		total += strtoull(sp, NULL, 10);
	}
	ck_assert_uint_eq(total, corpus[_i].entries);
	free(folded);
	free(doc);
	free(again);
	profdata_profile_free(p);
	profdata_profile_free(q);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("tracexml");
	TCase *tc = tcase_create("tracexml");
	tcase_add_test(tc, every_element_is_read);
	tcase_add_test(tc, times_are_exact_and_text_is_kept);
	tcase_add_test(tc, reused_ids_resolve_to_the_definition_in_force);
	tcase_add_test(tc, layouts_read_alike);
	tcase_add_test(tc, several_traces);
	tcase_add_test(tc, sniffing);
	tcase_add_test(tc, billion_laughs_is_bounded);
	tcase_add_test(tc, no_external_entities);
	tcase_add_test(tc, depth_is_bounded);
	tcase_add_test(tc, attribute_size_is_bounded);
	tcase_add_test(tc, check_ids_and_tickets);
	tcase_add_test(tc, malformed_input);
	tcase_add_test(tc, from_hprof);
	suite_add_tcase(s, tc);
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_add_loop_test(tc, corpus_traces, 0, sizeof corpus / sizeof corpus[0]);
		suite_add_tcase(s, tc);
	}
	return s;
}
