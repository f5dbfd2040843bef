/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The next pages of an array that is being filled, faulted in beside the
 * caller (prefault.c says why): a few megabytes ahead of what it has
 * written, never the whole of what it reserved. One array a pd_prefault;
 * owned by the array's owner, which waits for it before the array moves
 * or is freed. Without a second processor, or on a system that cannot
 * populate memory ahead, it does nothing.
 */
#ifndef PD_UTIL_PREFAULT_H
#define PD_UTIL_PREFAULT_H

#include <stddef.h>

#include "util/beside.h"

typedef struct pd_prefault {
	pd_beside job;
	int running;   /* job was started and not yet waited for */
	char *block;   /* the array the pages ahead belong to */
	size_t ahead;  /* bytes from block faulted in or being faulted */
	char *from;    /* the job's pages */
	size_t len;
} pd_prefault;

/*
 * The array at `block` has `used` of its `cap` bytes written: when fewer
 * than PD_PREFAULT_LOW bytes past `used` are faulted in, fault the next
 * PD_PREFAULT_STEP (up to cap) beside the caller. Cheap when nothing is
 * due: call it after each write.
 */
void pd_prefault_ahead(pd_prefault *pf, void *block, size_t used, size_t cap);

/* Wait for the pages asked for: before the array is moved (grown) or freed. Safe on a zeroed pd_prefault. */
void pd_prefault_wait(pd_prefault *pf);

#endif
