/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Transforms: filters that take events in and give events out, between a
 * decoder and what consumes its events (an encoder, or the model's builder).
 * They are not codecs: they read and write no bytes, and a format asks for
 * the ones it needs behind its decoder (struct profdata_format's
 * `read_transforms`: decoder -> transforms -> consumer, in profdata_read(),
 * profdata_decode() and profdata_convert() alike) and in front of its
 * encoder (`write_transforms`: events -> transforms -> encoder), which the
 * core chains (core/format.c).
 *
 * Written: refs_to_payloads, for HPROF (objects that list their references
 * get payloads); trace_stacks, in front of every encoder that wants samples
 * (folded, pprof, gperftools, HPROF): traces become call stacks;
 * sum_samples, in front of folded and flame graphs: a sample per stack. Read:
 * symbolize, behind the gperftools decoder when symbolize=... asks; filter
 * (pprof's focus, ignore, hide, prune_from), sample_type and top_stacks,
 * behind every decoder.
 */
#ifndef PD_TRANSFORM_H
#define PD_TRANSFORM_H

#include "internal.h"
#include "util/hashmap.h"

typedef struct pd_transform_desc {
	const char *name;
	/* Bytes of its state, which begins with a pd_transform_base: the chain allocates it zeroed and links it. */
	size_t state_size;
	/* The events it changes, the others passing straight on (pd_transform_base). */
	const profdata_events *events;
	/*
	 * The events it takes out of the stream (PD_EVENT_BIT()s): NULL in its
	 * table, so that a decoder need not make them (sum_samples: labels).
	 */
	uint64_t swallows;
	/*
	 * Set up the rest of a new state (NULL: nothing to set up). Errors and
	 * warnings go to `diag`; on an error the chain calls `free`.
	 */
	int (*init)(void *state, pd_diag *diag, const pd_options *opts);
	/* Pass on whatever is still held (NULL: nothing is); the downstream consumer is finished by the caller. */
	int (*finish)(void *state);
	/* Free what the state holds (NULL: nothing); the chain frees the state itself. */
	void (*free)(void *state);
	/*
	 * Whether the options ask for it (NULL: always): 1 yes, 0 no, or an
	 * error (said in `diag`) for options it cannot honour. The core asks
	 * before it builds a chain and leaves out those that answer 0.
	 */
	int (*wanted)(const pd_options *opts, pd_diag *diag);
} pd_transform_desc;

/*
 * What every transform's state begins with (its first member, named `base`):
 * where its events go, where it reports, and the table upstream calls: the
 * transform's own handlers (its desc's `events`, holding only the events it
 * changes) and, for every event that leaves NULL, one that passes it
 * straight on.
 */
typedef struct pd_transform_base {
	const profdata_events *down;
	void *down_payload;
	pd_diag *diag;
	profdata_events events;
} pd_transform_base;
/* Hand an event on from the transform whose state is `s` to what follows it. */
#define PD_DOWN(s, member, ...) \
	((s)->base.down->member ? (s)->base.down->member((s)->base.down_payload, __VA_ARGS__) : 0)
#define PD_DOWN0(s, member) ((s)->base.down->member ? (s)->base.down->member((s)->base.down_payload) : 0)

/* Transforms in front of a consumer, the first one receiving the events. */
typedef struct pd_transform_chain pd_transform_chain;

/*
 * Chain `descs` (NULL-terminated; NULL or empty gives a chain that hands the
 * consumer's own table back) in front of `down`, leaving out those whose
 * `wanted` answers 0 for `opts`.
 */
int pd_transform_chain_new(pd_transform_chain **out, const pd_transform_desc *const *descs,
                           const profdata_events *down, void *down_payload, pd_diag *diag, const pd_options *opts);
/* What upstream calls: the first transform's table and state, or `down`'s when there is none. */
const profdata_events *pd_transform_chain_events(const pd_transform_chain *c);
void *pd_transform_chain_payload(const pd_transform_chain *c);
/* Finish every transform, upstream first, so that each passes on what it held; the first error stops. */
int pd_transform_chain_finish(pd_transform_chain *c);
void pd_transform_chain_free(pd_transform_chain *c);

/* The transforms there are. */
extern const pd_transform_desc pd_transform_refs_to_payloads;
/*
 * Names native frames from the binaries (symbolize.c), when symbolize=1 or
 * auto asks (symbolize_option.c); options sysroot, debug_dir. In a build
 * without libdw it is only its gate, which refuses symbolize=1.
 */
extern const pd_transform_desc pd_transform_symbolize;
/* The gate: symbolize=1|yes|"" -> 1 (an error without libdw), auto -> 1 when built, 0|no|none|absent -> 0. */
int pd_symbolize_wanted(const pd_options *opts, pd_diag *diag);
/* The list for decoders of native profiles: symbolize alone. */
extern const pd_transform_desc *const pd_transforms_native[];
/* Traces (methodEntry/Exit pairs) to call stacks and samples (trace_stacks.c). */
extern const pd_transform_desc pd_transform_trace_stacks;
/*
 * pprof's filters of samples by frame name (filter.c): read options focus,
 * ignore, hide, prune_from (pd_filter_options, NULL-terminated), which
 * every format takes; the core puts it behind every decoder, after the
 * format's own read transforms, when one of them is given.
 */
extern const pd_transform_desc pd_transform_filter;
extern const char *const pd_filter_options[];
/*
 * One value per sample (sample_type.c: read option sample=NAME|INDEX|
 * default|all) and the N heaviest stacks (top_stacks.c: top_stacks=N),
 * which every format takes (pd_sample_options, NULL-terminated); the core
 * puts them behind the filter, in that order.
 */
extern const pd_transform_desc pd_transform_sample_type;
extern const pd_transform_desc pd_transform_top_stacks;
extern const char *const pd_sample_options[];

/*
 * The sample type pprof would show, chosen as events pass: `want` a name,
 * an index from 0, or "default" (NULL too): the type the meta comment
 * pprof.default_sample_type names, else the last. Feed it begin, the
 * strings and the sample types; resolve once they have all come.
 */
typedef struct pd_sample_choice {
	const char *want;   /* borrowed (the read options) */
	char *default_name; /* pprof.default_sample_type's value, or NULL */
	pd_map names;       /* string id -> which of want and default_name it spells */
	profdata_sample_type *types;
	size_t ntypes, types_cap;
} pd_sample_choice;
void pd_sample_choice_init(pd_sample_choice *c, const char *want);
void pd_sample_choice_free(pd_sample_choice *c);
int pd_sample_choice_begin(pd_sample_choice *c, const profdata_meta *m);
int pd_sample_choice_string(pd_sample_choice *c, uint64_t id, const char *utf8, size_t len);
int pd_sample_choice_type(pd_sample_choice *c, const profdata_sample_type *t);
/* The chosen type's index (0 without types), or PROFDATA_EINVAL said in `diag`. */
int pd_sample_choice_resolve(const pd_sample_choice *c, size_t *index, pd_diag *diag);
/* The list of the formats that write samples and nothing else needs: trace_stacks alone. */
extern const pd_transform_desc *const pd_transforms_samples[];
/*
 * Samples summed per stack, times, threads and labels left out
 * (sum_samples.c), and the list of the formats that want no more than
 * that (folded stacks, flame graphs): trace_stacks, then sum_samples.
 */
extern const pd_transform_desc pd_transform_sum_samples;
extern const pd_transform_desc *const pd_transforms_stacks[];

#endif
