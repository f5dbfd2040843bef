/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the retained sizes answer: the biggest objects, and the retained
 * histogram (per class, the memory its instances keep alive together).
 */
#include "analysis/heap_impl.h"
#include "jvm/jvm.h"
#include "util/huge.h"

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

static uint64_t node_id(const profdata_heap *h, pd_hnode i)
{
	const profdata_profile *p = h->g.p;
	return i < h->g.n ? pd_obj_id(p, h->g.first + i) : p->classes.v[i - h->g.n].id;
}

static ranked rank_of(const profdata_heap *h, size_t node)
{
	pd_hnode i = pd_heap_local_of(h, node);
	ranked r = { pd_heap_ret(h, h->num[i]), node_id(h, i), node };
	return r;
}

/* Restore the min-heap of nodes at heap[0 .. n) below `at`, ranking them as they are compared. */
static void sift_down(const profdata_heap *h, size_t *heap, size_t n, size_t at)
{
	ranked x = rank_of(h, heap[at]);
	for (;;) {
		size_t l = 2 * at + 1, r = l + 1, low = at;
		ranked lowest = x;
		if (l < n) {
			ranked c = rank_of(h, heap[l]);
			if (below(&c, &lowest))
				low = l, lowest = c;
		}
		if (r < n) {
			ranked c = rank_of(h, heap[r]);
			if (below(&c, &lowest))
				low = r, lowest = c;
		}
		if (low == at)
			return;
		heap[low] = heap[at];
		heap[at] = lowest.object;
		at = low;
	}
}

/*
 * A min-heap of the best n so far in out[] itself, then a heap sort, which
 * leaves them biggest first: no memory of its own, so nothing to fail.
 */
void pd_heap_rank(size_t *out, size_t *count, const profdata_heap *h, size_t n, pd_heap_keep_fn keep,
                  const void *payload)
{
	if (n > h->m)
		n = h->m;
	size_t have = 0;
	pd_hnode i = 0;
	for (; i < h->g.nodes && have < n; i++)
		if (h->num[i] && (!keep || keep(payload, h, i)))
			out[have++] = pd_heap_node(h, i);
	for (size_t k = have / 2; k-- > 0;)
		sift_down(h, out, have, k);
	ranked least = { 0, 0, 0 };
	if (have)
		least = rank_of(h, out[0]);
	for (; i < h->g.nodes && have; i++) {
		pd_hnode r = h->num[i];
		if (!r || (keep && !keep(payload, h, i)))
			continue;
		ranked c = { pd_heap_ret(h, r), node_id(h, i), pd_heap_node(h, i) };
		if (below(&least, &c)) {
			out[0] = c.object;
			sift_down(h, out, have, 0);
			least = rank_of(h, out[0]);
		}
	}
	for (size_t end = have; end > 1; end--) {
		size_t x = out[0];
		out[0] = out[end - 1];
		out[end - 1] = x;
		sift_down(h, out, end - 1, 0);
	}
	*count = have;
}

int profdata_heap_top_nodes(size_t *out, size_t *count, const profdata_heap *h, size_t n)
{
	*count = 0;
	if (h->graph_only)
		return PROFDATA_EINVAL; /* the message is the heap's from the start (heap.c) */
	pd_heap_rank(out, count, h, n, NULL, NULL);
	return 0;
}

size_t profdata_heap_top(const profdata_heap *h, size_t n, size_t *out)
{
	size_t count;
	profdata_heap_top_nodes(out, &count, h, n);
	return count;
}

/*
 * The dominator tree as first-child / next-sibling lists over rpo numbers,
 * made in the memory of num (first children; num has nodes + 1 entries, at
 * least m + 1) and of idom (next siblings: idom[r] is read before it is
 * overwritten, and no later r reads it).
 */
static void link_children(pd_hnode *first_child, pd_hnode *idom_then_sibling, pd_hnode m)
{
	for (pd_hnode r = 0; r <= m; r++)
		first_child[r] = PD_HEAP_NONE;
	for (pd_hnode r = m; r >= 1; r--) {
		pd_hnode parent = idom_then_sibling[r];
		idom_then_sibling[r] = first_child[parent];
		first_child[parent] = r;
	}
}

/*
 * Where node i counts on the way down: its class slot. A class object is an
 * instance of java.lang.Class there, as VisualVM's chains take it (a real
 * java.lang.Class instance a class object dominates does not count), yet adds
 * to no class (*adds = 0).
 */
static size_t chain_slot(const profdata_heap *h, pd_hnode i, int *adds)
{
	size_t c = pd_heap_class_slot(h, i);
	*adds = c != SIZE_MAX;
	if (c == SIZE_MAX)
		c = h->g.class_row < h->g.p->classes.n ? h->g.class_row : h->g.p->classes.n + PD_HEAP_ELEM_TYPES;
	return c;
}

/* The walk's state: the lists of link_children(), and per class slot the instances on the way down. */
typedef struct class_walk {
	profdata_heap *h;
	const pd_hnode *object_of;
	pd_hnode *link;       /* num's memory: a number's first child until the walk enters it, then its parent */
	pd_hnode *sibling;    /* idom's memory: a number's next sibling until the walk leaves it, then idom again */
	pd_hnode *on_path;    /* per class slot: how many of its instances are on the way down */
	int counting;         /* 0 once the progress callback stopped the work: the walk only restores idom */
} class_walk;

static void enter(class_walk *w, pd_hnode v)
{
	int adds;
	size_t c = chain_slot(w->h, w->object_of[v], &adds);
	if (w->on_path[c]++ == 0 && adds)
		w->h->class_ret[c] += pd_heap_ret(w->h, v);
}

