/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Traces as call-stack profiles: methodEntry/methodExit (and methodCall/
 * methodReturn) pairs become call stacks, per thread, rooted at the
 * outermost traced call (real traces start mid-stack). Each call is one
 * sample of its stack with two values, calls/count and wall/nanoseconds
 * (self time: exit - entry - time in traced callees); calls of one stack on
 * one thread are summed into one sample, emitted before `end`. So memory
 * grows with the open calls and the distinct stacks, never with the trace's
 * length: the trace events themselves are not passed on.
 *
 * Unpaired elements are handled and counted in one warning: an exit without
 * its entry is ignored; an exit that skips frames (an exception unwinding)
 * closes them at its time; calls still open at the end are closed at their
 * thread's last time.
 */
#include <stdlib.h>
#include <string.h>

#include "transform/transform.h"
#include "util/hashmap.h"

#define NO_NODE UINT32_MAX

typedef struct call_node {
	uint32_t parent;        /* NO_NODE for a thread's outermost calls */
	uint32_t thread_serial;
	uint64_t method_id;
	int64_t calls, self_ns;
} call_node;

typedef struct open_call {
	uint32_t node;
	uint64_t ticket, method_id, entry_ns, callee_ns;
} open_call;

typedef struct thread_calls {
	uint32_t serial;
	open_call *calls;
	size_t n, cap;
	uint64_t last_ns;
} thread_calls;

typedef struct trace_stacks {
	pd_transform_base base; /* first: the pass-through events find it there */
	call_node *nodes;
	size_t nnodes, nodes_cap;
	pd_map children;        /* hash of (parent, thread, method) -> first node + 1 of that hash */
	uint32_t *next_same;    /* nodes sharing a hash, chained */
	size_t next_cap;
	thread_calls *threads;
	size_t nthreads, threads_cap;
	pd_map thread_ix;       /* thread serial + 1 -> index + 1 */
	size_t last_thread;     /* the thread of the last event: the next one is mostly the same */
	uint64_t max_string, max_stack;
	int saw_function_ids;
	uint64_t unmatched_exits, skipped_frames, left_open;
} trace_stacks;


static int nomem(trace_stacks *s)
{
	return pd_diag_error(s->base.diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "trace_stacks: out of memory");
}

static uint64_t node_key(uint32_t parent, uint32_t thread, uint64_t method)
{
	return pd_hash64(method ^ pd_hash64(((uint64_t)parent << 32) | thread));
}

/* The node of `method` called from `parent` on `thread`, made when new. */
static int child_of(trace_stacks *s, uint32_t parent, uint32_t thread, uint64_t method, uint32_t *out)
{
	uint64_t key = node_key(parent, thread, method);
	uint32_t first = pd_map_get(&s->children, key);
	for (uint32_t i = first; i; i = s->next_same[i - 1]) {
		const call_node *n = &s->nodes[i - 1];
		if (n->parent == parent && n->thread_serial == thread && n->method_id == method) {
			*out = i - 1;
			return 0;
		}
	}
	if (s->nnodes >= UINT32_MAX - 1 ||
	    pd_grow((void **)&s->nodes, &s->nodes_cap, s->nnodes + 1, sizeof(call_node)) < 0 ||
	    pd_grow((void **)&s->next_same, &s->next_cap, s->nnodes + 1, sizeof(uint32_t)) < 0)
		return nomem(s);
	call_node *n = &s->nodes[s->nnodes];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->thread_serial = thread;
	n->method_id = method;
	s->next_same[s->nnodes] = first;
	*out = (uint32_t)s->nnodes++;
	return pd_map_put(&s->children, key, *out + 1) < 0 ? nomem(s) : 0;
}

static thread_calls *thread_of(trace_stacks *s, uint32_t serial)
{
	if (s->nthreads && s->threads[s->last_thread].serial == serial)
		return &s->threads[s->last_thread];
	uint32_t i = pd_map_get(&s->thread_ix, (uint64_t)serial + 1);
	if (i)
		s->last_thread = i - 1;
	if (i)
		return &s->threads[i - 1];
	if (pd_grow((void **)&s->threads, &s->threads_cap, s->nthreads + 1, sizeof(thread_calls)) < 0)
		return NULL;
	thread_calls *t = &s->threads[s->nthreads++];
	memset(t, 0, sizeof(*t));
	t->serial = serial;
	return pd_map_put(&s->thread_ix, (uint64_t)serial + 1, (uint32_t)s->nthreads) < 0 ? NULL : t;
}

