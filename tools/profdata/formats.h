/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The library's formats as the tool names them to people. Everything here
 * is asked of the library's registry: the tool keeps no list of formats,
 * endings or build options of its own.
 */
#ifndef PROFDATA_TOOL_FORMATS_H
#define PROFDATA_TOOL_FORMATS_H

#include <stdio.h>

#include "options.h"

/* 1 when this build reads (writing 0) or writes (1) the format `name`; else 0, having said why. */
int format_usable(const char *name, int writing);

/* The names of the formats this build reads (writing 0) or writes (1), each after `sep`. */
void format_names(FILE *to, int writing, const char *sep);

/* The file endings of the formats this build writes, each after `sep`. */
void format_endings(FILE *to, const char *sep);

/*
 * The output format the name `out` asks for, by the library's endings: 0
 * and *to, or the exit status having said why (the command needs --to). A
 * ".gz" after the format's own ending ("dump.hprof.gz") asks for gzip as
 * well: *gzip then says at what level.
 */
int format_from_name(const tool_args *a, const char *out, const char **to, long *gzip);

#endif
