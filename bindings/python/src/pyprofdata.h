/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the files of the _profdata extension share. The extension keeps to
 * CPython's limited API of 3.9 (Py_LIMITED_API, set by meson.build), so one
 * build serves every later CPython; it reaches libprofdata only through its
 * public headers, so the compiler checks every struct the binding reads.
 */
#ifndef PD_PY_PYPROFDATA_H
#define PD_PY_PYPROFDATA_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
/* The experimental tier too: columns and top (doc/conventions.md). */
#define PROFDATA_EXPERIMENTAL 1
#include <profdata/profdata.h>

/* A profile read into the model; p is NULL once closed. `input` holds the
 * bytes a profile read from memory points into (NULL for other inputs). A
 * Heap pins the profile it analysed: close() while pinned moves it to
 * `held`, freed (and its input released) when the last pin goes. */
typedef struct pd_py_model {
	PyObject_HEAD
	profdata_profile *p;
	PyObject *input;
	profdata_profile *held;
	Py_ssize_t pins;
} pd_py_model;

/* The module's state: the types, made from their specs at import. */
typedef struct pd_py_state {
	PyObject *model_type;
	PyObject *heap_type;
	PyObject *merge_type;
} pd_py_state;

/* errors.c: a library failure raised as profdata._errors.library_error()
 * builds it (FormatError, OSError, ...); `side` is "input" or "output". Returns NULL. */
PyObject *pd_py_raise(int code, const profdata_error *e, PyObject *path, const char *side);
/* A diagnostic as (code, name, offset or None, line or None, message). */
PyObject *pd_py_diag(const profdata_error *e);
/* The reader's (writer's) warnings as a list of pd_py_diag() tuples; past the
 * last the library keeps, one (None, how many more). */
PyObject *pd_py_reader_warnings(const profdata_reader *r);
PyObject *pd_py_writer_warnings(const profdata_writer *w);

/* values.c: UTF-8 bytes (invalid ones replaced) as str; NULL gives None. */
PyObject *pd_py_str(const char *s, size_t len);
PyObject *pd_py_cstr(const char *s);
/* A list of n rows, row(items, i, ctx) making row i (NULL: a failure raised); NULL on failure. */
PyObject *pd_py_list(size_t n, PyObject *(*row)(const void *items, size_t i, void *ctx), const void *items, void *ctx);
/* A JVM internal class name ("[I", "java/lang/String") in source form ("int[]"). */
PyObject *pd_py_java_name(const char *internal, size_t len);
/* Append a new reference (NULL: a failure already raised) to list and drop it; -1 on failure. */
int pd_py_append(PyObject *list, PyObject *item);

/* model.c */
extern PyType_Spec pd_py_model_spec;
PyObject *pd_py_model_wrap(PyObject *type, profdata_profile *p);
/* The model's profile, or NULL with ValueError when it is closed. */
const profdata_profile *pd_py_model_profile(PyObject *self);
/* The profile, kept until pd_py_model_unpin() even if the model is closed
 * meanwhile; NULL with ValueError when it is closed already. */
const profdata_profile *pd_py_model_pin(PyObject *self);
void pd_py_model_unpin(PyObject *self);

/* rows.c: the model's tables as lists of tuples, a slice at a time. */
PyObject *pd_py_objects(PyObject *self, PyObject *args);
PyObject *pd_py_references(PyObject *self, PyObject *args);
PyObject *pd_py_classes(PyObject *self, PyObject *args);
PyObject *pd_py_functions(PyObject *self, PyObject *args);
PyObject *pd_py_threads(PyObject *self, PyObject *args);
PyObject *pd_py_stacks(PyObject *self, PyObject *args);
PyObject *pd_py_frame(PyObject *self, PyObject *args);
PyObject *pd_py_samples(PyObject *self, PyObject *args);

/* columns.c: the library's columns, and one as (typecode, bytearray). */
PyObject *pd_py_columns(PyObject *module, PyObject *unused);
PyObject *pd_py_column(PyObject *self, PyObject *args);

/* io.c: reading, writing, converting, histograms. */
PyObject *pd_py_read(PyObject *module, PyObject *args);
PyObject *pd_py_write(PyObject *self, PyObject *args);
PyObject *pd_py_convert(PyObject *module, PyObject *args);
PyObject *pd_py_histogram(PyObject *module, PyObject *args);
/* The histogram's rows as [(name, instances, bytes)]. */
PyObject *pd_py_histogram_rows(const profdata_histogram *h);

/* inputs.c: an input as profdata/_inputs.py describes it, (kind, object,
 * name), opened as a reader. `path` (a path's bytes), `keep` (the bytes a
 * memory reader borrows) and `file` (read through callbacks) are borrowed
 * from the description; the exception a file's read() raised is owned. */
enum { PD_PY_INPUT_PATH, PD_PY_INPUT_MEMORY, PD_PY_INPUT_FD, PD_PY_INPUT_FILE }; /* module.c exports them */
typedef struct pd_py_input {
	PyObject *path, *keep, *file;
	PyObject *exc_type, *exc_value, *exc_tb;
} pd_py_input;
/* 0 and *out; -1 with the exception raised (and *out NULL). */
int pd_py_input_open(pd_py_input *in, profdata_reader **out, PyObject *spec);
/* Raise the failure of reading `in`: the file object's own exception when it
 * raised one, else the library's error. Returns NULL. */
PyObject *pd_py_input_raise(pd_py_input *in, int code, const profdata_error *e);
/* Drop an exception kept and not raised. */
void pd_py_input_clear(pd_py_input *in);

/* memio.c: model.write_memory(format, options) -> (bytes, warnings). */
PyObject *pd_py_write_memory(PyObject *self, PyObject *args);

/* answers.c: the histogram and the top of a model. */
PyObject *pd_py_model_histogram(PyObject *self, PyObject *args);
PyObject *pd_py_model_top(PyObject *self, PyObject *args);

/* heap.c: the Heap type, a heap analysis of a Model's dump that pins its profile. */
extern PyType_Spec pd_py_heap_spec;
PyObject *pd_py_heap_new(PyObject *type, PyObject *model, long dump, unsigned node_bits);
profdata_heap *pd_py_heap_of(PyObject *heap);
/* The heap's lock (taken without the GIL, returning with it): for what computes and keeps per-class sums. */
void pd_py_heap_lock(PyObject *heap);
void pd_py_heap_unlock(PyObject *heap);
/* The id of a node of the heap, as the tool gives it (a class object's: its class's). */
unsigned long long pd_py_heap_node_id(PyObject *heap, size_t node);

/* A node's class name (a class object's: the class it stands for, *class_object 1). */
PyObject *pd_py_heap_node_class(PyObject *heap, size_t node, int *class_object);

/* suspects.c: heap.suspects(threshold, classes) -> (reachable bytes, threshold bytes, suspects) */
PyObject *pd_py_heap_suspects(PyObject *heap, PyObject *args);
/* waste.c: heap.waste(limit, owners) -> (totals, strings, arrays, collections, boxed) */
PyObject *pd_py_heap_waste(PyObject *heap, PyObject *args);

/* heap_diff.c: heap_diff(old, new, order, dominators) -> (objects, classes, dominators) */
PyObject *pd_py_heap_diff(PyObject *module, PyObject *args);

/* merge.c: the Merge type, an accumulator of profiles of samples. */
extern PyType_Spec pd_py_merge_spec;
PyObject *pd_py_merge_new(PyObject *type, PyObject *model_type);

#endif
