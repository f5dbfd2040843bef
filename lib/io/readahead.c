/* SPDX-License-Identifier: Apache-2.0 */
/* pread() is POSIX (XSI); the build asks for POSIX.1-2008. */
#include "io/readahead.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EMPTY, FULL };

struct pd_readahead {
	int fd;
	size_t chunk, headroom;
	unsigned char *buf[2];
	/* under lock */
	size_t len[2];
	int state[2];
	int error;             /* errno of a failed read, 0 */
	int stop;
	uint64_t filled, taken; /* buffers filled and taken so far: buffer k % 2 is the k-th */
	pthread_mutex_t lock;
	pthread_cond_t changed;
	/* the thread's own */
	uint64_t read_pos;
	pthread_t thread;
	/* the caller's own */
	int held;              /* buffer the caller holds, or -1 */
	uint64_t handed;
};

/* Fill dst with up to `n` bytes from `pos`: fewer only at the end of the file. Negative errno on failure. */
static long read_full(int fd, unsigned char *dst, size_t n, uint64_t pos)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(fd, dst + got, n - got, (off_t)(pos + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (long)got;
}

static void *run(void *arg)
{
	pd_readahead *ra = arg;
	int done = 0;
	pthread_mutex_lock(&ra->lock);
	while (!ra->stop && !done) {
		int b = (int)(ra->filled & 1);
		if (ra->state[b] != EMPTY) {
			pthread_cond_wait(&ra->changed, &ra->lock);
			continue;
		}
		pthread_mutex_unlock(&ra->lock);
		long n = read_full(ra->fd, ra->buf[b] + ra->headroom, ra->chunk, ra->read_pos);
		pthread_mutex_lock(&ra->lock);
		ra->len[b] = n > 0 ? (size_t)n : 0;
		ra->error = n < 0 ? (int)-n : 0;
		ra->state[b] = FULL;
		ra->filled++;
		ra->read_pos += ra->len[b];
		done = n <= 0; /* the end, or a failure: nothing more to read */
		pthread_cond_broadcast(&ra->changed);
	}
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

static void free_buffers(pd_readahead *ra)
{
	free(ra->buf[0]);
	free(ra->buf[1]);
	free(ra);
}

pd_readahead *pd_readahead_start(int fd, uint64_t offset, size_t chunk, size_t headroom)
{
	pd_readahead *ra = calloc(1, sizeof(*ra));
	if (!ra)
		return NULL;
	ra->fd = fd;
	ra->chunk = chunk;
	ra->headroom = headroom;
	ra->read_pos = ra->handed = offset;
	ra->held = -1;
	ra->buf[0] = malloc(headroom + chunk);
	ra->buf[1] = malloc(headroom + chunk);
	if (!ra->buf[0] || !ra->buf[1] || pthread_mutex_init(&ra->lock, NULL) != 0) {
		free_buffers(ra);
		return NULL;
	}
	if (pthread_cond_init(&ra->changed, NULL) != 0) {
		pthread_mutex_destroy(&ra->lock);
		free_buffers(ra);
		return NULL;
	}
	if (pthread_create(&ra->thread, NULL, run, ra) != 0) {
		pthread_cond_destroy(&ra->changed);
		pthread_mutex_destroy(&ra->lock);
		free_buffers(ra);
		return NULL;
	}
	return ra;
}

long pd_readahead_next(pd_readahead *ra, const unsigned char *keep, size_t nkeep, unsigned char **data)
{
	int b = (int)(ra->taken & 1);
	pthread_mutex_lock(&ra->lock);
	while (ra->state[b] != FULL) /* the thread marks a failed read FULL too, empty, with its error */
		pthread_cond_wait(&ra->changed, &ra->lock);
	int error = ra->error;
	size_t n = ra->len[b];
	pthread_mutex_unlock(&ra->lock);
	if (n == 0 && error)
		return -(long)error;
	unsigned char *to = ra->buf[b] + ra->headroom - nkeep;
	if (nkeep)
		memmove(to, keep, nkeep); /* (keep may lie anywhere, even in this buffer's headroom) */
	pthread_mutex_lock(&ra->lock);
	if (ra->held >= 0)
		ra->state[ra->held] = EMPTY;
	if (n > 0) { /* at the end the empty buffer stays FULL: every later call sees the end again */
		ra->held = b;
		ra->taken++;
	} else {
		ra->held = -1;
	}
	pthread_cond_broadcast(&ra->changed);
	pthread_mutex_unlock(&ra->lock);
	ra->handed += n;
	*data = to;
	return (long)(nkeep + n);
}

uint64_t pd_readahead_offset(const pd_readahead *ra)
{
	return ra->handed;
}

void pd_readahead_stop(pd_readahead *ra)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->changed);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	pthread_cond_destroy(&ra->changed);
	pthread_mutex_destroy(&ra->lock);
	free_buffers(ra);
}
