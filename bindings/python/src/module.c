/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profdata._profdata: the module, its functions that need no profile, and
 * its constants. Every name it hands out (tables, formats, return codes)
 * comes from the library or its headers, never from a copy here.
 */
#include "pyprofdata.h"

static PyObject *mod_version(PyObject *module, PyObject *unused)
{
	(void)module;
	(void)unused;
	return pd_py_cstr(profdata_version_string());
}

static PyObject *mod_strerror(PyObject *module, PyObject *args)
{
	int code;

	(void)module;
	if (!PyArg_ParseTuple(args, "i", &code))
		return NULL;
	return pd_py_cstr(profdata_strerror(code));
}

/* basic_type_name(code) -> "int", "?" for no basic type */
static PyObject *mod_basic_type_name(PyObject *module, PyObject *args)
{
	int type;

	(void)module;
	if (!PyArg_ParseTuple(args, "i", &type))
		return NULL;
	return pd_py_cstr(profdata_basic_type_name(type));
}

/* The model's table names, in the library's order. */
static PyObject *mod_tables(PyObject *module, PyObject *unused)
{
	PyObject *list = PyList_New(0);
	const char *name;

	(void)module;
	(void)unused;
	for (int t = 0; list && (name = profdata_table_name((profdata_table)t)) != NULL; t++)
		if (pd_py_append(list, pd_py_cstr(name)) < 0)
			Py_CLEAR(list);
	return list;
}

/* [(name, can_read, can_write)] of this build. */
static PyObject *mod_formats(PyObject *module, PyObject *unused)
{
	PyObject *list = PyList_New(0);

	(void)module;
	(void)unused;
	for (size_t i = 0, n = profdata_format_count(); list && i < n; i++) {
		const profdata_format *f = profdata_format_at(i);

		if (pd_py_append(list, Py_BuildValue("(NOO)", pd_py_cstr(profdata_format_name(f)),
		                                     profdata_format_can_read(f) ? Py_True : Py_False,
		                                     profdata_format_can_write(f) ? Py_True : Py_False)) < 0)
			Py_CLEAR(list);
	}
	return list;
}

/* format_for_filename(name: bytes) -> (code, format name or None) */
static PyObject *mod_format_for_filename(PyObject *module, PyObject *args)
{
	const profdata_format *f = NULL;
	const char *name;
	int code;

	(void)module;
	if (!PyArg_ParseTuple(args, "y", &name))
		return NULL;
	code = profdata_format_for_filename(&f, name);
	return Py_BuildValue("(iN)", code, pd_py_cstr(code == 0 && f ? profdata_format_name(f) : NULL));
}

/* java_name(internal: str) -> the source form ("[I": "int[]") */
static PyObject *mod_java_name(PyObject *module, PyObject *args)
{
	const char *name;
	Py_ssize_t len;

	(void)module;
	if (!PyArg_ParseTuple(args, "s#", &name, &len))
		return NULL;
	return pd_py_java_name(name, (size_t)len);
}

/* heap(model, dump, node_bits) -> Heap: the dump's analysis, made without the GIL */
static PyObject *mod_heap(PyObject *module, PyObject *args)
{
	pd_py_state *st = PyModule_GetState(module);
	PyObject *model;
	long dump;
	unsigned int node_bits = 0;

	if (!PyArg_ParseTuple(args, "O!l|I", st->model_type, &model, &dump, &node_bits))
		return NULL;
	return pd_py_heap_new(st->heap_type, model, dump, node_bits);
}

static PyObject *mod_merge(PyObject *module, PyObject *unused)
{
	pd_py_state *st = PyModule_GetState(module);

	(void)unused;
	return pd_py_merge_new(st->merge_type, st->model_type);
}

static PyMethodDef module_methods[] = {
	{"version", mod_version, METH_NOARGS, "The library's version, \"0.3.0\"."},
	{"strerror", mod_strerror, METH_VARARGS, "strerror(code): the library's words for a return code."},
	{"basic_type_name", mod_basic_type_name, METH_VARARGS, "A Java basic type's name (\"int\"); \"?\" for none."},
	{"tables", mod_tables, METH_NOARGS, "The model's table names, as the library names them."},
	{"formats", mod_formats, METH_NOARGS, "[(name, can_read, can_write)] of this build."},
	{"format_for_filename", mod_format_for_filename, METH_VARARGS, "(code, format name) for a file name."},
	{"java_name", mod_java_name, METH_VARARGS, "A JVM internal class name in source form."},
	{"columns", pd_py_columns, METH_NOARGS, "[(table, name, typecode, shape, description)] of the library."},
	{"read", pd_py_read, METH_VARARGS, "read(input, format, strict, options) -> (Model, warnings); input: (kind, object, name)."},
	{"convert", pd_py_convert, METH_VARARGS, "convert(src, dst, to, options, read_format) -> warnings."},
	{"histogram", pd_py_histogram, METH_VARARGS, "histogram(input, format, dump) -> (format, rows, warnings)."},
	{"heap", mod_heap, METH_VARARGS, "heap(model, dump, node_bits=0) -> Heap, the dump's dominators and retained sizes."},
	{"heap_diff", pd_py_heap_diff, METH_VARARGS, "heap_diff(old, new, order, dominators) -> (objects, classes, dominators)."},
	{"merge", mod_merge, METH_NOARGS, "merge() -> an empty Merge."},
	{NULL, NULL, 0, NULL}
};

