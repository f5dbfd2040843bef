/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The heap analysis commands: histo --retained, top, path. Each builds the
 * model and the dump's dominator tree (include/profdata/heap.h); path, which
 * needs only a breadth-first walk from the roots, the graph alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "heap_view.h"
#include "json.h"
#include "load.h"
#include "report.h"

void heap_view_free(heap_view *v)
{
	profdata_heap_free(v->h);
	profdata_profile_free(v->p);
}

int heap_view_analyse(const tool_args *a, heap_view *v, const char *path, int graph_only)
{
	profdata_heap_options ho = PROFDATA_HEAP_OPTIONS_INIT;
	ho.dump = a->dump == PROFDATA_HISTOGRAM_ALL_DUMPS ? 0 : a->dump;
	ho.graph_only = graph_only;
	ho.node_bits = v->node_bits;
	if (progress_wanted(a->quiet)) {
		ho.progress = progress_show;
		ho.payload = &v->progress;
	}
	int e = profdata_heap_new(&v->h, v->p, &ho);
	progress_end(&v->progress);
	if (e != 0) {
		fprintf(stderr, "profdata: %s: %s\n", path, v->h ? profdata_heap_error(v->h)->message : profdata_strerror(e));
		profdata_heap_free(v->h);
		v->h = NULL;
		profdata_profile_free(v->p);
		v->p = NULL;
		return e == PROFDATA_ENOTFOUND ? EXIT_USAGE : EXIT_INVALID;
	}
	if (profdata_heap_reachable_count(v->h) == 0) {
		/* Nothing reachable, nothing retains: say why rather than print an empty table. */
		char why[128];
		if (profdata_profile_count(v->p, PROFDATA_TABLE_ROOTS) == 0)
			snprintf(why, sizeof why, "the dump has no GC roots (the %s input names none)",
			         profdata_profile_meta(v->p)->format);
		else
			snprintf(why, sizeof why, "no GC root of the dump names an object in it");
		fprintf(stderr, "profdata: %s: %s, so no object is reachable and none retains anything; histo gives the "
		        "instances and shallow bytes per class\n", path, why);
		heap_view_free(v);
		v->h = NULL;
		v->p = NULL;
		return EXIT_INVALID;
	}
	return 0;
}

int heap_view_widen(const tool_args *a, heap_view *v, const char *path)
{
	profdata_heap_free(v->h);
	v->h = NULL;
	v->node_bits = 64;
	return heap_view_analyse(a, v, path, 0);
}

int heap_view_load(const tool_args *a, heap_view *v, int graph_only)
{
	tool_input in;
	memset(v, 0, sizeof(*v));
	int status = load_profile(&in, a, &v->p);
	if (status)
		return status;
	input_close(&in);
	return heap_view_analyse(a, v, a->operand[0], graph_only);
}

int heap_command(const tool_args *a, int graph_only, heap_answer answer)
{
	heap_view v;
	int status = heap_view_load(a, &v, graph_only);
	if (status)
		return status;
	status = answer(stdout, a, &v);
	heap_view_free(&v);
	return status ? status : finish_stdout(0);
}


unsigned long long heap_node_id(const profdata_profile *p, const profdata_heap *h, size_t node)
{
	size_t c;
	profdata_object o;
	profdata_class_info ci;
	if (profdata_heap_node_class(h, node, &c))
		return profdata_profile_class(p, c, &ci) == 0 ? (unsigned long long)ci.dump.id : 0;
	return profdata_profile_object(p, node, &o) == 0 ? (unsigned long long)o.id : 0;
}

static const char *object_class_name(const profdata_profile *p, size_t i, char *buf, size_t cap)
{
	profdata_object o;
	profdata_class_info c;
	size_t ci;
	const char *internal = NULL;
	static const char *const prim[] = { "?[]", "?[]", "?[]", "?[]", "boolean[]", "char[]",
		                            "float[]", "double[]", "byte[]", "short[]", "int[]", "long[]" };
	if (profdata_profile_object(p, i, &o) < 0)
		return "java.lang.Class";
	if (!o.class_id && o.kind == PROFDATA_OBJECT_PRIM_ARRAY)
		return o.elem_type < 12 ? prim[o.elem_type] : "?[]";
	if (profdata_profile_find_class(p, o.class_id, &ci) == 0 && profdata_profile_class(p, ci, &c) == 0)
		internal = c.name;
	if (!internal)
		return "<unknown class>";
	size_t n = profdata_java_name(internal, strlen(internal), buf, cap);
	return n < cap ? buf : internal;
}

