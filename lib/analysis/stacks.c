/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Frame names, per-stack sums and the call tree (stacks.h): what folded
 * stacks and the pictures drawn from samples share.
 */
#include "analysis/stacks.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/samples.h"
#include "util/numtext.h"

/* Replace the characters that would break a folded line in b from `start` on. */
static void clean_from(pd_strbuf *b, size_t start)
{
	for (size_t i = start; i < b->n; i++)
		if (b->p[i] == ';' || b->p[i] == '\n' || b->p[i] == '\r')
			b->p[i] = '_';
}

static int function_name(const profdata_profile *p, uint64_t function_id, pd_strbuf *b, int *has_class)
{
	profdata_function fn;
	size_t fi, len = 0;
	const char *name = NULL;
	if (function_id && profdata_profile_find_function(p, function_id, &fi) == 0 &&
	    profdata_profile_function(p, fi, &fn) == 0)
		name = pd_profile_text(p, fn.name_id, &len);
	if (!name || !len)
		return 0;
	size_t start = b->n;
	if (pd_class_prefix(b, p, fn.class_serial, 1))
		return PROFDATA_ENOMEM;
	*has_class = b->n > start;
	if (pd_strbuf_add(b, name, len))
		return PROFDATA_ENOMEM;
	clean_from(b, start);
	return 1;
}

int pd_function_name(const profdata_profile *p, uint64_t function_id, pd_strbuf *b)
{
	int has_class = 0;
	return function_name(p, function_id, b, &has_class);
}

/* "0x" and the address in lower-case hex, as pprof names a frame without a function; 0 or PROFDATA_ENOMEM. */
static int add_address(pd_strbuf *names, uint64_t address)
{
	unsigned char num[18] = { '0', 'x' };
	size_t n = pd_put_hex(num + 2, address, 1);
	/* numtext writes upper case: the 0x20 bit lowers A-F and leaves the digits as they are */
	for (size_t i = 2; i < 2 + n; i++)
		num[i] |= 0x20;
	return pd_strbuf_add(names, (const char *)num, 2 + n);
}

static int render_frame_name(const profdata_profile *p, const profdata_frame *fr, pd_strbuf *names,
                             unsigned char *kind)
{
	int has_class = 0;
	int rc = function_name(p, fr->function_id, names, &has_class);
	if (rc < 0)
		return rc;
	if (rc == 1) {
		int jvm = has_class || (fr->line != PROFDATA_LINE_NONE && !fr->has_address);
		*kind = (unsigned char)(jvm ? PD_FRAME_JVM : fr->has_address && pd_kernel_address(fr->address)
		                                                 ? PD_FRAME_KERNEL : PD_FRAME_NATIVE);
		return 0;
	}
	if (fr->has_address) {
		*kind = (unsigned char)(pd_kernel_address(fr->address) ? PD_FRAME_KERNEL : PD_FRAME_NATIVE);
		return add_address(names, fr->address);
	}
	*kind = PD_FRAME_UNKNOWN;
	return pd_strbuf_add(names, "[unknown]", 9);
}

int pd_frame_names_render(const profdata_profile *p, pd_frame_names *names)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_FRAMES);
	memset(names, 0, sizeof *names);
	names->nframes = n;
	names->off = malloc((n + 1) * sizeof *names->off);
	names->kind = malloc(n + 1);
	if (!names->off || !names->kind)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		profdata_frame fr;
		names->off[i] = names->text.n;
		profdata_profile_frame(p, i, &fr);
		if (render_frame_name(p, &fr, &names->text, &names->kind[i]))
			return PROFDATA_ENOMEM;
	}
	names->off[n] = names->text.n;
	return 0;
}

void pd_frame_names_free(pd_frame_names *names)
{
	free(names->text.p);
	free(names->off);
	free(names->kind);
	memset(names, 0, sizeof *names);
}

int pd_frame_name_ids_init(pd_frame_name_ids *ids, const pd_frame_names *frames, pd_intern *names)
{
	int rc = 0;
	memset(ids, 0, sizeof *ids);
	ids->of_frame = malloc((frames->nframes + 1) * sizeof *ids->of_frame);
	if (!ids->of_frame)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < frames->nframes && rc >= 0; i++) {
		size_t len;
		const char *s = pd_frame_name(frames, i, &len);
		rc = pd_intern_put(names, s, len, &ids->of_frame[i]);
	}
	if (rc >= 0)
		rc = pd_intern_put(names, "[empty]", 7, &ids->empty);
	if (rc >= 0)
		rc = pd_intern_put(names, "[unknown]", 9, &ids->unknown);
	return rc < 0 ? PROFDATA_ENOMEM : 0;
}

