/* SPDX-License-Identifier: Apache-2.0 */
/*
 * merge IN... -o OUT: every input decoded straight into one accumulator
 * (profdata/merge.h), one at a time, so that no two inputs are held at
 * once; the merged profile is then written as convert writes.
 */
#define PROFDATA_EXPERIMENTAL
#include <stdio.h>
#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "formats.h"
#include "load.h"
#include "output.h"
#include "report.h"

/* Decode `path` into `m`: 0, or the exit status having said what failed. */
static int merge_input(profdata_merge *m, const tool_args *a, const char *path, const char *to)
{
	tool_input in;
	int status = input_open(&in, a, path);
	if (status)
		return status;
	status = input_name_frames(&in, a, !in.format || strcmp(profdata_format_name(in.format), to) != 0);
	if (status == 0) {
		int e = profdata_decode(in.reader, &in.options, profdata_merge_events(), m);
		progress_end(&in.progress);
		if (e < 0) {
			const profdata_error *err = profdata_merge_error(m);
			report(path, err ? err : profdata_reader_error(in.reader), e);
			status = failure_status(e);
		} else {
			report_warnings(a->quiet, in.reader, NULL);
		}
	}
	input_close(&in);
	return status;
}

static void merge_warnings(const profdata_merge *m, int quiet)
{
	for (size_t i = 0; !quiet && i < profdata_merge_warning_count(m); i++) {
		const profdata_error *e = profdata_merge_warning(m, i);
		if (e)
			fprintf(stderr, "profdata: warning: %s\n", e->message);
	}
}

/* Write the merge to a->output: 0, or the exit status having said what failed. */
static int write_merge(const profdata_merge *m, const tool_args *a, const char *to, long gzip)
{
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	profdata_profile *p = NULL;
	profdata_writer *w = NULL;
	wo.format = to;
	wo.options = a->write_options[0] ? a->write_options : NULL;
	int e = profdata_merge_profile(&p, m);
	if (e < 0) {
		report("merge", p ? profdata_profile_error(p) : NULL, e);
		profdata_profile_free(p);
		return EXIT_INVALID;
	}
	e = output_open(&w, a->operand_all[0], a->output, a->force);
	if (e == 0 && gzip)
		e = profdata_writer_set_gzip(w, (int)gzip);
	if (e == 0)
		e = profdata_write(p, w, &wo);
	if (e == 0)
		e = profdata_writer_close(w);
	if (e < 0 && w)
		report(a->output, profdata_writer_error(w), e);
	if (e == 0)
		report_warnings(a->quiet, NULL, w);
	profdata_writer_free(w);
	output_forget();
	profdata_profile_free(p);
	return e < 0 ? failure_status(e) : 0;
}

int cmd_merge(const tool_args *a)
{
	const char *to = a->to;
	long gzip = a->gzip;
	if (!a->output)
		return usage_error(a->command, "merge needs --output OUT");
	int status = to ? 0 : format_from_name(a, a->output, &to, &gzip);
	if (status)
		return status;
	profdata_merge *m = NULL;
	if (profdata_merge_new(&m) < 0) {
		report("merge", NULL, PROFDATA_ENOMEM);
		return EXIT_INVALID;
	}
	for (int i = 0; status == 0 && i < a->operands; i++)
		status = merge_input(m, a, a->operand_all[i], to);
	merge_warnings(m, a->quiet);
	if (status == 0)
		status = write_merge(m, a, to, gzip);
	profdata_merge_free(m);
	return status;
}
