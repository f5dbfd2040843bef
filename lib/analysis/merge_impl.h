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

#endif
