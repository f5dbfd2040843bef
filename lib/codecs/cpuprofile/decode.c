/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JSON pass of the cpuprofile reader. yajl's push parser reads the
 * structure (nodes, call frames, trace events); the samples and time
 * deltas, nearly all of a long profile's bytes, never reach it: the input
 * is fed up to each key "samples" or "timeDeltas", and when the parser
 * says that key was one the profile means, the array after it is noted
 * (its span, for emit.c to read with pd_json_ints) and the parser is fed
 * an empty array in its place. So memory holds nodes, call frames and
 * where chunks are, never a sample, and the bulk is read at memchr speed.
 *
 * Nodes may list their children before or after those are defined (or,
 * in trace chunks, name their parent): the lists are kept as edges and
 * resolved by emit.c once every node is known.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/cpuprofile/cpuprofile.h"

/* The keys the reader looks at. */
enum { K_OTHER, K_NODES, K_ID, K_CALLFRAME, K_FUNCTIONNAME, K_URL, K_LINE, K_COLUMN, K_CHILDREN, K_PARENT,
       K_STARTTIME, K_TRACEEVENTS, K_ARGS, K_DATA, K_CPUPROFILE, K_NAME, K_PID, K_TID, K_SAMPLES, K_DELTAS };
static const char *const key_names[] = { "", "nodes", "id", "callFrame", "functionName", "url", "lineNumber",
	                                 "columnNumber", "children", "parent", "startTime", "traceEvents", "args",
	                                 "data", "cpuProfile", "name", "pid", "tid", "samples", "timeDeltas" };

/* What a JSON container is to the reader. */
enum { C_OTHER, C_TOP, C_NODES, C_NODE, C_CALLFRAME, C_CHILDREN, C_EVENTS, C_EVENT, C_ARGS, C_DATA, C_CPUPROFILE };

#define MAX_KNOWN_DEPTH 16

/* What the pass is in: containers, the profile (or event) being read, the call frame being read. */
typedef struct cpu_parse {
	cpu_decoder *d;
	unsigned char kinds[MAX_KNOWN_DEPTH];
	size_t depth;
	int key, grab;             /* the last key; K_SAMPLES or K_DELTAS when its array is to be taken */
	size_t nodes_from, edges_from; /* the current profile's or event's first node and edge */
	js_chunk chunk;            /* its samples and deltas */
	int is_profile;            /* trace event: 1 Profile, 2 ProfileChunk */
	uint64_t pid, tid;
	uint32_t id;               /* its "id" (string index + 1) */
	int64_t start_us;
	int has_start;
	pd_strbuf cf_name, cf_url;
	int64_t cf_line, cf_column;
	uint64_t node_at;          /* offset where the current node begins */
	uint64_t at;               /* offset of the bytes being fed */
	pd_json *json;
} cpu_parse;

int pd_cpuprofile_fail(cpu_decoder *d, uint64_t at, int code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!d->rc)
		d->rc = code == PROFDATA_ENOMEM ? pd_in_error(d->in, code, PD_NO_OFFSET, "out of memory")
		        : at == PD_NO_OFFSET ? pd_in_error(d->in, code, at, "%s", msg)
		                             : pd_in_error_line(d->in, code, at, pd_json_line(d->base, d->size, at), "%s", msg);
	return d->rc;
}

uint32_t pd_cpuprofile_string(cpu_decoder *d, const char *s, size_t len)
{
	uint32_t index;
	if (d->strings.n >= UINT32_MAX - 2 || pd_intern_put(&d->strings, s, len, &index) < 0)
		return 0;
	return index + 1;
}

static int kind_at(const cpu_parse *ps, size_t depth)
{
	return depth == 0 || depth > MAX_KNOWN_DEPTH ? C_OTHER : ps->kinds[depth - 1];
}

static int push(cpu_parse *ps, int kind)
{
	if (ps->depth < MAX_KNOWN_DEPTH)
		ps->kinds[ps->depth] = (unsigned char)kind;
	ps->depth++;
	return 1;
}

static int oom(cpu_parse *ps)
{
	pd_cpuprofile_fail(ps->d, 0, PROFDATA_ENOMEM, "out of memory");
	return 0;
}

