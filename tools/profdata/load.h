/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An input as every command reads it: the reader, its format, the read
 * options the command line and the command ask for, and the one way a
 * failure to read it is said.
 */
#ifndef PROFDATA_TOOL_LOAD_H
#define PROFDATA_TOOL_LOAD_H

#include <profdata/profdata.h>

#include "options.h"
#include "progress.h"

typedef struct tool_input {
	const char *path;
	profdata_reader *reader;
	/* --from's, or what the first bytes say (they stay for the read: a FIFO is read once); NULL: unknown */
	const profdata_format *format;
	profdata_read_options options;  /* .options points into option_text: do not copy a tool_input */
	char option_text[OPTION_LIST_SIZE];
	progress_line progress;
	int quiet;
	int noted;              /* a note on the options was said, or held back by --quiet (input_name_frames) */
} tool_input;

/* Open `path` for a command given `a`: 0, or EXIT_INVALID having said why. */
int input_open(tool_input *in, const tool_args *a, const char *path);

/* One more read option, KEY=VALUE: 0, or EXIT_USAGE having said why. */
int input_add_option(tool_input *in, const char *key, const char *value);

/* Whether the input's format reads option `key` ("symbolize"). */
int input_reads_option(const tool_input *in, const char *key);

/* The reader's failure `code`, said: returns the exit status. */
int input_failed(tool_input *in, int code);

/* Read the whole input into *out, then say its warnings: 0, or the exit status having said why. */
int input_read(tool_input *in, profdata_profile **out);

/* Ask the reader to name native frames, as --symbolize says or else (by_default) auto: 0, or EXIT_USAGE. */
int input_name_frames(tool_input *in, const tool_args *a, int by_default);

/*
 * Ask the reader to skip what the tool's model never reads, unless
 * --read-option says otherwise: primitive arrays' elements (HPROF's
 * primitive_data=0: a gzip'd dump holding a 512 MiB byte[] then costs no
 * 512 MiB) and a recording's events other than its samples (JFR's
 * other_events=0: only a JFR writer writes them back, and they are most of
 * a recording's bytes). 0, or EXIT_USAGE.
 */
int input_skip_unread(tool_input *in);
/* sample=default for a pprof input (the sample type pprof shows) unless chosen or by_default is 0. */
int input_choose_sample(tool_input *in, int by_default);

/*
 * input_open() and input_read() of the command's first operand, for the
 * commands that analyse the model: without primitive arrays' elements, and
 * with native frames named when the command takes --symbolize. On failure
 * the input is closed.
 */
int load_profile(tool_input *in, const tool_args *a, profdata_profile **out);
/* The same for another input of the command (report's --baseline). */
int load_profile_from(tool_input *in, const tool_args *a, const char *path, profdata_profile **out);

/* Free the reader; again is harmless. */
void input_close(tool_input *in);

#endif
