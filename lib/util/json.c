/* SPDX-License-Identifier: Apache-2.0 */
/* JSON input through yajl (json.h). */
#include <stdio.h>
#include <string.h>

#include "profdata/common.h"
#include "util/json.h"

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
