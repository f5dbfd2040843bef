/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A chunk's header and the primitive values every JFR structure is made
 * of: integers compressed (7 bits a byte, low bits first, the ninth byte
 * whole) or fixed-size big-endian, as the header's flag says, and strings
 * in their six encodings. Every read is checked against the cursor's end,
 * which is the chunk's (or an event's) end.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "codecs/jfr/jfr.h"

int jfr_fail(const jfr_cur *c, const unsigned char *at, int code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	if (!c->in) /* the writer's cursor over bytes the model kept (write_kept.c): the caller says what failed */
		return code;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pd_in_error(c->in, code, (uint64_t)(at - c->input), "jfr: %s", msg);
}

static int64_t be64s(const unsigned char *p) { return (int64_t)pd_be64(p); }

int jfr_read_header(jfr_header *h, const jfr_cur *c)
{
	const unsigned char *p = c->p;
	if ((size_t)(c->end - p) < JFR_HEADER_SIZE)
		return jfr_fail(c, p, PROFDATA_ETRUNCATED, "a chunk header of %zu bytes, not %d", (size_t)(c->end - p),
		                JFR_HEADER_SIZE);
	if (memcmp(p, "FLR\0", 4) != 0)
		return jfr_fail(c, p, PROFDATA_EFORMAT, "no chunk magic FLR\\0");
	h->major = pd_be16(p + 4);
	h->minor = pd_be16(p + 6);
	h->size = pd_be64(p + 8);
	h->cpool_offset = pd_be64(p + 16);
	h->meta_offset = pd_be64(p + 24);
	h->start_nanos = be64s(p + 32);
	h->duration_nanos = be64s(p + 40);
	h->start_ticks = be64s(p + 48);
	h->ticks_per_second = be64s(p + 56);
	h->flags = pd_be32(p + 64);
	if (h->major < 1 || h->major > 2)
		return jfr_fail(c, p + 4, PROFDATA_EUNSUPPORTED, "version %u.%u (this reader knows 1.x and 2.x)",
		                h->major, h->minor);
	if (h->size < JFR_HEADER_SIZE || h->size > (uint64_t)(c->end - p))
		return jfr_fail(c, p + 8, PROFDATA_ETRUNCATED, "chunk size %" PRIu64 " with %zu bytes left", h->size,
		                (size_t)(c->end - p));
	if (h->size > UINT32_MAX - 1)
		return jfr_fail(c, p + 8, PROFDATA_ELIMIT, "chunk size %" PRIu64 " past 4 GiB", h->size);
	if (h->meta_offset < JFR_HEADER_SIZE || h->meta_offset >= h->size)
		return jfr_fail(c, p + 24, PROFDATA_EFORMAT, "metadata offset %" PRIu64 " outside the chunk of %" PRIu64,
		                h->meta_offset, h->size);
	if (h->cpool_offset >= h->size)
		return jfr_fail(c, p + 16, PROFDATA_EFORMAT, "constant pool offset %" PRIu64 " outside the chunk of %" PRIu64,
		                h->cpool_offset, h->size);
	return 0;
}

