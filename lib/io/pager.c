/* SPDX-License-Identifier: Apache-2.0 */
#include "io/pager.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * What stays resident is at most AHEAD + 2 * BEHIND (40 MiB) of the file:
 * a streaming conversion of a 1 GB trace fits in 64 MB with its tables.
 */
#define AHEAD ((uint64_t)32 << 20)   /* fault this far ahead of the pass */
#define BEHIND ((uint64_t)4 << 20)   /* keep this much behind it mapped */
#define STEP ((uint64_t)2 << 20)     /* work between looks at the pass's position */
#define THREAD_MIN_SIZE ((uint64_t)128 << 20)
/* Reads behind the pass between two releases of all behind it: each maps in a
 * page or a few (the kernel's fault-around), so a few tens of MiB at most. */
#define LOOKS_PER_RELEASE 256

struct pd_pager {
	const pd_blob *blob;
	uint64_t size;
	uint64_t told;         /* pass's thread only: position at the last look */
	uint64_t looks;        /* pass's thread only: reads behind it (pd_pager_looked_back) */
	uint64_t released;     /* released below here; owned by the thread when there is one */
	int threaded;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t moved;
	uint64_t cursor;       /* the pass's position, as last told (under lock) */
	int rewound;           /* the pass went back to cursor (under lock): fault and release from there */
	int stop;
	/* random passes */
	uint64_t page_shift;
	uint64_t last_page;
	uint64_t entered, budget_pages; /* pages entered since the last release; how many may be */
};

/*
 * Release in steps of at least BEHIND (one madvise per 4 MiB, not per call),
 * and everything once the pass reaches the end: what comes after a decode
 * (a whole-profile encoder) then has the memory.
 */
static int release_due(const pd_pager *pg, uint64_t pos)
{
	return pos >= pg->size ? pg->released < pg->size : pos >= pg->released + 2 * BEHIND;
}

static void release_behind(pd_pager *pg, uint64_t pos)
{
	if (!release_due(pg, pos))
		return;
	uint64_t to = pos >= pg->size ? pg->size : pos - BEHIND;
	pd_blob_done(pg->blob, pg->released, to);
	pg->released = to;
}

static unsigned fault_in(const volatile unsigned char *data, uint64_t from, uint64_t to, uint64_t page)
{
	unsigned sink = 0;
	for (uint64_t off = from; off < to; off += page)
		sink += data[off];
	return sink;
}

static void *run(void *arg)
{
	pd_pager *pg = arg;
	const volatile unsigned char *data = pd_blob_data(pg->blob);
	uint64_t touched = 0;
	unsigned sink = 0;
	long ps = sysconf(_SC_PAGESIZE);
	const uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	pthread_mutex_lock(&pg->lock);
	while (!pg->stop) {
		uint64_t cursor = pg->cursor;
		uint64_t limit = cursor + AHEAD < pg->size ? cursor + AHEAD : pg->size;
		if (pg->rewound) {
			pg->rewound = 0;
			/* A short step back finds its pages still mapped (what was released lies
			 * behind it): nothing to do. A long one (a new pass) faults from the new
			 * position again, and releases what it had mapped past the new window,
			 * which the pass would otherwise find resident only when it got there. */
			if (pg->released > cursor) {
				touched = cursor;
				pg->released = cursor;
				if (limit < pg->size)
					pd_blob_done(pg->blob, limit, pg->size);
			}
		}
		if (touched < cursor)
			touched = cursor; /* the pass overtook us: fault from where it is */
		if (!release_due(pg, cursor) && touched >= limit) {
			pthread_cond_wait(&pg->moved, &pg->lock);
			continue;
		}
		pthread_mutex_unlock(&pg->lock);
		release_behind(pg, cursor);
		uint64_t to = touched + STEP < limit ? touched + STEP : limit;
		sink += fault_in(data, touched, to, page);
		touched = to > touched ? to : touched;
		pthread_mutex_lock(&pg->lock);
	}
	pthread_mutex_unlock(&pg->lock);
	(void)sink;
	return NULL;
}

