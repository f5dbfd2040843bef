/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Leak suspects (profdata/suspects.h) from a finished dominator tree, in
 * three linear passes over the nodes and no copy of the tree: the biggest
 * child of every node (the only thing the walks down need), the top-level
 * dominators (object suspects, and per class the sums for class suspects),
 * then what each accumulation point dominates, by class. Children lists
 * would cost two pd_hnode per object; the biggest child costs one (4 bytes
 * at width 32), and its slots are reused to mark the accumulation points
 * for the last pass.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/heap_impl.h" /* first: heap_width.h */
#include "internal.h"
#include "util/hashmap.h"
#include "util/versioned.h"

/* Below a parent's retained size times this (in 1/100), a child is no longer where the memory gathers. */
#define GATHERS_PERCENT 80
#define DEFAULT_THRESHOLD 0.10
#define DEFAULT_CLASSES 10

/* A class of what suspect `suspect` accumulates, while counted. */
typedef struct tally_row {
	uint32_t suspect;
	uint32_t slot;                 /* pd_heap_class_slot() + 1; 0: class objects */
	uint64_t count, retained;
} tally_row;

struct profdata_heap_suspects {
	pd_heap_head head; /* first: the width it was made at (heap_calls.h) */
	pd_diag diag;
	pd_intern names;
	profdata_heap_suspect *list;
	size_t n, cap;
	uint32_t *name_of;             /* per suspect: its class name's index, until the pointers are set */
	size_t name_cap;
	tally_row *rows;               /* every suspect's classes while counted */
	size_t nrows, rows_cap;
	profdata_heap_accumulated *accumulated;   /* the listed ones, suspect after suspect */
	uint32_t *accumulated_name;    /* ... their names' indexes, until the pointers are set */
	size_t naccumulated;
	uint64_t total, threshold;
	size_t classes;
};

/* The work of one search: the heap and the biggest child of each node (local index + 1, by rpo). */
typedef struct search {
	profdata_heap *h;
	pd_hnode *best;
	uint64_t *class_sum, *class_count;   /* per class slot: top-level dominators that are no suspect alone */
	pd_hnode *class_biggest;             /* ... and the biggest of them (local index + 1) */
	size_t nslots;
} search;

static const size_t options_sizes[] = { sizeof(profdata_heap_suspects_options) };

int profdata_heap_suspects_options_init(profdata_heap_suspects_options *opts, size_t size)
{
	return pd_versioned_init(opts, size, options_sizes, PROFDATA_HEAP_SUSPECTS_OPTIONS_VERSION);
}

static int nomem(profdata_heap_suspects *s)
{
	return pd_diag_error(&s->diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "suspects: out of memory");
}

/* The Java name of class slot `slot` (pd_heap_class_slot(); SIZE_MAX: class objects), interned. */
static int slot_name(profdata_heap_suspects *s, const profdata_heap *h, size_t slot, uint32_t *index)
{
	char buf[1024];
	size_t len = pd_heap_slot_name(h, slot, buf, sizeof buf);
	return pd_intern_put(&s->names, buf, len, index) < 0 ? nomem(s) : 0;
}

/* The biggest child of every node of the dominator tree, by retained size. */
static void find_biggest_children(search *w)
{
	const profdata_heap *h = w->h;
	for (pd_hnode i = 0; i < h->g.nodes; i++) {
		pd_hnode r = h->num[i];
		if (!r)
			continue;
		pd_hnode parent = h->idom[r], cur = w->best[parent];
		if (!cur || pd_heap_ret(h, r) > pd_heap_ret(h, h->num[cur - 1]))
			w->best[parent] = i + 1;
	}
}

/* Add a suspect for local node i (its name for a class suspect comes from its slot), retaining `retained`. */
static int add_suspect(profdata_heap_suspects *s, const search *w, pd_hnode i, int kind, uint64_t count,
                       uint64_t retained)
{
	const profdata_heap *h = w->h;
	if (pd_grow((void **)&s->list, &s->cap, s->n + 1, sizeof *s->list) < 0 ||
	    pd_grow((void **)&s->name_of, &s->name_cap, s->n + 1, sizeof *s->name_of) < 0)
		return nomem(s);
	profdata_heap_suspect *x = &s->list[s->n];
	memset(x, 0, sizeof *x);
	x->kind = kind;
	x->node = pd_heap_node(h, i);
	x->class_object = kind == PROFDATA_SUSPECT_OBJECT && i >= h->g.n;
	x->instances = count;
	x->retained = retained;
	x->accumulation = x->node;
	size_t slot = x->class_object ? i - h->g.n : pd_heap_class_slot(h, i);
	int e = slot_name(s, h, slot, &s->name_of[s->n]);
	if (e == 0)
		s->n++;
	return e;
}

