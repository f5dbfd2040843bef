/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Folded lines split, hashed and their names numbered ahead of the reader,
 * on a second thread.
 *
 * Why: on a file of distinct chains, finding each name's end, hashing it
 * and looking it up among the names was half of the reader's time, and it
 * needs nothing the reader builds: only the text and two seeds. A second
 * processor does it for the lines ahead: it numbers the names in a table
 * of its own, and the reader, once it knows which frame a number is,
 * reads the frame from an array. The reader's own work per line is then
 * mostly the stack.
 *
 * Only for input that stays where it is (a mapping, a buffer): the thread
 * reads the text itself, past the reader's window. What it gives is a hint
 * keyed by where a chain starts and how long it is: the reader takes it
 * only for the chain it has itself found at that place, and splits any
 * other line (one the thread passed over, a bad one) itself, as it does
 * without the thread. The split and the hashes are the same functions of
 * the same bytes either way (chain.h), so the profile never depends on
 * the thread.
 */
#ifndef PD_CODECS_FOLDED_AHEAD_H
#define PD_CODECS_FOLDED_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "util/relay.h"
#include "util/hashmap.h"

#define PD_FOLDED_AHEAD_BATCHES 4

/* A chain the thread split: its frames' ends and names' hashes sit in its batch from `first`. */
typedef struct pd_folded_ahead_line {
	uint64_t off;        /* the chain's first byte, from the text's */
	uint64_t chain_hash; /* pd_folded_chain_hash() of its names' hashes */
	size_t first;
	uint32_t len, nframes;
} pd_folded_ahead_line;

typedef struct pd_folded_batch {
	pd_folded_ahead_line *lines;
	size_t nlines, lines_cap;
	uint32_t *ends;      /* per frame: where its name ends, from its chain's start */
	uint64_t *hashes;    /* per frame: its name's hash */
	uint32_t *numbers;   /* per frame: its name's number in the thread's table (index + 1) */
	size_t nframes, ends_cap, hashes_cap, numbers_cap;
} pd_folded_batch;

typedef struct pd_folded_ahead {
	/* Set before the thread starts, then only read. */
	const unsigned char *text;
	uint64_t size;
	int ncounts;         /* counts a line ends in: 1, or 2 (a differential file) */
	uint64_t chain_seed;
	/* The thread's: every name it has met, hashed as the reader's names are. */
	pd_intern names;
	/* The thread's. */
	uint64_t next;       /* where its next line starts */
	uint64_t last_bytes; /* the text its last batch took */
	/* Filled on the thread and handed to the reader in turn (relay.h). */
	pd_folded_batch batch[PD_FOLDED_AHEAD_BATCHES];
	pd_relay relay;
	/* The reader's. */
	int running;         /* the thread was started: hints may come */
	pd_folded_batch *cur;
	size_t at;           /* the next line of cur to offer */
} pd_folded_ahead;

/*
 * Start splitting text[from, size) ahead, lines of `ncounts` counts, names
 * hashed as `names` hashes them and chains with `chain_seed`. On one
 * processor, or when no thread can be made, nothing starts and
 * pd_folded_ahead_take() finds nothing (a->running is 0).
 */
void pd_folded_ahead_start(pd_folded_ahead *a, const unsigned char *text, uint64_t size, uint64_t from, int ncounts,
                           const pd_intern *names, uint64_t chain_seed);

/*
 * The thread's split of the chain at text offset `off`, `len` bytes: 1 and
 * *line (its ends and hashes in *batch, valid until the next call), or 0
 * when it has none (the caller splits the chain itself). Offsets asked
 * must not go back.
 */
int pd_folded_ahead_take(pd_folded_ahead *a, uint64_t off, size_t len, const pd_folded_ahead_line **line,
                         const pd_folded_batch **batch);

/*
 * The line k lines after the one pd_folded_ahead_take() last gave (k >= 1),
 * when the thread has split it and in the same batch: 1 and *line (valid
 * until the next take); else 0. For prefetching: the reader may not take
 * that line.
 */
int pd_folded_ahead_peek(const pd_folded_ahead *a, size_t k, const pd_folded_ahead_line **line);

/* Stop the thread and free what it held. Safe on a zeroed or never started one. */
void pd_folded_ahead_stop(pd_folded_ahead *a);

#endif
