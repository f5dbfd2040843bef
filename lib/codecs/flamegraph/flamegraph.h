/* SPDX-License-Identifier: Apache-2.0 */
/* What the flame graph's writer (flamegraph.c) and its embedded script (script.c) share. */
#ifndef PD_CODECS_FLAMEGRAPH_H
#define PD_CODECS_FLAMEGRAPH_H

#include <stddef.h>

#include "internal.h"
#include "analysis/stacks.h"
#include "util/hashmap.h"

/* The ECMAScript the SVG embeds, as lines (one long literal would pass C99's limits). */
extern const char *const pd_flamegraph_script[];
extern const size_t pd_flamegraph_script_lines;

/*
 * The call tree of value `value_index` as far as a picture `px_width`
 * pixels wide, drawing frames at least `min_width` pixels wide, shows it
 * (visible.c): every node pd_call_tree_build() would make that is drawn or
 * a child of a drawn node, with the same names, kinds, totals and offsets,
 * and `order` by parent then name. 0, or an error said in `diag`.
 */
int pd_flamegraph_visible_tree(const profdata_profile *p, size_t value_index, double px_width, double min_width,
                               pd_call_tree *t, pd_diag *diag, const char *format);

#endif
