/* SPDX-License-Identifier: Apache-2.0 */
#include "util/beside.h"

#include <unistd.h>

static void *run(void *arg)
{
	pd_beside *b = arg;
	b->fn(b->arg);
	return NULL;
}

void pd_beside_start(pd_beside *b, void (*fn)(void *arg), void *arg)
{
	b->fn = fn;
	b->arg = arg;
	/* A second thread on one processor only adds switches between the two. */
	b->started = sysconf(_SC_NPROCESSORS_ONLN) > 1 && pthread_create(&b->thread, NULL, run, b) == 0;
}

void pd_beside_wait(pd_beside *b)
{
	if (b->started)
		pthread_join(b->thread, NULL);
	else
		b->fn(b->arg);
	b->started = 0;
}
