/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory a heap dump wastes (profdata/waste.h, experimental), from a
 * Heap, as `profdata waste` finds it: duplicate strings and primitive
 * arrays, empty and sparse collections, boxed primitives. Objects are
 * given by their ids, as the tool gives them.
 */
#include "pyprofdata.h"

/* Owner k of a string, by id; ctx is the Heap. */
static PyObject *owner_id(const void *owners, size_t k, void *heap)
{
	return PyLong_FromUnsignedLongLong(pd_py_heap_node_id(heap, ((const size_t *)owners)[k]));
}

/* (text, length, truncated, count, bytes, wasted, id, [owner ids]) */
static PyObject *string_row(const void *items, size_t i, void *heap)
{
	const profdata_heap_duplicate_string *s = (const profdata_heap_duplicate_string *)items + i;

	return Py_BuildValue("(NKOKKKKN)", pd_py_cstr(s->text), (unsigned long long)s->length,
	                     s->truncated ? Py_True : Py_False, (unsigned long long)s->count,
	                     (unsigned long long)s->bytes, (unsigned long long)s->wasted, pd_py_heap_node_id(heap, s->node),
	                     pd_py_list(s->nowners, owner_id, s->owners, heap));
}

/* (class, length, count, bytes, wasted, id) */
static PyObject *array_row(const void *items, size_t i, void *heap)
{
	const profdata_heap_duplicate_array *a = (const profdata_heap_duplicate_array *)items + i;

	return Py_BuildValue("(NKKKKK)", pd_py_cstr(a->class_name), (unsigned long long)a->length,
	                     (unsigned long long)a->count, (unsigned long long)a->bytes, (unsigned long long)a->wasted,
	                     pd_py_heap_node_id(heap, a->node));
}

/* (class, count, empty, sparse, empty_bytes, slots, used, wasted) */
static PyObject *collection_row(const void *items, size_t i, void *unused)
{
	const profdata_heap_collection_waste *c = (const profdata_heap_collection_waste *)items + i;

	(void)unused;
	return Py_BuildValue("(NKKKKKKK)", pd_py_cstr(c->class_name), (unsigned long long)c->count,
	                     (unsigned long long)c->empty, (unsigned long long)c->sparse,
	                     (unsigned long long)c->empty_bytes, (unsigned long long)c->slots,
	                     (unsigned long long)c->used, (unsigned long long)c->wasted);
}

/* (class, count, bytes, distinct, wasted, top value, its count) */
static PyObject *boxed_row(const void *items, size_t i, void *unused)
{
	const profdata_heap_boxed *b = (const profdata_heap_boxed *)items + i;

	(void)unused;
	return Py_BuildValue("(NKKKKNK)", pd_py_cstr(b->class_name), (unsigned long long)b->count,
	                     (unsigned long long)b->bytes, (unsigned long long)b->distinct, (unsigned long long)b->wasted,
	                     pd_py_cstr(b->top_value), (unsigned long long)b->top_count);
}

/* The totals, in the struct's order. */
static PyObject *totals_tuple(const profdata_heap_waste_totals *t)
{
	return Py_BuildValue("(KKKKKKKKKKKKKK)", (unsigned long long)t->reachable_bytes, (unsigned long long)t->strings,
	                     (unsigned long long)t->string_bytes, (unsigned long long)t->string_groups,
	                     (unsigned long long)t->duplicate_strings, (unsigned long long)t->string_wasted,
	                     (unsigned long long)t->array_groups, (unsigned long long)t->duplicate_arrays,
	                     (unsigned long long)t->array_wasted, (unsigned long long)t->collection_wasted,
	                     (unsigned long long)t->empty_collection_bytes, (unsigned long long)t->boxed_count,
	                     (unsigned long long)t->boxed_bytes, (unsigned long long)t->boxed_wasted);
}

/* The finished waste as (totals, strings, arrays, collections, boxed). */
static PyObject *waste_tuple(PyObject *heap, const profdata_heap_waste *w)
{
	size_t ns, na, nc, nb;
	const profdata_heap_duplicate_string *s = profdata_heap_waste_strings(w, &ns);
	const profdata_heap_duplicate_array *a = profdata_heap_waste_arrays(w, &na);
	const profdata_heap_collection_waste *c = profdata_heap_waste_collections(w, &nc);
	const profdata_heap_boxed *b = profdata_heap_waste_boxed(w, &nb);

	return Py_BuildValue("(NNNNN)", totals_tuple(profdata_heap_waste_totals_of(w)),
	                     pd_py_list(ns, string_row, s, heap), pd_py_list(na, array_row, a, heap),
	                     pd_py_list(nc, collection_row, c, NULL), pd_py_list(nb, boxed_row, b, NULL));
}

/* heap.waste(limit, owners) -> waste_tuple() */
PyObject *pd_py_heap_waste(PyObject *heap, PyObject *args)
{
	profdata_heap_waste_options opts;
	profdata_heap_waste *w = NULL;
	Py_ssize_t limit, owners;
	PyObject *out;
	int code;

	profdata_heap_waste_options_init(&opts, sizeof opts);
	if (!PyArg_ParseTuple(args, "nn", &limit, &owners))
		return NULL;
	opts.limit = limit > 0 ? (size_t)limit : 0;
	opts.owners = owners > 0 ? (size_t)owners : 0;
	pd_py_heap_lock(heap); /* and the GIL: the only user of the heap meanwhile (waste.h) */
	code = profdata_heap_waste_new(&w, pd_py_heap_of(heap), &opts);
	pd_py_heap_unlock(heap);
	out = code < 0 ? pd_py_raise(code, w ? profdata_heap_waste_error(w) : NULL, NULL, "input") : waste_tuple(heap, w);
	profdata_heap_waste_free(w);
	return out;
}
