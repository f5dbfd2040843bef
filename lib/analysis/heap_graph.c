/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The object graph the heap analysis walks (heap_graph.h): which slots are
 * edges, and what the virtual root points at.
 */
#include "analysis/heap_graph.h"
#include "io/pager.h"

#include <stdlib.h>
#include <string.h>

const char *pd_heap_class_name(const profdata_profile *p, size_t c)
{
	const pd_class_row *r = &p->classes.v[c];
	return r->has_load ? profdata_profile_string(p, r->load.name_id, NULL) : NULL;
}

/* The slot of `referent` among java.lang.ref.Reference's own reference fields, or -1. */
static long referent_position(const profdata_profile *p, size_t ref_class)
{
	long n = pd_class_layout(p, ref_class, NULL, 0);
	if (n <= 0)
		return -1;
	profdata_field *f = malloc((size_t)n * sizeof(*f));
	if (!f)
		return -1;
	pd_class_layout(p, ref_class, f, (size_t)n);
	long slot = 0, found = -1;
	for (long k = 0; k < n && found < 0; k++) {
		if (f[k].type != PROFDATA_TYPE_OBJECT)
			continue;
		const char *name = profdata_profile_string(p, f[k].name_id, NULL);
		if (name && strcmp(name, "referent") == 0)
			found = slot;
		slot++;
	}
	free(f);
	return found;
}

int pd_heap_class_named(const char *name, const char *internal)
{
	if (!name)
		return 0;
	for (; *name && *internal; name++, internal++)
		if (*name != *internal && !(*name == '.' && *internal == '/'))
			return 0;
	return !*name && !*internal;
}

/* Reference classes whose referent VisualVM does not follow: soft, weak and final (Phantom's it does). */
static int weak_kind(const char *name)
{
	return pd_heap_class_named(name, "java/lang/ref/SoftReference") ||
	       pd_heap_class_named(name, "java/lang/ref/WeakReference") ||
	       pd_heap_class_named(name, "java/lang/ref/FinalReference");
}

/* Whether class row c descends from a weak kind of Reference; SIZE_MAX when not from java.lang.ref.Reference. */
static int weak_reference_class(const profdata_profile *p, size_t c, size_t ref_class)
{
	int weak = 0;
	for (size_t hops = 0; c != ref_class; hops++) {
		if (hops > p->classes.n || !p->classes.v[c].has_dump)
			return 0;
		weak |= weak_kind(pd_heap_class_name(p, c));
		if (profdata_profile_find_class(p, p->classes.v[c].dump.super_id, &c) < 0)
			return 0;
	}
	return weak;
}

/* Each class's slots, from its row. */
static void note_class_slots(pd_heap_graph *g)
{
	for (size_t c = 0; c < g->p->classes.n; c++) {
		const pd_class_row *r = &g->p->classes.v[c];
		g->class_slots[c].offsets_off = r->ref_offsets_off;
		g->class_slots[c].n = r->layout_ok ? r->nref_offsets : 0;
	}
}

/*
 * VisualVM does not follow Reference.referent in soft, weak and final
 * references (it does in phantom ones, e.g. cleaners): per class, the slot
 * that holds it, found by walking the superclass chain up to
 * java.lang.ref.Reference.
 */
static void find_referents(pd_heap_graph *g)
{
	const profdata_profile *p = g->p;
	size_t ncls = p->classes.n, ref_class = SIZE_MAX;
	for (size_t c = 0; c < ncls; c++) {
		g->class_slots[c].weak = -1;
		if (pd_heap_class_named(pd_heap_class_name(p, c), "java/lang/ref/Reference"))
			ref_class = c;
	}
	if (ref_class == SIZE_MAX || !p->classes.v[ref_class].layout_ok)
		return;
	long pos = referent_position(p, ref_class);
	if (pos < 0)
		return;
	size_t base = p->classes.v[ref_class].nref_offsets;
	for (size_t c = 0; c < ncls; c++) {
		const pd_class_row *r = &p->classes.v[c];
		if (r->layout_ok && r->nref_offsets >= base && weak_reference_class(p, c, ref_class))
			g->class_slots[c].weak = (int32_t)(r->nref_offsets - base + (size_t)pos);
	}
}

