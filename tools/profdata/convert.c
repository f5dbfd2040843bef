/* SPDX-License-Identifier: Apache-2.0 */
/*
 * convert IN OUT: the output format (--to, or what OUT's ending names), the
 * read options the input's format takes (naming native frames), and the
 * conversion itself, streaming or through the model.
 */
#include <stdio.h>
#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "formats.h"
#include "load.h"
#include "output.h"
#include "report.h"

static int open_output(const tool_args *a, long gzip, profdata_writer **w)
{
	int e = output_open(w, a->operand[0], a->operand[1], a->force);
	if (e == 0 && gzip && (e = profdata_writer_set_gzip(*w, (int)gzip)) < 0)
		report(a->operand[1], profdata_writer_error(*w), e);
	return e < 0 ? EXIT_INVALID : 0;
}

/* Read, write and close: 0, or the exit status having said which side failed. */
static int run_conversion(tool_input *in, profdata_writer *w, const tool_args *a, const char *to)
{
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	wo.format = to;
	wo.options = a->write_options[0] ? a->write_options : NULL;
	int e;
	if (a->via_model) {
		profdata_profile *p;
		e = profdata_read(&p, in->reader, &in->options);
		if (e == 0) {
			e = profdata_write(p, w, &wo);
			profdata_profile_free(p);
		}
	} else {
		e = profdata_convert(in->reader, &in->options, w, &wo);
	}
	if (e == 0)
		e = profdata_writer_close(w);
	if (e == 0)
		return 0;
	progress_end(&in->progress);
	const profdata_error *err = profdata_convert_error(in->reader, w);
	report(err && err == profdata_writer_error(w) ? a->operand[1] : in->path, err, e);
	return failure_status(e);
}

/* Formats that keep every value (pprof) or count samples themselves (gperftools, jfr: an event per count):
 * they get every sample type, not the one pprof would show (input_choose_sample). */
static int counts_samples(const char *to)
{
	return strcmp(to, "pprof") == 0 || strcmp(to, "gperftools") == 0 || strcmp(to, "jfr") == 0;
}

int cmd_convert(const tool_args *a)
{
	const char *to = a->to;
	long gzip = a->gzip;
	tool_input in;
	int status = to ? 0 : format_from_name(a, a->operand[1], &to, &gzip);
	if (status || (status = input_open(&in, a, a->operand[0])) != 0)
		return status;
	profdata_writer *w = NULL;
	status = input_name_frames(&in, a, !in.format || strcmp(profdata_format_name(in.format), to) != 0);
	if (status == 0)
		status = input_choose_sample(&in, !counts_samples(to));
	if (status == 0 && (status = open_output(a, gzip, &w)) == 0) {
		status = run_conversion(&in, w, a, to);
		progress_end(&in.progress);
		report_warnings(a->quiet, in.reader, w);
	}
	profdata_writer_free(w); /* removes the temporary file unless it was renamed */
	output_forget();
	input_close(&in);
	return status;
}
