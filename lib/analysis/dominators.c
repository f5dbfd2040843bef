/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dominator tree (doc/heap-analysis.md); the retained sizes are summed
 * over it in trees.c.
 *
 * Budget: 12 bytes per object beyond the model at width 32 (24 at 64), in
 * three pd_hnode arrays:
 * `num` (object -> reverse-postorder number), `idom` (number -> number of
 * its immediate dominator) and a third that is first the depth-first walk's
 * stack of slot positions (the walk keeps its stack of nodes in `idom`),
 * then the predecessor lists of the shared objects, then the retained sizes.
 *
 * Most objects of a heap have one referrer: their dominator is that
 * referrer, known as soon as the reference is read. Only the shared ones
 * (more than one reference, or a root and a reference) need Cooper, Harvey
 * and Kennedy's iteration, which runs over their predecessor lists alone,
 * however many passes it takes. The payloads are read twice in all (the
 * walk, then one read that gathers the lists) when the lists fit the
 * third array three times over, three times otherwise (a count, a fill).
 */
#include "analysis/connections.h"
#include "analysis/heap_refs.h"
#include "analysis/trees.h"
#include "util/huge.h"

#include <stdlib.h>
#include <string.h>

/*
 * The top bit (heap_impl.h): in num[i] during the walk it marks a node met
 * before (a node met again is shared), in idom[r] until the lists are read
 * (trees.h) a shared node, in a predecessor list the list's last entry.
 */
#define SHARED PD_HEAP_SHARED
#define MET SHARED
#define LAST PD_HEAP_FLAG
#define NUMBER PD_HEAP_NUMBER
#define UNSET NUMBER     /* an estimate not yet made */
#define VISITING NUMBER  /* num of a node on the walk's stack */
enum { PROGRESS_STEP = 1 << 20, SLOTS_KEPT = 64 };

/* What the walk learns for the predecessor lists. */
typedef struct graph_counts {
	uint64_t refs;      /* references into reachable nodes, GC roots and unreachable referrers included;
	                       may count references that only weak slots make to unreachable nodes */
	uint64_t singles;   /* reachable nodes with exactly one */
} graph_counts;

/*
 * A node of the walk's stack, as last entered: its slots, and the targets
 * of up to WALK_AHEAD of them from `from` on, resolved together when the
 * walk reaches the first (heap_refs.h: one resolution at a time waits for
 * each of its misses) with their numbers prefetched.
 */
enum { WALK_AHEAD = 16 };
typedef struct walk_frame {
	pd_hnode node;
	pd_heap_slots s;
	size_t from, count;
	pd_hnode to[WALK_AHEAD];
} walk_frame;

/*
 * The target of slot k of frame f's node. Where the ids ascend with the
 * file (in_order: a JDK's dump, ids are addresses written in address order)
 * a reference mostly lands near its referrer and its lookup hits the cache:
 * resolving ahead then only adds work, and the slot is looked up alone (the
 * 37M-object jcmd dump's graph phase took 3.4-3.7 s ahead by 16 or 4,
 * 2.3-3.4 s one at a time; the 7M-object dump with shuffled ids 2.2-2.3 s
 * ahead, 3.4-3.5 s one at a time).
 */
static pd_hnode frame_target(const pd_heap_graph *g, const pd_hnode *num, walk_frame *f, size_t k, int in_order)
{
	if (in_order)
		return pd_heap_slot_target(g, &f->s, k);
	if (k - f->from < f->count)
		return f->to[k - f->from];
	uint64_t id[WALK_AHEAD];
	size_t row[WALK_AHEAD];
	f->from = k;
	f->count = f->s.n - k < WALK_AHEAD ? f->s.n - k : WALK_AHEAD;
	for (size_t j = 0; j < f->count; j++) {
		int to_class = f->s.class_id && k + j == f->s.n - 1;
		id[j] = to_class ? 0 : pd_heap_slot_id(&f->s, k + j);
		f->to[j] = to_class ? f->s.class_node : PD_HEAP_NONE;
	}
	pd_heap_resolve_batch(g, id, row, f->to, f->count);
	for (size_t j = 0; j < f->count; j++)
		if (f->to[j] != PD_HEAP_NONE)
			PD_PREFETCH(num + f->to[j]);
	return f->to[0];
}

