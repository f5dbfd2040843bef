/* SPDX-License-Identifier: Apache-2.0 */
/* The input span shared by a reader and the profiles that point into it. */
/* madvise(MADV_DONTNEED) is Linux and BSD, not POSIX. */
#define _DEFAULT_SOURCE
#include "io/blob.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profdata/common.h"

struct pd_blob {
	long refs;
	const unsigned char *data;
	uint64_t size;
	int mapped; /* munmap on release */
	int fd;     /* mapped: a descriptor of the file, to see its size (pd_blob_check); else -1 */
	int shrunk; /* the file was found shorter than the mapping (atomic) */
};

/* An empty input (an empty file, or no buffer) still has data to point at: readers do arithmetic on it. */
static const unsigned char nothing[1];

static pd_blob *blob_new(const void *data, uint64_t size, int mapped)
{
	pd_blob *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->refs = 1;
	b->data = data ? data : nothing;
	b->size = size;
	b->mapped = mapped;
	b->fd = -1;
	return b;
}

pd_blob *pd_blob_of_memory(const void *data, uint64_t size)
{
	return blob_new(data, size, 0);
}

pd_blob *pd_blob_map(int fd, uint64_t size, int *out_of_memory)
{
	*out_of_memory = 0;
	if (size > (uint64_t)SIZE_MAX)
		return NULL;
	void *m = NULL;
	if (size > 0) {
		m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED)
			return NULL;
	}
	pd_blob *b = blob_new(m, size, m != NULL);
	if (!b) {
		if (m)
			munmap(m, (size_t)size);
		*out_of_memory = 1;
		return NULL;
	}
	/* Without a descriptor the guard cannot look: the blob still works, unguarded. */
	if (m)
		b->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	return b;
}

int pd_blob_fd(const pd_blob *b)
{
	return b->fd;
}

void pd_blob_retain(pd_blob *b)
{
	if (b)
		__atomic_add_fetch(&b->refs, 1, __ATOMIC_RELAXED);
}

void pd_blob_release(pd_blob *b)
{
	if (!b || __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	if (b->mapped && b->size)
		munmap((void *)b->data, (size_t)b->size);
	if (b->fd >= 0)
		close(b->fd);
	free(b);
}

int pd_blob_check(pd_blob *b)
{
	struct stat st;
	if (!b || !b->mapped || b->fd < 0)
		return 0;
	if (__atomic_load_n(&b->shrunk, __ATOMIC_ACQUIRE))
		return PROFDATA_EIO;
	if (fstat(b->fd, &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size >= b->size)
		return 0;
	/*
	 * Pages wholly past the new end fault with SIGBUS; zero pages in their
	 * place keep every pointer valid. The part of the last page past the end
	 * reads as zeros already.
	 */
	long ps = sysconf(_SC_PAGESIZE);
	const uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	uint64_t from = ((uint64_t)st.st_size + page - 1) / page * page;
	if (from < b->size)
		mmap((void *)(b->data + from), (size_t)(b->size - from), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		     -1, 0);
	__atomic_store_n(&b->shrunk, 1, __ATOMIC_RELEASE);
	return PROFDATA_EIO;
}

const unsigned char *pd_blob_data(const pd_blob *b) { return b->data; }
uint64_t pd_blob_size(const pd_blob *b) { return b->size; }
int pd_blob_mapped(const pd_blob *b) { return b->mapped; }

void pd_blob_done(const pd_blob *b, uint64_t from, uint64_t to)
{
	if (!b->mapped)
		return;
	long ps = sysconf(_SC_PAGESIZE);
	const uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	from = (from + page - 1) / page * page;
	to = to / page * page;
	if (to > from)
		madvise((void *)(b->data + from), (size_t)(to - from), MADV_DONTNEED);
}
