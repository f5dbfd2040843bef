/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The model's storage. Objects are struct-of-arrays with optional columns
 * that exist only once some object needs them; everything else is an array
 * of small rows whose variable parts live in shared arenas and are addressed
 * by offset (arenas move when they grow).
 */
#ifndef PD_MODEL_IMPL_H
#define PD_MODEL_IMPL_H

#include "internal.h"
#include "model/model.h"
#include "util/hashmap.h"
#include "jvm/jvm.h"
#include "util/column.h"
#include "util/id_index.h"
#include "util/prefault.h"

/* A growable byte arena addressed by offset. */
typedef struct pd_arena {
	unsigned char *p;
	size_t len, cap;
} pd_arena;

typedef struct pd_class_row {
	uint64_t id;
	profdata_class_load load;
	profdata_class_dump dump;   /* pointer members unused: see the offsets below */
	size_t constants_off, statics_off, fields_off, refs_off; /* element offsets into the arrays */
	int has_load, has_dump, has_refs, unloaded;
	uint32_t dump_index;
	/* Flattened layout, filled when the profile is finished: offsets of reference fields. */
	size_t ref_offsets_off, nref_offsets;
	uint32_t prim_bytes;        /* primitive field bytes along the superclass chain */
	int layout_ok;
} pd_class_row;

/* Every CLASS DUMP in input order: the old agent repeats them in each dump. */
typedef struct pd_cdump_row {
	uint32_t class_row, dump;
	size_t constants_off, statics_off, fields_off, refs_off;
	int has_refs;
	profdata_class_dump d;      /* pointer members unused */
} pd_cdump_row;

typedef struct pd_dump_row {
	profdata_dump d;
	size_t first_object, nobjects;
} pd_dump_row;

typedef struct pd_heap_row {
	profdata_heap_info h;
	uint32_t dump;
	size_t obj_pos;             /* objects added before it */
} pd_heap_row;

typedef struct pd_root_row {
	profdata_root r;
	uint32_t dump;
} pd_root_row;

typedef struct pd_stack_row {
	uint32_t serial, thread_serial;
	size_t frames_off, nframes;
} pd_stack_row;

typedef struct pd_sample_row {
	uint32_t stack_serial, thread_serial;
	uint64_t time_ns;
	size_t values_off, nvalues;
} pd_sample_row;

typedef struct pd_group_row {
	profdata_sample_group g;
	size_t first, count;
} pd_group_row;

typedef struct pd_sites_row {
	profdata_alloc_sites a;     /* sites pointer unused */
	size_t sites_off;
} pd_sites_row;

typedef struct pd_blobref_row {  /* unknown records and attachments */
	uint32_t tag;
	uint64_t time_us;
	int in_dump;
	uint32_t dump;
	size_t name_off;            /* attachments: offset of the NUL-terminated name in text */
	size_t data_off;
	uint64_t len;
} pd_blobref_row;

typedef struct pd_trace_row {
	profdata_trace_event e;     /* attrs pointer unused */
	size_t attrs_off;           /* into kvs */
} pd_trace_row;

/* A trace context; pointer members unused, texts by offset (SIZE_MAX: none). */
typedef struct pd_context_row {
	profdata_trace_context c;
	size_t id_off, ref_off, attrs_off;
} pd_context_row;

typedef struct pd_kv_row {
	size_t key_off, value_off;  /* into text */
} pd_kv_row;

/* A vector of rows of one type. */
#define PD_VEC(T) struct { T *v; size_t n, cap; }

struct profdata_profile {
	pd_diag diag;
	int began, ended, in_dump, finished;
	pd_jvm_sizes jvm;               /* VisualVM's sizing, decided when finished */

	/* meta: strings in `text` */
	profdata_meta meta;
	size_t meta_format_off, meta_version_off, meta_ptype_off, meta_punit_off;
	int has_version, has_ptype, has_punit;
	size_t meta_kvs_off, meta_nkvs;
	profdata_kv *meta_kv_view;  /* rebuilt by profdata_profile_meta() */
	char *meta_format_buf;
	pd_arena text;              /* NUL-terminated strings of meta, names, kv */

