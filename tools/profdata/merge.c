/* SPDX-License-Identifier: Apache-2.0 */
/*
 * merge IN... -o OUT, and diff BASE NEW -o OUT, a merge of NEW and BASE
 * scaled by -1 (two heap dumps go to heap_diff.c instead). merge decodes every input straight into an accumulator
 * (profdata/merge.h), one at a time, so that no two inputs are held at
 * once; the merged profile is then written as convert writes.
 *
 * With more than one processor and input, the inputs are split in two runs
 * of about equal bytes: this thread merges the first, a second thread the
 * other into an accumulator of its own, which is then added to the first.
 * A merge is associative and keeps what comes first in first-seen order,
 * so the result is the one merging every input in order would give (the
 * second run's new stacks, functions and labels come after the first's, in
 * its own order), byte for byte.
 */
#define PROFDATA_EXPERIMENTAL
#ifdef __linux__
#define _GNU_SOURCE /* sched_getaffinity() */
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "formats.h"
#include "load.h"
#include "output.h"
#include "report.h"

/* A run of inputs merged into an accumulator of its own, on the thread that runs merge_run(). */
typedef struct merge_run_of {
	profdata_merge *m;
	const tool_args *a;
	const char *to;
	int first, end;            /* operands [first, end) */
	int status;
	int said;                  /* a warning or note was said, or held back by --quiet */
} merge_run_of;

/* Decode `path` into r->m: 0, or the exit status having said what failed. */
static int merge_input(merge_run_of *r, const char *path)
{
	tool_input in;
	int status = input_open(&in, r->a, path);
	if (status)
		return status;
	status = input_name_frames(&in, r->a, !in.format || strcmp(profdata_format_name(in.format), r->to) != 0);
	if (status == 0) {
		int e = profdata_decode(in.reader, &in.options, profdata_merge_events(), r->m);
		progress_end(&in.progress);
		if (e < 0) {
			const profdata_error *err = profdata_merge_error(r->m);
			report(path, err ? err : profdata_reader_error(in.reader), e);
			status = failure_status(e);
		} else {
			report_warnings(r->a->quiet, in.reader, NULL);
		}
	}
	r->said |= in.noted || profdata_reader_warning_count(in.reader) > 0;
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

/*
 * The write options: --option's, and for a differential flame graph (a
 * merge of profdata_merge_add_side()'s columns) which value is the base's.
 */
static int graph_options(const tool_args *a, const profdata_profile *p, int graph, char *text)
{
	memcpy(text, a->write_options, OPTION_LIST_SIZE);
	char base[48];
	snprintf(base, sizeof base, "value=0,base=%zu", profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES) / 2);
	if (graph && (strstr(text, "value=") || strstr(text, "base=")))
		return usage_error(a->command, "diff draws value 0 against its base: no --option value= or base=");
	if (graph && option_list_append(text, base) < 0)
		return usage_error(a->command, "too many --option");
	return 0;
}

