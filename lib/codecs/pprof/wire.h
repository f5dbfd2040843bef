/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The protobuf wire format as the pprof reader walks it: a field is a key
 * (number << 3 | wire type) and a varint, a fixed 8 or 4 bytes, or a length
 * and that many bytes. Every read is bounded by the span it walks, so a
 * length past the end or an overlong varint is found before any byte past
 * the span is touched. Inline: the reader calls them per field.
 */
#ifndef PD_PPROF_WIRE_H
#define PD_PPROF_WIRE_H

#include <stddef.h>
#include <stdint.h>

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_BYTES = 2, PB_FIXED32 = 5 };

/* What a walk found wrong, for a message naming the byte. */
enum { PB_OK = 0, PB_TRUNCATED = 1, PB_OVERLONG = 2, PB_BAD_WIRE = 3, PB_PAST_END = 4, PB_FIELD_ZERO = 5 };

/* A span of bytes being walked: p moves towards end. */
typedef struct pb_span {
	const unsigned char *p, *end;
} pb_span;

/* One field: its number and wire type, and its value (varints and fixed ones) or bytes. */
typedef struct pb_field {
	uint32_t number;
	unsigned wire;
	uint64_t value;
	pb_span bytes;
	const unsigned char *at;  /* where its key began */
	const unsigned char *value_at; /* where its value (or length) began */
} pb_field;

/* A varint of at most 10 bytes: PB_OK, PB_TRUNCATED or PB_OVERLONG. */
static inline int pb_varint(pb_span *s, uint64_t *out)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (s->p >= s->end)
			return PB_TRUNCATED;
		unsigned char b = *s->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return PB_OK;
		}
	}
	return PB_OVERLONG;
}

/* The next field of s: 1 and *f, 0 at the end, or -PB_* (s->p is then where it went wrong). */
static inline int pb_next(pb_span *s, pb_field *f)
{
	uint64_t key, len;
	int e;
	if (s->p >= s->end)
		return 0;
	f->at = s->p;
	f->value = 0;
	f->bytes.p = f->bytes.end = NULL;
	if ((e = pb_varint(s, &key)) != PB_OK)
		return -e;
	if (key >> 3 == 0 || key >> 3 > UINT32_MAX)
		return -PB_FIELD_ZERO;
	f->number = (uint32_t)(key >> 3);
	f->wire = (unsigned)(key & 7);
	f->value_at = s->p;
	switch (f->wire) {
	case PB_VARINT:
		return (e = pb_varint(s, &f->value)) != PB_OK ? -e : 1;
	case PB_FIXED64:
	case PB_FIXED32: {
		size_t n = f->wire == PB_FIXED64 ? 8 : 4;
		if ((size_t)(s->end - s->p) < n)
			return -PB_TRUNCATED;
		f->value = 0;
		for (size_t i = 0; i < n; i++)
			f->value |= (uint64_t)s->p[i] << (8 * i);
		s->p += n;
		return 1;
	}
	case PB_BYTES:
		if ((e = pb_varint(s, &len)) != PB_OK)
			return -e;
		if (len > (uint64_t)(s->end - s->p)) {
			s->p = f->at; /* the field whose length runs past is what a message names */
			return -PB_PAST_END;
		}
		f->bytes.p = s->p;
		f->bytes.end = s->p + len;
		s->p += len;
		return 1;
	default:
		/* groups (3, 4) are not in profile.proto, and 6, 7 are no wire type */
		return -PB_BAD_WIRE;
	}
}

/* What -PB_* says, for messages. */
static inline const char *pb_problem(int e)
{
	switch (-e) {
	case PB_TRUNCATED: return "the input ends inside a field";
	case PB_OVERLONG: return "a varint longer than 10 bytes";
	case PB_BAD_WIRE: return "a wire type profile.proto does not use (groups, or no wire type)";
	case PB_PAST_END: return "a length past the end of its message";
	case PB_FIELD_ZERO: return "a field number 0 or past 2^32";
	default: return "malformed protobuf";
	}
}

#endif
