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
 * Ownership: profdata_heap_new() gives the caller a profdata_heap to free
 * with profdata_heap_free(); it borrows the profile, which must outlive it
 * and not change meanwhile. Pointers the functions below return are
 * borrowed from the heap (or its profile); a path from a GC root is a
 * handle of its own (profdata_heap_root_path_new()).
 *
 * Errors: a failure of the analysis, or of the first per-class call, leaves
 * its message on the heap (profdata_heap_error()); a path's on the path.
 * When the analysis fails, profdata_heap_new() still hands the heap over,
 * holding the message, unless the heap itself could not be allocated
 * (doc/conventions.md). Calls that read a finished heap write nothing to it
 * and cannot fail, or answer PROFDATA_ENOTFOUND for a node or class that is
 * not there, or PROFDATA_EINVAL when they need the dominator tree of a heap
 * made without it (graph_only: for paths alone, see profdata_heap_new()).
 *
 * Threads: the analysis runs on the calling thread, and so do its progress
 * callbacks. A finished profdata_heap may be read from several threads at
 * once, except that the first call of profdata_heap_retained_by_class() or
 * profdata_heap_retained_by_array_type() computes and keeps the per-class
 * sums (make it before sharing the heap); profdata_heap_root_path_new()
 * allocates its own work memory and may run concurrently with other
 * readers.
 *
 * Memory: the analysis adds 12.25 bytes per object of the dump while it runs
 * (12, and an id index of 0.25 when the ids are sorted) and keeps 12 (16 when the dump's sizes are not multiples of 8 or the retained
 * total passes 8 GiB); the per-class totals, computed on first use, take 4
 * more per object for the time of that call. A heap of the graph only keeps
 * 4. Those are the figures of 32-bit node numbers, which a dump of fewer
 * than 2^31 - 2 objects and classes gets; past that (or with node_bits 64)
 * every one of them doubles: 24 bytes per object kept. The model holds up
 * to 2^32 - 2 objects. doc/heap-analysis.md has the accounting.
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
 * (0.3) What the analysis is asked; a struct that grows by `version`
 * (doc/conventions.md): initialise it with PROFDATA_HEAP_OPTIONS_INIT or
 * profdata_heap_options_init(&o, sizeof o).
 */
typedef struct profdata_heap_options {
	unsigned version;              /* PROFDATA_HEAP_OPTIONS_VERSION */
	long dump;                     /* which dump (0-based); VisualVM shows the first: 0 */
	/* Called now and then with phase "graph", "dominators", "retained", then
	 * "classes" (by the first per-class call), `done` of `total` objects;
	 * may be NULL. Its return stops the work as common.h says. It must not
	 * read the heap: during "classes" the heap's tables hold the walk's,
	 * and a stop there returns once the walk has given them back (it goes
	 * on to its end without counting: about a second on 37M objects). */
	profdata_progress_cb progress;
	void *payload;                 /* progress's; borrowed for the heap's life */
	/* (0.3, version 2) 1: the graph only, for paths from GC roots: reachability, counts, sizes and
	 * paths, without the dominator tree and the retained sizes (below, "A heap of the graph only");
	 * 0 (version 1's behaviour): everything. */
	int graph_only;
	/* (0.3, version 3) The width of the analysis' node numbers. 0 (versions 1 and 2's behaviour): 32 bits
	 * while the dump has fewer than 2^31 - 2 objects and classes, 64 past that; 64: on any dump (two heaps
	 * of one width are what profdata_heap_diff_new() compares); 32: a dump past that is refused with
	 * PROFDATA_EINVAL. Other values: PROFDATA_EINVAL. The memory each costs: "Memory" below. */
	unsigned node_bits;
} profdata_heap_options;

#define PROFDATA_HEAP_OPTIONS_VERSION 3
#define PROFDATA_HEAP_OPTIONS_INIT { PROFDATA_HEAP_OPTIONS_VERSION, 0, NULL, NULL, 0, 0 }

