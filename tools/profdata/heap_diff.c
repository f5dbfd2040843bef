/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `profdata diff OLD NEW` of two heap dumps (include/profdata/heap_diff.h):
 * per class the change in instances, shallow and retained bytes, the
 * objects present in both by id, and the new objects' biggest dominators.
 */
/* The heap diff is experimental (doc/conventions.md). */
#define PROFDATA_EXPERIMENTAL
#include <stdio.h>
#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "heap_view.h"
#include "json.h"
#include "report.h"

#define DEFAULT_CLASS_ROWS 20

static const char *const order_names[] = { "bytes", "retained", "instances" };

/* --sort's word as the library's order. */
static int order_of(const tool_args *a)
{
	for (int k = 0; k < 3; k++)
		if (a->sort && strcmp(a->sort, order_names[k]) == 0)
			return k;
	return PROFDATA_HEAP_DIFF_BY_BYTES;
}

static size_t rows_shown(const tool_args *a, size_t all, size_t by_default)
{
	size_t want = a->limit < 0 ? by_default : (size_t)a->limit;
	return want < all ? want : all;
}

/* A signed figure with its sign, "+192000", "-16", "0". */
static const char *signed_text(int64_t v, char *buf, size_t cap)
{
	snprintf(buf, cap, v > 0 ? "+%lld" : "%lld", (long long)v);
	return buf;
}

static void print_objects_text(FILE *out, const tool_args *a, const profdata_heap_diff_objects *o)
{
	fprintf(out, "OLD %s: %llu objects, %llu bytes\nNEW %s: %llu objects, %llu bytes\n", a->operand[0],
	        (unsigned long long)o->old_objects, (unsigned long long)o->old_bytes, a->operand[1],
	        (unsigned long long)o->new_objects, (unsigned long long)o->new_bytes);
	fprintf(out, "objects by id: %llu in both (%llu bytes), %llu new (%llu bytes), %llu gone (%llu bytes)\n\n",
	        (unsigned long long)o->matched, (unsigned long long)o->matched_bytes, (unsigned long long)o->added,
	        (unsigned long long)o->added_bytes, (unsigned long long)o->gone, (unsigned long long)o->gone_bytes);
}

static void print_objects_json(FILE *out, const tool_args *a, const profdata_heap_diff_objects *o)
{
	fprintf(out, "{\"old\":{\"file\":");
	json_string(out, a->operand[0]);
	fprintf(out, ",\"objects\":%llu,\"bytes\":%llu},\"new\":{\"file\":", (unsigned long long)o->old_objects,
	        (unsigned long long)o->old_bytes);
	json_string(out, a->operand[1]);
	fprintf(out, ",\"objects\":%llu,\"bytes\":%llu},\"objects\":{\"matched\":%llu,\"matched_bytes\":%llu,"
	        "\"new\":%llu,\"new_bytes\":%llu,\"gone\":%llu,\"gone_bytes\":%llu}",
	        (unsigned long long)o->new_objects, (unsigned long long)o->new_bytes, (unsigned long long)o->matched,
	        (unsigned long long)o->matched_bytes, (unsigned long long)o->added, (unsigned long long)o->added_bytes,
	        (unsigned long long)o->gone, (unsigned long long)o->gone_bytes);
}

static void print_class_text(FILE *out, const profdata_heap_class_change *c)
{
	char i[32], b[32], r[32];
	fprintf(out, "%12s %14s %14s %12llu %14llu %14llu  %s\n", signed_text(c->instances, i, sizeof i),
	        signed_text(c->bytes, b, sizeof b), signed_text(c->retained, r, sizeof r),
	        (unsigned long long)c->new_instances, (unsigned long long)c->new_bytes,
	        (unsigned long long)c->new_retained, c->class_name);
}

static void print_class_json(FILE *out, const profdata_heap_class_change *c)
{
	fprintf(out, "{\"class\":");
	json_string(out, c->class_name);
	fprintf(out, ",\"instances\":%lld,\"bytes\":%lld,\"retained\":%lld,"
	        "\"old\":{\"instances\":%llu,\"bytes\":%llu,\"retained\":%llu,\"classes\":%u},"
	        "\"new\":{\"instances\":%llu,\"bytes\":%llu,\"retained\":%llu,\"classes\":%u}}",
	        (long long)c->instances, (long long)c->bytes, (long long)c->retained,
	        (unsigned long long)c->old_instances, (unsigned long long)c->old_bytes,
	        (unsigned long long)c->old_retained, (unsigned)c->old_classes, (unsigned long long)c->new_instances,
	        (unsigned long long)c->new_bytes, (unsigned long long)c->new_retained, (unsigned)c->new_classes);
}

