/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A pass over a mapped blob, front to back or in no order (a graph walk). It is the one place that releases
 * what a pass has left behind (see pd_blob_done()), so that the resident set
 * holds the model instead of the whole file. On a large blob it also runs a
 * helper thread that walks the mapping just ahead of the pass, taking the
 * page faults on the other core: decoding a mapped 2 GB dump is otherwise a
 * fifth page-fault and unmap work on the decoding thread. The thread lives
 * from pd_pager_start() to pd_pager_stop(); callers that start a pager own
 * it and must stop it before they return to their own caller.
 */
#ifndef PD_IO_PAGER_H
#define PD_IO_PAGER_H

#include <stdint.h>

#include "io/blob.h"

typedef struct pd_pager pd_pager;

/*
 * NULL when the blob is not mapped (nothing to release) or memory is short: a
 * pass runs without one. Every pass over a mapped blob starts here, so this
 * is where the guard against a shrunk file looks (pd_blob_check).
 */
pd_pager *pd_pager_start(pd_blob *blob);
/* The pass moved to `pos` (cheap: acts every few MiB). */
void pd_pager_advance(pd_pager *pg, uint64_t pos);
/*
 * The pass starts again at `pos`, before where it was (a format read in
 * several walks: JFR's chunks): pages from there are faulted in ahead of
 * it again, and released behind it again. NULL, or a `pos` not behind the
 * pass, is a no-op.
 */
void pd_pager_rewind(pd_pager *pg, uint64_t pos);
/*
 * The front-to-back pass read bytes it had moved past again (a folded
 * file's chain compared with one far above it): their pages are mapped
 * again, and no later release covers them. Every so many such reads, all
 * that lies behind the pass is released once more, so that a file that
 * repeats itself does not end resident whole. NULL is a no-op.
 */
void pd_pager_looked_back(pd_pager *pg);
/* Stop, and join the thread if there is one. NULL is a no-op. */
void pd_pager_stop(pd_pager *pg);

/*
 * A pass in no order (a walk of the object graph) over a mapped blob: no
 * thread; pd_pager_touch() counts the pages the pass enters, and once they
 * could add up to `budget` bytes everything is released (pages the pass
 * comes back to map again from the page cache). NULL as pd_pager_start();
 * stop it with pd_pager_stop().
 */
pd_pager *pd_pager_start_random(pd_blob *blob, uint64_t budget);
/* The pass reads at `pos` (cheap: a compare, and a release now and then). NULL is a no-op. */
void pd_pager_touch(pd_pager *pg, uint64_t pos);
/* Release now what a pass in no order has entered (a short walk ends; a long one follows). NULL is a no-op. */
void pd_pager_release(pd_pager *pg);

#endif
