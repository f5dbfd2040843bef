/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `profdata suspects`: the leak suspects of a heap dump
 * (include/profdata/suspects.h), each with where its memory gathers, what
 * that holds by class, and the shortest path from a GC root.
 */
/* The suspects are experimental (doc/conventions.md). */
#define PROFDATA_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "heap_view.h"
#include "json.h"
#include "report.h"

/* A share of the reachable bytes, in percent with one decimal. */
static double percent(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* The classes listed: the library's (--limit of them), none for --limit 0 (the library reads 0 as its default). */
static size_t listed(const tool_args *a, const profdata_heap_suspect *x)
{
	return a->limit == 0 ? 0 : x->naccumulated;
}

static void print_accumulated_text(FILE *out, const tool_args *a, const profdata_heap_suspect *x)
{
	size_t n = listed(a, x);
	if (!n)
		return;
	fprintf(out, "   %s, by class (%zu of %llu shown):\n", x->kind == PROFDATA_SUSPECT_CLASS ? "they hold" : "it holds",
	        n, (unsigned long long)x->accumulated_classes);
	fprintf(out, "   %14s %16s  %s\n", "count", "retained", "class");
	for (size_t j = 0; j < n; j++)
		fprintf(out, "   %14llu %16llu  %s\n", (unsigned long long)x->accumulated[j].count,
		        (unsigned long long)x->accumulated[j].retained, x->accumulated[j].class_name);
}

static void print_accumulated_json(FILE *out, const tool_args *a, const profdata_heap_suspect *x)
{
	fprintf(out, ",\"accumulated\":[");
	for (size_t j = 0; j < listed(a, x); j++) {
		fprintf(out, "%s{\"class\":", j ? "," : "");
		json_string(out, x->accumulated[j].class_name);
		fprintf(out, ",\"count\":%llu,\"retained\":%llu}", (unsigned long long)x->accumulated[j].count,
		        (unsigned long long)x->accumulated[j].retained);
	}
	fprintf(out, "],\"accumulated_classes\":%llu", (unsigned long long)x->accumulated_classes);
}

/* The suspect's first lines: what it is, what it retains, where it gathers. */
static void print_head_text(FILE *out, const heap_view *v, const profdata_heap_suspect *x, size_t rank, uint64_t total)
{
	char name[512];
	int class_object;
	unsigned long long id = heap_node_id(v->p, v->h, x->node);
	if (x->kind == PROFDATA_SUSPECT_CLASS) {
		fprintf(out, "%zu. %llu instances of %s retain %llu bytes (%.1f%%); the biggest is @0x%llx\n", rank,
		        (unsigned long long)x->instances, x->class_name, (unsigned long long)x->retained,
		        percent(x->retained, total), id);
		return;
	}
	fprintf(out, "%zu. %s%s@0x%llx retains %llu bytes (%.1f%%)\n", rank, x->class_object ? "class " : "", x->class_name, id,
	        (unsigned long long)x->retained, percent(x->retained, total));
	if (x->depth) {
		const char *cls = heap_node_class_name(v->p, v->h, x->accumulation, name, sizeof name, &class_object);
		fprintf(out, "   accumulation point, %zu step%s down the dominator tree: %s%s@0x%llx retaining %llu bytes (%.1f%%)\n",
		        x->depth, x->depth == 1 ? "" : "s", class_object ? "class " : "", cls,
		        heap_node_id(v->p, v->h, x->accumulation), (unsigned long long)x->accumulation_retained,
		        percent(x->accumulation_retained, total));
	}
}

static void print_head_json(FILE *out, const heap_view *v, const profdata_heap_suspect *x)
{
	char name[512];
	int class_object;
	fprintf(out, "{\"kind\":\"%s\",\"id\":%llu,\"class\":", x->kind == PROFDATA_SUSPECT_CLASS ? "class" : "object",
	        heap_node_id(v->p, v->h, x->node));
	json_string(out, x->class_object ? "java.lang.Class" : x->class_name);
	if (x->class_object)
		fprintf(out, ",\"class_object\":"), json_string(out, x->class_name);
	fprintf(out, ",\"instances\":%llu,\"retained\":%llu", (unsigned long long)x->instances, (unsigned long long)x->retained);
	if (x->kind == PROFDATA_SUSPECT_OBJECT) {
		const char *cls = heap_node_class_name(v->p, v->h, x->accumulation, name, sizeof name, &class_object);
		fprintf(out, ",\"accumulation\":{\"id\":%llu,\"%s\":", heap_node_id(v->p, v->h, x->accumulation),
		        class_object ? "class_object" : "class");
		json_string(out, cls);
		fprintf(out, ",\"retained\":%llu,\"depth\":%zu}", (unsigned long long)x->accumulation_retained, x->depth);
	}
}

/* The path from a GC root to the suspect (a class suspect's biggest instance); 0, or the exit status. */
static int print_path(FILE *out, const tool_args *a, heap_view *v, const profdata_heap_suspect *x)
{
	profdata_heap_root_path *path = NULL;
	int e = profdata_heap_root_path_new(&path, v->h, x->node, NULL, NULL);
	if (e != 0) {
		fprintf(stderr, "profdata: %s: %s\n", a->operand[0],
		        path ? profdata_heap_root_path_error(path)->message : profdata_strerror(e));
		profdata_heap_root_path_free(path);
		return EXIT_INVALID;
	}
	if (a->json)
		fprintf(out, ",\"path\":[");
	else
		fprintf(out, "   the shortest path from a GC root:\n");
	heap_print_path_steps(out, a, v->p, v->h, path, 5);
	if (a->json)
		fprintf(out, "]");
	profdata_heap_root_path_free(path);
	return 0;
}

static int print_suspects(FILE *out, const tool_args *a, heap_view *v, const profdata_heap_suspects *s)
{
	size_t n = profdata_heap_suspects_count(s);
	uint64_t total = profdata_heap_suspects_total(s), threshold = profdata_heap_suspects_threshold(s);
	if (a->json)
		fprintf(out, "{\"reachable\":%llu,\"threshold\":%llu,\"suspects\":[", (unsigned long long)total,
		        (unsigned long long)threshold);
	else
		fprintf(out, "%zu suspect%s retain%s at least %ld%% of the %llu reachable bytes (%llu bytes)\n", n,
		        n == 1 ? "" : "s", n == 1 ? "s" : "", a->threshold, (unsigned long long)total,
		        (unsigned long long)threshold);
	int status = 0;
	for (size_t k = 0; k < n && status == 0; k++) {
		const profdata_heap_suspect *x = profdata_heap_suspects_at(s, k);
		if (a->json) {
			fprintf(out, "%s", k ? "," : "");
			print_head_json(out, v, x);
			print_accumulated_json(out, a, x);
		} else {
			fprintf(out, "\n");
			print_head_text(out, v, x, k + 1, total);
			print_accumulated_text(out, a, x);
		}
		status = print_path(out, a, v, x);
		if (a->json)
			fprintf(out, "}");
	}
	if (a->json)
		fprintf(out, "]}\n");
	return status;
}

int suspects_write(FILE *out, const tool_args *a, heap_view *v)
{
	profdata_heap_suspects_options o = PROFDATA_HEAP_SUSPECTS_OPTIONS_INIT;
	o.threshold = (double)a->threshold / 100.0;
	o.classes = a->limit > 0 ? (size_t)a->limit : 0;
	profdata_heap_suspects *s = NULL;
	int status, e = profdata_heap_suspects_new(&s, v->h, &o);
	progress_end(&v->progress);
	if (e != 0) {
		fprintf(stderr, "profdata: %s: %s\n", a->operand[0],
		        s ? profdata_heap_suspects_error(s)->message : profdata_strerror(e));
		status = EXIT_INVALID;
	} else {
		status = print_suspects(out, a, v, s);
	}
	profdata_heap_suspects_free(s);
	return status;
}

int cmd_suspects(const tool_args *a)
{
	return heap_command(a, 0, suspects_write);
}
