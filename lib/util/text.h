/* SPDX-License-Identifier: Apache-2.0 */
/* Heap strings for the units that keep text (diagnostics and the writer), and the names of time units. */
#ifndef PD_UTIL_TEXT_H
#define PD_UTIL_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "util/base.h"

/* A heap copy of `s`, or NULL when out of memory. */
char *pd_strdup(const char *s);

/*
 * Format into `small` (of `cap` bytes) when the text fits, else into a heap
 * string left in *heap for the caller to free (*heap is NULL otherwise).
 * Returns the text, its length in *len; NULL when formatting fails (*len 0)
 * or memory is short (*len the length needed). Most messages fit the
 * caller's buffer: one pass, no allocation.
 */
const char *pd_vformat(char *small, size_t cap, char **heap, size_t *len, const char *fmt, va_list ap)
	PD_PRINTF(5, 0);

/*
 * Nanoseconds per `unit` (len bytes; NULL none) when it is one of the time
 * units profiles name ("nanoseconds", "microseconds", "milliseconds",
 * "seconds"); 0 for any other unit (counts, bytes).
 */
uint64_t pd_time_unit_ns(const char *unit, size_t len);

#endif
