/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The width of the heap analysis' node numbers: local indexes, reverse
 * postorder numbers and everything stored per node (num, idom, the walks'
 * stacks and queues, the predecessor lists).
 *
 * Why two widths: at 32 bits the analysis costs 12 bytes per object beyond
 * the model (doc/heap-analysis.md), which is what keeps a 37M-object dump
 * under 1.3 GB; at 64 bits it would cost twice that on every dump for the
 * sake of the few with more than 2^31 - 2 objects and classes, which MAT
 * cannot open at all. So the analysis' sources are written once against
 * pd_hnode and the library compiles them twice, at PD_HEAP_WIDTH 32 and 64
 * (each compile's names prefixed: heap_names.h); heap_widths.c gives each
 * dump the narrowest width that holds it. The top bit of the width is the
 * flag the steps borrow while they run (heap_impl.h). Counts, sizes and
 * class rows keep their own types.
 *
 * The first header of every source of the analysis (and of a test that
 * reads its tables): what it renames, the public headers must not have
 * declared yet.
 */
#ifndef PD_ANALYSIS_HEAP_WIDTH_H
#define PD_ANALYSIS_HEAP_WIDTH_H

#include <inttypes.h>
#include <stdint.h>

#ifndef PD_HEAP_WIDTH
#define PD_HEAP_WIDTH 32
#endif

#if PD_HEAP_WIDTH == 32
typedef uint32_t pd_hnode;
#define PD_HNODE_MAX UINT32_MAX
#define PD_PRI_HNODE PRIu32
#elif PD_HEAP_WIDTH == 64
typedef uint64_t pd_hnode;
#define PD_HNODE_MAX UINT64_MAX
#define PD_PRI_HNODE PRIu64
#else
#error "PD_HEAP_WIDTH is 32 or 64"
#endif

/* No node: a null or dangling reference, a slot outside the dump. */
#define PD_HEAP_NONE PD_HNODE_MAX
/* The top bit, free while numbers stay below it (heap_impl.h). */
#define PD_HEAP_FLAG (PD_HNODE_MAX ^ (PD_HNODE_MAX >> 1))
#define PD_HEAP_NUMBER (PD_HNODE_MAX >> 1)
/* Objects and classes of one dump: below it (the numbers, the virtual root and UNSET all fit under the flag). */
#define PD_HEAP_MAX_NODES (PD_HEAP_NUMBER - 1)

#include "analysis/heap_names.h"
#include "analysis/heap_calls.h"

#endif
