/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public calls of the heap analysis, listed once: heap_widths.c makes
 * of the list each call's dispatch to the width its object was made at
 * (heap_names.h), and heap_impl.h declares the list at its own width, so
 * that the compiler holds every entry to the definition it names.
 *
 * X(return type, name, (parameters), (arguments), object): the call goes to
 *   the width of `object`, a heap or something made from one;
 * V(...): the same for a call that returns nothing;
 * N(return type, name, (parameters), (arguments)): makes a heap, at the
 *   width its dump needs (heap_widths.c);
 * O(return type, name, (parameters), (arguments)): the same at both
 *   widths (an options struct's initialisation): the 32-bit one answers.
 *
 * Included by heap_width.h after the renames, so that in the analysis'
 * sources the public declarations name their width's calls.
 */
#ifndef PD_ANALYSIS_HEAP_CALLS_H
#define PD_ANALYSIS_HEAP_CALLS_H

#include "profdata/profdata.h"

/*
 * The most objects and classes of one dump the 32-bit analysis takes
 * (PD_HEAP_MAX_NODES at width 32); past them heap_widths.c picks 64.
 */
#define PD_HEAP_MAX_NODES_32 ((size_t)0x7ffffffe)

/*
 * The first member of every object the analysis hands out (a heap, a path,
 * suspects, waste, a diff): the width it was made at, which each call
 * dispatches on. Both widths lay it out alike, so either may read it.
 */
typedef struct pd_heap_head {
	unsigned width; /* 32 or 64 */
} pd_heap_head;

/*
 * The options, read by heap_widths.c (which picks the width from them) for
 * both widths: pd_versioned_adopt() of the heap's options (util/versioned.h).
 */
int pd_heap_options_adopt(profdata_heap_options *o, const profdata_heap_options *opts);

#define PD_HEAP_CALLS(X, V, N, O) \
	N(int, profdata_heap_analyze, (profdata_heap **out, const profdata_profile *p, const profdata_heap_options_0_2 *opts), \
	  (out, p, opts)) \
	X(int, profdata_heap_array_retained, (profdata_heap *h, int elem_type, uint64_t *bytes), \
	  (h, elem_type, bytes), h) \
	X(size_t, profdata_heap_class_node, (const profdata_heap *h, size_t class_index), (h, class_index), h) \
	X(int, profdata_heap_class_retained, (profdata_heap *h, size_t class_index, uint64_t *bytes), \
	  (h, class_index, bytes), h) \
	X(const profdata_heap_class_change *, profdata_heap_diff_class_at, (const profdata_heap_diff *d, size_t i), \
	  (d, i), d) \
	X(size_t, profdata_heap_diff_class_count, (const profdata_heap_diff *d), (d), d) \
	X(const profdata_heap_new_dominator *, profdata_heap_diff_dominator_at, \
	  (const profdata_heap_diff *d, size_t i), \
	  (d, i), d) \
	X(size_t, profdata_heap_diff_dominator_count, (const profdata_heap_diff *d), (d), d) \
	X(const profdata_error *, profdata_heap_diff_error, (const profdata_heap_diff *d), (d), d) \
	V(profdata_heap_diff_free, (profdata_heap_diff *d), (d), d) \
	X(int, profdata_heap_diff_new, \
	  (profdata_heap_diff **out, profdata_heap *old_heap, profdata_heap *new_heap, const profdata_heap_diff_options *opts), \
	  (out, old_heap, new_heap, opts), old_heap) \
	X(const profdata_heap_diff_objects *, profdata_heap_diff_objects_of, (const profdata_heap_diff *d), (d), d) \
	O(int, profdata_heap_diff_options_init, (profdata_heap_diff_options *opts, size_t size), (opts, size)) \
	X(int, profdata_heap_dominator, (const profdata_heap *h, size_t node, size_t *dominator), \
	  (h, node, dominator), h) \
	X(int, profdata_heap_dominator_of, (size_t *out, const profdata_heap *h, size_t node), (out, h, node), h) \
	X(const profdata_error *, profdata_heap_error, (const profdata_heap *h), (h), h) \
	V(profdata_heap_free, (profdata_heap *h), (h), h) \
	N(int, profdata_heap_new, (profdata_heap **out, const profdata_profile *p, const profdata_heap_options *opts), \
	  (out, p, opts)) \
	X(int, profdata_heap_node_class, (const profdata_heap *h, size_t node, size_t *class_index), \
	  (h, node, class_index), h) \
	V(profdata_heap_objects, (const profdata_heap *h, size_t *first, size_t *count), (h, first, count), h) \
	X(long, profdata_heap_path, \
	  (const profdata_heap *h, size_t node, profdata_heap_step *out, size_t cap, profdata_progress_cb progress, void *progress_user), \
	  (h, node, out, cap, progress, progress_user), h) \
	X(int, profdata_heap_reachable, (const profdata_heap *h, size_t node), (h, node), h) \
	X(uint64_t, profdata_heap_reachable_bytes, (const profdata_heap *h), (h), h) \
	X(size_t, profdata_heap_reachable_count, (const profdata_heap *h), (h), h) \
	X(uint64_t, profdata_heap_retained, (const profdata_heap *h, size_t node), (h, node), h) \
	X(int, profdata_heap_retained_by_array_type, (uint64_t *out, profdata_heap *h, int elem_type), \
	  (out, h, elem_type), h) \
	X(int, profdata_heap_retained_by_class, (uint64_t *out, profdata_heap *h, size_t class_index), \
	  (out, h, class_index), h) \
	X(const profdata_error *, profdata_heap_root_path_error, (const profdata_heap_root_path *path), (path), path) \
	V(profdata_heap_root_path_free, (profdata_heap_root_path *path), (path), path) \
	X(size_t, profdata_heap_root_path_length, (const profdata_heap_root_path *path), (path), path) \
	X(int, profdata_heap_root_path_new, \
	  (profdata_heap_root_path **out, const profdata_heap *h, size_t node, profdata_progress_cb progress, void *payload), \
	  (out, h, node, progress, payload), h) \
	X(const profdata_heap_step *, profdata_heap_root_path_step, (const profdata_heap_root_path *path, size_t i), \
	  (path, i), path) \
	X(uint64_t, profdata_heap_size, (const profdata_heap *h, size_t node), (h, node), h) \
	X(const profdata_heap_suspect *, profdata_heap_suspects_at, (const profdata_heap_suspects *s, size_t i), \
	  (s, i), s) \
	X(size_t, profdata_heap_suspects_count, (const profdata_heap_suspects *s), (s), s) \
	X(const profdata_error *, profdata_heap_suspects_error, (const profdata_heap_suspects *s), (s), s) \
	V(profdata_heap_suspects_free, (profdata_heap_suspects *s), (s), s) \
	X(int, profdata_heap_suspects_new, \
	  (profdata_heap_suspects **out, profdata_heap *h, const profdata_heap_suspects_options *opts), \
	  (out, h, opts), h) \
	O(int, profdata_heap_suspects_options_init, (profdata_heap_suspects_options *opts, size_t size), (opts, size)) \
	X(uint64_t, profdata_heap_suspects_threshold, (const profdata_heap_suspects *s), (s), s) \
	X(uint64_t, profdata_heap_suspects_total, (const profdata_heap_suspects *s), (s), s) \
	X(size_t, profdata_heap_top, (const profdata_heap *h, size_t n, size_t *out), (h, n, out), h) \
	X(int, profdata_heap_top_nodes, (size_t *out, size_t *count, const profdata_heap *h, size_t n), \
	  (out, count, h, n), h) \
	X(int, profdata_heap_tree_top, \
	  (size_t *nodes, size_t *parent, size_t *count, const profdata_heap *h, size_t n), \
	  (nodes, parent, count, h, n), h) \
	X(uint64_t, profdata_heap_unreachable_bytes, (const profdata_heap *h), (h), h) \
	X(size_t, profdata_heap_unreachable_count, (const profdata_heap *h), (h), h) \
	X(const profdata_heap_duplicate_array *, profdata_heap_waste_arrays, (const profdata_heap_waste *w, size_t *n), \
	  (w, n), w) \
	X(const profdata_heap_boxed *, profdata_heap_waste_boxed, (const profdata_heap_waste *w, size_t *n), (w, n), w) \
	X(const profdata_heap_collection_waste *, profdata_heap_waste_collections, \
	  (const profdata_heap_waste *w, size_t *n), \
	  (w, n), w) \
	X(const profdata_error *, profdata_heap_waste_error, (const profdata_heap_waste *w), (w), w) \
	V(profdata_heap_waste_free, (profdata_heap_waste *w), (w), w) \
	X(int, profdata_heap_waste_new, \
	  (profdata_heap_waste **out, profdata_heap *h, const profdata_heap_waste_options *opts), \
	  (out, h, opts), h) \
	O(int, profdata_heap_waste_options_init, (profdata_heap_waste_options *opts, size_t size), (opts, size)) \
	X(const profdata_heap_duplicate_string *, profdata_heap_waste_strings, \
	  (const profdata_heap_waste *w, size_t *n), \
	  (w, n), w) \
	X(const profdata_heap_waste_totals *, profdata_heap_waste_totals_of, (const profdata_heap_waste *w), (w), w)

#endif
