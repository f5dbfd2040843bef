/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: memory a heap dump wastes, the second question people open
 * a dump with (doc/heap-analysis.md, "Waste"). Four kinds, among the
 * objects a GC root reaches:
 *
 * - duplicate strings: java.lang.String instances of equal contents, read
 *   from their value array in every layout (char[], with offset and count
 *   before JDK 7u6; byte[] and a coder from JDK 9 on: 0 LATIN1, 1 UTF16 in
 *   the little-endian order of the JVMs that write dumps);
 * - duplicate primitive arrays: same type, length and contents (the value
 *   arrays of strings are left to the strings);
 * - empty and sparse collections: HashMap (and its subclasses, such as
 *   LinkedHashMap), WeakHashMap, Hashtable, ConcurrentHashMap, ArrayList,
 *   Vector and ArrayDeque, read from their fields by name (a HashSet is
 *   counted as the HashMap it holds);
 * - boxed primitives (java.lang.Integer, Long, Short, Byte, Character,
 *   Boolean, Float, Double): counts, bytes and repeated values.
 *
 * Bytes are shallow sizes by the one size rule of the library
 * (profdata_profile_object_size(), VisualVM's). Wasted bytes of a group of
 * duplicates: its bytes less those of the one copy kept, the cheapest (a
 * String with its array; an array several copies share counts once in the
 * group's bytes). Of a collection: its empty
 * slots times the reference size, for the empty and the sparse ones (fewer
 * elements than a quarter of its slots); the empty ones' own bytes are
 * given apart. Of boxes: all but one instance of each value.
 *
 * Experimental (0.3): declared only when PROFDATA_EXPERIMENTAL is defined
 * before including (doc/conventions.md, "The experimental tier").
 *
 * Ownership: profdata_heap_waste_new() gives the caller a handle to free
 * with profdata_heap_waste_free(); everything it returns is borrowed from
 * it. It does not borrow the heap, which may be freed first. Any heap will
 * do, one made with graph_only too (it needs reachability only). Threads:
 * made on the calling thread, the only user of the heap meanwhile; a
 * finished handle may be read from several threads at once. Memory while it
 * runs: a bit per object, 16-20 bytes per string or array while its kind
 * is sieved, and about 24 bytes of hash table per string or array whose
 * contents may repeat (the sieve's pass) and per distinct boxed value.
 */
#ifndef PROFDATA_WASTE_H
#define PROFDATA_WASTE_H

#include <profdata/common.h>
#include <profdata/heap.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef PROFDATA_EXPERIMENTAL

typedef struct profdata_heap_waste profdata_heap_waste;

typedef struct profdata_heap_waste_options {
	unsigned int version;
	/* Groups of duplicate strings and arrays listed, the most wasteful first; 0: 20. */
	size_t limit;
	/* Owners (objects referring to a copy) sampled per duplicate string; 0: 5. */
	size_t owners;
} profdata_heap_waste_options;

#define PROFDATA_HEAP_WASTE_OPTIONS_VERSION 1
#define PROFDATA_HEAP_WASTE_OPTIONS_INIT { PROFDATA_HEAP_WASTE_OPTIONS_VERSION, 0, 0 }

/*
 * Zero `size` bytes of *opts and set the newest version that fits (pass
 * sizeof *opts): 0, or PROFDATA_EINVAL when `size` is below version 1's.
 */
PROFDATA_EXPERIMENTAL_API int profdata_heap_waste_options_init(profdata_heap_waste_options *opts, size_t size);

/* The characters of a string listed, at most this many. */
#define PROFDATA_WASTE_TEXT_CHARS 100

/* Copies of one string. */
typedef struct profdata_heap_duplicate_string {
	const char *text;            /* the contents in UTF-8, cut at PROFDATA_WASTE_TEXT_CHARS characters */
	uint64_t length;             /* characters (UTF-16 units) of the whole string */
	int truncated;               /* 1 when text is cut */
	uint64_t count;              /* String instances */
	uint64_t bytes;              /* their shallow bytes with their arrays */
	uint64_t wasted;             /* bytes less the cheapest copy's */
	size_t node;                 /* one copy (a heap node, heap.h's numbering) */
	const size_t *owners;        /* nodes referring to a copy, in dump order, distinct, at most options.owners */
	size_t nowners;
} profdata_heap_duplicate_string;

/* Copies of one primitive array. */
typedef struct profdata_heap_duplicate_array {
	const char *class_name;      /* "byte[]", "int[]", ... */
	uint64_t length;             /* elements of each */
	uint64_t count, bytes, wasted;
	size_t node;                 /* one copy */
} profdata_heap_duplicate_array;

/* One collection class. */
typedef struct profdata_heap_collection_waste {
	const char *class_name;      /* Java form: "java.util.HashMap" */
	uint64_t count;              /* reachable instances */
	uint64_t empty;              /* no element */
	uint64_t sparse;             /* elements, under a quarter of the slots */
	uint64_t empty_bytes;        /* shallow bytes of the empty ones */
	uint64_t slots, used;        /* slots and elements of all the instances */
	uint64_t wasted;             /* empty slots of the empty and sparse ones, times the reference size */
} profdata_heap_collection_waste;

/* One box class. */
typedef struct profdata_heap_boxed {
	const char *class_name;      /* "java.lang.Integer" */
	uint64_t count, bytes;
	uint64_t distinct;           /* values */
	uint64_t wasted;             /* shallow bytes of all but one instance of each value */
	char top_value[32];          /* the value held most often, as Java prints it (a char: its code) */
	uint64_t top_count;          /* ... and by how many */
} profdata_heap_boxed;

typedef struct profdata_heap_waste_totals {
	uint64_t reachable_bytes;            /* what the shares are of */
	uint64_t strings, string_bytes;      /* reachable Strings read, with their arrays */
	uint64_t string_groups, duplicate_strings, string_wasted;  /* all groups (2 copies or more) */
	uint64_t array_groups, duplicate_arrays, array_wasted;
	uint64_t collection_wasted, empty_collection_bytes;
	uint64_t boxed_count, boxed_bytes, boxed_wasted;
} profdata_heap_waste_totals;

/*
 * Find the waste of the heap `h`'s dump (opts may be NULL). 0 and *out the
 * caller's; on failure the code, and *out, when not NULL, holds the
 * message (profdata_heap_waste_error()): PROFDATA_EINVAL for options of an
 * unknown version, PROFDATA_ENOMEM (*out NULL when the handle itself could
 * not be had).
 */
PROFDATA_EXPERIMENTAL_API int profdata_heap_waste_new(profdata_heap_waste **out, profdata_heap *h,
                                                      const profdata_heap_waste_options *opts);
/* The failure left on the handle; NULL after success. Borrowed. */
PROFDATA_EXPERIMENTAL_API const profdata_error *profdata_heap_waste_error(const profdata_heap_waste *w);

PROFDATA_EXPERIMENTAL_API const profdata_heap_waste_totals *profdata_heap_waste_totals_of(const profdata_heap_waste *w);
/* The listed groups, the most wasted bytes first (ties: the first copy in the dump first); *n their number. */
PROFDATA_EXPERIMENTAL_API const profdata_heap_duplicate_string *
profdata_heap_waste_strings(const profdata_heap_waste *w, size_t *n);
PROFDATA_EXPERIMENTAL_API const profdata_heap_duplicate_array *
profdata_heap_waste_arrays(const profdata_heap_waste *w, size_t *n);
/* Every collection and box class with a reachable instance, the most wasted bytes first. */
PROFDATA_EXPERIMENTAL_API const profdata_heap_collection_waste *
profdata_heap_waste_collections(const profdata_heap_waste *w, size_t *n);
PROFDATA_EXPERIMENTAL_API const profdata_heap_boxed *profdata_heap_waste_boxed(const profdata_heap_waste *w, size_t *n);
/* NULL is a no-op. */
PROFDATA_EXPERIMENTAL_API void profdata_heap_waste_free(profdata_heap_waste *w);

#endif /* PROFDATA_EXPERIMENTAL */

#ifdef __cplusplus
}
#endif

#endif
