/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shortest path from a GC root to an object: a breadth-first walk from
 * the virtual root over the same edges as the dominators, stopped when it
 * reaches the object, then named hop by hop (field, array index, root kind
 * or static field).
 */
#include "analysis/heap_impl.h"
#include "util/huge.h"

#include <stdlib.h>
#include <string.h>

#define FROM_ROOT (PD_HEAP_NONE - 1)

/* What the walk costs a node, for its out-of-memory message: parent[] and the queue, one pd_hnode each. */
#if PD_HEAP_WIDTH == 64
#define WALK_BYTES "16"
#else
#define WALK_BYTES "8"
#endif

/* The caller's progress callback; 0.2's path call makes any non-zero return a stop (legacy). */
typedef struct path_progress {
	profdata_progress_cb cb;
	void *payload;
	int legacy;
} path_progress;

/*
 * parent[v]: 0 unvisited, FROM_ROOT for root targets, else parent + 1.
 * 0, PROFDATA_STOPPED, or the callback's negative code.
 */
static int breadth_first(const profdata_heap *h, pd_hnode target, pd_hnode *parent, pd_hnode *queue,
                         const path_progress *progress)
{
	const pd_heap_graph *g = &h->g;
	size_t head = 0, tail = 0;
	for (size_t t = 0; t < g->nroot_targets; t++) {
		pd_hnode s = g->root_targets[t];
		if (!parent[s]) {
			parent[s] = FROM_ROOT;
			queue[tail++] = s;
		}
	}
	while (head < tail && !parent[target]) {
		pd_hnode u = queue[head++];
		pd_heap_slots s;
		pd_heap_slots_of(g, u, &s);
		for (size_t k = 0; k < s.n; k++) {
			pd_hnode v = k == s.weak ? PD_HEAP_NONE : pd_heap_slot_target(g, &s, k);
			if (v != PD_HEAP_NONE && !parent[v]) {
				parent[v] = u + 1;
				queue[tail++] = v;
			}
		}
		int rc = (head & ((1u << 20) - 1)) == 0 && progress->cb ? progress->cb(progress->payload, "path", head, g->n)
		                                                       : 0;
		if (rc != 0)
			return rc > 0 || progress->legacy ? PROFDATA_STOPPED : rc;
	}
	return 0;
}

/* The kind of the first GC root record of the dump that names local node i. */
static int root_kind(const profdata_heap *h, pd_hnode i)
{
	const profdata_profile *p = h->g.p;
	uint64_t id = i < h->g.n ? pd_obj_id(p, h->g.first + i) : p->classes.v[i - h->g.n].id;
	for (size_t r = 0; r < p->roots.n; r++)
		if (p->roots.v[r].dump == h->g.dump && p->roots.v[r].r.object_id == id &&
		    pd_heap_root_holds(p->roots.v[r].r.kind))
			return p->roots.v[r].r.kind;
	return PROFDATA_ROOT_UNKNOWN;
}

/* The name of reference slot k of an instance of class row c: the k-th reference field of its layout. */
static const char *slot_field(const profdata_profile *p, uint32_t c, size_t k)
{
	long n = pd_class_layout(p, c, NULL, 0);
	const char *name = NULL;
	profdata_field *f = n > 0 ? malloc((size_t)n * sizeof(*f)) : NULL;
	if (!f)
		return NULL;
	pd_class_layout(p, c, f, (size_t)n);
	for (long j = 0; j < n; j++)
		if (f[j].type == PROFDATA_TYPE_OBJECT && k-- == 0) {
			name = profdata_profile_string(p, f[j].name_id, NULL);
			break;
		}
	free(f);
	return name;
}

/* How local node `from` holds `to`: a field (instance or static), an array index, or an unnamed reference. */
static void name_hop(const profdata_heap *h, pd_hnode from, pd_hnode to, profdata_heap_step *st)
{
	const profdata_profile *p = h->g.p;
	pd_heap_slots s;
	pd_heap_slots_of(&h->g, from, &s);
	for (size_t k = 0; k < s.n; k++) {
		if (k == s.weak || pd_heap_slot_target(&h->g, &s, k) != to)
			continue;
		size_t m = h->g.first + from;
		if (s.class_id && k == s.n - 1) {
			st->field = "<class>"; /* VisualVM's class connection: an instance to its class object */
			return;
		}
		if (s.statics)
			st->field = profdata_profile_string(p, s.statics[k].name_id, NULL);
		if (s.list || s.statics)
			return;
		if ((pd_obj_kind(p, m) & 3) == PROFDATA_OBJECT_ARRAY)
			st->index = (long long)k;
		else
			st->field = slot_field(p, pd_obj_class(p, m), k);
		return;
	}
}

