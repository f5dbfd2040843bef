/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Lines of a text input (io/lines.h). The window grows only as a line
 * needs it, so a line as long as the input costs the input's size and no
 * more; a stable input (a mapping) is released behind the reader as it goes.
 */
#include <string.h>

#include "io/lines.h"
#include "util/base.h"

#define WIN_BYTES ((size_t)4 << 20)
#define SKIP_BYTES ((size_t)1 << 20)

int pd_lines_refill(pd_lines *l, size_t want)
{
	const unsigned char *p;
	int64_t n;
	if (l->pos) {
		pd_in_skip(l->r, l->pos);
		l->pos = 0;
	}
	n = pd_in_fill(l->r, want, &p);
	if (n < 0)
		return (int)n;
	l->win_off = pd_in_offset(l->r);
	l->win = p;
	l->len = (size_t)n;
	l->at_eof = (size_t)n < want;
	return 0;
}

int pd_lines_start(pd_lines *l, profdata_reader *r, const char *name, size_t want)
{
	memset(l, 0, sizeof *l);
	l->r = r;
	l->name = name;
	l->stable = pd_in_blob(r) != NULL;
	return pd_lines_refill(l, want ? want : WIN_BYTES);
}

/* Tell the reader how far we are: a mapped input is released behind us (and progress is
 * reported). The window stays valid: it is the mapping. */
static void release_behind(pd_lines *l)
{
	pd_in_skip(l->r, l->pos);
	l->win_off = pd_in_offset(l->r);
	l->win += l->pos;
	l->len -= l->pos;
	l->pos = 0;
}

int pd_lines_next(pd_lines *l)
{
	for (;;) {
		const unsigned char *s = l->win + l->pos;
		size_t avail = l->len - l->pos, want;
		const unsigned char *nl = avail ? memchr(s, '\n', avail) : NULL;
		int rc;
		if (nl || (l->at_eof && avail)) {
			size_t n = nl ? (size_t)(nl - s) : avail;
			if (PD_UNLIKELY(l->pos >= SKIP_BYTES) && l->stable) {
				release_behind(l);
				s = l->win;
			}
			l->loff = l->win_off + l->pos;
			l->ls = s;
			l->pos += nl ? n + 1 : n;
			l->no_nl = !nl;
			l->cr = n && s[n - 1] == '\r';
			l->ll = l->cr ? n - 1 : n;
			l->lineno++;
			return 1;
		}
		if (l->at_eof)
			return 0;
		want = avail > WIN_BYTES / 2 ? avail * 2 : WIN_BYTES;
		if (want < avail)
			return pd_in_error(l->r, PROFDATA_ELIMIT, pd_in_offset(l->r) + l->pos, "%s: line too long",
			                   l->name);
		if ((rc = pd_lines_refill(l, want)) < 0)
			return rc;
	}
}

void pd_lines_finish(pd_lines *l)
{
	pd_in_skip(l->r, l->pos);
	l->pos = 0;
}
