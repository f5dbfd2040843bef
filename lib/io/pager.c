#include "io/pager.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

#define AHEAD ((uint64_t)32 << 20)   /* fault this far ahead of the reader */
#define BEHIND ((uint64_t)16 << 20)  /* keep this much behind it mapped */
#define STEP ((uint64_t)2 << 20)     /* work between looks at the reader's position */
#define MIN_SIZE ((uint64_t)128 << 20)

struct pd_pager {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t moved;
	struct pd_blob *blob;
	uint64_t size;
	uint64_t cursor;       /* the reader's position, as last told (under lock) */
	uint64_t told;         /* main thread only: position at the last wake-up */
	int stop;
};

static void *run(void *arg)
{
	pd_pager *pg = arg;
	const volatile unsigned char *data = pd_blob_data(pg->blob);
	uint64_t touched = 0, released = 0;
	unsigned sink = 0;
	long ps = sysconf(_SC_PAGESIZE);
	const uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	pthread_mutex_lock(&pg->lock);
	while (!pg->stop) {
		uint64_t cursor = pg->cursor;
		uint64_t limit = cursor + AHEAD < pg->size ? cursor + AHEAD : pg->size;
		if (touched < cursor)
			touched = cursor; /* the reader overtook us: fault from where it is */
		if (cursor >= released + 2 * BEHIND) {
			uint64_t to = cursor - BEHIND;
			pthread_mutex_unlock(&pg->lock);
			pd_blob_done(pg->blob, released, to);
			released = to;
			pthread_mutex_lock(&pg->lock);
			continue;
		}
		if (touched < limit) {
			uint64_t to = touched + STEP < limit ? touched + STEP : limit;
			pthread_mutex_unlock(&pg->lock);
			for (uint64_t off = touched; off < to; off += page)
				sink += data[off];
			touched = to;
			pthread_mutex_lock(&pg->lock);
			continue;
		}
		pthread_cond_wait(&pg->moved, &pg->lock);
	}
	pthread_mutex_unlock(&pg->lock);
	(void)sink;
	return NULL;
}

pd_pager *pd_pager_start(struct pd_blob *blob)
{
	if (!blob || !pd_blob_mapped(blob) || pd_blob_size(blob) < MIN_SIZE)
		return NULL;
	pd_pager *pg = calloc(1, sizeof(*pg));
	if (!pg)
		return NULL;
	pg->blob = blob;
	pg->size = pd_blob_size(blob);
	if (pthread_mutex_init(&pg->lock, NULL) != 0) {
		free(pg);
		return NULL;
	}
	if (pthread_cond_init(&pg->moved, NULL) != 0) {
		pthread_mutex_destroy(&pg->lock);
		free(pg);
		return NULL;
	}
	if (pthread_create(&pg->thread, NULL, run, pg) != 0) {
		pthread_cond_destroy(&pg->moved);
		pthread_mutex_destroy(&pg->lock);
		free(pg);
		return NULL;
	}
	return pg;
}

void pd_pager_advance(pd_pager *pg, uint64_t pos)
{
	if (pos < pg->told + STEP)
		return;
	pg->told = pos;
	pthread_mutex_lock(&pg->lock);
	pg->cursor = pos;
	pthread_cond_signal(&pg->moved);
	pthread_mutex_unlock(&pg->lock);
}

void pd_pager_stop(pd_pager *pg)
{
	if (!pg)
		return;
	pthread_mutex_lock(&pg->lock);
	pg->stop = 1;
	pthread_cond_signal(&pg->moved);
	pthread_mutex_unlock(&pg->lock);
	pthread_join(pg->thread, NULL);
	pthread_cond_destroy(&pg->moved);
	pthread_mutex_destroy(&pg->lock);
	free(pg);
}
