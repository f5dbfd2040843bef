/* SPDX-License-Identifier: Apache-2.0 */
/* C values as Python objects: the few conversions every file of the extension makes. */
#include "pyprofdata.h"

PyObject *pd_py_str(const char *s, size_t len)
{
	if (!s)
		Py_RETURN_NONE;
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "replace");
}

PyObject *pd_py_cstr(const char *s)
{
	return pd_py_str(s, s ? strlen(s) : 0);
}

int pd_py_append(PyObject *list, PyObject *item)
{
	int rc = item ? PyList_Append(list, item) : -1;

	Py_XDECREF(item);
	return rc;
}

PyObject *pd_py_java_name(const char *internal, size_t len)
{
	char small[256], *buf = small;
	size_t n = profdata_java_name(internal, len, buf, sizeof small);
	PyObject *out;

	if (n >= sizeof small) {
		if (!(buf = PyMem_Malloc(n + 1)))
			return PyErr_NoMemory();
		profdata_java_name(internal, len, buf, n + 1);
	}
	out = pd_py_str(buf, n);
	if (buf != small)
		PyMem_Free(buf);
	return out;
}

PyObject *pd_py_list(size_t n, PyObject *(*row)(const void *items, size_t i, void *ctx), const void *items, void *ctx)
{
	PyObject *list = PyList_New(0);

	for (size_t i = 0; list && i < n; i++)
		if (pd_py_append(list, row(items, i, ctx)) < 0)
			Py_CLEAR(list);
	return list;
}
