/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The object graph of one dump as the heap analysis walks it (VisualVM's
 * semantics, doc/heap-analysis.md): nodes are the dump's objects by local
 * index (model index - first); a virtual root, local index `n`, points at
 * every object a GC root record or a class's static field names; an edge is
 * a reference slot of an instance or object array, read straight from the
 * model's columns and payloads (no copy of the graph is made: it would cost
 * more than the analysis' whole budget).
 */
#ifndef PD_ANALYSIS_HEAP_GRAPH_H
#define PD_ANALYSIS_HEAP_GRAPH_H

#include "analysis/heap_width.h"
#include "model/model_impl.h"
#include "profdata/heap.h"

/* An instance's reference slots, by its class row. */
typedef struct pd_heap_class_slots {
	size_t offsets_off;        /* its slots' payload offsets, from p->ref_offsets.v[offsets_off] */
	size_t n;                  /* its slots; 0 also when its layout is not known */
	int32_t weak;              /* the reference slot not followed (Reference.referent), or -1 */
} pd_heap_class_slots;

typedef struct pd_heap_graph {
	const profdata_profile *p;
	size_t first;              /* model index of local object 0 */
	uint32_t dump;
	pd_hnode n;                /* objects of the dump */
	pd_hnode nclasses;         /* class objects: local indexes n .. n + nclasses - 1, by class row */
	pd_hnode nodes;            /* n + nclasses */
	uint32_t *class_cdump;     /* per class row: its class dump in this dump, or UINT32_MAX */
	uint64_t class_size;       /* shallow size of a class object */
	size_t class_row;          /* java.lang.Class's class row, or SIZE_MAX */
	unsigned id_size;
	/* Per class row, what its instances' slots are (record_slots reads it per object: the class rows
	 * themselves are too large for a cache that thousands of classes share). */
	struct pd_heap_class_slots *class_slots;
	/* Per class row: the object VisualVM's search connects to the class object, which then refers to it by
	 * one more slot (doc/heap-analysis.md, class connection), or PD_HEAP_NONE; NULL until found. */
	pd_hnode *connector;
	pd_hnode *root_targets;    /* local indexes the virtual root points at, deduplicated by the caller's walk */
	size_t nroot_targets;
	profdata_progress_cb progress;  /* the heap's own hook (heap.c), which calls the caller's */
	void *progress_user;
	/* Releases the mapped payloads the walks leave behind (io/pager.h); NULL when not mapped. */
	struct pd_pager *pages;
} pd_heap_graph;

/* The reference slots of one object, null or not. */
typedef struct pd_heap_slots {
	const unsigned char *data;  /* payload (instances, arrays) */
	const uint32_t *offsets;    /* instances: payload offsets of the slots */
	const uint64_t *list;       /* explicit reference lists */
	const profdata_field *statics; /* class objects: their static fields */
	uint64_t len;               /* payload bytes */
	size_t n;                   /* slots */
	size_t weak;                /* Reference.referent of a soft, weak or final reference, or SIZE_MAX */
	uint64_t class_id;          /* a class connection: the last slot refers to this class object; else 0 */
	pd_hnode class_node;        /* ... its local index (not found by id: an object may share the id) */
	unsigned id_size;
} pd_heap_slots;

int pd_heap_graph_init(pd_heap_graph *g, const profdata_profile *p, long dump);
void pd_heap_graph_free(pd_heap_graph *g);

/*
 * Whether a GC root record of this kind holds its object: every kind but
 * Dalvik's UNREACHABLE (0x90), which names an object no root reaches
 * (VisualVM's root table leaves it out).
 */
static inline int pd_heap_root_holds(unsigned kind)
{
	return kind != PROFDATA_ROOT_UNREACHABLE;
}

/* Class row c's name as its load record gives it, or NULL. */
const char *pd_heap_class_name(const profdata_profile *p, size_t c);
/* 1 when class name `name` (internal or source form: '/' or '.') is `internal` ("java/lang/String"). */
int pd_heap_class_named(const char *name, const char *internal);

/* Shallow size of local node i. */
uint64_t pd_heap_size(const pd_heap_graph *g, pd_hnode i);

/* What node i adds to the retained sizes: its shallow size, 0 for class objects (as VisualVM counts). */
uint64_t pd_heap_retained_size(const pd_heap_graph *g, pd_hnode i);

/* Fill *s with the slots of local node i. */
void pd_heap_slots_of(const pd_heap_graph *g, pd_hnode i, pd_heap_slots *s);

/* The object id in slot k (0: null, or a slot past the payload). */
static inline uint64_t pd_heap_slot_id(const pd_heap_slots *s, size_t k)
{
	if (s->class_id && k == s->n - 1)
		return s->class_id;
	if (s->list)
		return s->list[k];
	if (s->statics)
		return s->statics[k].type == PROFDATA_TYPE_OBJECT ? s->statics[k].value : 0;
	uint64_t off = s->offsets ? s->offsets[k] : (uint64_t)k * s->id_size;
	if (off + s->id_size > s->len)
		return 0;
	return pd_be_id(s->data + off, s->id_size);
}

/* The local index of class object `id`, or PD_HEAP_NONE. */
pd_hnode pd_heap_local_class(const pd_heap_graph *g, uint64_t id);

/*
 * The local index of object `id`, or PD_HEAP_NONE when no object of the dump
 * has it. Inline: the walks ask once per reference.
 */
static inline pd_hnode pd_heap_local(const pd_heap_graph *g, uint64_t id)
{
	size_t m = pd_id_index_find(&g->p->obj_index, &g->p->obj_id, id);
	if (m != SIZE_MAX)
		return m - g->first < g->n ? (pd_hnode)(m - g->first) : PD_HEAP_NONE;
	return pd_heap_local_class(g, id);
}

/*
 * The target of slot k as a local index, or PD_HEAP_NONE (null, dangling,
 * outside the dump). Slot s->weak counts as a reference for the dominators
 * but does not make what it holds reachable: searches do not follow it.
 */
static inline pd_hnode pd_heap_slot_target(const pd_heap_graph *g, const pd_heap_slots *s, size_t k)
{
	if (s->class_id && k == s->n - 1)
		return s->class_node;
	uint64_t id = pd_heap_slot_id(s, k);
	return id ? pd_heap_local(g, id) : PD_HEAP_NONE;
}

/* Report progress; PROFDATA_STOPPED when the callback says stop (heap.c keeps a negative code it returned). */
int pd_heap_report(const pd_heap_graph *g, const char *phase, uint64_t done, uint64_t total);

#endif
