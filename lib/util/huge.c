/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Large arrays on huge pages where the system gives them only on request.
 *
 * Why: a decoder fills arrays of hundreds of megabytes front to back and
 * probes hash tables of tens of megabytes at random. In 4 KiB pages each
 * 4 KiB costs a page fault (dear on a virtual machine) and the random probes
 * miss the TLB. pprof -> folded of a 500,000-sample profile took 85,000
 * faults and 2.9 s; with its growing arrays, hash tables and input window on
 * 2 MiB pages, 19,000 faults and 1.3-2.0 s. Linux's transparent huge pages
 * are most often set to "madvise": memory gets them only when asked, and
 * this asks. Elsewhere, or when the kernel says no, nothing changes: the
 * advice is a hint, and its failure is not an error.
 */
/* madvise(MADV_HUGEPAGE) is Linux, not POSIX. */
#define _DEFAULT_SOURCE
#include "util/huge.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void pd_huge_advise(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	long page = sysconf(_SC_PAGESIZE);
	if (!p || bytes < PD_HUGE_MIN || page <= 0)
		return;
	/*
	 * The advice covers every page the array touches, not only its whole huge
	 * pages: advice on part of a mapping splits it, and glibc's realloc of a
	 * large block (mremap) then fails and falls back to copying the block.
	 */
	uintptr_t mask = (uintptr_t)page - 1;
	uintptr_t from = (uintptr_t)p & ~mask;
	uintptr_t to = ((uintptr_t)p + bytes + mask) & ~mask;
	(void)madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

void *pd_huge_malloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	pd_huge_advise(p, bytes);
	return p;
}

/* calloc's fresh mapping is not written until used, so advice after it still comes first. */
void *pd_huge_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (p)
		pd_huge_advise(p, n * size); /* calloc checked that n * size does not overflow */
	return p;
}