/*
 * Depth-first walk from one root target; postorder numbers from *post + 1
 * land in num. Every reference is read once here: a node met a second time
 * is marked shared. A weak slot (Reference.referent of a soft, weak or
 * final reference) is met but not followed: for VisualVM it makes nothing
 * reachable, yet its referrer counts in the dominators (the referent of a
 * JDK 8 Finalizer keeps a JarFile from being dominated by its loader).
 */
static int walk_from(profdata_heap *h, pd_hnode *slot_stack, pd_hnode start, pd_hnode *post, graph_counts *c)
{
	const pd_heap_graph *g = &h->g;
	pd_hnode depth = 1, *num = h->num, *stack = h->idom;
	int in_order = pd_id_index_in_row_order(&g->p->obj_index);
	num[start] = (num[start] & MET) | VISITING;
	stack[0] = start;
	slot_stack[0] = 0;
	/* The nodes last entered, by depth: a node resumed after its child mostly finds its own. */
	walk_frame kept[SLOTS_KEPT];
	for (size_t d = 0; d < SLOTS_KEPT; d++)
		kept[d].node = PD_HEAP_NONE;
	while (depth) {
		/* k: a slot position (an object's slots fit 32 bits), kept in the pd_hnode array */
		pd_hnode u = stack[depth - 1];
		uint32_t k = (uint32_t)slot_stack[depth - 1];
		pd_hnode v = PD_HEAP_NONE;
		walk_frame *f = &kept[(depth - 1) % SLOTS_KEPT];
		if (f->node != u) {
			pd_heap_slots_of(g, u, &f->s);
			f->node = u;
			f->from = f->count = 0;
		}
		while (k < f->s.n && v == PD_HEAP_NONE) {
			size_t at = k++;
			v = frame_target(g, num, f, at, in_order);
			if (v == PD_HEAP_NONE)
				continue;
			c->refs++;
			/* a reference to itself makes no tree (trees.c), whose lists must show it: shared */
			if (v == u || (num[v] & NUMBER) || at == f->s.weak) {
				num[v] |= MET;
				v = PD_HEAP_NONE;
			}
		}
		if (v != PD_HEAP_NONE) {
			slot_stack[depth - 1] = k;
			num[v] = (num[v] & MET) | VISITING;
			stack[depth] = v;
			slot_stack[depth] = 0;
			depth++;
			continue;
		}
		num[u] = (num[u] & MET) | ++*post;
		depth--;
		if ((*post & (PROGRESS_STEP - 1)) == 0 && pd_heap_report(g, "graph", *post, g->n) != 0)
			return PROFDATA_STOPPED;
	}
	return 0;
}

/*
 * The GC roots and the objects no root reaches refer to nodes too (the
 * virtual root stands for both: VisualVM counts the references of
 * unreachable objects, so what they point at is dominated by the roots
 * alone): those nodes are shared.
 */
static void note_root_refs(profdata_heap *h, graph_counts *c)
{
	const pd_heap_graph *g = &h->g;
	pd_hnode *num = h->num;
	for (size_t t = 0; t < g->nroot_targets; t++)
		num[g->root_targets[t]] |= SHARED;
	c->refs += g->nroot_targets;
	for (pd_hnode i = 0; i < g->nodes; i++) {
		if (num[i] & NUMBER)
			continue;
		pd_heap_slots s;
		pd_heap_slots_of(g, i, &s);
		for (size_t k = 0; k < s.n; k++) {
			pd_hnode v = pd_heap_slot_target(g, &s, k);
			if (v != PD_HEAP_NONE && v != i && (num[v] & NUMBER))
				num[v] |= SHARED, c->refs++;
		}
	}
}

/*
 * Number the reachable nodes in reverse postorder (num[i] in 1..m, 0 for
 * the unreachable) and start idom: UNSET for a node with one referrer,
 * SHARED for the others (their count of references goes there next).
 */
static int number_nodes(profdata_heap *h, pd_hnode *slot_stack, graph_counts *c)
{
	pd_hnode post = 0, *num = h->num;
	for (size_t t = 0; t < h->g.nroot_targets; t++) {
		pd_hnode s = h->g.root_targets[t];
		if (!(num[s] & NUMBER)) {
			int e = walk_from(h, slot_stack, s, &post, c);
			if (e)
				return e;
		}
	}
	h->m = post;
	if (!h->graph_only)
		note_root_refs(h, c); /* for the dominators alone: it reads every unreachable object */
	for (pd_hnode i = 0; i < h->g.nodes; i++) {
		if (!(num[i] & NUMBER)) {
			num[i] = 0; /* met only through weak slots */
			continue;
		}
		pd_hnode r = post - ((num[i] & NUMBER) - 1);
		h->idom[r] = num[i] & SHARED ? SHARED : UNSET;
		c->singles += !(num[i] & SHARED);
		num[i] = r;
	}
	h->idom[0] = 0;
	return 0;
}