/* Object suspects, and the per-class sums of the other top-level dominators. */
static int find_top_level(profdata_heap_suspects *s, search *w)
{
	const profdata_heap *h = w->h;
	for (pd_hnode i = 0; i < h->g.nodes; i++) {
		pd_hnode r = h->num[i];
		if (!r || h->idom[r] != 0)
			continue;
		uint64_t ret = pd_heap_ret(h, r);
		size_t slot = i < h->g.n ? pd_heap_class_slot(h, i) : SIZE_MAX;
		if (ret >= s->threshold) {
			int e = add_suspect(s, w, i, PROFDATA_SUSPECT_OBJECT, 1, ret);
			if (e)
				return e;
		} else if (slot != SIZE_MAX) {
			w->class_sum[slot] += ret;
			w->class_count[slot]++;
			pd_hnode big = w->class_biggest[slot];
			if (!big || ret > pd_heap_ret(h, h->num[big - 1]))
				w->class_biggest[slot] = i + 1;
		}
	}
	for (size_t slot = 0; slot < w->nslots; slot++)
		if (w->class_count[slot] > 1 && w->class_sum[slot] >= s->threshold) {
			int e = add_suspect(s, w, w->class_biggest[slot] - 1, PROFDATA_SUSPECT_CLASS, w->class_count[slot],
			                    w->class_sum[slot]);
			if (e)
				return e;
		}
	return 0;
}

/* Down the dominator tree from each object suspect while one child holds most of it. */
static void find_accumulation_points(profdata_heap_suspects *s, const search *w)
{
	const profdata_heap *h = w->h;
	for (size_t k = 0; k < s->n; k++) {
		profdata_heap_suspect *x = &s->list[k];
		if (x->kind != PROFDATA_SUSPECT_OBJECT)
			continue;
		pd_hnode i = pd_heap_local_of(h, x->node);
		pd_hnode r = h->num[i];
		for (;;) {
			pd_hnode c = w->best[r];
			uint64_t here = pd_heap_ret(h, r);
			if (!c || pd_heap_ret(h, h->num[c - 1]) < here - here / 100 * (100 - GATHERS_PERCENT))
				break;
			i = c - 1;
			r = h->num[i];
			x->depth++;
		}
		x->accumulation = pd_heap_node(h, i);
		x->accumulation_retained = pd_heap_ret(h, r);
	}
}

/*
 * Mark in w->best the nodes whose children are listed: each accumulation
 * point, and the top-level instances of each class suspect (after the walks
 * down, which read it). The mark is the suspect's number with the top bit,
 * PD_HEAP_FLAG: numbers stay below it (heap_impl.h), so no child index has it.
 */
static void mark_listed(profdata_heap_suspects *s, search *w)
{
	const profdata_heap *h = w->h;
	for (size_t k = 0; k < s->n; k++) {
		const profdata_heap_suspect *x = &s->list[k];
		if (x->kind == PROFDATA_SUSPECT_OBJECT)
			w->best[h->num[pd_heap_local_of(h, x->accumulation)]] = PD_HEAP_FLAG | (pd_hnode)k;
		else
			w->class_biggest[pd_heap_class_slot(h, pd_heap_local_of(h, x->node))] = PD_HEAP_FLAG | (pd_hnode)k;
	}
	for (pd_hnode i = 0; i < h->g.n; i++) {
		pd_hnode r = h->num[i];
		if (!r || h->idom[r] != 0 || pd_heap_ret(h, r) >= s->threshold)
			continue;
		pd_hnode mark = w->class_biggest[pd_heap_class_slot(h, i)];
		if (mark & PD_HEAP_FLAG)
			w->best[r] = mark;
	}
}

