/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Heap type: one heap analysis (profdata_heap: dominator tree and
 * retained sizes) of a Model's dump, made once without the GIL and kept.
 * It pins the Model's profile (pd_py_model_pin), which the analysis
 * borrows, so that the Profile's close() cannot pull it away. Objects are
 * named by their ids, as the tool names them; the answers are the tool's
 * (tools/profdata/heap_commands.c): the same class names, the same ids.
 *
 * Threads: the heap is read with the GIL held, except a path from a GC
 * root, found without it. The first per-class call computes and keeps the
 * per-class sums (heap.h: no reader may run meanwhile), so it holds the
 * GIL and `lock`, which a path holds too.
 */
#include "pyprofdata.h"
#include <pythread.h>

typedef struct pd_py_heap {
	PyObject_HEAD
	PyObject *model;           /* the Model, kept alive; its profile pinned */
	const profdata_profile *p;
	profdata_heap *h;
	PyThread_type_lock lock;   /* the per-class sums and paths: one at a time */
	long dump;
} pd_py_heap;

/*
 * A heap analysis of dump `dump` of `model` with node numbers of `node_bits`
 * (heap.h: 0 picks), as a new Heap of type `type`; NULL with the error raised.
 */
PyObject *pd_py_heap_new(PyObject *type, PyObject *model, long dump, unsigned node_bits)
{
	allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)type, Py_tp_alloc);
	profdata_heap_options opts;
	pd_py_heap *self;
	int code;

	profdata_heap_options_init(&opts, sizeof opts);
	opts.dump = dump;
	opts.node_bits = node_bits;
	if (!(self = (pd_py_heap *)alloc((PyTypeObject *)type, 0)))
		return NULL;
	if (!(self->lock = PyThread_allocate_lock())) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	if (!(self->p = pd_py_model_pin(model))) {
		Py_DECREF(self);
		return NULL;
	}
	Py_INCREF(model);
	self->model = model;
	self->dump = dump;
	Py_BEGIN_ALLOW_THREADS
	code = profdata_heap_new(&self->h, self->p, &opts);
	Py_END_ALLOW_THREADS
	if (code < 0) {
		pd_py_raise(code, self->h ? profdata_heap_error(self->h) : NULL, NULL, "input");
		Py_DECREF(self);
		return NULL;
	}
	return (PyObject *)self;
}

static void heap_dealloc(PyObject *obj)
{
	pd_py_heap *self = (pd_py_heap *)obj;
	PyTypeObject *type = Py_TYPE(obj);
	freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);

	profdata_heap_free(self->h);
	if (self->model) {
		pd_py_model_unpin(self->model);
		Py_DECREF(self->model);
	}
	if (self->lock)
		PyThread_free_lock(self->lock);
	tp_free(obj);
	Py_DECREF(type);
}

profdata_heap *pd_py_heap_of(PyObject *obj)
{
	return ((pd_py_heap *)obj)->h;
}

void pd_py_heap_lock(PyObject *obj)
{
	PyThread_type_lock lock = ((pd_py_heap *)obj)->lock;

	Py_BEGIN_ALLOW_THREADS
	PyThread_acquire_lock(lock, WAIT_LOCK);
	Py_END_ALLOW_THREADS
}

void pd_py_heap_unlock(PyObject *obj)
{
	PyThread_release_lock(((pd_py_heap *)obj)->lock);
}

/* The id the tool gives a node: an object's, or a class object's (its class dump's). */
static unsigned long long node_id(const pd_py_heap *self, size_t node)
{
	size_t c;
	profdata_object o;
	profdata_class_info ci;

	if (profdata_heap_node_class(self->h, node, &c))
		return profdata_profile_class(self->p, c, &ci) == 0 ? (unsigned long long)ci.dump.id : 0;
	return profdata_profile_object(self->p, node, &o) == 0 ? (unsigned long long)o.id : 0;
}