void pd_frame_name_ids_free(pd_frame_name_ids *ids)
{
	free(ids->of_frame);
	ids->of_frame = NULL;
}

int pd_stack_sums_compute(const profdata_profile *p, size_t value_index, pd_stack_sums *sums, pd_diag *diag,
                          const char *format)
{
	size_t nstacks = profdata_profile_count(p, PROFDATA_TABLE_STACKS);
	memset(sums, 0, sizeof *sums);
	sums->value = calloc(nstacks + 1, sizeof *sums->value);
	sums->seen = calloc(nstacks + 1, 1);
	sums->order = malloc((nstacks + 1) * sizeof *sums->order);
	if (!sums->value || !sums->seen || !sums->order)
		return pd_diag_error(diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "%s: out of memory", format);
	pd_sample_walk walk;
	profdata_sample s;
	size_t si;
	int rc = pd_sample_walk_init(&walk, p, diag, format);
	while (rc == 0 && (rc = pd_sample_walk_next(&walk, &s, &si)) > 0) {
		rc = 0; /* 1 said a sample came */
		if (!sums->seen[si]) {
			sums->seen[si] = 1;
			sums->order[sums->nordered++] = (uint32_t)si;
		}
		sums->value[si] = pd_wrapping_add(sums->value[si], pd_sample_count(&s, value_index));
	}
	pd_sample_walk_free(&walk);
	return rc;
}

void pd_stack_sums_free(pd_stack_sums *sums)
{
	free(sums->value);
	free(sums->seen);
	free(sums->order);
	memset(sums, 0, sizeof *sums);
}

/* ---- the call tree ---- */

static int tree_child(pd_call_tree *t, uint32_t parent, uint32_t name, uint8_t kind, uint32_t *child)
{
	uint64_t key = (uint64_t)parent << 32 | name;
	uint32_t found = pd_map_get(&t->children, key);
	if (found) {
		*child = found - 1;
		return 0;
	}
	if (t->n >= UINT32_MAX - 1 || pd_grow((void **)&t->nodes, &t->cap, t->n + 1, sizeof *t->nodes))
		return PROFDATA_ENOMEM;
	pd_call_node *node = &t->nodes[t->n];
	memset(node, 0, sizeof *node);
	node->parent = parent;
	node->name = name;
	node->kind = kind;
	node->depth = t->nodes[parent].depth + 1;
	if (node->depth > t->max_depth)
		t->max_depth = node->depth;
	*child = (uint32_t)t->n++;
	return pd_map_put(&t->children, key, *child + 1);
}

typedef struct tree_names {
	const pd_frame_names *frames;
	pd_frame_name_ids ids;     /* in the tree's names */
} tree_names;

static void tree_add_value(pd_call_node *node, int64_t value)
{
	node->total = pd_wrapping_add(node->total, value);
}

/*
 * Add `value` along the chain of stack si, root first (si SIZE_MAX: a chain
 * of one "[unknown]"), then below it the frame `leaf` unless it is
 * PD_CALL_ROOT (an allocation site's class).
 */
static int tree_add_stack(pd_call_tree *t, const profdata_profile *p, const tree_names *tn, size_t si,
                          int64_t value, uint32_t leaf)
{
	profdata_stack st;
	uint32_t node = 0, child;
	memset(&st, 0, sizeof st);
	if (si != SIZE_MAX)
		profdata_profile_stack(p, si, &st);
	tree_add_value(&t->nodes[0], value);
	if (st.nframes == 0 && (leaf == PD_CALL_ROOT || si == SIZE_MAX)) {
		if (tree_child(t, 0, si == SIZE_MAX ? tn->ids.unknown : tn->ids.empty, PD_FRAME_UNKNOWN, &node))
			return PROFDATA_ENOMEM;
		tree_add_value(&t->nodes[node], value);
	}
	for (size_t j = st.nframes; j-- > 0;) {
		size_t fi;
		int known = profdata_profile_find_frame(p, st.frame_ids[j], &fi) == 0;
		uint32_t name = known ? tn->ids.of_frame[fi] : tn->ids.unknown;
		uint8_t kind = known ? tn->frames->kind[fi] : PD_FRAME_UNKNOWN;
		if (tree_child(t, node, name, kind, &child))
			return PROFDATA_ENOMEM;
		node = child;
		tree_add_value(&t->nodes[node], value);
	}
	if (leaf != PD_CALL_ROOT) {
		if (tree_child(t, node, leaf, PD_FRAME_JVM, &child))
			return PROFDATA_ENOMEM;
		node = child;
		tree_add_value(&t->nodes[node], value);
	}
	t->nodes[node].self = pd_wrapping_add(t->nodes[node].self, value);
	return 0;
}

