/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JDK Flight Recorder: what the reader's files share (doc/formats-jfr.md).
 * chunk.c reads a chunk's header and its primitive values (compressed or
 * fixed-size integers, strings in every encoding), metadata.c the metadata
 * event into type descriptors, pool.c checkpoint events into constant pools
 * and any value by its descriptor, decode.c drives the events, typed.c
 * and old_objects.c put the JVM's types into the model.
 */
#ifndef PD_JFR_H
#define PD_JFR_H

#include "internal.h"
#include "util/hashmap.h"

#define JFR_HEADER_SIZE 68
/* Inline values nested deeper than this are refused: a type that holds itself would never end. */
#define JFR_MAX_DEPTH 32

/* A chunk's header (all offsets relative to the chunk's first byte). */
typedef struct jfr_header {
	uint16_t major, minor;
	uint64_t size, cpool_offset, meta_offset;
	int64_t start_nanos, duration_nanos, start_ticks, ticks_per_second;
	uint32_t flags;   /* bit 0: integers compressed; bit 1: the last chunk */
} jfr_header;

/* Where a value is read from: the chunk's bytes, how its integers are encoded, and for errors the input's. */
typedef struct jfr_cur {
	const unsigned char *p, *end;
	const unsigned char *input;   /* the whole input's first byte: offsets in messages */
	int compressed;
	profdata_reader *in;
	/* Values read so far against a bound: empty structs nested in arrays take no bytes, and must take no time. */
	uint64_t *steps, max_steps;
} jfr_cur;

/*
 * What the reader keeps of a chunk when its consumer takes unknown records
 * (the model, for JFR -> JFR; write_kept.c writes them back): the header
 * first, as a record of this tag (its 68 bytes), then every event but the
 * samples, byte for byte, tagged with its type id (0 the metadata the
 * header names, 1 a checkpoint; an id past 2^32 - 2, and any other metadata
 * event, as JFR_KEPT_HEADER - 1). A chunk whose
 * events are all samples, metadata or checkpoints is not kept: the samples
 * are written again from the model, and its pools served only them.
 */
#define JFR_KEPT_HEADER UINT32_MAX

/* String encodings. */
enum { JFR_STR_NULL, JFR_STR_EMPTY, JFR_STR_POOL, JFR_STR_UTF8, JFR_STR_CHARS, JFR_STR_LATIN1 };

/* An encoded string as it stands: its encoding, its bytes (UTF-8, Latin-1 or compressed chars) or pool index. */
typedef struct jfr_str {
	uint8_t enc;
	const unsigned char *p;   /* JFR_STR_UTF8, _LATIN1, _CHARS: the bytes after the length */
	uint64_t len;             /* characters */
	uint64_t index;           /* JFR_STR_POOL */
} jfr_str;

int jfr_fail(const jfr_cur *c, const unsigned char *at, int code, const char *fmt, ...) PD_PRINTF(4, 5);
int jfr_read_header(jfr_header *h, const jfr_cur *c);
int jfr_varint(jfr_cur *c, uint64_t *v);
/* jfr_int past its one-byte case. */
int jfr_int_long(jfr_cur *c, unsigned width, uint64_t *v);

/*
 * An int/long/short/char field: a varint when compressed, else `width`
 * bytes big-endian. Inline for the varint of one byte (most of them:
 * type ids, sizes, small keys), the one call per value a recording makes.
 */
static inline int jfr_int(jfr_cur *c, unsigned width, uint64_t *v)
{
	if (c->compressed && c->p < c->end && *c->p < 0x80) {
		*v = *c->p++;
		return 0;
	}
	return jfr_int_long(c, width, v);
}
int jfr_bytes(jfr_cur *c, size_t n, const unsigned char **p);
int jfr_string(jfr_cur *c, jfr_str *s);
/* Append s as UTF-8 to b (a pool string is the caller's: it is left out). */
int jfr_string_utf8(jfr_cur *c, const jfr_str *s, pd_strbuf *b);

/* Primitive kinds of a type, by its name. */
enum { JFR_COMPLEX, JFR_BOOLEAN, JFR_BYTE, JFR_CHAR, JFR_SHORT, JFR_INT, JFR_LONG, JFR_FLOAT, JFR_DOUBLE,
       JFR_STRING };

typedef struct jfr_field {
	uint32_t name;     /* index in the metadata's names */
	uint32_t type;     /* row in the types, resolved from its class id */
	uint8_t array;     /* dimension 1 */
	uint8_t pooled;    /* constantPool="true": the value is a pool index */
	uint8_t varint;    /* a varint in a compressed chunk (integers, pool indexes), else `width` bytes */
	uint8_t width;     /* its bytes when not a varint; 0 when not flat (a string, a struct, an array) */
} jfr_field;

