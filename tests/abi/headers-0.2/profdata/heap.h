/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: heap analysis of a heap dump held in a model — the dominator
 * tree of its object graph, retained sizes per object and per class, the
 * biggest objects, and the shortest path from a GC root to an object.
 *
 * The semantics are those of VisualVM's heap library (doc/heap-analysis.md
 * gives them whole, as measured against it). The graph's nodes are one
 * dump's objects and its class objects (a class is an object of
 * java.lang.Class holding its static fields; it has that class's instance
 * size). Its roots are what the dump's GC root records name; an edge is any
 * non-null reference of an instance field (Reference.referent included),
 * an object array element or a static field. A reference from an object no
 * root reaches still counts: what it points at is then dominated by the
 * roots only. Unreachable objects are counted apart and retain nothing.
 * Shallow sizes are profdata_profile_object_size(). Retained sizes are
 * summed up the dominator tree as VisualVM sums them, "tree objects" and
 * all (a GC root or class object held by one object alone counts in it).
 *
 * Nodes are numbered: an object by its index in the model
 * (profdata_profile_object()), class row c by profdata_heap_class_node().
 *
 * Ownership: profdata_heap_analyze() returns a profdata_heap the caller frees
 * with profdata_heap_free(); it borrows the profile, which must outlive it
 * and not change meanwhile. Pointers the functions below return are
 * borrowed from the heap (or its profile).
 *
 * Threads: the analysis runs on the calling thread. A finished profdata_heap
 * may be read from several threads at once, except that the first call of
 * profdata_heap_class_retained() or profdata_heap_array_retained() computes
 * and keeps the per-class sums (make it before sharing the heap);
 * profdata_heap_path() allocates its own work memory and may run
 * concurrently with other readers.
 *
 * Memory: the analysis adds 12.25 bytes per object of the dump while it runs
 * (12, and an id index of 0.25 when the ids are sorted) and keeps 12 (16 when the dump's sizes are not multiples of 8 or the retained
 * total passes 8 GiB); the per-class totals, computed on first use, take 12
 * more per object for the time of that call. doc/heap-analysis.md has the
 * accounting.
 */
#ifndef PROFDATA_HEAP_H
#define PROFDATA_HEAP_H

#include <profdata/common.h>
#include <profdata/model.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct profdata_heap profdata_heap;

/*
 * Called now and then during long work: `phase` names the step ("graph",
 * "dominators", "retained", "classes", "path"), `done` of `total` units are
 * done (total may be 0 when unknown). A non-zero return stops the work,
 * which then returns PROFDATA_STOPPED.
 */
typedef int (*profdata_heap_progress_fn)(void *user, const char *phase, uint64_t done, uint64_t total);

typedef struct profdata_heap_options {
	size_t size;                       /* sizeof(profdata_heap_options): the struct may grow */
	long dump;                         /* which dump (0-based); VisualVM shows the first: 0 */
	profdata_heap_progress_fn progress; /* may be NULL */
	void *progress_user;
} profdata_heap_options;

/*
 * Compute the dominator tree and the retained sizes of dump opts->dump of
 * `p` (opts may be NULL: dump 0, no progress). 0 and *out the caller's, or
 * PROFDATA_ENOTFOUND (no such dump), PROFDATA_EINVAL (2^31 - 2 or more
 * objects and classes in the dump), PROFDATA_ENOMEM, PROFDATA_STOPPED.
 */
PROFDATA_API int profdata_heap_analyze(profdata_heap **out, const profdata_profile *p,
                                       const profdata_heap_options *opts);

/* NULL is a no-op. */
PROFDATA_API void profdata_heap_free(profdata_heap *h);

/* The model indexes [*first, *first + *count) of the dump analysed. */
PROFDATA_API void profdata_heap_objects(const profdata_heap *h, size_t *first, size_t *count);

