/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The refs_to_payloads transform's state: what refs_to_payloads.c (the
 * events) and refs_layout.c (where an instance's references go in its
 * payload) share.
 */
#ifndef PD_TRANSFORM_REFS_TO_PAYLOADS_H
#define PD_TRANSFORM_REFS_TO_PAYLOADS_H

#include "transform/transform.h"
#include "jvm/jvm.h"
#include "util/hashmap.h"

/* The bound (doc/formats.md, "Bounds"): max(PD_SYNTH_FIXED, PD_SYNTH_PER_INPUT x input). */
#define PD_SYNTH_FIXED (UINT64_C(256) << 20)
#define PD_SYNTH_PER_INPUT 64
#define INPUT_PER_RECORD 16
#define INPUT_PER_REF 4

/* An object of the held dump. */
typedef struct held_object {
	profdata_object o; /* refs and data cleared; see refs_off */
	size_t refs_off;
	int has_refs;
} held_object;

/* A class and the synthetic layout it gets. */
typedef struct class_plan {
	uint64_t id;
	int is_array, is_object;
	int dumped;          /* written in an earlier dump */
	uint32_t want;       /* references of its largest instance in this dump */
	uint64_t inst_size;  /* stated size of its first instance */
	int held;            /* a class dump of this dump is held */
	profdata_class_dump cd; /* its statics and constants: the copies below */
	size_t refs_off, nrefs;
	profdata_field *statics;       /* the statics and constants its class dump gave (hprof-text's): */
	profdata_constant *constants;  /* copied, since the dump is held past the event */
	/* Its instances' payload layout (refs_layout.c), fixed when first laid out: */
	uint64_t *given;      /* the instance field names its class dump gave (hprof-text's): slot i's name */
	size_t ngiven;
	uint64_t *own;        /* the names of the fields it declares; NULL: "ref<i>", i < nown */
	uint32_t *to_payload; /* per reference slot: its payload field; NULL: slot i is field i */
	size_t nown, nslots, npay; /* fields it declares; reference slots placed; payload fields, own then inherited */
	int laid;             /* 0 not yet, 1 being laid out, 2 laid out */
} class_plan;

/* What a string names, as far as the plans care. */
enum { NAME_SEEN = 4, NAME_ARRAY = 1, NAME_OBJECT = 2 };

/* Synthetic field names written so far: "ref<i>" or "sref<i>" has string id ids[i]. */
typedef struct field_names {
	const char *prefix;
	uint64_t *ids;
	size_t n, cap;
} field_names;

typedef struct payload_filter {
	pd_transform_base base; /* first: the pass-through events find it there */
	int active;
	unsigned ids;
	pd_jvm_sizes sizes; /* the object header and reference size the stated sizes imply */
	int decided;        /* sizes are fixed (at the first dump) */
	uint64_t max_string;
	pd_map names;       /* string id -> NAME_* flags (active only) */
	class_plan *cls;    /* in order of first appearance */
	size_t ncls, cls_cap;
	pd_map cls_ix;      /* class id -> index + 1 */
	uint64_t object_class;
	uint32_t max_serial;
	field_names ref_names, sref_names;
	/* the held dump */
	int in_dump;
	profdata_dump dump;
	held_object *objs;
	size_t nobjs, objs_cap;
	profdata_root *roots;
	size_t nroots, roots_cap;
	uint64_t *pool;
	size_t npool, pool_cap;
	unsigned char *payload;
	size_t payload_cap;
	profdata_field *fields; /* scratch for a class dump */
	size_t fields_cap;
	uint64_t dropped_refs, dropped_other;
	uint64_t input_weight;   /* the input as its events measure it (see the top) */
	uint64_t synthesized;    /* payload bytes of the dumps written so far */
	uint64_t max_synthesized; /* 0: the default bound */
	unsigned ndumps;
	pd_intern field_keys;    /* {plan index, occurrence, name id} -> index in key_pos (refs_layout.c) */
	uint32_t *key_pos;       /* an own field's place among its class's own fields */
	size_t key_pos_cap;
	uint32_t *chain;         /* scratch: a class and its superclasses, while laid out */
	size_t chain_cap;
} payload_filter;

/* Layouts (refs_layout.c). */
int pd_refs_take_given(class_plan *k, const profdata_class_dump *c);
int pd_refs_lay_out(payload_filter *s);
void pd_refs_layout_free(payload_filter *s);
int pd_refs_out_of_memory(payload_filter *s);

#endif
