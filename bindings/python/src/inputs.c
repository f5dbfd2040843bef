/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inputs as Python has them: a path, bytes, a file descriptor or a file
 * object, each opened as the library's reader of that kind. profdata/_inputs.py
 * decides the kind and hands over (kind, object, name); here each becomes a
 * reader. What a reader must outlive (the bytes a model points into) and
 * what failed in Python code it called (a file object's read()) stay in the
 * pd_py_input.
 */
#include "pyprofdata.h"

#include <limits.h>
#include <string.h>

/* Keep the exception raised in Python code the reader called, for pd_py_input_raise(). */
static void keep_exception(pd_py_input *in)
{
	if (!in->exc_type)
		PyErr_Fetch(&in->exc_type, &in->exc_value, &in->exc_tb);
	else
		PyErr_Clear();
}

/* Copy what file.read(want) returned into buf: the count, or -1 with an exception set. */
static long take_chunk(PyObject *chunk, void *buf, size_t want)
{
	char *data;
	Py_ssize_t n;

	if (PyBytes_Check(chunk)) {
		if (PyBytes_AsStringAndSize(chunk, &data, &n) < 0)
			return -1;
	} else if (PyByteArray_Check(chunk)) {
		data = PyByteArray_AsString(chunk);
		n = PyByteArray_Size(chunk);
	} else {
		PyErr_Format(PyExc_TypeError, "read() of a binary file returns bytes, not %s",
		             chunk == Py_None ? "None (a non-blocking file with nothing to read)" : "another type");
		return -1;
	}
	if ((size_t)n > want) {
		PyErr_Format(PyExc_ValueError, "read(%zd) returned %zd bytes", (Py_ssize_t)want, n);
		return -1;
	}
	memcpy(buf, data, (size_t)n);
	return (long)n;
}

/*
 * The reader's callback on a file object: file.read(len), the GIL taken for
 * that call only (the library reads without it). A failure stops reading;
 * its exception is kept and raised when the read returns.
 */
static long file_read(void *payload, void *buf, size_t len)
{
	pd_py_input *in = payload;
	PyGILState_STATE gil = PyGILState_Ensure();
	size_t want = len < (size_t)LONG_MAX && len < (size_t)PY_SSIZE_T_MAX ? len : (size_t)LONG_MAX;
	PyObject *chunk = NULL;
	long n = -1;

	if (!in->exc_type) {
		chunk = PyObject_CallMethod(in->file, "read", "n", (Py_ssize_t)want);
		n = chunk ? take_chunk(chunk, buf, want) : -1;
		Py_XDECREF(chunk);
		if (n < 0)
			keep_exception(in);
	}
	PyGILState_Release(gil);
	return n;
}

/* Open the reader `kind` names on `obj`; the library's code. */
static int open_kind(pd_py_input *in, profdata_reader **out, long kind, PyObject *obj, const char *name)
{
	char *data;
	Py_ssize_t len;
	int fd;

	switch (kind) {
	case PD_PY_INPUT_PATH:
		in->path = obj;
		return profdata_reader_open_path(out, PyBytes_AsString(obj));
	case PD_PY_INPUT_MEMORY:
		/* bytes only: immutable, so the borrowed buffer stays unchanged while in->keep holds it. */
		if (PyBytes_AsStringAndSize(obj, &data, &len) < 0)
			return PROFDATA_EINVAL;
		in->keep = obj;
		return profdata_reader_open_memory(out, data, (size_t)len, name);
	case PD_PY_INPUT_FD:
		fd = (int)PyLong_AsLong(obj);
		return PyErr_Occurred() ? PROFDATA_EINVAL : profdata_reader_open_fd(out, fd, name);
	case PD_PY_INPUT_FILE:
		in->file = obj;
		return profdata_reader_open_callbacks(out, file_read, in, name);
	default:
		PyErr_SetString(PyExc_ValueError, "no such kind of input");
		return PROFDATA_EINVAL;
	}
}

int pd_py_input_open(pd_py_input *in, profdata_reader **out, PyObject *spec)
{
	PyObject *obj;
	const char *name;
	long kind;
	int code;

	memset(in, 0, sizeof *in);
	*out = NULL;
	if (!PyArg_ParseTuple(spec, "lOs", &kind, &obj, &name))
		return -1;
	code = open_kind(in, out, kind, obj, name);
	if (code >= 0)
		return 0;
	if (!PyErr_Occurred())
		pd_py_input_raise(in, code, *out ? profdata_reader_error(*out) : NULL);
	profdata_reader_free(*out);
	*out = NULL;
	return -1;
}

PyObject *pd_py_input_raise(pd_py_input *in, int code, const profdata_error *e)
{
	if (in->exc_type) {
		/* The file object's own failure, not the library's "cannot read" that followed it. */
		PyErr_Restore(in->exc_type, in->exc_value, in->exc_tb);
		in->exc_type = in->exc_value = in->exc_tb = NULL;
		return NULL;
	}
	/* Only a path names a file whose OSError profdata._errors can look up. */
	return pd_py_raise(code, e, in->path, "input");
}

void pd_py_input_clear(pd_py_input *in)
{
	Py_CLEAR(in->exc_type);
	Py_CLEAR(in->exc_value);
	Py_CLEAR(in->exc_tb);
}
