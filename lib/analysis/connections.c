/* SPDX-License-Identifier: Apache-2.0 */
/*
 * VisualVM's class connections (doc/heap-analysis.md): its breadth-first
 * search from the GC roots, after the references of the first instance of
 * a class it processes, reaches that class's object through the instance
 * when nothing reached it before. The class object then has one more
 * referrer, and one that only its instances reach becomes reachable.
 */
#include "analysis/connections.h"
#include "io/pager.h"

#include <stdlib.h>
#include <string.h>

#define MARK PD_HEAP_FLAG  /* in num: met by the search */

/* The search's state: queue in the third array, marks in num, per class row two flags. */
typedef struct search {
	profdata_heap *h;
	pd_hnode *queue, tail;
	unsigned char *connected;  /* the class's first instance is processed */
	unsigned char *open;       /* a reachable instance, and the class object neither met nor connected */
	size_t nopen;
} search;

static void meet(search *s, pd_hnode v)
{
	pd_hnode *num = s->h->num;
	if (num[v] & MARK)
		return;
	num[v] |= MARK;
	s->queue[s->tail++] = v;
	pd_hnode n = s->h->g.n;
	if (v >= n && s->open[v - n]) {
		s->open[v - n] = 0;
		s->nopen--;
	}
}

/* The class row node u connects to: its class for an instance, java.lang.Class for a class object; arrays none. */
static size_t class_of(const pd_heap_graph *g, pd_hnode u)
{
	if (u >= g->n)
		return g->class_row;
	if ((pd_obj_kind(g->p, g->first + u) & 3) != PROFDATA_OBJECT_INSTANCE)
		return SIZE_MAX;
	return pd_obj_class(g->p, g->first + u);
}

/* The classes a connection may still matter to: those with an instance (or class object) the walk reached. */
static void open_classes(search *s)
{
	const pd_heap_graph *g = &s->h->g;
	const pd_hnode *num = s->h->num;
	for (pd_hnode i = 0; i < g->nodes; i++) {
		size_t c = num[i] ? class_of(g, i) : SIZE_MAX;
		if (c < g->nclasses && !s->open[c])
			s->open[c] = 1, s->nopen++;
	}
}

/* After node u's references: its class is connected, and reached through u when nothing reached it before. */
static void connect(search *s, pd_hnode u)
{
	const pd_heap_graph *g = &s->h->g;
	size_t c = class_of(g, u);
	if (c >= g->nclasses || s->connected[c])
		return;
	s->connected[c] = 1;
	if (!(s->h->num[g->n + c] & MARK)) {
		g->connector[c] = u;
		meet(s, g->n + (pd_hnode)c);
	}
	if (s->open[c])
		s->open[c] = 0, s->nopen--;
}

/*
 * The search reads all over the file, a little here and there: Linux maps
 * the 64 KiB around each page it faults in, so its pager gets a budget of
 * 2 MiB of pages entered (at most about 32 MiB mapped). With the walks'
 * 32 MiB it held 92 MiB more on the service dump; counting what a fault
 * maps in every walk instead made the depth-first walk, which has locality,
 * 2.4 s slower on the 37 M-object dump.
 */
#define SEARCH_PAGE_BUDGET ((uint64_t)2 << 20)

static void run(search *s)
{
	pd_heap_graph *g = &s->h->g;
	pd_pager *walks = g->pages;
	g->pages = walks ? pd_pager_start_random(g->p->blob, SEARCH_PAGE_BUDGET) : NULL;
	for (size_t t = 0; t < g->nroot_targets; t++)
		meet(s, g->root_targets[t]);
	for (pd_hnode head = 0; head < s->tail && s->nopen; head++) {
		pd_hnode u = s->queue[head];
		pd_heap_slots sl;
		pd_heap_slots_of(g, u, &sl);
		for (size_t k = 0; k < sl.n; k++) {
			pd_hnode v = k == sl.weak ? PD_HEAP_NONE : pd_heap_slot_target(g, &sl, k);
			if (v != PD_HEAP_NONE)
				meet(s, v);
		}
		connect(s, u);
	}
	for (pd_hnode k = 0; k < s->tail; k++)
		s->h->num[s->queue[k]] &= ~MARK;
	/* What the walk and the search mapped, all over the file, goes before the reads in object order. */
	pd_pager_stop(g->pages);
	g->pages = walks;
	pd_pager_release(walks);
}

