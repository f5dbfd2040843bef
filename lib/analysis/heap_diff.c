/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The difference of two analysed heaps (profdata/heap_diff.h), in linear
 * passes: each dump's objects counted per class slot, the slots named and
 * summed into one row per class name, NEW's objects looked up by id in
 * OLD's model, then the new objects that no new object dominates ranked by
 * retained size. Which objects are new is one bit per dominator-tree
 * number of NEW: the bit of a node's immediate dominator is then one read
 * away, with no map from the tree's numbering back to the objects.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/heap_impl.h" /* first: heap_width.h */
#include "internal.h"
#include "util/hashmap.h"
#include "util/versioned.h"

#define DEFAULT_DOMINATORS 10

enum { OLD = 0, NEW = 1 };

/* One class name's figures while they are summed: [OLD] and [NEW]. */
typedef struct name_row {
	uint64_t instances[2], bytes[2], retained[2];
	uint32_t classes[2];
} name_row;

struct profdata_heap_diff {
	pd_heap_head head; /* first: the width it was made at (heap_calls.h) */
	pd_diag diag;
	pd_intern names;
	name_row *rows;                /* per name index, while summed */
	size_t rows_cap;
	profdata_heap_class_change *classes;
	size_t nclasses;
	profdata_heap_diff_objects objects;
	profdata_heap_new_dominator *dominators;
	uint32_t *dominator_name;      /* per dominator: its class name's index, until the pointers are set */
	size_t ndominators;
};

/* One dump's work: per class slot (pd_heap_class_slot()) its objects, their bytes and its name's row + 1. */
typedef struct side {
	profdata_heap *h;
	size_t nslots;
	uint64_t *instances, *bytes;
	uint32_t *row;
} side;

static const size_t options_sizes[] = { sizeof(profdata_heap_diff_options) };

int profdata_heap_diff_options_init(profdata_heap_diff_options *opts, size_t size)
{
	return pd_versioned_init(opts, size, options_sizes, PROFDATA_HEAP_DIFF_OPTIONS_VERSION);
}

static int nomem(profdata_heap_diff *d)
{
	return pd_diag_error(&d->diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "heap diff: out of memory");
}

static int side_start(side *s, profdata_heap *h)
{
	memset(s, 0, sizeof *s);
	s->h = h;
	s->nslots = h->g.p->classes.n + PD_HEAP_ELEM_TYPES;
	s->instances = calloc(s->nslots, sizeof *s->instances);
	s->bytes = calloc(s->nslots, sizeof *s->bytes);
	s->row = calloc(s->nslots, sizeof *s->row);
	if (!s->instances || !s->bytes || !s->row)
		return PROFDATA_ENOMEM;
	for (pd_hnode i = 0; i < h->g.n; i++) {
		size_t slot = pd_heap_class_slot(h, i);
		s->instances[slot]++;
		s->bytes[slot] += pd_heap_size(&h->g, i);
	}
	return 0;
}

static void side_free(side *s)
{
	PD_FREE_ALL(s->instances, s->bytes, s->row);
}

/* The row of the name `buf` (len bytes), added when new: 0, or the error. */
static int name_row_of(profdata_heap_diff *d, const char *buf, size_t len, uint32_t *index)
{
	int found = pd_intern_put(&d->names, buf, len, index);
	if (found < 0)
		return nomem(d);
	if (!found) {
		if (pd_grow((void **)&d->rows, &d->rows_cap, (size_t)*index + 1, sizeof *d->rows) < 0)
			return nomem(d);
		memset(&d->rows[*index], 0, sizeof *d->rows);
	}
	return 0;
}

/* Name every slot of side s that has objects and add its figures to its name's row ([which]). */
static int sum_side(profdata_heap_diff *d, side *s, int which)
{
	char buf[1024];
	for (size_t slot = 0; slot < s->nslots; slot++) {
		if (!s->instances[slot])
			continue;
		uint64_t retained;
		int e = pd_heap_slot_retained(&retained, s->h, slot);
		if (e)
			return pd_diag_error(&d->diag, e, PD_NO_OFFSET, 0, "heap diff: the %s heap: %s",
			                     which == OLD ? "old" : "new", profdata_heap_error(s->h)->message);
		uint32_t index;
		if ((e = name_row_of(d, buf, pd_heap_slot_name(s->h, slot, buf, sizeof buf), &index)) != 0)
			return e;
		s->row[slot] = index + 1;
		name_row *r = &d->rows[index];
		r->instances[which] += s->instances[slot];
		r->bytes[which] += s->bytes[slot];
		r->retained[which] += retained;
		r->classes[which]++;
	}
	return 0;
}

/* 1 when NEW's local object i is OLD's local object *j: the same id, a class of the same name. */
static int matches(const side *old, const side *now, pd_hnode i, pd_hnode *j)
{
	const profdata_heap *ho = old->h, *hn = now->h;
	size_t index;
	if (profdata_profile_find_object(ho->g.p, pd_obj_id(hn->g.p, hn->g.first + i), &index) != 0 ||
	    index < ho->g.first || index - ho->g.first >= ho->g.n)
		return 0;
	*j = (pd_hnode)(index - ho->g.first);
	return old->row[pd_heap_class_slot(ho, *j)] == now->row[pd_heap_class_slot(hn, i)];
}

