/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Samples that carry their times (perf script, V8 profiles, JFR) written as
 * what happened: per thread, in time order, each sample's stack holding
 * from its time until the thread's next sample, so a frame that stays on
 * the stack across samples is one event from its first sample to the
 * sample that no longer has it, as Chrome DevTools shows a CPU profile.
 * A thread's last sample lasts the profile's period (else the gap before
 * it, else 1 µs). Stacks are compared frame by frame from the root: what a
 * sample shares with the one before stays open.
 */
#include <stdlib.h>
#include <string.h>

#include "codecs/chrome-trace/chrome_trace.h"
#include "analysis/stacks.h"
#include "util/text.h"

typedef struct timed_sample {
	uint32_t thread;
	uint32_t index;            /* in the samples table */
	uint64_t time_ns;
} timed_sample;

typedef struct timeline {
	trace_writer *tw;
	int pid;
	pd_frame_names names;
	timed_sample *v;
	size_t n;
	uint32_t *open, *chain;    /* frame indexes root first: open now, and this sample's */
	size_t nopen, nchain, cap;
	uint64_t last_ns, gap_ns;  /* the thread's last event time, and its last gap between samples */
} timeline;

int pd_ct_samples_timed(const profdata_profile *p)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES);
	for (size_t i = 0; i < n; i++) {
		profdata_sample s;
		if (profdata_profile_sample(p, i, &s) || s.time_ns == 0)
			return 0;
	}
	return n > 0;
}

static int by_thread_then_time(const void *a, const void *b)
{
	const timed_sample *x = a, *y = b;
	if (x->thread != y->thread)
		return pd_order_u64(x->thread, y->thread);
	if (x->time_ns != y->time_ns)
		return pd_order_u64(x->time_ns, y->time_ns);
	return pd_order_u64(x->index, y->index);
}

/* The profile's period in nanoseconds when it is a time; 0 otherwise. */
static uint64_t period_ns(const profdata_profile *p)
{
	const profdata_meta *m = profdata_profile_meta(p);
	uint64_t ns = pd_time_unit_ns(m->period_unit, m->period_unit ? strlen(m->period_unit) : 0);
	return m->period <= UINT64_MAX / (ns ? ns : 1) ? m->period * ns : 0;
}

static void frame_event(timeline *tl, int begin, uint32_t thread, uint32_t fi, uint64_t ns)
{
	size_t len = 9;
	const char *name = fi == UINT32_MAX ? "[unknown]" : pd_frame_name(&tl->names, fi, &len);
	pd_ct_span_start(tl->tw, begin, tl->pid, thread);
	pd_ct_ts_ns(tl->tw, ns);
	pd_ct_span_end(tl->tw, name, len, pd_ct_kind_category(fi == UINT32_MAX ? 0 : tl->names.kind[fi]));
}

/* Sample k's frames, root first, into tl->chain. 0 or PROFDATA_ENOMEM. */
static int chain_of(timeline *tl, size_t k)
{
	const profdata_profile *p = tl->tw->p;
	profdata_sample s;
	profdata_stack st;
	size_t si;
	tl->nchain = 0;
	if (profdata_profile_sample(p, tl->v[k].index, &s) || profdata_profile_find_stack(p, s.stack_serial, &si) ||
	    profdata_profile_stack(p, si, &st))
		return 0; /* a sample without its stack: an empty one */
	if (st.nframes > tl->cap) {
		size_t cap = tl->cap;
		if (pd_grow((void **)&tl->open, &cap, st.nframes, sizeof *tl->open) ||
		    pd_grow((void **)&tl->chain, &tl->cap, st.nframes, sizeof *tl->chain))
			return PROFDATA_ENOMEM;
	}
	for (size_t j = st.nframes; j-- > 0;) {
		size_t fi;
		tl->chain[tl->nchain++] = profdata_profile_find_frame(p, st.frame_ids[j], &fi) ? UINT32_MAX : (uint32_t)fi;
	}
	return 0;
}

