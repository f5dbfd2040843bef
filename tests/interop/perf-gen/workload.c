/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The program gen.sh profiles with perf: two leaf functions under one
 * caller and one called from main, an always-inlined helper (inlined frames
 * in DWARF call chains), and a thread, so that a profile has stacks of
 * several depths, two threads and inlined calls. Runs about ITERS * 5 ms.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	return x * 2654435761u ^ (x >> 7);
}

__attribute__((noinline)) unsigned long leaf_a(volatile unsigned long *n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < *n; i++)
		s += mix(i);
	return s;
}

__attribute__((noinline)) unsigned long leaf_b(volatile unsigned long *n)
{
	unsigned long s = 1;
	for (unsigned long i = 0; i < *n; i++)
		s = s * 31 + i;
	return s;
}

__attribute__((noinline)) unsigned long middle(volatile unsigned long *n)
{
	volatile unsigned long half = *n / 2;
	return leaf_a(n) + leaf_b(&half);
}

static void *worker(void *arg)
{
	volatile unsigned long n = 2000000;
	for (long k = 0; k < (long)arg; k++)
		sink += leaf_b(&n);
	return NULL;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 100;
	volatile unsigned long n = 3000000, m = 1000000;
	pthread_t t;
	if (pthread_create(&t, NULL, worker, (void *)(iters / 2)) != 0)
		return 1;
	for (long k = 0; k < iters; k++)
		sink += middle(&n) + leaf_b(&m);
	pthread_join(t, NULL);
	printf("%lu\n", sink);
	return 0;
}