/* Match NEW's objects in OLD by id, marking the reachable new ones in `fresh` (a bit per NEW number). */
static void match_objects(profdata_heap_diff *d, const side *old, const side *now, uint8_t *fresh)
{
	profdata_heap_diff_objects *o = &d->objects;
	const profdata_heap *hn = now->h;
	uint64_t old_matched_bytes = 0;
	for (size_t slot = 0; slot < old->nslots; slot++)
		o->old_bytes += old->bytes[slot];
	for (size_t slot = 0; slot < now->nslots; slot++)
		o->new_bytes += now->bytes[slot];
	o->old_objects = old->h->g.n;
	o->new_objects = hn->g.n;
	for (pd_hnode i = 0, j; i < hn->g.n; i++) {
		uint64_t size = pd_heap_size(&hn->g, i);
		if (matches(old, now, i, &j)) {
			o->matched++;
			o->matched_bytes += size;
			old_matched_bytes += pd_heap_size(&old->h->g, j);
			continue;
		}
		o->added++;
		o->added_bytes += size;
		pd_hnode r = hn->num[i];
		if (r)
			fresh[r >> 3] |= (uint8_t)(1u << (r & 7));
	}
	o->gone = o->old_objects - o->matched;
	o->gone_bytes = o->old_bytes - old_matched_bytes;
}

static int is_fresh(const uint8_t *fresh, pd_hnode r)
{
	return (fresh[r >> 3] >> (r & 7)) & 1;
}

/* A new object that no other new object dominates (the virtual root, number 0, is never fresh). */
static int tops_new_memory(const void *payload, const profdata_heap *h, pd_hnode i)
{
	const uint8_t *fresh = payload;
	pd_hnode r = h->num[i];
	return i < h->g.n && is_fresh(fresh, r) && !is_fresh(fresh, h->idom[r]);
}

/* The `want` biggest new dominators of NEW. */
static int rank_dominators(profdata_heap_diff *d, const side *now, const uint8_t *fresh, size_t want)
{
	const profdata_heap *h = now->h;
	size_t *nodes = malloc((want ? want : 1) * sizeof *nodes);
	d->dominators = calloc(want ? want : 1, sizeof *d->dominators);
	d->dominator_name = calloc(want ? want : 1, sizeof *d->dominator_name);
	if (!nodes || !d->dominators || !d->dominator_name) {
		free(nodes);
		return nomem(d);
	}
	pd_heap_rank(nodes, &d->ndominators, h, want, tops_new_memory, fresh);
	for (size_t k = 0; k < d->ndominators; k++) {
		profdata_heap_new_dominator *x = &d->dominators[k];
		pd_hnode i = pd_heap_local_of(h, nodes[k]);
		x->node = nodes[k];
		x->id = pd_obj_id(h->g.p, nodes[k]);
		x->shallow = pd_heap_size(&h->g, i);
		x->retained = pd_heap_ret(h, h->num[i]);
		d->dominator_name[k] = now->row[pd_heap_class_slot(h, i)] - 1;
	}
	free(nodes);
	return 0;
}

static int compare_growth(int64_t a, int64_t b, const profdata_heap_class_change *x,
                          const profdata_heap_class_change *y)
{
	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(x->class_name, y->class_name);
}

static int by_bytes(const void *a, const void *b)
{
	const profdata_heap_class_change *x = a, *y = b;
	return compare_growth(x->bytes, y->bytes, x, y);
}

static int by_retained(const void *a, const void *b)
{
	const profdata_heap_class_change *x = a, *y = b;
	return compare_growth(x->retained, y->retained, x, y);
}

static int by_instances(const void *a, const void *b)
{
	const profdata_heap_class_change *x = a, *y = b;
	return compare_growth(x->instances, y->instances, x, y);
}

/* The rows as the caller reads them, named and sorted by `order`. */
static int list_classes(profdata_heap_diff *d, int order)
{
	d->nclasses = d->names.n;
	d->classes = calloc(d->nclasses + 1, sizeof *d->classes);
	if (!d->classes)
		return nomem(d);
	for (size_t k = 0; k < d->nclasses; k++) {
		const name_row *r = &d->rows[k];
		profdata_heap_class_change *c = &d->classes[k];
		c->class_name = pd_intern_str(&d->names, (uint32_t)k, NULL);
		c->old_instances = r->instances[OLD], c->new_instances = r->instances[NEW];
		c->old_bytes = r->bytes[OLD], c->new_bytes = r->bytes[NEW];
		c->old_retained = r->retained[OLD], c->new_retained = r->retained[NEW];
		c->instances = (int64_t)(r->instances[NEW] - r->instances[OLD]);
		c->bytes = (int64_t)(r->bytes[NEW] - r->bytes[OLD]);
		c->retained = (int64_t)(r->retained[NEW] - r->retained[OLD]);
		c->old_classes = r->classes[OLD], c->new_classes = r->classes[NEW];
	}
	int (*cmp)(const void *, const void *) = order == PROFDATA_HEAP_DIFF_BY_RETAINED ? by_retained :
	                                         order == PROFDATA_HEAP_DIFF_BY_INSTANCES ? by_instances : by_bytes;
	if (d->nclasses)
		qsort(d->classes, d->nclasses, sizeof *d->classes, cmp);
	for (size_t k = 0; k < d->ndominators; k++)
		d->dominators[k].class_name = pd_intern_str(&d->names, d->dominator_name[k], NULL);
	return 0;
}

