/* SPDX-License-Identifier: Apache-2.0 */
#include "codecs/folded/ahead.h"

#include <stdlib.h>
#include <string.h>

#include "codecs/folded/chain.h"
#include "internal.h"

/*
 * A batch closes at this many lines, frames or bytes of text: enough that
 * the two threads meet on the lock a few hundred times a file, small
 * enough that the batches ahead stay in the cache the reader reads them
 * from, and that the text the thread has read ahead of the reader (which
 * the reader's pager has not yet let go of) stays a few megabytes.
 */
#define BATCH_LINES 1024
#define BATCH_FRAMES 32768
#define BATCH_BYTES ((uint64_t)1 << 20)

/*
 * The chain of line [s, end) (without its newline) into batch b, as the
 * reader would find it: blanks and counts off its end. Blank lines,
 * comments and lines the reader will find fault with are passed over: the
 * reader deals with those itself. 0 or PROFDATA_ENOMEM.
 */
static int add_line(pd_folded_ahead *a, pd_folded_batch *b, const unsigned char *s, const unsigned char *end)
{
	const unsigned char *bad;
	int64_t v;
	size_t n;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == s || s[0] == '#' || !pd_folded_last_count(s, &end, &v) ||
	    (a->ncounts == 2 && !pd_folded_last_count(s, &end, &v)) || end == s || (uint64_t)(end - s) > UINT32_MAX)
		return 0;
	int rc = pd_folded_split(s, end, &b->ends, &b->ends_cap, b->nframes, &n, &bad);
	if (rc != 0)
		return rc == 1 ? 0 : rc;
	if (pd_grow((void **)&b->hashes, &b->hashes_cap, b->nframes + n, sizeof *b->hashes) ||
	    pd_grow((void **)&b->numbers, &b->numbers_cap, b->nframes + n, sizeof *b->numbers) ||
	    pd_grow((void **)&b->lines, &b->lines_cap, b->nlines + 1, sizeof *b->lines))
		return PROFDATA_ENOMEM;
	uint64_t *h = b->hashes + b->nframes;
	const uint32_t *e = b->ends + b->nframes;
	/* All the line's names hashed and their slots and strings asked of
	 * memory before any is looked up: their cache misses then overlap (as
	 * the reader's own lookups do, decode.c hash_frames). */
	for (size_t j = 0; j < n; j++) {
		uint32_t at = j ? e[j - 1] + 1 : 0;
		h[j] = pd_intern_hash(&a->names, (const char *)s + at, e[j] - at);
		pd_intern_prefetch_slot(&a->names, h[j]);
	}
	for (size_t j = 0; j < n; j++)
		pd_intern_prefetch_string(&a->names, h[j]);
	for (size_t j = 0; j < n; j++) {
		uint32_t at = j ? e[j - 1] + 1 : 0, ix;
		const char *name = (const char *)s + at;
		if (!pd_intern_find_hashed(&a->names, name, e[j] - at, h[j], &ix) &&
		    pd_intern_add(&a->names, name, e[j] - at, &ix) < 0)
			return PROFDATA_ENOMEM;
		b->numbers[b->nframes + j] = ix + 1;
	}
	pd_folded_ahead_line *l = &b->lines[b->nlines++];
	l->off = (uint64_t)(s - a->text);
	l->len = (uint32_t)(end - s);
	l->nframes = (uint32_t)n;
	l->first = b->nframes;
	l->chain_hash = pd_folded_chain_hash(a->chain_seed, h, n);
	b->nframes += n;
	return 0;
}

/* The next lines into batch b, from a->next. 0 or PROFDATA_ENOMEM. */
static int fill(pd_folded_ahead *a, pd_folded_batch *b)
{
	int rc = 0;
	uint64_t from = a->next;
	b->nlines = b->nframes = 0;
	while (rc == 0 && a->next < a->size && b->nlines < BATCH_LINES && b->nframes < BATCH_FRAMES &&
	       a->next - from < BATCH_BYTES) {
		const unsigned char *s = a->text + a->next, *nl = memchr(s, '\n', (size_t)(a->size - a->next));
		const unsigned char *end = nl ? nl : a->text + a->size;
		a->next = (uint64_t)(end - a->text) + (nl != NULL);
		if (end > s && end[-1] == '\r') /* as pd_lines gives a line */
			end--;
		rc = add_line(a, b, s, end);
	}
	return rc;
}