/*
 * (0.3) Zero `size` bytes of *opts (pass sizeof *opts) and set the newest
 * version that fits: dump 0, no progress, the whole analysis. A struct of
 * version 1 (without graph_only) is still taken: it asks for the whole
 * analysis. PROFDATA_EINVAL when `size` is below the first version's.
 * Threads: any.
 */
PROFDATA_API int profdata_heap_options_init(profdata_heap_options *opts, size_t size);

/*
 * (0.3) Compute the dominator tree and the retained sizes of dump
 * opts->dump of `p` (opts may be NULL: dump 0, no progress), or with
 * opts->graph_only its graph alone (below). Returns 0 and
 * *out, the caller's to free with profdata_heap_free(). On failure *out is
 * still the caller's heap, holding the message (profdata_heap_error());
 * free it, it answers nothing else. The codes: PROFDATA_ENOTFOUND (no such
 * dump), PROFDATA_EINVAL (options of an unknown version, node_bits neither
 * 0, 32 nor 64, or node_bits 32 and 2^31 - 2 or more objects and classes
 * in the dump), PROFDATA_ENOMEM, PROFDATA_STOPPED
 * or the progress callback's negative code (the message names the phase).
 * Only when the heap itself cannot be allocated is *out NULL, with
 * PROFDATA_ENOMEM.
 */
PROFDATA_API int profdata_heap_new(profdata_heap **out, const profdata_profile *p,
                                   const profdata_heap_options *opts);

/*
 * A heap of the graph only (opts->graph_only, options version 2): the walk
 * from the roots and VisualVM's class connections, nothing after them
 * (progress phase "graph" only). It answers what the graph tells:
 * profdata_heap_objects, _reachable_count/_bytes, _unreachable_count/_bytes,
 * _class_node, _node_class, _reachable, _size, and paths from GC roots
 * (profdata_heap_root_path_new), the very paths of a whole analysis. What
 * needs the dominator tree it refuses with PROFDATA_EINVAL:
 * profdata_heap_dominator_of, _top_nodes (*count 0), _retained_by_class and
 * _retained_by_array_type (*out 0); profdata_heap_retained() gives 0. They
 * write nothing (threads may read the heap at once): the message they refer
 * to, "made with graph_only, without the dominator tree", is the heap's
 * profdata_heap_error() from the start. It keeps 4 bytes per node (12.25
 * while it is made) where the whole analysis keeps 12.
 */

/*
 * (0.3) The heap's last error (of profdata_heap_new() or of the first
 * per-class call), or NULL; on a heap of the graph only that has no such
 * error, the message of the calls it refuses (PROFDATA_EINVAL). Borrowed
 * from the heap. Threads: a read.
 */
PROFDATA_API const profdata_error *profdata_heap_error(const profdata_heap *h);

/*
 * (0.3) The width of h's node numbers, 32 or 64 (profdata_heap_options'
 * node_bits): what its memory per object is counted in, and what a heap
 * it is compared with (profdata_heap_diff_new()) must share. Threads: a read.
 */
PROFDATA_API unsigned profdata_heap_node_bits(const profdata_heap *h);

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

/* Retained size of a node: 0 when unreachable, not in the dump, or the heap is of the graph only. */
PROFDATA_API uint64_t profdata_heap_retained(const profdata_heap *h, size_t node);

/* What profdata_heap_dominator_of() gives for a node the roots alone dominate. */
#define PROFDATA_HEAP_ROOTS ((size_t)-1)

/*
 * (0.3) The immediate dominator of a node: 0 and *out, a node or
 * PROFDATA_HEAP_ROOTS when the roots alone dominate it; PROFDATA_ENOTFOUND
 * (an answer: no message) when the node is unreachable or not in the dump;
 * PROFDATA_EINVAL on a heap of the graph only. It costs a scan of the dump
 * (the analysis keeps no map from the tree's numbering back to nodes).
 */