/* The caller's options as this library's version (defaults for NULL and zeros), checked. */
static int adopt_options(profdata_heap_diff *d, const profdata_heap_diff_options *opts, profdata_heap_diff_options *o)
{
	static const profdata_heap_diff_options defaults = PROFDATA_HEAP_DIFF_OPTIONS_INIT;
	*o = defaults;
	if (opts && pd_versioned_adopt(o, opts, options_sizes, PROFDATA_HEAP_DIFF_OPTIONS_VERSION) < 0)
		return pd_diag_error(&d->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "heap diff options of version %u (this library has %d)", opts->version,
		                     PROFDATA_HEAP_DIFF_OPTIONS_VERSION);
	if (o->order < PROFDATA_HEAP_DIFF_BY_BYTES || o->order > PROFDATA_HEAP_DIFF_BY_INSTANCES)
		return pd_diag_error(&d->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "heap diff: no order %d", o->order);
	if (!o->dominators)
		o->dominators = DEFAULT_DOMINATORS;
	return 0;
}

static int compare(profdata_heap_diff *d, profdata_heap *old_heap, profdata_heap *new_heap,
                   const profdata_heap_diff_options *o)
{
	side old, now;
	int e = side_start(&old, old_heap) | side_start(&now, new_heap);
	uint8_t *fresh = calloc((size_t)new_heap->m / 8 + 1, 1);
	if (e || !fresh)
		e = nomem(d);
	if (e == 0)
		e = sum_side(d, &old, OLD);
	if (e == 0)
		e = sum_side(d, &now, NEW);
	if (e == 0) {
		match_objects(d, &old, &now, fresh);
		e = rank_dominators(d, &now, fresh, o->dominators);
	}
	if (e == 0)
		e = list_classes(d, o->order);
	side_free(&old);
	side_free(&now);
	free(fresh);
	return e;
}

int profdata_heap_diff_new(profdata_heap_diff **out, profdata_heap *old_heap, profdata_heap *new_heap,
                           const profdata_heap_diff_options *opts)
{
	profdata_heap_diff *d = *out = calloc(1, sizeof *d);
	if (!d)
		return PROFDATA_ENOMEM;
	d->head.width = PD_HEAP_WIDTH;
	pd_diag_init(&d->diag, "heap diff");
	profdata_heap_diff_options o;
	int e = adopt_options(d, opts, &o);
	/* (the dispatch gave the old heap's width; the new one's tables are laid out at its own) */
	if (e == 0 && new_heap->head.width != PD_HEAP_WIDTH)
		e = pd_diag_error(&d->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                  "heap diff: the old heap has %d-bit node numbers, the new one %u-bit: make both "
		                  "with the heap option node_bits 64", PD_HEAP_WIDTH, new_heap->head.width);
	if (e == 0 && (old_heap->graph_only || new_heap->graph_only))
		e = pd_diag_error(&d->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                  "heap diff: the %s heap was made with graph_only: it has no dominator tree",
		                  old_heap->graph_only ? "old" : "new");
	if (e == 0)
		e = compare(d, old_heap, new_heap, &o);
	return e;
}

const profdata_error *profdata_heap_diff_error(const profdata_heap_diff *d) { return pd_diag_last(&d->diag); }
size_t profdata_heap_diff_class_count(const profdata_heap_diff *d) { return d->nclasses; }
const profdata_heap_class_change *profdata_heap_diff_class_at(const profdata_heap_diff *d, size_t i)
{
	return i < d->nclasses ? &d->classes[i] : NULL;
}
const profdata_heap_diff_objects *profdata_heap_diff_objects_of(const profdata_heap_diff *d) { return &d->objects; }
size_t profdata_heap_diff_dominator_count(const profdata_heap_diff *d) { return d->ndominators; }
const profdata_heap_new_dominator *profdata_heap_diff_dominator_at(const profdata_heap_diff *d, size_t i)
{
	return i < d->ndominators ? &d->dominators[i] : NULL;
}

void profdata_heap_diff_free(profdata_heap_diff *d)
{
	if (!d)
		return;
	pd_intern_free(&d->names);
	pd_diag_free(&d->diag);
	PD_FREE_ALL(d->rows, d->classes, d->dominators, d->dominator_name, d);
}