/*
 * Number what only connections reach (a class object, and what only its
 * statics reach) after h->m, breadth first from each, so that dominators
 * keep smaller numbers; all of them start shared (idom SHARED). Returns the
 * references into them (an upper bound: connections, their references among
 * themselves and from unreachable objects).
 */
static uint64_t number_connected(profdata_heap *h, pd_hnode *queue)
{
	pd_heap_graph *g = &h->g;
	pd_hnode *num = h->num, tail = 0, first = h->m + 1;
	uint64_t refs = 0;
	for (uint32_t c = 0; c < g->nclasses; c++)
		if (g->connector[c] != PD_HEAP_NONE && !num[g->n + c])
			num[g->n + c] = ++h->m, queue[tail++] = g->n + c, refs++;
	for (pd_hnode head = 0; head < tail; head++) {
		pd_heap_slots sl;
		pd_heap_slots_of(g, queue[head], &sl);
		for (size_t k = 0; k < sl.n; k++) {
			pd_hnode v = pd_heap_slot_target(g, &sl, k);
			if (v == PD_HEAP_NONE)
				continue;
			refs += !num[v] || num[v] >= first; /* into an old node it was counted as from an unreachable one */
			if (!num[v] && k != sl.weak)
				num[v] = ++h->m, queue[tail++] = v;
		}
	}
	for (pd_hnode r = first; r <= h->m; r++)
		h->idom[r] = PD_HEAP_SHARED;
	if (tail == 0 || h->graph_only)
		return 0; /* what follows counts references for the dominators' lists alone */
	for (pd_hnode i = 0; i < g->nodes; i++) {
		if (num[i])
			continue;
		pd_heap_slots sl;
		pd_heap_slots_of(g, i, &sl);
		for (size_t k = 0; k < sl.n; k++) {
			pd_hnode v = pd_heap_slot_target(g, &sl, k);
			refs += v != PD_HEAP_NONE && v != i && num[v] >= first;
		}
	}
	return refs;
}

int pd_heap_connect_classes(profdata_heap *h, pd_hnode *queue, uint64_t *refs, uint64_t *singles)
{
	pd_heap_graph *g = &h->g;
	search s = { h, queue, 0, NULL, NULL, 0 };
	g->connector = malloc((g->nclasses ? g->nclasses : 1) * sizeof(*g->connector));
	s.connected = calloc(g->nclasses ? g->nclasses : 1, 1);
	s.open = calloc(g->nclasses ? g->nclasses : 1, 1);
	if (!g->connector || !s.connected || !s.open) {
		PD_FREE_ALL(s.connected, s.open);
		return PROFDATA_ENOMEM;
	}
	for (uint32_t c = 0; c < g->nclasses; c++)
		g->connector[c] = PD_HEAP_NONE;
	open_classes(&s);
	run(&s);
	PD_FREE_ALL(s.connected, s.open);
	/* A reachable class object connected gains a referrer: shared now, if it had one. */
	for (uint32_t c = 0; c < g->nclasses; c++) {
		pd_hnode r = g->connector[c] == PD_HEAP_NONE ? 0 : h->num[g->n + c];
		if (!r)
			continue;
		++*refs;
		if (!(h->idom[r] & PD_HEAP_SHARED))
			h->idom[r] = PD_HEAP_SHARED, --*singles;
	}
	*refs += number_connected(h, queue);
	return 0;
}
