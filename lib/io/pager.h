/*
 * A helper thread that walks a large mapped input just ahead of a
 * sequential reader, taking the page faults on the other core, and releases
 * what lies behind it (see pd_blob_done()). Decoding a mapped 2 GB dump is
 * otherwise a fifth page-fault and unmap work on the decoding thread.
 */
#ifndef PD_PAGER_H
#define PD_PAGER_H

#include <stdint.h>

typedef struct pd_pager pd_pager;
struct pd_blob;

/* NULL when the blob is too small (or not mapped) to be worth a thread, or a thread cannot be had. */
pd_pager *pd_pager_start(struct pd_blob *blob);
/* The reader's position moved to `pos` (cheap: wakes the pager every few MiB). */
void pd_pager_advance(pd_pager *pg, uint64_t pos);
/* Stop and join. NULL is a no-op. */
void pd_pager_stop(pd_pager *pg);

#endif