/* Count local node i, a child of suspect k's listed node, under its class. */
static int tally(profdata_heap_suspects *s, pd_map *rows, const profdata_heap *h, pd_hnode k, pd_hnode i)
{
#if PD_HEAP_WIDTH == 64
	/* The key holds the suspect's number above the 32 bits of the class slot, a row keeps it in 32 bits, and
	 * the map's values (row + 1) are 32 bits: numbers a dump of 32-bit nodes never reaches, which a search at
	 * width 64 refuses rather than mix two suspects' (or rows') figures. */
	if (k > UINT32_MAX)
		return pd_diag_error(&s->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "suspects: more than 2^32 suspects");
#endif
	uint32_t slot = i < h->g.n ? (uint32_t)pd_heap_class_slot(h, i) + 1 : 0;
	uint64_t key = (uint64_t)k << 32 | slot;
	uint32_t row = pd_map_get(rows, key);
	if (!row) {
#if PD_HEAP_WIDTH == 64
		if (s->nrows >= UINT32_MAX)
			return pd_diag_error(&s->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
			                     "suspects: more than 2^32 - 1 classes under the suspects");
#endif
		if (pd_grow((void **)&s->rows, &s->rows_cap, s->nrows + 1, sizeof *s->rows) < 0 ||
		    pd_map_put(rows, key, (uint32_t)s->nrows + 1) < 0)
			return nomem(s);
		s->rows[s->nrows] = (tally_row){ (uint32_t)k, slot, 0, 0 };
		row = (uint32_t)++s->nrows;
	}
	s->rows[row - 1].count++;
	s->rows[row - 1].retained += pd_heap_ret(h, h->num[i]);
	return 0;
}

/* What every marked node dominates directly, by suspect and class. */
static int count_accumulated(profdata_heap_suspects *s, const search *w)
{
	const profdata_heap *h = w->h;
	pd_map rows;
	memset(&rows, 0, sizeof rows);
	int e = 0;
	for (pd_hnode i = 0; i < h->g.nodes && e == 0; i++) {
		pd_hnode r = h->num[i];
		pd_hnode mark = r && h->idom[r] ? w->best[h->idom[r]] : 0;
		if (mark & PD_HEAP_FLAG)
			e = tally(s, &rows, h, mark & PD_HEAP_NUMBER, i);
	}
	pd_map_free(&rows);
	return e;
}

/* By suspect, then the largest retained first, then the class. */
static int by_suspect_then_retained(const void *a, const void *b)
{
	const tally_row *x = a, *y = b;
	if (x->suspect != y->suspect)
		return x->suspect < y->suspect ? -1 : 1;
	if (x->retained != y->retained)
		return x->retained > y->retained ? -1 : 1;
	return pd_order_u64(x->slot, y->slot);
}

/* The listed classes of each suspect: its largest s->classes rows, named. */
static int list_accumulated(profdata_heap_suspects *s, const profdata_heap *h)
{
	if (s->nrows)
		qsort(s->rows, s->nrows, sizeof *s->rows, by_suspect_then_retained);
	s->accumulated = calloc(s->nrows + 1, sizeof *s->accumulated);
	s->accumulated_name = calloc(s->nrows + 1, sizeof *s->accumulated_name);
	if (!s->accumulated || !s->accumulated_name)
		return nomem(s);
	size_t kept = 0;
	for (size_t j = 0; j < s->nrows; j++) {
		const tally_row *t = &s->rows[j];
		profdata_heap_suspect *x = &s->list[t->suspect];
		x->accumulated_classes++;
		if (x->naccumulated == s->classes)
			continue;
		int e = slot_name(s, h, t->slot ? t->slot - 1 : SIZE_MAX, &s->accumulated_name[kept]);
		if (e)
			return e;
		s->accumulated[kept].count = t->count;
		s->accumulated[kept].retained = t->retained;
		if (!x->naccumulated++)
			x->accumulated = &s->accumulated[kept];
		kept++;
	}
	s->naccumulated = kept;
	return 0;
}

/* Largest retained first; ties by node, so the order is the same every run. */
static int by_retained(const void *a, const void *b)
{
	const profdata_heap_suspect *x = a, *y = b;
	if (x->retained != y->retained)
		return x->retained > y->retained ? -1 : 1;
	return pd_order_u64(x->node, y->node);
}

/* Names become pointers (the interner no longer grows), suspects sorted. */
static void finish(profdata_heap_suspects *s)
{
	for (size_t k = 0; k < s->n; k++)
		s->list[k].class_name = pd_intern_str(&s->names, s->name_of[k], NULL);
	for (size_t j = 0; j < s->naccumulated; j++)
		s->accumulated[j].class_name = pd_intern_str(&s->names, s->accumulated_name[j], NULL);
	if (s->n)
		qsort(s->list, s->n, sizeof *s->list, by_retained);
}

