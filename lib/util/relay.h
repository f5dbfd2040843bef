/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Batches made ahead on a second thread and handed to the caller in the
 * order made: a ring of slots the caller owns, filled by fill() on the
 * thread (beside.h) while the caller uses the slots filled before. For a
 * reader whose parse and whose use of what it parsed take the same time:
 * the two then overlap (the cpuprofile reader's samples). Nothing starts
 * on one processor, or when no thread can be made: the caller then fills
 * its batches itself, with the same function, so the result never depends
 * on the thread.
 */
#ifndef PD_UTIL_RELAY_H
#define PD_UTIL_RELAY_H

#include <pthread.h>

#include "util/beside.h"

/*
 * Fill slot `slot` on the thread: 0 when filled with more to come, 1 when
 * filled and the last, -1 when nothing was filled and nothing will be.
 */
typedef int (*pd_relay_fill_fn)(void *arg, unsigned slot);

typedef struct pd_relay {
	pd_relay_fill_fn fill;
	void *arg;
	unsigned nslots;
	/* Shared, under `lock`: slots filled and released, in turn. */
	pthread_mutex_t lock;
	pthread_cond_t filled, released;
	unsigned nfilled, nreleased;
	int done, stop;
	pd_beside thread;
	int running;       /* the thread was started */
	int held;          /* the caller holds slot nreleased % nslots */
} pd_relay;

/*
 * Start filling slots 0, 1, ... (nslots of them, reused in turn; a power of
 * two, so that the counters' wrap keeps the turn): 1 when the thread runs,
 * else 0 (nothing started: the caller fills its batches itself).
 */
int pd_relay_start(pd_relay *r, unsigned nslots, pd_relay_fill_fn fill, void *arg);

/*
 * The next slot filled, waiting for it, the one held before released:
 * 1 and *slot, or 0 when no more will be filled.
 */
int pd_relay_next(pd_relay *r, unsigned *slot);

/*
 * Slots filled and not yet given back, the one the caller holds among
 * them: for fill() to see whether the caller waits on it (0 or 1).
 */
unsigned pd_relay_queued(pd_relay *r);

/* Stop the thread (it finishes the slot it fills) and wait for it. Safe on a zeroed relay. */
void pd_relay_stop(pd_relay *r);

#endif