	/* strings */
	PD_VEC(uint64_t) str_ids;
	PD_VEC(size_t) str_off;
	PD_VEC(uint32_t) str_len;
	pd_arena str_bytes;
	pd_index str_ix;

	/* classes */
	PD_VEC(pd_class_row) classes;
	PD_VEC(uint64_t) class_ids;
	pd_index class_ix;
#define PD_CLASS_CACHE 64
	uint64_t class_cache_id[PD_CLASS_CACHE]; /* builder: class id -> row, direct-mapped; id 0 never cached */
	uint32_t class_cache_row[PD_CLASS_CACHE];
	/* LOAD CLASS records in order; HotSpot repeats them for array classes. */
	PD_VEC(profdata_class_load) loads;
	PD_VEC(uint64_t) load_serials;
	PD_VEC(uint32_t) load_class;
	pd_index serial_ix;
	PD_VEC(profdata_constant) constants;
	PD_VEC(profdata_field) fields;  /* statics and instance fields */
	PD_VEC(uint64_t) class_refs;
	PD_VEC(uint32_t) ref_offsets;
	PD_VEC(pd_cdump_row) cdumps;
	PD_VEC(profdata_class_unload) unloads;

	/*
	 * objects: columns, 16 bytes an object on a HotSpot dump below 4 GB
	 * (doc/design.md, "The model's bytes"); read them through pd_obj_*().
	 */
	size_t nobjects, objcap;
	pd_col64 obj_id;                /* 4 bytes while ids fit 32 bits from a base (util/column.h), else 8 */
	uint32_t *obj_ck;               /* class row (low 24 bits, PD_OBJ_NO_CLASS for none) | kind byte << 24 */
	pd_col64 obj_data;              /* payload position (see pd_obj_payload), UINT64_MAX none; 4 or 8 bytes */
	uint32_t *obj_len;              /* elements (arrays) or bytes (instances) */
	uint64_t arena_base;            /* payload positions below it are in the blob, the rest in `payload` */
	uint32_t *obj_trace;            /* NULL while every trace is obj_trace0 */
	uint32_t obj_trace0;
	uint64_t *obj_size;             /* NULL while no object states a size */
	uint64_t *obj_refs_start;       /* NULL while no object lists refs; nobjects + 1 entries */
	PD_VEC(uint64_t) obj_refs;
	pd_id_index obj_index;          /* id -> first row holding it, built when finished */
	pd_arena payload;
	pd_blob *blob;

	PD_VEC(pd_root_row) roots;
	PD_VEC(pd_dump_row) dumps;
	PD_VEC(pd_heap_row) heaps;

	/* threads */
	PD_VEC(profdata_thread_info) threads;
	PD_VEC(uint64_t) thread_serials;
	pd_index thread_ix;

	/* functions, frames, stacks */
	PD_VEC(profdata_function) functions;
	PD_VEC(uint64_t) function_ids;
	pd_index function_ix;
	PD_VEC(profdata_frame) frames;
	PD_VEC(uint64_t) frame_ids;
	pd_index frame_ix;
	PD_VEC(pd_stack_row) stacks;
	PD_VEC(uint64_t) stack_serials;
	pd_index stack_ix;
	PD_VEC(uint64_t) stack_frames;
	pd_prefault stack_frames_ahead; /* the column's next pages, faulted in beside the builder */

	/* samples */
	PD_VEC(profdata_sample_type) sample_types;
	PD_VEC(pd_group_row) groups;
	PD_VEC(pd_sample_row) samples;
	PD_VEC(int64_t) values;

	PD_VEC(pd_sites_row) sites;
	PD_VEC(profdata_alloc_site) site_rows;
#define PD_MODEL_PLAIN_VEC(member, type, vec, table) PD_VEC(type) vec;
	PD_MODEL_PLAIN_LIST(PD_MODEL_PLAIN_VEC)
#undef PD_MODEL_PLAIN_VEC
	PD_VEC(pd_trace_row) traces;
	PD_VEC(pd_kv_row) kvs;
	profdata_kv *kv_view;            /* kvs as pointers, built when finished */
	PD_VEC(pd_blobref_row) unknowns;
	PD_VEC(pd_blobref_row) attachments;
	pd_arena bytes;                 /* unknown-record and attachment bytes */
	PD_VEC(pd_context_row) contexts; /* trace contexts (trace_context.c) */
	/* sample labels (labels.c) */
	pd_intern label_keys;            /* each distinct label set's labels as bytes: set index */
	PD_VEC(profdata_label) labels;   /* every set's labels, set after set */
	PD_VEC(size_t) label_sets;       /* set i's labels: labels[label_sets[i] .. [i + 1] or labels.n) */
	PD_VEC(uint32_t) sample_label;   /* sample -> set + 1, 0 none; empty while no sample has labels */
	uint32_t pending_labels;         /* the set + 1 of the next sample */
};