/*
 * How the predecessor lists are made: counted, then filled (two more reads
 * of every reference); or, when three words per reference to a shared node
 * and the lists fit the buffer, gathered as (node, referrer) pairs in one
 * read, then scattered.
 */
enum pred_step { COUNT_PREDS, FILL_PREDS, PAIR_PREDS };

/* Where the lists are being made: the third array, its size in words, the pairs gathered so far. */
typedef struct pred_buf {
	pd_hnode *v;
	size_t cap, npairs;
} pred_buf;

/*
 * One reference into node number rv from number src (0: the virtual root).
 * A node with one referrer gets it as its dominator. A shared node's
 * idom[rv] is SHARED and its count (counting, pairing) or its list's next
 * position (filling).
 */
static inline void note_pred(pd_hnode *idom, pred_buf *b, pd_hnode src, pd_hnode rv, enum pred_step step)
{
	pd_hnode x = idom[rv];
	if (!(x & SHARED)) {
		if (step != FILL_PREDS)
			idom[rv] = src;
		return;
	}
	if (step == FILL_PREDS) {
		b->v[x & NUMBER] = src;
	} else if (step == PAIR_PREDS) {
		/* The walk counted the pairs: the check only keeps a miscount from writing past the end. */
		if (2 * b->npairs + 2 <= b->cap) {
			b->v[2 * b->npairs] = rv;
			b->v[2 * b->npairs + 1] = src;
		}
		b->npairs++;
	}
	idom[rv] = x + 1;
}

/*
 * One batch of references: its targets' numbers and then their idom words
 * prefetched (each is a miss at a random place), then noted in order.
 */
static void note_batch(profdata_heap *h, pred_buf *b, const pd_heap_refs *r, pd_hnode *rv, enum pred_step step)
{
	pd_hnode *num = h->num;
	for (size_t k = 0; k < r->n; k++)
		if (r->to[k] != PD_HEAP_NONE)
			PD_PREFETCH(num + r->to[k]);
	for (size_t k = 0; k < r->n; k++) {
		rv[k] = r->to[k] == PD_HEAP_NONE ? 0 : num[r->to[k]] & NUMBER;
		if (rv[k])
			PD_PREFETCH(h->idom + rv[k]);
	}
	for (size_t k = 0; k < r->n; k++) {
		if (r->to[k] == PD_HEAP_NONE)
			continue;
		pd_hnode from = num[r->from[k]] & NUMBER;
		/* a referrer of something by other than its weak slot is no leaf of VisualVM's search (trees.h) */
		if (from && !(r->kind[k] & PD_HEAP_REF_WEAK))
			num[r->from[k]] |= PD_HEAP_FLAG;
		if (rv[k])
			note_pred(h->idom, b, from, rv[k], step);
	}
}

/* Every reference into a reachable node, in object order (the payloads are read front to back). */
static int scan_preds(profdata_heap *h, pred_buf *b, enum pred_step step)
{
	const pd_heap_graph *g = &h->g;
	pd_hnode *num = h->num;
	for (size_t t = 0; t < g->nroot_targets; t++)
		note_pred(h->idom, b, 0, num[g->root_targets[t]] & NUMBER, step);
	pd_heap_refs r;
	pd_hnode rv[PD_HEAP_BATCH], reported = 0;
	pd_heap_refs_start(&r, 0, g->nodes);
	do {
		pd_heap_refs_next(g, &r);
		note_batch(h, b, &r, rv, step);
		if (r.node / PROGRESS_STEP != reported / PROGRESS_STEP) {
			reported = r.node;
			if (pd_heap_report(g, "dominators", (uint64_t)g->nodes * (step == FILL_PREDS) + reported,
			                   (uint64_t)g->nodes * (step == PAIR_PREDS ? 1 : 2)) != 0)
				return PROFDATA_STOPPED;
		}
	} while (r.n);
	return 0;
}