/* Pass over about `bytes` of text, to the start of a line. */
static void skip_lines(pd_folded_ahead *a, uint64_t bytes)
{
	uint64_t to = a->size - a->next > bytes ? a->next + bytes : a->size;
	const unsigned char *nl = to < a->size ? memchr(a->text + to, '\n', (size_t)(a->size - to)) : NULL;
	a->next = nl ? (uint64_t)(nl - a->text) + 1 : a->size;
}

/*
 * Fill slot `slot` on the thread (relay.h): the last one at the text's
 * end, nothing after a failure. When the reader has nothing left to take
 * but the batch it holds, it is about to wait on this thread: the thread
 * then leaves it the next lines (half a batch's text) to split
 * itself, so that both work rather than one waiting. Where the reader is
 * the slower, the batches queue up and the thread leaves it nothing.
 */
static int fill_slot(void *arg, unsigned slot)
{
	pd_folded_ahead *a = arg;
	if (a->last_bytes && pd_relay_queued(&a->relay) <= 1)
		skip_lines(a, a->last_bytes / 2);
	uint64_t from = a->next;
	if (fill(a, &a->batch[slot]) != 0)
		return -1;
	a->last_bytes = a->next - from;
	return a->next >= a->size;
}

void pd_folded_ahead_start(pd_folded_ahead *a, const unsigned char *text, uint64_t size, uint64_t from, int ncounts,
                           const pd_intern *names, uint64_t chain_seed)
{
	memset(a, 0, sizeof *a);
	a->text = text;
	a->size = size;
	a->next = from;
	a->ncounts = ncounts;
	pd_intern_seed_as(&a->names, names);
	a->chain_seed = chain_seed;
	/* On one processor it does not start, and the reader splits every line itself. */
	a->running = pd_relay_start(&a->relay, PD_FOLDED_AHEAD_BATCHES, fill_slot, a);
}

/* The next batch the thread filled into cur (the one before given back), waiting for it: 0 when no more come. */
static int next_batch(pd_folded_ahead *a)
{
	unsigned slot;
	a->cur = pd_relay_next(&a->relay, &slot) ? &a->batch[slot] : NULL;
	a->at = 0;
	return a->cur != NULL;
}

int pd_folded_ahead_take(pd_folded_ahead *a, uint64_t off, size_t len, const pd_folded_ahead_line **line,
                         const pd_folded_batch **batch)
{
	while (a->running) {
		if (!a->cur && !next_batch(a)) {
			a->running = 0; /* the thread is through: the reader splits the rest */
			break;
		}
		const pd_folded_batch *b = a->cur;
		while (a->at < b->nlines && b->lines[a->at].off < off)
			a->at++;
		if (a->at == b->nlines) {
			a->cur = NULL;
			continue;
		}
		const pd_folded_ahead_line *l = &b->lines[a->at];
		if (l->off != off)
			return 0;
		a->at++;
		if (l->len != len)
			return 0;
		*line = l;
		*batch = b;
		return 1;
	}
	return 0;
}

int pd_folded_ahead_peek(const pd_folded_ahead *a, size_t k, const pd_folded_ahead_line **line)
{
	if (!a->cur || k == 0 || a->at + k - 1 >= a->cur->nlines)
		return 0;
	*line = &a->cur->lines[a->at + k - 1];
	return 1;
}

void pd_folded_ahead_stop(pd_folded_ahead *a)
{
	if (!a->text)
		return;
	pd_relay_stop(&a->relay);
	for (size_t i = 0; i < PD_FOLDED_AHEAD_BATCHES; i++)
		PD_FREE_ALL(a->batch[i].lines, a->batch[i].ends, a->batch[i].hashes, a->batch[i].numbers);
	pd_intern_free(&a->names);
	a->text = NULL;
	a->running = 0;
}
