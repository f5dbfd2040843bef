/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The progress line on a terminal's stderr: bytes read, then the heap
 * analysis' phases. Each caller keeps its own line state, so the tool keeps
 * none of its own.
 */
#ifndef PROFDATA_TOOL_PROGRESS_H
#define PROFDATA_TOOL_PROGRESS_H

#include <stdint.h>

typedef struct progress_line {
	int shown; /* something is on the line, for progress_end() to clear */
} progress_line;

/* Whether to show progress: stderr is a terminal and --quiet was not given. */
int progress_wanted(int quiet);

/*
 * A profdata_progress_cb for readers (phase "read": bytes) and heap
 * analysis (its phases: objects); `line` is a progress_line.
 */
int progress_show(void *line, const char *phase, uint64_t done, uint64_t total);

/* Clear the line, when anything was shown. */
void progress_end(progress_line *line);

#endif