/* A profile or trace event begins: what it holds is pending until it ends. */
static void pending_start(cpu_parse *ps)
{
	memset(&ps->chunk, 0, sizeof ps->chunk);
	ps->nodes_from = ps->d->nnodes;
	ps->edges_from = ps->d->nedges;
	ps->is_profile = 0;
	ps->pid = ps->tid = 0;
	ps->id = 0;
	ps->has_start = 0;
	ps->start_us = 0;
}

static int node_start(cpu_parse *ps)
{
	cpu_decoder *d = ps->d;
	if (d->nnodes >= UINT32_MAX - 1 || pd_grow((void **)&d->nodes, &d->nodes_cap, d->nnodes + 1, sizeof *d->nodes))
		return oom(ps);
	memset(&d->nodes[d->nnodes], 0, sizeof *d->nodes);
	d->nodes[d->nnodes++].function = UINT32_MAX;
	ps->node_at = ps->json->fed + yajl_get_bytes_consumed(ps->json->h);
	return 1;
}

static int on_start_map(void *ctx)
{
	cpu_parse *ps = ctx;
	int parent = kind_at(ps, ps->depth), kind = C_OTHER;
	ps->grab = 0;
	if (ps->depth == 0)
		kind = C_TOP;
	else if (parent == C_NODES)
		kind = C_NODE;
	else if (parent == C_NODE && ps->key == K_CALLFRAME)
		kind = C_CALLFRAME;
	else if (parent == C_EVENTS)
		kind = C_EVENT;
	else if (parent == C_EVENT && ps->key == K_ARGS)
		kind = C_ARGS;
	else if (parent == C_ARGS && ps->key == K_DATA)
		kind = C_DATA;
	else if (parent == C_DATA && ps->key == K_CPUPROFILE)
		kind = C_CPUPROFILE;
	if (kind == C_TOP || kind == C_EVENT)
		pending_start(ps);
	if (kind == C_NODE && !node_start(ps))
		return 0;
	if (kind == C_CALLFRAME) {
		ps->cf_name.n = ps->cf_url.n = 0;
		ps->cf_line = ps->cf_column = -1;
	}
	return push(ps, kind);
}

static int on_start_array(void *ctx)
{
	cpu_parse *ps = ctx;
	int parent = kind_at(ps, ps->depth), kind = C_OTHER;
	ps->grab = 0;
	if (ps->depth == 0)
		kind = C_EVENTS;
	else if ((parent == C_TOP || parent == C_CPUPROFILE) && ps->key == K_NODES)
		kind = C_NODES;
	else if (parent == C_TOP && ps->key == K_TRACEEVENTS)
		kind = C_EVENTS;
	else if (parent == C_NODE && ps->key == K_CHILDREN)
		kind = C_CHILDREN;
	return push(ps, kind);
}

static int on_map_key(void *ctx, const unsigned char *s, size_t len)
{
	cpu_parse *ps = ctx;
	int parent = kind_at(ps, ps->depth);
	ps->key = K_OTHER;
	for (int k = 1; k < (int)(sizeof key_names / sizeof key_names[0]); k++)
		if (strlen(key_names[k]) == len && memcmp(key_names[k], s, len) == 0)
			ps->key = k;
	ps->grab = 0;
	if (ps->key == K_SAMPLES && (parent == C_TOP || parent == C_CPUPROFILE))
		ps->grab = K_SAMPLES;
	if (ps->key == K_DELTAS && (parent == C_TOP || parent == C_DATA))
		ps->grab = K_DELTAS;
	return 1;
}

/* The call frame just read: its function's index (a new one when no frame so far had the same fields). */
static int callframe_end(cpu_parse *ps)
{
	cpu_decoder *d = ps->d;
	pd_strbuf key = { 0 };
	int64_t nums[2] = { ps->cf_line, ps->cf_column };
	uint32_t index;
	int rc = pd_strbuf_add(&key, (const char *)nums, sizeof nums) ||
	         pd_strbuf_add(&key, ps->cf_url.p ? ps->cf_url.p : "", ps->cf_url.n) || pd_strbuf_add(&key, "", 1) ||
	         pd_strbuf_add(&key, ps->cf_name.p ? ps->cf_name.p : "", ps->cf_name.n);
	if (rc == 0)
		rc = pd_intern_put(&d->callframes, key.p, key.n, &index);
	free(key.p);
	if (rc < 0)
		return oom(ps);
	if (rc == 0) {
		js_function f = { 0, 0, ps->cf_line, ps->cf_column };
		/* DevTools shows a function without a name as "(anonymous)" */
		f.name = ps->cf_name.n ? pd_cpuprofile_string(d, ps->cf_name.p, ps->cf_name.n)
		                       : pd_cpuprofile_string(d, "(anonymous)", 11);
		f.url = ps->cf_url.n ? pd_cpuprofile_string(d, ps->cf_url.p, ps->cf_url.n) : 0;
		if (!f.name || (ps->cf_url.n && !f.url) ||
		    pd_grow((void **)&d->functions, &d->functions_cap, d->nfunctions + 1, sizeof *d->functions))
			return oom(ps);
		d->functions[d->nfunctions++] = f;
	}
	d->nodes[d->nnodes - 1].function = index;
	return 1;
}

