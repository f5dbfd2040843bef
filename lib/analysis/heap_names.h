/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The library carries the heap analysis twice, compiled from the same
 * sources at node numbers of 32 and of 64 bits (heap_width.h). Each compile
 * gives every external name of those sources its width's prefix, pd_w32_
 * or pd_w64_, so that both link into one library; heap_widths.c defines the
 * public calls, each of which hands its object to the width it was made at
 * (heap_calls.h). A name missing here is defined by both compiles and the
 * link fails, so the list cannot fall behind the sources unnoticed.
 *
 * Included by heap_width.h only, before any public header: a declaration
 * read before the renames would name the unprefixed call.
 */
#ifndef PD_ANALYSIS_HEAP_NAMES_H
#define PD_ANALYSIS_HEAP_NAMES_H

#if defined(PROFDATA_COMMON_H)
#error "analysis/heap_width.h comes before the public headers: it renames what they declare"
#endif

#define PD_HEAP_W(name) PD_HEAP_W_(PD_HEAP_WIDTH, name)
#define PD_HEAP_W_(width, name) PD_HEAP_W__(width, name)
#define PD_HEAP_W__(width, name) pd_w##width##_##name

/* The analysis' own calls (lib/analysis). */
#define pd_dup_add PD_HEAP_W(pd_dup_add)
#define pd_dup_free PD_HEAP_W(pd_dup_free)
#define pd_dup_ranked PD_HEAP_W(pd_dup_ranked)
#define pd_dup_sieve_free PD_HEAP_W(pd_dup_sieve_free)
#define pd_dup_sieve_note PD_HEAP_W(pd_dup_sieve_note)
#define pd_dup_sieve_sift PD_HEAP_W(pd_dup_sieve_sift)
#define pd_dup_sieve_start PD_HEAP_W(pd_dup_sieve_start)
#define pd_heap_analyze PD_HEAP_W(pd_heap_analyze)
#define pd_heap_class_name PD_HEAP_W(pd_heap_class_name)
#define pd_heap_class_named PD_HEAP_W(pd_heap_class_named)
#define pd_heap_connect_classes PD_HEAP_W(pd_heap_connect_classes)
#define pd_heap_count_reachable PD_HEAP_W(pd_heap_count_reachable)
#define pd_heap_failed PD_HEAP_W(pd_heap_failed)
#define pd_heap_graph_free PD_HEAP_W(pd_heap_graph_free)
#define pd_heap_graph_init PD_HEAP_W(pd_heap_graph_init)
#define pd_heap_local_class PD_HEAP_W(pd_heap_local_class)
#define pd_heap_rank PD_HEAP_W(pd_heap_rank)
#define pd_heap_refs_next PD_HEAP_W(pd_heap_refs_next)
#define pd_heap_refs_start PD_HEAP_W(pd_heap_refs_start)
#define pd_heap_resolve_batch PD_HEAP_W(pd_heap_resolve_batch)
#define pd_heap_report PD_HEAP_W(pd_heap_report)
#define pd_heap_retained_size PD_HEAP_W(pd_heap_retained_size)
#define pd_heap_size PD_HEAP_W(pd_heap_size)
#define pd_heap_slot_name PD_HEAP_W(pd_heap_slot_name)
#define pd_heap_slot_retained PD_HEAP_W(pd_heap_slot_retained)
#define pd_heap_slots_of PD_HEAP_W(pd_heap_slots_of)
#define pd_heap_trees_free PD_HEAP_W(pd_heap_trees_free)
#define pd_heap_trees_init PD_HEAP_W(pd_heap_trees_init)
#define pd_heap_trees_note_lists PD_HEAP_W(pd_heap_trees_note_lists)
#define pd_heap_trees_sum PD_HEAP_W(pd_heap_trees_sum)
#define pd_waste_classes PD_HEAP_W(pd_waste_classes)
#define pd_waste_field PD_HEAP_W(pd_waste_field)
#define pd_waste_string_units PD_HEAP_W(pd_waste_string_units)
#define pd_waste_utf8 PD_HEAP_W(pd_waste_utf8)