typedef struct jfr_type {
	uint64_t id;
	uint32_t name;     /* index in the metadata's names */
	uint8_t kind;      /* JFR_COMPLEX or a primitive's */
	uint8_t is_event;  /* superType jdk.jfr.Event */
	uint8_t flat;      /* fields, each of a width (jfr_field): what pool.c skips without a walk */
	jfr_field *fields;
	size_t nfields, fields_cap;
	pd_map pool;       /* pool index -> offset of its value in the chunk + 1 */
} jfr_type;

/* A chunk's metadata: its names (UTF-8) and its types. */
typedef struct jfr_meta {
	pd_intern names;
	jfr_type *types;
	size_t ntypes, types_cap;
	pd_map row_of_id;  /* class id -> row + 1 */
} jfr_meta;

int jfr_meta_read(jfr_meta *m, jfr_cur *c);
void jfr_meta_free(jfr_meta *m);
/* Empty every type's pool, for a chunk that shares the metadata of the one before (their slots stay). */
void jfr_meta_clear_pools(jfr_meta *m);
const char *jfr_type_name(const jfr_meta *m, const jfr_type *t);
/* The row of the type named `name`, or SIZE_MAX. */
size_t jfr_type_find(const jfr_meta *m, const char *name);
/* The index of t's field named `name`, or SIZE_MAX. */
size_t jfr_field_find(const jfr_meta *m, const jfr_type *t, const char *name);

/* A field's value as a walk of a struct saw it. */
typedef struct jfr_value {
	uint64_t u;        /* integers, booleans, pool indexes; float bits */
	jfr_str s;         /* strings */
	const unsigned char *at; /* where the value began (inline structs, arrays) */
} jfr_value;

/* Read the fields of a value of type `t` at c into vals[0 .. t->nfields) (vals may be NULL: skip). */
int jfr_read_struct(jfr_cur *c, const jfr_meta *m, const jfr_type *t, jfr_value *vals, unsigned depth);
/* Read one field's value (an array's count when f->array, its elements skipped). */
int jfr_read_field(jfr_cur *c, const jfr_meta *m, const jfr_field *f, jfr_value *v, unsigned depth);
/* Read one value of a type, not an array, not pooled. */
int jfr_read_value(jfr_cur *c, const jfr_meta *m, const jfr_type *t, jfr_value *v, unsigned depth);
/* A checkpoint event's pools, entries noted in their types' maps (c at the bytes after its type id). */
int jfr_checkpoint_read(jfr_cur *c, jfr_meta *m, const unsigned char *chunk, int has_flush_byte);
/* A cursor at pool entry `index` of type t; 0, or 1 when it has none. */
int jfr_pool_at(const jfr_cur *chunk_cur, const jfr_type *t, const unsigned char *chunk, uint64_t index,
                jfr_cur *out);

/*
 * jdk.types.FrameType's descriptions (the JDK's four, async-profiler's three
 * more) by profdata_frame_kind_value, the unknown kind NULL: what the reader
 * recognises and the writer's pool holds.
 */
#define JFR_FRAME_KINDS (PROFDATA_FRAME_KIND_C1 + 1)
extern const char *const jfr_frame_type_names[JFR_FRAME_KINDS];

/* The rows of the types the reader puts into the model, in the current chunk (SIZE_MAX: absent). */
enum { JT_STACK_TRACE, JT_STACK_FRAME, JT_METHOD, JT_CLASS, JT_SYMBOL, JT_THREAD, JT_STRING, JT_FRAME_TYPE,
       JT_THREAD_STATE, JT_OLD_OBJECT, JT_REFERENCE, JT_OLD_ARRAY, JT_GC_ROOT, JT_SAMPLE, JT_COUNT = JT_SAMPLE + 3 };
/* The fields typed.c reads of a type, at most: a sample's time, thread, stack, value and thread state. */
#define JFR_PICKED 5

/*
 * An event type read as samples (events=): its values are 1 and its
 * `value` field (a duration in ticks when `ticks`, read as nanoseconds),
 * or, for a kind of one value, the field alone (1 without it).
 */
typedef struct jfr_sample_spec {
	const char *event, *value;
	int ticks;
} jfr_sample_spec;

/* old_objects.c: an object of an old object sample's path, to be emitted in the dump at the end. */
typedef struct jfr_old_object {
	uint64_t address, class_id, length;
	uint64_t size;               /* as the recording states it (objectSize, JDK 18 on); 0 not stated */
	uint32_t trace;              /* its allocation stack: the sample's, for the sampled object */
	uint8_t kind, elem_type;     /* profdata_object_kind; a primitive array's profdata_basic_type */
} jfr_old_object;

