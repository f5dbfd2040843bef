/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: profiles of samples merged into one, as pprof merges them:
 * samples with equal stacks and labels summed; functions, frames (pprof's
 * locations), mappings and strings kept once; sample types made to agree
 * by keeping those every input has (pprof's CompatibilizeSampleTypes);
 * the period the largest, in the first input's unit. A frame keeps the
 * kind (profdata_frame_kind) its inputs agree on, unknown where two
 * disagree; a stack is cut short (profdata_stack_truncated) when every
 * input's stack of those frames was.
 *
 * A profdata_merge is an accumulator fed one input at a time: decode each
 * input straight into it (profdata_decode() with profdata_merge_events()),
 * or add a profile already read (profdata_merge_add()). Its memory grows
 * with the distinct stacks, frames and label sets, never with the number
 * or size of the inputs. Merging is associative and commutative: a merge
 * replayed into another adds the same sums as its inputs would.
 *
 * Experimental (0.3): declared only when PROFDATA_EXPERIMENTAL is defined
 * before including (doc/conventions.md, "The experimental tier").
 *
 * Threads: a profdata_merge is used from one thread at a time. It borrows
 * nothing: an input may be freed once it has been added.
 */
#ifndef PROFDATA_MERGE_H
#define PROFDATA_MERGE_H

#include <profdata/common.h>
#include <profdata/events.h>
#include <profdata/model.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef PROFDATA_EXPERIMENTAL

typedef struct profdata_merge profdata_merge;

/* An empty accumulator in *out, the caller's (profdata_merge_free). 0 or PROFDATA_ENOMEM (*out NULL). */
PROFDATA_EXPERIMENTAL_API int profdata_merge_new(profdata_merge **out);

/*
 * The events that add one input to a merge, its payload the merge: each
 * begin ... end is one input. Borrowed from the library, valid forever.
 * A callback that fails returns the error and leaves its message on the
 * merge (profdata_merge_error()).
 */
PROFDATA_EXPERIMENTAL_API const profdata_events *profdata_merge_events(void);

/* Add the samples of `p` (replayed into profdata_merge_events()): 0 or an error, its message on `m`. */
PROFDATA_EXPERIMENTAL_API int profdata_merge_add(profdata_merge *m, const profdata_profile *p);

/*
 * Add the samples of `p` as one side of a differential flame graph (what
 * `profdata diff BASE NEW -o OUT.svg` draws): each sample carries p's
 * sample types twice, NEW's values under the first set ("TYPE") and BASE's
 * under the second ("base TYPE"), 0 under the other set. Add NEW (is_base
 * 0), then BASE (1), to a new merge; the flamegraph writer then draws value
 * 0 against its base with the write options "value=0,base=N", N half the
 * merged profile's sample types. A scale (profdata_merge_set_scale) applies
 * by position to the 2N columns a side sends: set before NEW, its first N
 * factors scale NEW (as `diff --normalize` does). 0, or an error, its
 * message on `m` (PROFDATA_EINVAL for more than 128 sample types).
 */
PROFDATA_EXPERIMENTAL_API int profdata_merge_add_side(profdata_merge *m, const profdata_profile *p, int is_base);

/*
 * Multiply the values of the inputs added from now on by `factors`, one per
 * sample type of the input in its order (types past `n` by 1), rounding
 * half away from zero as pprof's ScaleN does; n 0 restores 1. A diff adds
 * NEW, then its base with -1 (go tool pprof -diff_base), or with -(NEW's
 * total / BASE's total) per type (-normalize). Copied. 0 or PROFDATA_ENOMEM.
 */
PROFDATA_EXPERIMENTAL_API int profdata_merge_set_scale(profdata_merge *m, const double *factors, size_t n);

/* How many inputs have been added. */
PROFDATA_EXPERIMENTAL_API size_t profdata_merge_inputs(const profdata_merge *m);

/*
 * Replay the merged profile to `events` with `payload`, in the order
 * profdata_profile_replay() gives (any encoder or the model's builder
 * accepts it): 0, or the first error a callback returned.
 */
PROFDATA_EXPERIMENTAL_API int profdata_merge_replay(const profdata_merge *m, const profdata_events *events,
                                                    void *payload);

/* The merged profile as a new model in *out, the caller's: 0 or an error (the model's message, if it was made). */
PROFDATA_EXPERIMENTAL_API int profdata_merge_profile(profdata_profile **out, const profdata_merge *m);

/* The last failure of `m` (borrowed until the next call on it), or NULL. */
PROFDATA_EXPERIMENTAL_API const profdata_error *profdata_merge_error(const profdata_merge *m);

/* Warnings (inputs without sample types in common...): how many, and each, borrowed. */
PROFDATA_EXPERIMENTAL_API size_t profdata_merge_warning_count(const profdata_merge *m);
PROFDATA_EXPERIMENTAL_API const profdata_error *profdata_merge_warning(const profdata_merge *m, size_t i);

/* NULL is a no-op. */
PROFDATA_EXPERIMENTAL_API void profdata_merge_free(profdata_merge *m);

#endif

#ifdef __cplusplus
}
#endif

#endif
