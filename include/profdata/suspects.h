/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: leak suspects of a heap dump, the question most people open
 * a dump with. A suspect is what retains a large share of the reachable
 * heap (a threshold, 10% by default):
 *
 * - an object suspect: one object that no other object dominates (only
 *   the GC roots do: a "top-level dominator", a class object holding a
 *   static field among them) retaining at least the threshold;
 * - a class suspect: the top-level dominators of one class, none a
 *   suspect alone, retaining at least the threshold together (a thousand
 *   sessions of 1% each).
 *
 * Under an object suspect, the accumulation point is where its memory
 * gathers: going down the dominator tree from it while one child holds at
 * least 80% of its parent's retained size (a HashMap, then its table: the
 * table is the point, its entries hold a little each). What the
 * accumulation point dominates directly is listed by class (a collection's
 * elements: their class, count and retained bytes), largest first. For a
 * class suspect, what its instances dominate directly is listed alike.
 * The shortest path from a GC root to a suspect is
 * profdata_heap_root_path_new()'s (include/profdata/heap.h).
 *
 * Experimental (0.3): declared only when PROFDATA_EXPERIMENTAL is defined
 * before including (doc/conventions.md, "The experimental tier").
 *
 * Ownership: profdata_heap_suspects_new() gives the caller a handle to free
 * with profdata_heap_suspects_free(); everything it returns is borrowed from
 * it and lives as long as it does. It does not borrow the heap: the heap
 * may be freed first. Threads: made on the calling thread, which must be the
 * only user of the heap meanwhile; a finished handle may be read from
 * several threads at once. Memory: 4 bytes per reachable object while it
 * runs, and the suspects alone after.
 */
#ifndef PROFDATA_SUSPECTS_H
#define PROFDATA_SUSPECTS_H

#include <profdata/common.h>
#include <profdata/heap.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef PROFDATA_EXPERIMENTAL

typedef struct profdata_heap_suspects profdata_heap_suspects;

typedef struct profdata_heap_suspects_options {
	unsigned int version;
	/* The share of the reachable bytes a suspect retains at least, above 0 and at most 1; 0: 0.10. */
	double threshold;
	/* How many classes to list under each suspect, largest first; 0: 10. */
	size_t classes;
} profdata_heap_suspects_options;

#define PROFDATA_HEAP_SUSPECTS_OPTIONS_VERSION 1
#define PROFDATA_HEAP_SUSPECTS_OPTIONS_INIT { PROFDATA_HEAP_SUSPECTS_OPTIONS_VERSION, 0, 0 }

/*
 * Zero `size` bytes of *opts and set the newest version that fits (pass
 * sizeof *opts): 0, or PROFDATA_EINVAL when `size` is below version 1's.
 */
PROFDATA_EXPERIMENTAL_API int profdata_heap_suspects_options_init(profdata_heap_suspects_options *opts, size_t size);

enum { PROFDATA_SUSPECT_OBJECT = 1, PROFDATA_SUSPECT_CLASS = 2 };

/* A class of what a suspect accumulates. */
typedef struct profdata_heap_accumulated {
	const char *class_name;      /* Java form ("java.util.HashMap$Node", "byte[]", "java.lang.Class" for class objects) */
	uint64_t count;              /* objects of that class dominated directly */
	uint64_t retained;           /* the bytes they retain together */
} profdata_heap_accumulated;

typedef struct profdata_heap_suspect {
	int kind;                    /* PROFDATA_SUSPECT_OBJECT or PROFDATA_SUSPECT_CLASS */
	/* The object suspect; a class suspect's biggest instance. A heap node (heap.h's numbering). */
	size_t node;
	/* Its class in Java form; a class object's is the class it stands for, and class_object is 1. */
	const char *class_name;
	int class_object;
	uint64_t instances;          /* 1; a class suspect's top-level instances */
	uint64_t retained;           /* what the suspect (all those instances) retains */
	/* Object suspects: the accumulation point (a node, maybe `node` itself) and what it retains. */
	size_t accumulation;
	uint64_t accumulation_retained;
	size_t depth;                /* dominator tree steps from node down to the accumulation point */
	/* What the accumulation point (a class suspect's instances) dominates directly, by class, largest first. */
	const profdata_heap_accumulated *accumulated;
	size_t naccumulated;
	uint64_t accumulated_classes;    /* how many classes in all, of which naccumulated are listed */
} profdata_heap_suspect;

/*
 * Find the suspects of the analysed heap `h` (opts may be NULL for the
 * defaults). 0 and *out the caller's; on failure the code, and *out, when
 * not NULL, holds the message (profdata_heap_suspects_error):
 * PROFDATA_EINVAL for a heap made with graph_only, options of an unknown
 * version or a threshold outside (0, 1]; PROFDATA_ENOMEM (*out NULL when the
 * handle itself could not be had).
 */
PROFDATA_EXPERIMENTAL_API int profdata_heap_suspects_new(profdata_heap_suspects **out, profdata_heap *h,
                                                         const profdata_heap_suspects_options *opts);

/* The failure profdata_heap_suspects_new() left on its handle; NULL after success. Borrowed. */
PROFDATA_EXPERIMENTAL_API const profdata_error *profdata_heap_suspects_error(const profdata_heap_suspects *s);

/* The suspects, the largest retained first (object and class suspects mixed). */
PROFDATA_EXPERIMENTAL_API size_t profdata_heap_suspects_count(const profdata_heap_suspects *s);
/* Suspect i, borrowed; NULL past the end. */
PROFDATA_EXPERIMENTAL_API const profdata_heap_suspect *profdata_heap_suspects_at(const profdata_heap_suspects *s,
                                                                                 size_t i);
/* The reachable bytes the shares are of, and the threshold applied in bytes. */
PROFDATA_EXPERIMENTAL_API uint64_t profdata_heap_suspects_total(const profdata_heap_suspects *s);
PROFDATA_EXPERIMENTAL_API uint64_t profdata_heap_suspects_threshold(const profdata_heap_suspects *s);
/* NULL is a no-op. */
PROFDATA_EXPERIMENTAL_API void profdata_heap_suspects_free(profdata_heap_suspects *s);

#endif /* PROFDATA_EXPERIMENTAL */

#ifdef __cplusplus
}
#endif

#endif