/* A reference on a path: object row `from` holds one to the object at address `to`. */
typedef struct jfr_old_ref {
	uint64_t to;
	uint32_t from;
} jfr_old_ref;

/* The fields old_objects.c reads of a jdk.OldObjectSample. */
#define JFR_OLD_FIELDS 10

/* The old object samples of every chunk: their objects, the paths' references and roots, the samples. */
typedef struct jfr_old_objects {
	jfr_old_object *objs;
	size_t nobjs, objs_cap;
	pd_map row_of;               /* address -> row + 1 */
	jfr_old_ref *refs;
	size_t nrefs, refs_cap;
	profdata_root *roots;
	size_t nroots, roots_cap;
	pd_map rooted;               /* the roots' addresses -> 1 */
	profdata_object_sample *samples;
	size_t nsamples, samples_cap;
	uint64_t *ids;               /* one object's references while it is emitted */
	size_t ids_cap;
	const unsigned char **chunks; /* the chunks that hold old object samples, read again after the others */
	size_t nchunks, chunks_cap;
	size_t row;                  /* jdk.OldObjectSample's row in the current chunk's metadata; SIZE_MAX absent */
	size_t fx[JFR_OLD_FIELDS];   /* its fields read, by index (old_objects.c's sample_field names) */
} jfr_old_objects;

/*
 * What the first pass noted of a chunk for the second: whether its metadata
 * repeats the one before's, and where its wanted events stand (the samples
 * events= chooses, and old object samples for a consumer of objects), so
 * that the second pass reads those alone after the chunk's pools (the
 * JDK's chunks hold thousands of other events and a few samples).
 */
typedef struct jfr_chunk_note {
	size_t first;              /* its wanted events' offsets in the chunk: d->wanted[first .. first + n) */
	uint32_t n;
	uint8_t repeats;           /* its metadata is the one before's, byte for byte */
	uint8_t complete;          /* every wanted event of it is noted; else the second pass walks it */
} jfr_chunk_note;

/* Wanted events noted at most, in all (4 bytes each); the chunks past them are walked. */
#define JFR_WANTED_MAX ((size_t)1 << 20)

/* An event held for later: its type id and a cursor over its body. */
typedef struct jfr_held {
	uint64_t type;
	jfr_cur c;
} jfr_held;

typedef struct jfr_decoder {
	const pd_decode_args *a;
	profdata_reader *in;
	const unsigned char *base;   /* the whole input */
	size_t size;
	pd_blob *blob;               /* the input when it is mapped there, else NULL */
	uint64_t told;               /* blob: the offset the reader was last told (tell()) */
	jfr_header h;                /* the chunk being read */
	jfr_header first;            /* the first chunk's */
	jfr_cur chunk;               /* over it: p its first byte, end its last + 1 */
	jfr_meta meta;               /* its metadata */
	const unsigned char *meta_body; /* what `meta` was read from, after its times and id (chunk_metadata) */
	size_t meta_len;
	int meta_compressed;
	size_t chunk_ix;             /* the chunk being read, counted from 0 in each pass */
	jfr_chunk_note *notes;       /* per chunk, from the first pass (d->nchunks of them) */
	size_t notes_cap;
	int notes_known;             /* the first pass is over: notes stand */
	uint32_t *wanted;            /* the wanted events' offsets in their chunks, chunk after chunk */
	size_t nwanted, wanted_cap;
	uint64_t want_id[JT_COUNT - JT_SAMPLE + 1]; /* the wanted event types' ids in the current metadata */
	size_t nwant;
	int noting;                  /* the first pass still notes wanted events (fewer than JFR_WANTED_MAX) */
	uint64_t chunk_events;       /* events of the chunk pass 1 walks, so far */
	uint64_t steps;
	size_t row[JT_COUNT];
	size_t fx[JT_COUNT][JFR_PICKED]; /* the fields typed.c reads of each, by index (SIZE_MAX absent) */
	jfr_sample_spec spec[JT_COUNT - JT_SAMPLE]; /* the event types read as samples (events=), rows JT_SAMPLE + i */
	size_t nspec, nvalues;
	const char *sample_type[2][2]; /* their sample types' type and unit names */
	/* every event type's count, by name, over all chunks */
	pd_intern event_names;
	uint64_t *event_counts;
	pd_map counter_of_type;      /* type id -> its name's counter + 1, while the metadata stands */
	size_t counts_cap, nchunks;
	/* every checkpoint event's offset in the input, in order (pass 1), and the next one pass 2 reads */
	uint64_t *checkpoints;
	size_t ncheckpoints, checkpoints_cap, next_checkpoint;
	/* what was emitted, keyed by content so that chunks share it: ids are index + 1 */
	pd_intern strings, classes, functions, frames, stacks, threads;
	/* the current chunk's pool indexes to those ids */
	pd_map stack_of, method_of, class_of, thread_of, kind_of; /* kind_of: a frame type's kind + 1 */
	pd_map state_of;             /* a thread state's string id (emitted at first use) */
	uint64_t state_key;          /* the string id of the label key "state"; 0 before its first use */
	jfr_value *vals;             /* a struct's fields being read */
	size_t vals_cap;
	uint64_t *frame_ids;
	size_t frames_cap;
	pd_strbuf text;
	/* settings.c: the first chunk's settings and recording record, key -> value */
	pd_intern setting_keys, setting_values;
	uint32_t *setting_value;     /* per key: its value's index in setting_values */
	size_t setting_value_cap;
	uint64_t setting_type[2];    /* the first chunk's ids of jdk.ActiveSetting, jdk.ActiveRecording; 0 absent */
	jfr_held *held;              /* the first chunk's checkpoints and settings, held by the counting walk */
	size_t nheld, held_cap;
	/* JFR -> JFR: events kept unread, as unknown records (JFR_KEPT_HEADER) */
	int keep;                    /* the consumer takes unknown records */
	int chunk_kept;              /* the current chunk has an event to keep other than metadata and checkpoints */
	const unsigned char *event_at; /* the first byte of the event walk_events is at */
	jfr_old_objects old;         /* old object samples, when the consumer takes objects */
} jfr_decoder;

