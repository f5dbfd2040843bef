/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Trace Event Format writer's shared pieces: the writer's state and the
 * parts of every event (chrome-trace.c), used by the traces' and the call
 * tree's layouts there and by the samples' timeline (timeline.c).
 */
#ifndef PD_CODECS_CHROME_TRACE_H
#define PD_CODECS_CHROME_TRACE_H

#include "internal.h"

typedef struct trace_writer {
	const profdata_profile *p;
	profdata_writer *w;
	pd_outbuf out;
	pd_strbuf scratch;
	int nevents;
	uint64_t origin_ns;        /* the trace's first time: ts 0 */
	size_t nmoved;             /* events moved after a tie */
	uint64_t max_moved_ns;
	uint64_t samples_origin_ns; /* the first timed sample's time: the timeline's ts 0; 0 none */
} trace_writer;

/* A metadata event ("process_name", "thread_name") naming pid/tid `name`. */
void pd_ct_metadata(trace_writer *tw, const char *what, int pid, uint32_t tid, const char *name, size_t len);
/* "jvm", "native", "kernel" or "unknown" for a pd_frame_kind: the events' "cat". */
const char *pd_ct_kind_category(int kind);
/* A begin or end event up to its "ts" value; then the ts, then pd_ct_span_end. */
void pd_ct_span_start(trace_writer *tw, int begin, int pid, uint32_t tid);
void pd_ct_span_end(trace_writer *tw, const char *name, size_t len, const char *category);
/* Nanoseconds as microseconds with three decimals, exactly. */
void pd_ct_ts_ns(trace_writer *tw, uint64_t ns);

/*
 * Whether every sample has a time: then the samples are written as a
 * timeline (pd_ct_write_timeline) rather than as their call tree.
 */
int pd_ct_samples_timed(const profdata_profile *p);
/* The samples of each thread in time order as nested events of process `pid`. 0 or an error code. */
int pd_ct_write_timeline(trace_writer *tw, int pid);

#endif
