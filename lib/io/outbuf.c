/* SPDX-License-Identifier: Apache-2.0 */
/* Buffered text output for writers that build text piece by piece (io/writer.h). */
#include "io/writer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pd_outbuf_add(pd_outbuf *o, const char *s, size_t n)
{
	if (o->rc)
		return;
	if (pd_strbuf_add(&o->buf, s, n)) {
		o->rc = pd_out_error(o->w, PROFDATA_ENOMEM, "out of memory");
		return;
	}
	if (o->buf.n >= (1u << 16)) {
		o->rc = pd_out_write(o->w, o->buf.p, o->buf.n);
		o->buf.n = 0;
	}
}

void pd_outbuf_str(pd_outbuf *o, const char *s)
{
	pd_outbuf_add(o, s, strlen(s));
}

void pd_outbuf_printf(pd_outbuf *o, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		pd_outbuf_add(o, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big) {
		if (!o->rc)
			o->rc = pd_out_error(o->w, PROFDATA_ENOMEM, "out of memory");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	pd_outbuf_add(o, big, (size_t)n);
	free(big);
}

/* The length of the UTF-8 sequence at s (at most n bytes), or 0 when it is not one. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
	if (len == 0 || len > n || (len == 2 && s[0] < 0xC2) || (len == 4 && s[0] > 0xF4))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((len == 3 && s[0] == 0xE0 && s[1] < 0xA0) || (len == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
	    (len == 4 && s[0] == 0xF0 && s[1] < 0x90) || (len == 4 && s[0] == 0xF4 && s[1] >= 0x90))
		return 0;
	return len;
}

void pd_outbuf_json_string(pd_outbuf *o, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t from = 0, i = 0;
	pd_outbuf_add(o, "\"", 1);
	while (i < n) {
		size_t len = utf8_length(u + i, n - i);
		char esc[8];
		const char *rep = NULL;
		if (len == 0)
			rep = "\\ufffd";
		else if (u[i] == '"')
			rep = "\\\"";
		else if (u[i] == '\\')
			rep = "\\\\";
		else if (u[i] < 0x20) {
			snprintf(esc, sizeof esc, "\\u%04x", u[i]);
			rep = esc;
		}
		if (rep) {
			pd_outbuf_add(o, s + from, i - from);
			pd_outbuf_str(o, rep);
			i += len ? len : 1;
			from = i;
		} else {
			i += len;
		}
	}
	pd_outbuf_add(o, s + from, n - from);
	pd_outbuf_add(o, "\"", 1);
}

int pd_outbuf_finish(pd_outbuf *o)
{
	if (o->rc == 0 && o->buf.n)
		o->rc = pd_out_write(o->w, o->buf.p, o->buf.n);
	free(o->buf.p);
	o->buf.p = NULL;
	o->buf.n = o->buf.cap = 0;
	return o->rc;
}
