/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HPROF agent's text output (java.hprof.txt): what the decoder's
 * files share. doc/formats-hprof-text.md describes the format and the
 * mapping.
 */
#ifndef PD_CODECS_HPROF_TEXT_H
#define PD_CODECS_HPROF_TEXT_H

#include "internal.h"
#include "util/hashmap.h"

/* What the decoder knows of a class name (internal form), by its index in `names`. */
typedef struct ht_class {
	uint32_t serial; /* the serial frames and sites name it by; 0 until needed */
	int loaded;      /* a class_load was sent for that serial */
} ht_class;

/* The heap record (CLS, OBJ, ARR) whose item lines are being read. */
typedef struct ht_record {
	char kind; /* 0 none, 'C', 'O', 'A' */
	uint64_t id, class_id, size, nelems;
	uint32_t trace;
	uint8_t okind, elem;
	uint32_t after;  /* OBJ: the slot after the last one an item took */
	uint64_t line, off;
	profdata_class_dump cd;
} ht_record;

/* A CLS record held to its dump's end (fields.c): its statics and constants are at these offsets of the pools. */
typedef struct ht_held_class {
	profdata_class_dump cd;
	size_t statics_off, constants_off;
} ht_held_class;

/* Instance field layouts (fields.c): per class, the reference field names its instances list, in order first seen. */
typedef struct ht_layout {
	uint64_t *names;     /* string ids, by slot */
	uint32_t *next_same; /* per slot: the next slot of its name, or UINT32_MAX */
	size_t n, cap, same_cap;
} ht_layout;

typedef struct ht_fields {
	pd_map layout_of;         /* class id -> index + 1 in layouts */
	ht_layout *layouts;
	size_t nlayouts, layouts_cap;
	pd_intern slot_keys;      /* {layout index, name} -> index in first_slot */
	uint32_t *first_slot;     /* the first slot of each key's name */
	size_t first_cap;
	char *key;                /* scratch: a key being looked up */
	size_t key_cap;
	ht_held_class *held;      /* the dump's CLS records */
	size_t nheld, held_cap;
	profdata_field *statics;  /* their statics, */
	size_t nstatics, statics_cap;
	profdata_constant *constants; /* their constants, */
	size_t nconstants, constants_cap;
	profdata_field *scratch;  /* a layout as fields, when sent */
	size_t scratch_cap;
} ht_fields;

/*
 * Nulls the text leaves out and the decoder fills in: one gap may not
 * outgrow the text read so far by more than HT_GAP_SLACK, nor all of them
 * HT_NULLS_PER_BYTE times it plus that (a null costs the model 8 bytes).
 */
#define HT_GAP_SLACK ((uint64_t)1 << 20)
#define HT_NULLS_PER_BYTE 8

typedef enum ht_state { HT_HEADER, HT_TOP, HT_TRACE, HT_CPU, HT_SITES, HT_HEAP, HT_VERBATIM } ht_state;

typedef struct ht_decoder {
	const pd_decode_args *a;
	profdata_reader *r;
	int mode;
	pd_lines ln;
	ht_state state;
	uint64_t section_line, section_off; /* where the open section began */

	pd_intern strings;   /* string id = index + 1 */
	pd_intern names;     /* class names, internal form */
	ht_class *classes;
	size_t classes_cap;
	pd_intern functions; /* "Class.method(Source" texts: function id = index + 1 */
	pd_intern frames;    /* frame texts: frame id = index + 1 */
	pd_map loaded_ids;   /* class ids a class_load was sent for */
	pd_map traces;       /* trace serial -> its thread serial + 1 */
	uint32_t next_serial;
	uint64_t max_id;     /* the largest object or class id read */
	pd_strbuf scratch;   /* a name converted; a section kept verbatim */

	/* the TRACE being read */
	uint32_t trace_serial, trace_thread;
	uint64_t *ids;       /* its frame ids; a heap record's references */
	size_t nids, ids_cap;
	uint64_t nulls;      /* nulls filled in between references so far (pd_ht_push_at) */

	/* CPU tables and SITES */
	int cpu_kind;        /* 0 none yet, 'S' samples, 'T' times */
	int64_t interval;
	uint64_t cpu_total;
	profdata_alloc_site *sites;
	size_t nsites, sites_cap;
	uint16_t sites_flags;

	/* the heap dump */
	ht_record rec;
	ht_fields fields;
	profdata_field *statics;
	size_t nstatics, statics_cap;
	profdata_constant *constants;
	size_t nconstants, constants_cap;
	const char *verbatim_end; /* the END line of a section kept verbatim */
	const char *verbatim_name;
} ht_decoder;

int pd_hprof_text_decode(const pd_decode_args *a);
/* The writer (encode.c): the whole profile in the agent's layout. */
int pd_hprof_text_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts);

/* Diagnostics: an error, or damage (a warning in permissive mode, returning 0). */
int pd_ht_error(ht_decoder *d, int code, const char *what);
int pd_ht_damage(ht_decoder *d, int code, const char *what);

/* Tables (names.c). */
int pd_ht_string(ht_decoder *d, const char *s, size_t len, uint64_t *id);
int pd_ht_class_serial(ht_decoder *d, const char *java_name, size_t len, uint32_t *serial);
int pd_ht_class_seen(ht_decoder *d, const char *java_name, size_t len, uint64_t id, uint64_t trace);
int pd_ht_frame(ht_decoder *d, const char *text, size_t len, uint64_t *id);
int pd_ht_load_the_rest(ht_decoder *d);
int pd_ht_elem_type(const char *java_name, size_t len);
void pd_ht_tables_free(ht_decoder *d);

/* The heap dump (heap.c). */
int pd_ht_heap_line(ht_decoder *d);
int pd_ht_heap_flush(ht_decoder *d);
int pd_ht_heap_end(ht_decoder *d);
void pd_ht_heap_free(ht_decoder *d);

/* Instance field names and held CLS records (fields.c). */
int pd_ht_instance_ref(ht_decoder *d, const char *name, size_t len, uint64_t v);
int pd_ht_hold_class(ht_decoder *d, const profdata_class_dump *cd);
int pd_ht_send_classes(ht_decoder *d);
void pd_ht_fields_free(ht_fields *f);

/* Pieces of syntax (hprof_text.c). */
/* Whether p (NULL after a failed step) stands before `end` on the character c. */
static inline int pd_ht_at(const char *p, const char *end, char c)
{
	return p && p < end && *p == c;
}

const char *pd_ht_spaces(const char *p, const char *end);
const char *pd_ht_lit(const char *p, const char *end, const char *lit);
const char *pd_ht_hex(const char *p, const char *end, uint64_t *v);
const char *pd_ht_dec(const char *p, const char *end, uint64_t *v);
const char *pd_ht_u32(const char *p, const char *end, uint32_t *v);
const char *pd_ht_key(const char *p, const char *end, const char *key);
int pd_ht_push_id(ht_decoder *d, uint64_t v);
/* v at index `index` of the record's references (at or past the last), the places between null, within the bound. */
int pd_ht_push_at(ht_decoder *d, uint64_t index, uint64_t v);

#endif