#define PD_VEC_PUSH(vec, item) \
	(pd_grow((void **)&(vec).v, &(vec).cap, (vec).n + 1, sizeof(*(vec).v)) < 0 ? PROFDATA_ENOMEM \
	 : ((vec).v[(vec).n++] = (item), 0))

int pd_arena_put(pd_arena *a, const void *data, size_t len, size_t *off);
int pd_arena_put_str(pd_arena *a, const char *s, size_t *off);
static inline const char *pd_text(const profdata_profile *p, size_t off) { return (const char *)p->text.p + off; }

/* Trace contexts (trace_context.c): the builder's callback, replay of those
 * standing before trace event `before`, and equality (*differs_at: the row). */
int pd_model_on_trace_context(void *payload, const profdata_trace_context *c);
int pd_model_replay_contexts(const profdata_profile *p, size_t *next, uint64_t before, const profdata_events *ev,
                             void *payload);
int pd_model_contexts_equal(const profdata_profile *a, const profdata_profile *b, size_t *differs_at);

/* Sample labels (labels.c): the builder's callback, the labelling of the
 * sample just added, the labels event before sample i in a replay, freeing,
 * and equality (*differs_at: the sample). */
int pd_model_on_sample_labels(void *payload, const profdata_sample_labels *l);
int pd_model_label_sample(profdata_profile *p);
int pd_model_replay_labels(const profdata_profile *p, size_t i, const profdata_events *ev, void *payload);
void pd_model_labels_free(profdata_profile *p);
int pd_model_labels_equal(const profdata_profile *a, const profdata_profile *b, size_t *differs_at);

/* ---- object columns ---- */

#define PD_OBJ_NO_CLASS 0xFFFFFFu   /* the class field of an object without a class row */
#define PD_OBJ_MAX_CLASSES PD_OBJ_NO_CLASS

static inline uint64_t pd_obj_id(const profdata_profile *p, size_t i) { return pd_col64_get(&p->obj_id, i); }

/* Class row, UINT32_MAX for none. */
static inline uint32_t pd_obj_class(const profdata_profile *p, size_t i)
{
	uint32_t c = p->obj_ck[i] & PD_OBJ_NO_CLASS;
	return c == PD_OBJ_NO_CLASS ? UINT32_MAX : c;
}

/* kind | elem_type << 2 | nodata << 6 */
static inline unsigned pd_obj_kind(const profdata_profile *p, size_t i) { return p->obj_ck[i] >> 24; }

/* The payload's position: below arena_base in the blob, else arena_base + offset in `payload`; UINT64_MAX none. */
static inline uint64_t pd_obj_payload(const profdata_profile *p, size_t i) { return pd_col64_get(&p->obj_data, i); }

/* Object payload access. */
const unsigned char *pd_object_data(const profdata_profile *p, size_t i, uint64_t *len);
/* The references in object i's payload, read from d (its payload wherever it lies) into sink; 0 or
 * PROFDATA_EFORMAT (an instance whose class has no layout). Objects with reference lists are not for it. */
int pd_object_refs_in(const profdata_profile *p, size_t i, const unsigned char *d, uint64_t len, pd_jvm_refs *sink);
/* Called by the builder's end: indexes, flattened layouts. */
int pd_profile_finish(profdata_profile *p);
/* Class ci's layout flattened along its superclass chain (pd_jvm_flatten's results). */
int pd_class_flatten(const profdata_profile *p, size_t ci, pd_jvm_layout *l);
/* The class's flattened layout (all fields, payload order); caller frees. */
long pd_class_layout(const profdata_profile *p, size_t ci, profdata_field *out, size_t cap);

#endif
