/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the JVM means, once: the sizes of basic types (types.c), the shallow
 * size rule VisualVM applies (sizes.c), and class layouts flattened along
 * the superclass chain with the references they place in a payload
 * (layout.c). The model's builder, the histogram, both heap encoders and the
 * reference-list -> payload transform call these; none keeps its own copy.
 *
 * The size rule was measured against visualvm 2.1.5 (tests/interop/README.md):
 *   reference size R: 4 with 4-byte ids; with 8-byte ids, the difference of
 *     two static offsets of java.lang.Class$Atomic (annotationTypeOffset -
 *     annotationDataOffset), else of FutureTask (waitersOffset -
 *     runnerOffset), when that is 4 or 8; else 8.
 *   object header H: 8 with 4-byte ids, else 8 + R.
 *   instance: align8(H + sum of its fields along the superclass chain, a
 *     reference counting R); object array: align8(H + 4 + n * R);
 *   primitive array: align8(H + 4 + n * element size).
 *   When java.lang.Object's class dump states an instance size > 0 (not
 *   HotSpot), instances take their class's stated size, H is Object's size
 *   and R = H - 8.
 */
#ifndef PD_JVM_H
#define PD_JVM_H

#include <stddef.h>
#include <stdint.h>

#include "profdata/profdata.h"

/* ---- basic types (types.c) ---- */

/*
 * Bytes of a value of basic type `type`, references taking `id_size`; 0 for
 * a code that is not one. Inline: the streaming histogram sizes every array
 * of a dump with it.
 */
static inline unsigned pd_jvm_type_size(int type, unsigned id_size)
{
	/* by code: none, ?, object, ?, boolean, char, float, double, byte, short, int, long */
	static const unsigned char sizes[PROFDATA_TYPE_LONG + 1] = { 0, 0, 0, 0, 1, 2, 4, 8, 1, 2, 4, 8 };
	if (type == PROFDATA_TYPE_OBJECT)
		return id_size;
	return (unsigned)type <= PROFDATA_TYPE_LONG ? sizes[type] : 0;
}

/* The internal name of a primitive array class of element type `type` ("[I"); "[?" for another code. */
const char *pd_jvm_array_internal_name(int type);

static inline uint64_t pd_align8(uint64_t x) { return (x + 7) & ~(uint64_t)7; }

/* ---- the size rule (sizes.c) ---- */

/* What a dump reveals about the JVM that wrote it, gathered from its class dumps. */
enum { PD_JVM_OFFSET_PAIRS = 2 };
typedef struct pd_jvm_hints {
	/* Class$Atomic's, then FutureTask's two static offsets (sizes.c); seen: 1 later, 2 earlier */
	struct { int seen; int64_t later, earlier; } pairs[PD_JVM_OFFSET_PAIRS];
	uint32_t object_instance_size; /* java.lang.Object's stated instance size */
} pd_jvm_hints;

typedef struct pd_jvm_sizes {
	unsigned ref;        /* R */
	unsigned header;     /* H */
	int stated_instances; /* instances use their class's stated size */
} pd_jvm_sizes;

/* Names of strings by id, for pd_jvm_note_class(); NULL when unknown. */
typedef const char *(*pd_jvm_string_fn)(const void *table, uint64_t string_id);

/*
 * Gather what class `class_name` (internal or source form) tells about the
 * sizes: java/lang/Object's stated instance size, and the static offsets the
 * reference size is read from.
 */
void pd_jvm_note_class(pd_jvm_hints *h, const char *class_name, uint64_t super_id, uint32_t instance_size,
                       const profdata_field *statics, size_t nstatics, pd_jvm_string_fn name_of,
                       const void *table);
void pd_jvm_decide(unsigned id_size, const pd_jvm_hints *h, pd_jvm_sizes *out);
/* The sizes of a HotSpot-like JVM with references of `ref` bytes under `id_size` identifiers. */
static inline pd_jvm_sizes pd_jvm_sizes_of(unsigned id_size, unsigned ref)
{
	pd_jvm_sizes s;
	s.ref = ref;
	s.header = id_size == 4 ? 8 : 8 + ref;
	s.stated_instances = 0;
	return s;
}

