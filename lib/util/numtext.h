/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Numbers written as text, by hand: text writers emit one or more per
 * record, and snprintf (or a digit at a time) was most of their time.
 * Inline, because they run tens of millions of times per conversion.
 * And numbers read from text (pd_parse_dec, pd_parse_hex): text decoders
 * read several per line from a window that is not NUL-terminated, where
 * strtoull cannot be pointed.
 */
#ifndef PD_UTIL_NUMTEXT_H
#define PD_UTIL_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
 * The decimal digits at [p, end) into *out: how many were read (0 when
 * p is no digit), stopping at the first other byte. More than 2^64 - 1
 * reads as 0 digits: a count that cannot be held is no count.
 */
static inline size_t pd_parse_dec(const unsigned char *p, const unsigned char *end, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;
	for (; p + n < end && (unsigned)(p[n] - '0') < 10; n++) {
		unsigned d = (unsigned)(p[n] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	*out = v;
	return n;
}

/* The hex digits (either case, no "0x") at [p, end) into *out, as pd_parse_dec; more than 16 digits read as 0. */
static inline size_t pd_parse_hex(const unsigned char *p, const unsigned char *end, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;
	for (; p + n < end; n++) {
		unsigned c = p[n], d = c - '0';
		if (d >= 10) {
			d = (c | 0x20) - 'a';
			if (d >= 6)
				break;
			d += 10;
		}
		if (n == 16)
			return 0;
		v = v << 4 | d;
	}
	*out = v;
	return n;
}

#endif
