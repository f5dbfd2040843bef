/* SPDX-License-Identifier: Apache-2.0 */
/* The decoder's state, shared by decode.c (expat), elements.c (events) and zip.c (archives). */
#ifndef PD_TRACEXML_DECODE_H
#define PD_TRACEXML_DECODE_H

/* Debian's expat is built with XML_DTD: declare what that adds (the entity-amplification limits). */
#ifndef XML_DTD
#define XML_DTD 1
#endif
#include <expat.h>

#include "tracexml.h"
#include "util/hashmap.h"

/*
 * Ids in force: a transient id may be defined again after its undefining
 * element (a thread id reused by a later thread). The first definition of
 * an id keeps it; a later one gets a fresh id from synth_base on, so that
 * the model never holds two rows with one id.
 */
typedef struct tx_ids {
	pd_map now;          /* file id -> 1 (itself) or 2 + index of its fresh id */
	pd_map used;         /* file ids ever defined */
	uint64_t max_identity, synth_base, nsynth;
} tx_ids;

typedef struct tx_decoder {
	const pd_decode_args *a;
	XML_Parser parser;
	int depth;                 /* 1: the root (ours for fragments) */
	int inner_root;            /* TRACE/traceRoot containers open where trace elements stand */
	int fragments, root_closed, broken;
	char root[64];
	uint64_t prefix_len;       /* bytes of our own root before a fragment stream */
	uint64_t doc_offset;       /* where the document starts in the input */
	const char *entry;         /* archive entry name, or NULL */
	int rc;                    /* what stopped the parser */
	uint32_t trace;
	uint64_t nevents, nelements;
	pd_intern strings;         /* string id = index + 1 */
	tx_ids threads, classes, methods;
	pd_map class_serial_of;    /* class id in force -> class serial */
	uint32_t nclasses;
	uint64_t *class_source;    /* class serial -> string id of its sourceName */
	size_t class_source_cap;
	profdata_kv kv[TX_MAX_ATTRS];
	pd_strbuf text;            /* character data of the element at text_depth */
	int text_depth;
	pd_strbuf name;            /* scratch for names converted to the model's form */
	/* strict mode (profdata check): tickets entered (1) and exited (2), and those open */
	pd_map tickets;
	uint64_t open_tickets;
} tx_decoder;

int tx_decoder_init(tx_decoder *d, const pd_decode_args *a);
void tx_decoder_free(tx_decoder *d);
int tx_document_begin(tx_decoder *d, const char *entry, const unsigned char *head, size_t len);
int tx_document_feed(tx_decoder *d, const void *buf, size_t len);
int tx_document_end(tx_decoder *d);
/* A value too long to keep: ends the document as damage (1), else 0. */
int tx_value_too_long(tx_decoder *d, const char *v);
/* A warning at the parser's position: "<what> <value>" with line, column and byte. */
void tx_warn_here(tx_decoder *d, const char *what, uint64_t value);
int tx_string(tx_decoder *d, const char *s, size_t len, uint64_t *id);
int tx_define(tx_ids *s, uint64_t id, uint64_t *out);
uint64_t tx_resolve(const tx_ids *s, uint64_t id);
/* A depth-2 element that is a trace event (elements.c). */
int tx_emit_event(tx_decoder *d, unsigned kind, const char *name, const XML_Char **atts);
/* A .trcxml archive (zip.c); PROFDATA_EUNSUPPORTED when built without libarchive. */
int tx_decode_zip(tx_decoder *d);

#endif
