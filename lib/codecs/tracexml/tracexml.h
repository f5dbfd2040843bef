/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XML trace elements (IBM's patent US 7,007,269; Eclipse Hyades/TPTP's
 * trace format): what the decoder, the encoder and the descriptor share.
 * See doc/formats-tracexml.md.
 */
#ifndef PD_TRACEXML_H
#define PD_TRACEXML_H

#include "internal.h"

/* Bounds on what one element may hold (hostile input). */
#define TX_MAX_DEPTH 64
#define TX_MAX_ATTRS 256
#define TX_MAX_VALUE (1u << 20)  /* bytes of one attribute value or one element's text */

/* How an element of the trace maps to events. */
typedef enum tx_role {
	TX_ROLE_EVENT,    /* a profdata_trace_event of `kind` */
	TX_ROLE_CONTEXT   /* a profdata_trace_context of `context` */
} tx_role;

typedef struct tx_element {
	const char *name;
	uint8_t role;           /* tx_role */
	uint16_t kind;          /* profdata_trace_kind or profdata_trace_context_kind */
	const char *id_attr;    /* contexts: the attribute that is `id`; NULL none */
	const char *ref_attr;   /* contexts: the attribute that is `ref`; NULL none */
} tx_element;

/* Every element name of the DTD (and TPTP's), NULL-terminated; NULL for names it lacks. */
extern const tx_element tx_elements[];
const tx_element *tx_element_find(const char *name);
/* Whether an element of this name is a document's root: TRACE (TPTP) or traceRoot (the patent). */
int tx_is_root_name(const char *name);
/* Whether `p` (after a '<') names a root, TRACE or traceRoot, ended as a tag name ends. */
int tx_root_name_at(const unsigned char *p, size_t len);
/* The element written for a trace-event kind other than OTHER and NESTED. */
const char *tx_event_element_name(unsigned kind);
/* The element of a context kind, or NULL (BEGIN has none). */
const tx_element *tx_context_element(unsigned kind);

/*
 * The attribute names of the typed fields of a trace event, by kind: the
 * defining element of an id spells it without "Ref" (threadStart's
 * threadId, classDef's classId, methodDef's methodId, objAlloc's objId).
 */
typedef struct tx_typed_names {
	const char *thread, *method, *klass, *object;
} tx_typed_names;
void tx_typed_names_of(unsigned kind, tx_typed_names *out);

/* "seconds.fraction" (1 to 9 fraction digits) to nanoseconds, exactly; 0 when it is not one. */
int tx_parse_time(const char *s, uint64_t *ns);
/* A canonical non-zero decimal (no sign, no leading zero) that fits; 0 otherwise. */
int tx_parse_id(const char *s, uint64_t *out);
/* v in decimal into buf (at least 21 bytes, NUL-terminated); returns the length. */
size_t tx_format_u64(uint64_t v, char *buf);
/* Nanoseconds as "seconds.nnnnnnnnn" into buf (at least 32 bytes); returns the length. */
size_t tx_format_time(uint64_t ns, char *buf);

int pd_tracexml_decode(const pd_decode_args *a);
int pd_tracexml_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts);

/* The agent's constructor names: "-init-" <-> "<init>", "-clinit-" <-> "<clinit>"; NULL when not one. */
const char *tx_method_to_model(const char *name);
const char *tx_method_to_file(const char *name);

#endif
