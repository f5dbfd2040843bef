/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A sequential pass over a mapped blob. It is the one place that releases
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
/* Stop, and join the thread if there is one. NULL is a no-op. */
void pd_pager_stop(pd_pager *pg);

#endif