static void leave(class_walk *w, pd_hnode v)
{
	int adds;
	w->on_path[chain_slot(w->h, w->object_of[v], &adds)]--;
}

/*
 * Walk the dominator tree keeping, per class, how many of its instances are
 * on the way down: an instance counts toward its class only with none above
 * it. No stack: entering a number turns its first-child link into its
 * parent link, and leaving it, once its next sibling is read, puts that
 * parent back into idom. So the walk always runs to the end, also after a
 * stop (without the counting), to give idom back whole.
 */
static int walk_classes(class_walk *w)
{
	pd_hnode v = w->link[0], up = 0, seen = 0;
	int e = 0;
	while (v != PD_HEAP_NONE) {
		pd_hnode child = w->link[v];
		w->link[v] = up;
		if (w->counting) {
			enter(w, v);
			if ((++seen & ((1u << 20) - 1)) == 0 && pd_heap_report(&w->h->g, "classes", seen, w->h->m) != 0)
				e = PROFDATA_STOPPED, w->counting = 0;
		}
		if (child != PD_HEAP_NONE) {
			up = v, v = child;
			continue;
		}
		for (;;) {
			pd_hnode next = w->sibling[v], parent = w->link[v];
			if (w->counting)
				leave(w, v);
			w->sibling[v] = parent;
			if (next != PD_HEAP_NONE) {
				v = next, up = parent;
				break;
			}
			if (parent == 0) {
				v = PD_HEAP_NONE;
				break;
			}
			v = parent;
		}
	}
	return e;
}

/* num again from its inverse, once the walk that borrowed num's memory is done. */
static void restore_num(profdata_heap *h, const pd_hnode *object_of)
{
	memset(h->num, 0, (h->g.nodes + 1) * sizeof *h->num);
	for (pd_hnode r = 1; r <= h->m; r++)
		h->num[object_of[r]] = r;
}

/*
 * The walk needs each number's node (object_of), its first child, its next
 * sibling and its parent. num is not read while it runs, so its memory holds
 * the first children and then the parents, and is rebuilt from object_of
 * after; idom's holds the next siblings, and the walk puts idom back as it
 * leaves each number. That is one pd_hnode a reachable object (three with
 * none borrowed: at width 32, 296 MB more on a 37M-object dump, where the
 * walk then set the report's peak). The first call writes the heap anyway (profdata/heap.h:
 * made before the heap is shared).
 */
static int compute_classes(profdata_heap *h)
{
	size_t nslots = h->g.p->classes.n + PD_HEAP_ELEM_TYPES + 1, m = h->m;
	pd_hnode *object_of = pd_huge_malloc((m + 1) * sizeof(*object_of));
	pd_hnode *on_path = calloc(nslots, sizeof(*on_path));
	uint64_t *class_ret = calloc(nslots, sizeof(*class_ret));
	int e = object_of && on_path && class_ret ? 0 : PROFDATA_ENOMEM;
	if (e == 0) {
		object_of[0] = PD_HEAP_NONE; /* the virtual root */
		for (pd_hnode i = 0; i < h->g.nodes; i++)
			if (h->num[i])
				object_of[h->num[i]] = i;
		link_children(h->num, h->idom, h->m);
		h->class_ret = class_ret;
		class_walk w = { h, object_of, h->num, h->idom, on_path, 1 };
		e = walk_classes(&w);
		restore_num(h, object_of);
		if (e != 0)
			h->class_ret = NULL;
	}
	if (e != 0)
		free(class_ret);
	free(object_of);
	free(on_path);
	return e;
}

int pd_heap_slot_retained(uint64_t *out, profdata_heap *h, size_t slot)
{
	if (h->graph_only)
		return PROFDATA_EINVAL; /* nothing to compute from, and nothing written: the heap has the message */
	if (!h->class_ret) {
		h->phase = "classes";
		h->callback_rc = 0;
		int e = compute_classes(h);
		if (e != 0)
			return pd_heap_failed(h, e);
	}
	*out = h->class_ret[slot];
	return 0;
}

size_t pd_heap_slot_name(const profdata_heap *h, size_t slot, char *buf, size_t cap)
{
	const profdata_profile *p = h->g.p;
	const char *internal = "java/lang/Class";
	if (slot != SIZE_MAX && slot >= p->classes.n)
		internal = pd_jvm_array_internal_name((int)(slot - p->classes.n));
	else if (slot != SIZE_MAX) {
		profdata_class_info ci;
		internal = profdata_profile_class(p, slot, &ci) == 0 && ci.name ? ci.name : "<unknown class>";
	}
	size_t len = profdata_java_name(internal, strlen(internal), buf, cap);
	return len < cap ? len : cap - 1;
}

int profdata_heap_retained_by_class(uint64_t *out, profdata_heap *h, size_t class_index)
{
	*out = 0;
	if (class_index >= h->g.p->classes.n)
		return PROFDATA_ENOTFOUND;
	return pd_heap_slot_retained(out, h, class_index);
}

int profdata_heap_retained_by_array_type(uint64_t *out, profdata_heap *h, int elem_type)
{
	*out = 0;
	if (elem_type < 0 || elem_type >= PD_HEAP_ELEM_TYPES)
		return PROFDATA_ENOTFOUND;
	return pd_heap_slot_retained(out, h, h->g.p->classes.n + (size_t)elem_type);
}

int profdata_heap_class_retained(profdata_heap *h, size_t class_index, uint64_t *bytes)
{
	return profdata_heap_retained_by_class(bytes, h, class_index);
}

int profdata_heap_array_retained(profdata_heap *h, int elem_type, uint64_t *bytes)
{
	return profdata_heap_retained_by_array_type(bytes, h, elem_type);
}
