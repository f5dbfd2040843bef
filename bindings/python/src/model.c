/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Model type: one profdata_profile owned by a Python object. The
 * Python class profdata.Profile wraps it; close() frees the profile at once,
 * and every later call raises ValueError, as a closed file does.
 */
#include "pyprofdata.h"

PyObject *pd_py_model_wrap(PyObject *type, profdata_profile *p)
{
	allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)type, Py_tp_alloc);
	pd_py_model *m = (pd_py_model *)alloc((PyTypeObject *)type, 0);

	if (!m) {
		profdata_profile_free(p);
		return NULL;
	}
	m->p = p;
	m->input = NULL;
	m->held = NULL;
	m->pins = 0;
	return (PyObject *)m;
}

const profdata_profile *pd_py_model_profile(PyObject *self)
{
	const profdata_profile *p = ((pd_py_model *)self)->p;

	if (!p)
		PyErr_SetString(PyExc_ValueError, "operation on a closed profile");
	return p;
}

const profdata_profile *pd_py_model_pin(PyObject *self)
{
	const profdata_profile *p = pd_py_model_profile(self);

	if (p)
		((pd_py_model *)self)->pins++;
	return p;
}

void pd_py_model_unpin(PyObject *self)
{
	pd_py_model *m = (pd_py_model *)self;

	if (--m->pins == 0 && m->held) {
		profdata_profile_free(m->held);
		m->held = NULL;
		Py_CLEAR(m->input); /* what the held profile pointed into */
	}
}

static PyObject *model_close(PyObject *self, PyObject *unused)
{
	pd_py_model *m = (pd_py_model *)self;

	(void)unused;
	if (m->pins > 0 && !m->held) {
		m->held = m->p; /* a Heap still reads it, and it may point into `input` */
	} else {
		profdata_profile_free(m->p);
		if (!m->held)
			Py_CLEAR(m->input);
	}
	m->p = NULL;
	Py_RETURN_NONE;
}

static void model_dealloc(PyObject *self)
{
	PyTypeObject *type = Py_TYPE(self);
	freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);

	profdata_profile_free(((pd_py_model *)self)->p);
	Py_CLEAR(((pd_py_model *)self)->input);
	tp_free(self);
	Py_DECREF(type);
}

static PyObject *model_closed(PyObject *self, void *unused)
{
	(void)unused;
	return PyBool_FromLong(((pd_py_model *)self)->p == NULL);
}

/* count(name): the rows of the table the library calls `name`; KeyError for no such table. */
static PyObject *model_count(PyObject *self, PyObject *args)
{
	const char *name;
	profdata_table t;
	const profdata_profile *p = pd_py_model_profile(self);

	if (!p || !PyArg_ParseTuple(args, "s", &name))
		return NULL;
	if (profdata_table_from_name(&t, name) < 0) {
		PyErr_SetString(PyExc_KeyError, name);
		return NULL;
	}
	return PyLong_FromSize_t(profdata_profile_count(p, t));
}

/* meta(): (format, version or None) */
static PyObject *model_meta(PyObject *self, PyObject *unused)
{
	const profdata_profile *p = pd_py_model_profile(self);
	const profdata_meta *m;
	PyObject *fmt, *ver, *t = NULL;

	(void)unused;
	if (!p)
		return NULL;
	m = profdata_profile_meta(p);
	fmt = pd_py_cstr(m->format);
	ver = pd_py_cstr(m->version);
	if (fmt && ver)
		t = PyTuple_Pack(2, fmt, ver);
	Py_XDECREF(fmt);
	Py_XDECREF(ver);
	return t;
}

static PyObject *model_reference_count(PyObject *self, PyObject *unused)
{
	const profdata_profile *p = pd_py_model_profile(self);
	uint64_t n;

	(void)unused;
	if (!p)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	n = profdata_profile_reference_count(p);
	Py_END_ALLOW_THREADS
	return PyLong_FromUnsignedLongLong(n);
}

static PyMethodDef model_methods[] = {
	{"close", model_close, METH_NOARGS, "Free the profile now; later calls raise ValueError."},
	{"count", model_count, METH_VARARGS, "count(table_name): rows of a table."},
	{"meta", model_meta, METH_NOARGS, "(format, version) of the input."},
	{"reference_count", model_reference_count, METH_NOARGS, "Non-null references held by objects."},
	{"objects", pd_py_objects, METH_VARARGS, "objects(start, count): (id, class_id, kind, elem_type, length, size)."},
	{"references", pd_py_references, METH_VARARGS, "references(start, count): (source, target) of those objects."},
	{"classes", pd_py_classes, METH_NOARGS, "[(id, internal name, super_id, loader_id, instance_size)]."},
	{"functions", pd_py_functions, METH_NOARGS, "[(name, signature, source_file, start_line)]."},
	{"threads", pd_py_threads, METH_NOARGS, "[(serial, name, group, object_id)]."},
	{"stacks", pd_py_stacks, METH_VARARGS, "stacks(start, count): (serial, thread_serial, frame ids)."},
	{"frame", pd_py_frame, METH_VARARGS, "frame(id): (function, source_file, line, address) or None."},
	{"samples", pd_py_samples, METH_VARARGS, "samples(start, count): (stack_serial, thread_serial, time_ns, values)."},
	{"column", pd_py_column, METH_VARARGS, "column(table, name) -> (typecode, bytearray) of the whole column."},
	{"histogram", pd_py_model_histogram, METH_VARARGS, "histogram(dump) -> [(name, instances, bytes)]."},
	{"top", pd_py_model_top, METH_VARARGS, "top(group, sample_type) -> (total, type, unit, [(name, flat, cum, inlined)])."},
	{"write", pd_py_write, METH_VARARGS, "write(path, format, options): the writer's warnings."},
	{"write_memory", pd_py_write_memory, METH_VARARGS, "write_memory(format, options) -> (bytes, warnings)."},
	{NULL, NULL, 0, NULL}
};

static PyGetSetDef model_getset[] = {
	{"closed", model_closed, NULL, "True once close() freed the profile.", NULL},
	{NULL, NULL, NULL, NULL, NULL}
};

static PyType_Slot model_slots[] = {
	{Py_tp_dealloc, (void *)model_dealloc},
	{Py_tp_methods, model_methods},
	{Py_tp_getset, model_getset},
	{Py_tp_doc, (void *)"A profile read into libprofdata's model (profdata.Profile wraps it)."},
	{0, NULL}
};

PyType_Spec pd_py_model_spec = {
	"profdata._profdata.Model", sizeof(pd_py_model), 0, Py_TPFLAGS_DEFAULT, model_slots
};