static int node_end(cpu_parse *ps)
{
	const js_node *n = &ps->d->nodes[ps->d->nnodes - 1];
	if (!n->has_id || n->function == UINT32_MAX) {
		pd_cpuprofile_fail(ps->d, ps->node_at, PROFDATA_EFORMAT, "a node without %s",
		                   n->has_id ? "a callFrame" : "an id");
		return 0;
	}
	return 1;
}

/* The profile of the current trace event (pid and id), or a new one; index in d->profiles, or -1. */
static int64_t profile_of(cpu_parse *ps, int top)
{
	cpu_decoder *d = ps->d;
	for (size_t i = 0; !top && i < d->nprofiles; i++)
		if (d->profiles[i].pid == ps->pid && d->profiles[i].id == ps->id) {
			/* chunks come from V8's sampling thread: the Profile event's is the profiled one */
			if (ps->is_profile == 1)
				d->profiles[i].tid = ps->tid;
			return (int64_t)i;
		}
	if (d->nprofiles >= (1u << 20) ||
	    pd_grow((void **)&d->profiles, &d->profiles_cap, d->nprofiles + 1, sizeof *d->profiles))
		return -1;
	js_profile p = { ps->pid, ps->tid, top ? UINT32_MAX : ps->id, 0, top ? 0 : (uint32_t)d->nprofiles + 1 };
	d->profiles[d->nprofiles] = p;
	return (int64_t)d->nprofiles++;
}

/* The nodes of profile `pi` from ps->nodes_from by id, and its chunk. */
static int commit_nodes(cpu_parse *ps, uint32_t pi)
{
	cpu_decoder *d = ps->d;
	for (size_t i = ps->nodes_from; i < d->nnodes; i++) {
		js_node *n = &d->nodes[i];
		uint64_t key = pd_cpuprofile_node_key(pi, n->id);
		n->profile = pi;
		if (n->id >= (UINT64_C(1) << 44) || pd_map_get(&d->node_of, key)) {
			pd_cpuprofile_fail(d, ps->at, PROFDATA_EFORMAT, "node id %" PRIu64 " %s", n->id,
			                   n->id >> 44 ? "past 2^44" : "used twice in one profile");
			return 0;
		}
		if (pd_map_put(&d->node_of, key, (uint32_t)i + 1))
			return oom(ps);
	}
	if (!ps->chunk.samples && !ps->chunk.deltas)
		return 1;
	if (pd_grow((void **)&d->chunks, &d->chunks_cap, d->nchunks + 1, sizeof *d->chunks))
		return oom(ps);
	ps->chunk.profile = pi;
	d->chunks[d->nchunks++] = ps->chunk;
	return 1;
}

/* A .cpuprofile's object, or a trace event, ends: keep what it held if it was a profile. */
static int commit(cpu_parse *ps, int top)
{
	cpu_decoder *d = ps->d;
	int empty = d->nnodes == ps->nodes_from && !ps->chunk.samples && !ps->chunk.deltas;
	if ((top && empty) || (!top && !ps->is_profile)) {
		d->nnodes = ps->nodes_from;
		d->nedges = ps->edges_from;
		return 1;
	}
	int64_t pi = profile_of(ps, top);
	if (pi < 0)
		return oom(ps);
	if (ps->has_start && (top || ps->is_profile == 1))
		d->profiles[pi].time_us = ps->start_us;
	return commit_nodes(ps, (uint32_t)pi);
}

static int on_end_map(void *ctx)
{
	cpu_parse *ps = ctx;
	int kind = kind_at(ps, ps->depth), ok = 1;
	ps->grab = 0;
	if (kind == C_CALLFRAME)
		ok = callframe_end(ps);
	else if (kind == C_NODE)
		ok = node_end(ps);
	else if (kind == C_TOP || kind == C_EVENT)
		ok = commit(ps, kind == C_TOP);
	ps->depth--;
	return ok;
}

