/* SPDX-License-Identifier: Apache-2.0 */
/* The analysis' result, shared by dominators.c, retained.c and paths.c. */
#ifndef PD_ANALYSIS_HEAP_IMPL_H
#define PD_ANALYSIS_HEAP_IMPL_H

#include "analysis/heap_graph.h"

/*
 * Nodes are numbered in reverse postorder of a depth-first walk from the
 * virtual root (rpo 0); reachable objects get 1..m, so a dominator always
 * has a smaller number than what it dominates.
 */
struct profdata_heap {
	pd_heap_head head;       /* first: the width it was made at (heap_calls.h) */
	pd_heap_graph g;
	pd_hnode m;              /* reachable objects */
	pd_hnode *num;           /* per local object: its rpo, 0 when unreachable */
	pd_hnode *idom;          /* per rpo: the rpo of its immediate dominator (0: the virtual root) */
	uint32_t *ret32;         /* per rpo: retained bytes / unit ... */
	uint64_t *ret64;         /* ... or retained bytes, when they do not fit that */
	unsigned unit;
	uint64_t reachable_bytes, unreachable_bytes;
	size_t unreachable_count;    /* objects only: class objects are not in the object table */
	uint64_t *class_ret;     /* per class row, then per element type of class-less arrays; NULL until asked */
	/* The handle (heap.c): the last error, the caller's progress callback, where the work is. */
	pd_diag diag;
	profdata_progress_cb progress;
	void *progress_payload;
	const char *phase;       /* the last phase reported, or the one about to start */
	int callback_rc;         /* a negative code the progress callback stopped the work with */
	int legacy;              /* 0.2's calls: any non-zero return of the callback is PROFDATA_STOPPED */
	int graph_only;          /* the walk and the class connections only: num, m and the counts; no idom, no sizes */
};

/*
 * The dominators and retained sizes of h->g's dump, or with h->graph_only
 * what a root reaches alone (dominators.c): 0, PROFDATA_ENOMEM, _EINVAL,
 * _STOPPED.
 */
int pd_heap_analyze(profdata_heap *h);

/*
 * Sum the shallow sizes of the reachable nodes (a class object's as it
 * counts in retained sizes) into h->reachable_bytes, and the unreachable
 * objects into h->unreachable_count and _bytes (trees.c). 1 when every
 * reachable size is a multiple of 8.
 */
int pd_heap_count_reachable(profdata_heap *h);

/*
 * A failure `e` of a step of the heap's work: the code to return (the
 * progress callback's own for a stop it asked with a negative one), with
 * its message kept on the heap (heap.c).
 */
int pd_heap_failed(profdata_heap *h, int e);

enum { PD_HEAP_ELEM_TYPES = 16 };

/*
 * The bytes retained by class slot `slot` (pd_heap_class_slot(): a class
 * row, or classes + element type) in *out, computing every slot's on first
 * use (retained.c, behind profdata_heap_retained_by_class()).
 */
int pd_heap_slot_retained(uint64_t *out, profdata_heap *h, size_t slot);

/*
 * The Java name of class slot `slot` (SIZE_MAX: class objects,
 * "java.lang.Class") into buf, cut to cap - 1 bytes: its length.
 */
size_t pd_heap_slot_name(const profdata_heap *h, size_t slot, char *buf, size_t cap);

/* Whether local node i takes part in a ranking (pd_heap_rank). */
typedef int (*pd_heap_keep_fn)(const void *payload, const profdata_heap *h, pd_hnode i);

/*
 * The (up to) n reachable nodes of largest retained size that `keep`
 * keeps (NULL: all), biggest first, ties by lower id, into out[0 ..
 * *count), ranked in `out` itself (profdata_heap_top_nodes()).
 */
void pd_heap_rank(size_t *out, size_t *count, const profdata_heap *h, size_t n, pd_heap_keep_fn keep,
                  const void *payload);

/*
 * Numbers stay below the top bit of pd_hnode (profdata_heap_new refuses
 * more nodes: PD_HEAP_MAX_NODES, heap_width.h), so that bit, PD_HEAP_FLAG,
 * is free for a flag while the analysis runs: each step says what it means
 * there (dominators.c, connections.c, trees.h).
 */

/* In idom[r] while the dominators are found: a node with more than one referrer (dominators.c). */
#define PD_HEAP_SHARED PD_HEAP_FLAG

static inline uint64_t pd_heap_ret(const profdata_heap *h, pd_hnode r)
{
	return h->ret64 ? h->ret64[r] : (uint64_t)h->ret32[r] * h->unit;
}

/* The public node number of local node i: a model object index, or nobjects + class row. */
static inline size_t pd_heap_node(const profdata_heap *h, pd_hnode i)
{
	return i < h->g.n ? h->g.first + i : h->g.p->nobjects + (i - h->g.n);
}

/* The local index of public node `node`, or PD_HEAP_NONE. */
static inline pd_hnode pd_heap_local_of(const profdata_heap *h, size_t node)
{
	size_t total = h->g.p->nobjects;
	if (node >= total)
		return node - total < h->g.nclasses ? h->g.n + (pd_hnode)(node - total) : PD_HEAP_NONE;
	return node >= h->g.first && node - h->g.first < h->g.n ? (pd_hnode)(node - h->g.first) : PD_HEAP_NONE;
}

/*
 * The class slot of local node i: its class row, or ncls + element type for
 * class-less arrays; SIZE_MAX for class objects, which VisualVM's retained
 * histogram counts under no class (its java.lang.Class line holds only the
 * dump's real instances of java.lang.Class).
 */
static inline size_t pd_heap_class_slot(const profdata_heap *h, pd_hnode i)
{
	const profdata_profile *p = h->g.p;
	if (i >= h->g.n)
		return SIZE_MAX;
	size_t m = h->g.first + i;
	uint32_t c = pd_obj_class(p, m);
	return c != UINT32_MAX ? c : p->classes.n + (((size_t)pd_obj_kind(p, m) >> 2) & 15);
}

/*
 * The public calls at this width, declared from heap_calls.h's list: the
 * compiler holds each entry to the definition it names, so heap_widths.c's
 * dispatch, made from the same list, calls what is there.
 */
#define PD_HEAP_DECLARE_X(ret, name, params, args, obj) ret name params;
#define PD_HEAP_DECLARE_V(name, params, args, obj) void name params;
#define PD_HEAP_DECLARE_N(ret, name, params, args) ret name params;
PD_HEAP_CALLS(PD_HEAP_DECLARE_X, PD_HEAP_DECLARE_V, PD_HEAP_DECLARE_N, PD_HEAP_DECLARE_N)

#endif
