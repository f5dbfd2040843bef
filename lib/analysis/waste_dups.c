/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Objects grouped by contents (duplicate strings and arrays) without a copy
 * of any contents: the library's one map holds a seeded 64-bit hash of the
 * contents and the first object that had them, and a second object of that
 * hash is compared with that first one in full. Two contents of one hash
 * (a collision, or input made to collide) take the next key of a fixed
 * sequence, so a group only ever holds equal contents.
 */
#include <limits.h>
#include <stdlib.h>

#include "analysis/waste_impl.h"
#include "util/huge.h"

#if PD_HEAP_WIDTH == 64
/* A first copy: its node in t->firsts, its place + 1 in the map (below PD_DUP_GROUP, else PROFDATA_ENOMEM). */
static int put_first(pd_dup_table *t, uint64_t key, pd_hnode i)
{
	if (t->nfirsts >= PD_DUP_NUMBER ||
	    pd_grow((void **)&t->firsts, &t->firsts_cap, t->nfirsts + 1, sizeof *t->firsts) < 0 ||
	    pd_map_put(&t->map, key, (uint32_t)t->nfirsts + 1) < 0)
		return PROFDATA_ENOMEM;
	t->firsts[t->nfirsts++] = i;
	return 0;
}
#define FIRST_COPY(t, v) ((t)->firsts[(v) - 1])
#else
#define FIRST_COPY(t, v) ((v) - 1)
#endif

static int new_group(pd_dup_table *t, uint64_t key, pd_hnode rep, uint32_t *group)
{
	if (t->n >= PD_DUP_NUMBER ||
	    pd_grow((void **)&t->groups, &t->cap, t->n + 1, sizeof *t->groups) < 0 ||
	    pd_map_put(&t->map, key, PD_DUP_GROUP | (uint32_t)t->n) < 0)
		return PROFDATA_ENOMEM;
	pd_dup_group *g = &t->groups[t->n];
	memset(g, 0, sizeof *g);
	g->rep = rep;
	g->count = 1;                  /* the caller counts the second */
	*group = (uint32_t)t->n++;
	return 0;
}

int pd_dup_add(pd_dup_table *t, uint64_t hash, pd_hnode i, pd_dup_same_fn same, void *ctx, uint32_t *group,
               int *created)
{
	*group = UINT32_MAX;
	*created = 0;
	for (uint64_t key = hash;; key = pd_hash64(key + 1)) {
		uint32_t v = pd_map_get(&t->map, key);
		if (!v)
#if PD_HEAP_WIDTH == 64
			return put_first(t, key, i);
#else
			return pd_map_put(&t->map, key, i + 1) < 0 ? PROFDATA_ENOMEM : 0;
#endif
		pd_hnode rep = v & PD_DUP_GROUP ? t->groups[v & PD_DUP_NUMBER].rep : FIRST_COPY(t, v);
		if (!same(ctx, rep))
			continue;
		if (v & PD_DUP_GROUP) {
			*group = v & PD_DUP_NUMBER;
			return 0;
		}
		*created = 1;
		return new_group(t, key, rep, group);
	}
}

void pd_dup_free(pd_dup_table *t)
{
	pd_map_free(&t->map);
	free(t->groups);
#if PD_HEAP_WIDTH == 64
	free(t->firsts);
#endif
	memset(t, 0, sizeof *t);
}

/* qsort has no context: the groups being ranked are passed through a local array of pairs instead. */
typedef struct ranked {
	uint64_t wasted;
	pd_hnode rep;
	uint32_t group;
} ranked;

static int by_wasted(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->wasted != y->wasted)
		return x->wasted > y->wasted ? -1 : 1;
	return pd_order_u64(x->rep, y->rep);
}

