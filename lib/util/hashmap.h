/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An id -> row index map that stores only 4-byte row indexes; the keys live
 * in the caller's column (e.g. the objects' id column), passed to each call
 * because the column may move when it grows. Open addressing with linear
 * probing, at most 3/4 full: about 5-11 bytes per row, which is what lets the
 * model keep tens of millions of objects.
 */
#ifndef PD_HASHMAP_H
#define PD_HASHMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * A hint that memory at p is about to be read (the prefetch functions
 * below, and decoders that know their next reads); nothing where the
 * compiler has no such builtin. The empty asm that takes the address
 * emits nothing: it is there because GCC 12 at -O1, -O2 (the default
 * build) and -Os deleted the prefetch of an address read from memory
 * (pd_intern_prefetch_string()) wherever the helper was inlined, so that
 * the hint compiled to nothing (-O3 and clang kept it); with the asm the
 * hint has a use GCC must keep.
 */
#if defined(__GNUC__) || defined(__clang__)
#define PD_PREFETCH(p)                                        \
	do {                                                  \
		const void *pd_prefetch_at_ = (p);            \
		__builtin_prefetch(pd_prefetch_at_);          \
		__asm__ __volatile__("" : : "r"(pd_prefetch_at_)); \
	} while (0)
#else
#define PD_PREFETCH(p) ((void)(p))
#endif

/*
 * Most decoders number what they emit 1, 2, 3, ... (frames, stacks,
 * functions): while every row added so far, from row 0 on, has the key of
 * row 0 plus its row, the index is that arithmetic and has no table at all,
 * so neither adding nor finding reads memory beyond the key column. The
 * first row that breaks the run builds the table; an index reserved before
 * its first row has its table from the start.
 */
typedef struct pd_index {
	uint32_t *slots; /* row + 1; 0 empty. NULL with count > 0: a run, row r's key is keys[0] + r */
	size_t mask;     /* capacity - 1 */
	size_t count;
	uint64_t seed;   /* see pd_hash_seed() */
} pd_index;

/*
 * Keys come from the input, so a fixed hash would let a crafted file put
 * every id in one probe chain and make loading quadratic. Each table mixes
 * in a seed drawn from the clock and its own address when it first grows.
 */
uint64_t pd_hash_seed(const void *table);

static inline uint64_t pd_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

void pd_index_free(pd_index *ix);
/* Size for `n` rows up front (optional). */
int pd_index_reserve(pd_index *ix, const uint64_t *keys, size_t n);
/*
 * Add row `row` (its key is keys[row]). If a row with the same key exists,
 * *existing gets it and nothing is added (returns 1). 0 when added,
 * PROFDATA_ENOMEM on failure.
 */
int pd_index_add(pd_index *ix, const uint64_t *keys, uint32_t row, uint32_t *existing);
/* The slot a lookup of `key` reads first, for a caller that prefetches a batch of lookups (ix->slots non-NULL). */
static inline size_t pd_index_home(const pd_index *ix, uint64_t key)
{
	return (size_t)pd_hash64(key ^ ix->seed) & ix->mask;
}
/* Ask memory ahead for the slot a lookup of `key` reads first (PD_PREFETCH). */
static inline void pd_index_prefetch(const pd_index *ix, uint64_t key)
{
	if (ix->slots)
		PD_PREFETCH(ix->slots + pd_index_home(ix, key));
}
/*
 * Ask memory ahead for the key of the row in `key`'s first slot, which a
 * lookup or an add compares next: a second step after pd_index_prefetch()
 * of the same key, once its slot has arrived (a table whose keys are spread
 * waits on the key column as long as on the slots).
 */
static inline void pd_index_prefetch_key(const pd_index *ix, const uint64_t *keys, uint64_t key)
{
	if (ix->slots) {
		uint32_t v = ix->slots[pd_index_home(ix, key)];
		if (v)
			PD_PREFETCH(keys + v - 1);
	}
}
/* 1 and *row when found, else 0. Inline: a run needs no call. */
int pd_index_find_slot(const pd_index *ix, const uint64_t *keys, uint64_t key, uint32_t *row);
static inline int pd_index_find(const pd_index *ix, const uint64_t *keys, uint64_t key, uint32_t *row)
{
	if (ix->slots)
		return pd_index_find_slot(ix, keys, key, row);
	if (!ix->count || key - keys[0] >= ix->count)
		return 0;
	*row = (uint32_t)(key - keys[0]);
	return 1;
}

/*
 * A 64-bit key -> non-zero 32-bit value map that owns its keys, for tables
 * whose keys have no column of their own (PCs, call-chain hashes, ids seen
 * in passing). At most half full.
 */
typedef struct pd_map {
	uint64_t *keys;
	uint32_t *vals; /* 0: empty slot */
	size_t cap, n;
	uint64_t seed;
} pd_map;

