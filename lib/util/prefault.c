/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Why: the first write to a page of fresh memory makes the kernel find and
 * clear it, and on a virtual machine that is dear. Reading 230 MB of
 * folded stacks into the model writes 130 MB of frame ids to memory never
 * touched before; on a 2-core cloud VM the clearing was a quarter of the
 * reading thread's time (perf: clear_page_erms and the hypervisor's
 * interrupt return under the copy into the array). Asking the kernel to
 * populate the next pages (MADV_POPULATE_WRITE, Linux 5.14) from a second
 * thread moves that work off the thread that fills the array. The advice
 * writes nothing, so the array's contents are the same whether or not it
 * ran, finished, or failed.
 *
 * Only a few megabytes ahead of the writes: populating the whole of a
 * doubled array would make resident memory it never uses.
 */
/* madvise() is Linux and BSD, not POSIX. */
#define _DEFAULT_SOURCE
#include "util/prefault.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define PD_PREFAULT_LOW ((size_t)8 << 20)
#define PD_PREFAULT_STEP ((size_t)16 << 20)

static void populate(void *arg)
{
#ifdef MADV_POPULATE_WRITE
	pd_prefault *pf = arg;
	(void)madvise(pf->from, pf->len, MADV_POPULATE_WRITE);
#else
	(void)arg;
#endif
}

void pd_prefault_wait(pd_prefault *pf)
{
	if (pf->running)
		pd_beside_wait(&pf->job);
	pf->running = 0;
}

void pd_prefault_ahead(pd_prefault *pf, void *block, size_t used, size_t cap)
{
#ifdef MADV_POPULATE_WRITE
	if (pf->block != block) { /* a new array, or this one moved: what was ahead is not */
		pd_prefault_wait(pf);
		pf->block = block;
		pf->ahead = used;
	}
	if (pf->ahead > used + PD_PREFAULT_LOW || pf->ahead >= cap || cap < PD_PREFAULT_STEP)
		return;
	pd_prefault_wait(pf);
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096, start = (uintptr_t)pf->block + pf->ahead;
	size_t to = cap - pf->ahead > PD_PREFAULT_STEP ? pf->ahead + PD_PREFAULT_STEP : cap;
	uintptr_t from = (start + page - 1) & ~(page - 1), end = ((uintptr_t)pf->block + to) & ~(page - 1);
	pf->ahead = to;
	if (end <= from)
		return;
	pf->from = (char *)from;
	pf->len = end - from;
	pd_beside_start(&pf->job, populate, pf);
	/* Not started (one processor): populating at the wait would only fault the same pages earlier. */
	pf->running = pf->job.started;
#else
	(void)pf;
	(void)block;
	(void)used;
	(void)cap;
#endif
}