/* Nodes (objects and classes) a root reaches, and the sum of their shallow sizes. */
PROFDATA_API size_t profdata_heap_reachable_count(const profdata_heap *h);
PROFDATA_API uint64_t profdata_heap_reachable_bytes(const profdata_heap *h);
/* Objects of the dump no root reaches, and their shallow bytes. */
PROFDATA_API size_t profdata_heap_unreachable_count(const profdata_heap *h);
PROFDATA_API uint64_t profdata_heap_unreachable_bytes(const profdata_heap *h);

/* The node of class row `class_index`'s class object. */
PROFDATA_API size_t profdata_heap_class_node(const profdata_heap *h, size_t class_index);
/* 1 and *class_index when `node` is a class object, else 0 (an object index). */
PROFDATA_API int profdata_heap_node_class(const profdata_heap *h, size_t node, size_t *class_index);

/* 1 when the node is in the dump and a root reaches it, else 0. */
PROFDATA_API int profdata_heap_reachable(const profdata_heap *h, size_t node);

/* Shallow size of a node (a class object's is java.lang.Class's instance size); 0 when not in the dump. */
PROFDATA_API uint64_t profdata_heap_size(const profdata_heap *h, size_t node);

/* Retained size of a node: 0 when unreachable or not in the dump. */
PROFDATA_API uint64_t profdata_heap_retained(const profdata_heap *h, size_t node);

/*
 * The immediate dominator of a node in *dominator: 0; 1 when the roots
 * alone dominate it; PROFDATA_ENOTFOUND when it is unreachable or not in
 * the dump. It costs a scan of the dump (the analysis keeps no map from
 * the tree's numbering back to nodes).
 */
PROFDATA_API int profdata_heap_dominator(const profdata_heap *h, size_t node, size_t *dominator);

/*
 * The (up to) n nodes of largest retained size, biggest first (ties: lower
 * id first, as VisualVM), into out[]. Returns how many were written (0 also when out
 * of memory).
 */
PROFDATA_API size_t profdata_heap_top(const profdata_heap *h, size_t n, size_t *out);

/*
 * The retained histogram: bytes retained by the instances of class row
 * `class_index` (profdata_profile_class()) that no other instance of that
 * class dominates — memory freed if the class's instances all went.
 * profdata_heap_array_retained() gives it for primitive arrays that have no
 * class record (by element type, profdata_basic_type). The first call
 * computes every class's (progress phase "classes"); it returns
 * PROFDATA_ENOMEM, or PROFDATA_STOPPED, in *bytes' place as 0 then.
 */
PROFDATA_API int profdata_heap_class_retained(profdata_heap *h, size_t class_index, uint64_t *bytes);
PROFDATA_API int profdata_heap_array_retained(profdata_heap *h, int elem_type, uint64_t *bytes);

/* One step of a path. */
typedef struct profdata_heap_step {
	size_t node;          /* the node reached */
	int root_kind;        /* first step: the kind of GC root record naming it (profdata_root_kind;
	                         PROFDATA_ROOT_UNKNOWN for a class that is a root as the class of a root
	                         object); else -1 */
	const char *field;    /* later steps: the previous node's field (instance or static) that holds it, or NULL */
	long long index;      /* later steps: the previous array's element index, or -1 */
} profdata_heap_step;

/*
 * The shortest path from a GC root to a node, root first, the node last:
 * writes up to `cap` steps into out and returns how many there are; 0 when
 * the node is unreachable; PROFDATA_ENOTFOUND when it is not in the dump;
 * PROFDATA_ENOMEM; PROFDATA_STOPPED. Each call walks the graph from the
 * roots (breadth first, 8 bytes per node of work memory, freed on return);
 * `progress` (may be NULL) reports phase "path".
 */
PROFDATA_API long profdata_heap_path(const profdata_heap *h, size_t node, profdata_heap_step *out, size_t cap,
                                     profdata_heap_progress_fn progress, void *progress_user);

#ifdef __cplusplus
}
#endif

#endif
