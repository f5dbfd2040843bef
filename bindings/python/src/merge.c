/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Merge type: one profdata_merge accumulator (profdata/merge.h), fed a
 * Model at a time (so that the Python side holds one input at a time, as
 * `profdata merge` does), optionally negating those added after negate()
 * (`profdata diff`: NEW, then BASE scaled by -1). result() gives the merged
 * profile as a new Model.
 */
#include "pyprofdata.h"

typedef struct pd_py_merge {
	PyObject_HEAD
	profdata_merge *m;
	PyObject *model_type;  /* what result() makes */
} pd_py_merge;

/* A new, empty Merge of type `type` whose result() is a Model of `model_type`. */
PyObject *pd_py_merge_new(PyObject *type, PyObject *model_type)
{
	allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)type, Py_tp_alloc);
	pd_py_merge *self = (pd_py_merge *)alloc((PyTypeObject *)type, 0);

	if (!self)
		return NULL;
	Py_INCREF(model_type);
	self->model_type = model_type;
	if (profdata_merge_new(&self->m) < 0) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	return (PyObject *)self;
}

static void merge_dealloc(PyObject *obj)
{
	pd_py_merge *self = (pd_py_merge *)obj;
	PyTypeObject *type = Py_TYPE(obj);
	freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);

	profdata_merge_free(self->m);
	Py_XDECREF(self->model_type);
	tp_free(obj);
	Py_DECREF(type);
}

/* Add `model`: as a plain input (side -1), or as a differential flame graph's NEW (0) or BASE (1). */
static PyObject *merge_input(pd_py_merge *self, PyObject *model, int side)
{
	const profdata_profile *p = pd_py_model_profile(model);
	int code;

	if (!p)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	code = side < 0 ? profdata_merge_add(self->m, p) : profdata_merge_add_side(self->m, p, side);
	Py_END_ALLOW_THREADS
	if (code < 0)
		return pd_py_raise(code, profdata_merge_error(self->m), NULL, "input");
	Py_RETURN_NONE;
}

/* add(model): its samples added, scaled as set */
static PyObject *merge_add(PyObject *obj, PyObject *args)
{
	PyObject *model;

	if (!PyArg_ParseTuple(args, "O!", ((pd_py_merge *)obj)->model_type, &model))
		return NULL;
	return merge_input((pd_py_merge *)obj, model, -1);
}

/* add_side(model, is_base): one side of a differential flame graph (profdata_merge_add_side) */
static PyObject *merge_add_side(PyObject *obj, PyObject *args)
{
	PyObject *model;
	int is_base;

	if (!PyArg_ParseTuple(args, "O!p", ((pd_py_merge *)obj)->model_type, &model, &is_base))
		return NULL;
	return merge_input((pd_py_merge *)obj, model, is_base);
}

/* negate(): the inputs added from now on count negatively (every sample type scaled by -1) */
static PyObject *merge_negate(PyObject *obj, PyObject *unused)
{
	double negate[256];
	int code;

	(void)unused;
	for (size_t i = 0; i < sizeof negate / sizeof negate[0]; i++)
		negate[i] = -1.0;
	code = profdata_merge_set_scale(((pd_py_merge *)obj)->m, negate, sizeof negate / sizeof negate[0]);
	if (code < 0)
		return pd_py_raise(code, NULL, NULL, "input");
	Py_RETURN_NONE;
}

/* The merge's warnings (inputs without sample types in common, ...) as pd_py_diag() tuples. */
static PyObject *merge_warnings(const profdata_merge *m)
{
	PyObject *list = PyList_New(0);

	for (size_t i = 0; list && i < profdata_merge_warning_count(m); i++) {
		const profdata_error *e = profdata_merge_warning(m, i);

		if (e && pd_py_append(list, pd_py_diag(e)) < 0)
			Py_CLEAR(list);
	}
	return list;
}

/* result() -> (Model of the merged profile, warnings) */
static PyObject *merge_result(PyObject *obj, PyObject *unused)
{
	pd_py_merge *self = (pd_py_merge *)obj;
	profdata_profile *p = NULL;
	PyObject *model, *warnings;
	int code;

	(void)unused;
	Py_BEGIN_ALLOW_THREADS
	code = profdata_merge_profile(&p, self->m);
	Py_END_ALLOW_THREADS
	if (code < 0) {
		pd_py_raise(code, p ? profdata_profile_error(p) : profdata_merge_error(self->m), NULL, "input");
		profdata_profile_free(p);
		return NULL;
	}
	model = pd_py_model_wrap(self->model_type, p);
	warnings = merge_warnings(self->m);
	if (!model || !warnings) {
		Py_XDECREF(model);
		Py_XDECREF(warnings);
		return NULL;
	}
	return Py_BuildValue("(NN)", model, warnings);
}

static PyMethodDef merge_methods[] = {
	{"add", merge_add, METH_VARARGS, "add(model): its samples added to the merge."},
	{"add_side", merge_add_side, METH_VARARGS,
	 "add_side(model, is_base): NEW (False) or BASE (True) of a differential flame graph, side by side."},
	{"negate", merge_negate, METH_NOARGS, "Inputs added from now on count negatively (a diff's base)."},
	{"result", merge_result, METH_NOARGS, "result() -> (Model, warnings) of the merged profile."},
	{NULL, NULL, 0, NULL}
};

static PyType_Slot merge_slots[] = {
	{Py_tp_dealloc, (void *)merge_dealloc},
	{Py_tp_methods, merge_methods},
	{Py_tp_doc, (void *)"A merge of profiles of samples (profdata.merge and profdata.diff use it)."},
	{0, NULL}
};

PyType_Spec pd_py_merge_spec = {
	"profdata._profdata.Merge", sizeof(pd_py_merge), 0, Py_TPFLAGS_DEFAULT, merge_slots
};
