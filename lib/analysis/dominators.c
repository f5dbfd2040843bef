/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dominator tree and retained sizes (doc/heap-analysis.md).
 *
 * Budget: 12 bytes per object beyond the model. Three uint32 arrays do all
 * the work: `num` (object -> reverse-postorder number), `order` (number ->
 * object) and `idom` (number -> number of its immediate dominator). The
 * depth-first walk that numbers the nodes keeps its stack inside `idom`
 * (nodes) and the free end of `order` (slot positions), which a node
 * leaves before its number lands there; a 12-million-long chain needs no
 * recursion and no extra memory. The dominators are then found by Cooper,
 * Harvey and Kennedy's iteration, pushed along the forward edges (the graph
 * has no predecessor lists: they would cost 4 bytes per reference more), in
 * reverse postorder until nothing changes: three to seven passes over the
 * payloads on the benchmark dumps. Retained sizes reuse `order`'s memory (sizes in units of 8
 * bytes fit 32 bits up to 32 GiB; else an array of 64-bit sizes replaces
 * it).
 */
#include "analysis/heap_impl.h"

#include <stdlib.h>
#include <string.h>

#define VISITING UINT32_MAX
enum { PROGRESS_STEP = 1 << 20 };

/* Depth-first walk from one root target; postorder numbers from *post + 1 land in num, objects in order. */
static int walk_from(profdata_heap *h, uint32_t *order, uint32_t start, uint32_t *post)
{
	const pd_heap_graph *g = &h->g;
	uint32_t n = g->nodes, depth = 1, *num = h->num, *stack = h->idom;
	num[start] = VISITING;
	stack[0] = start;
	order[n - 1] = 0;
	while (depth) {
		uint32_t u = stack[depth - 1], k = order[n - depth], v = PD_HEAP_NONE;
		pd_heap_slots s;
		pd_heap_slots_of(g, u, &s);
		while (k < s.n && v == PD_HEAP_NONE) {
			v = pd_heap_slot_target(g, &s, k++);
			if (v != PD_HEAP_NONE && num[v])
				v = PD_HEAP_NONE;
		}
		if (v != PD_HEAP_NONE) {
			order[n - depth] = k;
			num[v] = VISITING;
			stack[depth] = v;
			order[n - 1 - depth] = 0;
			depth++;
			continue;
		}
		num[u] = ++*post;
		order[*post - 1] = u;
		depth--;
		if ((*post & (PROGRESS_STEP - 1)) == 0 && pd_heap_report(g, "graph", *post, g->n) != 0)
			return PROFDATA_STOPPED;
	}
	return 0;
}

/* Number the reachable objects in reverse postorder: num[i] in 1..m, order[r - 1] the object numbered r. */
static int number_nodes(profdata_heap *h, uint32_t *order)
{
	uint32_t post = 0;
	for (size_t t = 0; t < h->g.nroot_targets; t++) {
		uint32_t s = h->g.root_targets[t];
		if (!h->num[s]) {
			int e = walk_from(h, order, s, &post);
			if (e)
				return e;
		}
	}
	h->m = post;
	for (uint32_t i = 0; i < h->g.nodes; i++)
		if (h->num[i])
			h->num[i] = post - (h->num[i] - 1);
	for (uint32_t a = 0, b = post ? post - 1 : 0; a < b; a++, b--) {
		uint32_t x = order[a];
		order[a] = order[b];
		order[b] = x;
	}
	return 0;
}

static inline uint32_t intersect(const uint32_t *idom, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (a > b)
			a = idom[a];
		while (b > a)
			b = idom[b];
	}
	return a;
}

/* Push node r (object u) along its edges: its successors' estimates meet r. */
static void push_edges(profdata_heap *h, uint32_t u, uint32_t r, int first_pass, int *changed)
{
	const pd_heap_graph *g = &h->g;
	uint32_t *idom = h->idom;
	const uint32_t *num = h->num;
	pd_heap_slots s;
	pd_heap_slots_of(g, u, &s);
	for (size_t k = 0; k < s.n; k++) {
		uint32_t v = pd_heap_slot_target(g, &s, k);
		if (v == PD_HEAP_NONE)
			continue;
		uint32_t rv = num[v], cur = idom[rv];
		if (rv <= r && first_pass)
			*changed = 1;
		if (cur == PD_HEAP_NONE) {
			idom[rv] = r;
		} else if (cur != r && rv != r) {
			uint32_t w = intersect(idom, r, cur);
			if (w != cur) {
				idom[rv] = w;
				*changed = 1;
			}
		}
	}
}

