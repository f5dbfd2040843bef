/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The commands that read any profile: info, histo (streaming), check, and
 * formats, which lists what they can read.
 */
#include <stdio.h>
#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "json.h"
#include "load.h"
#include "report.h"

/* Elements of a trace by name, and its number of traces: what `info --json` adds for a tracexml input. */
typedef struct element_counts {
	struct { const char *name; uint64_t name_id; size_t n; } seen[256];
	size_t kinds;
	size_t traces;
} element_counts;

/* The element name of trace event i: a kind's own, or the name it was read with (*name_id then). */
static const char *trace_event_element(const profdata_profile *p, size_t i, uint64_t *name_id)
{
	static const char *const by_kind[] = { NULL, "methodEntry", "methodExit", "methodCall", "methodReturn",
	                                       "objAlloc", "objFree", "objMove", "gcStart", "gcFinish", "threadStart",
	                                       "threadEnd", "classDef", "methodDef" };
	profdata_trace_event t;
	*name_id = 0;
	profdata_profile_trace_event(p, i, &t);
	if (t.kind < sizeof by_kind / sizeof by_kind[0] && by_kind[t.kind])
		return by_kind[t.kind];
	if ((*name_id = t.name_id) != 0)
		return profdata_profile_string(p, t.name_id, NULL);
	return NULL;
}

static const char *trace_context_element(const profdata_profile *p, size_t i, element_counts *c)
{
	static const char *const by_context[] = { NULL, NULL, "node", "processCreate", "agentCreate", "agentDestroy",
	                                          "traceStart", "traceEnd", "processSuspend", "processResume",
	                                          "option", "filter" };
	profdata_trace_context t;
	profdata_profile_trace_context(p, i, &t);
	c->traces += t.kind == PROFDATA_TRACE_CONTEXT_BEGIN;
	return t.kind < sizeof by_context / sizeof by_context[0] ? by_context[t.kind] : NULL;
}

static void count_element(element_counts *c, const char *name, uint64_t name_id)
{
	size_t k = 0;
	while (k < c->kinds && (name_id ? c->seen[k].name_id != name_id : c->seen[k].name != name))
		k++;
	if (k == c->kinds && c->kinds < sizeof c->seen / sizeof c->seen[0]) {
		c->seen[k].name = name;
		c->seen[k].name_id = name_id;
		c->seen[k].n = 0;
		c->kinds++;
	}
	if (k < c->kinds)
		c->seen[k].n++;
}

/* Trace events, nested elements and trace contexts count; character data is not an element. */
static void json_trace_elements(const profdata_profile *p)
{
	element_counts c;
	c.kinds = c.traces = 0;
	size_t events = profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS);
	size_t contexts = profdata_profile_count(p, PROFDATA_TABLE_TRACE_CONTEXTS);
	for (size_t i = 0; i < events + contexts; i++) {
		uint64_t name_id = 0;
		const char *name = i < events ? trace_event_element(p, i, &name_id) : trace_context_element(p, i - events, &c);
		if (name)
			count_element(&c, name, name_id);
	}
	printf(",\"traces\":%zu,\"elements\":{", c.traces);
	for (size_t k = 0; k < c.kinds; k++) {
		printf("%s", k ? "," : "");
		json_string(stdout, c.seen[k].name);
		printf(":%zu", c.seen[k].n);
	}
	printf("}");
}

/* The meta comments whose keys begin with `prefix` as the JSON object "name", keys without it; values as numbers or strings. */
static void json_comments(const profdata_meta *m, const char *name, const char *prefix, int numbers)
{
	size_t len = strlen(prefix);
	int first = 1;
	printf(",\"%s\":{", name);
	for (size_t i = 0; i < m->ncomments; i++) {
		if (strncmp(m->comments[i].key, prefix, len) != 0)
			continue;
		printf("%s", first ? "" : ",");
		json_string(stdout, m->comments[i].key + len);
		printf(":");
		if (numbers)
			printf("%s", m->comments[i].value);
		else
			json_string(stdout, m->comments[i].value);
		first = 0;
	}
	printf("}");
}

/*
 * A JFR recording's events counted per type (the reader's meta comments
 * jfr.events.NAME, what `jfr summary` counts), its chunks, its settings
 * (EVENT.NAME: value) and its recording's record.
 */