/* From the counts, each shared node's list start (lists in number order) in idom[r]: SHARED | start. */
static void lay_out_preds(profdata_heap *h)
{
	pd_hnode end = 0;
	for (pd_hnode r = 1; r <= h->m; r++) {
		pd_hnode x = h->idom[r];
		if (x & SHARED) {
			h->idom[r] = SHARED | end;
			end += x & NUMBER;
		}
	}
}

/*
 * Scatter the pairs' referrers to their nodes' lists, built after the pairs
 * (buf[2 * npairs ..]), then moved to the front: the state a fill leaves.
 */
static void scatter_pairs(profdata_heap *h, pd_hnode *buf, size_t npairs)
{
	pd_hnode *lists = buf + 2 * npairs;
	for (size_t k = 0; k < npairs; k++)
		lists[h->idom[buf[2 * k]]++ & NUMBER] = buf[2 * k + 1];
	memmove(buf, lists, npairs * sizeof(*buf));
}

/*
 * After the fill each shared node's position is its list's end: mark the
 * end, and the estimate unset. A list left empty (the walk and the reads
 * disagreeing: not on an unchanged model) leaves its node to the roots
 * rather than its meet reading the next list.
 */
static void close_lists(profdata_heap *h, pd_hnode *preds)
{
	pd_hnode start = 0;
	for (pd_hnode r = 1; r <= h->m; r++) {
		pd_hnode x = h->idom[r], end = x & NUMBER;
		if (!(x & SHARED))
			continue;
		if (end == start) {
			h->idom[r] = 0;
			continue;
		}
		preds[end - 1] |= LAST;
		h->idom[r] = SHARED | UNSET;
		start = end;
	}
}

static inline pd_hnode intersect(const pd_hnode *idom, pd_hnode a, pd_hnode b)
{
	while (a != b) {
		while (a > b)
			a = idom[a] & NUMBER;
		while (b > a)
			b = idom[b] & NUMBER;
	}
	return a;
}

/*
 * The meet of node r's predecessors (list at *at, moved past it). The first
 * pass skips those numbered after r (back edges: their estimates are not
 * made yet); every estimate it walks through is, as numbers only fall
 * along the way.
 */
static pd_hnode meet(const pd_hnode *idom, const pd_hnode *preds, size_t *at, pd_hnode r, int first_pass)
{
	pd_hnode best = UNSET, p;
	do {
		p = preds[(*at)++];
		pd_hnode q = p & NUMBER;
		if (best == 0 || q == r || (first_pass && q > r))
			continue;
		best = best == UNSET ? q : intersect(idom, best, q);
	} while (!(p & LAST));
	return best;
}

/* Cooper, Harvey and Kennedy's iteration over the shared nodes, in reverse postorder, until nothing moves. */
static int settle_shared(profdata_heap *h, const pd_hnode *preds)
{
	pd_hnode *idom = h->idom;
	int changed = 1;
	for (int pass = 0; changed; pass++) {
		size_t at = 0;
		changed = 0;
		for (pd_hnode r = 1; r <= h->m; r++) {
			if (!(idom[r] & SHARED))
				continue;
			pd_hnode best = meet(idom, preds, &at, r, pass == 0);
			if (best != (idom[r] & NUMBER))
				idom[r] = SHARED | best, changed = 1;
		}
		if (pd_heap_report(&h->g, "dominators", (uint64_t)h->g.nodes * 2, (uint64_t)h->g.nodes * 2) != 0)
			return PROFDATA_STOPPED;
	}
	return 0; /* the shared flags stay for the lists' reading (trees.h) */
}

/*
 * The dominators: predecessor lists of the shared nodes in *work (the walk's
 * old stack, `cap` words; grown only when the references to shared nodes
 * outnumber the nodes, doc/heap-analysis.md), then the iteration.
 */
static int find_dominators(profdata_heap *h, pd_hnode **work, size_t cap, const graph_counts *c,
                           pd_heap_trees *trees)
{
	uint64_t listed = c->refs - c->singles;
	if (listed > NUMBER)
		return PROFDATA_ENOMEM;
	pred_buf b = { *work, cap, 0 };
	int e;
	if (3 * listed <= cap) {
		e = scan_preds(h, &b, PAIR_PREDS);
		if (e == 0 && b.npairs > listed)
			e = PROFDATA_EINVAL; /* the walk and the read disagree: cannot happen on an unchanged model */
		if (e == 0) {
			lay_out_preds(h);
			scatter_pairs(h, b.v, b.npairs);
		}
	} else {
		if (listed > cap) {
#if PD_HEAP_WIDTH == 64
			/* listed is only kept below the flag, 2^63: its bytes could pass size_t */
			if (listed > SIZE_MAX / sizeof(**work))
				return PROFDATA_ENOMEM;
#endif
			pd_hnode *grown = realloc(*work, (size_t)listed * sizeof(**work));
			if (!grown)
				return PROFDATA_ENOMEM;
			*work = b.v = grown;
		}
		e = scan_preds(h, &b, COUNT_PREDS);
		if (e == 0) {
			lay_out_preds(h);
			e = scan_preds(h, &b, FILL_PREDS);
		}
	}
	if (e != 0)
		return e;
	close_lists(h, b.v);
	e = settle_shared(h, b.v);
	return e ? e : pd_heap_trees_note_lists(trees, h, b.v);
}

