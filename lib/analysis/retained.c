/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the retained sizes answer: the biggest objects, and the retained
 * histogram (per class, the memory its instances keep alive together).
 */
#include "analysis/heap_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct ranked {
	uint64_t retained;
	uint64_t id;       /* the dump's id: VisualVM breaks ties by it */
	size_t object;
} ranked;

/* a ranks below b: smaller retained, or equal and a greater id */
static int below(const ranked *a, const ranked *b)
{
	if (a->retained != b->retained)
		return a->retained < b->retained;
	return a->id != b->id ? a->id > b->id : a->object > b->object;
}

static uint64_t node_id(const profdata_heap *h, uint32_t i)
{
	const profdata_profile *p = h->g.p;
	return i < h->g.n ? pd_obj_id(p, h->g.first + i) : p->classes.v[i - h->g.n].id;
}

static void sift_down(ranked *heap, size_t n, size_t at)
{
	for (;;) {
		size_t l = 2 * at + 1, r = l + 1, low = at;
		if (l < n && below(&heap[l], &heap[low]))
			low = l;
		if (r < n && below(&heap[r], &heap[low]))
			low = r;
		if (low == at)
			return;
		ranked x = heap[at];
		heap[at] = heap[low];
		heap[low] = x;
		at = low;
	}
}

static int by_rank(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	return below(x, y) ? 1 : below(y, x) ? -1 : 0;
}

size_t profdata_heap_top(const profdata_heap *h, size_t n, size_t *out)
{
	if (n > h->m)
		n = h->m;
	ranked *heap = malloc((n ? n : 1) * sizeof(*heap));
	if (!heap)
		return 0;
	size_t have = 0;
	for (uint32_t i = 0; i < h->g.nodes && n; i++) {
		uint32_t r = h->num[i];
		if (!r)
			continue;
		ranked c = { pd_heap_ret(h, r), node_id(h, i), pd_heap_node(h, i) };
		if (have < n) {
			heap[have++] = c;
			if (have == n)
				for (size_t k = n / 2 + 1; k-- > 0;)
					sift_down(heap, n, k);
		} else if (below(&heap[0], &c)) {
			heap[0] = c;
			sift_down(heap, n, 0);
		}
	}
	qsort(heap, have, sizeof(*heap), by_rank);
	for (size_t k = 0; k < have; k++)
		out[k] = heap[k].object;
	free(heap);
	return have;
}

/* The dominator tree as first-child / next-sibling lists over rpo numbers, with parents in h->idom. */
static void link_children(const profdata_heap *h, uint32_t *first_child, uint32_t *next_sibling)
{
	for (uint32_t r = 0; r <= h->m; r++)
		first_child[r] = PD_HEAP_NONE;
	for (uint32_t r = h->m; r >= 1; r--) {
		next_sibling[r] = first_child[h->idom[r]];
		first_child[h->idom[r]] = r;
	}
}

/*
 * Where node i counts on the way down: its class slot. A class object is an
 * instance of java.lang.Class there, as VisualVM's chains take it (a real
 * java.lang.Class instance a class object dominates does not count), yet adds
 * to no class (*adds = 0).
 */
static size_t chain_slot(const profdata_heap *h, uint32_t i, int *adds)
{
	size_t c = pd_heap_class_slot(h, i);
	*adds = c != SIZE_MAX;
	if (c == SIZE_MAX)
		c = h->g.class_row < h->g.p->classes.n ? h->g.class_row : h->g.p->classes.n + PD_HEAP_ELEM_TYPES;
	return c;
}

/*
 * Walk the dominator tree (no stack: parents are in idom) keeping, per
 * class, how many of its instances are on the way down: an instance counts
 * toward its class only with none above it.
 */
static int walk_classes(profdata_heap *h, const uint32_t *object_of, const uint32_t *first_child,
                        const uint32_t *next_sibling, uint32_t *on_path)
{
	uint32_t v = first_child[0], seen = 0;
	int adds;
	while (v != PD_HEAP_NONE && v != 0) {
		size_t c = chain_slot(h, object_of[v], &adds);
		if (on_path[c]++ == 0 && adds)
			h->class_ret[c] += pd_heap_ret(h, v);
		if ((++seen & ((1u << 20) - 1)) == 0 && pd_heap_report(&h->g, "classes", seen, h->m) != 0)
			return PROFDATA_STOPPED;
		if (first_child[v] != PD_HEAP_NONE) {
			v = first_child[v];
			continue;
		}
		while (v != 0) {
			on_path[chain_slot(h, object_of[v], &adds)]--;
			if (next_sibling[v] != PD_HEAP_NONE) {
				v = next_sibling[v];
				break;
			}
			v = h->idom[v];
		}
	}
	return 0;
}

static int compute_classes(profdata_heap *h)
{
	size_t nslots = h->g.p->classes.n + PD_HEAP_ELEM_TYPES + 1, m = h->m;
	uint32_t *object_of = malloc((m + 1) * sizeof(*object_of));
	uint32_t *first_child = malloc((m + 1) * sizeof(*first_child));
	uint32_t *next_sibling = malloc((m + 1) * sizeof(*next_sibling));
	uint32_t *on_path = calloc(nslots, sizeof(*on_path));
	uint64_t *class_ret = calloc(nslots, sizeof(*class_ret));
	int e = object_of && first_child && next_sibling && on_path && class_ret ? 0 : PROFDATA_ENOMEM;
	if (e == 0) {
		for (uint32_t i = 0; i < h->g.nodes; i++)
			if (h->num[i])
				object_of[h->num[i]] = i;
		link_children(h, first_child, next_sibling);
		h->class_ret = class_ret;
		e = walk_classes(h, object_of, first_child, next_sibling, on_path);
		if (e != 0)
			h->class_ret = NULL;
	}
	if (e != 0)
		free(class_ret);
	free(object_of);
	free(first_child);
	free(next_sibling);
	free(on_path);
	return e;
}

int profdata_heap_class_retained(profdata_heap *h, size_t class_index, uint64_t *bytes)
{
	*bytes = 0;
	if (class_index >= h->g.p->classes.n)
		return PROFDATA_ENOTFOUND;
	int e = h->class_ret ? 0 : compute_classes(h);
	if (e == 0)
		*bytes = h->class_ret[class_index];
	return e;
}

int profdata_heap_array_retained(profdata_heap *h, int elem_type, uint64_t *bytes)
{
	*bytes = 0;
	if (elem_type < 0 || elem_type >= PD_HEAP_ELEM_TYPES)
		return PROFDATA_ENOTFOUND;
	int e = h->class_ret ? 0 : compute_classes(h);
	if (e == 0)
		*bytes = h->class_ret[h->g.p->classes.n + (size_t)elem_type];
	return e;
}