static long fill_steps(const profdata_heap *h, const pd_hnode *parent, pd_hnode target, profdata_heap_step *out,
                       size_t cap)
{
	size_t len = 1;
	for (pd_hnode v = target; parent[v] != FROM_ROOT; v = parent[v] - 1)
		len++;
	size_t at = len;
	for (pd_hnode v = target;; v = parent[v] - 1) {
		at--;
		if (at < cap) {
			profdata_heap_step *st = &out[at];
			memset(st, 0, sizeof(*st));
			st->node = pd_heap_node(h, v);
			st->index = -1;
			st->root_kind = -1;
			if (parent[v] == FROM_ROOT)
				st->root_kind = root_kind(h, v);
			else
				name_hop(h, parent[v] - 1, v, st);
		}
		if (parent[v] == FROM_ROOT)
			break;
	}
	return (long)len;
}

/* Walk from the roots until local node `target` (reachable) is met; *parent the caller's to free. */
static int walk_to(const profdata_heap *h, pd_hnode target, pd_hnode **parent, const path_progress *progress)
{
	*parent = pd_huge_calloc(h->g.nodes, sizeof(**parent));
	pd_hnode *queue = pd_huge_malloc((size_t)h->g.nodes * sizeof(*queue));
	int e = *parent && queue ? breadth_first(h, target, *parent, queue, progress) : PROFDATA_ENOMEM;
	free(queue);
	return e;
}

long profdata_heap_path(const profdata_heap *h, size_t node, profdata_heap_step *out, size_t cap,
                        profdata_progress_cb progress, void *progress_user)
{
	pd_hnode target = pd_heap_local_of(h, node);
	if (target == PD_HEAP_NONE)
		return PROFDATA_ENOTFOUND;
	if (!h->num[target])
		return 0;
	path_progress pp = { progress, progress_user, 1 };
	pd_hnode *parent;
	long e = walk_to(h, target, &parent, &pp);
	if (e == 0)
		e = parent[target] ? fill_steps(h, parent, target, out, cap) : 0;
	free(parent);
	return e;
}

struct profdata_heap_root_path {
	pd_heap_head head; /* first: the width it was made at (heap_calls.h) */
	pd_diag diag;
	profdata_heap_step *steps;
	size_t len;
};

/* Where the steps go, once the walk has found them. */
static int keep_steps(profdata_heap_root_path *path, const profdata_heap *h, const pd_hnode *parent,
                      pd_hnode target)
{
	if (!parent[target])
		return 0;
	size_t len = (size_t)fill_steps(h, parent, target, NULL, 0);
	path->steps = malloc(len * sizeof(*path->steps));
	if (!path->steps)
		return pd_diag_error(&path->diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0,
		                     "out of memory for a path of %zu steps", len);
	path->len = (size_t)fill_steps(h, parent, target, path->steps, len);
	return 0;
}

int profdata_heap_root_path_new(profdata_heap_root_path **out, const profdata_heap *h, size_t node,
                                profdata_progress_cb progress, void *payload)
{
	profdata_heap_root_path *path = *out = calloc(1, sizeof(**out));
	if (!path)
		return PROFDATA_ENOMEM;
	path->head.width = PD_HEAP_WIDTH;
	pd_diag_init(&path->diag, NULL);
	pd_hnode target = pd_heap_local_of(h, node);
	if (target == PD_HEAP_NONE)
		return pd_diag_error(&path->diag, PROFDATA_ENOTFOUND, PD_NO_OFFSET, 0, "node %zu is not in dump %u", node,
		                     h->g.dump);
	if (!h->num[target])
		return 0;
	path_progress pp = { progress, payload, 0 };
	pd_hnode *parent;
	int e = walk_to(h, target, &parent, &pp);
	if (e == PROFDATA_ENOMEM)
		pd_diag_error(&path->diag, e, PD_NO_OFFSET, 0,
		              "out of memory for the walk from the roots (" WALK_BYTES " bytes for each of %" PD_PRI_HNODE " nodes)",
		              h->g.nodes);
	else if (e != 0)
		pd_diag_error(&path->diag, e, PD_NO_OFFSET, 0, "path to node %zu stopped by the progress callback", node);
	else
		e = keep_steps(path, h, parent, target);
	free(parent);
	return e;
}

size_t profdata_heap_root_path_length(const profdata_heap_root_path *path) { return path->len; }

const profdata_heap_step *profdata_heap_root_path_step(const profdata_heap_root_path *path, size_t i)
{
	return i < path->len ? &path->steps[i] : NULL;
}

const profdata_error *profdata_heap_root_path_error(const profdata_heap_root_path *path)
{
	return pd_diag_last(&path->diag);
}

void profdata_heap_root_path_free(profdata_heap_root_path *path)
{
	if (!path)
		return;
	pd_diag_free(&path->diag);
	free(path->steps);
	free(path);
}
