/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON input for the JSON readers (cpuprofile, speedscope): yajl 2's push
 * parser fed spans of the input, its errors turned into an offset and a
 * message, and a scanner of arrays of integers that the readers hand the
 * bulk of a profile (samples, time deltas) instead of the parser's
 * callbacks (doc/formats-cpuprofile.md says why). Built with yajl only.
 */
#ifndef PD_UTIL_JSON_H
#define PD_UTIL_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <yajl/yajl_parse.h>

typedef struct pd_json {
	yajl_handle h;
	uint64_t fed;              /* bytes fed before the current span */
} pd_json;

/* 0 or PROFDATA_ENOMEM. */
int pd_json_open(pd_json *j, const yajl_callbacks *cb, void *ctx);
void pd_json_close(pd_json *j);

/*
 * Feed `n` more bytes of the text (n 0 with `last`: the end). 0; 1 when a
 * callback stopped the parse; -1 for bad JSON, with yajl's words in `msg`
 * and the offset of the byte it stopped at (from the first byte fed) in
 * *where.
 */
int pd_json_feed(pd_json *j, const unsigned char *p, size_t n, int last, char *msg, size_t cap, uint64_t *where);

/* The line (1-based) of offset `at` in the text at `base`, for messages. */
uint64_t pd_json_line(const unsigned char *base, size_t size, uint64_t at);

/*
 * After an object key, where its value should be an array: the span of
 * that array, from its '[' to past its ']' (the first ']': the arrays
 * handed here hold numbers only, which pd_json_ints checks). NULL when the
 * value is not an array or has no end; *bad then points at the byte.
 */
const unsigned char *pd_json_array_span(const unsigned char *p, const unsigned char *end,
                                        const unsigned char **start, const unsigned char **bad);

/* A cursor over an array of integers, from its '['. */
typedef struct pd_json_ints {
	const unsigned char *p, *end;
	int started;
} pd_json_ints;

/* 1 and *v: the next integer; 0 at the array's end; -1 when the array holds something else (p at it). */
int pd_json_ints_next(pd_json_ints *c, int64_t *v);

/*
 * Up to `max` next integers into out[], as pd_json_ints_next reads them one
 * by one: how many, with *stop 0 (more may follow), 1 (the array ended
 * after them) or -1 (the value after them is not an integer: p at it).
 * Call again only after *stop 0. The cursor must span the array from its
 * '[' to past its ']', as pd_json_array_span gives it: the ']' stops the
 * scan of a number without a bound check per byte.
 */
size_t pd_json_ints_take(pd_json_ints *c, int64_t *out, size_t max, int *stop);

#endif
