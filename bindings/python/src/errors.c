/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Failures and warnings of the library, handed to Python. The exception
 * classes live in profdata/_errors.py, where they read best; the extension
 * asks that module to build the exception, so that one place decides which
 * class a code becomes (FormatError, FileNotFoundError, ...).
 */
#include "pyprofdata.h"

/* An offset or line the library marks as absent (UINT64_MAX, 0) as None. */
static PyObject *optional_u64(uint64_t v, uint64_t none)
{
	if (v == none)
		Py_RETURN_NONE;
	return PyLong_FromUnsignedLongLong(v);
}

PyObject *pd_py_diag(const profdata_error *e)
{
	PyObject *name = pd_py_cstr(e->name), *msg = pd_py_cstr(e->message);
	PyObject *off = optional_u64(e->offset, UINT64_MAX), *line = optional_u64(e->line, 0);
	PyObject *t = NULL;

	if (name && msg && off && line)
		t = Py_BuildValue("(iOOOO)", e->code, name, off, line, msg);
	Py_XDECREF(name);
	Py_XDECREF(msg);
	Py_XDECREF(off);
	Py_XDECREF(line);
	return t;
}

PyObject *pd_py_raise(int code, const profdata_error *e, PyObject *path, const char *side)
{
	PyObject *mod = PyImport_ImportModule("profdata._errors");
	PyObject *diag = NULL, *exc = NULL;

	if (!mod)
		return NULL;
	if (e) {
		diag = pd_py_diag(e);
	} else {
		diag = Py_None;
		Py_INCREF(diag);
	}
	if (diag)
		exc = PyObject_CallMethod(mod, "library_error", "iOOs", code, diag, path ? path : Py_None, side);
	Py_DECREF(mod);
	Py_XDECREF(diag);
	if (exc) {
		PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
		Py_DECREF(exc);
	}
	return NULL;
}

/* Append warning i, or (None, n - i) where the library kept no more; 1 when the list is complete. */
static int append_warning(PyObject *list, const profdata_error *w, size_t i, size_t n)
{
	PyObject *t = w ? pd_py_diag(w) : Py_BuildValue("(On)", Py_None, (Py_ssize_t)(n - i));

	if (pd_py_append(list, t) < 0)
		return -1;
	return w ? 0 : 1;
}

/* The warnings of a reader or a writer, through `at`, as a list. */
static PyObject *warnings_list(size_t n, const profdata_error *(*at)(const void *h, size_t i), const void *h)
{
	PyObject *list = PyList_New(0);
	int rc = 0;

	for (size_t i = 0; list && i < n && rc == 0; i++)
		rc = append_warning(list, at(h, i), i, n);
	if (rc < 0)
		Py_CLEAR(list);
	return list;
}

static const profdata_error *reader_warning_at(const void *h, size_t i)
{
	return profdata_reader_warning(h, i);
}

static const profdata_error *writer_warning_at(const void *h, size_t i)
{
	return profdata_writer_warning(h, i);
}

PyObject *pd_py_reader_warnings(const profdata_reader *r)
{
	return warnings_list(profdata_reader_warning_count(r), reader_warning_at, r);
}

PyObject *pd_py_writer_warnings(const profdata_writer *w)
{
	return warnings_list(profdata_writer_warning_count(w), writer_warning_at, w);
}