/* The value stored for `key`, or 0. Inline: decoders ask once per record. */
static inline uint32_t pd_map_get(const pd_map *m, uint64_t key)
{
	if (!m->cap)
		return 0;
	size_t j = (size_t)pd_hash64(key ^ m->seed) & (m->cap - 1);
	while (m->vals[j]) {
		if (m->keys[j] == key)
			return m->vals[j];
		j = (j + 1) & (m->cap - 1);
	}
	return 0;
}
/*
 * The slot pd_map_get(m, key) probes first (0 for an empty map), for a
 * caller that prefetches a batch of lookups: it reads m->vals[slot], then
 * m->keys[slot].
 */
static inline size_t pd_map_home(const pd_map *m, uint64_t key)
{
	return m->cap ? (size_t)pd_hash64(key ^ m->seed) & (m->cap - 1) : 0;
}
/* Ask memory ahead for the value and key a lookup of `key` reads first (PD_PREFETCH). */
static inline void pd_map_prefetch(const pd_map *m, uint64_t key)
{
	if (m->cap) {
		size_t j = pd_map_home(m, key);
		PD_PREFETCH(m->vals + j);
		PD_PREFETCH(m->keys + j);
	}
}
/* Store `val` (non-zero) for `key`, replacing any value. 0 or PROFDATA_ENOMEM. */
int pd_map_put(pd_map *m, uint64_t key, uint32_t val);
/* Remove `key`: 1 when it was there, else 0. */
int pd_map_remove(pd_map *m, uint64_t key);
/* Empty the map, keeping its slots: a map filled again to about the same size allocates nothing. */
void pd_map_clear(pd_map *m);
void pd_map_free(pd_map *m);

/*
 * A seeded hash of a byte string (names, call chains as arrays of PCs): the
 * one every table keyed by variable-length data uses, for the same reason
 * as pd_hash_seed(). It runs once per record on hot paths (a type name per
 * object, a call chain per sample), so each 16 bytes cost one 64x64->128
 * multiply: the state (which starts from the seed) times the second word
 * keyed by the seed, the halves folded. Both factors are unknown without
 * the seed, so no difference between two inputs passes through a step in
 * a known way (as the top bit does through a plain multiply).
 */
static inline uint64_t pd_hash_mum(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 p = (unsigned __int128)a * b;
	return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
	return pd_hash64(a ^ pd_hash64(b));
#endif
}

static inline uint64_t pd_hash_load(const unsigned char *p, size_t n)
{
	uint64_t w = 0;
	memcpy(&w, p, n);
	return w;
}

static inline uint64_t pd_hash_bytes(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	const uint64_t key = seed ^ 0xa0761d6478bd642fULL, key2 = seed ^ 0xe7037ed1a0b428dbULL;
	uint64_t h = pd_hash_mum(seed ^ len, key), a, b;
	size_t n = len;
	for (; n > 16; n -= 16, p += 16)
		h = pd_hash_mum(h ^ pd_hash_load(p, 8), key2 ^ pd_hash_load(p + 8, 8));
	/* The last 1-16 bytes in fixed-size loads that may overlap (the length
	 * is in the hash): no call to memcpy for a variable size. */
	if (n > 8) {
		a = pd_hash_load(p, 8);
		b = pd_hash_load(p + n - 8, 8);
	} else if (n >= 4) {
		a = pd_hash_load(p, 4);
		b = pd_hash_load(p + n - 4, 4);
	} else {
		a = n ? (uint64_t)p[0] << 16 | (uint64_t)p[n / 2] << 8 | p[n - 1] : 0;
		b = 0;
	}
	h = pd_hash_mum(h ^ a, key2 ^ b);
	return pd_hash64(h ^ len);
}

/*
 * A string interner: each distinct byte string gets a dense index (0, 1, ...)
 * in first-seen order, and its bytes are kept once, NUL-terminated. What
 * every codec and the model use to number names, instead of tables of their
 * own. Pointers from pd_intern_str() move when the interner grows.
 *
 * Each string sits in `bytes` behind an 8-byte head (its index, then its
 * length, 32 bits each), and a slot holds where that head is. A lookup that
 * finds its string so reads two places: the slot and the string (head and
 * bytes share a cache line or two). Finding is what decoders do per record
 * (a frame name per frame of a folded line, a type name per object); on big
 * tables every further array read there (an index -> offset, an index ->
 * length) was one more cache miss, and the misses were most of the time.
 */
typedef struct pd_intern {
	char *bytes;       /* each string: its head (index, length), its bytes, a NUL */
	size_t nbytes, bytes_cap;
	size_t *off;       /* index -> offset of its head in bytes */
	size_t n, cap;
	/* 0 empty, else the head's offset + 1 in the low 40 bits and the top 24
	 * bits of the string's hash above them: a probe that meets another
	 * string nearly always tells it by the tag, without reading that string. */
	uint64_t *slots;
	size_t mask;
	uint64_t seed;
	int seeded;        /* the seed was set (pd_intern_seed_as), not to be drawn */
} pd_intern;