/* The class name of object `node`: "int[]" for a primitive array without a class, else its class's. */
static PyObject *object_class_name(const pd_py_heap *self, size_t node)
{
	profdata_object o;
	profdata_class_info c;
	size_t ci;

	if (profdata_profile_object(self->p, node, &o) < 0)
		return pd_py_cstr("java.lang.Class");
	if (!o.class_id && o.kind == PROFDATA_OBJECT_PRIM_ARRAY)
		return PyUnicode_FromFormat("%s[]", o.elem_type >= PROFDATA_TYPE_BOOLEAN && o.elem_type <= PROFDATA_TYPE_LONG
		                                    ? profdata_basic_type_name(o.elem_type) : "?");
	if (profdata_profile_find_class(self->p, o.class_id, &ci) == 0 && profdata_profile_class(self->p, ci, &c) == 0 &&
	    c.name)
		return pd_py_java_name(c.name, strlen(c.name));
	return pd_py_cstr("<unknown class>");
}

/*
 * A node's class name as the tool prints it; a class object is named by the
 * class it stands for (*class_object 1), its own class, java.lang.Class,
 * would not tell which.
 */
static PyObject *node_class_name(const pd_py_heap *self, size_t node, int *class_object)
{
	size_t c;
	profdata_class_info ci;

	*class_object = profdata_heap_node_class(self->h, node, &c) && profdata_profile_class(self->p, c, &ci) == 0 &&
	                ci.name;
	return *class_object ? pd_py_java_name(ci.name, strlen(ci.name)) : object_class_name(self, node);
}

PyObject *pd_py_heap_node_class(PyObject *heap, size_t node, int *class_object)
{
	return node_class_name((const pd_py_heap *)heap, node, class_object);
}

unsigned long long pd_py_heap_node_id(PyObject *heap, size_t node)
{
	return node_id((const pd_py_heap *)heap, node);
}

/* The node of the object, or class object, with id `id` in the dump analysed; -1 with KeyError. */
static int find_node(const pd_py_heap *self, PyObject *args, size_t *node)
{
	unsigned long long id;
	size_t first, count;

	if (!PyArg_ParseTuple(args, "K", &id))
		return -1;
	profdata_heap_objects(self->h, &first, &count);
	if (profdata_profile_find_object(self->p, id, node) == 0 && *node >= first && *node - first < count)
		return 0;
	if (profdata_profile_find_class(self->p, id, node) == 0) {
		*node = profdata_heap_class_node(self->h, *node);
		return 0;
	}
	PyErr_Format(PyExc_KeyError, "no object 0x%llx in the dump", id);
	return -1;
}

/* counts() -> (reachable objects, reachable bytes, unreachable objects, unreachable bytes) */
static PyObject *heap_counts(PyObject *obj, PyObject *unused)
{
	const profdata_heap *h = ((pd_py_heap *)obj)->h;

	(void)unused;
	return Py_BuildValue("(nKnK)", (Py_ssize_t)profdata_heap_reachable_count(h),
	                     (unsigned long long)profdata_heap_reachable_bytes(h),
	                     (Py_ssize_t)profdata_heap_unreachable_count(h),
	                     (unsigned long long)profdata_heap_unreachable_bytes(h));
}

/* node_bits() -> 32 or 64, the width of the analysis' node numbers */
static PyObject *heap_node_bits(PyObject *obj, PyObject *unused)
{
	(void)unused;
	return PyLong_FromUnsignedLong(profdata_heap_node_bits(((pd_py_heap *)obj)->h));
}

/* node(id) -> (shallow, retained, reachable) */
static PyObject *heap_node(PyObject *obj, PyObject *args)
{
	pd_py_heap *self = (pd_py_heap *)obj;
	size_t node;

	if (find_node(self, args, &node) < 0)
		return NULL;
	return Py_BuildValue("(KKO)", (unsigned long long)profdata_heap_size(self->h, node),
	                     (unsigned long long)profdata_heap_retained(self->h, node),
	                     profdata_heap_reachable(self->h, node) ? Py_True : Py_False);
}

