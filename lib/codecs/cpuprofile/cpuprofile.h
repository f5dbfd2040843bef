/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cpuprofile reader's state, shared by decode.c (the JSON pass, which
 * keeps the nodes and where the samples are) and emit.c (the events).
 */
#ifndef PD_CODECS_CPUPROFILE_H
#define PD_CODECS_CPUPROFILE_H

#include "internal.h"
#include "util/hashmap.h"
#include "util/json.h"
#include "util/relay.h"

/* A call frame: a function of the model (id index + 1), and a frame of the same id. */
typedef struct js_function {
	uint32_t name, url;        /* string indexes in cpu_decoder.strings */
	int32_t line, column;      /* V8's 0-based ones; -1 none */
} js_function;

typedef struct js_node {
	uint64_t id;
	uint32_t function;         /* index in functions; UINT32_MAX before its callFrame */
	uint32_t parent;           /* node index + 1; 0 none */
	uint32_t profile;          /* index in profiles */
	uint8_t has_id;
} js_node;

/* A list naming other nodes: a node's children (or its parent, in trace chunks). */
typedef struct js_edge {
	uint32_t node;             /* the node that names the other */
	uint8_t is_parent;         /* `other` is its parent (else a child) */
	uint64_t other;            /* the id named */
	uint64_t at;               /* offset of the node, for messages */
} js_edge;

/* Where one profile's (or chunk's) samples and time deltas are: '[' to past ']', p NULL none. */
typedef struct js_chunk {
	uint32_t profile;
	const unsigned char *samples, *samples_end, *deltas, *deltas_end;
} js_chunk;

typedef struct js_profile {
	uint64_t pid, tid;
	uint32_t id;               /* the trace event's "id" (string index), UINT32_MAX for a .cpuprofile */
	int64_t time_us;           /* startTime, then the last sample's time */
	uint32_t thread;           /* thread serial; 0 for a .cpuprofile */
	uint32_t *rows;            /* node id -> node index + 1, when its ids are dense (V8's are 1, 2, ...) */
	uint64_t nrows;
} js_profile;

typedef struct cpu_decoder {
	const pd_decode_args *a;
	profdata_reader *in;
	const unsigned char *base;
	size_t size;
	pd_intern strings;         /* names and urls; string id = index + 1 */
	pd_intern callframes;      /* a call frame's fields as bytes -> function index */
	js_function *functions;
	js_node *nodes;
	js_edge *edges;
	js_chunk *chunks;
	js_profile *profiles;
	size_t nfunctions, functions_cap, nnodes, nodes_cap, nedges, edges_cap, nchunks, chunks_cap;
	size_t nprofiles, profiles_cap;
	pd_map node_of;            /* profile << 44 | node id -> node index + 1 */
	unsigned char *sent;       /* node index -> its stack was emitted (apart from the nodes: one cache line holds 64) */
	uint64_t *frame_ids;       /* scratch: a stack */
	size_t frames_cap;
	uint64_t nframes_out;      /* frames of the stacks emitted so far (bounded: emit.c) */
	uint32_t root_name;        /* "(root)"'s string index + 1; 0 none */
	int rc;                    /* what stopped the parse */
} cpu_decoder;

/* A node's key in cpu_decoder.node_of: its profile and its id (below 2^44). */
static inline uint64_t pd_cpuprofile_node_key(uint32_t profile, uint64_t id)
{
	return (uint64_t)profile << 44 | id;
}

/* ---- the samples, read a batch at a time (samples.c) ---- */

enum { CPU_BATCH = 2048, CPU_BATCH_SLOTS = 4 };

/* What stopped a batch short: nothing, a sample of a node the profile lacks, a bad delta, a bad sample. */
enum { CPU_FAULT_NONE, CPU_FAULT_NODE, CPU_FAULT_DELTA, CPU_FAULT_SAMPLE };

typedef struct cpu_batch {
	size_t chunk;              /* index in cpu_decoder.chunks */
	size_t n;                  /* samples to emit: nodes[] and deltas[] */
	size_t missing;            /* samples read without a time delta (0 taken); only read when nothing faulted */
	int fault;                 /* what follows them */
	uint64_t fault_at;         /* a bad value's offset */
	int64_t fault_id;          /* the node id the profile lacks */
	pd_json_ints from;         /* the samples' cursor before the batch, to find a sample's offset again */
	int64_t ids[CPU_BATCH], deltas[CPU_BATCH];
	uint32_t nodes[CPU_BATCH]; /* node index + 1 */
} cpu_batch;

/* A chunk's cursors, and what stopped each (pd_json_ints_take). */
typedef struct cpu_chunk_cursor {
	pd_json_ints s, t;
	int s_stop, t_stop;
} cpu_chunk_cursor;

/* The samples of every chunk in turn: the batches, and the thread that fills them when there is one. */
typedef struct cpu_samples {
	const cpu_decoder *d;
	size_t chunk;              /* the chunk being read */
	int open;                  /* its cursor is set */
	cpu_chunk_cursor cc;
	int last;                  /* the batch filled last was the last one */
	cpu_batch *batches;        /* CPU_BATCH_SLOTS of them */
	pd_relay relay;
	int ahead;                 /* the relay's thread fills them */
} cpu_samples;

/* Begin reading d's samples: 0 or PROFDATA_ENOMEM. */
int pd_cpuprofile_samples_start(cpu_samples *s, const cpu_decoder *d);
/* The next batch, or NULL after the last (valid until the next call). */
const cpu_batch *pd_cpuprofile_samples_next(cpu_samples *s);
/* Stop reading: safe after a failed start. */
void pd_cpuprofile_samples_stop(cpu_samples *s);
/* Where sample `index` of batch b ends in the input: for messages, read again. */
uint64_t pd_cpuprofile_sample_at(const cpu_decoder *d, const cpu_batch *b, size_t index);

int pd_cpuprofile_decode(const pd_decode_args *a);
/* The events, once the JSON pass has kept the nodes and found the samples (emit.c). */
int pd_cpuprofile_emit(cpu_decoder *d);
/* A message at input offset `at` (d->rc set); returns the code. */
int pd_cpuprofile_fail(cpu_decoder *d, uint64_t at, int code, const char *fmt, ...) PD_PRINTF(4, 5);
/* A string's index + 1, added if new; 0 on ENOMEM. */
uint32_t pd_cpuprofile_string(cpu_decoder *d, const char *s, size_t len);

#endif
