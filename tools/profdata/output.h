/* SPDX-License-Identifier: Apache-2.0 */
/*
 * convert's OUT, opened so that nothing harms a file: a temporary file
 * renamed when whole (and removed on a signal), modes kept, read-only files
 * replaced only with --force, links followed, devices and FIFOs written
 * through (profdata_writer_open_file()).
 */
#ifndef PROFDATA_TOOL_OUTPUT_H
#define PROFDATA_TOOL_OUTPUT_H

#include <profdata/profdata.h>

/*
 * Open `out` for a conversion of `in`: a new OUT is no more readable than IN
 * (but writable by its owner). 0, or the library's code having said why
 * (*w may still need profdata_writer_free()).
 */
int output_open(profdata_writer **w, const char *in, const char *out, int force);

/* After profdata_writer_free(): the temporary file is the library's concern again. */
void output_forget(void);

#endif
