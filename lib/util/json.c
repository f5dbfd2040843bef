/* SPDX-License-Identifier: Apache-2.0 */
/* JSON input through yajl (json.h). */
#include <stdio.h>
#include <string.h>

#include "profdata/common.h"
#include "util/json.h"
#include "util/numtext.h"

int pd_json_open(pd_json *j, const yajl_callbacks *cb, void *ctx)
{
	j->fed = 0;
	j->h = yajl_alloc(cb, NULL, ctx);
	return j->h ? 0 : PROFDATA_ENOMEM;
}

void pd_json_close(pd_json *j)
{
	if (j->h)
		yajl_free(j->h);
	j->h = NULL;
}

int pd_json_feed(pd_json *j, const unsigned char *p, size_t n, int last, char *msg, size_t cap, uint64_t *where)
{
	yajl_status st = n ? yajl_parse(j->h, p, n) : yajl_status_ok;
	if (st == yajl_status_ok && last)
		st = yajl_complete_parse(j->h);
	if (st == yajl_status_client_canceled)
		return 1;
	if (st == yajl_status_error) {
		unsigned char *e = yajl_get_error(j->h, 0, p, n);
		size_t len = e ? strcspn((const char *)e, "\n") : 0;
		snprintf(msg, cap, "%.*s", (int)len, e ? (const char *)e : "bad JSON");
		if (e)
			yajl_free_error(j->h, e);
		*where = j->fed + yajl_get_bytes_consumed(j->h);
		return -1;
	}
	j->fed += n;
	return 0;
}

uint64_t pd_json_line(const unsigned char *base, size_t size, uint64_t at)
{
	uint64_t line = 1;
	const unsigned char *p = base, *end = base + (at < size ? at : size);
	while (base && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		line++;
		p++;
	}
	return line;
}

