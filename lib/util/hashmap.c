/* SPDX-License-Identifier: Apache-2.0 */
#include "util/hashmap.h"
#include "util/base.h"
#include "util/huge.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t pd_hash_seed(const void *table)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return pd_hash64((uint64_t)(uintptr_t)table ^ ((uint64_t)t.tv_nsec << 20) ^ (uint64_t)t.tv_sec) | 1;
}

void pd_index_free(pd_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->mask = 0;
	ix->count = 0;
	ix->seed = 0;
}

static void put_slot(uint32_t *slots, size_t mask, uint64_t key, uint64_t seed, uint32_t v)
{
	size_t h = (size_t)pd_hash64(key ^ seed) & mask;
	while (slots[h])
		h = (h + 1) & mask;
	slots[h] = v;
}

/* The table at capacity `cap`, from the old one or, for a run (see pd_index), from rows 0..count-1. */
static int rehash(pd_index *ix, const uint64_t *keys, size_t cap)
{
	uint32_t *slots = pd_huge_calloc(cap, sizeof(*slots));
	if (!slots)
		return PROFDATA_ENOMEM;
	size_t mask = cap - 1;
	for (size_t i = 0; ix->slots && i <= ix->mask; i++)
		if (ix->slots[i])
			put_slot(slots, mask, keys[ix->slots[i] - 1], ix->seed, ix->slots[i]);
	for (size_t row = 0; !ix->slots && row < ix->count; row++)
		put_slot(slots, mask, keys[row], ix->seed, (uint32_t)row + 1);
	free(ix->slots);
	ix->slots = slots;
	ix->mask = mask;
	return 0;
}

int pd_index_reserve(pd_index *ix, const uint64_t *keys, size_t n)
{
	size_t cap = 16;
	while (cap / 4 * 3 < n) {
		if (cap > SIZE_MAX / 2)
			return PROFDATA_ENOMEM;
		cap *= 2;
	}
	if (ix->slots && cap <= ix->mask + 1)
		return 0;
	if (!ix->slots)
		ix->seed = pd_hash_seed(ix);
	return rehash(ix, keys, cap);
}

int pd_index_add(pd_index *ix, const uint64_t *keys, uint32_t row, uint32_t *existing)
{
	if (!ix->slots && row == ix->count) {
		uint64_t step = keys[row] - keys[0];
		if (step == row) {
			ix->count++;
			return 0;
		}
		if (step < ix->count) {
			if (existing)
				*existing = (uint32_t)step;
			return 1;
		}
	}
	if (!ix->slots || ix->count + 1 > (ix->mask + 1) / 4 * 3) {
		int e = pd_index_reserve(ix, keys, ix->count + 1 > 16 ? (ix->count + 1) * 2 : 16);
		if (e < 0)
			return e;
	}
	uint64_t key = keys[row];
	size_t h = (size_t)pd_hash64(key ^ ix->seed) & ix->mask;
	for (;;) {
		uint32_t v = ix->slots[h];
		if (!v)
			break;
		if (keys[v - 1] == key) {
			if (existing)
				*existing = v - 1;
			return 1;
		}
		h = (h + 1) & ix->mask;
	}
	ix->slots[h] = row + 1;
	ix->count++;
	return 0;
}

int pd_index_find_slot(const pd_index *ix, const uint64_t *keys, uint64_t key, uint32_t *row)
{
	size_t h = (size_t)pd_hash64(key ^ ix->seed) & ix->mask;
	for (;;) {
		uint32_t v = ix->slots[h];
		if (!v)
			return 0;
		if (keys[v - 1] == key) {
			*row = v - 1;
			return 1;
		}
		h = (h + 1) & ix->mask;
	}
}

static int map_grow(pd_map *m)
{
	if (m->cap > SIZE_MAX / 2 / sizeof(uint64_t))
		return PROFDATA_ENOMEM;
	size_t ncap = m->cap ? m->cap * 2 : 256;
	uint64_t *keys = pd_huge_malloc(ncap * sizeof(*keys));
	uint32_t *vals = pd_huge_calloc(ncap, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return PROFDATA_ENOMEM;
	}
	if (!m->cap)
		m->seed = pd_hash_seed(m);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->vals[i])
			continue;
		size_t k = (size_t)pd_hash64(m->keys[i] ^ m->seed) & (ncap - 1);
		while (vals[k])
			k = (k + 1) & (ncap - 1);
		keys[k] = m->keys[i];
		vals[k] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = ncap;
	return 0;
}

int pd_map_put(pd_map *m, uint64_t key, uint32_t val)
{
	if ((m->n + 1) * 2 > m->cap && map_grow(m) < 0)
		return PROFDATA_ENOMEM;
	size_t j = (size_t)pd_hash64(key ^ m->seed) & (m->cap - 1);
	while (m->vals[j]) {
		if (m->keys[j] == key) {
			m->vals[j] = val;
			return 0;
		}
		j = (j + 1) & (m->cap - 1);
	}
	m->keys[j] = key;
	m->vals[j] = val;
	m->n++;
	return 0;
}

