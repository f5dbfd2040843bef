/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Work beside the caller's: fn(arg) on a second thread while the caller
 * does its own share, for writers whose work splits into independent
 * halves (the folded writer's chains and lines, gzip's blocks:
 * io/gzip_out.c). Deterministic by design:
 * the split is the caller's, fixed by the data, so the output never depends
 * on which thread finishes first. With one processor, or when no thread can
 * be made, fn runs on the caller's thread at pd_beside_wait() instead (the
 * same result, one after the other).
 */
#ifndef PD_UTIL_BESIDE_H
#define PD_UTIL_BESIDE_H

#include <pthread.h>

typedef struct pd_beside {
	void (*fn)(void *arg);
	void *arg;
	pthread_t thread;
	int started;           /* fn runs on `thread`; else pd_beside_wait() runs it */
} pd_beside;

/* Start fn(arg) beside the caller. */
void pd_beside_start(pd_beside *b, void (*fn)(void *arg), void *arg);

/* Wait until fn(arg) has returned (running it here if it did not start). */
void pd_beside_wait(pd_beside *b);

#endif