static int on_end_array(void *ctx)
{
	cpu_parse *ps = ctx;
	ps->grab = 0;
	ps->depth--;
	return 1;
}

static int add_edge(cpu_parse *ps, int is_parent, long long id)
{
	cpu_decoder *d = ps->d;
	if (id < 0) {
		pd_cpuprofile_fail(d, ps->at, PROFDATA_EFORMAT, "a negative node id %lld", id);
		return 0;
	}
	if (pd_grow((void **)&d->edges, &d->edges_cap, d->nedges + 1, sizeof *d->edges))
		return oom(ps);
	js_edge e = { (uint32_t)(d->nnodes - 1), (uint8_t)is_parent, (uint64_t)id, ps->node_at };
	d->edges[d->nedges++] = e;
	return 1;
}

static int on_integer(void *ctx, long long v)
{
	cpu_parse *ps = ctx;
	int kind = kind_at(ps, ps->depth);
	ps->grab = 0;
	if (kind == C_NODE && ps->key == K_ID) {
		js_node *n = &ps->d->nodes[ps->d->nnodes - 1];
		n->id = (uint64_t)v;
		n->has_id = 1;
		if (v < 0) {
			pd_cpuprofile_fail(ps->d, ps->node_at, PROFDATA_EFORMAT, "a negative node id %lld", v);
			return 0;
		}
		return 1;
	}
	if (kind == C_CHILDREN || (kind == C_NODE && ps->key == K_PARENT))
		return add_edge(ps, kind == C_NODE, v);
	if (kind == C_CALLFRAME && (ps->key == K_LINE || ps->key == K_COLUMN))
		*(ps->key == K_LINE ? &ps->cf_line : &ps->cf_column) = v;
	else if ((kind == C_TOP || kind == C_DATA) && ps->key == K_STARTTIME)
		ps->start_us = v, ps->has_start = 1;
	else if (kind == C_EVENT && (ps->key == K_PID || ps->key == K_TID))
		*(ps->key == K_PID ? &ps->pid : &ps->tid) = (uint64_t)v;
	else if (kind == C_EVENT && ps->key == K_ID) {
		char num[32];
		int n = snprintf(num, sizeof num, "%lld", v);
		if (!(ps->id = pd_cpuprofile_string(ps->d, num, (size_t)n)))
			return oom(ps);
	}
	return 1;
}

static int on_double(void *ctx, double v)
{
	cpu_parse *ps = ctx;
	int kind = kind_at(ps, ps->depth);
	ps->grab = 0;
	if ((kind == C_TOP || kind == C_DATA) && ps->key == K_STARTTIME && v > -9e18 && v < 9e18)
		ps->start_us = (int64_t)v, ps->has_start = 1;
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	cpu_parse *ps = ctx;
	int kind = kind_at(ps, ps->depth);
	ps->grab = 0;
	if (kind == C_CALLFRAME && (ps->key == K_FUNCTIONNAME || ps->key == K_URL)) {
		pd_strbuf *b = ps->key == K_URL ? &ps->cf_url : &ps->cf_name;
		b->n = 0;
		if (pd_strbuf_add(b, (const char *)s, len))
			return oom(ps);
	} else if (kind == C_EVENT && ps->key == K_NAME) {
		ps->is_profile = len == 7 && memcmp(s, "Profile", 7) == 0        ? 1
		                 : len == 12 && memcmp(s, "ProfileChunk", 12) == 0 ? 2 : 0;
	} else if (kind == C_EVENT && ps->key == K_ID) {
		if (!(ps->id = pd_cpuprofile_string(ps->d, (const char *)s, len)))
			return oom(ps);
	}
	return 1;
}

static int on_other(void *ctx)
{
	((cpu_parse *)ctx)->grab = 0;
	return 1;
}

static int on_boolean(void *ctx, int v)
{
	(void)v;
	return on_other(ctx);
}

static const yajl_callbacks callbacks = { on_other, on_boolean, on_integer, on_double, NULL, on_string,
	                                  on_start_map, on_map_key, on_end_map, on_start_array, on_end_array };

