/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Columns (profdata_profile_column(), experimental): the library's list of
 * them, and one column of a table as a bytearray filled once, without the
 * GIL. Python casts it with memoryview(...).cast(typecode), which numpy
 * takes without a copy (the limited API of 3.9 has no buffer protocol for
 * our own types, so a bytearray is the buffer).
 */
#include "pyprofdata.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* The struct-module letter and the byte size of a column type. */
static const char *type_code(int type, size_t *size)
{
	switch (type) {
	case PROFDATA_COLUMN_U8: *size = 1; return "B";
	case PROFDATA_COLUMN_U32: *size = 4; return "I";
	case PROFDATA_COLUMN_I32: *size = 4; return "i";
	case PROFDATA_COLUMN_U64: *size = 8; return "Q";
	case PROFDATA_COLUMN_I64: *size = 8; return "q";
	default: *size = 0; return NULL;
	}
}

static const char *shape_name(int shape)
{
	return shape == PROFDATA_COLUMN_OFFSETS ? "offsets" : shape == PROFDATA_COLUMN_RAGGED ? "ragged" : "plain";
}

/*
 * A big column is a fresh block of tens or hundreds of megabytes that is
 * filled once, front to back. In 4 KiB pages each page costs a fault and a
 * clear, which on a virtual machine is most of the fill's time (7M sizes:
 * 0.3 s of faults, 0.01 s of filling). Debian's transparent huge pages are
 * on where asked (madvise), as numpy asks for its own large arrays; so we
 * ask for the 2 MiB-aligned part of the block. Only advice: without it the
 * fill is the same, slower.
 */
static void ask_huge_pages(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1), end = ((uintptr_t)p + bytes) & ~(huge - 1);

	if (bytes >= 2 * huge && end > start)
		(void)madvise((void *)start, (size_t)(end - start), MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

/* columns() -> [(table, name, typecode, shape, description)] */
PyObject *pd_py_columns(PyObject *module, PyObject *unused)
{
	PyObject *list = PyList_New(0);

	(void)module;
	(void)unused;
	for (size_t i = 0; list && i < profdata_column_count(); i++) {
		const profdata_column *c = profdata_column_at(i);
		size_t size;

		if (pd_py_append(list, Py_BuildValue("(NNsNN)", pd_py_cstr(profdata_table_name(c->table)),
		                                     pd_py_cstr(c->name), type_code(c->type, &size),
		                                     pd_py_cstr(shape_name(c->shape)), pd_py_cstr(c->description))) < 0)
			Py_CLEAR(list);
	}
	return list;
}

/* model.column(table, name) -> (typecode, bytearray) of the whole column */
PyObject *pd_py_column(PyObject *self, PyObject *args)
{
	const profdata_profile *p = pd_py_model_profile(self);
	const char *table, *name, *code;
	const profdata_column *c;
	profdata_table t;
	size_t n, size, written = 0;
	PyObject *buf;
	int rc;

	if (!p || !PyArg_ParseTuple(args, "ss", &table, &name))
		return NULL;
	if (profdata_table_from_name(&t, table) < 0 || profdata_column_find(&c, t, name) < 0) {
		PyErr_Format(PyExc_KeyError, "%s.%s", table, name);
		return NULL;
	}
	code = type_code(c->type, &size);
	Py_BEGIN_ALLOW_THREADS
	rc = profdata_profile_column(NULL, 0, &n, c->type, p, c, 0, SIZE_MAX);
	Py_END_ALLOW_THREADS
	if (rc < 0 || !(buf = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(n * size))))
		return rc < 0 ? pd_py_raise(rc, NULL, NULL, "input") : NULL;
	Py_BEGIN_ALLOW_THREADS
	ask_huge_pages(PyByteArray_AsString(buf), n * size);
	rc = profdata_profile_column(PyByteArray_AsString(buf), n, &written, c->type, p, c, 0, SIZE_MAX);
	Py_END_ALLOW_THREADS
	if (rc < 0 || written != n) {
		Py_DECREF(buf);
		return rc < 0 ? pd_py_raise(rc, NULL, NULL, "input") : PyErr_Format(PyExc_RuntimeError, "column %s changed", name);
	}
	return Py_BuildValue("(sN)", code, buf);
}
