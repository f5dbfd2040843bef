/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Leak suspects of a heap dump (profdata/suspects.h, experimental), from a
 * Heap, as `profdata suspects` finds them: what retains a large share of
 * the reachable bytes, alone or as the instances of one class, with where
 * its memory gathers (the accumulation point) and what that holds by class.
 */
#include "pyprofdata.h"

/* Class i of what a suspect's accumulation point dominates directly: (class, count, retained) */
static PyObject *accumulated_row(const void *items, size_t i, void *unused)
{
	const profdata_heap_accumulated *a = (const profdata_heap_accumulated *)items + i;

	(void)unused;
	return Py_BuildValue("(NKK)", pd_py_cstr(a->class_name), (unsigned long long)a->count,
	                     (unsigned long long)a->retained);
}

/*
 * A suspect as (kind, id, class, class object, instances, retained, accumulation id, its class, its class
 * object, its retained, depth, accumulated, accumulated classes); the accumulation's four None for a class suspect.
 */
static PyObject *suspect_row(const void *suspects, size_t i, void *heap)
{
	const profdata_heap_suspect *s = profdata_heap_suspects_at(suspects, i);
	int object = s->kind == PROFDATA_SUSPECT_OBJECT, acc_class_object = 0;
	PyObject *acc_name = object ? pd_py_heap_node_class(heap, s->accumulation, &acc_class_object) : NULL;
	PyObject *accumulated = pd_py_list(s->naccumulated, accumulated_row, s->accumulated, NULL);

	if (!object)
		return Py_BuildValue("(sKNOKKOOOOONK)", "class", pd_py_heap_node_id(heap, s->node), pd_py_cstr(s->class_name),
		                     s->class_object ? Py_True : Py_False, (unsigned long long)s->instances,
		                     (unsigned long long)s->retained, Py_None, Py_None, Py_None, Py_None, Py_None,
		                     accumulated, (unsigned long long)s->accumulated_classes);
	return Py_BuildValue("(sKNOKKKNOKnNK)", "object", pd_py_heap_node_id(heap, s->node), pd_py_cstr(s->class_name),
	                     s->class_object ? Py_True : Py_False, (unsigned long long)s->instances,
	                     (unsigned long long)s->retained, pd_py_heap_node_id(heap, s->accumulation), acc_name,
	                     acc_class_object ? Py_True : Py_False, (unsigned long long)s->accumulation_retained,
	                     (Py_ssize_t)s->depth, accumulated, (unsigned long long)s->accumulated_classes);
}

/* heap.suspects(threshold, classes) -> (reachable bytes, threshold in bytes, [suspect_row()]) */
PyObject *pd_py_heap_suspects(PyObject *heap, PyObject *args)
{
	profdata_heap_suspects_options opts;
	profdata_heap_suspects *s = NULL;
	Py_ssize_t classes;
	PyObject *list = NULL, *out = NULL;
	int code;

	profdata_heap_suspects_options_init(&opts, sizeof opts);
	if (!PyArg_ParseTuple(args, "dn", &opts.threshold, &classes))
		return NULL;
	opts.classes = classes > 0 ? (size_t)classes : 0;
	pd_py_heap_lock(heap); /* and the GIL: the only user of the heap meanwhile (suspects.h) */
	code = profdata_heap_suspects_new(&s, pd_py_heap_of(heap), &opts);
	pd_py_heap_unlock(heap);
	if (code < 0)
		pd_py_raise(code, s ? profdata_heap_suspects_error(s) : NULL, NULL, "input");
	else
		list = pd_py_list(profdata_heap_suspects_count(s), suspect_row, s, heap);
	if (list)
		out = Py_BuildValue("(KKN)", (unsigned long long)profdata_heap_suspects_total(s),
		                    (unsigned long long)profdata_heap_suspects_threshold(s), list);
	profdata_heap_suspects_free(s);
	return out;
}