/* Its own class, java.lang.Class, would not tell what a class object stands for ("java.util.HashMap"). */
const char *heap_node_class_name(const profdata_profile *p, const profdata_heap *h, size_t node, char *buf,
                                   size_t cap, int *class_object)
{
	size_t c;
	profdata_class_info ci;
	*class_object = profdata_heap_node_class(h, node, &c) && profdata_profile_class(p, c, &ci) == 0 && ci.name;
	if (!*class_object)
		return object_class_name(p, node, buf, cap);
	size_t len = profdata_java_name(ci.name, strlen(ci.name), buf, cap);
	return len < cap ? buf : ci.name;
}

/* Bytes retained by a histogram entry's class (by id, or by element type for class-less arrays). */
static uint64_t entry_retained(const profdata_profile *p, profdata_heap *h, const profdata_histogram_entry *x)
{
	static const char *const prim[] = { "boolean[]", "char[]", "float[]", "double[]",
		                            "byte[]", "short[]", "int[]", "long[]" };
	uint64_t bytes = 0;
	size_t ci;
	if (x->class_id && profdata_profile_find_class(p, x->class_id, &ci) == 0) {
		profdata_heap_retained_by_class(&bytes, h, ci);
		return bytes;
	}
	for (int t = 0; t < 8; t++)
		if (strcmp(x->name, prim[t]) == 0)
			profdata_heap_retained_by_array_type(&bytes, h, t + PROFDATA_TYPE_BOOLEAN);
	return bytes;
}

static void print_retained_histo(FILE *out, const tool_args *a, const profdata_histogram *hi, const uint64_t *ret,
                                 size_t n)
{
	if (a->json)
		fprintf(out, "{\"classes\":[");
	else
		fprintf(out, "%6s %14s %16s %16s  %s\n", "rank", "instances", "bytes", "retained", "class");
	for (size_t i = 0; i < n; i++) {
		const profdata_histogram_entry *x = profdata_histogram_entry_at(hi, i);
		if (a->json) {
			fprintf(out, "%s{\"name\":", i ? "," : "");
			json_string(out, x->name);
			fprintf(out, ",\"instances\":%llu,\"bytes\":%llu,\"retained\":%llu}", (unsigned long long)x->instances,
			        (unsigned long long)x->bytes, (unsigned long long)ret[i]);
		} else {
			fprintf(out, "%6zu %14llu %16llu %16llu  %s\n", i + 1, (unsigned long long)x->instances,
			        (unsigned long long)x->bytes, (unsigned long long)ret[i], x->name);
		}
	}
	if (a->json)
		fprintf(out, "]}\n");
	else
		fprintf(out, "%6s %14llu %16llu\n", "total", (unsigned long long)profdata_histogram_total_instances(hi),
		        (unsigned long long)profdata_histogram_total_bytes(hi));
}

int histo_retained_write(FILE *out, const tool_args *a, heap_view *v)
{
	profdata_histogram *hi = NULL;
	long dump = a->dump == PROFDATA_HISTOGRAM_ALL_DUMPS ? 0 : a->dump;
	int status = 0, e = profdata_histogram_new(&hi, v->p, dump);
	size_t n = e == 0 ? profdata_histogram_count(hi) : 0;
	uint64_t *ret = calloc(n ? n : 1, sizeof(*ret));
	if (e == 0 && ret) {
		for (size_t i = 0; i < n; i++)
			ret[i] = entry_retained(v->p, v->h, profdata_histogram_entry_at(hi, i));
		progress_end(&v->progress);
		print_retained_histo(out, a, hi, ret, a->limit >= 0 && (size_t)a->limit < n ? (size_t)a->limit : n);
	} else {
		fprintf(stderr, "profdata: %s: %s\n", a->operand[0],
		        e && hi ? profdata_histogram_error(hi)->message : profdata_strerror(e ? e : PROFDATA_ENOMEM));
		status = EXIT_INVALID;
	}
	free(ret);
	profdata_histogram_free(hi);
	return status;
}