/*
 * One pass, in reverse postorder, over the first `limit` nodes;
 * *last_change is the position of the last push that moved an estimate (or,
 * on the first pass, met a back edge), 0 when none did. Reverse postorder
 * keeps each estimate's number below its node's (the invariant `intersect`
 * walks by) and carries a change forward within the same pass: in object
 * order a list laid out backwards in the file took one pass per element.
 */
static int dominator_pass(profdata_heap *h, const uint32_t *order, int first_pass, uint32_t limit,
                          uint32_t *last_change)
{
	const pd_heap_graph *g = &h->g;
	*last_change = 0;
	uint32_t end = h->m < limit ? h->m : limit;
	for (uint32_t r = 1; r <= end; r++) {
		int changed = 0;
		push_edges(h, order[r - 1], r, first_pass, &changed);
		if (changed)
			*last_change = r;
		if ((r & (PROGRESS_STEP - 1)) == 0 && pd_heap_report(g, "dominators", r, end) != 0)
			return PROFDATA_STOPPED;
	}
	return 0;
}

/*
 * VisualVM counts references from objects no root reaches: what they point
 * at is dominated by the roots alone. Their targets start (and stay) there.
 */
static void from_unreachable(profdata_heap *h)
{
	for (uint32_t i = 0; i < h->g.nodes; i++) {
		if (h->num[i])
			continue;
		pd_heap_slots s;
		pd_heap_slots_of(&h->g, i, &s);
		for (size_t k = 0; k < s.n; k++) {
			uint32_t v = pd_heap_slot_target(&h->g, &s, k);
			if (v != PD_HEAP_NONE && h->num[v])
				h->idom[h->num[v]] = 0;
		}
	}
}

static int find_dominators(profdata_heap *h, const uint32_t *order)
{
	h->idom[0] = 0;
	for (uint32_t r = 1; r <= h->m; r++)
		h->idom[r] = PD_HEAP_NONE;
	for (size_t t = 0; t < h->g.nroot_targets; t++)
		h->idom[h->num[h->g.root_targets[t]]] = 0;
	from_unreachable(h);
	/*
	 * After a whole pass whose last change was at position L, the nodes
	 * after L have seen every change: the next pass may stop at L. When such
	 * a partial pass changes nothing, the estimates are the dominators; when
	 * it changes something, everything after it may be stale again and a
	 * whole pass follows.
	 */
	uint32_t last = 0, limit = UINT32_MAX;
	int e = dominator_pass(h, order, 1, UINT32_MAX, &last);
	while (e == 0 && last) {
		uint32_t this_limit = limit;
		e = dominator_pass(h, order, 0, this_limit, &last);
		limit = this_limit == UINT32_MAX ? last : UINT32_MAX;
	}
	return e;
}

/* Shallow sizes summed up the dominator tree, children (higher numbers) first. */
static int sum_retained(profdata_heap *h, uint32_t *order_memory)
{
	uint64_t total = 0;
	int aligned = 1;
	for (uint32_t i = 0; i < h->g.nodes; i++) {
		uint64_t size = pd_heap_retained_size(&h->g, i);
		if (h->num[i]) {
			total += size;
			aligned &= (size & 7) == 0;
		} else if (i < h->g.n) {
			h->unreachable_count++;
			h->unreachable_bytes += size;
		}
	}
	h->reachable_bytes = total;
	h->unit = aligned && total / 8 < UINT32_MAX ? 8 : 1;
	if (h->unit == 8) {
		h->ret32 = order_memory;
	} else {
		free(order_memory);
		if (!(h->ret64 = malloc(((size_t)h->m + 1) * sizeof(*h->ret64))))
			return PROFDATA_ENOMEM;
	}
	for (uint32_t i = 0; i < h->g.nodes; i++) {
		uint32_t r = h->num[i];
		uint64_t size = r ? pd_heap_retained_size(&h->g, i) : 0;
		if (r && h->ret64)
			h->ret64[r] = size;
		else if (r)
			h->ret32[r] = (uint32_t)(size / 8);
	}
	if (h->ret64)
		h->ret64[0] = 0;
	else
		h->ret32[0] = 0;
	for (uint32_t r = h->m; r >= 1; r--) {
		if (h->ret64)
			h->ret64[h->idom[r]] += h->ret64[r];
		else
			h->ret32[h->idom[r]] += h->ret32[r];
	}
	return 0;
}

