/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading a file on a second thread while the caller decodes what was read
 * (readahead.c). A streaming pass over a mapped file pays a page fault per
 * few pages and an unmap behind it, more than the copy read() makes; with
 * read() on the decoding thread the copy is added to the decoding. Here the
 * copy runs beside it, into one of two buffers while the caller holds the
 * other: the pass costs about what the slower of the two costs.
 *
 * Each buffer has `headroom` bytes in front of its data, where the caller's
 * unconsumed tail of the previous buffer is put, so that a record crossing
 * the boundary stays contiguous without copying the data after it.
 *
 * One caller thread; the helper thread lives from start to stop.
 */
#ifndef PD_IO_READAHEAD_H
#define PD_IO_READAHEAD_H

#include <stddef.h>
#include <stdint.h>

typedef struct pd_readahead pd_readahead;

/* Read `fd` from `offset` on with pread() (its file position is left alone). NULL: no memory or no thread. */
pd_readahead *pd_readahead_start(int fd, uint64_t offset, size_t chunk, size_t headroom);

/*
 * The next bytes, after `nkeep` bytes at `keep` (the caller's unconsumed
 * tail, at most `headroom`, inside the buffer the previous call gave, or
 * anywhere): *data points at the kept bytes, followed by what was read;
 * returns how many bytes in all (nkeep at the end of the file), or a
 * negative errno value when a read failed (the failure is kept: later calls
 * return it too). The previous buffer goes back to the helper thread.
 */
long pd_readahead_next(pd_readahead *ra, const unsigned char *keep, size_t nkeep, unsigned char **data);

/* The file offset just past the last byte handed out. */
uint64_t pd_readahead_offset(const pd_readahead *ra);

/* Join the thread and free both buffers. NULL is a no-op. */
void pd_readahead_stop(pd_readahead *ra);

#endif
