/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The retained sizes as VisualVM sums them (doc/heap-analysis.md, tree
 * objects). Before its dominator tree, VisualVM takes "tree objects" level
 * by level from the leaves of its search: an object all of whose references
 * lead to objects with one referrer that are tree objects already, and its
 * retained size is its own plus theirs (a class object at the size of a
 * java.lang.Class, a GC root among them too). Its dominator sums then stop
 * at a tree object and never count a class object of their own.
 *
 * Here the levels are found in the one sweep down the numbers that sums the
 * dominator tree: an object's children come before it, because a child with
 * one referrer hangs under it in the dominator tree, or (a GC root, a class
 * object) in a short table of its own. A level is the longest way down to a
 * leaf; it rides above the units in each retained word while the sweep runs,
 * and decides between a GC root and its referrer in the order VisualVM's
 * levels would take them. No memory per object beyond the analysis' own
 * three words (num, idom, and work become ret32: 12 bytes at width 32).
 */
#include "analysis/trees.h"
#include "util/huge.h"

#include <stdlib.h>
#include <string.h>

static int by_number(const void *a, const void *b)
{
	const pd_hnode *x = a, *y = b;
	return x[0] != y[0] ? pd_order_u64(x[0], y[0]) : pd_order_u64(x[1], y[1]);
}

/* Falling by the first word: t->classes' rows, and lone numbers. */
static int first_falling(const void *a, const void *b)
{
	const pd_hnode *x = a, *y = b;
	return pd_order_u64(y[0], x[0]);
}

static int side_falling(const void *a, const void *b)
{
	const pd_heap_side *x = a, *y = b;
	return pd_order_u64(y->parent, x->parent);
}

int pd_heap_trees_init(pd_heap_trees *t, const profdata_heap *h)
{
	const pd_heap_graph *g = &h->g;
	memset(t, 0, sizeof(*t));
	t->roots = malloc((g->nroot_targets ? g->nroot_targets : 1) * sizeof(*t->roots));
	t->classes = malloc((g->nclasses ? g->nclasses : 1) * sizeof(*t->classes));
	if (!t->roots || !t->classes)
		return PROFDATA_ENOMEM;
	for (size_t k = 0; k < g->nroot_targets; k++) {
		t->roots[k][0] = h->num[g->root_targets[k]] & PD_HEAP_NUMBER;
		t->roots[k][1] = (pd_hnode)k;
	}
	t->nroots = g->nroot_targets;
	qsort(t->roots, t->nroots, sizeof(*t->roots), by_number);
	for (uint32_t c = 0; c < g->nclasses; c++) {
		pd_hnode r = h->num[g->n + c] & PD_HEAP_NUMBER;
		if (r) {
			t->classes[t->nclasses][0] = r;
			t->classes[t->nclasses][1] = c;
			t->classes[t->nclasses++][2] = 1; /* one referrer, unless its list says more */
		}
	}
	qsort(t->classes, t->nclasses, sizeof(*t->classes), first_falling);
	return 0;
}

void pd_heap_trees_free(pd_heap_trees *t)
{
	PD_FREE_ALL(t->roots, t->classes, t->root_parent, t->sides);
	memset(t, 0, sizeof(*t));
}

/* How many root records name number r (their first position in *first, else PD_HEAP_NONE). */
static pd_hnode root_records(const pd_heap_trees *t, pd_hnode r, pd_hnode *first)
{
	size_t lo = 0, hi = t->nroots;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->roots[mid][0] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	pd_hnode n = 0;
	while (lo + n < t->nroots && t->roots[lo + n][0] == r)
		n++;
	*first = n ? t->roots[lo][1] : PD_HEAP_NONE;
	return n;
}

/* The number of the object that connects class row c, or 0. */
static pd_hnode connector_of(const profdata_heap *h, uint32_t c)
{
	pd_hnode u = h->g.connector ? h->g.connector[c] : PD_HEAP_NONE;
	return u == PD_HEAP_NONE ? 0 : h->num[u] & PD_HEAP_NUMBER;
}

static int keep_root_parent(pd_heap_trees *t, pd_hnode root, pd_hnode parent)
{
	if (pd_grow((void **)&t->root_parent, &t->root_parent_cap, t->nroot_parent + 1, sizeof(*t->root_parent)) < 0)
		return PROFDATA_ENOMEM;
	t->root_parent[t->nroot_parent][0] = root;
	t->root_parent[t->nroot_parent++][1] = parent;
	return 0;
}

