/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JDK Flight Recorder: what the writer's files share (doc/formats-jfr.md,
 * "Writing"). write_meta.c declares the types the writer uses in a
 * metadata event of its own; write.c turns a profile into one chunk of
 * events and a checkpoint of constant pools. Every integer is written
 * compressed, as the JDK writes it.
 */
#ifndef PD_JFR_WRITE_H
#define PD_JFR_WRITE_H

#include "internal.h"

/* The types the writer declares, in the order write_meta.c lists them; JW_ID() is each one's class id. */
enum {
	JW_LONG, JW_INT, JW_BOOLEAN, JW_STRING, JW_TIMESTAMP, JW_THREAD, JW_SYMBOL, JW_CLASS, JW_METHOD,
	JW_FRAME_TYPE, JW_STACK_FRAME, JW_STACK_TRACE, JW_THREAD_STATE, JW_EXECUTION_SAMPLE,
	JW_ALLOCATION_SAMPLE, JW_NTYPES
};
/* Ids 0 and 1 are the metadata and checkpoint events': the types number from 100, clear of them. */
#define JW_ID(type) ((uint64_t)(type) + 100)
/*
 * The class id each type is declared with (write_kept.c): JW_ID(type), or
 * beside kept chunks (JFR -> JFR) the first ids from there that none of them
 * uses. 0 or PROFDATA_ENOMEM.
 */
int jw_type_ids(const profdata_profile *p, uint64_t ids[JW_NTYPES]);


/* Append v compressed: 7 bits a byte, low first, the ninth byte whole. 0 or PROFDATA_ENOMEM. */
int jw_varint(pd_strbuf *b, uint64_t v);
/* Append a string: empty (encoding 1) or UTF-8 (encoding 3, its length, its bytes). */
int jw_string(pd_strbuf *b, const char *s, size_t n);
/* Append an event: its size (which counts itself), then `body` (its type id and fields) and `rest` (or NULL). */
int jw_event(pd_strbuf *out, const pd_strbuf *body, const pd_strbuf *rest);
/*
 * Append the metadata event declaring the types above by `ids`, stamped
 * `ticks`, numbered `id`: the JDK's reader keeps a chunk's types for the next chunk
 * whose metadata has the same number, so it must differ from the one before.
 */
int jw_metadata(pd_strbuf *out, uint64_t ticks, uint64_t id, const uint64_t ids[JW_NTYPES]);

/* write_kept.c: whether p holds events a recording's reader kept unread (p read from JFR). */
int jw_has_kept(const profdata_profile *p);
/*
 * Write them back, chunk by chunk, through `out` and `body` (scratch); `ends`:
 * no chunk of samples follows, so the last is marked the recording's last.
 * *meta_id: the number of the last chunk's metadata (0 none). The chunks
 * written (0 or more), an error said on w, or PROFDATA_ENOMEM.
 */
int jw_write_kept(const profdata_profile *p, profdata_writer *w, pd_strbuf *out, pd_strbuf *body, int ends,
                  uint64_t *meta_id);

int pd_jfr_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts);

#endif
