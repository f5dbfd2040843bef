/* SPDX-License-Identifier: Apache-2.0 */
/* What merge.c gives the other files of the merge (merge_sides.c). */
#ifndef PD_ANALYSIS_MERGE_IMPL_H
#define PD_ANALYSIS_MERGE_IMPL_H

#define PROFDATA_EXPERIMENTAL
#include <profdata/merge.h>

/*
 * An input's replay into `m` ended with rc: when it failed and the merge's
 * events left no message, say `what` (NULL: the code's own words). rc.
 */
int pd_merge_failed(profdata_merge *m, int rc, const char *what);

/*
 * Replay `p` to `events` (which reach m's own, profdata_merge_events()),
 * with m told that p's mappings and class loads are to go in before the
 * rows that name them (merge.c, feed_tables): the replay's return.
 */
int pd_merge_replay(profdata_merge *m, const profdata_profile *p, const profdata_events *events, void *payload);

#endif