PROFDATA_API int profdata_heap_dominator_of(size_t *out, const profdata_heap *h, size_t node);

/*
 * (0.3) The (up to) n reachable nodes of largest retained size, biggest
 * first (ties: lower id first, as VisualVM), into out[0 .. *count). It
 * ranks them in `out` itself and allocates nothing: it returns 0, or
 * PROFDATA_EINVAL and *count 0 on a heap of the graph only.
 */
PROFDATA_API int profdata_heap_top_nodes(size_t *out, size_t *count, const profdata_heap *h, size_t n);

#ifdef PROFDATA_EXPERIMENTAL
/*
 * (0.3, experimental: doc/conventions.md) The top of the dominator tree, to
 * draw it: the (up to) n nodes profdata_heap_top_nodes() chooses, into
 * nodes[0 .. *count) in the tree's order (every node after its dominators),
 * and in parent[k] the index in `nodes` of node k's nearest dominator among
 * them (below k), or PROFDATA_HEAP_ROOTS when none is. Both arrays have
 * room for n. Returns 0; PROFDATA_ENOMEM (it allocates 16 bytes per node
 * chosen while it runs); PROFDATA_EINVAL and *count 0 on a heap of the
 * graph only. Threads: as the other readers of a finished heap.
 */
PROFDATA_API int profdata_heap_tree_top(size_t *nodes, size_t *parent, size_t *count, const profdata_heap *h,
                                        size_t n);
#endif

/*
 * (0.3) The retained histogram: in *out the bytes retained by the instances
 * of class row `class_index` (profdata_profile_class()) that no other
 * instance of that class dominates: memory freed if the class's instances
 * all went. profdata_heap_retained_by_array_type() gives it for primitive
 * arrays that have no class record (by element type, profdata_basic_type).
 * The first call computes every class's (progress phase "classes"): it may
 * fail with PROFDATA_ENOMEM, PROFDATA_STOPPED or the progress callback's
 * code, with the message on the heap, and *out 0; a later call may compute
 * again. PROFDATA_ENOTFOUND (an answer, *out 0) for a row or type that is
 * not there; PROFDATA_EINVAL (*out 0, nothing computed nor written) on a
 * heap of the graph only.
 */
PROFDATA_API int profdata_heap_retained_by_class(uint64_t *out, profdata_heap *h, size_t class_index);
PROFDATA_API int profdata_heap_retained_by_array_type(uint64_t *out, profdata_heap *h, int elem_type);

/* One step of a path. */
typedef struct profdata_heap_step {
	size_t node;          /* the node reached */
	int root_kind;        /* first step: the kind of GC root record naming it (profdata_root_kind;
	                         PROFDATA_ROOT_UNKNOWN for a class that is a root as the class of a root
	                         object); else -1 */
	const char *field;    /* later steps: the previous node's field (instance or static) that holds it, or NULL */
	long long index;      /* later steps: the previous array's element index, or -1 */
} profdata_heap_step;

/* (0.3) The shortest path from a GC root to a node. */
typedef struct profdata_heap_root_path profdata_heap_root_path;

/*
 * (0.3) Find the shortest path from a GC root to `node`: 0 and *out, the
 * caller's to free with profdata_heap_root_path_free(); its length is 0
 * when the node is unreachable. Each call walks the graph from the roots
 * (breadth first, 8 bytes per node of work memory, freed on return);
 * `progress` (may be NULL) is called with `payload` and phase "path".
 * On failure *out is still the caller's path, holding the message
 * (profdata_heap_root_path_error()): PROFDATA_ENOTFOUND (not in the dump),
 * PROFDATA_ENOMEM, PROFDATA_STOPPED or the callback's negative code. Only
 * when the path itself cannot be allocated is *out NULL (PROFDATA_ENOMEM).
 * Writes nothing to the heap: threads may find paths at once.
 */