/*
 * The referrer list of shared number y (`records` root records name it;
 * `cls`: its t->classes entry, if a class object), read VisualVM's way: a
 * referrer listed again right after itself is the same one, root records
 * (listed as 0) are none, objects no root reaches (also 0) count one. An
 * object with more referrers makes every referrer no tree object: those
 * stay in the list for the marking; the others are cleared, but for y
 * itself (an object referring to itself is no tree object) and a
 * connection, which counts as a referrer yet is no reference of a tree.
 */
static int note_list(pd_heap_trees *t, const profdata_heap *h, pd_hnode y, pd_hnode *list, size_t len,
                     pd_hnode records, pd_hnode *cls)
{
	pd_hnode zeros = 0, distinct = 0, only = 0;
	for (size_t k = 0; k < len; k++) {
		pd_hnode q = list[k] & PD_HEAP_NUMBER;
		if (q == 0)
			zeros++;
		else if (q != only)
			distinct++, only = q;
	}
	pd_hnode conn = cls ? connector_of(h, (uint32_t)cls[1]) : 0;
	int single = distinct + (zeros > records) <= 1, keep_only = 0;
	if (cls)
		cls[2] = (pd_hnode)single;
	if (single && records && distinct == 1 && only != y) {
		if (only > y)
			keep_only = 1; /* numbered after its child root: a cycle, never a tree */
		else if (keep_root_parent(t, y, only) != 0)
			return PROFDATA_ENOMEM;
	}
	for (size_t k = 0; k < len; k++) {
		pd_hnode q = list[k] & PD_HEAP_NUMBER;
		if (!(q == y || (!single && q != conn) || (keep_only && q == only)))
			list[k] &= PD_HEAP_FLAG;
	}
	return 0;
}

/* One entry per number that has a GC root or a class object as a child in the dominator sense. */
static int make_sides(pd_heap_trees *t, const profdata_heap *h)
{
	size_t n = t->nroot_parent + t->nclasses, k = 0;
	t->sides = pd_huge_calloc(n, sizeof(*t->sides));
	if (!t->sides)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < t->nroot_parent; i++)
		t->sides[k++].parent = t->root_parent[i][1];
	for (size_t i = 0; i < t->nclasses; i++)
		if (h->idom[t->classes[i][0]] & PD_HEAP_NUMBER)
			t->sides[k++].parent = h->idom[t->classes[i][0]] & PD_HEAP_NUMBER;
	qsort(t->sides, k, sizeof(*t->sides), side_falling);
	t->nsides = 0;
	for (size_t i = 0; i < k; i++)
		if (t->nsides == 0 || t->sides[t->nsides - 1].parent != t->sides[i].parent)
			t->sides[t->nsides++] = t->sides[i];
	return 0;
}

int pd_heap_trees_note_lists(pd_heap_trees *t, profdata_heap *h, pd_hnode *preds)
{
	size_t at = 0, rt = 0, cl = t->nclasses;
	for (pd_hnode r = 1; r <= h->m; r++) {
		if (!(h->idom[r] & PD_HEAP_FLAG))
			continue;
		size_t start = at;
		while (!(preds[at++] & PD_HEAP_FLAG))
			;
		pd_hnode records = 0;
		while (rt < t->nroots && t->roots[rt][0] < r)
			rt++;
		while (rt + records < t->nroots && t->roots[rt + records][0] == r)
			records++;
		while (cl > 0 && t->classes[cl - 1][0] < r)
			cl--;
		pd_hnode *cls = cl > 0 && t->classes[cl - 1][0] == r ? t->classes[cl - 1] : NULL;
		int e = note_list(t, h, r, preds + start, at - start, records, cls);
		if (e)
			return e;
	}
	for (pd_hnode r = 0; r <= h->m; r++)
		h->idom[r] &= PD_HEAP_NUMBER;
	for (size_t k = 0; k < at; k++)
		if (preds[k] & PD_HEAP_NUMBER)
			h->idom[preds[k] & PD_HEAP_NUMBER] |= PD_HEAP_FLAG;
	/* the lists come in number order; the sweep goes down */
	for (size_t a = 0, b = t->nroot_parent; a + 1 < b; a++, b--) {
		pd_hnode x[2] = { t->root_parent[a][0], t->root_parent[a][1] };
		memcpy(t->root_parent[a], t->root_parent[b - 1], sizeof(x));
		memcpy(t->root_parent[b - 1], x, sizeof(x));
	}
	return make_sides(t, h);
}