/* typed.c: an event of d->spec[i] into the model. */
int jfr_emit_sample(jfr_decoder *d, jfr_cur *c, size_t i);
/* The id of string s (emitted at its first use). */
int jfr_string_id(jfr_decoder *d, const char *s, size_t len, uint64_t *id);
void jfr_typed_chunk_reset(jfr_decoder *d);
/* The text of string field f's value v into d->text, a pool string looked up (empty for a field of another type). */
int jfr_field_text(jfr_decoder *d, const jfr_field *f, const jfr_value *v);
/*
 * typed.c's readers, shared with old_objects.c: the wanted fields of a
 * value of type `kind` (JT_*) at c into out[0..JFR_PICKED); field k of a
 * kind as the metadata has it (or NULL); a cursor at a pool entry (0, 1
 * when it has none: a warning, or an error); the ids of a class, stack
 * and thread of the pool, emitted at first sight; the chunk's ticks as
 * nanoseconds since 1970, and a span of ticks as nanoseconds.
 */
int jfr_pick(jfr_decoder *d, jfr_cur *c, size_t kind, jfr_value *out);
const jfr_field *jfr_field_of(const jfr_decoder *d, size_t kind, int k);
int jfr_entry(jfr_decoder *d, int kind, uint64_t index, const unsigned char *at, jfr_cur *out);
int jfr_class_serial(jfr_decoder *d, uint64_t index, const unsigned char *at, uint64_t *serial);
int jfr_stack_serial(jfr_decoder *d, uint64_t index, const unsigned char *at, uint32_t *serial);
int jfr_thread_serial(jfr_decoder *d, uint64_t index, const unsigned char *at, uint32_t *serial);
uint64_t jfr_ticks_ns(const jfr_header *h, uint64_t ticks);
uint64_t jfr_span_ns(const jfr_header *h, uint64_t ticks);

/* old_objects.c: the current chunk's jdk.OldObjectSample fields (after jfr_typed_chunk_reset). */
void jfr_old_chunk_reset(jfr_decoder *d);
/* old_objects.c: pass 2 met an event of type id `type`: the chunk noted when it is a jdk.OldObjectSample. */
int jfr_old_note_chunk(jfr_decoder *d, uint64_t type);
/* old_objects.c: pass 3, an event of type id `type`; one of jdk.OldObjectSample noted with its path (else nothing). */
int jfr_old_event(jfr_decoder *d, uint64_t type, jfr_cur *c);
/* old_objects.c: the objects noted, as one heap dump, then their object samples; nothing when none. */
int jfr_old_emit(jfr_decoder *d);
void jfr_old_free(jfr_old_objects *o);

/* settings.c: the ids of the setting types in the current chunk's metadata (d->setting_type). */
void jfr_find_setting_types(jfr_decoder *d);
/* settings.c: an event of one of those types, kept as meta comments; other events are passed over. */
int jfr_setting_event(jfr_decoder *d, uint64_t type, jfr_cur *c);

int pd_jfr_decode(const pd_decode_args *a);

#endif
