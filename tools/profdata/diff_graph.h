/* SPDX-License-Identifier: Apache-2.0 */
/* The inputs of a differential flame graph, in one merge (diff_graph.c). */
#ifndef PROFDATA_TOOL_DIFF_GRAPH_H
#define PROFDATA_TOOL_DIFF_GRAPH_H

#define PROFDATA_EXPERIMENTAL
#include <profdata/profdata.h>

/*
 * Add `p` to `m` as NEW (is_base 0: its values under its own sample types)
 * or as BASE (1: under "base TYPE"), each sample carrying both sets of
 * columns, 0 in the other: 0, or an error (its message on `m`, or
 * PROFDATA_EINVAL for more than 128 sample types).
 */
int diff_graph_add(profdata_merge *m, const profdata_profile *p, int is_base);

#endif
