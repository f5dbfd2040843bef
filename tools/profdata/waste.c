/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `profdata waste`: what a heap dump wastes (include/profdata/waste.h):
 * duplicate strings and primitive arrays, empty and sparse collections,
 * boxed primitives.
 */
/* Waste is experimental (doc/conventions.md). */
#define PROFDATA_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "heap_view.h"
#include "json.h"
#include "report.h"

typedef unsigned long long ull;

/* Rows listed: the library's, or none for --limit 0 (the library reads 0 as its default). */
static size_t listed(const tool_args *a, size_t n)
{
	return a->limit == 0 ? 0 : a->limit > 0 && (size_t)a->limit < n ? (size_t)a->limit : n;
}

static double percent(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

static void print_owners(FILE *out, const heap_view *v, const profdata_heap_duplicate_string *x, int json)
{
	char name[512];
	int class_object;
	for (size_t j = 0; j < x->nowners; j++) {
		const char *cls = heap_node_class_name(v->p, v->h, x->owners[j], name, sizeof name, &class_object);
		if (json) {
			fprintf(out, "%s{\"id\":%llu,\"%s\":", j ? "," : "", heap_node_id(v->p, v->h, x->owners[j]),
			        class_object ? "class_object" : "class");
			json_string(out, cls);
			fprintf(out, "}");
		} else {
			fprintf(out, "%s%s%s@0x%llx", j ? ", " : "", class_object ? "class " : "", cls,
			        heap_node_id(v->p, v->h, x->owners[j]));
		}
	}
}

static void print_strings(FILE *out, const tool_args *a, const heap_view *v, const profdata_heap_waste *w)
{
	const profdata_heap_waste_totals *t = profdata_heap_waste_totals_of(w);
	size_t n;
	const profdata_heap_duplicate_string *x = profdata_heap_waste_strings(w, &n);
	n = listed(a, n);
	if (a->json)
		fprintf(out, "\"strings\":{\"strings\":%llu,\"bytes\":%llu,\"groups\":%llu,\"copies\":%llu,\"wasted\":%llu,"
		        "\"top\":[", (ull)t->strings, (ull)t->string_bytes, (ull)t->string_groups,
		        (ull)t->duplicate_strings, (ull)t->string_wasted);
	else
		fprintf(out, "duplicate strings: %llu of %llu strings in %llu groups, %llu bytes wasted (%.1f%%)\n",
		        (ull)t->duplicate_strings, (ull)t->strings, (ull)t->string_groups, (ull)t->string_wasted,
		        percent(t->string_wasted, t->reachable_bytes));
	if (n && !a->json)
		fprintf(out, "%12s %14s  %s\n", "count", "wasted", "string (length; owners)");
	for (size_t k = 0; k < n; k++) {
		if (a->json) {
			fprintf(out, "%s{\"text\":", k ? "," : "");
			json_string(out, x[k].text);
			fprintf(out, ",\"length\":%llu,\"truncated\":%s,\"count\":%llu,\"bytes\":%llu,\"wasted\":%llu,"
			        "\"id\":%llu,\"owners\":[", (ull)x[k].length, x[k].truncated ? "true" : "false",
			        (ull)x[k].count, (ull)x[k].bytes, (ull)x[k].wasted, heap_node_id(v->p, v->h, x[k].node));
			print_owners(out, v, &x[k], 1);
			fprintf(out, "]}");
			continue;
		}
		fprintf(out, "%12llu %14llu  ", (ull)x[k].count, (ull)x[k].wasted);
		json_string(out, x[k].text);
		fprintf(out, "%s (%llu; ", x[k].truncated ? "..." : "", (ull)x[k].length);
		print_owners(out, v, &x[k], 0);
		fprintf(out, ")\n");
	}
	if (a->json)
		fprintf(out, "]}");
}

static void print_arrays(FILE *out, const tool_args *a, const heap_view *v, const profdata_heap_waste *w)
{
	const profdata_heap_waste_totals *t = profdata_heap_waste_totals_of(w);
	size_t n;
	const profdata_heap_duplicate_array *x = profdata_heap_waste_arrays(w, &n);
	n = listed(a, n);
	if (a->json)
		fprintf(out, ",\"arrays\":{\"groups\":%llu,\"copies\":%llu,\"wasted\":%llu,\"top\":[", (ull)t->array_groups,
		        (ull)t->duplicate_arrays, (ull)t->array_wasted);
	else
		fprintf(out, "\nduplicate primitive arrays: %llu in %llu groups, %llu bytes wasted (%.1f%%)\n",
		        (ull)t->duplicate_arrays, (ull)t->array_groups, (ull)t->array_wasted,
		        percent(t->array_wasted, t->reachable_bytes));
	if (n && !a->json)
		fprintf(out, "%12s %14s  %s\n", "count", "wasted", "array (one copy)");
	for (size_t k = 0; k < n; k++) {
		if (a->json) {
			fprintf(out, "%s{\"class\":", k ? "," : "");
			json_string(out, x[k].class_name);
			fprintf(out, ",\"length\":%llu,\"count\":%llu,\"bytes\":%llu,\"wasted\":%llu,\"id\":%llu}", (ull)x[k].length,
			        (ull)x[k].count, (ull)x[k].bytes, (ull)x[k].wasted, heap_node_id(v->p, v->h, x[k].node));
		} else {
			fprintf(out, "%12llu %14llu  %.*s[%llu] @0x%llx\n", (ull)x[k].count, (ull)x[k].wasted,
			        (int)(strlen(x[k].class_name) - 2), x[k].class_name, (ull)x[k].length,
			        heap_node_id(v->p, v->h, x[k].node));
		}
	}
	if (a->json)
		fprintf(out, "]}");
}

static void print_collections(FILE *out, const tool_args *a, const profdata_heap_waste *w)
{
	const profdata_heap_waste_totals *t = profdata_heap_waste_totals_of(w);
	size_t n;
	const profdata_heap_collection_waste *x = profdata_heap_waste_collections(w, &n);
	n = listed(a, n);
	if (a->json)
		fprintf(out, ",\"collections\":{\"wasted\":%llu,\"empty_bytes\":%llu,\"classes\":[", (ull)t->collection_wasted,
		        (ull)t->empty_collection_bytes);
	else
		fprintf(out, "\nempty and sparse collections: %llu bytes in empty slots, %llu bytes of empty collections\n",
		        (ull)t->collection_wasted, (ull)t->empty_collection_bytes);
	if (n && !a->json)
		fprintf(out, "%10s %10s %10s %14s %14s  %s\n", "count", "empty", "sparse", "empty bytes", "wasted", "class");
	for (size_t k = 0; k < n; k++) {
		if (a->json) {
			fprintf(out, "%s{\"class\":", k ? "," : "");
			json_string(out, x[k].class_name);
			fprintf(out, ",\"count\":%llu,\"empty\":%llu,\"sparse\":%llu,\"empty_bytes\":%llu,\"slots\":%llu,"
			        "\"used\":%llu,\"wasted\":%llu}", (ull)x[k].count, (ull)x[k].empty, (ull)x[k].sparse,
			        (ull)x[k].empty_bytes, (ull)x[k].slots, (ull)x[k].used, (ull)x[k].wasted);
		} else {
			fprintf(out, "%10llu %10llu %10llu %14llu %14llu  %s\n", (ull)x[k].count, (ull)x[k].empty, (ull)x[k].sparse,
			        (ull)x[k].empty_bytes, (ull)x[k].wasted, x[k].class_name);
		}
	}
	if (a->json)
		fprintf(out, "]}");
}

static void print_boxed(FILE *out, const tool_args *a, const profdata_heap_waste *w)
{
	const profdata_heap_waste_totals *t = profdata_heap_waste_totals_of(w);
	size_t n;
	const profdata_heap_boxed *x = profdata_heap_waste_boxed(w, &n);
	n = listed(a, n);
	if (a->json)
		fprintf(out, ",\"boxed\":{\"count\":%llu,\"bytes\":%llu,\"wasted\":%llu,\"classes\":[", (ull)t->boxed_count,
		        (ull)t->boxed_bytes, (ull)t->boxed_wasted);
	else
		fprintf(out, "\nboxed primitives: %llu boxes of %llu bytes, %llu bytes in repeated values\n", (ull)t->boxed_count,
		        (ull)t->boxed_bytes, (ull)t->boxed_wasted);
	if (n && !a->json)
		fprintf(out, "%10s %12s %10s %12s  %-22s %s\n", "count", "bytes", "values", "wasted", "class", "most held (times)");
	for (size_t k = 0; k < n; k++) {
		if (a->json) {
			fprintf(out, "%s{\"class\":", k ? "," : "");
			json_string(out, x[k].class_name);
			fprintf(out, ",\"count\":%llu,\"bytes\":%llu,\"distinct\":%llu,\"wasted\":%llu,\"top_value\":",
			        (ull)x[k].count, (ull)x[k].bytes, (ull)x[k].distinct, (ull)x[k].wasted);
			json_string(out, x[k].top_value);
			fprintf(out, ",\"top_count\":%llu}", (ull)x[k].top_count);
		} else {
			fprintf(out, "%10llu %12llu %10llu %12llu  %-22s %s (%llu)\n", (ull)x[k].count, (ull)x[k].bytes,
			        (ull)x[k].distinct, (ull)x[k].wasted, x[k].class_name, x[k].top_value, (ull)x[k].top_count);
		}
	}
	if (a->json)
		fprintf(out, "]}");
}

int waste_write(FILE *out, const tool_args *a, heap_view *v)
{
	profdata_heap_waste_options o = PROFDATA_HEAP_WASTE_OPTIONS_INIT;
	o.limit = a->limit > 0 ? (size_t)a->limit : 0;
	profdata_heap_waste *w = NULL;
	int e = profdata_heap_waste_new(&w, v->h, &o);
	progress_end(&v->progress);
	if (e != 0) {
		fprintf(stderr, "profdata: %s: %s\n", a->operand[0], w ? profdata_heap_waste_error(w)->message : profdata_strerror(e));
		profdata_heap_waste_free(w);
		return EXIT_INVALID;
	}
	const profdata_heap_waste_totals *t = profdata_heap_waste_totals_of(w);
	if (a->json)
		fprintf(out, "{\"reachable\":%llu,", (ull)t->reachable_bytes);
	else
		fprintf(out, "waste in %llu reachable bytes\n\n", (ull)t->reachable_bytes);
	print_strings(out, a, v, w);
	print_arrays(out, a, v, w);
	print_collections(out, a, w);
	print_boxed(out, a, w);
	if (a->json)
		fprintf(out, "}\n");
	profdata_heap_waste_free(w);
	return 0;
}

int cmd_waste(const tool_args *a)
{
	return heap_command(a, 1, waste_write);
}
