/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The call tree as far as a picture shows it (stacks.h). A flame graph
 * draws the frames at least a minimum width wide and counts, without
 * drawing, the children of drawn frames that are narrower; nothing below
 * those matters. Building only that much, top down, costs a pass over the
 * stacks per drawn level instead of a node per distinct frame of every
 * stack: a profile of 60,000 stacks of random PCs has 1.2 million nodes and
 * a picture of a few dozen. The nodes it makes are exactly those of
 * pd_call_tree_build() that the picture reads (every child of a drawn
 * node, with the same totals, names, kinds and offsets), so the SVG is the
 * same byte for byte.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/stacks.h"

typedef struct visible_builder {
	const profdata_profile *p;
	pd_frame_names frames;
	pd_stack_sums sums;
	pd_call_tree *t;
	double scale, min_width;
	uint32_t empty, unknown;   /* name ids of "[empty]" and "[unknown]" */
	uint32_t *scratch;         /* nstacks: a partition's copy */
	uint32_t *group_of;        /* nstacks: the child group of each stack of the range being split */
	pd_map group_of_key;       /* (node << 32 | name id) -> child group + 1 while the node is split */
	uint32_t *first_of_node;   /* node -> the first stack through it (its place in sums.order) */
	size_t first_cap;
	struct split_node *splits; /* the nodes given children, with where those are */
	size_t nsplits, splits_cap;
} visible_builder;

/*
 * pd_call_tree_build() makes a node when the first stack, in order of
 * first sample, reaches it, root first: its nodes are numbered by (first
 * stack, depth), and its order lists them by parent, then by name. The
 * children of one parent are made together here, so listing the parents
 * by (first stack, depth) gives the same order.
 */
typedef struct split_node {
	uint32_t first, depth;     /* the parent's first stack and depth */
	uint32_t child0, nchildren;
} split_node;

/* One child of the node being split: its name, kind and total, then its node and stacks. */
typedef struct child_group {
	uint32_t first;            /* its first stack's place in sums.order */
	uint32_t name;
	uint8_t kind;
	int64_t total;
	size_t nstacks, at;        /* its stacks, at [at, at + nstacks) of the range once partitioned */
	uint32_t node;
	uint32_t unsorted;         /* its index before sorting by name */
	const char *s;             /* its name, while sorting */
	size_t len;
} child_group;

/* The name id and kind of stack si's frame at `depth` from the root: 0, or 1 when the chain ends above it. */
static int frame_at(visible_builder *vb, uint32_t si, uint32_t depth, uint32_t *name, uint8_t *kind)
{
	profdata_stack st;
	size_t fi, len;
	profdata_profile_stack(vb->p, si, &st);
	*kind = PD_FRAME_UNKNOWN;
	if (st.nframes == 0) {
		*name = vb->empty;
		return depth > 0;
	}
	if (depth >= st.nframes)
		return 1;
	if (profdata_profile_find_frame(vb->p, st.frame_ids[st.nframes - 1 - depth], &fi) != 0) {
		*name = vb->unknown;
		return 0;
	}
	const char *s = pd_frame_name(&vb->frames, fi, &len);
	*kind = vb->frames.kind[fi];
	return pd_intern_put(&vb->t->names, s, len, name) < 0 ? PROFDATA_ENOMEM : 0;
}

