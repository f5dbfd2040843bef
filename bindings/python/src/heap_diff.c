/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What changed between two heap dumps (profdata/heap_diff.h, experimental),
 * from two Heaps, as `profdata diff OLD NEW` computes it: the change per
 * class name, the objects matched by id, and the new objects' biggest
 * dominators.
 */
#include "pyprofdata.h"

/* The matched, new and gone objects as a tuple, in the struct's order. */
static PyObject *objects_tuple(const profdata_heap_diff_objects *o)
{
	return Py_BuildValue("(KKKKKKKKKK)", (unsigned long long)o->old_objects, (unsigned long long)o->old_bytes,
	                     (unsigned long long)o->new_objects, (unsigned long long)o->new_bytes,
	                     (unsigned long long)o->matched, (unsigned long long)o->matched_bytes,
	                     (unsigned long long)o->added, (unsigned long long)o->added_bytes,
	                     (unsigned long long)o->gone, (unsigned long long)o->gone_bytes);
}

/* Class change i: (class, +instances, +bytes, +retained, instances, bytes, retained, old instances, old bytes,
 * old retained) */
static PyObject *class_row(const void *d, size_t i, void *unused)
{
	const profdata_heap_class_change *c = profdata_heap_diff_class_at(d, i);

	(void)unused;
	return Py_BuildValue("(NLLLKKKKKK)", pd_py_cstr(c->class_name), (long long)c->instances, (long long)c->bytes,
	                     (long long)c->retained, (unsigned long long)c->new_instances,
	                     (unsigned long long)c->new_bytes, (unsigned long long)c->new_retained,
	                     (unsigned long long)c->old_instances, (unsigned long long)c->old_bytes,
	                     (unsigned long long)c->old_retained);
}

/* New dominator i: (id, class, shallow, retained) */
static PyObject *dominator_row(const void *d, size_t i, void *unused)
{
	const profdata_heap_new_dominator *x = profdata_heap_diff_dominator_at(d, i);

	(void)unused;
	return Py_BuildValue("(KNKK)", (unsigned long long)x->id, pd_py_cstr(x->class_name),
	                     (unsigned long long)x->shallow, (unsigned long long)x->retained);
}

/* heap_diff(old Heap, new Heap, order, dominators) -> (objects, classes, dominators) */
PyObject *pd_py_heap_diff(PyObject *module, PyObject *args)
{
	pd_py_state *st = PyModule_GetState(module);
	profdata_heap_diff_options opts;
	profdata_heap_diff *d = NULL;
	PyObject *old_heap, *new_heap, *out;
	Py_ssize_t dominators;
	int code;

	profdata_heap_diff_options_init(&opts, sizeof opts);
	if (!PyArg_ParseTuple(args, "O!O!in", st->heap_type, &old_heap, st->heap_type, &new_heap, &opts.order,
	                      &dominators))
		return NULL;
	if (old_heap == new_heap)
		return PyErr_Format(PyExc_ValueError, "diff compares two heaps, not one with itself");
	opts.dominators = dominators > 0 ? (size_t)dominators : 0;
	/* The GIL and both locks held, in one order: the heaps' first per-class sums are computed here
	 * (heap.c, "Threads"). */
	pd_py_heap_lock(old_heap < new_heap ? old_heap : new_heap);
	pd_py_heap_lock(old_heap < new_heap ? new_heap : old_heap);
	code = profdata_heap_diff_new(&d, pd_py_heap_of(old_heap), pd_py_heap_of(new_heap), &opts);
	pd_py_heap_unlock(old_heap);
	pd_py_heap_unlock(new_heap);
	if (code < 0)
		out = pd_py_raise(code, d ? profdata_heap_diff_error(d) : NULL, NULL, "input");
	else
		out = Py_BuildValue("(NNN)", objects_tuple(profdata_heap_diff_objects_of(d)),
		                    pd_py_list(profdata_heap_diff_class_count(d), class_row, d, NULL),
		                    pd_py_list(profdata_heap_diff_dominator_count(d), dominator_row, d, NULL));
	profdata_heap_diff_free(d);
	return out;
}
