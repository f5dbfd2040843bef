/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The retained sizes as VisualVM sums them: its "tree objects" first, then
 * the dominator tree (trees.c, doc/heap-analysis.md).
 */
#ifndef PD_ANALYSIS_TREES_H
#define PD_ANALYSIS_TREES_H

#include "analysis/heap_impl.h"

/*
 * PD_HEAP_FLAG here: in num[i] from the gathering read to the sums, node i
 * refers to something (VisualVM's search takes it for no leaf); in idom[r]
 * from the referrer lists to the sums, number r can be no tree object.
 */

/* A parent whose child is a GC root or a class object: what that child adds once the parent is decided. */
typedef struct pd_heap_side {
	pd_hnode parent;          /* its number */
	uint32_t root_level;      /* 1 + the highest level of its tree roots among its children; 0: none */
	int late_root;            /* a child root of that level comes after the parent in the root table */
	uint64_t tree_units;      /* what its tree children add when it is a tree object */
	uint64_t other_units;     /* what its class children that are no tree add when it is none */
} pd_heap_side;

typedef struct pd_heap_trees {
	pd_hnode (*roots)[2];       /* (number, position in the root table) of each root record's target, sorted */
	size_t nroots;
	pd_hnode (*classes)[3];     /* (number, class row, one referrer) of the reachable class objects, numbers falling */
	size_t nclasses;
	pd_hnode (*root_parent)[2]; /* (number of a root, of its one referrer), roots falling */
	size_t nroot_parent, root_parent_cap;
	pd_heap_side *sides;        /* parents falling */
	size_t nsides;
	unsigned shift;             /* a retained word: units below `shift` bits, a level field above */
	uint64_t field_max;
} pd_heap_trees;

/* After the class connections: the tables of roots and class objects. 0 or PROFDATA_ENOMEM. */
int pd_heap_trees_init(pd_heap_trees *t, const profdata_heap *h);

/*
 * After the dominators, with the shared nodes still flagged in idom and
 * their referrer lists in `preds`: who has one referrer, and what that
 * means for the referrers; clears the shared flags. 0 or PROFDATA_ENOMEM.
 */
int pd_heap_trees_note_lists(pd_heap_trees *t, profdata_heap *h, pd_hnode *preds);

/*
 * The retained sizes, in `work` (becomes h->ret32) or a new h->ret64 (then
 * `work` is freed): either way `work` is taken. 0, PROFDATA_ENOMEM, PROFDATA_EINVAL
 * (sizes past 2^62 bytes) or PROFDATA_STOPPED (the progress callback said stop).
 */
int pd_heap_trees_sum(pd_heap_trees *t, profdata_heap *h, pd_hnode *work);

void pd_heap_trees_free(pd_heap_trees *t);

#endif