static int compare_groups(const void *a, const void *b)
{
	const child_group *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int drawn(const visible_builder *vb, int64_t total)
{
	return total > 0 && (double)total * vb->scale >= vb->min_width;
}

/* Group the stacks of [stacks, +n) by their frame at `depth` (below `node`): *groups, *ngroups. */
static int group_stacks(visible_builder *vb, uint32_t node, const uint32_t *stacks, size_t n, uint32_t depth,
                        child_group **groups, size_t *ngroups)
{
	size_t cap = 0;
	*groups = NULL;
	*ngroups = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t name;
		uint8_t kind;
		uint32_t si = vb->sums.order[stacks[i]];
		int64_t value = vb->sums.value[si];
		int rc = frame_at(vb, si, depth, &name, &kind);
		if (rc < 0)
			return rc;
		vb->group_of[i] = UINT32_MAX;
		if (rc == 1) {
			vb->t->nodes[node].self = pd_wrapping_add(vb->t->nodes[node].self, value);
			continue;
		}
		uint64_t key = (uint64_t)node << 32 | name;
		uint32_t g = pd_map_get(&vb->group_of_key, key);
		if (!g) {
			if (pd_grow((void **)groups, &cap, *ngroups + 1, sizeof **groups) ||
			    pd_map_put(&vb->group_of_key, key, (uint32_t)*ngroups + 1))
				return PROFDATA_ENOMEM;
			child_group *c = &(*groups)[*ngroups];
			memset(c, 0, sizeof *c);
			c->first = stacks[i];
			c->name = name;
			c->kind = kind;
			c->unsorted = (uint32_t)*ngroups;
			g = (uint32_t)++*ngroups;
		}
		(*groups)[g - 1].total = pd_wrapping_add((*groups)[g - 1].total, value);
		(*groups)[g - 1].nstacks++;
		vb->group_of[i] = g - 1;
	}
	return 0;
}

/* The groups as nodes below `node`, in name order, each placed after the ones before (x). */
static int make_children(visible_builder *vb, uint32_t node, child_group *g, size_t ng, uint32_t *rank)
{
	pd_call_tree *t = vb->t;
	for (size_t k = 0; k < ng; k++)
		g[k].s = pd_intern_str(&t->names, g[k].name, &g[k].len);
	if (ng > 1) /* (qsort's array may not be NULL, even empty) */
		qsort(g, ng, sizeof *g, compare_groups);
	if (t->n + ng >= UINT32_MAX || pd_grow((void **)&t->nodes, &t->cap, t->n + ng, sizeof *t->nodes) ||
	    pd_grow((void **)&vb->first_of_node, &vb->first_cap, t->n + ng, sizeof *vb->first_of_node) ||
	    pd_grow((void **)&vb->splits, &vb->splits_cap, vb->nsplits + 1, sizeof *vb->splits))
		return PROFDATA_ENOMEM;
	split_node sn = { vb->first_of_node[node], t->nodes[node].depth, (uint32_t)t->n, (uint32_t)ng };
	vb->splits[vb->nsplits++] = sn;
	int64_t cursor = t->nodes[node].x;
	size_t at = 0;
	for (size_t k = 0; k < ng; k++) {
		pd_call_node *c = &t->nodes[t->n];
		memset(c, 0, sizeof *c);
		c->parent = node;
		c->name = g[k].name;
		c->kind = g[k].kind;
		c->depth = t->nodes[node].depth + 1;
		c->total = g[k].total;
		c->x = cursor;
		if (c->total > 0)
			cursor = pd_wrapping_add(cursor, c->total);
		if (c->depth > t->max_depth)
			t->max_depth = c->depth;
		vb->first_of_node[t->n] = g[k].first;
		g[k].node = (uint32_t)t->n++;
		g[k].at = at;
		at += g[k].nstacks;
		rank[g[k].unsorted] = (uint32_t)k;
	}
	return 0;
}

/*
 * Split the stacks of `node` (their places in sums.order at [stacks, +n),
 * `depth` frames below the root) into its children, recursively where drawn.
 */
static int split(visible_builder *vb, uint32_t node, uint32_t *stacks, size_t n, uint32_t depth)
{
	child_group *g;
	size_t ng;
	int rc = group_stacks(vb, node, stacks, n, depth, &g, &ng);
	uint32_t *rank = rc == 0 ? malloc((ng + 1) * sizeof *rank) : NULL;
	if (rc == 0 && (!rank || make_children(vb, node, g, ng, rank)))
		rc = PROFDATA_ENOMEM;
	if (rc == 0) {
		/* stable: each child's stacks keep the order of first sample, which decides its kind below */
		size_t *fill = calloc(ng + 1, sizeof *fill), kept = 0;
		if (!fill)
			rc = PROFDATA_ENOMEM;
		for (size_t i = 0; i < n && fill; i++)
			if (vb->group_of[i] != UINT32_MAX) {
				const child_group *c = &g[rank[vb->group_of[i]]];
				vb->scratch[c->at + fill[rank[vb->group_of[i]]]++] = stacks[i];
				kept++;
			}
		if (fill)
			memcpy(stacks, vb->scratch, kept * sizeof *stacks);
		free(fill);
	}
	for (size_t k = 0; k < ng && rc == 0; k++)
		if (drawn(vb, g[k].total))
			rc = split(vb, g[k].node, stacks + g[k].at, g[k].nstacks, depth + 1);
	free(rank);
	free(g);
	return rc;
}