int cmd_histo_retained(const tool_args *a)
{
	return heap_command(a, 0, histo_retained_write);
}

/* The biggest objects of the dump v holds, by retained size. */
static int show_heap_top(const tool_args *a, heap_view *v)
{
	size_t want = a->limit < 0 ? TOP_DEFAULT_ROWS : (size_t)a->limit, *top = malloc((want ? want : 1) * sizeof(*top));
	size_t n = 0;
	if (top)
		profdata_heap_top_nodes(top, &n, v->h, want);
	progress_end(&v->progress);
	char name[512];
	if (a->json)
		printf("{\"objects\":[");
	else
		printf("%6s %20s %12s %16s  %s\n", "rank", "id", "shallow", "retained", "class");
	for (size_t k = 0; k < n; k++) {
		int class_object;
		const char *cls = heap_node_class_name(v->p, v->h, top[k], name, sizeof(name), &class_object);
		unsigned long long shallow = profdata_heap_size(v->h, top[k]);
		unsigned long long id = heap_node_id(v->p, v->h, top[k]);
		unsigned long long retained = profdata_heap_retained(v->h, top[k]);
		if (a->json) {
			/* A class object's class is java.lang.Class; the class it stands for is its own key. */
			printf("%s{\"id\":%llu,\"class\":", k ? "," : "", id);
			json_string(stdout, class_object ? "java.lang.Class" : cls);
			if (class_object)
				printf(",\"class_object\":"), json_string(stdout, cls);
			printf(",\"shallow\":%llu,\"retained\":%llu}", shallow, retained);
		} else {
			printf("%6zu %#20llx %12llu %16llu  %s%s\n", k + 1, id, shallow, retained, class_object ? "class " : "",
			       cls);
		}
	}
	if (a->json)
		printf("]}\n");
	free(top);
	return finish_stdout(0);
}

int cmd_top(const tool_args *a)
{
	tool_input in;
	heap_view v;
	memset(&v, 0, sizeof v);
	int status = load_profile(&in, a, &v.p);
	if (status)
		return status;
	input_close(&in);
	/* No heap dump: a profile of samples, or of trace events, or an input that has neither (top says which). */
	if (profdata_profile_count(v.p, PROFDATA_TABLE_OBJECTS) == 0) {
		status = show_sample_top(a, v.p);
		profdata_profile_free(v.p);
		return status;
	}
	if ((status = heap_view_analyse(a, &v, a->operand[0], 0)) != 0)
		return status;
	status = show_heap_top(a, &v);
	heap_view_free(&v);
	return status;
}

const char *heap_root_kind_name(int kind)
{
	switch (kind) {
	case PROFDATA_ROOT_JNI_GLOBAL: return "JNI global";
	case PROFDATA_ROOT_JNI_LOCAL: return "JNI local";
	case PROFDATA_ROOT_JAVA_FRAME: return "Java frame";
	case PROFDATA_ROOT_NATIVE_STACK: return "native stack";
	case PROFDATA_ROOT_STICKY_CLASS: return "sticky class";
	case PROFDATA_ROOT_THREAD_BLOCK: return "thread block";
	case PROFDATA_ROOT_MONITOR_USED: return "monitor used";
	case PROFDATA_ROOT_THREAD_OBJECT: return "thread object";
	case PROFDATA_ROOT_INTERNED_STRING: return "interned string";
	case PROFDATA_ROOT_FINALIZING: return "finalizing";
	case PROFDATA_ROOT_DEBUGGER: return "debugger";
	case PROFDATA_ROOT_REFERENCE_CLEANUP: return "reference cleanup";
	case PROFDATA_ROOT_VM_INTERNAL: return "VM internal";
	case PROFDATA_ROOT_JNI_MONITOR: return "JNI monitor";
	default: return "unknown";
	}
}

