/* SPDX-License-Identifier: Apache-2.0 */
/* `perf script` output: what the descriptor (perf-script.c), the header parser (header.c) and the reader share. */
#ifndef PD_CODECS_PERF_SCRIPT_H
#define PD_CODECS_PERF_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* A span of a line. */
typedef struct ps_span {
	const unsigned char *p;
	size_t n;
} ps_span;

/*
 * A sample's first line, "COMM PID/TID [CPU] TIME: PERIOD EVENT: IP SYM+OFF (DSO)",
 * of which perf's -F chooses the fields: what is absent has n 0 (has_time 0).
 */
typedef struct ps_header {
	ps_span comm, pid, tid, event;
	ps_span rest;             /* after the event: a sample's one frame (no call chain), or a tracepoint's fields */
	uint64_t time_ns, period;
	int has_time, has_period;
} ps_header;

/* Parse line [s, s + n) as a sample's first line: 1 and *h, else 0 (then it is none). */
int pd_ps_parse_header(const unsigned char *s, size_t n, ps_header *h);

/*
 * A frame as perf prints it, "ADDRESS SYMBOL+0xOFFSET (DSO)" (-F chooses
 * which of the three), and the source line it may print on the next line,
 * "FILE:LINE", both followed by "(inlined)" for a call the compiler inlined.
 */
typedef struct ps_frame {
	uint64_t address;
	int has_address;
	ps_span sym;          /* without its offset; n 0 for none and "[unknown]" */
	ps_span dso;          /* inside the parentheses; n 0 for none, "[unknown]" and "(inlined)" */
	int inlined;
	ps_span file;         /* n 0 none */
	int32_t line;         /* 0 none */
} ps_frame;

/* Parse a frame's text (leading blanks gone): 1 and *f, else 0. */
int pd_ps_parse_frame(const unsigned char *s, size_t n, ps_frame *f);
/* Whether pd_ps_parse_frame() would take [s, s + n): only its address is read. */
int pd_ps_is_frame(const unsigned char *s, size_t n);
/* Whether [s, s + n) (leading blanks gone) is a source line ("FILE:LINE", "??:0", "DSO[ADDRESS]"). */
int pd_ps_is_srcline(const unsigned char *s, size_t n);
/* Add source line [s, s + n) (pd_ps_is_srcline) to f. */
void pd_ps_parse_srcline(const unsigned char *s, size_t n, ps_frame *f);

int pd_ps_bid(const unsigned char *buf, size_t len);
int pd_ps_decode(const pd_decode_args *a);

#endif