static int compare_splits(const void *a, const void *b)
{
	const split_node *x = a, *y = b;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->depth > y->depth) - (x->depth < y->depth);
}

/* Nodes by parent, in the order pd_call_tree_build() numbers parents (see split_node), siblings by name. */
static int order_nodes(visible_builder *vb)
{
	pd_call_tree *t = vb->t;
	size_t k = 1;
	t->order = malloc(t->n * sizeof *t->order);
	if (!t->order)
		return PROFDATA_ENOMEM;
	t->order[0] = 0;
	if (vb->nsplits)
		qsort(vb->splits, vb->nsplits, sizeof *vb->splits, compare_splits);
	for (size_t i = 0; i < vb->nsplits; i++)
		for (uint32_t c = 0; c < vb->splits[i].nchildren; c++)
			t->order[k++] = vb->splits[i].child0 + c;
	return 0;
}

/* The root and the stacks below it: those whose sum is not 0, in order of first sample. */
static int start_tree(visible_builder *vb, double px_width, uint32_t **stacks, size_t *n)
{
	pd_call_tree *t = vb->t;
	if (pd_grow((void **)&t->nodes, &t->cap, 1, sizeof *t->nodes) ||
	    pd_grow((void **)&vb->first_of_node, &vb->first_cap, 1, sizeof *vb->first_of_node) ||
	    pd_intern_put(&t->names, "[empty]", 7, &vb->empty) < 0 || pd_intern_put(&t->names, "[unknown]", 9, &vb->unknown) < 0)
		return PROFDATA_ENOMEM;
	memset(&t->nodes[0], 0, sizeof t->nodes[0]);
	t->nodes[0].name = PD_CALL_ROOT;
	vb->first_of_node[0] = 0;
	t->n = 1;
	size_t m = vb->sums.nordered;
	*stacks = malloc((m + 1) * sizeof **stacks);
	vb->scratch = malloc((m + 1) * sizeof *vb->scratch);
	vb->group_of = malloc((m + 1) * sizeof *vb->group_of);
	if (!*stacks || !vb->scratch || !vb->group_of)
		return PROFDATA_ENOMEM;
	*n = 0;
	for (size_t k = 0; k < m; k++) {
		uint32_t si = vb->sums.order[k];
		if (vb->sums.value[si] == 0) {
			t->nstacks_skipped++;
			continue;
		}
		(*stacks)[(*n)++] = (uint32_t)k;
		t->nodes[0].total = pd_wrapping_add(t->nodes[0].total, vb->sums.value[si]);
	}
	vb->scale = t->nodes[0].total > 0 ? px_width / (double)t->nodes[0].total : 0;
	return 0;
}

int pd_call_tree_build_visible(const profdata_profile *p, size_t value_index, double px_width, double min_width,
                                pd_call_tree *t, pd_diag *diag, const char *format)
{
	visible_builder vb;
	uint32_t *stacks = NULL;
	size_t n = 0;
	memset(t, 0, sizeof *t);
	memset(&vb, 0, sizeof vb);
	vb.p = p;
	vb.t = t;
	vb.min_width = min_width;
	int rc = pd_stack_sums_compute(p, value_index, &vb.sums, diag, format);
	if (rc == 0) {
		if (pd_frame_names_render(p, &vb.frames) || start_tree(&vb, px_width, &stacks, &n) ||
		    (drawn(&vb, t->nodes[0].total) && split(&vb, 0, stacks, n, 0)) || order_nodes(&vb))
			rc = pd_diag_error(diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "%s: out of memory", format);
	}
	pd_frame_names_free(&vb.frames);
	pd_stack_sums_free(&vb.sums);
	pd_map_free(&vb.group_of_key);
	PD_FREE_ALL(stacks, vb.scratch, vb.group_of, vb.first_of_node, vb.splits);
	return rc;
}
