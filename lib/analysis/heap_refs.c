/* SPDX-License-Identifier: Apache-2.0 */
#include "analysis/heap_refs.h"

void pd_heap_refs_start(pd_heap_refs *r, pd_hnode first, pd_hnode end)
{
	r->n = 0;
	r->node = first;
	r->end = end;
	r->slot = 0;
}

/*
 * The next references' ids, from the slots. The class connection's target
 * is known by its node, not its id (an object may share the class's id):
 * its id is left 0, so the lookup passes it over.
 */
static void gather(const pd_heap_graph *g, pd_heap_refs *r)
{
	pd_heap_slots *s = &r->s;
	r->n = 0;
	while (r->n < PD_HEAP_BATCH && r->node < r->end) {
		if (r->slot == 0)
			pd_heap_slots_of(g, r->node, s);
		for (; r->slot < s->n && r->n < PD_HEAP_BATCH; r->slot++) {
			size_t k = r->slot, at = r->n;
			int to_class = s->class_id && k == s->n - 1;
			uint64_t id = to_class ? s->class_id : pd_heap_slot_id(s, k);
			if (!id)
				continue;
			r->from[at] = r->node;
			r->id[at] = to_class ? 0 : id;
			r->to[at] = to_class ? s->class_node : PD_HEAP_NONE;
			r->kind[at] = (unsigned char)((k == s->weak ? PD_HEAP_REF_WEAK : 0) | (to_class ? PD_HEAP_REF_CLASS : 0));
			r->n++;
		}
		if (r->slot == s->n) {
			r->node++;
			r->slot = 0;
		}
	}
}

/*
 * Ids in row order (a JDK's dump) mostly refer close by, their lookups hit
 * the cache and there are no misses to overlap: one at a time then costs
 * less than the batch's passes (37M-object jcmd dump: about 1 s of 6-7 s of
 * user time).
 */
static void resolve_each(const pd_heap_graph *g, const uint64_t *id, pd_hnode *to, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (id[k])
			to[k] = pd_heap_local(g, id[k]);
}

void pd_heap_resolve_batch(const pd_heap_graph *g, const uint64_t *id, size_t *row, pd_hnode *to, size_t n)
{
	if (pd_id_index_in_row_order(&g->p->obj_index)) {
		resolve_each(g, id, to, n);
		return;
	}
	pd_id_index_find_batch(&g->p->obj_index, &g->p->obj_id, id, n, row);
	for (size_t k = 0; k < n; k++) {
		size_t m = row[k];
		if (!id[k])
			continue;
		if (m != SIZE_MAX)
			to[k] = m - g->first < g->n ? (pd_hnode)(m - g->first) : PD_HEAP_NONE;
		else
			to[k] = pd_heap_local_class(g, id[k]);
	}
}

void pd_heap_refs_next(const pd_heap_graph *g, pd_heap_refs *r)
{
	gather(g, r);
	pd_heap_resolve_batch(g, r->id, r->row, r->to, r->n);
}
