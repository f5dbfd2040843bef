/* SPDX-License-Identifier: Apache-2.0 */
/* The HPROF codec on the real files of the shared corpus: the hprof suite's "corpus" case (skipped without it). */
#include "test-hprof-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const corpus[] = { "hprof-slurp_hprof-32.bin", "hprof-slurp_hprof-64.bin" };

static const char *corpus_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/hprof/%s", test_corpus_dir(), name);
	return buf;
}

START_TEST(corpus_round_trips)
{
	char path[4096];
	hprof_round_trips(corpus_path(path, sizeof path, corpus[_i]));
}
END_TEST

START_TEST(corpus_objects_match_visualvm)
{
	char path[4096], histo[4096], rel[512];
	profdata_profile *p = test_read(corpus_path(path, sizeof path, corpus[_i]), NULL, PROFDATA_MODE_STRICT);
	snprintf(rel, sizeof rel, "hprof/visualvm/%s.histo.tsv", corpus[_i]);
	ck_assert_int_eq((long)profdata_profile_count(p, PROFDATA_TABLE_OBJECTS),
	                 hprof_visualvm_instances(test_data_path(histo, sizeof histo, rel)));
	profdata_profile_free(p);
}
END_TEST

START_TEST(agent_file_has_the_agent_records)
{
	char path[4096];
	profdata_profile *p = test_read(corpus_path(path, sizeof path, corpus[0]), NULL, PROFDATA_MODE_STRICT);
	const profdata_meta *m = profdata_profile_meta(p);
	ck_assert_str_eq(m->version, "JAVA PROFILE 1.0.1");
	ck_assert_uint_eq(m->id_size, 4);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_CONTROL_SETTINGS), 1);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_ALLOC_SITES), 1);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_THREADS), 5);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), 216);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FRAMES), 365);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_DUMPS), 1);
	profdata_profile_free(p);
}
END_TEST

/* HotSpot's 1.0.1 file comes out of a streaming conversion byte for byte. */
START_TEST(hotspot_file_rewritten_identically)
{
	char path[4096];
	size_t len, out_len;
	unsigned char *orig = test_slurp(corpus_path(path, sizeof path, corpus[1]), &len);
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

TCase *hprof_corpus_case(void)
{
	TCase *tc = tcase_create("corpus");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, corpus_round_trips, 0, 2);
	tcase_add_loop_test(tc, corpus_objects_match_visualvm, 0, 2);
	tcase_add_test(tc, agent_file_has_the_agent_records);
	tcase_add_test(tc, hotspot_file_rewritten_identically);
	return tc;
}
