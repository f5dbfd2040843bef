/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Lines of a text input, read in place from the reader's window (the
 * mapping, for files): the line reader of every text decoder. Nothing is
 * allocated per line; a line is valid until the next call.
 */
#ifndef PD_IO_LINES_H
#define PD_IO_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "io/reader.h"

typedef struct pd_lines {
	profdata_reader *r;
	const char *name; /* the codec's name, for "NAME: line too long" */
	/* the input window; with `stable`, the rest of a mapped or in-memory input */
	int stable;
	const unsigned char *win;
	size_t len, pos;
	uint64_t win_off; /* the input offset of win[0]: the reader's, kept here to be read per line */
	int at_eof;
	/* the current line, without its "\n" and a final "\r" */
	const unsigned char *ls;
	size_t ll;
	uint64_t loff, lineno;
	int cr, no_nl;
} pd_lines;

/* Start reading `r` with a first window of `want` bytes. 0 or an error code. */
int pd_lines_start(pd_lines *l, profdata_reader *r, const char *name, size_t want);

/* Move the window on to `want` bytes from the current position. 0 or an error code. */
int pd_lines_refill(pd_lines *l, size_t want);

/* The next line into l->ls/l->ll: 1, 0 at the end, or an error code. */
int pd_lines_next(pd_lines *l);

/* Tell the reader everything before the current position was read (at the end). */
void pd_lines_finish(pd_lines *l);

#endif