PROFDATA_API int profdata_heap_root_path_new(profdata_heap_root_path **out, const profdata_heap *h, size_t node,
                                             profdata_progress_cb progress, void *payload);

/* (0.3) Steps of the path, the root first and the node last; 0 when unreachable. */
PROFDATA_API size_t profdata_heap_root_path_length(const profdata_heap_root_path *path);

/*
 * (0.3) Step i, or NULL past the end. Borrowed from the path; its `field`
 * from the heap's profile.
 */
PROFDATA_API const profdata_heap_step *profdata_heap_root_path_step(const profdata_heap_root_path *path,
                                                                    size_t i);

/* (0.3) The error the path was made with, or NULL. Borrowed from the path. */
PROFDATA_API const profdata_error *profdata_heap_root_path_error(const profdata_heap_root_path *path);

/* (0.3) NULL is a no-op. */
PROFDATA_API void profdata_heap_root_path_free(profdata_heap_root_path *path);

/* ---- kept for 0.2's callers (doc/conventions.md, "Deprecation") ---- */

/* Deprecated (0.3): profdata_progress_cb, the same type. */
typedef int (*profdata_heap_progress_fn)(void *user, const char *phase, uint64_t done, uint64_t total)
	PROFDATA_DEPRECATED("use profdata_progress_cb");

/*
 * Deprecated (0.3): 0.2's profdata_heap_options, which grew by `size`
 * (sizeof(profdata_heap_options_0_2)). For profdata_heap_analyze() only.
 */
typedef struct profdata_heap_options_0_2 {
	size_t size;
	long dump;
	profdata_progress_cb progress;     /* any non-zero return stops with PROFDATA_STOPPED */
	void *progress_user;
} profdata_heap_options_0_2;

/*
 * Deprecated (0.3): profdata_heap_new(). As 0.2 did it: on failure *out is
 * NULL and no message is kept; any non-zero return of the progress
 * callback gives PROFDATA_STOPPED.
 */
PROFDATA_DEPRECATED("use profdata_heap_new")
PROFDATA_API int profdata_heap_analyze(profdata_heap **out, const profdata_profile *p,
                                       const profdata_heap_options_0_2 *opts);

/* Deprecated (0.3): profdata_heap_dominator_of(). 1, *dominator untouched, when the roots alone dominate. */
PROFDATA_DEPRECATED("use profdata_heap_dominator_of")
PROFDATA_API int profdata_heap_dominator(const profdata_heap *h, size_t node, size_t *dominator);

/* Deprecated (0.3): profdata_heap_top_nodes(). Returns how many were written. */
PROFDATA_DEPRECATED("use profdata_heap_top_nodes")
PROFDATA_API size_t profdata_heap_top(const profdata_heap *h, size_t n, size_t *out);

/* Deprecated (0.3): profdata_heap_retained_by_class() and _by_array_type(), out first. */
PROFDATA_DEPRECATED("use profdata_heap_retained_by_class")
PROFDATA_API int profdata_heap_class_retained(profdata_heap *h, size_t class_index, uint64_t *bytes);
PROFDATA_DEPRECATED("use profdata_heap_retained_by_array_type")
PROFDATA_API int profdata_heap_array_retained(profdata_heap *h, int elem_type, uint64_t *bytes);

/*
 * Deprecated (0.3): profdata_heap_root_path_new(), which walks the graph
 * once (this, called for the length and again for the steps, walks it
 * twice). Writes up to `cap` steps into out and returns how many there are;
 * 0 when unreachable; PROFDATA_ENOTFOUND, PROFDATA_ENOMEM, PROFDATA_STOPPED
 * (any non-zero return of `progress`), with no message.
 */
PROFDATA_DEPRECATED("use profdata_heap_root_path_new")
PROFDATA_API long profdata_heap_path(const profdata_heap *h, size_t node, profdata_heap_step *out, size_t cap,
                                     profdata_progress_cb progress, void *progress_user);

#ifdef __cplusplus
}
#endif

#endif