static void json_jfr_events(const profdata_meta *m)
{
	for (size_t i = 0; i < m->ncomments; i++)
		if (strcmp(m->comments[i].key, "jfr.chunks") == 0)
			printf(",\"chunks\":%s", m->comments[i].value);
	json_comments(m, "events", "jfr.events.", 1);
	json_comments(m, "settings", "jfr.setting.", 0);
	json_comments(m, "recording", "jfr.recording.", 0);
}

static void info_json(const tool_input *in, const profdata_profile *p)
{
	const profdata_meta *m = profdata_profile_meta(p);
	printf("{\"file\":");
	json_string(stdout, in->path);
	printf(",\"format\":");
	json_string(stdout, m->format ? m->format : "");
	printf(",\"version\":");
	json_string(stdout, m->version ? m->version : "");
	printf(",\"gzip\":%s,\"id_size\":%u,\"word_size\":%u,\"period\":%llu,\"counts\":{",
	       profdata_reader_is_gzip(in->reader) ? "true" : "false", m->id_size, m->word_size,
	       (unsigned long long)m->period);
	for (int t = 0; t < PROFDATA_TABLE_COUNT_; t++)
		printf("%s\"%s\":%zu", t ? "," : "", profdata_table_name((profdata_table)t),
		       profdata_profile_count(p, (profdata_table)t));
	printf(",\"references\":%llu}", (unsigned long long)profdata_profile_reference_count(p));
	if (profdata_profile_count(p, PROFDATA_TABLE_TRACE_CONTEXTS) ||
	    profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS))
		json_trace_elements(p);
	if (m->format && strcmp(m->format, "jfr") == 0)
		json_jfr_events(m);
	printf(",\"warnings\":%zu}\n", profdata_reader_warning_count(in->reader));
}

static void info_text(const tool_input *in, const profdata_profile *p)
{
	const profdata_meta *m = profdata_profile_meta(p);
	printf("file:        %s%s\n", in->path, profdata_reader_is_gzip(in->reader) ? " (gzip)" : "");
	printf("format:      %s\n", m->format ? m->format : "");
	if (m->version)
		printf("version:     %s\n", m->version);
	if (m->id_size)
		printf("id size:     %u\n", m->id_size);
	if (m->word_size)
		printf("word size:   %u (%s-endian)\n", m->word_size, m->big_endian ? "big" : "little");
	if (m->period)
		printf("period:      %llu %s\n", (unsigned long long)m->period, m->period_unit ? m->period_unit : "");
	for (int t = 0; t < PROFDATA_TABLE_COUNT_; t++) {
		size_t n = profdata_profile_count(p, (profdata_table)t);
		if (n)
			printf("%-17s %zu\n", profdata_table_name((profdata_table)t), n);
	}
	printf("%-17s %llu\n", "references", (unsigned long long)profdata_profile_reference_count(p));
	printf("%-17s %zu\n", "warnings", profdata_reader_warning_count(in->reader));
	if (profdata_reader_window_peak(in->reader))
		printf("%-17s %zu bytes (the largest record read whole from the stream)\n", "held at once",
		       profdata_reader_window_peak(in->reader));
}

int cmd_info(const tool_args *a)
{
	tool_input in;
	profdata_profile *p;
	int status = load_profile(&in, a, &p);
	if (status)
		return status;
	if (a->json)
		info_json(&in, p);
	else
		info_text(&in, p);
	profdata_profile_free(p);
	input_close(&in);
	return finish_stdout(0);
}

/* What the text shows, and where it came from. */
static void histo_json(const tool_args *a, const char *format, const profdata_histogram *h, size_t n)
{
	printf("{\"file\":");
	json_string(stdout, a->operand[0]);
	printf(",\"format\":");
	if (format)
		json_string(stdout, format);
	else
		printf("null");
	if (a->dump == PROFDATA_HISTOGRAM_ALL_DUMPS)
		printf(",\"dump\":\"all\"");
	else
		printf(",\"dump\":%ld", a->dump);
	printf(",\"total_classes\":%zu,\"total_instances\":%llu,\"total_bytes\":%llu,\"classes\":[",
	       profdata_histogram_count(h), (unsigned long long)profdata_histogram_total_instances(h),
	       (unsigned long long)profdata_histogram_total_bytes(h));
	for (size_t i = 0; i < n; i++) {
		const profdata_histogram_entry *x = profdata_histogram_entry_at(h, i);
		printf("%s{\"name\":", i ? "," : "");
		json_string(stdout, x->name);
		printf(",\"instances\":%llu,\"bytes\":%llu}", (unsigned long long)x->instances,
		       (unsigned long long)x->bytes);
	}
	printf("]}\n");
}