typedef struct name_key {
	const char *s;
	size_t len;
	uint32_t id;
} name_key;

static int compare_names(const void *a, const void *b)
{
	const name_key *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
	return c ? c : pd_order_u64(x->len, y->len);
}

typedef struct sibling_key {
	uint32_t parent, rank, node;
} sibling_key;

static int compare_siblings(const void *a, const void *b)
{
	const sibling_key *x = a, *y = b;
	return x->parent != y->parent ? pd_order_u64(x->parent, y->parent) : pd_order_u64(x->rank, y->rank);
}

/* Siblings in name order (as flamegraph.pl draws them), each placed after the ones before. */
static int tree_layout(pd_call_tree *t)
{
	name_key *names = malloc((t->names.n + 1) * sizeof *names);
	uint32_t *rank = malloc((t->names.n + 1) * sizeof *rank);
	sibling_key *sib = malloc(t->n * sizeof *sib);
	int64_t *cursor = malloc(t->n * sizeof *cursor);
	t->order = malloc(t->n * sizeof *t->order);
	if (!names || !rank || !sib || !cursor || !t->order) {
		free(names), free(rank), free(sib), free(cursor);
		return PROFDATA_ENOMEM;
	}
	for (uint32_t i = 0; i < t->names.n; i++) {
		names[i].s = pd_intern_str(&t->names, i, &names[i].len);
		names[i].id = i;
	}
	qsort(names, t->names.n, sizeof *names, compare_names);
	for (uint32_t i = 0; i < t->names.n; i++)
		rank[names[i].id] = i;
	sib[0].parent = 0, sib[0].rank = 0, sib[0].node = 0;
	for (uint32_t i = 1; i < t->n; i++) {
		sib[i].parent = t->nodes[i].parent;
		sib[i].rank = rank[t->nodes[i].name];
		sib[i].node = i;
	}
	/* The root sorts first: parent 0, and it is the only node whose name has no rank. */
	qsort(sib + 1, t->n - 1, sizeof *sib, compare_siblings);
	t->nodes[0].x = 0;
	cursor[0] = 0;
	for (size_t k = 0; k < t->n; k++) {
		pd_call_node *node = &t->nodes[sib[k].node];
		t->order[k] = sib[k].node;
		if (sib[k].node != 0) {
			node->x = cursor[node->parent];
			if (node->total > 0)
				cursor[node->parent] = pd_wrapping_add(cursor[node->parent], node->total);
		}
		cursor[sib[k].node] = node->x;
	}
	free(names), free(rank), free(sib), free(cursor);
	return 0;
}

static int tree_fill(pd_call_tree *t, const profdata_profile *p, const pd_stack_sums *sums, const tree_names *tn)
{
	int rc = 0;
	for (size_t k = 0; k < sums->nordered && rc == 0; k++) {
		uint32_t si = sums->order[k];
		if (sums->value[si] == 0)
			t->nstacks_skipped++;
		else
			rc = tree_add_stack(t, p, tn, si, sums->value[si], PD_CALL_ROOT);
	}
	return rc;
}

/* The allocated class's name: Java source form, "int[]" for primitive arrays. */
static int site_class_name(pd_call_tree *t, const profdata_profile *p, const profdata_alloc_site *site,
                           pd_strbuf *b, uint32_t *name)
{
	b->n = 0;
	if (site->array_type) {
		const char *type = profdata_basic_type_name(site->array_type);
		if (pd_strbuf_add(b, type, strlen(type)) || pd_strbuf_add(b, "[]", 2))
			return PROFDATA_ENOMEM;
	} else if (pd_class_prefix(b, p, site->class_serial, 1)) {
		return PROFDATA_ENOMEM;
	}
	if (b->n && b->p[b->n - 1] == '.')
		b->n--;  /* pd_class_prefix ends with the dot before a method */
	if (b->n == 0 && pd_strbuf_add(b, "[unknown class]", 15))
		return PROFDATA_ENOMEM;
	return pd_intern_put(&t->names, b->p, b->n, name) < 0 ? PROFDATA_ENOMEM : 0;
}

