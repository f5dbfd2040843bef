/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tool says on stderr, in one shape everywhere:
 * "profdata: FILE: [line L, ][byte B: ]message", and how it exits.
 */
#ifndef PROFDATA_TOOL_REPORT_H
#define PROFDATA_TOOL_REPORT_H

#include <profdata/profdata.h>

#include "commands.h"

#if defined(__GNUC__)
#define TOOL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TOOL_PRINTF(f, a)
#endif

/* A usage mistake, said in one line with where to look; returns EXIT_USAGE. `c` may be NULL. */
int usage_error(const tool_command *c, const char *fmt, ...) TOOL_PRINTF(2, 3);

/* An error of `what` (a file name), placed by `e` when there is one; else the code's text. */
void report(const char *what, const profdata_error *e, int code);

/* The reader's and the writer's warnings (either may be NULL), unless quiet. */
void report_warnings(int quiet, profdata_reader *r, profdata_writer *w);

/* The exit status of a library failure: a bad --option/--read-option is the user's mistake (2), the rest 1. */
int failure_status(int code);

/* `status`, or 1 when stdout could not be written whole (a full disk, a closed pipe). */
int finish_stdout(int status);

#endif
