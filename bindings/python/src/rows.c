/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The model's rows as tuples, through the library's _sized getters with
 * the compiler's own sizeof: a struct that grows in a later release is
 * still read right. The large tables (objects, stacks, samples) come a
 * slice at a time, so Python's iterators stay lazy and their memory small.
 */
#include "pyprofdata.h"

/* One row of a table as a new tuple, or NULL with an exception. */
typedef PyObject *(*row_fn)(const profdata_profile *p, size_t i);

/* Rows [first, first + n) of a table as a list of row() tuples. */
static PyObject *rows_list(const profdata_profile *p, size_t first, size_t n, row_fn row)
{
	PyObject *list = PyList_New(0);

	for (size_t i = first; list && i < first + n; i++)
		if (pd_py_append(list, row(p, i)) < 0)
			Py_CLEAR(list);
	return list;
}

/* A whole table as a list (the small tables: classes, functions, threads). */
static PyObject *table_rows(PyObject *self, profdata_table t, row_fn row)
{
	const profdata_profile *p = pd_py_model_profile(self);

	return p ? rows_list(p, 0, profdata_profile_count(p, t), row) : NULL;
}

/* The slice (start, count) of args of a table, clamped to it, as a list (the large tables). */
static PyObject *slice_rows(PyObject *self, PyObject *args, profdata_table t, row_fn row)
{
	const profdata_profile *p = pd_py_model_profile(self);
	Py_ssize_t start, count;
	size_t rows, first;

	if (!p || !PyArg_ParseTuple(args, "nn", &start, &count))
		return NULL;
	if (start < 0 || count < 0) {
		PyErr_SetString(PyExc_ValueError, "start and count must not be negative");
		return NULL;
	}
	rows = profdata_profile_count(p, t);
	first = (size_t)start < rows ? (size_t)start : rows;
	return rows_list(p, first, (size_t)count < rows - first ? (size_t)count : rows - first, row);
}

static PyObject *object_row(const profdata_profile *p, size_t i)
{
	profdata_object o;

	profdata_profile_object(p, i, &o);
	return Py_BuildValue("(KKiiKK)", (unsigned long long)o.id, (unsigned long long)o.class_id, o.kind,
	                     o.elem_type, (unsigned long long)o.length,
	                     (unsigned long long)profdata_profile_object_size(p, i));
}

PyObject *pd_py_objects(PyObject *self, PyObject *args)
{
	return slice_rows(self, args, PROFDATA_TABLE_OBJECTS, object_row);
}

/* Object i's non-null references as a list of (source, target). */
static PyObject *refs_row(const profdata_profile *p, size_t i)
{
	uint64_t small[64], *buf = small;
	long n = profdata_profile_object_refs(p, i, 0, buf, 64);
	profdata_object o;
	PyObject *list;

	if (n > 64) {
		if (!(buf = PyMem_Malloc((size_t)n * sizeof *buf)))
			return PyErr_NoMemory();
		n = profdata_profile_object_refs(p, i, 0, buf, (size_t)n);
	}
	profdata_profile_object(p, i, &o);
	list = n < 0 ? pd_py_raise((int)n, NULL, NULL, "input") : PyList_New(0);
	for (long k = 0; list && k < n; k++)
		if (pd_py_append(list, Py_BuildValue("(KK)", (unsigned long long)o.id,
		                                     (unsigned long long)buf[k])) < 0)
			Py_CLEAR(list);
	if (buf != small)
		PyMem_Free(buf);
	return list;
}

/* references(start, count): the references of those objects, flattened. */
PyObject *pd_py_references(PyObject *self, PyObject *args)
{
	PyObject *per_object = slice_rows(self, args, PROFDATA_TABLE_OBJECTS, refs_row), *flat;
	Py_ssize_t n;

	if (!per_object)
		return NULL;
	flat = PyList_New(0);
	n = PyList_Size(per_object);
	for (Py_ssize_t i = 0; flat && i < n; i++) {
		PyObject *more = PySequence_InPlaceConcat(flat, PyList_GetItem(per_object, i));

		Py_DECREF(flat);
		flat = more;
	}
	Py_DECREF(per_object);
	return flat;
}

