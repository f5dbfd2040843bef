/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Transforms: filters that take events in and give events out, between a
 * decoder and what consumes its events (an encoder, or the model's builder).
 * They are not codecs: they read and write no bytes, and a format asks for
 * the ones it needs in front of its encoder (struct profdata_format's
 * `transforms`), which the core chains as decoder -> transforms -> encoder
 * (core/format.c).
 *
 * refs_to_payloads, for HPROF (objects that list their references get
 * payloads); trace_stacks, in front of every encoder that wants samples
 * (folded, pprof, gperftools, HPROF): traces become call stacks.
 */
#ifndef PD_TRANSFORM_H
#define PD_TRANSFORM_H

#include "internal.h"

typedef struct pd_transform_desc {
	const char *name;
	/*
	 * Create the transform in front of `down` (called with `down_payload`):
	 * *events is the table upstream calls, with *state as payload. Errors
	 * and warnings go to `diag`.
	 */
	int (*create)(void **state, const profdata_events **events, const profdata_events *down, void *down_payload,
	              pd_diag *diag, const pd_options *opts);
	/* Pass on whatever is still held; the downstream consumer is finished by the caller. */
	int (*finish)(void *state);
	void (*free)(void *state);
} pd_transform_desc;

/*
 * What every transform's state begins with (its first member, named `base`):
 * where its events go and the table upstream calls: pd_transform_base_init
 * makes that table the transform's own handlers (`own`, a table holding only
 * the events it changes) and, for every event `own` leaves NULL, one that
 * passes it straight on.
 */
typedef struct pd_transform_base {
	const profdata_events *down;
	void *down_payload;
	profdata_events events;
} pd_transform_base;
void pd_transform_base_init(pd_transform_base *base, const profdata_events *own, const profdata_events *down,
                            void *down_payload);
/* Hand an event on from the transform whose state is `s` to what follows it. */
#define PD_DOWN(s, member, ...) \
	((s)->base.down->member ? (s)->base.down->member((s)->base.down_payload, __VA_ARGS__) : 0)
#define PD_DOWN0(s, member) ((s)->base.down->member ? (s)->base.down->member((s)->base.down_payload) : 0)

/* Transforms in front of a consumer, the first one receiving the events. */
typedef struct pd_transform_chain pd_transform_chain;

/*
 * Chain `descs` (NULL-terminated; NULL or empty gives a chain that hands the
 * consumer's own table back) in front of `down`.
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
/* Names native frames from the binaries (symbolize.c); only built with PD_HAVE_SYMBOLIZE. Options: sysroot, debug_dir. */
extern const pd_transform_desc pd_transform_symbolize;
/* Traces (methodEntry/Exit pairs) to call stacks and samples (trace_stacks.c). */
extern const pd_transform_desc pd_transform_trace_stacks;
/* The list of the formats that write samples and nothing else needs: trace_stacks alone. */
extern const pd_transform_desc *const pd_transforms_samples[];

#endif