int jfr_varint(jfr_cur *c, uint64_t *v)
{
	uint64_t x = 0;
	const unsigned char *p = c->p;
	for (unsigned i = 0; i < 9; i++) {
		if (p >= c->end)
			return jfr_fail(c, p, PROFDATA_ETRUNCATED, "a compressed integer runs past its event");
		unsigned b = *p++;
		if (i == 8) {
			x |= (uint64_t)b << 56;
			break;
		}
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	c->p = p;
	*v = x;
	return 0;
}

int jfr_bytes(jfr_cur *c, size_t n, const unsigned char **p)
{
	if (c->p > c->end || (size_t)(c->end - c->p) < n)
		return jfr_fail(c, c->p, PROFDATA_ETRUNCATED, "%zu bytes needed, %zu left in the event", n,
		                c->p > c->end ? (size_t)0 : (size_t)(c->end - c->p));
	*p = c->p;
	c->p += n;
	return 0;
}

int jfr_int_long(jfr_cur *c, unsigned width, uint64_t *v)
{
	const unsigned char *p = NULL;
	int rc;
	if (c->compressed)
		return jfr_varint(c, v);
	if ((rc = jfr_bytes(c, width, &p)) != 0)
		return rc;
	*v = width == 8 ? pd_be64(p) : width == 4 ? pd_be32(p) : width == 2 ? pd_be16(p) : *p;
	return 0;
}

int jfr_string(jfr_cur *c, jfr_str *s)
{
	const unsigned char *at = c->p, *p = NULL;
	uint64_t n;
	int rc;
	memset(s, 0, sizeof *s);
	if ((rc = jfr_bytes(c, 1, &p)) != 0)
		return rc;
	s->enc = *p;
	if (s->enc == JFR_STR_NULL || s->enc == JFR_STR_EMPTY)
		return 0;
	if (s->enc == JFR_STR_POOL)
		return jfr_int(c, 8, &s->index);
	if (s->enc > JFR_STR_LATIN1)
		return jfr_fail(c, at, PROFDATA_EFORMAT, "string encoding %u (0-5 are known)", s->enc);
	if ((rc = jfr_int(c, 4, &n)) != 0)
		return rc;
	s->len = n;
	s->p = c->p;
	if (s->enc != JFR_STR_CHARS)
		return n > (uint64_t)(c->end - c->p) ? jfr_fail(c, at, PROFDATA_ETRUNCATED, "a string of %" PRIu64
		                                                " bytes runs past its event", n)
		                                     : jfr_bytes(c, (size_t)n, &p);
	if (n > (uint64_t)(c->end - c->p))
		return jfr_fail(c, at, PROFDATA_ETRUNCATED, "a string of %" PRIu64 " chars runs past its event", n);
	for (uint64_t i = 0, ch; i < n && rc == 0; i++)
		rc = jfr_int(c, 2, &ch);
	return rc;
}

/* Code point u as UTF-8. */
static int put_utf8(pd_strbuf *b, uint32_t u)
{
	char t[4];
	size_t n;
	if (u < 0x80) {
		t[0] = (char)u, n = 1;
	} else if (u < 0x800) {
		t[0] = (char)(0xC0 | u >> 6), t[1] = (char)(0x80 | (u & 0x3F)), n = 2;
	} else if (u < 0x10000) {
		t[0] = (char)(0xE0 | u >> 12), t[1] = (char)(0x80 | (u >> 6 & 0x3F)), t[2] = (char)(0x80 | (u & 0x3F)), n = 3;
	} else {
		t[0] = (char)(0xF0 | u >> 18), t[1] = (char)(0x80 | (u >> 12 & 0x3F));
		t[2] = (char)(0x80 | (u >> 6 & 0x3F)), t[3] = (char)(0x80 | (u & 0x3F)), n = 4;
	}
	return pd_strbuf_add(b, t, n);
}

/* UTF-16 code units as UTF-8: a pair of surrogates as one code point, a lone one as U+FFFD. */
static int chars_utf8(jfr_cur *c, const jfr_str *s, pd_strbuf *b)
{
	jfr_cur r = *c;
	uint64_t u = 0, next = 0;
	int rc = 0;
	r.p = s->p;
	for (uint64_t i = 0; i < s->len && rc == 0; i++) {
		if ((rc = jfr_int(&r, 2, &u)) != 0)
			return rc;
		u &= 0xFFFF;
		if (u >= 0xD800 && u < 0xDC00 && i + 1 < s->len) {
			jfr_cur look = r;
			if (jfr_int(&look, 2, &next) == 0 && (next & 0xFFFF) >= 0xDC00 && (next & 0xFFFF) < 0xE000) {
				u = 0x10000 + ((u - 0xD800) << 10) + ((next & 0xFFFF) - 0xDC00);
				r = look;
				i++;
			}
		}
		rc = put_utf8(b, u >= 0xD800 && u < 0xE000 ? 0xFFFD : (uint32_t)u);
	}
	return rc;
}

int jfr_string_utf8(jfr_cur *c, const jfr_str *s, pd_strbuf *b)
{
	int rc = 0;
	switch (s->enc) {
	case JFR_STR_UTF8:
		return pd_strbuf_add(b, (const char *)s->p, (size_t)s->len);
	case JFR_STR_LATIN1:
		for (uint64_t i = 0; i < s->len && rc == 0; i++)
			rc = put_utf8(b, s->p[i]);
		return rc;
	case JFR_STR_CHARS:
		return chars_utf8(c, s, b);
	default:
		return 0;
	}
}