/* Past the next "samples" or "timeDeltas" (with its quotes) from p, else end. */
static const unsigned char *next_candidate(const unsigned char *p, const unsigned char *end)
{
	while ((p = memchr(p, '"', (size_t)(end - p))) != NULL) {
		size_t left = (size_t)(end - p);
		if (left >= 9 && memcmp(p, "\"samples\"", 9) == 0)
			return p + 9;
		if (left >= 12 && memcmp(p, "\"timeDeltas\"", 12) == 0)
			return p + 12;
		p++;
	}
	return end;
}

/* The array after the key just fed: its span noted, the parser fed "[]" for it. Past it, or NULL. */
static const unsigned char *take_array(cpu_parse *ps, const unsigned char *p)
{
	cpu_decoder *d = ps->d;
	const unsigned char *start, *bad, *after = pd_json_array_span(p, d->base + d->size, &start, &bad);
	const unsigned char **span = ps->grab == K_SAMPLES ? &ps->chunk.samples : &ps->chunk.deltas;
	const char *what = ps->grab == K_SAMPLES ? "samples" : "timeDeltas";
	char msg[160];
	uint64_t where;
	if (!after) {
		pd_cpuprofile_fail(d, (uint64_t)(bad - d->base), PROFDATA_EFORMAT, "%s: not an array", what);
		return NULL;
	}
	if (*span) {
		pd_cpuprofile_fail(d, (uint64_t)(start - d->base), PROFDATA_EFORMAT, "%s twice", what);
		return NULL;
	}
	span[0] = start;
	span[1] = after;
	ps->grab = 0;
	ps->json->fed = (uint64_t)(start - d->base);
	int e = pd_json_feed(ps->json, (const unsigned char *)":[]", 3, 0, msg, sizeof msg, &where);
	if (e < 0)
		pd_cpuprofile_fail(d, where, PROFDATA_EFORMAT, "%s", msg);
	return e ? NULL : after;
}

static int parse(cpu_parse *ps)
{
	cpu_decoder *d = ps->d;
	const unsigned char *p = d->base, *end = d->base + d->size;
	char msg[160];
	uint64_t where;
	int e = 0;
	while (p < end && e == 0) {
		const unsigned char *stop = next_candidate(p, end);
		ps->json->fed = ps->at = (uint64_t)(p - d->base);
		e = pd_json_feed(ps->json, p, (size_t)(stop - p), 0, msg, sizeof msg, &where);
		p = stop;
		if (e == 0 && ps->grab && !(p = take_array(ps, p)))
			return d->rc;
	}
	if (e == 0) {
		ps->json->fed = d->size;
		e = pd_json_feed(ps->json, NULL, 0, 1, msg, sizeof msg, &where);
	}
	if (e < 0)
		return pd_cpuprofile_fail(d, where, PROFDATA_EFORMAT, "%s", msg);
	if (e > 0)
		return d->rc;
	if (d->nprofiles == 0)
		return pd_cpuprofile_fail(d, 0, PROFDATA_EFORMAT, "no profile: neither nodes nor Profile trace events");
	return 0;
}

static void decoder_free(cpu_decoder *d, cpu_parse *ps)
{
	pd_intern_free(&d->strings);
	pd_intern_free(&d->callframes);
	pd_map_free(&d->node_of);
	for (size_t i = 0; i < d->nprofiles; i++)
		free(d->profiles[i].rows);
	PD_FREE_ALL(d->functions, d->sent, d->nodes, d->edges, d->chunks, d->profiles, d->frame_ids, ps->cf_name.p,
	            ps->cf_url.p);
}

int pd_cpuprofile_decode(const pd_decode_args *a)
{
	cpu_decoder d;
	cpu_parse ps;
	pd_json json;
	memset(&d, 0, sizeof d);
	memset(&ps, 0, sizeof ps);
	d.a = a;
	d.in = a->in;
	ps.d = &d;
	ps.json = &json;
	int rc = pd_in_fill_all(a->in, &d.base, &d.size);
	if (rc == 0 && (rc = pd_json_open(&json, &callbacks, &ps)) == 0) {
		rc = parse(&ps);
		pd_json_close(&json);
	}
	if (rc == 0)
		rc = pd_cpuprofile_emit(&d);
	if (rc == 0) {
		pd_in_skip(a->in, d.size);
		rc = PD_EMIT0(a, end);
	}
	if (rc == PROFDATA_ENOMEM && !pd_in_diag(a->in)->has_err)
		rc = pd_in_error(a->in, rc, PD_NO_OFFSET, "out of memory");
	decoder_free(&d, &ps);
	return rc;
}
