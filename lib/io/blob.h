/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A shared, reference-counted span of input bytes that outlives the reader:
 * the mapping of a regular file or the caller's memory buffer. A profile
 * that points payloads into the input holds one. The lowest unit of io/: it
 * knows nothing of readers or pagers.
 */
#ifndef PD_IO_BLOB_H
#define PD_IO_BLOB_H

#include <stddef.h>
#include <stdint.h>

typedef struct pd_blob pd_blob;

/* Over the caller's memory, which must outlive the blob. NULL when out of memory. */
pd_blob *pd_blob_of_memory(const void *data, uint64_t size);
/*
 * Map `size` bytes of the regular file behind `fd` (the descriptor may be
 * closed afterwards). NULL when memory is short (*out_of_memory set) or the
 * file cannot be mapped (*out_of_memory clear: stream it instead).
 */
pd_blob *pd_blob_map(int fd, uint64_t size, int *out_of_memory);

/* A reader and the profiles read from it share the blob, and may be freed on different threads. */
void pd_blob_retain(pd_blob *b);
void pd_blob_release(pd_blob *b);

const unsigned char *pd_blob_data(const pd_blob *b);
uint64_t pd_blob_size(const pd_blob *b);
int pd_blob_mapped(const pd_blob *b);
/* A descriptor of a mapped blob's file (the blob's own: it closes it), for pread() passes; -1 for memory. */
int pd_blob_fd(const pd_blob *b);

/*
 * The guard against a mapped file that shrinks under us (the rule is in
 * include/profdata/io.h): before each pass over a mapped blob, see whether
 * the file is still as long as the mapping. When it shrank, the pages past
 * its new end (whose access would raise SIGBUS) are replaced with zero pages
 * and PROFDATA_EIO is returned, then and on every later call. 0 when intact,
 * and always for memory blobs.
 */
int pd_blob_check(pd_blob *b);

/*
 * Tell the kernel that a sequential pass is done with [from, to) of a mapped
 * blob: the pages leave this process's resident set (they stay in the page
 * cache, and pointers stay valid: a later access maps them again). No-op for
 * memory blobs. Sequential passes call it through the pager (pager.h), which
 * decides how far behind the cursor to release.
 */
void pd_blob_done(const pd_blob *b, uint64_t from, uint64_t to);

#endif
