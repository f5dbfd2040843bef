/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The library's formats as the tool names them to people. Everything here
 * is asked of the library's registry: the tool keeps no list of formats,
 * endings or build options of its own.
 */
#ifndef PROFDATA_TOOL_FORMATS_H
#define PROFDATA_TOOL_FORMATS_H

#include <stdio.h>

/* 1 when this build reads (writing 0) or writes (1) the format `name`; else 0, having said why. */
int format_usable(const char *name, int writing);

/* The names of the formats this build reads (writing 0) or writes (1), each after `sep`. */
void format_names(FILE *to, int writing, const char *sep);

/* The file endings of the formats this build writes, each after `sep`. */
void format_endings(FILE *to, const char *sep);

#endif