/* Close the innermost open call of `t` at `exit_ns`. */
static void close_call(trace_stacks *s, thread_calls *t, uint64_t exit_ns)
{
	open_call *c = &t->calls[--t->n];
	uint64_t elapsed = exit_ns > c->entry_ns ? exit_ns - c->entry_ns : 0;
	uint64_t self = elapsed > c->callee_ns ? elapsed - c->callee_ns : 0;
	call_node *n = &s->nodes[c->node];
	n->calls++;
	n->self_ns = (int64_t)((uint64_t)n->self_ns + self);
	if (t->n > 0)
		t->calls[t->n - 1].callee_ns += elapsed;
}

static int enter(trace_stacks *s, thread_calls *t, const profdata_trace_event *e)
{
	uint32_t parent = t->n ? t->calls[t->n - 1].node : NO_NODE, node = 0;
	int rc = child_of(s, parent, t->serial, e->method_id, &node);
	if (rc)
		return rc;
	if (pd_grow((void **)&t->calls, &t->cap, t->n + 1, sizeof(open_call)) < 0)
		return nomem(s);
	t->calls[t->n++] = (open_call){ node, e->ticket, e->method_id, e->time_ns, 0 };
	return 0;
}

/* The open call an exit closes: its ticket when it has one, else the innermost call of its method. */
static void leave(trace_stacks *s, thread_calls *t, const profdata_trace_event *e)
{
	size_t k = t->n;
	while (k > 0) {
		const open_call *c = &t->calls[k - 1];
		if (e->ticket ? c->ticket == e->ticket : c->method_id == e->method_id)
			break;
		k--;
	}
	if (k == 0) {
		s->unmatched_exits++;
		return;
	}
	s->skipped_frames += t->n - k;
	while (t->n >= k)
		close_call(s, t, e->time_ns);
}

static int on_trace_event(void *payload, const profdata_trace_event *e)
{
	trace_stacks *s = payload;
	int entry = e->kind == PROFDATA_TRACE_METHOD_ENTRY || e->kind == PROFDATA_TRACE_METHOD_CALL;
	int exit = e->kind == PROFDATA_TRACE_METHOD_EXIT || e->kind == PROFDATA_TRACE_METHOD_RETURN;
	if (!entry && !exit)
		return 0;
	thread_calls *t = thread_of(s, e->thread_serial);
	if (!t)
		return nomem(s);
	if (e->time_ns > t->last_ns)
		t->last_ns = e->time_ns;
	if (entry)
		return enter(s, t, e);
	leave(s, t, e);
	return 0;
}

static int on_trace_context(void *payload, const profdata_trace_context *c)
{
	(void)payload;
	(void)c;
	return 0;
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	trace_stacks *s = payload;
	if (id > s->max_string && id < PD_RESERVED_ID_MIN)
		s->max_string = id;
	return PD_DOWN(s, string, id, utf8, len);
}

static int on_stack(void *payload, const profdata_stack *st)
{
	trace_stacks *s = payload;
	if (st->serial > s->max_stack)
		s->max_stack = st->serial;
	return PD_DOWN(s, stack, st);
}

/* One frame per traced method: its id is the function's. */
static int emit_frames(trace_stacks *s)
{
	pd_map seen = { 0 };
	int rc = 0;
	for (size_t i = 0; i < s->nnodes && rc == 0; i++) {
		uint64_t m = s->nodes[i].method_id;
		if (pd_map_get(&seen, m))
			continue;
		if (pd_map_put(&seen, m, 1) < 0) {
			rc = nomem(s);
			break;
		}
		profdata_frame f = { m, m, PROFDATA_LINE_NONE, 0, 0, 0 };
		rc = PD_DOWN(s, frame, &f);
	}
	pd_map_free(&seen);
	return rc;
}