/* dominator(id) -> the immediate dominator's id, or None for the roots; ValueError when unreachable */
static PyObject *heap_dominator(PyObject *obj, PyObject *args)
{
	pd_py_heap *self = (pd_py_heap *)obj;
	size_t node, dom;
	int code;

	if (find_node(self, args, &node) < 0)
		return NULL;
	code = profdata_heap_dominator_of(&dom, self->h, node);
	if (code == PROFDATA_ENOTFOUND)
		return PyErr_Format(PyExc_ValueError, "object 0x%llx is unreachable", node_id(self, node));
	if (code < 0)
		return pd_py_raise(code, profdata_heap_error(self->h), NULL, "input");
	if (dom == PROFDATA_HEAP_ROOTS)
		Py_RETURN_NONE;
	return PyLong_FromUnsignedLongLong(node_id(self, dom));
}

/* A node as (id, class name, shallow, retained, is a class object). */
static PyObject *node_row(const pd_py_heap *self, size_t node)
{
	int class_object;
	PyObject *name = node_class_name(self, node, &class_object);

	return Py_BuildValue("(KNKKO)", node_id(self, node), name, (unsigned long long)profdata_heap_size(self->h, node),
	                     (unsigned long long)profdata_heap_retained(self->h, node),
	                     class_object ? Py_True : Py_False);
}

/* top(n) -> [node_row()] of the n nodes of largest retained size, biggest first */
static PyObject *heap_top(PyObject *obj, PyObject *args)
{
	pd_py_heap *self = (pd_py_heap *)obj;
	Py_ssize_t n;
	size_t *nodes, count = 0;
	PyObject *list;

	if (!PyArg_ParseTuple(args, "n", &n))
		return NULL;
	if (n < 0)
		n = 0;
	if (!(nodes = PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof *nodes)))
		return PyErr_NoMemory();
	profdata_heap_top_nodes(nodes, &count, self->h, (size_t)n);
	list = PyList_New(0);
	for (size_t i = 0; list && i < count; i++)
		if (pd_py_append(list, node_row(self, nodes[i])) < 0)
			Py_CLEAR(list);
	PyMem_Free(nodes);
	return list;
}

/* One step as (id, class name, is a class object, root kind or None, field or None, index or None, held by a class). */
static PyObject *step_row(const pd_py_heap *self, const profdata_heap_step *st, const profdata_heap_step *prev)
{
	int class_object;
	size_t c;
	PyObject *name = node_class_name(self, st->node, &class_object), *kind, *index;

	if (prev)
		Py_INCREF(kind = Py_None);
	else
		kind = PyLong_FromLong(st->root_kind);
	if (st->index < 0)
		Py_INCREF(index = Py_None);
	else
		index = PyLong_FromLongLong(st->index);
	return Py_BuildValue("(KNONNNO)", node_id(self, st->node), name, class_object ? Py_True : Py_False, kind,
	                     pd_py_cstr(st->field), index,
	                     prev && profdata_heap_node_class(self->h, prev->node, &c) ? Py_True : Py_False);
}