static int add_target(pd_heap_graph *g, size_t *cap, uint64_t id)
{
	pd_hnode t = id ? pd_heap_local(g, id) : PD_HEAP_NONE;
	if (t == PD_HEAP_NONE)
		return 0;
	if (pd_grow((void **)&g->root_targets, cap, g->nroot_targets + 1, sizeof(*g->root_targets)) < 0)
		return PROFDATA_ENOMEM;
	g->root_targets[g->nroot_targets++] = t;
	return 0;
}

/*
 * The objects and classes the dump's GC root records name, and the class of
 * every object they name (VisualVM holds those classes as roots too); an
 * UNREACHABLE record names no root.
 */
static int find_root_targets(pd_heap_graph *g, uint32_t dump)
{
	const profdata_profile *p = g->p;
	size_t cap = 0;
	int e = 0;
	for (size_t r = 0; r < p->roots.n && e == 0; r++)
		if (p->roots.v[r].dump == dump && pd_heap_root_holds(p->roots.v[r].r.kind)) {
			e = add_target(g, &cap, p->roots.v[r].r.object_id);
			size_t m;
			if (e == 0 && profdata_profile_find_object(p, p->roots.v[r].r.object_id, &m) == 0 &&
			    pd_obj_class(p, m) != UINT32_MAX)
				e = add_target(g, &cap, p->classes.v[pd_obj_class(p, m)].id);
		}
	return e;
}

/* Which class dump of `dump` each class row has, and the size VisualVM gives a class object: a java.lang.Class. */
static void find_classes(pd_heap_graph *g, uint32_t dump)
{
	const profdata_profile *p = g->p;
	for (size_t c = 0; c < p->classes.n; c++) {
		g->class_cdump[c] = UINT32_MAX;
		const char *name = pd_heap_class_name(p, c);
		const pd_class_row *r = &p->classes.v[c];
		if (pd_heap_class_named(name, "java/lang/Class") && (g->class_row = c, 1))
			g->class_size = pd_jvm_instance_size(&p->jvm, r->layout_ok, r->prim_bytes, r->nref_offsets,
			                                      r->dump.instance_size, 0);
	}
	for (size_t d = p->cdumps.n; d-- > 0;)
		if (p->cdumps.v[d].dump == dump)
			g->class_cdump[p->cdumps.v[d].class_row] = (uint32_t)d;
}

/*
 * The walks visit payloads in graph order, all over the file: without
 * releases a 1.8 GB dump's pages would all become resident. 32 MiB of
 * pages entered between releases keeps them a small part of the peak.
 */
#define PAGE_BUDGET ((uint64_t)32 << 20)

int pd_heap_graph_init(pd_heap_graph *g, const profdata_profile *p, long dump)
{
	memset(g, 0, sizeof(*g));
	g->p = p;
	if (dump < 0 || (size_t)dump >= p->dumps.n)
		return PROFDATA_ENOTFOUND;
	g->first = p->dumps.v[dump].first_object;
	g->dump = (uint32_t)dump;
	g->class_row = SIZE_MAX;
	/* Nodes are numbered below PD_HEAP_MAX_NODES: the analysis keeps a flag in the top bit (heap_width.h). */
	if (p->dumps.v[dump].nobjects >= PD_HEAP_MAX_NODES)
		return PROFDATA_EINVAL;
	g->n = (pd_hnode)p->dumps.v[dump].nobjects;
	if (p->classes.n >= PD_HEAP_MAX_NODES - g->n)
		return PROFDATA_EINVAL;
	g->nclasses = (pd_hnode)p->classes.n;
	g->nodes = g->n + g->nclasses;
	g->id_size = p->meta.id_size ? p->meta.id_size : 8;
	g->class_slots = malloc((p->classes.n ? p->classes.n : 1) * sizeof(*g->class_slots));
	g->class_cdump = malloc((p->classes.n ? p->classes.n : 1) * sizeof(*g->class_cdump));
	if (!g->class_slots || !g->class_cdump)
		return PROFDATA_ENOMEM;
	note_class_slots(g);
	find_referents(g);
	find_classes(g, (uint32_t)dump);
	g->pages = pd_pager_start_random(p->blob, PAGE_BUDGET);
	return find_root_targets(g, (uint32_t)dump);
}