/* Close what the sample does not share with the ones open, open the rest, at `ns`. */
static void step_to(timeline *tl, uint32_t thread, uint64_t ns)
{
	size_t common = 0;
	while (common < tl->nopen && common < tl->nchain && tl->open[common] == tl->chain[common])
		common++;
	while (tl->nopen > common)
		frame_event(tl, 0, thread, tl->open[--tl->nopen], ns);
	for (; tl->nopen < tl->nchain; tl->nopen++) {
		tl->open[tl->nopen] = tl->chain[tl->nopen];
		frame_event(tl, 1, thread, tl->open[tl->nopen], ns);
	}
}

/* The end of a thread: its last sample lasts the period, else the gap before it, else 1 µs. */
static void close_thread(timeline *tl, uint32_t thread, uint64_t period)
{
	tl->nchain = 0;
	step_to(tl, thread, tl->last_ns + (period ? period : tl->gap_ns ? tl->gap_ns : 1000));
}

/* A sample's time from the origin, after the thread's event before it when it ties (as traces move ties). */
static uint64_t sample_time(timeline *tl, size_t k, int first)
{
	trace_writer *tw = tl->tw;
	uint64_t ns = tl->v[k].time_ns - tw->samples_origin_ns;
	if (!first && ns <= tl->last_ns) {
		uint64_t moved = tl->last_ns + 1 - ns;
		tw->nmoved++;
		if (moved > tw->max_moved_ns)
			tw->max_moved_ns = moved;
		ns = tl->last_ns + 1;
	}
	if (!first)
		tl->gap_ns = ns - tl->last_ns;
	return ns;
}

static int write_threads(timeline *tl)
{
	trace_writer *tw = tl->tw;
	uint64_t period = period_ns(tw->p);
	for (size_t k = 0; k < tl->n; k++) {
		uint32_t thread = tl->v[k].thread;
		int first = k == 0 || tl->v[k - 1].thread != thread;
		if (first && k > 0)
			close_thread(tl, tl->v[k - 1].thread, period);
		if (first) {
			tw->scratch.n = 0;
			if (pd_thread_name(tw->p, thread, &tw->scratch))
				return PROFDATA_ENOMEM;
			pd_ct_metadata(tw, "thread_name", tl->pid, thread, tw->scratch.p, tw->scratch.n);
			tl->gap_ns = 0;
		}
		uint64_t ns = sample_time(tl, k, first);
		if (chain_of(tl, k))
			return PROFDATA_ENOMEM;
		step_to(tl, thread, ns);
		tl->last_ns = ns;
		if (tw->out.rc)
			return tw->out.rc;
	}
	if (tl->n)
		close_thread(tl, tl->v[tl->n - 1].thread, period);
	return tw->out.rc;
}

static int collect(timeline *tl)
{
	const profdata_profile *p = tl->tw->p;
	tl->n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES);
	tl->v = malloc((tl->n ? tl->n : 1) * sizeof *tl->v);
	if (!tl->v || tl->n > UINT32_MAX)
		return PROFDATA_ENOMEM;
	uint64_t origin = UINT64_MAX;
	for (size_t i = 0; i < tl->n; i++) {
		profdata_sample s;
		profdata_profile_sample(p, i, &s);
		tl->v[i] = (timed_sample){ .thread = s.thread_serial, .index = (uint32_t)i, .time_ns = s.time_ns };
		if (s.time_ns < origin)
			origin = s.time_ns;
	}
	tl->tw->samples_origin_ns = origin; /* ts 0 */
	if (tl->n > 1)
		qsort(tl->v, tl->n, sizeof *tl->v, by_thread_then_time);
	return 0;
}

int pd_ct_write_timeline(trace_writer *tw, int pid)
{
	timeline tl;
	memset(&tl, 0, sizeof tl);
	tl.tw = tw;
	tl.pid = pid;
	int rc = collect(&tl);
	if (rc == 0)
		rc = pd_frame_names_render(tw->p, &tl.names);
	if (rc == 0) {
		pd_ct_metadata(tw, "process_name", pid, 0, "samples", 7);
		rc = write_threads(&tl);
	}
	pd_frame_names_free(&tl.names);
	PD_FREE_ALL(tl.v, tl.open, tl.chain);
	return rc;
}