static int64_t site_value(const profdata_alloc_site *site, int which)
{
	switch (which) {
	case PD_SITE_ALLOC_INSTANCES: return site->alloc_instances;
	case PD_SITE_LIVE_BYTES: return site->live_bytes;
	case PD_SITE_LIVE_INSTANCES: return site->live_instances;
	default: return site->alloc_bytes;
	}
}

/* The last ALLOC SITES record: each is a snapshot of everything so far. */
static int tree_fill_sites(pd_call_tree *t, const profdata_profile *p, int which, const tree_names *tn)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_ALLOC_SITES);
	profdata_alloc_sites sites;
	pd_strbuf name = { 0, 0, 0 };
	int rc = 0;
	if (n == 0 || profdata_profile_alloc_sites(p, n - 1, &sites) < 0)
		return 0;
	for (size_t i = 0; i < sites.nsites && rc == 0; i++) {
		const profdata_alloc_site *site = &sites.sites[i];
		int64_t value = site_value(site, which);
		size_t si;
		uint32_t leaf;
		if (value == 0)
			continue;
		if (profdata_profile_find_stack(p, site->trace_serial, &si) < 0)
			si = SIZE_MAX;
		rc = site_class_name(t, p, site, &name, &leaf);
		if (rc == 0)
			rc = tree_add_stack(t, p, tn, si, value, leaf);
	}
	free(name.p);
	return rc;
}

/* Samples (sums) or, with sums NULL, allocation sites (`which`). */
static int tree_build(const profdata_profile *p, const pd_stack_sums *sums, int which, pd_call_tree *t)
{
	pd_frame_names frames;
	tree_names tn;
	int rc;
	memset(&tn, 0, sizeof tn);
	if (pd_grow((void **)&t->nodes, &t->cap, 1, sizeof *t->nodes))
		return PROFDATA_ENOMEM;
	memset(&t->nodes[0], 0, sizeof t->nodes[0]);
	t->nodes[0].name = PD_CALL_ROOT;
	t->n = 1;
	tn.frames = &frames;
	rc = pd_frame_names_render(p, &frames);
	if (rc == 0)
		rc = pd_frame_name_ids_init(&tn.ids, &frames, &t->names);
	if (rc == 0)
		rc = sums ? tree_fill(t, p, sums, &tn) : tree_fill_sites(t, p, which, &tn);
	if (rc == 0)
		rc = tree_layout(t);
	pd_frame_name_ids_free(&tn.ids);
	pd_frame_names_free(&frames);
	return rc;
}

int pd_call_tree_build(const profdata_profile *p, size_t value_index, pd_call_tree *t, pd_diag *diag,
                       const char *format)
{
	pd_stack_sums sums;
	memset(t, 0, sizeof *t);
	int rc = pd_stack_sums_compute(p, value_index, &sums, diag, format);
	if (rc == 0 && tree_build(p, &sums, 0, t))
		rc = pd_diag_error(diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "%s: out of memory", format);
	pd_stack_sums_free(&sums);
	return rc;
}

int pd_call_tree_build_sites(const profdata_profile *p, int which, pd_call_tree *t, pd_diag *diag,
                             const char *format)
{
	memset(t, 0, sizeof *t);
	if (tree_build(p, NULL, which, t))
		return pd_diag_error(diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "%s: out of memory", format);
	return 0;
}

void pd_call_tree_free(pd_call_tree *t)
{
	free(t->nodes);
	free(t->order);
	pd_intern_free(&t->names);
	pd_map_free(&t->children);
	memset(t, 0, sizeof *t);
}

const char *pd_sample_unit(const profdata_profile *p, size_t value_index, size_t *len)
{
	profdata_sample_type st;
	if (value_index >= profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES) ||
	    profdata_profile_sample_type(p, value_index, &st) < 0) {
		*len = 7;
		return "samples";
	}
	const char *unit = pd_profile_text(p, st.unit_id, len);
	if (!unit || !*len || (*len == 5 && memcmp(unit, "count", 5) == 0)) {
		*len = 7;
		return "samples";
	}
	return unit;
}