int pd_heap_analyze(profdata_heap *h)
{
	size_t n = h->g.nodes;
	/* one more than the nodes: the class sums borrow the array for a table over numbers 0 .. m (retained.c) */
	h->num = pd_huge_calloc(n + 1, sizeof(*h->num));
	h->idom = pd_huge_malloc((n + 1) * sizeof(*h->idom));
	/* At width 64 too trees.c reuses it as h->ret32: m + 1 uint32_t fit its n + 1 pd_hnode (and malloc's alignment) */
	pd_hnode *work = pd_huge_malloc((n + 1) * sizeof(*work));
	if (!h->num || !h->idom || !work) {
		free(work);
		return PROFDATA_ENOMEM;
	}
	graph_counts c = { 0, 0 };
	pd_heap_trees trees;
	memset(&trees, 0, sizeof(trees));
	int e = number_nodes(h, work, &c);
	if (e == 0)
		e = pd_heap_connect_classes(h, work, &c.refs, &c.singles);
	if (e == 0 && h->graph_only) {
		/* Reachability is all a path needs: the walk's stack and the counts of references go. */
		pd_heap_count_reachable(h);
		free(work);
		free(h->idom);
		h->idom = NULL;
		return 0;
	}
	if (e == 0)
		e = pd_heap_trees_init(&trees, h);
	if (e == 0)
		e = find_dominators(h, &work, n + 1, &c, &trees);
	if (e == 0)
		e = pd_heap_report(&h->g, "retained", 0, h->m);
	if (e == 0) {
		e = pd_heap_trees_sum(&trees, h, work);
		work = NULL; /* h->ret32 now, or freed */
	}
	pd_heap_trees_free(&trees);
	free(work);
	return e;
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
static pd_hnode rpo_of(const profdata_heap *h, size_t node)
{
	pd_hnode i = pd_heap_local_of(h, node);
	return i == PD_HEAP_NONE ? 0 : h->num[i];
}

int profdata_heap_reachable(const profdata_heap *h, size_t node) { return rpo_of(h, node) != 0; }

uint64_t profdata_heap_retained(const profdata_heap *h, size_t node)
{
	pd_hnode r = h->graph_only ? 0 : rpo_of(h, node);
	return r ? pd_heap_ret(h, r) : 0;
}

uint64_t profdata_heap_size(const profdata_heap *h, size_t node)
{
	pd_hnode i = pd_heap_local_of(h, node);
	return i == PD_HEAP_NONE ? 0 : pd_heap_size(&h->g, i);
}

int profdata_heap_dominator_of(size_t *out, const profdata_heap *h, size_t node)
{
	if (h->graph_only)
		return PROFDATA_EINVAL; /* the message is the heap's from the start (heap.c) */
	pd_hnode r = rpo_of(h, node);
	if (!r)
		return PROFDATA_ENOTFOUND;
	pd_hnode d = h->idom[r];
	if (d == 0) {
		*out = PROFDATA_HEAP_ROOTS;
		return 0;
	}
	/* Numbers map back to nodes by a scan: rare calls do not justify keeping `order` (a pd_hnode per object). */
	for (pd_hnode k = 0; k < h->g.nodes; k++)
		if (h->num[k] == d) {
			*out = pd_heap_node(h, k);
			return 0;
		}
	return PROFDATA_ENOTFOUND;
}

int profdata_heap_dominator(const profdata_heap *h, size_t node, size_t *dominator)
{
	size_t d;
	int e = profdata_heap_dominator_of(&d, h, node);
	if (e == 0 && d == PROFDATA_HEAP_ROOTS)
		return 1;
	if (e == 0)
		*dominator = d;
	return e;
}