static inline uint64_t word(const profdata_heap *h, pd_hnode r) { return h->ret64 ? h->ret64[r] : h->ret32[r]; }

static inline void set_word(profdata_heap *h, pd_hnode r, uint64_t w)
{
	if (h->ret64)
		h->ret64[r] = w;
	else
		h->ret32[r] = (uint32_t)w;
}

/*
 * A retained word while the sweep runs: units below t->shift bits, and above
 * them a field: LEAF for a leaf of VisualVM's search (a tree object already),
 * 1 for any other object, 1 + a level once a child that is a tree object of
 * that level raised it (saturating below BLOCKED), BLOCKED for an object that
 * can be no tree object (never a leaf: a leaf is a tree object whatever it
 * refers to).
 */
enum { LEAF = 0, REFERS = 1 };
#define BLOCKED(t) ((t)->field_max)

/* Word w after a child: a tree object of `level` raises its field, any other blocks it. */
static inline uint64_t after_child(const pd_heap_trees *t, uint64_t w, int tree, uint64_t level)
{
	uint64_t field = w >> t->shift, want = tree ? level + 2 : BLOCKED(t);
	if (tree && want > BLOCKED(t) - 1)
		want = BLOCKED(t) - 1;
	if (field == LEAF || want <= field)
		return w;
	return (w & (((uint64_t)1 << t->shift) - 1)) | want << t->shift;
}

/*
 * Whether a reference instance's referent is an object nothing else makes
 * reachable: VisualVM's search does not follow a referent, but its level
 * pass does, and finds no tree object there. (A referent with more referrers
 * is in a list; a GC root with this one alone is a child like any other.)
 */
static int lost_referent(const profdata_heap *h, pd_hnode i)
{
	const pd_heap_graph *g = &h->g;
	uint32_t c = pd_obj_class(g->p, g->first + i);
	if (c == UINT32_MAX || c >= g->p->classes.n || g->class_slots[c].weak < 0)
		return 0;
	pd_heap_slots s;
	pd_heap_slots_of(g, i, &s);
	pd_hnode v = s.weak < s.n ? pd_heap_slot_target(g, &s, s.weak) : PD_HEAP_NONE;
	return v != PD_HEAP_NONE && !(h->num[v] & PD_HEAP_NUMBER);
}

int pd_heap_count_reachable(profdata_heap *h)
{
	const pd_heap_graph *g = &h->g;
	uint64_t total = 0;
	int aligned = 1;
	for (pd_hnode i = 0; i < g->nodes; i++) {
		uint64_t size = pd_heap_retained_size(g, i);
		if (h->num[i]) {
			total += size;
			aligned &= (size & 7) == 0;
		} else if (i < g->n) {
			h->unreachable_count++;
			h->unreachable_bytes += size;
		}
	}
	h->reachable_bytes = total;
	return aligned;
}

static unsigned bits_of(uint64_t v)
{
	unsigned n = 1;
	while (n < 64 && (v >> n))
		n++;
	return n;
}

/*
 * Where the words go: units of 8 bytes in 32-bit words when every size is a
 * multiple of 8 and the dump's sum leaves the field two bits (up to 8 GiB),
 * else bytes in 64-bit words.
 */
static int choose_words(pd_heap_trees *t, profdata_heap *h, pd_hnode *work)
{
	pd_heap_graph *g = &h->g;
	int aligned = pd_heap_count_reachable(h) && (g->class_size & 7) == 0;
	uint64_t bound = h->reachable_bytes + (uint64_t)t->nclasses * g->class_size;
#if PD_HEAP_WIDTH == 64
	/* work's m + 1 words (at least) are 8 bytes here: they hold the retained bytes as they are, for nothing more */
	(void)aligned;
	h->unit = 1;
	t->shift = bits_of(bound);
	if (t->shift > 62) {
		free(work);
		return PROFDATA_EINVAL;
	}
	h->ret64 = (uint64_t *)work;
#else
	h->unit = aligned && bits_of(bound / 8) <= 30 ? 8 : 1;
	t->shift = bits_of(bound / h->unit);
	if (h->unit == 8) {
		/* work's memory (m + 1 pd_hnode at least) holds the m + 1 uint32_t words */
		h->ret32 = (uint32_t *)work;
	} else {
		free(work);
		if (t->shift > 62)
			return PROFDATA_EINVAL; /* sizes beyond 2^62 bytes: no dump has them */
		if (!(h->ret64 = pd_huge_malloc(((size_t)h->m + 1) * sizeof(*h->ret64))))
			return PROFDATA_ENOMEM;
	}
#endif
	unsigned field_bits = (h->ret64 ? 64 : 32) - t->shift;
	t->field_max = ((uint64_t)1 << (field_bits < 8 ? field_bits : 8)) - 1;
	return 0;
}