/* The caller's options as this library's version (defaults for NULL and zeros), checked. */
static int adopt_options(profdata_heap_suspects *s, const profdata_heap_suspects_options *opts,
                         profdata_heap_suspects_options *o)
{
	static const profdata_heap_suspects_options defaults = PROFDATA_HEAP_SUSPECTS_OPTIONS_INIT;
	*o = defaults;
	if (opts && pd_versioned_adopt(o, opts, options_sizes, PROFDATA_HEAP_SUSPECTS_OPTIONS_VERSION) < 0)
		return pd_diag_error(&s->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "suspects options of version %u (this library has %d)", opts->version,
		                     PROFDATA_HEAP_SUSPECTS_OPTIONS_VERSION);
	if (o->threshold == 0)
		o->threshold = DEFAULT_THRESHOLD;
	if (!(o->threshold > 0 && o->threshold <= 1))
		return pd_diag_error(&s->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "suspects: a threshold is a share above 0 and at most 1, not %g", o->threshold);
	s->classes = o->classes ? o->classes : DEFAULT_CLASSES;
	return 0;
}

/* The threshold in bytes: at least 1, so that a heap of nothing has no suspect. */
static uint64_t threshold_bytes(uint64_t total, double share)
{
	if (share >= 1)
		return total ? total : 1;
	double bytes = (double)total * share;
	uint64_t b = (uint64_t)bytes;  /* below total: it fits */
	if ((double)b < bytes)
		b++;
	return b ? b : 1;
}

static int search_start(search *w, profdata_heap *h)
{
	memset(w, 0, sizeof *w);
	w->h = h;
	w->nslots = h->g.p->classes.n + PD_HEAP_ELEM_TYPES;
	w->best = calloc((size_t)h->m + 1, sizeof *w->best);
	w->class_sum = calloc(w->nslots, sizeof *w->class_sum);
	w->class_count = calloc(w->nslots, sizeof *w->class_count);
	w->class_biggest = calloc(w->nslots, sizeof *w->class_biggest);
	return w->best && w->class_sum && w->class_count && w->class_biggest ? 0 : PROFDATA_ENOMEM;
}

static int search_run(profdata_heap_suspects *s, profdata_heap *h)
{
	search w;
	int e = search_start(&w, h);
	if (e)
		e = nomem(s);
	if (e == 0) {
		find_biggest_children(&w);
		e = find_top_level(s, &w);
	}
	if (e == 0) {
		find_accumulation_points(s, &w);
		mark_listed(s, &w);
		e = count_accumulated(s, &w);
	}
	if (e == 0)
		e = list_accumulated(s, h);
	PD_FREE_ALL(w.best, w.class_sum, w.class_count, w.class_biggest);
	return e;
}

int profdata_heap_suspects_new(profdata_heap_suspects **out, profdata_heap *h,
                               const profdata_heap_suspects_options *opts)
{
	profdata_heap_suspects *s = *out = calloc(1, sizeof *s);
	if (!s)
		return PROFDATA_ENOMEM;
	s->head.width = PD_HEAP_WIDTH;
	pd_diag_init(&s->diag, "suspects");
	profdata_heap_suspects_options o;
	int e = adopt_options(s, opts, &o);
	if (e == 0 && h->graph_only)
		e = pd_diag_error(&s->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                  "suspects: the heap was made with graph_only: it has no dominator tree");
	if (e == 0) {
		s->total = h->reachable_bytes;
		s->threshold = threshold_bytes(s->total, o.threshold);
		e = search_run(s, h);
	}
	if (e == 0)
		finish(s);
	return e;
}

const profdata_error *profdata_heap_suspects_error(const profdata_heap_suspects *s) { return pd_diag_last(&s->diag); }
size_t profdata_heap_suspects_count(const profdata_heap_suspects *s) { return s->n; }
const profdata_heap_suspect *profdata_heap_suspects_at(const profdata_heap_suspects *s, size_t i)
{
	return i < s->n ? &s->list[i] : NULL;
}
uint64_t profdata_heap_suspects_total(const profdata_heap_suspects *s) { return s->total; }
uint64_t profdata_heap_suspects_threshold(const profdata_heap_suspects *s) { return s->threshold; }

void profdata_heap_suspects_free(profdata_heap_suspects *s)
{
	if (!s)
		return;
	pd_intern_free(&s->names);
	pd_diag_free(&s->diag);
	PD_FREE_ALL(s->list, s->name_of, s->rows, s->accumulated, s->accumulated_name, s);
}
