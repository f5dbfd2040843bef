/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The test support unit: what the Check suites share (main.c is every test
 * program's main; each suite file defines suite_main()).
 */
#ifndef PD_TEST_SUPPORT_H
#define PD_TEST_SUPPORT_H

/* The heap option node_bits the heap suites ask for: 0 (the analysis picks), 64 in their -w64 runs. */
#ifndef PD_TEST_NODE_BITS
#define PD_TEST_NODE_BITS 0
#endif

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include <profdata/profdata.h>

/* The suite of this test program. */
Suite *suite_main(void);

/*
 * Test cases that need something a machine may lack run apart: each is its
 * own Meson test (tests/meson.build runs the program with CK_RUN_CASE=<case>),
 * and that program exits 77 (skipped, with the reason) when the need is not
 * met, instead of returning early and counting as a pass. A suite adds such a
 * case only when it is the one asked for:
 *
 *     if (test_case_requested("corpus")) { tc = tcase_create("corpus"); ... }
 *
 * The names and their needs:
 *   "corpus"      the corpus folder (PROFDATA_CORPUS, else -Dcorpus, else
 *                 ../shared/corpus beside the source root);
 *   "beyond-4gib" 64-bit sizes and a sparse file of 6 GiB in /tmp;
 *   "big"         a run outside valgrind (PD_UNDER_VALGRIND unset): inputs
 *                 of a million objects or hundreds of MiB, which take
 *                 minutes under it.
 */
int test_case_requested(const char *name);

/* Why the case `name` cannot run here, or NULL when it can (or needs nothing). */
const char *test_unmet_need(const char *name);

/* Absolute path of a file under tests/data, written to buf. */
const char *test_data_path(char *buf, size_t len, const char *rel);

/* The corpus folder (PROFDATA_CORPUS, else the -Dcorpus option, else
 * ../shared/corpus beside the source root), or NULL when it is absent. */
const char *test_corpus_dir(void);

/* Read a whole file into memory (malloc'd); NULL on failure. */
unsigned char *test_slurp(const char *path, size_t *len);

/* Read `path` into a model, failing the test with the reader's error otherwise. */
profdata_profile *test_read(const char *path, const char *format, int mode);

/* Write `p` as `format` with `options` into memory; returns malloc'd bytes. */
unsigned char *test_write(const profdata_profile *p, const char *format, const char *options, size_t *len);
/* Writing p as format (with options) fails with `code`, and the error's message holds `says`. */
void test_assert_write_refused(const profdata_profile *p, const char *format, const char *options, int code,
                               const char *says);

/* Read a memory buffer into a model (NULL with the error text in msg on failure). */
profdata_profile *test_read_memory(const void *buf, size_t len, const char *format, int mode,
                                   char *msg, size_t msg_len);

/* What `p` exports as folded stacks, NUL-terminated (malloc'd); *len gets its length when not NULL. */
char *test_folded(const profdata_profile *p, size_t *len);

/* The sum of the first value of every sample. */
uint64_t test_total_count(const profdata_profile *p);

/* The name of class `class_id`, or NULL when there is no such class (or the id is 0). */
const char *test_class_name(const profdata_profile *p, uint64_t class_id);

/* Fails the test, naming `what` (may be NULL) and the first difference, unless a and b are equal models. */
void test_assert_equal(const profdata_profile *a, const profdata_profile *b, const char *what);

/*
 * A CPU profile as a JVM profiler would emit it, through the builder, in
 * HPROF's order: strings (ids first_string_id, first_string_id + 1, ...),
 * functions, frames, stacks, then class loads (after the stacks, as HPROF
 * files have them), the sample type, the sample group and the samples.
 * Empty arrays and NULL sample type or group emit nothing.
 */
typedef struct test_cpu_profile {
	profdata_meta meta;
	const char *const *strings;
	size_t nstrings;
	uint64_t first_string_id;
	const profdata_function *functions;
	size_t nfunctions;
	const profdata_frame *frames;
	size_t nframes;
	const profdata_stack *stacks;
	size_t nstacks;
	const profdata_class_load *class_loads;
	size_t nclass_loads;
	const profdata_sample_type *sample_type;
	const profdata_sample_group *sample_group;
	const profdata_sample *samples;
	size_t nsamples;
} test_cpu_profile;
profdata_profile *test_build_cpu_profile(const test_cpu_profile *spec);

/*
 * Text that `format` reads strictly fails with PROFDATA_EFORMAT, a message
 * holding `what`, at `line` and byte `offset`; read permissively it reads
 * (with a warning). The error tests of the text readers.
 */
void test_assert_text_damage(const char *text, const char *format, const char *what, uint64_t line, uint64_t offset);

/*
 * A callback source (profdata_reader_open_callbacks with test_chunk_read)
 * handing out at most `step` bytes per call: no mapping, small windows. With
 * `vary`, the step changes after every call, so reads end at ever other places.
 */
typedef struct test_chunks {
	const unsigned char *bytes;
	size_t len, pos, step;
	int vary;
} test_chunks;
long test_chunk_read(void *payload, void *buf, size_t len);

#endif