void pd_heap_graph_free(pd_heap_graph *g)
{
	pd_pager_stop(g->pages);
	PD_FREE_ALL(g->class_slots, g->root_targets, g->class_cdump, g->connector);
	memset(g, 0, sizeof(*g));
}

/* The slots the dump's records give node i. */
static void record_slots(const pd_heap_graph *g, pd_hnode i, pd_heap_slots *s)
{
	const profdata_profile *p = g->p;
	size_t m = g->first + i;
	memset(s, 0, sizeof(*s));
	s->weak = SIZE_MAX;
	s->id_size = g->id_size;
	if (i >= g->n) {
		uint32_t d = g->class_cdump[i - g->n];
		if (d == UINT32_MAX)
			return;
		const pd_cdump_row *row = &p->cdumps.v[d];
		if ((row->has_refs ? row->d.nrefs : row->d.nstatics) == 0)
			return; /* (the tables may be empty: no pointer into them) */
		if (row->has_refs) {
			s->list = p->class_refs.v + row->refs_off;
			s->n = row->d.nrefs;
		} else {
			s->statics = p->fields.v + row->statics_off;
			s->n = row->d.nstatics;
		}
		return;
	}
	if (p->obj_refs_start && (p->obj_refs_start[m + 1] > p->obj_refs_start[m] || pd_obj_payload(p, m) == UINT64_MAX)) {
		s->list = p->obj_refs.v + p->obj_refs_start[m];
		s->n = (size_t)(p->obj_refs_start[m + 1] - p->obj_refs_start[m]);
		return;
	}
	/* Which slots first: a primitive array's payload, or one without references, is not read at all. */
	int kind = pd_obj_kind(p, m) & 3;
	uint32_t c = pd_obj_class(p, m);
	const pd_heap_class_slots *cs = c == UINT32_MAX ? NULL : &g->class_slots[c];
	if (kind == PROFDATA_OBJECT_INSTANCE ? !cs || !cs->n : kind != PROFDATA_OBJECT_ARRAY)
		return;
	s->data = pd_object_data(p, m, &s->len);
	if (!s->data)
		return;
	pd_pager_touch(g->pages, pd_obj_payload(p, m));
	if (kind == PROFDATA_OBJECT_ARRAY) {
		s->n = (size_t)(s->len / g->id_size);
		return;
	}
	s->offsets = p->ref_offsets.v + cs->offsets_off;
	s->n = cs->n;
	if (cs->weak >= 0)
		s->weak = (size_t)cs->weak;
}

void pd_heap_slots_of(const pd_heap_graph *g, pd_hnode i, pd_heap_slots *s)
{
	record_slots(g, i, s);
	if (!g->connector)
		return;
	size_t c = i < g->n ? pd_obj_class(g->p, g->first + i) : g->class_row;
	if (c < g->nclasses && g->connector[c] == i) { /* (arrays never connect) */
		s->class_id = g->p->classes.v[c].id;
		s->class_node = g->n + (pd_hnode)c;
		s->n++;
	}
}

pd_hnode pd_heap_local_class(const pd_heap_graph *g, uint64_t id)
{
	size_t c;
	return profdata_profile_find_class(g->p, id, &c) == 0 ? g->n + (pd_hnode)c : PD_HEAP_NONE;
}

uint64_t pd_heap_size(const pd_heap_graph *g, pd_hnode i)
{
	if (i >= g->n)
		return g->class_size;
	return profdata_profile_object_size(g->p, g->first + i);
}

uint64_t pd_heap_retained_size(const pd_heap_graph *g, pd_hnode i)
{
	return i >= g->n ? 0 : profdata_profile_object_size(g->p, g->first + i);
}

int pd_heap_report(const pd_heap_graph *g, const char *phase, uint64_t done, uint64_t total)
{
	if (g->progress && g->progress(g->progress_user, phase, done, total) != 0)
		return PROFDATA_STOPPED;
	return 0;
}