#define PD_INTERN_HEAD 8
#define PD_INTERN_OFF_BITS 40
#define PD_INTERN_OFF_MASK ((1ULL << PD_INTERN_OFF_BITS) - 1)
#define PD_INTERN_TAG(hash) ((hash) & ~PD_INTERN_OFF_MASK)

static inline uint32_t pd_intern_head(const char *head, int field)
{
	uint32_t v;
	memcpy(&v, head + 4 * field, sizeof v);
	return v;
}

/* Whether slot value v (not 0) holds s, of hash tag `tag`: the string's index in *index when it does. */
static inline int pd_intern_holds(const pd_intern *t, uint64_t v, uint64_t tag, const char *s, size_t len,
                                  uint32_t *index)
{
	if ((v & ~PD_INTERN_OFF_MASK) != tag)
		return 0;
	const char *head = t->bytes + (v & PD_INTERN_OFF_MASK) - 1, *a = head + PD_INTERN_HEAD;
	if (pd_intern_head(head, 1) != len)
		return 0;
	size_t i = 0;
	for (; i + 8 <= len; i += 8)
		if (pd_hash_load((const unsigned char *)a + i, 8) != pd_hash_load((const unsigned char *)s + i, 8))
			return 0;
	while (i < len && a[i] == s[i])
		i++;
	*index = pd_intern_head(head, 0);
	return i == len;
}

/* The hash of s that pd_intern_find_hashed() takes. */
static inline uint64_t pd_intern_hash(const pd_intern *t, const char *s, size_t len)
{
	return pd_hash_bytes(s, len, t->seed);
}

/*
 * pd_intern_find() of a string whose pd_intern_hash() is known. A hash
 * taken before the interner's first string (its seed is drawn then) finds
 * nothing: pd_intern_add() then finds the string if it is there.
 */
static inline int pd_intern_find_hashed(const pd_intern *t, const char *s, size_t len, uint64_t hash, uint32_t *index)
{
	if (!t->slots)
		return 0;
	uint64_t tag = PD_INTERN_TAG(hash);
	for (size_t h = (size_t)hash & t->mask;; h = (h + 1) & t->mask) {
		uint64_t v = t->slots[h];
		if (!v)
			return 0;
		if (pd_intern_holds(t, v, tag, s, len, index))
			return 1;
	}
}

/* 1 and *index when `s` is there, else 0. */
static inline int pd_intern_find(const pd_intern *t, const char *s, size_t len, uint32_t *index)
{
	/* Inline, with the comparison by words: decoders ask once per record
	 * (a type name per object) and nearly always find the name. */
	return pd_intern_find_hashed(t, s, len, pd_intern_hash(t, s, len), index);
}

/*
 * Ask memory ahead for what a lookup of `hash` reads: its first slot, then
 * (once that slot has arrived) the string it names. A decoder that knows
 * several keys at once (a folded line's frames) asks for all of them before
 * it looks any up, so that their cache misses overlap instead of queueing.
 * Hints only: a lookup is right whatever they did.
 */
static inline void pd_intern_prefetch_slot(const pd_intern *t, uint64_t hash)
{
	if (t->slots)
		PD_PREFETCH(&t->slots[(size_t)hash & t->mask]);
}

static inline void pd_intern_prefetch_string(const pd_intern *t, uint64_t hash)
{
	uint64_t v = t->slots ? t->slots[(size_t)hash & t->mask] : 0;
	if (v)
		PD_PREFETCH(t->bytes + (v & PD_INTERN_OFF_MASK) - 1);
}
/*
 * pd_intern_put without its inline lookup first: one hash and one probe for
 * keys that are mostly new (a folded file's chains), where the lookup would
 * only be done twice.
 */
int pd_intern_add(pd_intern *t, const char *s, size_t len, uint32_t *index);
/* The index of `s` (len bytes), adding it if new. 1 if it was there, 0 if added, or PROFDATA_ENOMEM. */
static inline int pd_intern_put(pd_intern *t, const char *s, size_t len, uint32_t *index)
{
	return pd_intern_find(t, s, len, index) ? 1 : pd_intern_add(t, s, len, index);
}
/* String `index` (NUL-terminated); *len gets its length when not NULL. */
static inline const char *pd_intern_str(const pd_intern *t, uint32_t index, size_t *len)
{
	const char *head = t->bytes + t->off[index];
	if (len)
		*len = pd_intern_head(head, 1);
	return head + PD_INTERN_HEAD;
}
void pd_intern_free(pd_intern *t);
/*
 * Hash as `other` does, before the first string (t zeroed): a table whose
 * keys' hashes another table's owner takes (a thread that interns names
 * ahead of a reader, codecs/folded/ahead.c) looks them up with those.
 */
static inline void pd_intern_seed_as(pd_intern *t, const pd_intern *other)
{
	t->seed = other->seed;
	t->seeded = 1;
}

#endif
