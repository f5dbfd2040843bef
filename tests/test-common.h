/* Shared by the Check suites: each suite file defines suite_main(). */
#ifndef PD_TEST_COMMON_H
#define PD_TEST_COMMON_H

#include <check.h>
#include <stddef.h>

#include <profdata/profdata.h>

/* The suite of this test program. */
Suite *suite_main(void);

/* Absolute path of a file under tests/data (static buffer per call site is not
 * used: the result is written to buf). */
const char *test_data_path(char *buf, size_t len, const char *rel);

/* The shared corpus folder (../shared/corpus from the source root), or NULL
 * when this checkout has none. */
const char *test_corpus_dir(void);

/* Read a whole file into memory (malloc'd); NULL on failure. */
unsigned char *test_slurp(const char *path, size_t *len);

/* Read `path` into a model, failing the test with the reader's error otherwise. */
profdata_profile *test_read(const char *path, const char *format, int mode);

/* Write `p` as `format` with `options` into memory; returns malloc'd bytes. */
unsigned char *test_write(const profdata_profile *p, const char *format, const char *options, size_t *len);

/* Read a memory buffer into a model (NULL with the error text in msg on failure). */
profdata_profile *test_read_memory(const void *buf, size_t len, const char *format, int mode,
                                   char *msg, size_t msg_len);

#endif