static void histo_text(const profdata_histogram *h, size_t n)
{
	printf("%6s %14s %16s  %s\n", "rank", "instances", "bytes", "class");
	for (size_t i = 0; i < n; i++) {
		const profdata_histogram_entry *x = profdata_histogram_entry_at(h, i);
		printf("%6zu %14llu %16llu  %s\n", i + 1, (unsigned long long)x->instances, (unsigned long long)x->bytes,
		       x->name);
	}
	printf("%6s %14llu %16llu\n", "total", (unsigned long long)profdata_histogram_total_instances(h),
	       (unsigned long long)profdata_histogram_total_bytes(h));
}

/* An empty table would say "nothing" where the truth is "not a heap dump". */
static int refuse_empty_histogram(const tool_args *a, const char *format)
{
	fprintf(stderr, "profdata: %s: no objects to count: the input%s%s%s holds no heap dump%s\n", a->operand[0],
	        format ? " (" : "", format ? format : "", format ? ")" : "",
	        a->dump > 0 ? " with that number (--dump counts from 0)" : "");
	return EXIT_INVALID;
}

static int show_histogram(const tool_args *a, const char *format, const profdata_histogram *h)
{
	size_t n = profdata_histogram_count(h);
	if (n == 0)
		return refuse_empty_histogram(a, format);
	if (a->limit >= 0 && (size_t)a->limit < n)
		n = (size_t)a->limit;
	if (a->json)
		histo_json(a, format, h, n);
	else
		histo_text(h, n);
	return finish_stdout(0);
}

int cmd_histo(const tool_args *a)
{
	if (a->retained)
		return cmd_histo_retained(a);
	tool_input in;
	int status = input_open(&in, a, a->operand[0]);
	if (status)
		return status;
	profdata_histogram *h = NULL;
	int e = profdata_histogram_read(&h, in.reader, &in.options, a->dump);
	if (e < 0) {
		status = input_failed(&in, e);
	} else {
		progress_end(&in.progress);
		report_warnings(a->quiet, in.reader, NULL);
		status = show_histogram(a, in.format ? profdata_format_name(in.format) : NULL, h);
	}
	profdata_histogram_free(h);
	input_close(&in);
	return status;
}

int cmd_check(const tool_args *a)
{
	tool_input in;
	profdata_profile *p = NULL;
	int status = input_open(&in, a, a->operand[0]);
	if (status)
		return status;
	in.options.mode = PROFDATA_MODE_STRICT;
	/*
	 * Build the model: its checks (unique ids, objects inside dumps) are part
	 * of validity. Primitive arrays' elements are not: an HPROF stream (gzip,
	 * a pipe) reads past them rather than hold a 512 MiB array.
	 */
	status = input_skip_unread(&in);
	if (status == 0)
		status = input_read(&in, &p);
	size_t problems = status == 0 ? profdata_reader_warning_count(in.reader) : 0;
	profdata_profile_free(p);
	input_close(&in);
	if (problems) {
		fprintf(stderr, "profdata: %s: %zu problem%s\n", a->operand[0], problems, problems == 1 ? "" : "s");
		return EXIT_INVALID;
	}
	if (status == 0 && !a->quiet)
		printf("%s: ok\n", a->operand[0]);
	return status;
}

int cmd_formats(const tool_args *a)
{
	(void)a;
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		int r = profdata_format_can_read(f), w = profdata_format_can_write(f);
		printf("%-12s %-5s %s\n", profdata_format_name(f), r && w ? "rw" : r ? "r" : "w",
		       profdata_format_description(f));
	}
	return finish_stdout(0);
}
