/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Lines in place: a memchr for each line's end over the reader's window.
 * A stable input's window is the rest of the input, so the loop never
 * copies; a stream's window is grown (doubled) only when a line crosses
 * its end, so memory follows the longest line, not the input.
 */
#include "io/lines.h"

#include <string.h>

#define LINES_WINDOW ((size_t)4 << 20)

void pd_lines_init(pd_lines *l, profdata_reader *r, const char *format, size_t max_line)
{
	memset(l, 0, sizeof *l);
	l->r = r;
	l->format = format;
	l->max_line = max_line;
	l->stable = pd_in_blob(r) != NULL;
}

int pd_lines_fill(pd_lines *l, size_t want)
{
	const unsigned char *p;
	if (l->pos) {
		pd_in_skip(l->r, l->pos);
		l->pos = 0;
	}
	int64_t n = pd_in_fill(l->r, want, &p);
	if (n < 0)
		return (int)n;
	l->win_off = pd_in_offset(l->r);
	l->win = p;
	l->len = (size_t)n;
	l->at_eof = (size_t)n < want;
	return 0;
}

/* Consume what is behind the current position without moving the window (a stable input's window is the input). */
static void release_behind(pd_lines *l)
{
	pd_in_skip(l->r, l->pos);
	l->win_off = pd_in_offset(l->r);
	l->win += l->pos;
	l->len -= l->pos;
	l->pos = 0;
}

static int too_long(pd_lines *l)
{
	return pd_in_error_line(l->r, PROFDATA_ELIMIT, l->win_off + l->pos, l->lineno + 1,
	                        "%s: line %llu is longer than %zu bytes", l->format,
	                        (unsigned long long)(l->lineno + 1), l->max_line);
}

static int take_line(pd_lines *l, const unsigned char *nl, size_t avail)
{
	if (PD_UNLIKELY(l->pos >= PD_LINES_RELEASE) && l->stable)
		release_behind(l);
	const unsigned char *s = l->win + l->pos;
	size_t n = nl ? (size_t)(nl - s) : avail;
	if (PD_UNLIKELY(n > l->max_line))
		return too_long(l);
	l->off = l->win_off + l->pos;
	l->s = s;
	l->pos += nl ? n + 1 : n;
	l->no_newline = !nl;
	l->cr = n && s[n - 1] == '\r';
	l->n = l->cr ? n - 1 : n;
	l->lineno++;
	return 1;
}

int pd_lines_next(pd_lines *l)
{
	for (;;) {
		const unsigned char *s = l->win + l->pos;
		size_t avail = l->len - l->pos;
		const unsigned char *nl = avail ? memchr(s, '\n', avail) : NULL;
		if (nl || (l->at_eof && avail)) {
			/* the window may move in take_line: the line's end is kept as a length */
			return take_line(l, nl, avail);
		}
		if (l->at_eof)
			return 0;
		if (avail > l->max_line + 1)
			return too_long(l);
		int rc = pd_lines_fill(l, avail >= LINES_WINDOW / 2 ? avail * 2 : LINES_WINDOW);
		if (rc < 0)
			return rc;
	}
}