/* Header and fields without the alignment: what a class dump states as its instance size. */
static inline uint64_t pd_jvm_instance_bytes(const pd_jvm_sizes *s, uint64_t prim_bytes, uint64_t nrefs)
{
	return s->header + prim_bytes + nrefs * s->ref;
}
/*
 * An instance whose flattened layout holds `prim_bytes` of primitive fields
 * and `nrefs` references. `layout_ok` 0 (chain incomplete or broken): the
 * payload's length stands for the fields. `stated` is its class dump's
 * instance size, which some JVMs' dumps make authoritative. Inline, like
 * the array sizes: the streaming histogram sizes every object with them.
 */
static inline uint64_t pd_jvm_instance_size(const pd_jvm_sizes *s, int layout_ok, uint64_t prim_bytes,
                                            uint64_t nrefs, uint32_t stated, uint64_t payload_len)
{
	if (!layout_ok)
		return pd_align8(s->header + payload_len);
	if (s->stated_instances)
		return stated;
	return pd_align8(pd_jvm_instance_bytes(s, prim_bytes, nrefs));
}
static inline uint64_t pd_jvm_element_size(const pd_jvm_sizes *s, int kind, int elem_type)
{
	return kind == PROFDATA_OBJECT_ARRAY ? s->ref : pd_jvm_type_size(elem_type, s->ref);
}
/* An array of `length` elements; kind PROFDATA_OBJECT_ARRAY or _PRIM_ARRAY (elem_type). */
static inline uint64_t pd_jvm_array_size(const pd_jvm_sizes *s, int kind, int elem_type, uint64_t length)
{
	return pd_align8(s->header + 4 + length * pd_jvm_element_size(s, kind, elem_type));
}
/* The inverse: the length an array of stated `size` bytes has (0 when it cannot tell). */
uint64_t pd_jvm_array_length(const pd_jvm_sizes *s, int kind, int elem_type, uint64_t size);
/* A class object: a header and its static fields. */
uint64_t pd_jvm_class_size(const pd_jvm_sizes *s, uint64_t static_prim_bytes, uint64_t static_refs);

/*
 * Instances sized without a layout, align8(H + payload), summed by a pass
 * that learns H only at the end: align8(H + n) is H + align8(n) when H is a
 * multiple of 8, and H - 4 + align8(n + 4) when it is 4 more.
 */
typedef struct pd_jvm_payload_sums {
	uint64_t count, aligned, aligned_plus4;
	/* The instances of a class have one payload length: a run of equal
	 * lengths is only counted, and summed when another length comes. */
	uint64_t run_len, run_count;
} pd_jvm_payload_sums;
static inline void pd_jvm_payload_sums_add(pd_jvm_payload_sums *sums, uint64_t payload_len)
{
	sums->count++;
	if (payload_len == sums->run_len) {
		sums->run_count++;
		return;
	}
	sums->aligned += sums->run_count * pd_align8(sums->run_len);
	sums->aligned_plus4 += sums->run_count * pd_align8(sums->run_len + 4);
	sums->run_len = payload_len;
	sums->run_count = 1;
}
/* Their bytes under `s`: the sum of pd_jvm_instance_size(s, 0, ..., payload_len). */
uint64_t pd_jvm_payload_sums_size(const pd_jvm_sizes *s, const pd_jvm_payload_sums *sums);

/*
 * A pass that must size arrays before it knows the JVM (the streaming
 * histogram) sums them under each shape a JVM can have and picks one at
 * the end.
 */
enum { PD_JVM_SHAPES = 3 };
static inline pd_jvm_sizes pd_jvm_shape(unsigned i)
{
	/* 4-byte ids; 8-byte ids with compressed references; 8-byte references */
	static const unsigned char ids[PD_JVM_SHAPES] = { 4, 8, 8 }, refs[PD_JVM_SHAPES] = { 4, 4, 8 };
	return pd_jvm_sizes_of(ids[i], refs[i]);
}
unsigned pd_jvm_shape_index(const pd_jvm_sizes *s);
/*
 * Add an array's size under each shape to sums[shape]. Every array of a
 * dump passes here in the streaming histogram: the shapes are constants the
 * compiler folds in.
 */
