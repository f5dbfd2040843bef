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


/* Append v compressed: 7 bits a byte, low first, the ninth byte whole. 0 or PROFDATA_ENOMEM. */
int jw_varint(pd_strbuf *b, uint64_t v);
/* Append a string: empty (encoding 1) or UTF-8 (encoding 3, its length, its bytes). */
int jw_string(pd_strbuf *b, const char *s, size_t n);
/* Append an event: its size (which counts itself), then `body` (its type id and fields) and `rest` (or NULL). */
int jw_event(pd_strbuf *out, const pd_strbuf *body, const pd_strbuf *rest);
/* Append the metadata event declaring the types above, stamped `ticks`. */
int jw_metadata(pd_strbuf *out, uint64_t ticks);

int pd_jfr_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts);

#endif