/* The shallow sizes, and what the reads learnt (a leaf; no tree object) as each word's field. */
static int fill_words(pd_heap_trees *t, profdata_heap *h, pd_hnode *work)
{
	int e = choose_words(t, h, work);
	if (e)
		return e;
	const pd_heap_graph *g = &h->g;
	for (pd_hnode i = 0; i < g->nodes; i++) {
		pd_hnode r = h->num[i] & PD_HEAP_NUMBER;
		if (!r)
			continue;
		uint64_t field = h->num[i] >> (PD_HEAP_WIDTH - 1) ? REFERS : LEAF; /* the flag */
		h->num[i] = r;
		if (field == REFERS && i < g->n && lost_referent(h, i))
			field = BLOCKED(t);
		set_word(h, r, pd_heap_retained_size(g, i) / h->unit | field << t->shift);
	}
	set_word(h, 0, 0);
	for (pd_hnode r = 1; r <= h->m; r++)
		if (h->idom[r] & PD_HEAP_FLAG) {
			h->idom[r] &= PD_HEAP_NUMBER;
			set_word(h, r, after_child(t, word(h, r), 0, 0));
		}
	return 0;
}

static pd_heap_side *side_of(pd_heap_trees *t, pd_hnode parent)
{
	size_t lo = 0, hi = t->nsides;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->sides[mid].parent > parent)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nsides && t->sides[lo].parent == parent ? &t->sides[lo] : NULL;
}

/*
 * The tree roots among a candidate's children must be tree objects before
 * VisualVM's level pass last takes the candidate, at its level: a root of a
 * lower level always is; one of the same level only when the pass met it
 * first, which (its leaves lying nearer the roots) it does unless both are
 * roots and the child comes later in the root table.
 */
static int roots_ready(const pd_heap_side *s, uint64_t level)
{
	if (!s || s->root_level == 0)
		return 1;
	uint64_t root = s->root_level - 1;
	return root < level || (root == level && !s->late_root);
}

typedef struct decided {
	pd_hnode up;      /* the dominator's number (0: the roots) */
	int tree;
	uint64_t level;
	uint64_t units;   /* the retained size, in units */
} decided;

/* Decide number x, its children done: a tree object or not, its level, its retained size. */
static decided decide(const pd_heap_trees *t, profdata_heap *h, pd_hnode x, const pd_heap_side *own, int is_class)
{
	uint64_t w = word(h, x), field = w >> t->shift;
	decided d;
	d.units = w & (((uint64_t)1 << t->shift) - 1);
	d.up = h->idom[x];
	d.level = field ? field - 1 : 0;
	d.tree = field == LEAF || (field > REFERS && field < BLOCKED(t) && roots_ready(own, d.level));
	if (d.tree)
		d.units += (is_class ? h->g.class_size / h->unit : 0) + (own ? own->tree_units : 0);
	else if (own)
		d.units += own->other_units;
	set_word(h, x, d.units);
	return d;
}

/* A tree root's sum goes to its one referrer's tree sum; a root that is no tree makes it none. */
static void pass_root(pd_heap_trees *t, profdata_heap *h, pd_hnode x, pd_hnode parent, const decided *d)
{
	pd_heap_side *s = side_of(t, parent);
	if (!s)
		return;
	if (!d->tree) {
		set_word(h, parent, after_child(t, word(h, parent), 0, 0));
		return;
	}
	pd_hnode child_pos, parent_pos;
	root_records(t, x, &child_pos);
	root_records(t, parent, &parent_pos);
	s->tree_units += d->units;
	if (d->level + 1 > s->root_level)
		s->root_level = (uint32_t)(d->level + 1), s->late_root = child_pos > parent_pos;
	else if (d->level + 1 == s->root_level)
		s->late_root |= child_pos > parent_pos;
}

