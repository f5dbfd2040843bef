/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The references of a run of nodes, read in batches: for the passes that
 * read every reference in node order (the predecessor lists).
 *
 * Why: resolving a reference (id -> local index, util/id_index.h) costs a
 * cache miss or two at random places, and one resolution at a time waits
 * for each before the next. On a dump whose ids are not in file order (a
 * rank -> row table behind the bitmap) those waits were most of the
 * analysis. A batch gathers the ids of many references, then resolves
 * them together (pd_id_index_find_batch), so their misses overlap; the
 * caller can prefetch what it reads per target the same way before it
 * uses the batch. The answers, and their order, are those of
 * pd_heap_slots_of and pd_heap_slot_target node by node.
 */
#ifndef PD_ANALYSIS_HEAP_REFS_H
#define PD_ANALYSIS_HEAP_REFS_H

#include "analysis/heap_graph.h"

/* References per batch: enough misses in flight to fill the memory system, few enough to stay in L1. */
enum { PD_HEAP_BATCH = 128 };

/* what a reference is besides its target */
enum { PD_HEAP_REF_WEAK = 1, PD_HEAP_REF_CLASS = 2 };

typedef struct pd_heap_refs {
	/* The batch: its non-null references in node and slot order. */
	size_t n;
	pd_hnode from[PD_HEAP_BATCH];       /* the referrer */
	pd_hnode to[PD_HEAP_BATCH];         /* the target, or PD_HEAP_NONE (dangling, outside the dump) */
	unsigned char kind[PD_HEAP_BATCH];  /* PD_HEAP_REF_WEAK: the referrer's weak slot (heap_graph.h) */
	uint64_t id[PD_HEAP_BATCH];         /* the slots' ids, 0 for the class connection (the reader's work) */
	size_t row[PD_HEAP_BATCH];          /* their model rows (the reader's work) */
	/* Where the next batch starts: node `node`, its slot `slot` (of `s` when slot > 0). */
	pd_hnode node, end;
	size_t slot;
	pd_heap_slots s;
} pd_heap_refs;

/*
 * to[k] = the local index of object id[k] for k < n (pd_heap_local),
 * resolved together where the ids are out of row order (one by one where
 * they are in it); to[k] is left as it is where id[k] is 0. row[] is the
 * work space.
 */
void pd_heap_resolve_batch(const pd_heap_graph *g, const uint64_t *id, size_t *row, pd_hnode *to, size_t n);

/* Read the references of nodes [first, end). */
void pd_heap_refs_start(pd_heap_refs *r, pd_hnode first, pd_hnode end);

/*
 * The next batch, resolved: up to PD_HEAP_BATCH references; r->n is 0
 * once the nodes have none left. Afterwards r->node is the first node not
 * wholly read yet (for progress).
 */
void pd_heap_refs_next(const pd_heap_graph *g, pd_heap_refs *r);

#endif