/* Write the merge to a->output (graph: a differential flame graph): 0, or the exit status having said what failed. */
static int write_merge(const profdata_merge *m, const tool_args *a, const char *to, long gzip, int graph)
{
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	profdata_profile *p = NULL;
	profdata_writer *w = NULL;
	char options[OPTION_LIST_SIZE];
	wo.format = to;
	int e = profdata_merge_profile(&p, m);
	if (e < 0) {
		report("merge", p ? profdata_profile_error(p) : NULL, e);
		profdata_profile_free(p);
		return EXIT_INVALID;
	}
	if (graph_options(a, p, graph, options) != 0) {
		profdata_profile_free(p);
		return EXIT_USAGE;
	}
	wo.options = options[0] ? options : NULL;
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

/* The format and gzip level of --output: 0, or the exit status having said why. */
static int output_format(const tool_args *a, const char **to, long *gzip)
{
	*to = a->to;
	*gzip = a->gzip;
	if (!a->output)
		return usage_error(a->command, "%s needs --output OUT", a->command->name);
	return *to ? 0 : format_from_name(a, a->output, to, gzip);
}

static void *merge_run(void *arg)
{
	merge_run_of *r = arg;
	for (int i = r->first; r->status == 0 && i < r->end; i++)
		r->status = merge_input(r, r->a->operand_all[i]);
	return NULL;
}

/* The processors this process may run on (taskset and cpusets narrow them), else those online. */
static long usable_processors(void)
{
#if defined(__linux__) && defined(CPU_COUNT)
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		return CPU_COUNT(&set);
#endif
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/* Bytes of operand `path` when it is a regular file, else 0 (a pipe counts for nothing). */
static uint64_t input_bytes(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* Where the second run starts: the first operand at which half of the inputs' bytes are behind; 0 for one run. */
static int second_run_start(const tool_args *a)
{
	uint64_t total = 0, behind = 0, *bytes;
	int split = a->operands - 1;
	if (a->operands < 2 || usable_processors() < 2 || !(bytes = malloc((size_t)a->operands * sizeof *bytes)))
		return 0;
	for (int i = 0; i < a->operands; i++)
		total += bytes[i] = input_bytes(a->operand_all[i]);
	for (int i = 0; i < a->operands - 1; i++)
		if (2 * (behind += bytes[i]) >= total) {
			split = i + 1;
			break;
		}
	free(bytes);
	return split;
}

/* The second run's accumulator added to the first's, replayed straight into it: 0, or the exit status having said why. */
static int join_runs(profdata_merge *into, const profdata_merge *second)
{
	int e = profdata_merge_replay(second, profdata_merge_events(), into);
	if (e < 0)
		report("merge", profdata_merge_error(into), e);
	return e < 0 ? failure_status(e) : 0;
}

/*
 * Merge every operand into r[0].m, those from `split` on into r[1].m on a
 * second thread, which says no warning (as --quiet). When it had one to say
 * and --quiet was not given, its inputs are read again here instead, so that
 * every warning is said once, in order, numbered as one run numbers inputs.
 */
static int merge_inputs(merge_run_of r[2], int split)
{
	pthread_t thread;
	tool_args second_args = *r[0].a;
	second_args.no_progress = second_args.quiet = 1;
	r[1] = r[0];
	r[1].a = &second_args;
	r[0].end = split;
	r[1].first = split;
	int threaded = profdata_merge_new(&r[1].m) == 0 && pthread_create(&thread, NULL, merge_run, &r[1]) == 0;
	merge_run(&r[0]);
	if (threaded)
		pthread_join(thread, NULL);
	int status = r[0].status ? r[0].status : threaded ? r[1].status : 0;
	int again = !threaded || (!r[0].a->quiet && (r[1].said || profdata_merge_warning_count(r[1].m) > 0));
	if (status == 0 && again) {
		r[0].first = split;
		r[0].end = r[0].a->operands;
		status = (merge_run(&r[0]), r[0].status);
	} else if (status == 0) {
		status = join_runs(r[0].m, r[1].m);
	}
	profdata_merge_free(r[1].m);
	return status;
}

int cmd_merge(const tool_args *a)
{
	const char *to;
	long gzip;
	int status = output_format(a, &to, &gzip), split = second_run_start(a);
	if (status)
		return status;
	merge_run_of r[2] = { { .a = a, .to = to, .first = 0, .end = a->operands } };
	if (profdata_merge_new(&r[0].m) < 0) {
		report("merge", NULL, PROFDATA_ENOMEM);
		return EXIT_INVALID;
	}
	status = split ? merge_inputs(r, split) : (merge_run(&r[0]), r[0].status);
	merge_warnings(r[0].m, a->quiet);
	if (status == 0)
		status = write_merge(r[0].m, a, to, gzip, 0);
	profdata_merge_free(r[0].m);
	return status;
}

/*
 * Read operand `path` into *out (graph: one value, pprof's choice, unless
 * --sample-type chose; a heap dump without its primitive arrays' elements,
 * which no analysis reads): 0, or the exit status having said why.
 */
static int diff_input(const tool_args *a, const char *path, int graph, profdata_profile **out)
{
	tool_input in;
	int status = input_open(&in, a, path);
	if (status == 0)
		status = input_skip_unread(&in);
	if (status == 0)
		status = input_choose_sample(&in, graph);
	if (status == 0)
		status = input_read(&in, out);
	input_close(&in);
	return status;
}

static int is_heap_dump(const profdata_profile *p)
{
	return profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) == 0 && profdata_profile_count(p, PROFDATA_TABLE_OBJECTS) > 0;
}

/* Each sample type's total in `p`, by the type's name; 0 when `p` has no such type. */
static double type_total(const profdata_profile *p, const char *type)
{
	size_t ntypes = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), len, index = ntypes;
	for (size_t i = 0; i < ntypes; i++) {
		profdata_sample_type t;
		const char *name;
		if (profdata_profile_sample_type_sized(p, i, &t, sizeof t) == 0 &&
		    (name = profdata_profile_string(p, t.type_id, &len)) != NULL && strcmp(name, type) == 0)
			index = i;
	}
	double total = 0;
	for (size_t i = 0; index < ntypes && i < profdata_profile_count(p, PROFDATA_TABLE_SAMPLES); i++) {
		profdata_sample s;
		if (profdata_profile_sample_sized(p, i, &s, sizeof s) == 0 && index < s.nvalues)
			total += (double)s.values[index];
	}
	return total;
}

/*
 * NEW's factors under --normalize: BASE's total / NEW's per sample type (0
 * when NEW's is 0), so that NEW weighs what BASE does, as pprof's
 * Profile.Normalize scales the source to the base (its -normalize).
 */
static int normalize_scale(profdata_merge *m, const profdata_profile *base, const profdata_profile *now)
{
	size_t n = profdata_profile_count(now, PROFDATA_TABLE_SAMPLE_TYPES), len;
	double factors[256];
	if (n > sizeof factors / sizeof factors[0])
		n = sizeof factors / sizeof factors[0];
	for (size_t i = 0; i < n; i++) {
		profdata_sample_type t;
		const char *name = profdata_profile_sample_type_sized(now, i, &t, sizeof t) == 0 ?
		                   profdata_profile_string(now, t.type_id, &len) : NULL;
		double after = name ? type_total(now, name) : 0;
		factors[i] = after != 0 ? type_total(base, name) / after : 0;
	}
	return profdata_merge_set_scale(m, factors, n);
}

/*
 * NEW (normalized when asked), then BASE negated, into `m`; for a graph,
 * NEW and BASE side by side (profdata_merge_add_side()): 0 or an error, its message on
 * `m`.
 */
static int add_difference(profdata_merge *m, const profdata_profile *base, const profdata_profile *now, int normalize,
                          int graph)
{
	double negate[256];
	for (size_t i = 0; i < sizeof negate / sizeof negate[0]; i++)
		negate[i] = -1.0;
	int e = normalize ? normalize_scale(m, base, now) : 0;
	if (graph) {
		if (e == 0)
			e = profdata_merge_add_side(m, now, 0);
		if (e == 0)
			e = profdata_merge_set_scale(m, NULL, 0);
		return e ? e : profdata_merge_add_side(m, base, 1);
	}
	if (e == 0)
		e = profdata_merge_add(m, now);
	if (e == 0)
		e = profdata_merge_set_scale(m, negate, sizeof negate / sizeof negate[0]);
	if (e == 0)
		e = profdata_merge_add(m, base);
	return e;
}

/* diff of two profiles of samples: NEW minus BASE written to --output (its format `to`): the exit status. */
static int profile_diff(const tool_args *a, const profdata_profile *base, const profdata_profile *now, int graph)
{
	const char *to = NULL;
	long gzip = 0;
	int status = command_refuse(a, HEAP_DIFF_OPTIONS, "is for the diff of two heap dumps; BASE and NEW are profiles");
	if (status == 0)
		status = output_format(a, &to, &gzip);
	profdata_merge *m = NULL;
	if (status == 0 && profdata_merge_new(&m) < 0)
		status = EXIT_INVALID;
	int e = status ? 0 : add_difference(m, base, now, a->normalize, graph);
	if (e < 0) {
		report("diff", profdata_merge_error(m), e);
		status = failure_status(e);
	}
	if (status == 0)
		status = write_merge(m, a, to, gzip, graph);
	profdata_merge_free(m);
	return status;
}

/*
 * Two heap dumps: heap_diff(); two profiles of samples: their difference;
 * one of each is refused. The inputs are read first to know which they are
 * (a format such as HPROF may hold either).
 */
int cmd_diff(const tool_args *a)
{
	const char *to = NULL;
	long gzip = 0;
	int status = a->output ? output_format(a, &to, &gzip) : 0;
	int graph = status == 0 && to && strcmp(to, "flamegraph") == 0;
	profdata_profile *base = NULL, *now = NULL;
	if (status == 0)
		status = diff_input(a, a->operand[0], graph, &base);
	if (status == 0)
		status = diff_input(a, a->operand[1], graph, &now);
	int heaps = status == 0 ? is_heap_dump(base) + is_heap_dump(now) : 0;
	if (heaps == 2)
		return heap_diff(a, base, now);
	if (heaps == 1) {
		fprintf(stderr, "profdata: %s is a heap dump and %s a profile of samples: diff compares two heap dumps "
		        "or two profiles\n", a->operand[is_heap_dump(base) ? 0 : 1], a->operand[is_heap_dump(base) ? 1 : 0]);
		status = EXIT_USAGE;
	} else if (status == 0) {
		status = profile_diff(a, base, now, graph);
	}
	profdata_profile_free(base);
	profdata_profile_free(now);
	return status;
}
