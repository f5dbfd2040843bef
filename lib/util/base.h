/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every layer uses (base.c): compiler hints, growable arrays and byte
 * buffers, freeing in groups, orderings, big-endian loads and stores.
 * internal.h includes it.
 */
#ifndef PD_UTIL_BASE_H
#define PD_UTIL_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "profdata/common.h"

#if defined(__GNUC__)
#define PD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define PD_LIKELY(x) __builtin_expect(!!(x), 1)
#define PD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PD_PRINTF(a, b)
#define PD_LIKELY(x) (x)
#define PD_UNLIKELY(x) (x)
#endif

/* The index of x's lowest set bit; x must not be 0. */
static inline unsigned pd_ctz64(uint64_t x)
{
#if defined(__GNUC__)
	return (unsigned)__builtin_ctzll(x);
#else
	unsigned i = 0;
	for (; !(x & 1); x >>= 1)
		i++;
	return i;
#endif
}

/* A growable byte buffer, kept NUL-terminated so that its text can be used as a C string. */
typedef struct pd_strbuf {
	char *p;
	size_t n, cap;
} pd_strbuf;

/* Append `n` bytes; 0 or PROFDATA_ENOMEM. */
int pd_strbuf_add(pd_strbuf *b, const char *s, size_t n);

/*
 * Growable array helper: ensure room for `need` elements of `size`; 0 or
 * PROFDATA_ENOMEM. The capacity doubles, except that it leaps from
 * PD_HUGE_MIN bytes to PD_HUGE_MOVE or more (base.c says why).
 */
int pd_grow(void **ptr, size_t *cap, size_t need, size_t size);

/*
 * realloc for arrays that may grow large: *ptr (old_bytes of it kept) to
 * new_bytes, on huge pages from 8 MiB (base.c says how); 0 or
 * PROFDATA_ENOMEM, *ptr unchanged on failure. pd_grow grows through it.
 */
int pd_regrow(void **ptr, size_t old_bytes, size_t new_bytes);

/*
 * Free every pointer listed (NULLs too): a state holding many buffers is torn
 * down by one call per group of them, not a line per buffer in every codec.
 */
void pd_free_each(void *const *ptrs, size_t n);
#define PD_FREE_ALL(...) \
	pd_free_each((void *const[]){ __VA_ARGS__ }, sizeof((void *[]){ __VA_ARGS__ }) / sizeof(void *))

/* -1, 0 or 1 as a is below, equal to or above b: the step of a qsort comparator, key after key. */
static inline int pd_order_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

/*
 * Sample values add modulo 2^64, as pprof's int64 sums do: a hostile file's
 * sums may wrap but never overflow a signed type (undefined behaviour).
 */
static inline int64_t pd_wrapping_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

/* Big-endian loads, used by several codecs. */
static inline uint16_t pd_be16(const unsigned char *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t pd_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t pd_be64(const unsigned char *p) { return ((uint64_t)pd_be32(p) << 32) | pd_be32(p + 4); }
static inline void pd_put_be16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)(v >> 8); p[1] = (unsigned char)v; }
static inline void pd_put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}
static inline void pd_put_be64(unsigned char *p, uint64_t v)
{
	pd_put_be32(p, (uint32_t)(v >> 32)); pd_put_be32(p + 4, (uint32_t)v);
}
/* An identifier of `size` (4 or 8) bytes. */
static inline uint64_t pd_be_id(const unsigned char *p, unsigned size) { return size == 8 ? pd_be64(p) : pd_be32(p); }

#endif
