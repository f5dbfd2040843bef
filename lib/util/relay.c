/* SPDX-License-Identifier: Apache-2.0 */
/* Batches made ahead on a second thread (relay.h). */
#include "util/relay.h"

#include <string.h>

static void run(void *arg)
{
	pd_relay *r = arg;
	for (;;) {
		pthread_mutex_lock(&r->lock);
		while (r->nfilled - r->nreleased == r->nslots && !r->stop)
			pthread_cond_wait(&r->released, &r->lock);
		unsigned slot = r->nfilled % r->nslots;
		int stop = r->stop;
		pthread_mutex_unlock(&r->lock);
		int rc = stop ? -1 : r->fill(r->arg, slot);
		pthread_mutex_lock(&r->lock);
		r->nfilled += rc >= 0;
		r->done = rc != 0;
		pthread_cond_signal(&r->filled);
		pthread_mutex_unlock(&r->lock);
		if (rc != 0)
			return;
	}
}

int pd_relay_start(pd_relay *r, unsigned nslots, pd_relay_fill_fn fill, void *arg)
{
	memset(r, 0, sizeof *r);
	r->fill = fill;
	r->arg = arg;
	r->nslots = nslots;
	if (pthread_mutex_init(&r->lock, NULL) != 0)
		return 0;
	if (pthread_cond_init(&r->filled, NULL) != 0) {
		pthread_mutex_destroy(&r->lock);
		return 0;
	}
	if (pthread_cond_init(&r->released, NULL) != 0) {
		pthread_cond_destroy(&r->filled);
		pthread_mutex_destroy(&r->lock);
		return 0;
	}
	pd_beside_start(&r->thread, run, r);
	if (!r->thread.started) {
		/*
		 * One processor, or no thread: pd_beside_wait() runs the loop here,
		 * told to stop first, so it fills nothing; the caller fills its own.
		 */
		r->stop = 1;
		pd_beside_wait(&r->thread);
		pthread_cond_destroy(&r->filled);
		pthread_cond_destroy(&r->released);
		pthread_mutex_destroy(&r->lock);
		memset(r, 0, sizeof *r);
		return 0;
	}
	r->running = 1;
	return 1;
}

int pd_relay_next(pd_relay *r, unsigned *slot)
{
	int got;
	pthread_mutex_lock(&r->lock);
	if (r->held) {
		r->nreleased++;
		r->held = 0;
		pthread_cond_signal(&r->released);
	}
	while (r->nfilled == r->nreleased && !r->done)
		pthread_cond_wait(&r->filled, &r->lock);
	got = r->nfilled != r->nreleased;
	*slot = r->nreleased % r->nslots;
	r->held = got;
	pthread_mutex_unlock(&r->lock);
	return got;
}

unsigned pd_relay_queued(pd_relay *r)
{
	pthread_mutex_lock(&r->lock);
	unsigned n = r->nfilled - r->nreleased;
	pthread_mutex_unlock(&r->lock);
	return n;
}

void pd_relay_stop(pd_relay *r)
{
	if (!r->running)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = 1;
	pthread_cond_signal(&r->released);
	pthread_mutex_unlock(&r->lock);
	pd_beside_wait(&r->thread);
	pthread_cond_destroy(&r->filled);
	pthread_cond_destroy(&r->released);
	pthread_mutex_destroy(&r->lock);
	r->running = 0;
}
