/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Lines of a text input (lines.c), read in place from the reader's window:
 * the mapping for files and memory, a growing buffer for streams. What the
 * text decoders (folded stacks, perf script) read through; nothing is
 * allocated per line, and a line's bytes stay valid until the next call.
 */
#ifndef PD_IO_LINES_H
#define PD_IO_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "io/reader.h"

/*
 * Every PD_LINES_RELEASE bytes of a stable input the reader is told how far
 * the lines have gone (a mapping is released behind, progress told): a
 * decoder that reads lines ahead in the window leaves them to
 * pd_lines_next() from there on.
 */
#define PD_LINES_RELEASE ((size_t)1 << 20)

typedef struct pd_lines {
	profdata_reader *r;
	const char *format;         /* named in the "line too long" error */
	size_t max_line;            /* longer lines are PROFDATA_ELIMIT */
	/* the window; with `stable` the whole rest of a mapped or in-memory input */
	const unsigned char *win;
	size_t len, pos;
	uint64_t win_off;           /* the input offset of win[0] */
	int at_eof, stable;
	/* the current line, without its "\n" and a final "\r" */
	const unsigned char *s;
	size_t n;
	uint64_t off, lineno;       /* its input offset and 1-based number */
	int cr;                     /* it ended in "\r\n" */
	int no_newline;             /* the input ended inside it */
} pd_lines;

/* Read the lines of `r`; `format` names the decoder in errors. */
void pd_lines_init(pd_lines *l, profdata_reader *r, const char *format, size_t max_line);

/*
 * Make at least `want` bytes from the current position the window (fewer
 * at the end of input), for a decoder that reads ahead of the lines
 * (several lines at once where it knows their shape). 0 or an error.
 */
int pd_lines_fill(pd_lines *l, size_t want);

/* The next line into l->s, l->n: 1, 0 at the end of input, or a negative error (kept on the reader). */
int pd_lines_next(pd_lines *l);

#endif