static const unsigned char *skip_space(const unsigned char *p, const unsigned char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

const unsigned char *pd_json_array_span(const unsigned char *p, const unsigned char *end,
                                        const unsigned char **start, const unsigned char **bad)
{
	const unsigned char *close;
	p = skip_space(p, end);
	if (p == end || *p != ':') {
		*bad = p;
		return NULL;
	}
	p = skip_space(p + 1, end);
	if (p == end || *p != '[' || !(close = memchr(p, ']', (size_t)(end - p)))) {
		*bad = p;
		return NULL;
	}
	*start = p;
	return close + 1;
}

/* A JSON integer (no fraction, no exponent) at c->p, within int64. */
static int read_int(pd_json_ints *c, int64_t *v)
{
	const unsigned char *p = c->p;
	int neg = p < c->end && *p == '-';
	uint64_t x = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	p += neg;
	if (p == c->end || *p < '0' || *p > '9')
		return -1;
	for (; p < c->end && *p >= '0' && *p <= '9'; p++) {
		if (x > (limit - (uint64_t)(*p - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (p < c->end && (*p == '.' || *p == 'e' || *p == 'E'))
		return -1;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	c->p = p;
	return 1;
}

int pd_json_ints_next(pd_json_ints *c, int64_t *v)
{
	const unsigned char *p = skip_space(c->p, c->end);
	if (!c->started) {
		if (p == c->end || *p != '[')
			return c->p = p, -1;
		c->started = 1;
		p = skip_space(p + 1, c->end);
		if (p < c->end && *p == ']')
			return c->p = p + 1, 0;
	} else {
		if (p < c->end && *p == ']')
			return c->p = p + 1, 0;
		if (p == c->end || *p != ',')
			return c->p = p, -1;
		p = skip_space(p + 1, c->end);
	}
	c->p = p;
	return read_int(c, v);
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Per byte of v, its top bit (0x80): set where the byte is a ',', returned,
 * and where it is neither that nor a digit, in *other.
 */
static uint64_t commas_and_other(uint64_t v, uint64_t *other)
{
	const uint64_t ones = 0x0101010101010101ULL, low7 = ones * 0x7F, top = ones * 0x80;
	/* on the low seven bits no sum carries out of its byte: each test is exact per byte */
	uint64_t b = v & low7, x = v ^ (ones * ',');
	uint64_t digits = (b + ones * (0x80 - '0')) & ~(b + ones * (0x80 - '9' - 1)) & ~v & top;
	uint64_t commas = ~(((x & low7) + low7) | x) & top;
	*other = ~(digits | commas) & top;
	return commas;
}

/* The top bits of v's bytes (0x80 each) as eight bits, the first byte's lowest. */
static unsigned byte_flags(uint64_t f)
{
	return (unsigned)(((f >> 7) * 0x0102040810204080ULL) >> 56);
}

/*
 * From a ',' at p with 72 bytes readable: the numbers of the 64 bytes
 * from p while those bytes are only digits and commas, each number of 1
 * to 8 digits between two commas. Both kinds of byte are found for all 64
 * at once, then each number is converted on its own: no number waits for
 * the end of the one before, as a scan byte after byte makes it. p moves
 * to the comma after the last number taken; 0 taken leaves the window to
 * the scan.
 */
static size_t take_window(const unsigned char **pp, int64_t *out, size_t max)
{
	const unsigned char *p = *pp;
	uint64_t others = 0, commas = 0;
	for (unsigned w = 0; w < 8; w++) {
		uint64_t other, c = commas_and_other(pd_load8_le(p + 8 * w), &other);
		others |= other;
		commas |= (uint64_t)byte_flags(c) << (8 * w);
	}
	if (others || (commas & (commas >> 1)))
		return 0;
	uint64_t after = commas & (commas - 1);
	unsigned at = 0;
	size_t n = 0;
	while (after && n < max) {
		unsigned next = pd_ctz64(after), len = next - at - 1;
		if (len > 8)
			break;
		out[n++] = pd_dec8_value(pd_load8_le(p + at + 1), len);
		at = next;
		after &= after - 1;
	}
	*pp = p + at;
	return n;
}

/*
 * The values that follow while each is a ',' (spaces around it allowed)
 * and a number of 1 to 7 digits, perhaps negative, with 8 bytes readable
 * from its first digit: whole 64-byte windows where they hold only digits
 * and commas, else one number from one 8-byte load. Anything else (the
 * ']', a number of 8 digits or more, the last bytes, a bad value) is left
 * at c->p for pd_json_ints_next, which decides it. The ']' that ends the
 * span is not a digit and not a space, so no loop here passes it.
 */
static size_t take_short(pd_json_ints *c, int64_t *out, size_t max)
{
	const unsigned char *p = c->p, *end = c->end;
	size_t n = 0;
	/* after a window that was not plain the next few numbers are read one by one: a spaced list pays no windows */
	unsigned plain_again = 0;
	while (n < max) {
		const unsigned char *q = p;
		if (plain_again == 0 && end - p >= 72 && p[0] == ',' && (unsigned)(p[1] - '0') < 10) {
			size_t k = take_window(&p, out + n, max - n);
			n += k;
			if (k)
				continue;
			plain_again = 8;
		} else if (plain_again) {
			plain_again--;
		}
		while (is_space(*q))
			q++;
		if (*q != ',')
			break;
		q++;
		while (is_space(*q))
			q++;
		int neg = *q == '-';
		q += neg;
		unsigned len;
		if (end - q < 8)
			break;
		uint32_t x = pd_dec8(q, &len);
		if (len == 0 || len == 8 || q[len] == '.' || (q[len] | 0x20) == 'e')
			break;
		out[n++] = neg ? -(int64_t)x : (int64_t)x;
		p = q + len;
	}
	c->p = p;
	return n;
}

size_t pd_json_ints_take(pd_json_ints *c, int64_t *out, size_t max, int *stop)
{
	size_t n = 0;
	int bounded = c->end - c->p >= 2 && c->end[-1] == ']';
	*stop = 0;
	while (n < max) {
		if (bounded && c->started)
			n += take_short(c, out + n, max - n);
		if (n == max)
			break;
		int r = pd_json_ints_next(c, &out[n]);
		if (r <= 0) {
			*stop = r < 0 ? -1 : 1;
			break;
		}
		n++;
	}
	return n;
}
