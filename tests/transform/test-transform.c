/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The transforms (lib/transform/): the chain that puts them in front of a
 * consumer (transform.c), refs_to_payloads, trace_stacks and sum_samples. What
 * refs_to_payloads makes of classic heapdumps, whose objects list
 * references, is tested with the conversions in
 * tests/codecs/ibm-classic/test-classic-hprof.c; symbolize has a suite of
 * its own, test-symbolize.c.
 */
#include "support.h"
#include "transform/transform.h"

#include <stdlib.h>
#include <string.h>

/*
 * refs_to_payloads has nothing to do on an input with payloads: a model
 * replayed through it builds the same model; a chain without transforms
 * hands the consumer's own table back.
 */
START_TEST(transform_passes_payload_inputs_through)
{
	char path[512], why[256] = "";
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "hprof/jdk17-types.hprof"), "hprof",
	                                PROFDATA_MODE_STRICT);
	profdata_profile *q;
	profdata_events ev;
	pd_diag diag;
	pd_transform_chain *chain;
	const pd_transform_desc *const descs[] = { &pd_transform_refs_to_payloads, NULL };

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(profdata_profile_new(&q), 0);
	profdata_profile_builder(&ev);
	pd_diag_init(&diag, "test");
	ck_assert_int_eq(pd_transform_chain_new(&chain, NULL, &ev, q, &diag, NULL), 0);
	ck_assert_ptr_eq(pd_transform_chain_events(chain), &ev);
	ck_assert_ptr_eq(pd_transform_chain_payload(chain), q);
	pd_transform_chain_free(chain);

	ck_assert_int_eq(pd_transform_chain_new(&chain, descs, &ev, q, &diag, NULL), 0);
	ck_assert_ptr_ne(pd_transform_chain_events(chain), &ev);
	ck_assert_int_eq(profdata_profile_replay(p, pd_transform_chain_events(chain), pd_transform_chain_payload(chain)), 0);
	ck_assert_int_eq(pd_transform_chain_finish(chain), 0);
	pd_transform_chain_free(chain);
	ck_assert_uint_eq(diag.nwarnings, 0);
	ck_assert_msg(profdata_profile_equal(p, q, why, sizeof why), "%s", why);
	pd_diag_free(&diag);
	profdata_profile_free(p);
	profdata_profile_free(q);
}
END_TEST

/*
 * trace_stacks: method traces become call stacks and samples, the same
 * whether a model is written (profdata_write) or a stream converted
 * (profdata_convert).
 */
START_TEST(write_and_convert_derive_alike)
{
	char path[1024];
	test_data_path(path, sizeof path, "tracexml/every-element.xml");
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	size_t len;
	unsigned char *folded = test_write(p, "folded", NULL, &len);
	profdata_reader *r;
	profdata_writer *w;
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	wo.format = "folded";
	ck_assert_int_eq(profdata_convert(r, NULL, w, &wo), 0);
	size_t clen;
	const void *conv;
	ck_assert_int_eq(profdata_writer_close(w), 0);
	ck_assert_int_eq(profdata_writer_memory(w, &conv, &clen), 0);
	ck_assert_uint_eq(clen, len);
	ck_assert(memcmp(conv, folded, len) == 0);
	char *text = calloc(1, len + 1);
	ck_assert_ptr_nonnull(text);
	memcpy(text, folded, len);
	ck_assert_ptr_nonnull(strstr(text, "com.example.Main.main;com.example.Main.<init> 1\n"));
	free(text);
	free(folded);
	profdata_reader_free(r);
	profdata_writer_free(w);
	profdata_profile_free(p);
}
END_TEST

/*
 * sum_samples: a perf script of 300 samples reaches the model as one
 * sample per stack, its values summed, in the order of each stack's first
 * sample; the folded stacks written from either are the same bytes.
 */
START_TEST(samples_are_summed_per_stack)
{
	char path[512];
	profdata_profile *p = test_read(test_data_path(path, sizeof path, "perf-script/fp.perf"), NULL,
	                                PROFDATA_MODE_STRICT);
	profdata_profile *q;
	profdata_events ev;
	pd_diag diag;
	pd_transform_chain *chain;
	const pd_transform_desc *const descs[] = { &pd_transform_sum_samples, NULL };
	ck_assert_int_eq(profdata_profile_new(&q), 0);
	profdata_profile_builder(&ev);
	pd_diag_init(&diag, "test");
	ck_assert_int_eq(pd_transform_chain_new(&chain, descs, &ev, q, &diag, NULL), 0);
	ck_assert_int_eq(profdata_profile_replay(p, pd_transform_chain_events(chain), pd_transform_chain_payload(chain)), 0);
	ck_assert_int_eq(pd_transform_chain_finish(chain), 0);
	pd_transform_chain_free(chain);

	size_t nstacks = profdata_profile_count(p, PROFDATA_TABLE_STACKS);
	ck_assert_uint_gt(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), nstacks);
	ck_assert_uint_eq(profdata_profile_count(q, PROFDATA_TABLE_SAMPLES), nstacks);
	ck_assert_uint_eq(test_total_count(q), test_total_count(p));
	for (size_t i = 0; i < nstacks; i++) {
		profdata_sample a;
		profdata_profile_sample(q, i, &a);
		ck_assert_uint_eq(a.time_ns, 0);
	}
	char *want = test_folded(p, NULL), *got = test_folded(q, NULL);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	pd_diag_free(&diag);
	profdata_profile_free(p);
	profdata_profile_free(q);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("transform");
	TCase *tc = tcase_create("transform");
	tcase_add_test(tc, transform_passes_payload_inputs_through);
	tcase_add_test(tc, write_and_convert_derive_alike);
	tcase_add_test(tc, samples_are_summed_per_stack);
	suite_add_tcase(s, tc);
	return s;
}