int pd_map_remove(pd_map *m, uint64_t key)
{
	if (!m->cap)
		return 0;
	size_t mask = m->cap - 1, i = pd_map_home(m, key);
	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & mask;
	if (!m->vals[i])
		return 0;
	m->vals[i] = 0;
	m->n--;
	/*
	 * Backward shift: no tombstones, so a map that keeps only what is open
	 * (tickets entered, not yet exited) stays as small as that. A later key
	 * moves into the hole unless its home lies cyclically in (hole, its slot].
	 */
	for (size_t k = (i + 1) & mask; m->vals[k]; k = (k + 1) & mask) {
		size_t h = pd_map_home(m, m->keys[k]);
		int stays = i <= k ? (i < h && h <= k) : (i < h || h <= k);
		if (stays)
			continue;
		m->keys[i] = m->keys[k];
		m->vals[i] = m->vals[k];
		m->vals[k] = 0;
		i = k;
	}
	return 1;
}

void pd_map_clear(pd_map *m)
{
	if (m->cap)
		memset(m->vals, 0, m->cap * sizeof *m->vals);
	m->n = 0;
}

void pd_map_free(pd_map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
	m->seed = 0;
}

/* The slot of s: where it is (*found 1, *index its index) or where it goes (*found 0); *tag its hash's tag. */
static size_t intern_slot(const pd_intern *t, const char *s, size_t len, uint64_t *tag, int *found, uint32_t *index)
{
	uint64_t hash = pd_hash_bytes(s, len, t->seed);
	size_t h = (size_t)hash & t->mask;
	*tag = PD_INTERN_TAG(hash);
	for (;;) {
		uint64_t v = t->slots[h];
		*found = v != 0;
		if (!v || pd_intern_holds(t, v, *tag, s, len, index))
			return h;
		h = (h + 1) & t->mask;
	}
}

static int intern_rehash(pd_intern *t)
{
	size_t cap = t->slots ? (t->mask + 1) * 2 : 64;
	if (cap > SIZE_MAX / sizeof(uint64_t))
		return PROFDATA_ENOMEM;
	uint64_t *slots = pd_huge_calloc(cap, sizeof(*slots));
	if (!slots)
		return PROFDATA_ENOMEM;
	if (!t->slots && !t->seeded)
		t->seed = pd_hash_seed(t);
	free(t->slots);
	t->slots = slots;
	t->mask = cap - 1;
	for (size_t i = 0; i < t->n; i++) {
		int found;
		uint64_t tag;
		uint32_t ix;
		size_t len;
		const char *s = pd_intern_str(t, (uint32_t)i, &len);
		size_t h = intern_slot(t, s, len, &tag, &found, &ix);
		t->slots[h] = tag | (t->off[i] + 1);
	}
	return 0;
}

/* Append s with its head; its head's offset in *head. */
static int intern_append(pd_intern *t, const char *s, size_t len, size_t *head)
{
	if (len > UINT32_MAX - 1 || t->n >= UINT32_MAX - 1)
		return PROFDATA_ENOMEM;
	/* the slot holds the head's offset + 1 in its low bits */
	if (t->nbytes + PD_INTERN_HEAD + len + 1 >= PD_INTERN_OFF_MASK)
		return PROFDATA_ENOMEM;
	if (pd_grow((void **)&t->bytes, &t->bytes_cap, t->nbytes + PD_INTERN_HEAD + len + 1, 1) < 0)
		return PROFDATA_ENOMEM;
	if (pd_grow((void **)&t->off, &t->cap, t->n + 1, sizeof(*t->off)) < 0)
		return PROFDATA_ENOMEM;
	uint32_t fields[2] = { (uint32_t)t->n, (uint32_t)len };
	char *at = t->bytes + t->nbytes;
	memcpy(at, fields, sizeof fields);
	if (len)
		memcpy(at + PD_INTERN_HEAD, s, len);
	at[PD_INTERN_HEAD + len] = '\0';
	*head = t->off[t->n] = t->nbytes;
	t->nbytes += PD_INTERN_HEAD + len + 1;
	t->n++;
	return 0;
}

int pd_intern_add(pd_intern *t, const char *s, size_t len, uint32_t *index)
{
	/* at most half full: lookups of names that are there (most of them) stay short */
	if ((!t->slots || (t->n + 1) * 2 > t->mask + 1) && intern_rehash(t) < 0)
		return PROFDATA_ENOMEM;
	int found;
	uint64_t tag;
	size_t h = intern_slot(t, s, len, &tag, &found, index), head;
	if (found)
		return 1;
	if (intern_append(t, s, len, &head) < 0)
		return PROFDATA_ENOMEM;
	t->slots[h] = tag | (head + 1);
	*index = (uint32_t)t->n - 1;
	return 0;
}

void pd_intern_free(pd_intern *t)
{
	PD_FREE_ALL(t->bytes, t->off, t->slots);
	memset(t, 0, sizeof(*t));
}
