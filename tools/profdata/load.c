/* SPDX-License-Identifier: Apache-2.0 */
#include "load.h"

#include "commands.h"

#include <stdio.h>
#include <string.h>

#include "report.h"

static void point_at_options(tool_input *in)
{
	in->options.options = in->option_text[0] ? in->option_text : NULL;
}

/*
 * pprof's filters the command line gives, as read options every format
 * takes: 0, or EXIT_USAGE having said why. top chooses its sample type
 * itself, from the model (its refusal names the types there).
 */
static int add_filters(tool_input *in, const tool_args *a)
{
	char top[24] = "";
	if (a->top_stacks > 0)
		snprintf(top, sizeof top, "%ld", a->top_stacks);
	const char *sample = a->command && strcmp(command_name(a->command), "top") == 0 ? NULL : a->sample_type;
	const char *keys[] = { "focus", "ignore", "hide", "prune_from", "sample", "top_stacks" };
	const char *values[] = { a->focus, a->ignore, a->hide, a->prune_from, sample, top[0] ? top : NULL };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (!values[i])
			continue;
		if (strchr(values[i], ',')) {
			fprintf(stderr, "profdata: --%s: a regular expression without ',' (read options are split at commas)\n",
			        keys[i]);
			return EXIT_USAGE;
		}
		if (input_add_option(in, keys[i], values[i]) != 0)
			return EXIT_USAGE;
	}
	return 0;
}

int input_open(tool_input *in, const tool_args *a, const char *path)
{
	profdata_read_options defaults = PROFDATA_READ_OPTIONS_INIT;
	memset(in, 0, sizeof(*in));
	in->path = path;
	in->quiet = a->quiet;
	in->options = defaults;
	in->options.format = a->from;
	in->options.mode = a->strict ? PROFDATA_MODE_STRICT : PROFDATA_MODE_PERMISSIVE;
	memcpy(in->option_text, a->read_options, sizeof in->option_text);
	point_at_options(in);
	if (add_filters(in, a) != 0)
		return EXIT_USAGE;
	int e = profdata_reader_open_path(&in->reader, path);
	if (e < 0) {
		report(path, in->reader ? profdata_reader_error(in->reader) : NULL, e);
		input_close(in);
		return EXIT_INVALID;
	}
	if (!a->no_progress && progress_wanted(a->quiet))
		profdata_reader_set_progress_cb(in->reader, progress_show, &in->progress, (uint64_t)256 << 20);
	if (a->from)
		in->format = profdata_format_find(a->from);
	else if (profdata_reader_sniff(in->reader, &in->format) != 0)
		in->format = NULL; /* the read says what is wrong */
	return 0;
}

int input_add_option(tool_input *in, const char *key, const char *value)
{
	char kv[OPTION_LIST_SIZE];
	int n = snprintf(kv, sizeof kv, "%s=%s", key, value);
	if (n < 0 || (size_t)n >= sizeof kv || option_list_append(in->option_text, kv) < 0) {
		fprintf(stderr, "profdata: %s: too many read options\n", in->path);
		return EXIT_USAGE;
	}
	point_at_options(in);
	return 0;
}

int input_reads_option(const tool_input *in, const char *key)
{
	if (!in->format)
		return 0;
	for (const char *const *k = profdata_format_read_options(in->format); *k; k++)
		if (strcmp(*k, key) == 0)
			return 1;
	return 0;
}

int input_failed(tool_input *in, int code)
{
	progress_end(&in->progress);
	report(in->path, profdata_reader_error(in->reader), code);
	return failure_status(code);
}

int input_read(tool_input *in, profdata_profile **out)
{
	int e = profdata_read(out, in->reader, &in->options);
	if (e < 0)
		return input_failed(in, e);
	progress_end(&in->progress);
	report_warnings(in->quiet, in->reader, NULL);
	return 0;
}

/*
 * Native frames are named (the reader takes "symbolize") unless told not
 * to, or unless by_default is 0 (a rewrite in the input's own format, which
 * holds addresses: nothing to gain). symbolize=auto names them when this
 * build can and the binaries are there, with a warning for each binary
 * that is not.
 */
int input_name_frames(tool_input *in, const tool_args *a, int by_default)
{
	const char *when = a->symbolize ? a->symbolize : by_default ? "auto" : "none";
	if (!input_reads_option(in, "symbolize")) {
		in->noted = a->symbolize && strcmp(a->symbolize, "none") != 0;
		if (in->noted && !a->quiet)
			fprintf(stderr, "profdata: %s: %s input has no native frames to name; --symbolize does nothing\n",
			        in->path, in->format ? profdata_format_name(in->format) : "this");
		return 0;
	}
	if (strcmp(when, "none") == 0)
		return 0;
	int status = input_add_option(in, "symbolize", strcmp(when, "yes") == 0 ? "1" : "auto");
	if (status == 0 && a->sysroot)
		status = input_add_option(in, "sysroot", a->sysroot);
	if (status == 0 && a->debug_dir)
		status = input_add_option(in, "debug_dir", a->debug_dir);
	return status;
}

/*
 * A format that holds one value per sample shows the sample type pprof
 * would (the input's default, else its last) when the input is pprof (the
 * format that names a default sample type) and neither --sample-type nor
 * --read-option sample=... chose. A format that
 * keeps every value, or counts samples (gperftools: a count and the
 * period), gets them all (by_default 0).
 */
int input_choose_sample(tool_input *in, int by_default)
{
	int pprof = in->format && strcmp(profdata_format_name(in->format), "pprof") == 0;
	if (by_default && pprof && !strstr(in->option_text, "sample="))
		return input_add_option(in, "sample", "default");
	return 0;
}

int input_skip_unread(tool_input *in)
{
	static const char *const unread[] = { "primitive_data", "other_events" };
	int status = 0;
	for (size_t i = 0; i < sizeof unread / sizeof *unread && status == 0; i++) {
		char key[32];
		snprintf(key, sizeof key, "%s=", unread[i]);
		if (input_reads_option(in, unread[i]) && !strstr(in->option_text, key))
			status = input_add_option(in, unread[i], "0");
	}
	return status;
}

int load_profile(tool_input *in, const tool_args *a, profdata_profile **out)
{
	return load_profile_from(in, a, a->operand[0], out);
}

int load_profile_from(tool_input *in, const tool_args *a, const char *path, profdata_profile **out)
{
	*out = NULL;
	int status = input_open(in, a, path);
	if (status == 0)
		status = input_skip_unread(in);
	if (status == 0 && command_takes(a->command, OPT_SYMBOLIZE))
		status = input_name_frames(in, a, 1);
	if (status == 0)
		status = input_read(in, out);
	if (status)
		input_close(in);
	return status;
}

void input_close(tool_input *in)
{
	profdata_reader_free(in->reader);
	in->reader = NULL;
}
