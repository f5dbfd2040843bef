/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `profdata report DUMP -o OUT.html [--baseline OLD]`: one self-contained
 * page (report-page.html, embedded by embed-page.py) with the answers of
 * the heap commands as its data: the overview, the top of the dominator
 * tree, the retained histogram, the leak suspects, the waste and, with a
 * baseline, what grew. The data is the commands' own JSON (heap_view.h),
 * so the page and `--json` never disagree.
 */
/* The tree's top is experimental (doc/conventions.md). */
#define PROFDATA_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "heap_view.h"
#include "json.h"
#include "load.h"
#include "output.h"
#include "report.h"
#include "report_page.h"

/*
 * Nodes of the dominator tree the page draws: enough to zoom a few levels
 * into any big object, few enough that a 37M-object dump's page loads in
 * well under 3 s (it draws the top, not every object).
 */
#define TREE_NODES 4000
/* Root kinds are a byte (profdata_root). */
#define ROOT_KINDS 256

/* A path's last part, as the page names the dump ("-" for standard input). */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

static void write_roots(FILE *out, const profdata_profile *p, long dump)
{
	size_t count[ROOT_KINDS] = { 0 }, n = profdata_profile_count(p, PROFDATA_TABLE_ROOTS);
	for (size_t i = 0; i < n; i++) {
		profdata_root r;
		uint32_t in_dump;
		if (profdata_profile_root(p, i, &r, &in_dump) == 0 && (long)in_dump == dump)
			count[r.kind]++;
	}
	fprintf(out, "\"roots\":[");
	int first = 1;
	for (;;) { /* largest first: a few kinds, so a selection each time is cheap */
		size_t best = 0;
		for (size_t k = 1; k < ROOT_KINDS; k++)
			if (count[k] > count[best])
				best = k;
		if (count[best] == 0)
			break;
		fprintf(out, "%s{\"kind\":", first ? "" : ",");
		json_string(out, heap_root_kind_name((int)best));
		fprintf(out, ",\"count\":%zu}", count[best]);
		count[best] = 0;
		first = 0;
	}
	fprintf(out, "]");
}

static void write_overview(FILE *out, const heap_view *v, long dump)
{
	const profdata_heap *h = v->h;
	unsigned long long rb = profdata_heap_reachable_bytes(h), ub = profdata_heap_unreachable_bytes(h);
	fprintf(out, "\"overview\":{\"objects\":%zu,\"classes\":%zu,\"shallow_bytes\":%llu,",
	        profdata_profile_count(v->p, PROFDATA_TABLE_OBJECTS), profdata_profile_count(v->p, PROFDATA_TABLE_CLASSES),
	        rb + ub);
	fprintf(out, "\"reachable_objects\":%zu,\"reachable_bytes\":%llu,\"unreachable_objects\":%zu,"
	        "\"unreachable_bytes\":%llu,", profdata_heap_reachable_count(h), rb, profdata_heap_unreachable_count(h), ub);
	write_roots(out, v->p, dump);
	fprintf(out, "}");
}

/* The top of the dominator tree, parents first: 0, or EXIT_INVALID having said why. */
static int write_tree(FILE *out, const heap_view *v, const char *path)
{
	size_t *node = malloc(TREE_NODES * sizeof *node), *parent = malloc(TREE_NODES * sizeof *parent), n = 0;
	int e = node && parent ? profdata_heap_tree_top(node, parent, &n, v->h, TREE_NODES) : PROFDATA_ENOMEM;
	if (e == 0) {
		fprintf(out, "\"tree\":{\"total\":%llu,\"nodes\":[",
		        (unsigned long long)profdata_heap_reachable_bytes(v->h));
		for (size_t k = 0; k < n; k++) {
			char name[512];
			int class_object;
			const char *cls = heap_node_class_name(v->p, v->h, node[k], name, sizeof name, &class_object);
			fprintf(out, "%s{\"parent\":%lld,\"id\":%llu,\"class\":", k ? "," : "",
			        parent[k] == PROFDATA_HEAP_ROOTS ? -1LL : (long long)parent[k], heap_node_id(v->p, v->h, node[k]));
			json_string(out, class_object ? "java.lang.Class" : cls);
			if (class_object)
				fprintf(out, ",\"class_object\":"), json_string(out, cls);
			fprintf(out, ",\"shallow\":%llu,\"retained\":%llu}", (unsigned long long)profdata_heap_size(v->h, node[k]),
			        (unsigned long long)profdata_heap_retained(v->h, node[k]));
		}
		fprintf(out, "]}");
	} else {
		fprintf(stderr, "profdata: %s: %s\n", path, profdata_strerror(e));
	}
	free(node);
	free(parent);
	return e ? EXIT_INVALID : 0;
}

/* `"key":` and one command's JSON answer (as --json prints it) with the options the report gives it. */
static int write_section(FILE *out, const char *key, int (*answer)(FILE *, const tool_args *, heap_view *),
                         const tool_args *a, heap_view *v, long limit)
{
	tool_args as_json = *a;
	as_json.json = 1;
	as_json.limit = limit;
	fprintf(out, ",\"%s\":", key);
	return answer(out, &as_json, v);
}

