#include "hashmap.h"

#include <stdlib.h>

#include "profdata/common.h"

void pd_index_free(pd_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->mask = 0;
	ix->count = 0;
}

static int rehash(pd_index *ix, const uint64_t *keys, size_t cap)
{
	uint32_t *slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return PROFDATA_ENOMEM;
	size_t mask = cap - 1;
	for (size_t i = 0; ix->slots && i <= ix->mask; i++) {
		uint32_t v = ix->slots[i];
		if (!v)
			continue;
		size_t h = (size_t)pd_hash64(keys[v - 1]) & mask;
		while (slots[h])
			h = (h + 1) & mask;
		slots[h] = v;
	}
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
	return rehash(ix, keys, cap);
}

int pd_index_add(pd_index *ix, const uint64_t *keys, uint32_t row, uint32_t *existing)
{
	if (!ix->slots || ix->count + 1 > (ix->mask + 1) / 4 * 3) {
		int e = pd_index_reserve(ix, keys, ix->count + 1 > 16 ? (ix->count + 1) * 2 : 16);
		if (e < 0)
			return e;
	}
	uint64_t key = keys[row];
	size_t h = (size_t)pd_hash64(key) & ix->mask;
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

int pd_index_find(const pd_index *ix, const uint64_t *keys, uint64_t key, uint32_t *row)
{
	if (!ix->slots)
		return 0;
	size_t h = (size_t)pd_hash64(key) & ix->mask;
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
