/* SPDX-License-Identifier: Apache-2.0 */
/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json),
 * written here; read by decode.c (with yajl):
 *
 *   {"$schema": ..., "exporter": "libprofdata ...", "activeProfileIndex": N,
 *    "profiles": [ sampled profiles, one per sample type;
 *                  evented profiles, one per thread of a trace ],
 *    "shared": {"frames": [{"name": ...}, ...]}}
 *
 * A sampled profile has one sample per call chain that folded writes (the
 * call tree's leaves, analysis/stacks.h, depth first), weighted with the
 * chain's sum, so that its total is folded's. An evented profile opens and closes frames at
 * the trace's own times (nanoseconds). See doc/formats-speedscope.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/speedscope/speedscope.h"
#include "pd_config.h"
#include "analysis/samples.h"
#include "analysis/stacks.h"
#include "util/hashmap.h"

extern const struct profdata_format pd_format_speedscope;

typedef struct speedscope_writer {
	const profdata_profile *p;
	profdata_writer *w;
	pd_outbuf out;
	pd_intern frames;          /* the shared frames, by name */
	uint32_t *tree_frame;      /* the current tree's name index -> frame index */
	uint32_t *path;            /* scratch: one chain, leaf first */
	size_t path_cap;
	pd_strbuf scratch;
	int nprofiles;
} speedscope_writer;

/* speedscope's units; anything else is "none" (a count). */
static const char *speedscope_unit(const char *unit, size_t len)
{
	static const char *const known[] = { "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes" };
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (unit && len == strlen(known[i]) && memcmp(unit, known[i], len) == 0)
			return known[i];
	return "none";
}

static void begin_profile(speedscope_writer *sw)
{
	pd_outbuf_str(&sw->out, sw->nprofiles++ ? ",\n" : "\n");
}

static int map_tree_names(speedscope_writer *sw, const pd_call_tree *t)
{
	free(sw->tree_frame);
	sw->tree_frame = malloc((t->names.n + 1) * sizeof *sw->tree_frame);
	if (!sw->tree_frame)
		return PROFDATA_ENOMEM;
	for (uint32_t i = 0; i < t->names.n; i++)
		sw->tree_frame[i] = UINT32_MAX;  /* frames only for the names a sample uses */
	return 0;
}

static int tree_frame(speedscope_writer *sw, const pd_call_tree *t, uint32_t name, uint32_t *frame)
{
	if (sw->tree_frame[name] == UINT32_MAX) {
		size_t len;
		const char *s = pd_intern_str(&t->names, name, &len);
		if (pd_intern_put(&sw->frames, s, len, &sw->tree_frame[name]) < 0)
			return PROFDATA_ENOMEM;
	}
	*frame = sw->tree_frame[name];
	return 0;
}

/* The chain of node i, root first, as frame indexes. */
static int write_chain(speedscope_writer *sw, const pd_call_tree *t, uint32_t i)
{
	size_t n = 0;
	for (uint32_t k = i; k != 0; k = t->nodes[k].parent) {
		if (pd_grow((void **)&sw->path, &sw->path_cap, n + 1, sizeof *sw->path) ||
		    tree_frame(sw, t, t->nodes[k].name, &sw->path[n]))
			return PROFDATA_ENOMEM;
		n++;
	}
	pd_outbuf_str(&sw->out, "[");
	for (size_t j = n; j-- > 0;)
		pd_outbuf_printf(&sw->out, j + 1 < n ? ",%" PRIu32 : "%" PRIu32, sw->path[j]);
	pd_outbuf_str(&sw->out, "]");
	return 0;
}

static void write_profile_name(speedscope_writer *sw, size_t vi, size_t ntypes, const char **unit)
{
	profdata_sample_type st;
	size_t tlen = 0, ulen = 0;
	const char *type = NULL, *u = NULL;
	if (vi < ntypes && profdata_profile_sample_type(sw->p, vi, &st) == 0) {
		type = pd_profile_text(sw->p, st.type_id, &tlen);
		u = pd_profile_text(sw->p, st.unit_id, &ulen);
	}
	sw->scratch.n = 0;
	if (pd_strbuf_add(&sw->scratch, type && tlen ? type : "samples", type && tlen ? tlen : 7) ||
	    (u && ulen && (pd_strbuf_add(&sw->scratch, " (", 2) || pd_strbuf_add(&sw->scratch, u, ulen) ||
	                   pd_strbuf_add(&sw->scratch, ")", 1))))
		sw->out.rc = sw->out.rc ? sw->out.rc : pd_out_error(sw->w, PROFDATA_ENOMEM, "speedscope: out of memory");
	pd_outbuf_json_string(&sw->out, sw->scratch.p ? sw->scratch.p : "", sw->scratch.n);
	*unit = speedscope_unit(u, ulen);
}

/*
 * The call tree's nodes depth first, siblings in name order: an order that
 * depends on the tree alone, not on the order its stacks came in, so that
 * what we write reads back and writes again byte for byte. t->order lists
 * each parent's children together (by parent, then name).
 */
static uint32_t *depth_first(const pd_call_tree *t)
{
	uint32_t *first = malloc(t->n * sizeof *first), *count = calloc(t->n, sizeof *count);
	uint32_t *stack = malloc(t->n * sizeof *stack), *out = malloc(t->n * sizeof *out);
	size_t top = 0, n = 0;
	if (!first || !count || !stack || !out) {
		free(out);
		out = NULL;
	}
	for (size_t k = 1; out && k < t->n; k++) {
		uint32_t parent = t->nodes[t->order[k]].parent;
		if (count[parent]++ == 0)
			first[parent] = (uint32_t)k;
	}
	if (out)
		stack[top++] = 0;
	while (out && top > 0) {
		uint32_t node = stack[--top];
		out[n++] = node;
		for (uint32_t c = count[node]; c-- > 0;)
			stack[top++] = t->order[first[node] + c];
	}
	free(first);
	free(count);
	free(stack);
	return out;
}

static int write_sampled(speedscope_writer *sw, size_t vi, size_t ntypes)
{
	pd_call_tree t;
	const char *unit;
	uint32_t *order = NULL;
	int rc = pd_call_tree_build(sw->p, vi, &t, pd_out_diag(sw->w), "speedscope");
	if (rc == 0 && (map_tree_names(sw, &t) || !(order = depth_first(&t))))
		rc = pd_out_error(sw->w, PROFDATA_ENOMEM, "speedscope: out of memory");
	if (rc) {
		pd_call_tree_free(&t);
		return rc;
	}
	begin_profile(sw);
	pd_outbuf_str(&sw->out, "{\"type\":\"sampled\",\"name\":");
	write_profile_name(sw, vi, ntypes, &unit);
	pd_outbuf_printf(&sw->out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRId64 ",\"samples\":[", unit,
	                 t.nodes[0].total > 0 ? t.nodes[0].total : 0);
	int first = 1;
	for (size_t k = 0; k < t.n && rc == 0; k++) {
		uint32_t i = order[k];
		if (i == 0 || t.nodes[i].self == 0)
			continue;
		pd_outbuf_str(&sw->out, first ? "\n" : ",\n");
		first = 0;
		if (write_chain(sw, &t, i))
			rc = pd_out_error(sw->w, PROFDATA_ENOMEM, "speedscope: out of memory");
	}
	pd_outbuf_str(&sw->out, "],\"weights\":[");
	first = 1;
	for (size_t k = 0; k < t.n; k++) {
		uint32_t i = order[k];
		if (i == 0 || t.nodes[i].self == 0)
			continue;
		pd_outbuf_printf(&sw->out, first ? "%" PRId64 : ",%" PRId64, t.nodes[i].self);
		first = 0;
	}
	pd_outbuf_str(&sw->out, "]}");
	free(order);
	pd_call_tree_free(&t);
	return rc ? rc : sw->out.rc;
}

static int frame_of_function(speedscope_writer *sw, uint64_t function_id, uint32_t *frame)
{
	sw->scratch.n = 0;
	int rc = pd_function_name(sw->p, function_id, &sw->scratch);
	if (rc == 0) {
		char num[40];
		int n = snprintf(num, sizeof num, "method 0x%" PRIx64, function_id);
		rc = pd_strbuf_add(&sw->scratch, num, (size_t)n);
	}
	if (rc < 0 || pd_intern_put(&sw->frames, sw->scratch.p, sw->scratch.n, frame) < 0)
		return PROFDATA_ENOMEM;
	return 0;
}

/* One evented profile: the calls c[from..to) of one thread. */
static int write_thread(speedscope_writer *sw, const pd_trace_call *c, size_t n)
{
	begin_profile(sw);
	sw->scratch.n = 0;
	if (pd_thread_name(sw->p, c[0].thread_serial, &sw->scratch))
		return PROFDATA_ENOMEM;
	pd_outbuf_str(&sw->out, "{\"type\":\"evented\",\"name\":");
	pd_outbuf_json_string(&sw->out, sw->scratch.p, sw->scratch.n);
	pd_outbuf_printf(&sw->out, ",\"unit\":\"nanoseconds\",\"startValue\":%" PRIu64 ",\"endValue\":%" PRIu64
	                 ",\"events\":[", c[0].time_ns, c[n - 1].time_ns);
	for (size_t i = 0; i < n; i++) {
		uint32_t frame;
		if (frame_of_function(sw, c[i].function_id, &frame))
			return PROFDATA_ENOMEM;
		pd_outbuf_printf(&sw->out, "%s\n{\"type\":\"%c\",\"frame\":%" PRIu32 ",\"at\":%" PRIu64 "}", i ? "," : "",
		                 c[i].open ? 'O' : 'C', frame, c[i].time_ns);
	}
	pd_outbuf_str(&sw->out, "]}");
	return sw->out.rc;
}

static int write_traces(speedscope_writer *sw)
{
	pd_trace_calls calls;
	int rc = pd_trace_calls_collect(sw->p, &calls);
	for (size_t from = 0; from < calls.n && rc == 0;) {
		size_t to = from;
		while (to < calls.n && calls.calls[to].thread_serial == calls.calls[from].thread_serial)
			to++;
		rc = write_thread(sw, calls.calls + from, to - from);
		from = to;
	}
	if (rc == 0 && calls.nunmatched)
		pd_out_warn(sw->w, "speedscope: %zu method exits without an entry left out", calls.nunmatched);
	pd_trace_calls_free(&calls);
	return rc == PROFDATA_ENOMEM ? pd_out_error(sw->w, rc, "speedscope: out of memory") : rc;
}

static void write_frames(speedscope_writer *sw)
{
	pd_outbuf_str(&sw->out, "],\n\"shared\":{\"frames\":[");
	for (uint32_t i = 0; i < sw->frames.n; i++) {
		size_t len;
		const char *s = pd_intern_str(&sw->frames, i, &len);
		pd_outbuf_str(&sw->out, i ? ",\n{\"name\":" : "\n{\"name\":");
		pd_outbuf_json_string(&sw->out, s, len);
		pd_outbuf_str(&sw->out, "}");
	}
	pd_outbuf_str(&sw->out, "]}}\n");
}

static int speedscope_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts)
{
	speedscope_writer sw;
	size_t ntypes = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES);
	size_t nsamples = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES);
	int rc = pd_need_samples(p, w, "speedscope");
	(void)opts;
	if (rc < 0)
		return rc;
	memset(&sw, 0, sizeof sw);
	sw.p = p;
	sw.w = w;
	sw.out.w = w;
	pd_outbuf_printf(&sw.out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	                 "\"exporter\":\"libprofdata %s\",\"name\":\"profile\",\"activeProfileIndex\":%zu,"
	                 "\"profiles\":[", profdata_version_string(), nsamples ? pd_sample_count_index(p) : 0);
	for (size_t vi = 0; vi < (ntypes ? ntypes : 1) && rc == 0 && nsamples; vi++)
		rc = write_sampled(&sw, vi, ntypes);
	if (rc == 0)
		rc = write_traces(&sw);
	if (rc == 0 && sw.nprofiles == 0)
		rc = write_sampled(&sw, 0, ntypes);
	if (rc == 0)
		write_frames(&sw);
	int out_rc = pd_outbuf_finish(&sw.out);
	pd_intern_free(&sw.frames);
	free(sw.tree_frame);
	free(sw.path);
	free(sw.scratch.p);
	return rc ? rc : out_rc;
}

#if PD_HAVE_YAJL
/* JSON naming speedscope's schema near its start (the app's exports and ours do, first or last of the keys). */
static int speedscope_bid(const unsigned char *buf, size_t len)
{
	static const char schema[] = "https://www.speedscope.app/file-format-schema.json";
	size_t n = sizeof schema - 1;
	size_t i = 0;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	if (i == len || buf[i] != '{')
		return 0;
	for (; i + n <= len; i++)
		if (buf[i] == 'h' && memcmp(buf + i, schema, n) == 0)
			return 90;
	return 0;
}
#endif

const struct profdata_format pd_format_speedscope = {
	.name = "speedscope",
	.description = "speedscope's JSON file format (sampled and evented profiles)",
	.extensions = (const char *const[]){ ".speedscope.json", NULL },
#if PD_HAVE_YAJL
	.bid = speedscope_bid,
	.decode = pd_speedscope_decode,
#endif
	.write_model = speedscope_write_model,
};