/* The baseline dump, read and analysed as DUMP is: 0, or the exit status having said why. */
static int load_baseline(const tool_args *a, heap_view *old)
{
	tool_input in;
	memset(old, 0, sizeof *old);
	int status = load_profile_from(&in, a, a->baseline, &old->p);
	if (status)
		return status;
	input_close(&in);
	return heap_view_analyse(a, old, a->baseline, 0);
}

static int write_diff(FILE *out, const tool_args *a, heap_view *now)
{
	if (!a->baseline) {
		fprintf(out, ",\"diff\":null");
		return 0;
	}
	heap_view old;
	int status = load_baseline(a, &old);
	if (status == 0) {
		tool_args as_json = *a; /* as `diff --json OLD DUMP` */
		as_json.json = 1;
		as_json.operand[0] = a->baseline;
		as_json.operand[1] = a->operand[0];
		fprintf(out, ",\"baseline\":");
		json_string(out, base_name(a->baseline));
		fprintf(out, ",\"diff\":");
		status = heap_diff_write(out, &as_json, &old, now);
	}
	heap_view_free(&old);
	return status;
}

/* The page's data: one JSON object (the page's template says what it reads). */
static int write_data(FILE *out, const tool_args *a, heap_view *v)
{
	const char *path = a->operand[0];
	long dump = a->dump == PROFDATA_HISTOGRAM_ALL_DUMPS ? 0 : a->dump;
	struct stat st;
	fprintf(out, "{\"profdata_report\":1,\"file\":");
	json_string(out, base_name(path));
	fprintf(out, ",\"format\":");
	json_string(out, profdata_profile_meta(v->p)->format);
	fprintf(out, ",\"bytes\":%llu,", strcmp(path, "-") != 0 && stat(path, &st) == 0 ? (unsigned long long)st.st_size : 0);
	write_overview(out, v, dump);
	fprintf(out, ",");
	int status = write_tree(out, v, path);
	if (status == 0)
		status = write_section(out, "histogram", histo_retained_write, a, v, -1);
	if (status == 0)
		status = write_section(out, "suspects", suspects_write, a, v, a->limit);
	if (status == 0)
		status = write_section(out, "waste", waste_write, a, v, a->limit);
	if (status == 0)
		status = write_diff(out, a, v);
	fprintf(out, "}");
	return status;
}

/* `data` into the page's script element: '<' only ever stands in a JSON string, where \u003c says it too. */
static int write_escaped(profdata_writer *w, const char *data, size_t len)
{
	int e = 0;
	for (const char *lt; e == 0 && (lt = memchr(data, '<', len)) != NULL; len -= (size_t)(lt + 1 - data), data = lt + 1) {
		e = profdata_writer_write(w, data, (size_t)(lt - data));
		if (e == 0)
			e = profdata_writer_write(w, "\\u003c", 6);
	}
	return e ? e : profdata_writer_write(w, data, len);
}

/* The page with the data in place of its marker line: 0 or the writer's error. */
static int write_page(profdata_writer *w, const char *data, size_t len)
{
	static const char open_tag[] = "<script type=\"application/json\" id=\"profdata-data\">";
	static const char close_tag[] = "</script>\n";
	int e = profdata_writer_write(w, report_page, report_page_data_at);
	if (e == 0)
		e = profdata_writer_write(w, open_tag, sizeof open_tag - 1);
	if (e == 0)
		e = write_escaped(w, data, len);
	if (e == 0)
		e = profdata_writer_write(w, close_tag, sizeof close_tag - 1);
	if (e == 0)
		e = profdata_writer_write(w, report_page + report_page_data_end, report_page_size - report_page_data_end);
	return e ? e : profdata_writer_close(w);
}

/* The data in memory, then the page at --output: the exit status. */
static int write_report(const tool_args *a, heap_view *v)
{
	char *data = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&data, &len);
	if (!out) {
		fprintf(stderr, "profdata: report: %s\n", profdata_strerror(PROFDATA_ENOMEM));
		return EXIT_INVALID;
	}
	int status = write_data(out, a, v);
	if (fclose(out) != 0 && status == 0) {
		fprintf(stderr, "profdata: report: %s\n", profdata_strerror(PROFDATA_ENOMEM));
		status = EXIT_INVALID;
	}
	profdata_writer *w = NULL;
	int e = status ? 0 : output_open(&w, a->operand[0], a->output, a->force);
	if (status == 0 && e == 0 && (e = write_page(w, data, len)) != 0)
		report(a->output, profdata_writer_error(w), e);
	profdata_writer_free(w);
	output_forget();
	free(data);
	return status ? status : e ? EXIT_INVALID : 0;
}

int cmd_report(const tool_args *a)
{
	if (!a->output)
		return usage_error(a->command, "report needs --output OUT.html (the page is one file)");
	heap_view v;
	int status = heap_view_load(a, &v, 0);
	if (status == 0)
		status = write_report(a, &v);
	heap_view_free(&v);
	return status;
}
