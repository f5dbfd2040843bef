/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Numbers written as text, by hand: text writers emit one or more per
 * record, and snprintf (or a digit at a time) was most of their time; and
 * read back from text, without strtoull's locale, sign and errno.
 * Inline, because they run tens of millions of times per conversion.
 */
#ifndef PD_UTIL_NUMTEXT_H
#define PD_UTIL_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/base.h"

/* The most bytes pd_put_dec writes. */
#define PD_DEC_MAX 20

/* v in decimal at b, no NUL; returns the length (1 to PD_DEC_MAX). */
static inline size_t pd_put_dec(unsigned char *b, uint64_t v)
{
	static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	                               "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	                               "8081828384858687888990919293949596979899";
	size_t n = 1;
	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	/* Two digits per division, from the end. */
	unsigned char *p = b + n;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		p[0] = (unsigned char)pairs[2 * r];
		p[1] = (unsigned char)pairs[2 * r + 1];
	}
	if (v >= 10) {
		p -= 2;
		p[0] = (unsigned char)pairs[2 * v];
		p[1] = (unsigned char)pairs[2 * v + 1];
	} else {
		p[-1] = (unsigned char)('0' + v);
	}
	return n;
}

/*
 * The eight nibbles of x, one per byte, the lowest nibble in the lowest
 * byte, as upper-case hex digits: all eight at once, without a table.
 */
static inline uint64_t pd_hex_spread8(uint32_t x)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t s = x;
	s = (s | (s << 16)) & 0x0000FFFF0000FFFFULL;
	s = (s | (s << 8)) & 0x00FF00FF00FF00FFULL;
	s = (s | (s << 4)) & 0x0F0F0F0F0F0F0F0FULL;
	/* nibbles of 10 and more reach 16 with 6 added: those get 'A' - '9' - 1 more */
	return s + ones * '0' + (((s + ones * 6) >> 4) & ones) * ('A' - '9' - 1);
}

/* x at b, most significant byte first. */
static inline void pd_store_be64(unsigned char *b, uint64_t x)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* One store: built a byte at a time, the two halves of a number were read back
	 * as one 16-byte copy before they had landed, and that stall cost more than the rest. */
	x = __builtin_bswap64(x);
	memcpy(b, &x, 8);
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	memcpy(b, &x, 8);
#else
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(x >> (8 * (7 - i)));
#endif
}

/* v as exactly 16 upper-case hex digits at b (leading zeros kept), no NUL. */
static inline void pd_put_hex16(unsigned char *b, uint64_t v)
{
	pd_store_be64(b, pd_hex_spread8((uint32_t)(v >> 32)));
	pd_store_be64(b + 8, pd_hex_spread8((uint32_t)v));
}

/* v in upper-case hex, at least `width` (1 to 16) digits, no prefix; returns the length. b holds 16 bytes. */
static inline size_t pd_put_hex(unsigned char *b, uint64_t v, unsigned width)
{
	size_t n = 1;
	for (uint64_t t = v >> 4; t; t >>= 4)
		n++;
	if (n < width)
		n = width;
	pd_put_hex16(b, v);
	if (n < 16)
		for (size_t i = 0; i < n; i++)
			b[i] = b[16 - n + i];
	return n;
}

/*
 * The decimal number at p (digits only, before `end`) into *out: the byte
 * after it, or NULL when there is no digit or it passes UINT64_MAX. The
 * text decoders' number parser.
 */
static inline const char *pd_parse_dec(const char *p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = p;
	while (p < end && *p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
		p++;
	}
	if (p == s)
		return NULL;
	*out = v;
	return p;
}

/* The hex number at p (no prefix, either case) as pd_parse_dec reads decimal. */
static inline const char *pd_parse_hex(const char *p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = p;
	for (; p < end; p++) {
		unsigned c = (unsigned char)*p, d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		if (v >> 60)
			return NULL;
		v = v << 4 | d;
	}
	if (p == s)
		return NULL;
	*out = v;
	return p;
}

/* The eight bytes at p (all readable) as a number, the first byte lowest. */
static inline uint64_t pd_load8_le(const unsigned char *p)
{
	uint64_t v;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, p, 8);
#else
	v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
#endif
	return v;
}

/* The value of the n (1 to 8) decimal digits that begin v (pd_load8_le), whatever follows them. */
static inline uint32_t pd_dec8_value(uint64_t v, unsigned n)
{
	const uint64_t ones = 0x0101010101010101ULL;
	/* the digits moved to the top bytes, zeros (leading ones) below, then summed in pairs, fours, eights */
	v = (v & (ones * 0x0F)) << (8 * (8 - n));
	v = (v * 2561) >> 8 & 0x00FF00FF00FF00FFULL;
	v = (v * 6553601) >> 16 & 0x0000FFFF0000FFFFULL;
	return (uint32_t)((v * 42949672960001ULL) >> 32);
}

/*
 * The decimal digits that begin the eight bytes at p (all eight must be
 * readable): their count (0 to 8) in *len and their value. All eight bytes
 * are tested and converted at once, with no branch per digit: on short
 * numbers of varying length (a profile's node ids and time deltas) the
 * branch that ends a digit loop was mispredicted at nearly every number.
 */
static inline uint32_t pd_dec8(const unsigned char *p, unsigned *len)
{
	const uint64_t ones = 0x0101010101010101ULL, high = ones * 0xF0;
	uint64_t v = pd_load8_le(p);
	/*
	 * A byte is a digit when its high nibble is 3 and stays 3 with 6 added.
	 * The addition can carry into the next byte only from a byte of 0xFA or
	 * more, which is not a digit: only bytes after the first non-digit change.
	 */
	uint64_t other = ((v & high) ^ (ones * 0x30)) | (((v + ones * 6) & high) ^ (ones * 0x30));
	unsigned n = other ? pd_ctz64(other) / 8 : 8;
	*len = n;
	return n ? pd_dec8_value(v, n) : 0;
}

/*
 * The same two as a count of the bytes read (0: no number), for decoders
 * that hold bytes rather than chars: pd_parse_dec and pd_parse_hex under it.
 */
static inline size_t pd_parse_dec_len(const unsigned char *p, const unsigned char *end, uint64_t *out)
{
	const char *q = pd_parse_dec((const char *)p, (const char *)end, out);
	return q ? (size_t)(q - (const char *)p) : 0;
}

static inline size_t pd_parse_hex_len(const unsigned char *p, const unsigned char *end, uint64_t *out)
{
	const char *q = pd_parse_hex((const char *)p, (const char *)end, out);
	return q ? (size_t)(q - (const char *)p) : 0;
}

#endif