static void print_classes(FILE *out, const tool_args *a, const profdata_heap_diff *d)
{
	size_t all = profdata_heap_diff_class_count(d), n = rows_shown(a, all, DEFAULT_CLASS_ROWS);
	if (a->json) {
		fprintf(out, ",\"order\":\"%s\",\"total_classes\":%zu,\"classes\":[", order_names[order_of(a)], all);
	} else {
		fprintf(out, "classes by growth of %s (%zu of %zu shown):\n", order_names[order_of(a)], n, all);
		fprintf(out, "%12s %14s %14s %12s %14s %14s  %s\n", "+instances", "+bytes", "+retained", "instances", "bytes",
		        "retained", "class");
	}
	for (size_t k = 0; k < n; k++) {
		if (a->json) {
			fprintf(out, "%s", k ? "," : "");
			print_class_json(out, profdata_heap_diff_class_at(d, k));
		} else {
			print_class_text(out, profdata_heap_diff_class_at(d, k));
		}
	}
	if (a->json)
		fprintf(out, "]");
}

/* --limit 0 lists none (the library reads 0 as its default). */
static void print_dominators(FILE *out, const tool_args *a, const profdata_heap_diff *d)
{
	size_t n = a->limit == 0 ? 0 : profdata_heap_diff_dominator_count(d);
	if (a->json)
		fprintf(out, ",\"new_dominators\":[");
	else if (n)
		fprintf(out, "\nthe new objects' biggest dominators (new objects no other new object dominates):\n"
		        "%6s %20s %12s %16s  %s\n", "rank", "id", "shallow", "retained", "class");
	for (size_t k = 0; k < n; k++) {
		const profdata_heap_new_dominator *x = profdata_heap_diff_dominator_at(d, k);
		if (a->json) {
			fprintf(out, "%s{\"id\":%llu,\"class\":", k ? "," : "", (unsigned long long)x->id);
			json_string(out, x->class_name);
			fprintf(out, ",\"shallow\":%llu,\"retained\":%llu}", (unsigned long long)x->shallow,
			        (unsigned long long)x->retained);
		} else {
			fprintf(out, "%6zu %#20llx %12llu %16llu  %s\n", k + 1, (unsigned long long)x->id,
			        (unsigned long long)x->shallow, (unsigned long long)x->retained, x->class_name);
		}
	}
	if (a->json)
		fprintf(out, "]}\n");
}

/*
 * The diff compares two heaps of one node width: when one dump needed 64-bit
 * node numbers (past 2^31 - 2 objects and classes) and the other did not,
 * the other's heap is made again at 64. 0, or the exit status having said why.
 */
static int same_widths(const tool_args *a, heap_view *old, heap_view *now)
{
	unsigned old_bits = profdata_heap_node_bits(old->h), now_bits = profdata_heap_node_bits(now->h);
	if (old_bits == now_bits)
		return 0;
	return old_bits == 64 ? heap_view_widen(a, now, a->operand[1]) : heap_view_widen(a, old, a->operand[0]);
}

int heap_diff_write(FILE *out, const tool_args *a, heap_view *old, heap_view *now)
{
	int status = same_widths(a, old, now);
	if (status)
		return status;
	profdata_heap_diff_options o = PROFDATA_HEAP_DIFF_OPTIONS_INIT;
	o.order = order_of(a);
	o.dominators = a->limit > 0 ? (size_t)a->limit : 0;
	profdata_heap_diff *d = NULL;
	int e = profdata_heap_diff_new(&d, old->h, now->h, &o);
	progress_end(&old->progress); /* each heap's "classes" phase */
	progress_end(&now->progress);
	if (e != 0) {
		fprintf(stderr, "profdata: diff: %s\n", d ? profdata_heap_diff_error(d)->message : profdata_strerror(e));
		profdata_heap_diff_free(d);
		return EXIT_INVALID;
	}
	const profdata_heap_diff_objects *objects = profdata_heap_diff_objects_of(d);
	if (a->json)
		print_objects_json(out, a, objects);
	else
		print_objects_text(out, a, objects);
	print_classes(out, a, d);
	print_dominators(out, a, d);
	profdata_heap_diff_free(d);
	return 0;
}

int heap_diff(const tool_args *a, profdata_profile *old, profdata_profile *now)
{
	heap_view v[2];
	memset(v, 0, sizeof v);
	v[0].p = old;
	v[1].p = now;
	int status = command_refuse(a, PROFILE_DIFF_OPTIONS, "is for the diff of two profiles; BASE and NEW are heap dumps");
	if (status) {
		profdata_profile_free(old);
		profdata_profile_free(now);
		return status;
	}
	status = heap_view_analyse(a, &v[0], a->operand[0], 0);
	if (status == 0)
		status = heap_view_analyse(a, &v[1], a->operand[1], 0);
	if (status == 0)
		status = heap_diff_write(stdout, a, &v[0], &v[1]);
	heap_view_free(&v[0]);
	heap_view_free(&v[1]);
	return status ? status : finish_stdout(0);
}
