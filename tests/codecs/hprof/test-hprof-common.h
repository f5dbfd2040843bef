/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the HPROF suite's files (test-hprof.c, test-hprof-corpus.c). */
#ifndef PD_TEST_HPROF_COMMON_H
#define PD_TEST_HPROF_COMMON_H

#include "support.h"

/*
 * The round trips every HPROF fixture must pass: read -> write (version=source)
 * -> read equal; writing twice gives the same bytes; the default 1.0.2 output
 * and the 1.0.1 output read back equal apart from the version text and the
 * dump kind; a streaming conversion reads back equal; identifier size
 * changes read back equal or fail with PROFDATA_ERANGE.
 */
void hprof_round_trips(const char *path);

/* Sum of the instance counts of a VisualVM histogram (tests/data/hprof/visualvm). */
long hprof_visualvm_instances(const char *histo_path);

/* A copy of `p` with another version text and every dump of `kind` (-1 keeps kinds). */
profdata_profile *hprof_normalized(const profdata_profile *p, const char *version, unsigned id_size, int kind);

/* The "corpus" case: the real files of the shared corpus (test-hprof-corpus.c). */
TCase *hprof_corpus_case(void);

#endif