/* The public calls (profdata/heap.h, suspects.h, waste.h, heap_diff.h). */
#define profdata_heap_analyze PD_HEAP_W(profdata_heap_analyze)
#define profdata_heap_array_retained PD_HEAP_W(profdata_heap_array_retained)
#define profdata_heap_class_node PD_HEAP_W(profdata_heap_class_node)
#define profdata_heap_class_retained PD_HEAP_W(profdata_heap_class_retained)
#define profdata_heap_diff_class_at PD_HEAP_W(profdata_heap_diff_class_at)
#define profdata_heap_diff_class_count PD_HEAP_W(profdata_heap_diff_class_count)
#define profdata_heap_diff_dominator_at PD_HEAP_W(profdata_heap_diff_dominator_at)
#define profdata_heap_diff_dominator_count PD_HEAP_W(profdata_heap_diff_dominator_count)
#define profdata_heap_diff_error PD_HEAP_W(profdata_heap_diff_error)
#define profdata_heap_diff_free PD_HEAP_W(profdata_heap_diff_free)
#define profdata_heap_diff_new PD_HEAP_W(profdata_heap_diff_new)
#define profdata_heap_diff_objects_of PD_HEAP_W(profdata_heap_diff_objects_of)
#define profdata_heap_diff_options_init PD_HEAP_W(profdata_heap_diff_options_init)
#define profdata_heap_dominator PD_HEAP_W(profdata_heap_dominator)
#define profdata_heap_dominator_of PD_HEAP_W(profdata_heap_dominator_of)
#define profdata_heap_error PD_HEAP_W(profdata_heap_error)
#define profdata_heap_free PD_HEAP_W(profdata_heap_free)
#define profdata_heap_new PD_HEAP_W(profdata_heap_new)
#define profdata_heap_node_class PD_HEAP_W(profdata_heap_node_class)
#define profdata_heap_objects PD_HEAP_W(profdata_heap_objects)
#define profdata_heap_path PD_HEAP_W(profdata_heap_path)
#define profdata_heap_reachable PD_HEAP_W(profdata_heap_reachable)
#define profdata_heap_reachable_bytes PD_HEAP_W(profdata_heap_reachable_bytes)
#define profdata_heap_reachable_count PD_HEAP_W(profdata_heap_reachable_count)
#define profdata_heap_retained PD_HEAP_W(profdata_heap_retained)
#define profdata_heap_retained_by_array_type PD_HEAP_W(profdata_heap_retained_by_array_type)
#define profdata_heap_retained_by_class PD_HEAP_W(profdata_heap_retained_by_class)
#define profdata_heap_root_path_error PD_HEAP_W(profdata_heap_root_path_error)
#define profdata_heap_root_path_free PD_HEAP_W(profdata_heap_root_path_free)
#define profdata_heap_root_path_length PD_HEAP_W(profdata_heap_root_path_length)
#define profdata_heap_root_path_new PD_HEAP_W(profdata_heap_root_path_new)
#define profdata_heap_root_path_step PD_HEAP_W(profdata_heap_root_path_step)
#define profdata_heap_size PD_HEAP_W(profdata_heap_size)
#define profdata_heap_suspects_at PD_HEAP_W(profdata_heap_suspects_at)
#define profdata_heap_suspects_count PD_HEAP_W(profdata_heap_suspects_count)
#define profdata_heap_suspects_error PD_HEAP_W(profdata_heap_suspects_error)
#define profdata_heap_suspects_free PD_HEAP_W(profdata_heap_suspects_free)
#define profdata_heap_suspects_new PD_HEAP_W(profdata_heap_suspects_new)
#define profdata_heap_suspects_options_init PD_HEAP_W(profdata_heap_suspects_options_init)
#define profdata_heap_suspects_threshold PD_HEAP_W(profdata_heap_suspects_threshold)
#define profdata_heap_suspects_total PD_HEAP_W(profdata_heap_suspects_total)
#define profdata_heap_top PD_HEAP_W(profdata_heap_top)
#define profdata_heap_top_nodes PD_HEAP_W(profdata_heap_top_nodes)
#define profdata_heap_tree_top PD_HEAP_W(profdata_heap_tree_top)
#define profdata_heap_unreachable_bytes PD_HEAP_W(profdata_heap_unreachable_bytes)
#define profdata_heap_unreachable_count PD_HEAP_W(profdata_heap_unreachable_count)
#define profdata_heap_waste_arrays PD_HEAP_W(profdata_heap_waste_arrays)
#define profdata_heap_waste_boxed PD_HEAP_W(profdata_heap_waste_boxed)
#define profdata_heap_waste_collections PD_HEAP_W(profdata_heap_waste_collections)
#define profdata_heap_waste_error PD_HEAP_W(profdata_heap_waste_error)
#define profdata_heap_waste_free PD_HEAP_W(profdata_heap_waste_free)
#define profdata_heap_waste_new PD_HEAP_W(profdata_heap_waste_new)
#define profdata_heap_waste_options_init PD_HEAP_W(profdata_heap_waste_options_init)
#define profdata_heap_waste_strings PD_HEAP_W(profdata_heap_waste_strings)
#define profdata_heap_waste_totals_of PD_HEAP_W(profdata_heap_waste_totals_of)

#endif