/* The return codes and constants the Python layer needs, by their C names. */
static int add_constants(PyObject *m)
{
	static const struct { const char *name; long value; } constants[] = {
		{"OK", PROFDATA_OK}, {"ERROR", PROFDATA_ERROR}, {"ENOMEM", PROFDATA_ENOMEM},
		{"EIO", PROFDATA_EIO}, {"EFORMAT", PROFDATA_EFORMAT}, {"ETRUNCATED", PROFDATA_ETRUNCATED},
		{"EUNSUPPORTED", PROFDATA_EUNSUPPORTED}, {"EINVAL", PROFDATA_EINVAL},
		{"ENOTFOUND", PROFDATA_ENOTFOUND}, {"ERANGE", PROFDATA_ERANGE}, {"ELIMIT", PROFDATA_ELIMIT},
		{"OBJECT_INSTANCE", PROFDATA_OBJECT_INSTANCE}, {"OBJECT_ARRAY", PROFDATA_OBJECT_ARRAY},
		{"OBJECT_PRIM_ARRAY", PROFDATA_OBJECT_PRIM_ARRAY},
		{"HISTOGRAM_ALL_DUMPS", PROFDATA_HISTOGRAM_ALL_DUMPS},
		{"TOP_FUNCTIONS", PROFDATA_TOP_FUNCTIONS}, {"TOP_LINES", PROFDATA_TOP_LINES},
		{"TOP_FILES", PROFDATA_TOP_FILES}, {"TOP_INLINED", PROFDATA_TOP_INLINED},
		{"TOP_PARTLY_INLINED", PROFDATA_TOP_PARTLY_INLINED},
		{"INPUT_PATH", PD_PY_INPUT_PATH}, {"INPUT_MEMORY", PD_PY_INPUT_MEMORY},
		{"INPUT_FD", PD_PY_INPUT_FD}, {"INPUT_FILE", PD_PY_INPUT_FILE},
		{"HEAP_DIFF_BY_BYTES", PROFDATA_HEAP_DIFF_BY_BYTES}, {"HEAP_DIFF_BY_RETAINED", PROFDATA_HEAP_DIFF_BY_RETAINED},
		{"HEAP_DIFF_BY_INSTANCES", PROFDATA_HEAP_DIFF_BY_INSTANCES},
		{"ROOT_JNI_GLOBAL", PROFDATA_ROOT_JNI_GLOBAL}, {"ROOT_JNI_LOCAL", PROFDATA_ROOT_JNI_LOCAL},
		{"ROOT_JAVA_FRAME", PROFDATA_ROOT_JAVA_FRAME}, {"ROOT_NATIVE_STACK", PROFDATA_ROOT_NATIVE_STACK},
		{"ROOT_STICKY_CLASS", PROFDATA_ROOT_STICKY_CLASS}, {"ROOT_THREAD_BLOCK", PROFDATA_ROOT_THREAD_BLOCK},
		{"ROOT_MONITOR_USED", PROFDATA_ROOT_MONITOR_USED}, {"ROOT_THREAD_OBJECT", PROFDATA_ROOT_THREAD_OBJECT},
		{"ROOT_INTERNED_STRING", PROFDATA_ROOT_INTERNED_STRING}, {"ROOT_FINALIZING", PROFDATA_ROOT_FINALIZING},
		{"ROOT_DEBUGGER", PROFDATA_ROOT_DEBUGGER}, {"ROOT_REFERENCE_CLEANUP", PROFDATA_ROOT_REFERENCE_CLEANUP},
		{"ROOT_VM_INTERNAL", PROFDATA_ROOT_VM_INTERNAL}, {"ROOT_JNI_MONITOR", PROFDATA_ROOT_JNI_MONITOR},
		{"ROOT_UNKNOWN", PROFDATA_ROOT_UNKNOWN},
	};

	for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
		if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0)
			return -1;
	return 0;
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
	pd_py_state *st = PyModule_GetState(m);

	Py_VISIT(st->model_type);
	Py_VISIT(st->heap_type);
	Py_VISIT(st->merge_type);
	return 0;
}

static int module_clear(PyObject *m)
{
	pd_py_state *st = PyModule_GetState(m);

	Py_CLEAR(st->model_type);
	Py_CLEAR(st->heap_type);
	Py_CLEAR(st->merge_type);
	return 0;
}

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT, "profdata._profdata",
	"libprofdata's C API for the profdata package (its wrappers are the public API).",
	sizeof(pd_py_state), module_methods, NULL, module_traverse, module_clear, NULL
};

/* The type made from `spec` in *slot (the state's reference) and as the module's attribute `name`. */
static int add_type(PyObject *m, PyType_Spec *spec, const char *name, PyObject **slot)
{
	if (!(*slot = PyType_FromSpec(spec)))
		return -1;
	Py_INCREF(*slot); /* PyModule_AddObject takes one reference when it succeeds */
	if (PyModule_AddObject(m, name, *slot) < 0) {
		Py_DECREF(*slot);
		return -1;
	}
	return 0;
}

PyMODINIT_FUNC PyInit__profdata(void);

PyMODINIT_FUNC PyInit__profdata(void)
{
	PyObject *m = PyModule_Create(&module_def);
	pd_py_state *st;

	if (!m)
		return NULL;
	st = PyModule_GetState(m);
	if (add_type(m, &pd_py_model_spec, "Model", &st->model_type) < 0 ||
	    add_type(m, &pd_py_heap_spec, "Heap", &st->heap_type) < 0 ||
	    add_type(m, &pd_py_merge_spec, "Merge", &st->merge_type) < 0 || add_constants(m) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
