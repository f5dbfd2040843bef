/* SPDX-License-Identifier: Apache-2.0 */
#ifdef __linux__
#define _GNU_SOURCE /* sched_getaffinity() */
#endif
#include "util/beside.h"

#include <sched.h>
#include <unistd.h>

/*
 * Whether this thread may run on two processors: its affinity (taskset and
 * cpusets narrow it, as the tool's merge counts them) in one system call,
 * else the processors online.
 */
static int two_processors(void)
{
#if defined(__linux__) && defined(CPU_COUNT)
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		return CPU_COUNT(&set) > 1;
#endif
	return sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

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
	b->started = two_processors() && pthread_create(&b->thread, NULL, run, b) == 0;
}

void pd_beside_wait(pd_beside *b)
{
	if (b->started)
		pthread_join(b->thread, NULL);
	else
		b->fn(b->arg);
	b->started = 0;
}