static int emit_stack_and_sample(trace_stacks *s, size_t i, uint64_t **frames, size_t *cap)
{
	size_t n = 0;
	for (uint32_t k = (uint32_t)i; k != NO_NODE; k = s->nodes[k].parent) {
		if (pd_grow((void **)frames, cap, n + 1, sizeof(uint64_t)) < 0)
			return nomem(s);
		(*frames)[n++] = s->nodes[k].method_id;
	}
	uint32_t serial = (uint32_t)(s->max_stack + 1 + i);
	profdata_stack st = { serial, s->nodes[i].thread_serial, *frames, n };
	int rc = PD_DOWN(s, stack, &st);
	if (rc)
		return rc;
	int64_t values[2] = { s->nodes[i].calls, s->nodes[i].self_ns };
	profdata_sample sm = { serial, s->nodes[i].thread_serial, 0, values, 2 };
	return PD_DOWN(s, sample, &sm);
}

static int emit_types(trace_stacks *s)
{
	static const char *const names[] = { "calls", "count", "wall", "nanoseconds" };
	uint64_t base = s->max_string + 1;
	int rc = 0;
	for (int i = 0; i < 4 && rc == 0; i++)
		rc = PD_DOWN(s, string, base + (uint64_t)i, names[i], strlen(names[i]));
	profdata_sample_type calls = { base, base + 1 }, wall = { base + 2, base + 3 };
	if (rc == 0)
		rc = PD_DOWN(s, sample_type, &calls);
	if (rc == 0)
		rc = PD_DOWN(s, sample_type, &wall);
	return rc;
}

static int emit_profile(trace_stacks *s)
{
	uint64_t total = 0, *frames = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < s->nthreads; i++) {
		thread_calls *t = &s->threads[i];
		s->left_open += t->n;
		while (t->n)
			close_call(s, t, t->last_ns);
	}
	if (s->nnodes == 0)
		return 0;
	if (s->max_stack + s->nnodes >= UINT32_MAX)
		return pd_diag_error(s->base.diag, PROFDATA_ELIMIT, PD_NO_OFFSET, 0, "trace_stacks: too many stacks");
	for (size_t i = 0; i < s->nnodes; i++)
		total += (uint64_t)s->nodes[i].calls;
	int rc = emit_types(s);
	if (rc == 0)
		rc = emit_frames(s);
	profdata_sample_group g = { 0, total };
	if (rc == 0)
		rc = PD_DOWN(s, sample_group, &g);
	for (size_t i = 0; i < s->nnodes && rc == 0; i++)
		rc = emit_stack_and_sample(s, i, &frames, &cap);
	free(frames);
	return rc;
}

static int on_end(void *payload)
{
	trace_stacks *s = payload;
	int rc = emit_profile(s);
	if (s->unmatched_exits || s->skipped_frames || s->left_open)
		pd_diag_warn(s->base.diag, PROFDATA_OK, PD_NO_OFFSET, 0,
		             "trace_stacks: %llu exits without their entry ignored, %llu calls closed by an exit that "
		             "skipped them (exceptions), %llu calls still open at the end closed at their thread's last time",
		             (unsigned long long)s->unmatched_exits, (unsigned long long)s->skipped_frames,
		             (unsigned long long)s->left_open);
	return rc ? rc : PD_DOWN0(s, end);
}

/* The events the transform changes; the others pass straight on. */
static const profdata_events trace_stacks_events = {
	.string = on_string, .stack = on_stack, .trace_event = on_trace_event, .trace_context = on_trace_context,
	.end = on_end,
};

static void trace_stacks_free(void *state)
{
	trace_stacks *s = state;
	for (size_t i = 0; i < s->nthreads; i++)
		free(s->threads[i].calls);
	free(s->threads);
	pd_map_free(&s->thread_ix);
	pd_map_free(&s->children);
	free(s->nodes);
	free(s->next_same);
}

const pd_transform_desc pd_transform_trace_stacks = {
	.name = "trace_stacks",
	.state_size = sizeof(trace_stacks),
	.events = &trace_stacks_events,
	.free = trace_stacks_free,
};

const pd_transform_desc *const pd_transforms_samples[] = { &pd_transform_trace_stacks, NULL };
