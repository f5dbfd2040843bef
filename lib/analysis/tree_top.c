/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The top of the dominator tree, for a picture of it (profdata report's
 * treemap): the biggest nodes, each linked to its nearest dominator among
 * them. A dominator retains at least what it dominates, so the biggest
 * nodes are (but for ties) closed under "dominated by": the chains walked
 * up between them are short.
 */
#define PROFDATA_EXPERIMENTAL
#include "analysis/heap_impl.h"

#include <stdlib.h>

typedef struct numbered {
	pd_hnode rpo;
	size_t node;
} numbered;

static int by_rpo(const void *a, const void *b)
{
	pd_hnode x = ((const numbered *)a)->rpo, y = ((const numbered *)b)->rpo;
	return (x > y) - (x < y);
}

/* The index of the nearest dominator of v[k] among v[0 .. k), or PROFDATA_HEAP_ROOTS. */
static size_t nearest_parent(const profdata_heap *h, const numbered *v, size_t k)
{
	for (pd_hnode d = h->idom[v[k].rpo]; d != 0; d = h->idom[d]) {
		numbered key = { d, 0 };
		const numbered *at = bsearch(&key, v, k, sizeof *v, by_rpo); /* a dominator comes first in rpo */
		if (at)
			return (size_t)(at - v);
	}
	return PROFDATA_HEAP_ROOTS;
}

int profdata_heap_tree_top(size_t *nodes, size_t *parent, size_t *count, const profdata_heap *h, size_t n)
{
	*count = 0;
	if (h->graph_only)
		return PROFDATA_EINVAL; /* the message is the heap's from the start (heap.c) */
	size_t have = 0;
	pd_heap_rank(nodes, &have, h, n, NULL, NULL);
	numbered *v = malloc((have ? have : 1) * sizeof *v);
	if (!v)
		return PROFDATA_ENOMEM;
	for (size_t k = 0; k < have; k++) {
		v[k].node = nodes[k];
		v[k].rpo = h->num[pd_heap_local_of(h, nodes[k])];
	}
	/* In reverse post-order every node comes after its dominators: parents before children. */
	qsort(v, have, sizeof *v, by_rpo);
	for (size_t k = 0; k < have; k++) {
		nodes[k] = v[k].node;
		parent[k] = nearest_parent(h, v, k);
	}
	free(v);
	*count = have;
	return 0;
}
