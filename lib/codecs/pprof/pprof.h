/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pprof: what the descriptor (pprof.c), the reader (decode.c) and the
 * writer (encode.c) share.
 */
#ifndef PD_PPROF_H
#define PD_PPROF_H

#include "internal.h"

/*
 * The meta comments that carry the Profile fields the model has no field
 * of its own for (doc/formats-pprof.md): the reader makes them, the writer
 * puts them back in their fields instead of writing them as comments. A
 * pprof comment is kept as PPROF_KEY_COMMENT with the comment as its value.
 */
#define PPROF_KEY_PREFIX "pprof."
#define PPROF_KEY_COMMENT "pprof.comment"
#define PPROF_KEY_TIME "pprof.time_nanos"
#define PPROF_KEY_DURATION "pprof.duration_nanos"
#define PPROF_KEY_DROP "pprof.drop_frames"
#define PPROF_KEY_KEEP "pprof.keep_frames"
#define PPROF_KEY_DEFAULT_TYPE "pprof.default_sample_type"
#define PPROF_KEY_DOC_URL "pprof.doc_url"

/* The label keys whose value names the sample's thread (doc/formats-pprof.md). */
int pd_pprof_is_thread_label(const char *key, size_t len);

int pd_pprof_decode(const pd_decode_args *a);
int pd_pprof_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts);

#endif