int pd_thread_name(const profdata_profile *p, uint32_t serial, pd_strbuf *b)
{
	size_t ti, len = 0;
	profdata_thread_info info;
	const char *name = NULL;
	if (serial && profdata_profile_find_thread(p, serial, &ti) == 0 && profdata_profile_thread(p, ti, &info) == 0 &&
	    info.has_start)
		name = pd_profile_text(p, info.start.name_id, &len);
	if (name && len)
		return pd_strbuf_add(b, name, len);
	char num[32];
	int n = snprintf(num, sizeof num, "thread %" PRIu32, serial);
	return pd_strbuf_add(b, num, (size_t)n);
}

/* ---- trace calls ---- */

typedef struct trace_key {
	uint32_t thread_serial;
	uint8_t open;
	uint64_t time_ns, function_id;
	size_t index;
} trace_key;

static int compare_trace_keys(const void *a, const void *b)
{
	const trace_key *x = a, *y = b;
	if (x->thread_serial != y->thread_serial)
		return pd_order_u64(x->thread_serial, y->thread_serial);
	return x->time_ns != y->time_ns ? pd_order_u64(x->time_ns, y->time_ns) : pd_order_u64(x->index, y->index);
}

static int trace_emit(pd_trace_calls *c, uint32_t thread, int open, uint64_t time_ns, uint64_t function_id)
{
	if (pd_grow((void **)&c->calls, &c->cap, c->n + 1, sizeof *c->calls))
		return PROFDATA_ENOMEM;
	pd_trace_call *t = &c->calls[c->n++];
	t->thread_serial = thread;
	t->open = (uint8_t)open;
	t->time_ns = time_ns;
	t->function_id = function_id;
	return 0;
}

/* One thread's keys k[0..n): nest them, with `open` as the stack of open functions. */
static int trace_nest(pd_trace_calls *c, const trace_key *k, size_t n, uint64_t **open, size_t *cap)
{
	size_t depth = 0;
	for (size_t i = 0; i < n; i++) {
		if (k[i].open) {
			if (pd_grow((void **)open, cap, depth + 1, sizeof **open))
				return PROFDATA_ENOMEM;
			(*open)[depth++] = k[i].function_id;
			if (trace_emit(c, k[i].thread_serial, 1, k[i].time_ns, k[i].function_id))
				return PROFDATA_ENOMEM;
			continue;
		}
		size_t d = depth;
		while (d > 0 && (*open)[d - 1] != k[i].function_id)
			d--;
		if (d == 0) {
			c->nunmatched++;
			continue;
		}
		while (depth >= d)
			if (trace_emit(c, k[i].thread_serial, 0, k[i].time_ns, (*open)[--depth]))
				return PROFDATA_ENOMEM;
	}
	for (; depth > 0; depth--, c->nclosed_at_end++)
		if (trace_emit(c, k[n - 1].thread_serial, 0, k[n - 1].time_ns, (*open)[depth - 1]))
			return PROFDATA_ENOMEM;
	return 0;
}

int pd_trace_calls_collect(const profdata_profile *p, pd_trace_calls *c)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS), nk = 0, cap = 0;
	uint64_t *open = NULL;
	int rc = 0;
	memset(c, 0, sizeof *c);
	trace_key *k = malloc((n + 1) * sizeof *k);
	if (!k)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		profdata_trace_event e;
		if (profdata_profile_trace_event(p, i, &e) < 0 ||
		    (e.kind != PROFDATA_TRACE_METHOD_ENTRY && e.kind != PROFDATA_TRACE_METHOD_EXIT))
			continue;
		k[nk].thread_serial = e.thread_serial;
		k[nk].open = e.kind == PROFDATA_TRACE_METHOD_ENTRY;
		k[nk].time_ns = e.time_ns;
		k[nk].function_id = e.method_id;
		k[nk].index = i;
		nk++;
	}
	qsort(k, nk, sizeof *k, compare_trace_keys);
	for (size_t from = 0; from < nk && rc == 0;) {
		size_t to = from;
		while (to < nk && k[to].thread_serial == k[from].thread_serial)
			to++;
		rc = trace_nest(c, k + from, to - from, &open, &cap);
		from = to;
	}
	free(open);
	free(k);
	return rc;
}

void pd_trace_calls_free(pd_trace_calls *c)
{
	free(c->calls);
	memset(c, 0, sizeof *c);
}