static int analyze(profdata_heap *h)
{
	size_t n = h->g.nodes;
	h->num = calloc(n ? n : 1, sizeof(*h->num));
	h->idom = malloc((n + 1) * sizeof(*h->idom));
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	if (!h->num || !h->idom || !order) {
		free(order);
		return PROFDATA_ENOMEM;
	}
	int e = number_nodes(h, order);
	if (e == 0)
		e = find_dominators(h, order);
	if (e == 0)
		e = pd_heap_report(&h->g, "retained", 0, h->m);
	if (e == 0)
		return sum_retained(h, order);
	free(order);
	return e;
}

int profdata_heap_analyze(profdata_heap **out, const profdata_profile *p, const profdata_heap_options *opts)
{
	*out = NULL;
	profdata_heap_options o;
	memset(&o, 0, sizeof(o));
	if (opts)
		memcpy(&o, opts, opts->size && opts->size < sizeof(o) ? opts->size : sizeof(o));
	profdata_heap *h = calloc(1, sizeof(*h));
	if (!h)
		return PROFDATA_ENOMEM;
	int e = pd_heap_graph_init(&h->g, p, o.dump);
	h->g.progress = o.progress;
	h->g.progress_user = o.progress_user;
	if (e == 0)
		e = analyze(h);
	if (e != 0) {
		profdata_heap_free(h);
		return e;
	}
	*out = h;
	return 0;
}

void profdata_heap_free(profdata_heap *h)
{
	if (!h)
		return;
	pd_heap_graph_free(&h->g);
	PD_FREE_ALL(h->num, h->idom, h->ret32, h->ret64, h->class_ret, h);
}

void profdata_heap_objects(const profdata_heap *h, size_t *first, size_t *count)
{
	*first = h->g.first;
	*count = h->g.n;
}

size_t profdata_heap_reachable_count(const profdata_heap *h) { return h->m; }
uint64_t profdata_heap_reachable_bytes(const profdata_heap *h) { return h->reachable_bytes; }
size_t profdata_heap_unreachable_count(const profdata_heap *h) { return h->unreachable_count; }
uint64_t profdata_heap_unreachable_bytes(const profdata_heap *h) { return h->unreachable_bytes; }

size_t profdata_heap_class_node(const profdata_heap *h, size_t class_index)
{
	return h->g.p->nobjects + class_index;
}

int profdata_heap_node_class(const profdata_heap *h, size_t node, size_t *class_index)
{
	if (node < h->g.p->nobjects || node - h->g.p->nobjects >= h->g.nclasses)
		return 0;
	*class_index = node - h->g.p->nobjects;
	return 1;
}

/* The rpo of a node, or 0 (unreachable, not in the dump). */
static uint32_t rpo_of(const profdata_heap *h, size_t node)
{
	uint32_t i = pd_heap_local_of(h, node);
	return i == PD_HEAP_NONE ? 0 : h->num[i];
}

int profdata_heap_reachable(const profdata_heap *h, size_t node) { return rpo_of(h, node) != 0; }

uint64_t profdata_heap_retained(const profdata_heap *h, size_t node)
{
	uint32_t r = rpo_of(h, node);
	return r ? pd_heap_ret(h, r) : 0;
}

uint64_t profdata_heap_size(const profdata_heap *h, size_t node)
{
	uint32_t i = pd_heap_local_of(h, node);
	return i == PD_HEAP_NONE ? 0 : pd_heap_size(&h->g, i);
}

int profdata_heap_dominator(const profdata_heap *h, size_t node, size_t *dominator)
{
	uint32_t r = rpo_of(h, node);
	if (!r)
		return PROFDATA_ENOTFOUND;
	uint32_t d = h->idom[r];
	if (d == 0)
		return 1;
	/* Numbers map back to nodes by a scan: rare calls do not justify keeping `order` (4 bytes per object). */
	for (uint32_t k = 0; k < h->g.nodes; k++)
		if (h->num[k] == d) {
			*dominator = pd_heap_node(h, k);
			return 0;
		}
	return PROFDATA_ENOTFOUND;
}
