/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A heap dump as the heap commands look at it (heap_commands.c): the model,
 * its analysis and the progress line, and how its nodes and paths are told.
 * Shared by heap_commands.c, suspects.c and heap_diff.c.
 */
#ifndef PROFDATA_TOOL_HEAP_VIEW_H
#define PROFDATA_TOOL_HEAP_VIEW_H

#include <profdata/profdata.h>

#include "options.h"
#include "progress.h"

typedef struct heap_view {
	profdata_profile *p;
	profdata_heap *h;
	progress_line progress;
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

/* The dump's id of a node: the object's, or the class's for a class object. */
unsigned long long heap_node_id(const profdata_profile *p, const profdata_heap *h, size_t node);
/* A node's class in Java form into buf; for a class object (*class_object 1), the class it stands for. */
const char *heap_node_class_name(const profdata_profile *p, const profdata_heap *h, size_t node, char *buf,
                                 size_t cap, int *class_object);
/* The steps of a path from a GC root: one line each, indented by `indent` more, or JSON objects in a list. */
void heap_print_path_steps(const tool_args *a, const profdata_profile *p, const profdata_heap *h,
                           const profdata_heap_root_path *path, int indent);

#endif
