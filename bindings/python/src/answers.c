/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Answers of a model as the tool gives them: the histogram of a heap dump
 * (profdata_histogram_new()) and the flat and cumulative sums per function
 * of a profile of samples (profdata_top_new(), experimental), computed
 * without the GIL and handed over as lists of tuples.
 */
#include "pyprofdata.h"

/* model.histogram(dump) -> [(name, instances, bytes)], largest first */
PyObject *pd_py_model_histogram(PyObject *self, PyObject *args)
{
	const profdata_profile *p = pd_py_model_profile(self);
	profdata_histogram *h = NULL;
	PyObject *out;
	long dump;
	int code;

	if (!p || !PyArg_ParseTuple(args, "l", &dump))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	code = profdata_histogram_new(&h, p, dump);
	Py_END_ALLOW_THREADS
	out = code < 0 ? pd_py_raise(code, h ? profdata_histogram_error(h) : NULL, NULL, "input")
	               : pd_py_histogram_rows(h);
	profdata_histogram_free(h);
	return out;
}

/* The rows of a top as [(name, flat, cum, inlined)]. */
static PyObject *top_rows(const profdata_top *t)
{
	PyObject *list = PyList_New(0);

	for (size_t i = 0; list && i < profdata_top_count(t); i++) {
		const profdata_top_entry *e = profdata_top_entry_at(t, i);

		if (pd_py_append(list, Py_BuildValue("(NLLi)", pd_py_cstr(e->name), (long long)e->flat,
		                                     (long long)e->cum, e->inlined)) < 0)
			Py_CLEAR(list);
	}
	return list;
}

/* model.top(group, sample_type or None) -> (total, type, unit, rows) */
PyObject *pd_py_model_top(PyObject *self, PyObject *args)
{
	const profdata_profile *p = pd_py_model_profile(self);
	profdata_top_options opts;
	profdata_top *t = NULL;
	PyObject *out;
	int code;

	profdata_top_options_init(&opts, sizeof opts);
	if (!p || !PyArg_ParseTuple(args, "iz", &opts.group, &opts.sample_type))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	code = profdata_top_new(&t, p, &opts);
	Py_END_ALLOW_THREADS
	if (code < 0)
		out = pd_py_raise(code, t ? profdata_top_error(t) : NULL, NULL, "input");
	else
		out = Py_BuildValue("(LNNN)", (long long)profdata_top_total(t), pd_py_cstr(profdata_top_sample_type(t)),
		                    pd_py_cstr(profdata_top_unit(t)), top_rows(t));
	profdata_top_free(t);
	return out;
}