static PyObject *class_row(const profdata_profile *p, size_t i)
{
	profdata_class_info c;

	profdata_profile_class(p, i, &c);
	return Py_BuildValue("(KNKKI)", (unsigned long long)(c.has_dump ? c.dump.id : c.load.id), pd_py_cstr(c.name),
	                     (unsigned long long)c.dump.super_id, (unsigned long long)c.dump.loader_id,
	                     c.dump.instance_size);
}

PyObject *pd_py_classes(PyObject *self, PyObject *unused)
{
	(void)unused;
	return table_rows(self, PROFDATA_TABLE_CLASSES, class_row);
}

/* The string with id `id` as str, None for 0 or an unknown id. */
static PyObject *string_of(const profdata_profile *p, uint64_t id)
{
	size_t len = 0;
	const char *s = id ? profdata_profile_string(p, id, &len) : NULL;

	return pd_py_str(s, len);
}

static PyObject *function_row(const profdata_profile *p, size_t i)
{
	profdata_function f;

	profdata_profile_function(p, i, &f);
	return Py_BuildValue("(NNNi)", string_of(p, f.name_id), string_of(p, f.signature_id),
	                     string_of(p, f.source_file_id), (int)f.start_line);
}

PyObject *pd_py_functions(PyObject *self, PyObject *unused)
{
	(void)unused;
	return table_rows(self, PROFDATA_TABLE_FUNCTIONS, function_row);
}

static PyObject *thread_row(const profdata_profile *p, size_t i)
{
	profdata_thread_info t;

	profdata_profile_thread(p, i, &t);
	return Py_BuildValue("(INNK)", t.start.serial, string_of(p, t.start.name_id),
	                     string_of(p, t.start.group_name_id), (unsigned long long)t.start.object_id);
}

PyObject *pd_py_threads(PyObject *self, PyObject *unused)
{
	(void)unused;
	return table_rows(self, PROFDATA_TABLE_THREADS, thread_row);
}

/* A tuple of n unsigned 64-bit ids (or signed values when is_signed). */
static PyObject *u64_tuple(const void *v, size_t n, int is_signed)
{
	PyObject *t = PyTuple_New((Py_ssize_t)n);

	for (size_t k = 0; t && k < n; k++) {
		PyObject *x = is_signed ? PyLong_FromLongLong(((const int64_t *)v)[k])
		                        : PyLong_FromUnsignedLongLong(((const uint64_t *)v)[k]);

		if (!x || PyTuple_SetItem(t, (Py_ssize_t)k, x) < 0)
			Py_CLEAR(t);
	}
	return t;
}

static PyObject *stack_row(const profdata_profile *p, size_t i)
{
	profdata_stack s;

	profdata_profile_stack(p, i, &s);
	return Py_BuildValue("(IIN)", s.serial, s.thread_serial, u64_tuple(s.frame_ids, s.nframes, 0));
}

PyObject *pd_py_stacks(PyObject *self, PyObject *args)
{
	return slice_rows(self, args, PROFDATA_TABLE_STACKS, stack_row);
}

PyObject *pd_py_frame(PyObject *self, PyObject *args)
{
	const profdata_profile *p = pd_py_model_profile(self);
	unsigned long long id;
	size_t idx;
	profdata_frame fr;
	profdata_function fn = {0};

	if (!p || !PyArg_ParseTuple(args, "K", &id))
		return NULL;
	if (profdata_profile_find_frame(p, id, &idx) < 0)
		Py_RETURN_NONE;
	profdata_profile_frame(p, idx, &fr);
	if (fr.function_id && profdata_profile_find_function(p, fr.function_id, &idx) == 0)
		profdata_profile_function(p, idx, &fn);
	if (!fr.has_address)
		return Py_BuildValue("(NNiO)", string_of(p, fn.name_id), string_of(p, fn.source_file_id),
		                     (int)fr.line, Py_None);
	return Py_BuildValue("(NNiK)", string_of(p, fn.name_id), string_of(p, fn.source_file_id), (int)fr.line,
	                     (unsigned long long)fr.address);
}

static PyObject *sample_row(const profdata_profile *p, size_t i)
{
	profdata_sample s;

	profdata_profile_sample(p, i, &s);
	return Py_BuildValue("(IIKN)", s.stack_serial, s.thread_serial, (unsigned long long)s.time_ns,
	                     u64_tuple(s.values, s.nvalues, 1));
}

PyObject *pd_py_samples(PyObject *self, PyObject *args)
{
	return slice_rows(self, args, PROFDATA_TABLE_SAMPLES, sample_row);
}