static inline void pd_jvm_array_size_per_shape(int kind, int elem_type, uint64_t length,
                                               uint64_t sums[PD_JVM_SHAPES])
{
	const pd_jvm_sizes s0 = pd_jvm_shape(0), s1 = pd_jvm_shape(1), s2 = pd_jvm_shape(2);
	if (kind == PROFDATA_OBJECT_ARRAY || elem_type == PROFDATA_TYPE_OBJECT) {
		sums[0] += pd_jvm_array_size(&s0, PROFDATA_OBJECT_ARRAY, 0, length);
		sums[1] += pd_jvm_array_size(&s1, PROFDATA_OBJECT_ARRAY, 0, length);
		sums[2] += pd_jvm_array_size(&s2, PROFDATA_OBJECT_ARRAY, 0, length);
		return;
	}
	/* the elements' bytes do not depend on the shape: once, as pd_jvm_array_size has them */
	uint64_t bytes = length * pd_jvm_type_size(elem_type, 0);
	sums[0] += pd_align8(s0.header + 4 + bytes);
	sums[1] += pd_align8(s1.header + 4 + bytes);
	sums[2] += pd_align8(s2.header + 4 + bytes);
}

/* ---- layouts and references (layout.c) ---- */

/* One class as a caller's table holds it: its own instance fields, by value or by type only. */
typedef struct pd_jvm_class_view {
	const profdata_field *fields; /* or NULL, then types */
	const uint8_t *types;
	size_t nfields;
	uint64_t super_id;
} pd_jvm_class_view;

/* 1 and *view when class `class_id` has a dump, else 0. */
typedef int (*pd_jvm_class_fn)(const void *table, uint64_t class_id, pd_jvm_class_view *view);

/*
 * A flattened layout: the fields of a class then of its superclasses, which
 * is the order of an instance payload. Set the `want_` flags for what to
 * collect; `fields` is the caller's array of `fields_cap` (filled up to it,
 * counted in nfields beyond); `ref_offsets` and `types` grow as needed and
 * are freed with pd_jvm_layout_free().
 */
typedef struct pd_jvm_layout {
	int want_offsets, want_types;
	profdata_field *fields;
	size_t fields_cap;
	size_t nfields;
	uint32_t *ref_offsets;  /* payload offsets of reference fields */
	size_t nrefs, offsets_cap;
	uint8_t *types;         /* every field's type */
	size_t types_cap;
	uint64_t bytes;         /* payload bytes, references taking id_size */
	uint64_t prim_bytes;    /* of which primitive fields: what the size rule counts besides nrefs */
	int bad_type;           /* a field of no basic type: offsets past it are unknown */
} pd_jvm_layout;

/*
 * Flatten `class_id`'s layout (the layout is reset first). 1 when whole;
 * 0 when a class of the chain has no dump (yet); PROFDATA_EFORMAT on a
 * cycle (longer than `max_hops`); PROFDATA_ENOMEM.
 */
int pd_jvm_flatten(pd_jvm_layout *l, uint64_t class_id, unsigned id_size, size_t max_hops, pd_jvm_class_fn lookup,
                   const void *table);
void pd_jvm_layout_free(pd_jvm_layout *l);

/* Where references found in a payload go: up to `cap` into `out`; n counts all kept, nulls those skipped. */
typedef struct pd_jvm_refs {
	uint64_t *out;
	size_t cap;
	int keep_nulls;
	size_t n, nulls;
} pd_jvm_refs;

/* One reference found (a list's, when the format lists them). */
void pd_jvm_refs_add(pd_jvm_refs *sink, uint64_t r);
/* The references of an instance payload at a flattened layout's reference offsets. */
void pd_jvm_instance_refs(const unsigned char *data, uint64_t len, unsigned id_size, const uint32_t *offsets,
                          size_t noffsets, pd_jvm_refs *sink);
/* The elements of an object array payload. */
void pd_jvm_array_refs(const unsigned char *data, uint64_t len, unsigned id_size, pd_jvm_refs *sink);

#endif
