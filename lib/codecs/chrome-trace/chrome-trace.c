/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Trace Event Format (JSON object form) that chrome://tracing, Perfetto
 * UI and speedscope open, export only:
 *
 *   {"traceEvents": [ metadata (process_name, thread_name),
 *                     B/E events, "ts" in microseconds ], "displayTimeUnit": "ns",
 *    "otherData": {...}}
 *
 * A trace's method entries and exits are begin/end events of their thread at
 * their own times, one process for the trace. Times count from the trace's
 * first event (the origin goes in otherData) and are written from integer
 * nanoseconds: viewers parse "ts" as a double, which holds microseconds
 * since 1970 only to a quarter microsecond or so, and then sort by it.
 * Within a thread each event comes strictly after the one before (moved by
 * a nanosecond where stamps tie): speedscope sorts begins and ends apart,
 * and at a tie it can end a zero-length call before beginning it. Samples
 * that carry their times are laid out on their threads' timelines
 * (timeline.c). Other samples have no place in the
 * format (its "samples" list is not read by the viewers): their call tree
 * (analysis/stacks.h, folded's chains) is laid out as nested events of one
 * thread, each frame as long as its value (time units converted, counts at
 * 1 µs each), and what that loses is said as a warning on the writer. See
 * doc/formats-chrome-trace.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "analysis/samples.h"
#include "analysis/stacks.h"
#include "codecs/chrome-trace/chrome_trace.h"
#include "util/text.h"

extern const struct profdata_format pd_format_chrome_trace;

/* ---- the pieces of every event ---- */

static void event_start(trace_writer *tw)
{
	pd_outbuf_str(&tw->out, tw->nevents++ ? ",\n" : "\n");
}

void pd_ct_metadata(trace_writer *tw, const char *what, int pid, uint32_t tid, const char *name, size_t len)
{
	event_start(tw);
	pd_outbuf_printf(&tw->out, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRIu32 ",\"args\":{\"name\":",
	                 what, pid, tid);
	pd_outbuf_json_string(&tw->out, name, len);
	pd_outbuf_str(&tw->out, "}}");
}

const char *pd_ct_kind_category(int kind)
{
	switch (kind) {
	case PD_FRAME_JVM: return "jvm";
	case PD_FRAME_NATIVE: return "native";
	case PD_FRAME_KERNEL: return "kernel";
	default: return "unknown";
	}
}

/*
 * The start of one begin or end, up to its "ts". Ends carry their name too:
 * viewers that sort begins and ends apart (speedscope) pair them by name.
 */
void pd_ct_span_start(trace_writer *tw, int begin, int pid, uint32_t tid)
{
	event_start(tw);
	pd_outbuf_printf(&tw->out, "{\"ph\":\"%c\",\"pid\":%d,\"tid\":%" PRIu32 ",\"ts\":", begin ? 'B' : 'E', pid,
	                 tid);
}

void pd_ct_span_end(trace_writer *tw, const char *name, size_t len, const char *category)
{
	pd_outbuf_printf(&tw->out, ",\"cat\":\"%s\",\"name\":", category);
	pd_outbuf_json_string(&tw->out, name, len);
	pd_outbuf_str(&tw->out, "}");
}


/* ---- traces ---- */

/* Nanoseconds as microseconds with three decimals, exactly (no double on the way). */
void pd_ct_ts_ns(trace_writer *tw, uint64_t ns)
{
	pd_outbuf_printf(&tw->out, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static uint64_t trace_origin(const pd_trace_calls *calls)
{
	uint64_t origin = UINT64_MAX;
	for (size_t i = 0; i < calls->n; i++)
		if (calls->calls[i].time_ns < origin)
			origin = calls->calls[i].time_ns;
	return calls->n ? origin : 0;
}

/* The call's time from the origin, after `*last` (the thread's previous event) when it ties with it. */
static uint64_t call_time(trace_writer *tw, const pd_trace_call *c, int first, uint64_t *last)
{
	uint64_t ns = c->time_ns - tw->origin_ns;
	if (!first && ns <= *last && *last < UINT64_MAX) {
		uint64_t moved = *last + 1 - ns;
		tw->nmoved++;
		if (moved > tw->max_moved_ns)
			tw->max_moved_ns = moved;
		ns = *last + 1;
	}
	*last = ns;
	return ns;
}

static int write_calls(trace_writer *tw, const pd_trace_calls *calls, int pid)
{
	uint32_t last_thread = 0;
	uint64_t last_ns = 0;
	tw->origin_ns = trace_origin(calls);
	for (size_t i = 0; i < calls->n; i++) {
		const pd_trace_call *c = &calls->calls[i];
		int first = i == 0 || c->thread_serial != last_thread;
		if (first) {
			tw->scratch.n = 0;
			if (pd_thread_name(tw->p, c->thread_serial, &tw->scratch))
				return PROFDATA_ENOMEM;
			pd_ct_metadata(tw, "thread_name", pid, c->thread_serial, tw->scratch.p, tw->scratch.n);
			last_thread = c->thread_serial;
		}
		tw->scratch.n = 0;
		int rc = pd_function_name(tw->p, c->function_id, &tw->scratch);
		if (rc == 0) {
			char num[40];
			int n = snprintf(num, sizeof num, "method 0x%" PRIx64, c->function_id);
			rc = pd_strbuf_add(&tw->scratch, num, (size_t)n);
		}
		if (rc < 0)
			return PROFDATA_ENOMEM;
		pd_ct_span_start(tw, c->open, pid, c->thread_serial);
		pd_ct_ts_ns(tw, call_time(tw, c, first, &last_ns));
		pd_ct_span_end(tw, tw->scratch.p, tw->scratch.n, "method");
	}
	return tw->out.rc;
}

/* ---- samples ---- */

/* Microseconds per value unit: time units as they are, anything else (counts, bytes) 1 µs per unit. */
static double us_per_unit(const profdata_profile *p, size_t vi)
{
	size_t len;
	const char *unit = pd_sample_unit(p, vi, &len);
	uint64_t ns = pd_time_unit_ns(unit, len);
	return ns ? (double)ns / 1000 : 1;
}

/* One frame's begin or end on the call tree's thread (tid 1), at `us` microseconds. */
static void span_us(trace_writer *tw, int begin, int pid, double us, const char *name, size_t len,
                    const char *category)
{
	pd_ct_span_start(tw, begin, pid, 1);
	pd_outbuf_printf(&tw->out, "%.3f", us);
	pd_ct_span_end(tw, name, len, category);
}

/* Depth first, so that each frame's begin and end enclose its callees' (viewers sort stably by time). */
static int write_tree(trace_writer *tw, const pd_call_tree *t, int pid, double scale)
{
	uint32_t *first = malloc(t->n * sizeof *first), *next = malloc(t->n * sizeof *next);
	uint32_t *stack = malloc((t->max_depth + 2) * sizeof *stack), *cursor = malloc(t->n * sizeof *cursor);
	int rc = 0;
	if (!first || !next || !stack || !cursor)
		rc = PROFDATA_ENOMEM;
	for (size_t i = 0; i < t->n && rc == 0; i++)
		first[i] = next[i] = UINT32_MAX;
	/* order lists siblings by name: link them back to front */
	for (size_t k = t->n; k-- > 1 && rc == 0;) {
		uint32_t i = t->order[k];
		next[i] = first[t->nodes[i].parent];
		first[t->nodes[i].parent] = i;
	}
	size_t depth = 0;
	if (rc == 0) {
		stack[depth++] = 0;
		cursor[0] = first[0];
	}
	while (depth > 0 && rc == 0) {
		uint32_t top = stack[depth - 1], child = cursor[top];
		if (child == UINT32_MAX) {
			const pd_call_node *n = &t->nodes[top];
			size_t len;
			const char *name = pd_call_node_name(t, n, &len);
			if (top != 0)
				span_us(tw, 0, pid, ((double)n->x + (double)n->total) * scale, name, len,
				        pd_ct_kind_category(n->kind));
			depth--;
			continue;
		}
		cursor[top] = next[child];
		const pd_call_node *n = &t->nodes[child];
		if (n->total <= 0)
			continue;
		size_t len;
		const char *name = pd_call_node_name(t, n, &len);
		span_us(tw, 1, pid, (double)n->x * scale, name, len, pd_ct_kind_category(n->kind));
		stack[depth++] = child;
		cursor[child] = first[child];
		rc = tw->out.rc;
	}
	free(first), free(next), free(stack), free(cursor);
	return rc ? rc : tw->out.rc;
}

static int write_samples(trace_writer *tw, const pd_options *opts, int pid)
{
	size_t ntypes = profdata_profile_count(tw->p, PROFDATA_TABLE_SAMPLE_TYPES);
	long long vi = (long long)pd_sample_count_index(tw->p);
	if (pd_options_get(opts, "value")) {
		if (pd_options_int(opts, "value", 0, 0, 1000000, &vi, pd_out_diag(tw->w)))
			return PROFDATA_EINVAL;
		if ((size_t)vi >= (ntypes ? ntypes : 1))
			return pd_out_error(tw->w, PROFDATA_EINVAL, "chrome-trace: value=%lld, but the profile has %zu "
			                    "sample types", vi, ntypes);
	}
	pd_call_tree t;
	int rc = pd_call_tree_build(tw->p, (size_t)vi, &t, pd_out_diag(tw->w), "chrome-trace");
	if (rc == 0) {
		size_t ulen;
		const char *unit = pd_sample_unit(tw->p, (size_t)vi, &ulen);
		double scale = us_per_unit(tw->p, (size_t)vi);
		pd_ct_metadata(tw, "process_name", pid, 0, "samples", 7);
		tw->scratch.n = 0;
		if (pd_strbuf_add(&tw->scratch, "call tree (", 11) || pd_strbuf_add(&tw->scratch, unit, ulen) ||
		    pd_strbuf_add(&tw->scratch, ")", 1))
			rc = PROFDATA_ENOMEM;
		else
			pd_ct_metadata(tw, "thread_name", pid, 1, tw->scratch.p, tw->scratch.n);
		if (rc == 0)
			rc = write_tree(tw, &t, pid, scale);
		int singular = ulen == 7 && memcmp(unit, "samples", 7) == 0;  /* "per sample" */
		if (rc == 0)
			pd_out_warn(tw->w, "chrome-trace: the samples' times and threads are not kept: their call tree is "
			            "laid out as nested events, %g us per %.*s%s", scale, (int)(singular ? 6 : ulen), unit,
			            ntypes > 1 ? "; the other sample types are left out (value=N picks one)" : "");
	}
	pd_call_tree_free(&t);
	return rc == PROFDATA_ENOMEM ? pd_out_error(tw->w, rc, "chrome-trace: out of memory") : rc;
}

/*
 * Samples with times: each thread's timeline (timeline.c), unless
 * layout=tree asks for the call tree. 1 when written so (or an error), 0
 * when the call tree is to be written.
 */
static int write_timeline(trace_writer *tw, const pd_options *opts, int pid, int *rc)
{
	const char *layout = pd_options_get(opts, "layout");
	if (layout && strcmp(layout, "tree") != 0 && strcmp(layout, "timeline") != 0) {
		*rc = pd_out_error(tw->w, PROFDATA_EINVAL, "chrome-trace: layout=%s: timeline or tree", layout);
		return 1;
	}
	if ((layout && strcmp(layout, "tree") == 0) || !pd_ct_samples_timed(tw->p))
		return 0;
	size_t nmoved = tw->nmoved;
	*rc = pd_ct_write_timeline(tw, pid);
	if (*rc == PROFDATA_ENOMEM)
		*rc = pd_out_error(tw->w, *rc, "chrome-trace: out of memory");
	if (*rc == 0)
		pd_out_warn(tw->w, "chrome-trace: each sample is laid out on its thread's timeline until the thread's "
		            "next sample: the samples' values are not kept%s",
		            tw->nmoved > nmoved ? "; samples that tied with the one before moved a nanosecond later" : "");
	return 1;
}

static int chrome_trace_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts)
{
	trace_writer tw;
	pd_trace_calls calls;
	int refused = pd_need_samples(p, w, "chrome-trace");
	if (refused < 0)
		return refused;
	memset(&tw, 0, sizeof tw);
	tw.p = p;
	tw.w = w;
	tw.out.w = w;
	int rc = pd_trace_calls_collect(p, &calls);
	if (rc)
		rc = pd_out_error(w, rc, "chrome-trace: out of memory");
	pd_outbuf_str(&tw.out, "{\"traceEvents\":[");
	if (rc == 0 && calls.n) {
		pd_ct_metadata(&tw, "process_name", 1, 0, "trace", 5);
		rc = write_calls(&tw, &calls, 1);
		if (rc == PROFDATA_ENOMEM)
			rc = pd_out_error(w, rc, "chrome-trace: out of memory");
		if (rc == 0 && calls.nunmatched)
			pd_out_warn(w, "chrome-trace: %zu method exits without an entry left out", calls.nunmatched);
		if (rc == 0 && tw.nmoved)
			pd_out_warn(w, "chrome-trace: %zu events that tied with the one before on their thread moved "
			            "later, by at most %" PRIu64 " ns (viewers order a thread's events by time alone)",
			            tw.nmoved, tw.max_moved_ns);
	}
	if (rc == 0 && profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) &&
	    !write_timeline(&tw, opts, calls.n ? 2 : 1, &rc))
		rc = write_samples(&tw, opts, calls.n ? 2 : 1);
	pd_outbuf_printf(&tw.out, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":\"libprofdata %s\"",
	                 profdata_version_string());
	if (calls.n)  /* a string: a JSON number would come back as a double */
		pd_outbuf_printf(&tw.out, ",\"trace_origin_ns\":\"%" PRIu64 "\"", tw.origin_ns);
	if (tw.samples_origin_ns)
		pd_outbuf_printf(&tw.out, ",\"samples_origin_ns\":\"%" PRIu64 "\"", tw.samples_origin_ns);
	pd_outbuf_str(&tw.out, "}}\n");
	int out_rc = pd_outbuf_finish(&tw.out);
	pd_trace_calls_free(&calls);
	free(tw.scratch.p);
	return rc ? rc : out_rc;
}

const struct profdata_format pd_format_chrome_trace = {
	.name = "chrome-trace",
	.description = "Trace Event Format JSON (chrome://tracing, Perfetto UI, speedscope)",
	.extensions = (const char *const[]){ ".trace.json", NULL },
	.write_model = chrome_trace_write_model,
	.write_options = (const char *const[]){ "layout", "value", NULL },
};
