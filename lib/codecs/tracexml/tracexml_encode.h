/* SPDX-License-Identifier: Apache-2.0 */
/* The encoder's state, shared by encode.c (elements), symbols.c (definitions) and zip.c (archives). */
#ifndef PD_TRACEXML_ENCODE_H
#define PD_TRACEXML_ENCODE_H

#include "tracexml.h"
#include "util/hashmap.h"

typedef struct tx_class {
	uint64_t id, name_id;
	uint64_t time_us;
	int written;
} tx_class;

typedef struct tx_function {
	profdata_function f;
	int written;
} tx_function;

typedef struct tx_thread {
	profdata_thread_start start;
	profdata_thread_end end;
	int has_end, start_written, end_written;
} tx_thread;

typedef struct tx_encoder {
	profdata_writer *w;
	const char *root;
	int fragments, zip;
	pd_strbuf out;                 /* bytes not yet handed to the writer or the archive */
	/* open elements: names (NUL-separated) and where each starts */
	pd_strbuf names;
	size_t name_off[TX_MAX_DEPTH + 1];
	unsigned open;
	int tag_open;                  /* the last start tag lacks its '>' */
	int in_trace;
	uint64_t ntraces;
	/* what defining elements name */
	pd_strbuf strtext;
	size_t *str_off, nstr, str_cap;
	pd_map str_ix;                 /* string id -> index + 1 */
	tx_class *classes;
	size_t nclasses, classes_cap;
	pd_map class_ix, class_serial_ix;
	tx_function *functions;
	size_t nfunctions, functions_cap;
	pd_map function_ix;
	tx_thread *threads;
	size_t nthreads, threads_cap;
	pd_map thread_ix;
	uint64_t merged_traces;
	uint64_t lost_samples, lost_objects, lost_other, lost_events, lost_contexts;
	void *archive;                 /* struct archive * when zip */
	int entry_open;
} tx_encoder;

int tx_begin_trace(tx_encoder *x, const char *entry, int force);
int tx_end_trace(tx_encoder *x);
int tx_open_element(tx_encoder *x, const char *name, unsigned level);
int tx_close_all(tx_encoder *x);
int tx_put_attr(tx_encoder *x, const char *key, const char *value);
int tx_put_u64(tx_encoder *x, const char *key, uint64_t v);
int tx_put_typed(tx_encoder *x, const profdata_trace_event *t);

/* symbols.c */
const char *tx_encoder_string(const tx_encoder *x, uint64_t id);
int tx_on_string(void *payload, uint64_t id, const char *utf8, size_t len);
int tx_on_class_load(void *payload, const profdata_class_load *c);
int tx_on_function(void *payload, const profdata_function *f);
int tx_on_thread_start(void *payload, const profdata_thread_start *t);
int tx_on_thread_end(void *payload, const profdata_thread_end *t);
int tx_on_sample(void *payload, const profdata_sample *s);
int tx_on_object(void *payload, const profdata_object *o);
int tx_on_other_stack(void *payload, const profdata_stack *s);
int tx_on_other_sites(void *payload, const profdata_alloc_sites *a);
int tx_on_other_root(void *payload, const profdata_root *r);
/* The attributes a defining element takes from its row (classDef's name, ...), marking the row written. */
int tx_put_definition(tx_encoder *x, const profdata_trace_event *t);
/* Rows no defining element wrote (a source without trace events). */
int tx_write_definitions(tx_encoder *x);
void tx_symbols_free(tx_encoder *x);

/* zip.c */
int tx_zip_entry(tx_encoder *x, const char *name);
int tx_zip_write(tx_encoder *x, const void *buf, size_t len);
int tx_zip_close(tx_encoder *x);
void tx_zip_free(tx_encoder *x);

#endif
