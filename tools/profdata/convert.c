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

/* Whether `name` ends with `ending`, and is more than it. */
static int ends_with(const char *name, const char *ending)
{
	size_t n = strlen(name), e = strlen(ending);
	return n > e && strcmp(name + n - e, ending) == 0;
}

/* Whether one of `endings` ends `name`. */
static int ends_with_any(const char *name, const char *const *endings)
{
	for (; *endings; endings++)
		if (ends_with(name, *endings))
			return 1;
	return 0;
}

/*
 * Each format whose ending is `tail` (only_whole), as "FORMAT", or each
 * writable format's ending that ends with it, as ".ENDING (FORMAT)"; after ", ".
 */
static void formats_ending_in(const char *tail, int only_whole, char *buf, size_t cap)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < profdata_format_count() && n < cap; i++) {
		const profdata_format *f = profdata_format_at(i);
		for (const char *const *e = profdata_format_extensions(f); *e && n < cap; e++) {
			if (only_whole ? strcmp(*e, tail) != 0 : !ends_with(*e, tail) || !profdata_format_can_write(f))
				continue;
			if (only_whole)
				n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", profdata_format_name(f));
			else
				n += (size_t)snprintf(buf + n, cap - n, "%s%s (%s)", n ? ", " : "", *e, profdata_format_name(f));
		}
	}
}

/* Several formats claim OUT's ending: which, and how to choose. */
static int ambiguous_ending(const tool_args *a)
{
	const char *out = a->operand[1], *ending = NULL;
	char formats[256];
	for (size_t i = 0; i < profdata_format_count(); i++)
		for (const char *const *e = profdata_format_extensions(profdata_format_at(i)); *e; e++)
			if (ends_with(out, *e) && (!ending || strlen(*e) > strlen(ending)))
				ending = *e;
	formats_ending_in(ending ? ending : out, 1, formats, sizeof formats);
	return usage_error(a->command, "'%s' could be several formats (%s): convert needs --to FORMAT",
	                   ending ? ending : out, formats);
}

/* No format claims OUT's ending: the endings that end as it does ("x.json": .speedscope.json...), or all. */
static int unclaimed_ending(const tool_args *a)
{
	const char *slash = strrchr(a->operand[1], '/');
	const char *dot = strrchr(slash ? slash + 1 : a->operand[1], '.');
	char alike[512];
	formats_ending_in(dot && dot[1] ? dot : "", 0, alike, sizeof alike);
	if (dot && dot[1] && alike[0])
		return usage_error(a->command, "convert needs --to FORMAT: no format claims the ending %s; these end in it: %s",
		                   dot, alike);
	formats_ending_in("", 0, alike, sizeof alike);
	return usage_error(a->command, "convert needs --to FORMAT, or an OUT with a format's ending: %s",
	                   alike);
}

/*
 * The output format OUT's name asks for, by the library's endings: 0 and *to,
 * or the exit status having said why. A ".gz" after the format's own ending
 * ("dump.hprof.gz") asks for gzip as well: *gzip then says at what level.
 */
static int format_from_name(const tool_args *a, const char **to, long *gzip)
{
	const profdata_format *f = NULL;
	int e = profdata_format_for_filename(&f, a->operand[1]);
	if (e == PROFDATA_EINVAL)
		return ambiguous_ending(a);
	if (e < 0)
		return unclaimed_ending(a);
	*to = profdata_format_name(f);
	if (!format_usable(*to, 1))
		return EXIT_USAGE;
	if (!*gzip && !ends_with_any(a->operand[1], profdata_format_extensions(f)))
		*gzip = option_at(OPT_GZIP)->implied;
	if (!a->quiet)
		fprintf(stderr, "profdata: writing %s as %s%s (from its name; --to chooses another)\n", a->operand[1], *to,
		        *gzip && !a->gzip ? ", gzip'd" : "");
	return 0;
}

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

int cmd_convert(const tool_args *a)
{
	const char *to = a->to;
	long gzip = a->gzip;
	tool_input in;
	int status = to ? 0 : format_from_name(a, &to, &gzip);
	if (status || (status = input_open(&in, a, a->operand[0])) != 0)
		return status;
	profdata_writer *w = NULL;
	status = input_name_frames(&in, a, !in.format || strcmp(profdata_format_name(in.format), to) != 0);
	if (status == 0)
		status = input_choose_sample(&in, strcmp(to, "pprof") != 0 && strcmp(to, "gperftools") != 0);
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