/* path(id) -> [step_row()] from a GC root to the object; [] when no root reaches it */
static PyObject *heap_path(PyObject *obj, PyObject *args)
{
	pd_py_heap *self = (pd_py_heap *)obj;
	profdata_heap_root_path *path = NULL;
	PyObject *list = NULL;
	size_t node;
	int code;

	if (find_node(self, args, &node) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	PyThread_acquire_lock(self->lock, WAIT_LOCK);
	code = profdata_heap_root_path_new(&path, self->h, node, NULL, NULL);
	PyThread_release_lock(self->lock);
	Py_END_ALLOW_THREADS
	if (code < 0)
		pd_py_raise(code, path ? profdata_heap_root_path_error(path) : NULL, NULL, "input");
	else
		list = PyList_New(0);
	for (size_t k = 0; list && k < profdata_heap_root_path_length(path); k++)
		if (pd_py_append(list, step_row(self, profdata_heap_root_path_step(path, k),
		                                k ? profdata_heap_root_path_step(path, k - 1) : NULL)) < 0)
			Py_CLEAR(list);
	profdata_heap_root_path_free(path);
	return list;
}

/* Bytes retained by a histogram entry's class (by id, or by element type for a class-less array): 0 or an error. */
static int entry_retained(uint64_t *out, const pd_py_heap *self, const profdata_histogram_entry *x)
{
	size_t ci;
	char name[32];

	*out = 0;
	if (x->class_id && profdata_profile_find_class(self->p, x->class_id, &ci) == 0)
		return profdata_heap_retained_by_class(out, self->h, ci);
	for (int t = PROFDATA_TYPE_BOOLEAN; t <= PROFDATA_TYPE_LONG; t++) {
		snprintf(name, sizeof name, "%s[]", profdata_basic_type_name(t));
		if (strcmp(x->name, name) == 0)
			return profdata_heap_retained_by_array_type(out, self->h, t);
	}
	return 0;
}

/* The histogram's rows with the bytes each class retains: [(name, instances, bytes, retained)]. */
static PyObject *retained_rows(const pd_py_heap *self, const profdata_histogram *hi)
{
	PyObject *list = PyList_New(0);
	uint64_t bytes;
	int code;

	for (size_t i = 0; list && i < profdata_histogram_count(hi); i++) {
		const profdata_histogram_entry *x = profdata_histogram_entry_at(hi, i);

		if ((code = entry_retained(&bytes, self, x)) < 0 && code != PROFDATA_ENOTFOUND) {
			Py_CLEAR(list);
			return pd_py_raise(code, profdata_heap_error(self->h), NULL, "input");
		}
		if (pd_py_append(list, Py_BuildValue("(NKKK)", pd_py_cstr(x->name), (unsigned long long)x->instances,
		                                     (unsigned long long)x->bytes, (unsigned long long)bytes)) < 0)
			Py_CLEAR(list);
	}
	return list;
}

/* class_retained() -> retained_rows() of the dump, in the histogram's order (shallow bytes) */
static PyObject *heap_class_retained(PyObject *obj, PyObject *unused)
{
	pd_py_heap *self = (pd_py_heap *)obj;
	profdata_histogram *hi = NULL;
	PyObject *out;
	int code;

	(void)unused;
	code = profdata_histogram_new(&hi, self->p, self->dump);
	if (code < 0) {
		out = pd_py_raise(code, hi ? profdata_histogram_error(hi) : NULL, NULL, "input");
	} else {
		pd_py_heap_lock(obj);
		out = retained_rows(self, hi); /* the GIL held: no reader while the first call computes */
		pd_py_heap_unlock(obj);
	}
	profdata_histogram_free(hi);
	return out;
}

static PyMethodDef heap_methods[] = {
	{"counts", heap_counts, METH_NOARGS, "(reachable objects, bytes, unreachable objects, bytes)."},
	{"node_bits", heap_node_bits, METH_NOARGS, "node_bits() -> 32 or 64, the width of its node numbers."},
	{"node", heap_node, METH_VARARGS, "node(id) -> (shallow, retained, reachable); KeyError for no such id."},
	{"dominator", heap_dominator, METH_VARARGS, "dominator(id) -> its immediate dominator's id, None: the roots."},
	{"top", heap_top, METH_VARARGS, "top(n) -> [(id, class name, shallow, retained, class object)]."},
	{"path", heap_path, METH_VARARGS, "path(id) -> [(id, class, class object, root kind, field, index, from class)]."},
	{"class_retained", heap_class_retained, METH_NOARGS, "class_retained() -> [(name, instances, bytes, retained)]."},
	{"suspects", pd_py_heap_suspects, METH_VARARGS, "suspects(threshold, classes) -> (reachable, threshold, rows)."},
	{"waste", pd_py_heap_waste, METH_VARARGS, "waste(limit, owners) -> (totals, strings, arrays, collections, boxed)."},
	{NULL, NULL, 0, NULL}
};

static PyType_Slot heap_slots[] = {
	{Py_tp_dealloc, (void *)heap_dealloc},
	{Py_tp_methods, heap_methods},
	{Py_tp_doc, (void *)"A heap analysis of a Model's dump (profdata.Heap wraps it)."},
	{0, NULL}
};

PyType_Spec pd_py_heap_spec = {
	"profdata._profdata.Heap", sizeof(pd_py_heap), 0, Py_TPFLAGS_DEFAULT, heap_slots
};