uint32_t *pd_dup_ranked(const pd_dup_table *t)
{
	ranked *r = malloc((t->n ? t->n : 1) * sizeof *r);
	uint32_t *out = malloc((t->n ? t->n : 1) * sizeof *out);
	if (!r || !out) {
		PD_FREE_ALL(r, out);
		return NULL;
	}
	for (size_t k = 0; k < t->n; k++)
		r[k] = (ranked){ t->groups[k].bytes - t->groups[k].first_bytes, t->groups[k].rep, (uint32_t)k };
	if (t->n)
		qsort(r, t->n, sizeof *r, by_wasted);
	for (size_t k = 0; k < t->n; k++)
		out[k] = r[k].group;
	free(r);
	return out;
}

/* 16-32 slots a candidate (a power of two): a lone hash shares its slot with another once in 16-32. */
int pd_dup_sieve_start(pd_dup_sieve *v, size_t most)
{
	unsigned log2_slots = 12;
	while (log2_slots < 63 && ((uint64_t)1 << log2_slots) / 16 < most)
		log2_slots++;
	memset(v, 0, sizeof *v);
	if (most > SIZE_MAX / sizeof *v->hashes || log2_slots - 2 >= sizeof(size_t) * CHAR_BIT)
		return PROFDATA_ENOMEM; /* more candidates than memory can hold: the bitmap's bytes would not fit a size_t */
	v->shift = 64 - log2_slots;
	v->cap = most;
	v->hashes = pd_huge_malloc((most ? most : 1) * sizeof *v->hashes);
	v->nodes = pd_huge_malloc((most ? most : 1) * sizeof *v->nodes);
	v->bits = pd_huge_calloc((size_t)1 << (log2_slots - 2), 1); /* 4 slots a byte */
	if (!v->hashes || !v->nodes || !v->bits) {
		pd_dup_sieve_free(v);
		return PROFDATA_ENOMEM;
	}
	return 0;
}

void pd_dup_sieve_note(pd_dup_sieve *v, uint64_t hash, pd_hnode node)
{
	if (v->n == v->cap)
		return; /* the callers count exactly; this only keeps a miscount from writing past the room */
	v->hashes[v->n] = hash;
	v->nodes[v->n++] = node;
}

/*
 * The bitmap is tens of MB, read at random: each candidate's slot is a
 * cache miss (95% of the notes' time when they marked it at once, 1.4 s of
 * a 37M-object report). Both loops below ask for the slot of the candidate
 * this far ahead, so that the misses overlap.
 */
enum { SIEVE_AHEAD = 16 };

/* Candidate k's slot: its 2 bits are bits[slot >> 2] >> slot_shift(slot). */
static uint64_t slot_of(const pd_dup_sieve *v, size_t k) { return v->hashes[k] >> v->shift; }
static unsigned slot_shift(uint64_t slot) { return (unsigned)(slot & 3) * 2; }

void pd_dup_sieve_sift(pd_dup_sieve *v)
{
	for (size_t k = 0; k < v->n; k++) {
		if (k + SIEVE_AHEAD < v->n)
			PD_PREFETCH(&v->bits[slot_of(v, k + SIEVE_AHEAD) >> 2]);
		uint64_t slot = slot_of(v, k);
		unsigned at = slot_shift(slot);
		uint8_t *b = &v->bits[slot >> 2];
		*b |= (uint8_t)((*b >> at & 1u) << (at + 1) | 1u << at); /* once seen, twice */
	}
	size_t kept = 0;
	for (size_t k = 0; k < v->n; k++) {
		if (k + SIEVE_AHEAD < v->n)
			PD_PREFETCH(&v->bits[slot_of(v, k + SIEVE_AHEAD) >> 2]);
		uint64_t slot = slot_of(v, k);
		unsigned at = slot_shift(slot);
		if (v->bits[slot >> 2] >> (at + 1) & 1) {
			v->hashes[kept] = v->hashes[k];
			v->nodes[kept++] = v->nodes[k];
		}
	}
	v->n = kept;
	free(v->bits);
	v->bits = NULL;
}

void pd_dup_sieve_free(pd_dup_sieve *v)
{
	PD_FREE_ALL(v->hashes, v->nodes, v->bits);
	memset(v, 0, sizeof *v);
}
