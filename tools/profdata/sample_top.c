/* SPDX-License-Identifier: Apache-2.0 */
/*
 * top of a profile of samples: each function's flat and cumulative sums, as
 * `pprof -top` shows them (include/profdata/top.h).
 */
#define PROFDATA_EXPERIMENTAL
#include <stdio.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "json.h"
#include "report.h"

/* value as a share of total, in percent; 0 when the total is. */
static double percent(int64_t value, int64_t total)
{
	return total ? 100.0 * (double)value / (double)total : 0.0;
}

static const char *group_name(int group)
{
	return group == PROFDATA_TOP_LINES ? "lines" : group == PROFDATA_TOP_FILES ? "files" : "functions";
}

static void print_json(const profdata_top *t, size_t n, int group)
{
	printf("{\"sample_type\":");
	json_string(stdout, profdata_top_sample_type(t));
	printf(",\"unit\":");
	json_string(stdout, profdata_top_unit(t));
	printf(",\"total\":%lld,\"%s\":[", (long long)profdata_top_total(t), group_name(group));
	for (size_t i = 0; i < n; i++) {
		const profdata_top_entry *e = profdata_top_entry_at(t, i);
		printf("%s{\"name\":", i ? "," : "");
		json_string(stdout, e->name);
		printf(",\"flat\":%lld,\"cum\":%lld", (long long)e->flat, (long long)e->cum);
		if (e->inlined)
			printf(",\"inlined\":\"%s\"", e->inlined == PROFDATA_TOP_INLINED ? "all" : "partly");
		printf("}");
	}
	printf("]}\n");
}

/* What pprof writes after the name of a row called only, or partly, through inlined calls. */
static const char *inline_mark(const profdata_top_entry *e)
{
	return e->inlined == PROFDATA_TOP_INLINED ? " (inline)" : e->inlined == PROFDATA_TOP_PARTLY_INLINED ? " (partial-inline)" : "";
}

/* pprof's columns: flat flat% sum% cum cum% name; values in the sample type's unit. */
static void print_text(const profdata_top *t, size_t n)
{
	int64_t total = profdata_top_total(t), sum = 0;
	printf("%s (%s): %lld in all; %zu of %zu rows\n", profdata_top_sample_type(t), profdata_top_unit(t),
	       (long long)total, n, profdata_top_count(t));
	printf("%14s %7s %7s %14s %7s  %s\n", "flat", "flat%", "sum%", "cum", "cum%", "name");
	for (size_t i = 0; i < n; i++) {
		const profdata_top_entry *e = profdata_top_entry_at(t, i);
		sum += e->flat;
		printf("%14lld %6.2f%% %6.2f%% %14lld %6.2f%%  %s%s\n", (long long)e->flat, percent(e->flat, total),
		       percent(sum, total), (long long)e->cum, percent(e->cum, total), e->name, inline_mark(e));
	}
}

int show_sample_top(const tool_args *a, const profdata_profile *p)
{
	profdata_top_options o = PROFDATA_TOP_OPTIONS_INIT;
	o.group = a->lines ? PROFDATA_TOP_LINES : a->files ? PROFDATA_TOP_FILES : PROFDATA_TOP_FUNCTIONS;
	o.sample_type = a->sample_type;
	if (a->lines && a->files)
		return usage_error(a->command, "--lines and --files: one of them");
	profdata_top *t = NULL;
	int e = profdata_top_new(&t, p, &o);
	if (e != 0) {
		fprintf(stderr, "profdata: %s: %s\n", a->operand[0], t ? profdata_top_error(t)->message : profdata_strerror(e));
		profdata_top_free(t);
		return e == PROFDATA_ENOTFOUND ? EXIT_USAGE : EXIT_INVALID;
	}
	size_t n = profdata_top_count(t);
	if (a->limit >= 0 && (size_t)a->limit < n)
		n = (size_t)a->limit;
	else if (a->limit < 0 && n > TOP_DEFAULT_ROWS)
		n = TOP_DEFAULT_ROWS;
	if (a->json)
		print_json(t, n, o.group);
	else
		print_text(t, n);
	profdata_top_free(t);
	return finish_stdout(0);
}