/* How the step's node is held, as text: "root Java frame", "field next", "static cache", "[3]". */
static void describe_step(const profdata_profile *p, const profdata_heap *h, const profdata_heap_step *st, int first,
                          char *buf, size_t cap)
{
	size_t c;
	int from_class = !first && profdata_heap_node_class(h, (st - 1)->node, &c);
	(void)p;
	if (first && st->root_kind == PROFDATA_ROOT_UNKNOWN && profdata_heap_node_class(h, st->node, &c))
		snprintf(buf, cap, "root (the class of a GC root)"); /* no record of its own: heap.h */
	else if (first)
		snprintf(buf, cap, "root %s", heap_root_kind_name(st->root_kind));
	else if (st->index >= 0)
		snprintf(buf, cap, "[%lld]", st->index);
	else
		snprintf(buf, cap, "%s %s", from_class ? "static" : "field", st->field ? st->field : "?");
}

static int parse_object_id(const char *s, unsigned long long *id)
{
	char *end;
	errno = 0;
	*id = strtoull(s, &end, 0);
	return errno || end == s || *end || s[0] == '-' ? -1 : 0;
}

void heap_print_path_steps(FILE *out, const tool_args *a, const profdata_profile *p, const profdata_heap *h,
                           const profdata_heap_root_path *path, int indent)
{
	char name[512], how[1024];
	size_t n = profdata_heap_root_path_length(path);
	for (size_t k = 0; k < n; k++) {
		const profdata_heap_step *st = profdata_heap_root_path_step(path, k);
		int class_object;
		unsigned long long id = heap_node_id(p, h, st->node);
		const char *cls = heap_node_class_name(p, h, st->node, name, sizeof(name), &class_object);
		describe_step(p, h, st, k == 0, how, sizeof(how));
		if (a->json) {
			fprintf(out, "%s{\"id\":%llu,\"%s\":", k ? "," : "", id, class_object ? "class_object" : "class");
			json_string(out, cls);
			fprintf(out, ",\"via\":");
			json_string(out, how);
			if (st->field)
				fprintf(out, ",\"field\":"), json_string(out, st->field);
			if (st->index >= 0)
				fprintf(out, ",\"index\":%lld", st->index);
			fprintf(out, "}");
		} else {
			fprintf(out, "%*s%s  %s%s@0x%llx\n", (int)(indent + 2 * k), "", how, class_object ? "class " : "", cls, id);
		}
	}
}

/* The node of the object, or of the class, with that id; 0, or EXIT_INVALID having said why. */
static int find_node(const tool_args *a, const heap_view *v, unsigned long long id, size_t *node)
{
	int found = profdata_profile_find_object(v->p, id, node) == 0;
	if (!found && profdata_profile_find_class(v->p, id, node) == 0) {
		*node = profdata_heap_class_node(v->h, *node);
		found = 1;
	}
	if (found && profdata_heap_reachable(v->h, *node))
		return 0;
	fprintf(stderr, "profdata: %s: object 0x%llx is %s\n", a->operand[0], id, !found ? "not in the dump" : "unreachable");
	return EXIT_INVALID;
}

int cmd_path(const tool_args *a)
{
	unsigned long long id;
	if (parse_object_id(a->operand[1], &id) < 0)
		return usage_error(a->command, "'%s' is not an object id", a->operand[1]);
	heap_view v;
	int status = heap_view_load(a, &v, 1); /* a path from the roots needs no dominator tree */
	size_t node;
	if (status || (status = find_node(a, &v, id, &node)) != 0) {
		heap_view_free(&v);
		return status;
	}
	profdata_heap_root_path *path = NULL;
	int e = profdata_heap_root_path_new(&path, v.h, node, progress_wanted(a->quiet) ? progress_show : NULL, &v.progress);
	long n = e == 0 ? (long)profdata_heap_root_path_length(path) : -1;
	progress_end(&v.progress);
	if (e != 0)
		fprintf(stderr, "profdata: %s: %s\n", a->operand[0],
		        path ? profdata_heap_root_path_error(path)->message : profdata_strerror(e));
	if (n <= 0)
		status = EXIT_INVALID;
	else {
		if (a->json)
			printf("{\"path\":[");
		heap_print_path_steps(stdout, a, v.p, v.h, path, 0);
		if (a->json)
			printf("]}\n");
	}
	profdata_heap_root_path_free(path);
	heap_view_free(&v);
	return status ? status : finish_stdout(0);
}
