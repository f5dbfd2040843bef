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

#endif