static int start_thread(pd_pager *pg)
{
	if (pthread_mutex_init(&pg->lock, NULL) != 0)
		return 0;
	if (pthread_cond_init(&pg->moved, NULL) != 0) {
		pthread_mutex_destroy(&pg->lock);
		return 0;
	}
	if (pthread_create(&pg->thread, NULL, run, pg) != 0) {
		pthread_cond_destroy(&pg->moved);
		pthread_mutex_destroy(&pg->lock);
		return 0;
	}
	return 1;
}

/* A pager over a mapped blob, or NULL (not mapped, or no memory). */
static pd_pager *pager_new(pd_blob *blob)
{
	if (!blob || !pd_blob_mapped(blob))
		return NULL;
	(void)pd_blob_check(blob); /* whoever reads says what it means (the reader: an error) */
	pd_pager *pg = calloc(1, sizeof(*pg));
	if (!pg)
		return NULL;
	pg->blob = blob;
	pg->size = pd_blob_size(blob);
	return pg;
}

pd_pager *pd_pager_start(pd_blob *blob)
{
	pd_pager *pg = pager_new(blob);
	/* Without a thread (small blob, or none to be had) the pass releases on its own thread. */
	if (pg)
		pg->threaded = pg->size >= THREAD_MIN_SIZE && start_thread(pg);
	return pg;
}

pd_pager *pd_pager_start_random(pd_blob *blob, uint64_t budget)
{
	pd_pager *pg = pager_new(blob);
	if (!pg)
		return NULL;
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	while (((uint64_t)1 << pg->page_shift) < page)
		pg->page_shift++;
	pg->last_page = UINT64_MAX;
	pg->budget_pages = budget >> pg->page_shift ? budget >> pg->page_shift : 1;
	return pg;
}

void pd_pager_touch(pd_pager *pg, uint64_t pos)
{
	if (!pg)
		return;
	uint64_t page = pos >> pg->page_shift;
	if (page == pg->last_page)
		return;
	pg->last_page = page;
	if (++pg->entered < pg->budget_pages)
		return;
	/* Counting entries over-counts pages entered twice: the release comes early, never late. */
	pd_pager_release(pg);
}

void pd_pager_release(pd_pager *pg)
{
	if (!pg)
		return;
	pd_blob_done(pg->blob, 0, pg->size);
	pg->entered = 0;
	pg->last_page = UINT64_MAX;
}

void pd_pager_advance(pd_pager *pg, uint64_t pos)
{
	if (pos < pg->told + STEP && pos < pg->size)
		return;
	pg->told = pos;
	if (!pg->threaded) {
		release_behind(pg, pos);
		return;
	}
	pthread_mutex_lock(&pg->lock);
	pg->cursor = pos;
	pthread_cond_signal(&pg->moved);
	pthread_mutex_unlock(&pg->lock);
}

void pd_pager_rewind(pd_pager *pg, uint64_t pos)
{
	if (!pg || pos >= pg->told)
		return;
	pg->told = pos;
	if (!pg->threaded) {
		if (pg->released > pos)
			pg->released = pos;
		return;
	}
	pthread_mutex_lock(&pg->lock);
	pg->cursor = pos;
	pg->rewound = 1;
	pthread_cond_signal(&pg->moved);
	pthread_mutex_unlock(&pg->lock);
}

void pd_pager_looked_back(pd_pager *pg)
{
	if (!pg || ++pg->looks % LOOKS_PER_RELEASE)
		return;
	/* Below what the release behind the pass keeps, which the helper thread may be releasing too: madvise
	 * on a range twice is harmless. */
	if (pg->told > BEHIND)
		pd_blob_done(pg->blob, 0, pg->told - BEHIND);
}

void pd_pager_stop(pd_pager *pg)
{
	if (!pg)
		return;
	if (pg->threaded) {
		pthread_mutex_lock(&pg->lock);
		pg->stop = 1;
		pthread_cond_signal(&pg->moved);
		pthread_mutex_unlock(&pg->lock);
		pthread_join(pg->thread, NULL);
		pthread_cond_destroy(&pg->moved);
		pthread_mutex_destroy(&pg->lock);
	}
	free(pg);
}
