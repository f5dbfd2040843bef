/* SPDX-License-Identifier: Apache-2.0 */
/* VisualVM's class connections (connections.c, doc/heap-analysis.md). */
#ifndef PD_ANALYSIS_CONNECTIONS_H
#define PD_ANALYSIS_CONNECTIONS_H

#include "analysis/heap_impl.h"

/*
 * After the walk has numbered what the records reach (num, h->m; idom
 * UNSET or PD_HEAP_SHARED per number): sets h->g.connector from a
 * breadth-first search in VisualVM's order, which stops once every class
 * with a reachable instance has its class object met or connected; marks
 * a connected class object shared; numbers what only connections reach
 * after h->m. `queue` is scratch of h->g.nodes words. Adds to *refs the
 * references the lists will hold for all that, takes from *singles the
 * nodes no longer with one referrer. 0 or PROFDATA_ENOMEM.
 */
int pd_heap_connect_classes(profdata_heap *h, pd_hnode *queue, uint64_t *refs, uint64_t *singles);

#endif