/*
 * A class object adds to its dominator only through its side entry: its sum
 * when it is a tree object referred to (VisualVM's sums never walk up from a
 * class object), what it dominates when it is none. A connection is no
 * reference of the connecting object's tree, but a class object with one
 * referrer hands the level pass its nearest referrer, the connecting one too.
 */
static void pass_class(pd_heap_trees *t, profdata_heap *h, const pd_hnode *cls, const decided *d)
{
	pd_heap_side *s = side_of(t, d->up);
	if (!s)
		return;
	int connection = connector_of(h, (uint32_t)cls[1]) == d->up;
	if (!d->tree) {
		s->other_units += d->units;
		if (!connection)
			set_word(h, d->up, after_child(t, word(h, d->up), 0, 0));
		return;
	}
	if (!connection)
		s->tree_units += d->units;
	if (!connection || cls[2])
		set_word(h, d->up, after_child(t, word(h, d->up), 1, d->level));
}

/* Number x with a root, class object or side entry involved. */
static void settle_special(pd_heap_trees *t, profdata_heap *h, pd_hnode x, size_t *cl, size_t *rp, size_t *sd)
{
	while (*cl < t->nclasses && t->classes[*cl][0] > x)
		++*cl;
	while (*rp < t->nroot_parent && t->root_parent[*rp][0] > x)
		++*rp;
	while (*sd < t->nsides && t->sides[*sd].parent > x)
		++*sd;
	int is_class = *cl < t->nclasses && t->classes[*cl][0] == x;
	const pd_heap_side *own = *sd < t->nsides && t->sides[*sd].parent == x ? &t->sides[*sd] : NULL;
	decided d = decide(t, h, x, own, is_class);
	if (*rp < t->nroot_parent && t->root_parent[*rp][0] == x)
		pass_root(t, h, x, t->root_parent[*rp][1], &d);
	else if (is_class && d.up)
		pass_class(t, h, t->classes[*cl], &d);
	else if (d.up)
		set_word(h, d.up, after_child(t, word(h, d.up) + d.units, d.tree, d.level));
}

/* The numbers settle_special handles, falling (repeats allowed). */
static pd_hnode *special_numbers(const pd_heap_trees *t, size_t *n)
{
	*n = t->nclasses + t->nroot_parent + t->nsides;
	pd_hnode *v = malloc((*n ? *n : 1) * sizeof(*v)), k = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < t->nclasses; i++)
		v[k++] = t->classes[i][0];
	for (size_t i = 0; i < t->nroot_parent; i++)
		v[k++] = t->root_parent[i][0];
	for (size_t i = 0; i < t->nsides; i++)
		v[k++] = t->sides[i].parent;
	qsort(v, *n, sizeof(*v), first_falling);
	return v;
}

/*
 * The sweep: children (higher numbers) before parents. Most objects are
 * plain: their word goes to their dominator's, raising or blocking its field.
 */
static int sweep(pd_heap_trees *t, profdata_heap *h)
{
	size_t nspecial, sp = 0, cl = 0, rp = 0, sd = 0;
	pd_hnode *special = special_numbers(t, &nspecial);
	if (!special)
		return PROFDATA_ENOMEM;
	uint64_t mask = ((uint64_t)1 << t->shift) - 1;
	for (pd_hnode x = h->m; x >= 1; x--) {
		while (sp < nspecial && special[sp] > x)
			sp++;
		if (sp < nspecial && special[sp] == x) {
			settle_special(t, h, x, &cl, &rp, &sd);
		} else {
			uint64_t w = word(h, x), field = w >> t->shift;
			pd_hnode up = h->idom[x];
			set_word(h, x, w & mask);
			if (up) {
				int tree = field == LEAF || (field > REFERS && field < BLOCKED(t));
				set_word(h, up, after_child(t, word(h, up) + (w & mask), tree, field ? field - 1 : 0));
			}
		}
		if ((x & ((1u << 20) - 1)) == 0 && pd_heap_report(&h->g, "retained", h->m - x, h->m) != 0) {
			free(special);
			return PROFDATA_STOPPED;
		}
	}
	free(special);
	return 0;
}

int pd_heap_trees_sum(pd_heap_trees *t, profdata_heap *h, pd_hnode *work)
{
	int e = fill_words(t, h, work);
	return e ? e : sweep(t, h);
}
