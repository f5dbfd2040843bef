/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: what changed between two heap dumps, OLD and NEW, typically
 * of one process before and after it grew:
 *
 * - per class, the change in instances, shallow bytes and retained bytes
 *   (profdata_heap_retained_by_class()'s), largest growth first. Classes
 *   are matched by their Java name: the classes of one name that several
 *   class loaders loaded are one row, their figures summed (old_classes
 *   and new_classes say how many there were). Primitive arrays are rows of
 *   their own ("byte[]"); class objects are not counted, as in the class
 *   histogram (include/profdata/histogram.h);
 * - the objects present in both: an object of NEW is matched when OLD has
 *   an object of the same id and of a class of the same name. An HPROF id
 *   is an address: between two dumps of one process the collector may move
 *   an object (it is then counted gone and new) or put another at a freed
 *   address of another class (also gone and new); what `matched` counts is
 *   the objects that kept their address. Dumps of two processes match by
 *   chance only;
 * - the new objects' biggest dominators: the objects of NEW that are not
 *   matched and that no other new object dominates (the top of each
 *   subtree of new memory, a grown table rather than each of its entries),
 *   the largest retained first.
 *
 * Every object of each dump counts in the instances and bytes, reachable
 * or not (as the histogram counts them); only reachable ones retain.
 *
 * Experimental (0.3): declared only when PROFDATA_EXPERIMENTAL is defined
 * before including (doc/conventions.md, "The experimental tier").
 *
 * Ownership: profdata_heap_diff_new() gives the caller a handle to free
 * with profdata_heap_diff_free(); everything it returns is borrowed from
 * it. It does not borrow the heaps: they may be freed first. Threads: made
 * on the calling thread, which must be the only user of both heaps
 * meanwhile (it computes their per-class retained sizes when not yet
 * done); a finished handle may be read from several threads at once.
 * Memory: one bit per reachable object of NEW while it runs, what the
 * per-class retained sizes take (heap.h), and a row per class name after.
 */
#ifndef PROFDATA_HEAP_DIFF_H
#define PROFDATA_HEAP_DIFF_H

#include <profdata/common.h>
#include <profdata/heap.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef PROFDATA_EXPERIMENTAL

typedef struct profdata_heap_diff profdata_heap_diff;

/* What the classes are ordered by: the growth (NEW minus OLD) of shallow bytes, retained bytes or instances. */
enum { PROFDATA_HEAP_DIFF_BY_BYTES = 0, PROFDATA_HEAP_DIFF_BY_RETAINED = 1, PROFDATA_HEAP_DIFF_BY_INSTANCES = 2 };

typedef struct profdata_heap_diff_options {
	unsigned int version;
	/* PROFDATA_HEAP_DIFF_BY_*; 0: by shallow bytes. */
	int order;
	/* How many of the new objects' biggest dominators to list; 0: 10. */
	size_t dominators;
} profdata_heap_diff_options;

#define PROFDATA_HEAP_DIFF_OPTIONS_VERSION 1
#define PROFDATA_HEAP_DIFF_OPTIONS_INIT { PROFDATA_HEAP_DIFF_OPTIONS_VERSION, 0, 0 }

/*
 * Zero `size` bytes of *opts and set the newest version that fits (pass
 * sizeof *opts): 0, or PROFDATA_EINVAL when `size` is below version 1's.
 */
PROFDATA_EXPERIMENTAL_API int profdata_heap_diff_options_init(profdata_heap_diff_options *opts, size_t size);

/* One class name's change. */
typedef struct profdata_heap_class_change {
	const char *class_name;          /* Java form ("java.util.HashMap$Node", "byte[]") */
	uint64_t old_instances, new_instances;
	uint64_t old_bytes, new_bytes;   /* shallow */
	uint64_t old_retained, new_retained;
	int64_t instances, bytes, retained;  /* NEW minus OLD */
	uint32_t old_classes, new_classes;   /* classes of that name with instances (several loaders) */
} profdata_heap_class_change;

/* The objects of both dumps, matched by id (above). */
typedef struct profdata_heap_diff_objects {
	uint64_t old_objects, old_bytes;     /* every object of OLD's dump, and their shallow bytes */
	uint64_t new_objects, new_bytes;     /* ... of NEW's */
	uint64_t matched, matched_bytes;     /* present in both (bytes: NEW's) */
	uint64_t added, added_bytes;         /* in NEW only */
	uint64_t gone, gone_bytes;           /* in OLD only (bytes: OLD's) */
} profdata_heap_diff_objects;

/* A new object no other new object dominates. */
typedef struct profdata_heap_new_dominator {
	size_t node;                     /* a node of NEW's heap (heap.h's numbering) */
	uint64_t id;                     /* its id in NEW's dump */
	const char *class_name;          /* Java form */
	uint64_t shallow, retained;
} profdata_heap_new_dominator;

/*
 * Compare the analysed heaps `old_heap` and `new_heap` (opts may be NULL for
 * the defaults). 0 and *out the caller's; on failure the code, and *out,
 * when not NULL, holds the message (profdata_heap_diff_error()):
 * PROFDATA_EINVAL for a heap made with graph_only, two heaps of different
 * node widths (a dump past 2^31 - 2 objects and classes has 64-bit ones:
 * make the other with the heap option node_bits 64, heap.h), or options of
 * an unknown version or order; PROFDATA_ENOMEM, PROFDATA_STOPPED or a progress
 * callback's code while a heap computes its per-class retained sizes (*out
 * NULL when the handle itself could not be had).
 */
PROFDATA_EXPERIMENTAL_API int profdata_heap_diff_new(profdata_heap_diff **out, profdata_heap *old_heap,
                                                     profdata_heap *new_heap, const profdata_heap_diff_options *opts);

/* The failure profdata_heap_diff_new() left on its handle; NULL after success. Borrowed. */
PROFDATA_EXPERIMENTAL_API const profdata_error *profdata_heap_diff_error(const profdata_heap_diff *d);

/* The class names of either dump, the largest growth first (ties: by name). */
PROFDATA_EXPERIMENTAL_API size_t profdata_heap_diff_class_count(const profdata_heap_diff *d);
/* Class name i, borrowed; NULL past the end. */
PROFDATA_EXPERIMENTAL_API const profdata_heap_class_change *profdata_heap_diff_class_at(const profdata_heap_diff *d,
                                                                                        size_t i);
/* The objects matched, new and gone. Borrowed. */
PROFDATA_EXPERIMENTAL_API const profdata_heap_diff_objects *profdata_heap_diff_objects_of(const profdata_heap_diff *d);
/* The new objects' biggest dominators, the largest retained first (ties: lower id first). */
PROFDATA_EXPERIMENTAL_API size_t profdata_heap_diff_dominator_count(const profdata_heap_diff *d);
/* Dominator i, borrowed; NULL past the end. */
PROFDATA_EXPERIMENTAL_API const profdata_heap_new_dominator *profdata_heap_diff_dominator_at(
	const profdata_heap_diff *d, size_t i);
/* NULL is a no-op. */
PROFDATA_EXPERIMENTAL_API void profdata_heap_diff_free(profdata_heap_diff *d);

#endif /* PROFDATA_EXPERIMENTAL */

#ifdef __cplusplus
}
#endif

#endif
