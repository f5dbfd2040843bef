/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A heap dump as the heap commands look at it (heap_commands.c): the model,
 * its analysis and the progress line, and how its nodes and paths are told.
 * Shared by heap_commands.c, suspects.c, waste.c, heap_diff.c and
 * heap_report.c.
 */
#ifndef PROFDATA_TOOL_HEAP_VIEW_H
#define PROFDATA_TOOL_HEAP_VIEW_H

#include <stdio.h>

#include <profdata/profdata.h>

#include "options.h"
#include "progress.h"

typedef struct heap_view {
	profdata_profile *p;
	profdata_heap *h;
	progress_line progress;
	unsigned node_bits;  /* the heap option node_bits its analysis asks for: 0, or 64 (heap_view_widen) */
} heap_view;

/* The model of the command's file and its heap analysis (no dominator tree when graph_only): 0, or the exit
 * status having said why. */
int heap_view_load(const tool_args *a, heap_view *v, int graph_only);
void heap_view_free(heap_view *v);
/*
 * The heap analysis of the model v->p holds, read from `path` (freed, with
 * v->p, on failure): 0, or the exit status having said why.
 */
int heap_view_analyse(const tool_args *a, heap_view *v, const char *path, int graph_only);
/* v's dump analysed again (its whole analysis) with 64-bit node numbers: as heap_view_analyse(). */
int heap_view_widen(const tool_args *a, heap_view *v, const char *path);

/* The dump's id of a node: the object's, or the class's for a class object. */
unsigned long long heap_node_id(const profdata_profile *p, const profdata_heap *h, size_t node);
/* A node's class in Java form into buf; for a class object (*class_object 1), the class it stands for. */
const char *heap_node_class_name(const profdata_profile *p, const profdata_heap *h, size_t node, char *buf,
                                 size_t cap, int *class_object);
/* A GC root's kind (profdata_root_kind) in words: "Java frame", "sticky class". */
const char *heap_root_kind_name(int kind);
/* The steps of a path from a GC root: one line each, indented by `indent` more, or JSON objects in a list. */
void heap_print_path_steps(FILE *out, const tool_args *a, const profdata_profile *p, const profdata_heap *h,
                           const profdata_heap_root_path *path, int indent);

/*
 * Each heap command's answer on `out`, as text or with a->json as JSON,
 * for the command (stdout) and for the report (heap_report.c): 0, or the
 * exit status having said why on stderr.
 */
typedef int (*heap_answer)(FILE *out, const tool_args *a, heap_view *v);
int histo_retained_write(FILE *out, const tool_args *a, heap_view *v);
int suspects_write(FILE *out, const tool_args *a, heap_view *v);
/* v's heap may be of the graph only. */
int waste_write(FILE *out, const tool_args *a, heap_view *v);
int heap_diff_write(FILE *out, const tool_args *a, heap_view *old, heap_view *now);
/* A heap command: its FILE's model and analysis (graph_only as heap_view_load()), its answer on stdout. */
int heap_command(const tool_args *a, int graph_only, heap_answer answer);

#endif
