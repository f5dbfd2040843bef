/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Heap analysis (profdata/heap.h) on small graphs built through events,
 * where dominators, retained sizes and paths are known by hand; a chain of
 * 300 000 objects checks that nothing recurses, and a comb of a million
 * (case "big") a stop in the retained histogram's walk, against the heap's
 * own tables (analysis/heap_impl.h).
 */
/* profdata_heap_tree_top() is experimental. */
#define PROFDATA_EXPERIMENTAL
/* First: compiled at PD_HEAP_WIDTH 64 (tests/meson.build), the calls are the 64-bit analysis' own. */
#include "analysis/heap_width.h"
#include "support.h"
#include "analysis/heap_impl.h"
#include "analysis/heap_refs.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Class ids; object ids are 0x1000 + 8 * n. */
enum { OBJECT = 1, NODE = 2, ARRAY = 3, REFERENCE = 4, WEAK = 5, PHANTOM = 6 };
enum { S_OBJECT = 100, S_NODE, S_ARRAY, S_NEXT, S_OTHER, S_CACHE, S_REFERENCE, S_WEAK, S_PHANTOM, S_REFERENT,
       S_QUEUE };
#define OID(n) (0x1000 + 8 * (uint64_t)(n))

typedef struct graph {
	const profdata_events *ev;
	profdata_profile *p;
} graph;

static void be64(unsigned char *b, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		b[i] = (unsigned char)v;
}

static void load(graph *g, uint64_t id, uint64_t name)
{
	profdata_class_load cl = { 0, (uint32_t)id, id, 0, name };
	ck_assert_int_eq(g->ev->class_load(g->p, &cl), 0);
}

static void class_dump(graph *g, uint64_t id, uint64_t super, const profdata_field *fields, size_t nfields,
                       const profdata_field *statics, size_t nstatics)
{
	profdata_class_dump cd;
	memset(&cd, 0, sizeof(cd));
	cd.id = id;
	cd.super_id = super;
	cd.fields = fields;
	cd.nfields = nfields;
	cd.statics = statics;
	cd.nstatics = nstatics;
	ck_assert_int_eq(g->ev->class_dump(g->p, &cd), 0);
}

/* Begin a dump with classes Object, Node {next, other}, Object[], Reference {referent, queue},
 * WeakReference and PhantomReference; Node holds a static `cache` pointing at `cache` (0: null). */
static void begin(graph *g, uint64_t cache)
{
	g->ev = profdata_profile_builder_events();
	ck_assert_int_eq(profdata_profile_new(&g->p), 0);
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	m.id_size = 8;
	ck_assert_int_eq(g->ev->begin(g->p, &m), 0);
	const char *names[] = { "java/lang/Object", "Node", "[Ljava/lang/Object;", "next", "other", "cache",
		                "java/lang/ref/Reference", "java/lang/ref/WeakReference",
		                "java/lang/ref/PhantomReference", "referent", "queue" };
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ck_assert_int_eq(g->ev->string(g->p, S_OBJECT + i, names[i], strlen(names[i])), 0);
	load(g, OBJECT, S_OBJECT);
	load(g, NODE, S_NODE);
	load(g, ARRAY, S_ARRAY);
	load(g, REFERENCE, S_REFERENCE);
	load(g, WEAK, S_WEAK);
	load(g, PHANTOM, S_PHANTOM);
	profdata_dump d = { 0, 0 };
	ck_assert_int_eq(g->ev->dump_begin(g->p, &d), 0);
	profdata_field node_fields[] = { { S_NEXT, PROFDATA_TYPE_OBJECT, 0 }, { S_OTHER, PROFDATA_TYPE_OBJECT, 0 } };
	profdata_field node_statics[] = { { S_CACHE, PROFDATA_TYPE_OBJECT, cache } };
	profdata_field ref_fields[] = { { S_REFERENT, PROFDATA_TYPE_OBJECT, 0 }, { S_QUEUE, PROFDATA_TYPE_OBJECT, 0 } };
	class_dump(g, OBJECT, 0, NULL, 0, NULL, 0);
	class_dump(g, NODE, OBJECT, node_fields, 2, node_statics, 1);
	class_dump(g, ARRAY, OBJECT, NULL, 0, NULL, 0);
	class_dump(g, REFERENCE, OBJECT, ref_fields, 2, NULL, 0);
	class_dump(g, WEAK, REFERENCE, NULL, 0, NULL, 0);
	class_dump(g, PHANTOM, REFERENCE, NULL, 0, NULL, 0);
}

static void root(graph *g, uint64_t id, int kind)
{
	profdata_root r;
	memset(&r, 0, sizeof(r));
	r.kind = (uint8_t)kind;
	r.object_id = id;
	ck_assert_int_eq(g->ev->root(g->p, &r), 0);
}

/* An instance of `cls` with two reference fields (Node: next, other; references: referent, queue). */
static void instance(graph *g, uint64_t n, uint64_t cls, uint64_t first, uint64_t second)
{
	unsigned char data[16];
	be64(data, first);
	be64(data + 8, second);
	profdata_object o;
	memset(&o, 0, sizeof(o));
	o.id = OID(n);
	o.class_id = cls;
	o.kind = PROFDATA_OBJECT_INSTANCE;
	o.length = sizeof(data);
	o.data = data;
	o.data_len = sizeof(data);
	ck_assert_int_eq(g->ev->object(g->p, &o), 0);
}

static void array(graph *g, uint64_t n, const uint64_t *elems, size_t count)
{
	unsigned char *data = calloc(count ? count : 1, 8);
	for (size_t i = 0; i < count; i++)
		be64(data + 8 * i, elems[i]);
	profdata_object o;
	memset(&o, 0, sizeof(o));
	o.id = OID(n);
	o.class_id = ARRAY;
	o.kind = PROFDATA_OBJECT_ARRAY;
	o.length = count;
	o.data = data;
	o.data_len = 8 * count;
	ck_assert_int_eq(g->ev->object(g->p, &o), 0);
	free(data);
}

static profdata_heap *finish(graph *g)
{
	ck_assert_int_eq(g->ev->dump_end(g->p), 0);
	ck_assert_int_eq(g->ev->end(g->p), 0);
	profdata_heap *h = NULL;
	ck_assert_int_eq(profdata_heap_new(&h, g->p, NULL), 0);
	ck_assert_ptr_null(profdata_heap_error(h));
	return h;
}

/* The path from a GC root to `node`, its steps copied into st[0 .. cap): its length. */
static long path_steps(const profdata_heap *h, size_t node, profdata_heap_step *st, size_t cap)
{
	profdata_heap_root_path *path;
	ck_assert_int_eq(profdata_heap_root_path_new(&path, h, node, NULL, NULL), 0);
	ck_assert_ptr_null(profdata_heap_root_path_error(path));
	size_t len = profdata_heap_root_path_length(path);
	for (size_t i = 0; i < len && i < cap; i++)
		st[i] = *profdata_heap_root_path_step(path, i);
	ck_assert_ptr_null(profdata_heap_root_path_step(path, len));
	profdata_heap_root_path_free(path);
	return (long)len;
}

/* A heap of dump `dump` of p made with graph_only, which the analysis leaves without dominators. */
static profdata_heap *graph_only_heap(const profdata_profile *p, long dump)
{
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	o.dump = dump;
	o.graph_only = 1;
	profdata_heap *h = NULL;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), 0);
	return h;
}

static int same_string(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The path to `node` of a heap of the graph only is, step by step, that of the whole analysis `whole`. */
static void assert_same_path(const profdata_heap *whole, const profdata_heap *lean, size_t node)
{
	profdata_heap_root_path *a, *b;
	int ea = profdata_heap_root_path_new(&a, whole, node, NULL, NULL);
	ck_assert_int_eq(profdata_heap_root_path_new(&b, lean, node, NULL, NULL), ea);
	size_t len = profdata_heap_root_path_length(a);
	ck_assert_uint_eq(profdata_heap_root_path_length(b), len);
	for (size_t i = 0; i < len; i++) {
		const profdata_heap_step *x = profdata_heap_root_path_step(a, i), *y = profdata_heap_root_path_step(b, i);
		ck_assert_msg(x->node == y->node && x->root_kind == y->root_kind && x->index == y->index &&
		                  same_string(x->field, y->field),
		              "node %zu: step %zu differs", node, i);
	}
	profdata_heap_root_path_free(a);
	profdata_heap_root_path_free(b);
}

/*
 * What a heap of the graph only answers equals the whole analysis' answer:
 * the counts, reachability and sizes of every node, and the paths to every
 * `stride`-th node and to the biggest retainers.
 */
static void assert_graph_only_agrees(const profdata_profile *p, const profdata_heap *whole, long dump, size_t stride)
{
	profdata_heap *lean = graph_only_heap(p, dump);
	ck_assert_uint_eq(profdata_heap_reachable_count(lean), profdata_heap_reachable_count(whole));
	ck_assert_uint_eq(profdata_heap_reachable_bytes(lean), profdata_heap_reachable_bytes(whole));
	ck_assert_uint_eq(profdata_heap_unreachable_count(lean), profdata_heap_unreachable_count(whole));
	ck_assert_uint_eq(profdata_heap_unreachable_bytes(lean), profdata_heap_unreachable_bytes(whole));
	size_t nodes = profdata_profile_count(p, PROFDATA_TABLE_OBJECTS) + profdata_profile_count(p, PROFDATA_TABLE_CLASSES);
	for (size_t node = 0; node < nodes; node++) {
		ck_assert_int_eq(profdata_heap_reachable(lean, node), profdata_heap_reachable(whole, node));
		ck_assert_uint_eq(profdata_heap_size(lean, node), profdata_heap_size(whole, node));
		if (node % stride == 0)
			assert_same_path(whole, lean, node); /* (a node of another dump: PROFDATA_ENOTFOUND for both) */
	}
	size_t top[20], n;
	ck_assert_int_eq(profdata_heap_top_nodes(top, &n, whole, 20), 0);
	for (size_t k = 0; k < n; k++)
		assert_same_path(whole, lean, top[k]);
	profdata_heap_free(lean);
}

static size_t at(const graph *g, uint64_t n)
{
	size_t i;
	ck_assert_int_eq(profdata_profile_find_object(g->p, OID(n), &i), 0);
	return i;
}

static uint64_t size_of(const graph *g, uint64_t n) { return profdata_profile_object_size(g->p, at(g, n)); }

static void assert_idom(const graph *g, const profdata_heap *h, uint64_t n, long want)
{
	size_t d;
	ck_assert_int_eq(profdata_heap_dominator_of(&d, h, at(g, n)), 0);
	ck_assert_uint_eq(d, want < 0 ? PROFDATA_HEAP_ROOTS : at(g, (uint64_t)want));
}

START_TEST(diamond_and_cycle)
{
	graph g;
	begin(&g, 0);
	root(&g, OID(0), PROFDATA_ROOT_JAVA_FRAME);
	instance(&g, 0, NODE, OID(1), OID(2)); /* A -> B, C */
	instance(&g, 1, NODE, OID(3), 0);      /* B -> D */
	instance(&g, 2, NODE, OID(3), 0);      /* C -> D */
	instance(&g, 3, NODE, OID(4), 0);      /* D -> E */
	instance(&g, 4, NODE, OID(3), 0);      /* E -> D: a cycle */
	profdata_heap *h = finish(&g);
	uint64_t s = size_of(&g, 0);
	ck_assert_uint_gt(s, 0);
	assert_idom(&g, h, 0, -1);
	assert_idom(&g, h, 1, 0);
	assert_idom(&g, h, 2, 0);
	assert_idom(&g, h, 3, 0);
	assert_idom(&g, h, 4, 3);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 0)), 5 * s);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 1)), s);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 3)), 2 * s);
	ck_assert_uint_eq(profdata_heap_unreachable_count(h), 0);
	size_t top[3], n;
	ck_assert_int_eq(profdata_heap_top_nodes(top, &n, h, 3), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(top[0], at(&g, 0));
	ck_assert_uint_eq(top[1], at(&g, 3));
	ck_assert_uint_eq(top[2], at(&g, 1)); /* ties: lower id first */
	size_t all[8];
	ck_assert_int_eq(profdata_heap_top_nodes(all, &n, h, 8), 0);
	ck_assert_uint_eq(n, profdata_heap_reachable_count(h)); /* no more than are reachable: 5 and Node's class */
	for (size_t k = 0; k < 3; k++)
		ck_assert_uint_eq(all[k], top[k]);
	ck_assert_int_eq(profdata_heap_top_nodes(NULL, &n, h, 0), 0);
	ck_assert_uint_eq(n, 0);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

START_TEST(a_long_chain_needs_no_recursion)
{
	enum { N = 300000 };
	graph g;
	begin(&g, 0);
	root(&g, OID(0), PROFDATA_ROOT_JNI_GLOBAL);
	for (uint64_t n = 0; n < N; n++)
		instance(&g, n, NODE, n + 1 < N ? OID(n + 1) : 0, 0);
	profdata_heap *h = finish(&g);
	uint64_t s = size_of(&g, 0);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 0)), (uint64_t)N * s);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, N / 2)), (uint64_t)(N - N / 2) * s);
	assert_idom(&g, h, N - 1, N - 2);
	/* only the outermost Node counts toward the class */
	size_t node_row;
	uint64_t bytes;
	ck_assert_int_eq(profdata_profile_find_class(g.p, NODE, &node_row), 0);
	ck_assert_int_eq(profdata_heap_retained_by_class(&bytes, h, node_row), 0);
	ck_assert_uint_eq(bytes, (uint64_t)N * s);
	ck_assert_int_eq(path_steps(h, at(&g, N - 1), NULL, 0), N);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

START_TEST(references_from_unreachable_objects_count)
{
	graph g;
	begin(&g, 0);
	root(&g, OID(0), PROFDATA_ROOT_JAVA_FRAME);
	instance(&g, 0, NODE, OID(1), 0); /* A -> B */
	instance(&g, 1, NODE, 0, 0);
	instance(&g, 2, NODE, OID(1), 0); /* X (unreachable) -> B */
	profdata_heap *h = finish(&g);
	uint64_t s = size_of(&g, 0);
	ck_assert_uint_eq(profdata_heap_unreachable_count(h), 1);
	ck_assert_uint_eq(profdata_heap_unreachable_bytes(h), s);
	ck_assert_int_eq(profdata_heap_reachable(h, at(&g, 2)), 0);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 2)), 0);
	assert_idom(&g, h, 1, -1);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 0)), s);
	ck_assert_int_eq(path_steps(h, at(&g, 2), NULL, 0), 0);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

START_TEST(weak_referents_are_not_followed_phantom_ones_are)
{
	graph g;
	begin(&g, 0);
	root(&g, OID(0), PROFDATA_ROOT_JAVA_FRAME);
	root(&g, OID(2), PROFDATA_ROOT_JAVA_FRAME);
	root(&g, OID(4), PROFDATA_ROOT_JAVA_FRAME);
	root(&g, OID(7), PROFDATA_ROOT_JAVA_FRAME);
	instance(&g, 0, WEAK, OID(1), 0);    /* weak -> T */
	instance(&g, 1, NODE, 0, 0);
	instance(&g, 2, PHANTOM, OID(3), 0); /* phantom -> U */
	instance(&g, 3, NODE, 0, 0);
	instance(&g, 4, NODE, OID(5), 0);    /* A -> B -> X, and a weak reference -> X */
	instance(&g, 5, NODE, OID(6), 0);
	instance(&g, 6, NODE, 0, 0);
	instance(&g, 7, WEAK, OID(6), 0);
	profdata_heap *h = finish(&g);
	ck_assert_int_eq(profdata_heap_reachable(h, at(&g, 1)), 0);
	ck_assert_int_eq(profdata_heap_reachable(h, at(&g, 3)), 1);
	assert_idom(&g, h, 3, 2);
	/* X is reachable through B alone, but the weak reference is one of its referrers: B does not dominate it */
	assert_idom(&g, h, 6, -1);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 5)), size_of(&g, 5));
	/* and the path to X does not go through the weak reference */
	profdata_heap_step steps[8];
	ck_assert_int_eq(path_steps(h, at(&g, 6), steps, 8), 3);
	ck_assert_uint_eq(steps[0].node, at(&g, 4));
	ck_assert_uint_eq(steps[1].node, at(&g, 5));
	assert_graph_only_agrees(g.p, h, 0, 1);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

/*
 * VisualVM's class connection: the first instance of a class its search
 * processes leads to the class object when nothing reached it before; what
 * only the class's statics hold becomes reachable through it.
 */
START_TEST(the_first_instance_of_a_class_connects_its_class_object)
{
	graph g;
	begin(&g, OID(2));              /* Node's static `cache` holds S */
	root(&g, OID(0), PROFDATA_ROOT_JAVA_FRAME);
	uint64_t elems[1] = { OID(1) };
	array(&g, 0, elems, 1);         /* R (an array: arrays connect nothing) -> A */
	instance(&g, 1, NODE, 0, 0);    /* A: the first Node the search processes */
	instance(&g, 2, NODE, 0, 0);    /* S: held by Node's static only */
	profdata_heap *h = finish(&g);
	size_t node_class;
	ck_assert_int_eq(profdata_profile_find_class(g.p, NODE, &node_class), 0);
	size_t cnode = profdata_heap_class_node(h, node_class), d;
	ck_assert_int_eq(profdata_heap_reachable(h, cnode), 1);
	ck_assert_int_eq(profdata_heap_dominator_of(&d, h, cnode), 0);
	ck_assert_uint_eq(d, at(&g, 1));
	ck_assert_int_eq(profdata_heap_reachable(h, at(&g, 2)), 1);
	ck_assert_int_eq(profdata_heap_dominator_of(&d, h, at(&g, 2)), 0);
	ck_assert_uint_eq(d, cnode);
	/*
	 * VisualVM's tree objects (trees.c): S, then the class object (a
	 * java.lang.Class's size plus S), then A, then R. A connection is no
	 * reference a tree sums over, and its sums never walk up from a class
	 * object: A keeps its own size, R its own and A's.
	 */
	ck_assert_uint_eq(profdata_heap_retained(h, cnode), profdata_heap_size(h, cnode) + size_of(&g, 2));
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 1)), size_of(&g, 1));
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 0)), size_of(&g, 0) + size_of(&g, 1));
	profdata_heap_step steps[8];
	ck_assert_int_eq(path_steps(h, at(&g, 2), steps, 8), 4);
	ck_assert_uint_eq(steps[2].node, cnode);
	ck_assert_str_eq(steps[2].field, "<class>");
	ck_assert_str_eq(steps[3].field, "cache");
	/* The graph alone makes the same connection: S and the class object are reachable, by the same path. */
	assert_graph_only_agrees(g.p, h, 0, 1);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

/*
 * VisualVM's tree objects (trees.c): an object whose references all lead to
 * objects with one referrer that are tree objects sums them, GC roots and
 * class objects among them, at their own sizes. Here array 1 holds a class
 * object that is a GC root (Node's: node 2 is a root), the root Node 2 and
 * the plain Node 3, and nothing else refers to them.
 */
START_TEST(a_root_inside_a_tree_counts_there)
{
	graph g;
	begin(&g, 0);
	/* a java.lang.Class, which gives class objects their size */
	enum { CLASS = 7, S_CLASS = 200 };
	ck_assert_int_eq(g.ev->string(g.p, S_CLASS, "java/lang/Class", 15), 0);
	load(&g, CLASS, S_CLASS);
	profdata_field class_fields[] = { { S_NEXT, PROFDATA_TYPE_OBJECT, 0 }, { S_OTHER, PROFDATA_TYPE_OBJECT, 0 } };
	class_dump(&g, CLASS, OBJECT, class_fields, 2, NULL, 0);
	root(&g, OID(0), PROFDATA_ROOT_JAVA_FRAME);
	root(&g, OID(2), PROFDATA_ROOT_JNI_GLOBAL);
	uint64_t top[1] = { OID(1) }, held[3] = { NODE, OID(3), OID(2) };
	array(&g, 0, top, 1);
	array(&g, 1, held, 3);
	instance(&g, 2, NODE, 0, 0);
	instance(&g, 3, NODE, 0, 0);
	profdata_heap *h = finish(&g);
	size_t node_class;
	ck_assert_int_eq(profdata_profile_find_class(g.p, NODE, &node_class), 0);
	uint64_t class_size = profdata_heap_size(h, profdata_heap_class_node(h, node_class));
	ck_assert_uint_gt(class_size, 0);
	uint64_t tree = size_of(&g, 1) + class_size + size_of(&g, 2) + size_of(&g, 3);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 1)), tree);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 0)), size_of(&g, 0) + tree);
	/* the roots are still dominated by the roots alone */
	assert_idom(&g, h, 2, -1);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

/*
 * Root 0 refers to root 1, each with a plain leaf: both are tree objects of
 * the same level, and VisualVM's level pass takes them in the order of its
 * root table. Root 0 taken first finds root 1 no tree yet, and stays none.
 */
START_TEST(a_root_taken_before_its_child_root_stays_no_tree)
{
	for (int child_first = 0; child_first < 2; child_first++) {
		graph g;
		begin(&g, 0);
		root(&g, OID(child_first ? 1 : 0), PROFDATA_ROOT_JNI_GLOBAL);
		root(&g, OID(child_first ? 0 : 1), PROFDATA_ROOT_JNI_GLOBAL);
		instance(&g, 0, NODE, OID(1), OID(2));
		instance(&g, 1, NODE, OID(3), 0);
		instance(&g, 2, NODE, 0, 0);
		instance(&g, 3, NODE, 0, 0);
		profdata_heap *h = finish(&g);
		uint64_t own = size_of(&g, 0) + size_of(&g, 2), child = size_of(&g, 1) + size_of(&g, 3);
		ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 1)), child);
		ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 0)), child_first ? own + child : own);
		profdata_heap_free(h);
		profdata_profile_free(g.p);
	}
}
END_TEST

/*
 * What keeps an object from being a tree object though its references look
 * like one: a reference to itself (array 1), or a referent VisualVM's search
 * never reached (the weak reference 4, whose referent 5 only it holds).
 * Neither then adds the root Node 2 it also holds.
 */
START_TEST(a_self_reference_or_a_lost_referent_makes_no_tree)
{
	graph g;
	begin(&g, 0);
	root(&g, OID(0), PROFDATA_ROOT_JAVA_FRAME);
	root(&g, OID(2), PROFDATA_ROOT_JNI_GLOBAL);
	root(&g, OID(6), PROFDATA_ROOT_JAVA_FRAME);
	uint64_t top[1] = { OID(1) }, held[3] = { OID(2), OID(3), OID(1) }, top2[2] = { OID(4), OID(7) };
	array(&g, 0, top, 1);
	array(&g, 1, held, 3);
	instance(&g, 2, NODE, 0, 0);
	instance(&g, 3, NODE, 0, 0);
	instance(&g, 4, WEAK, OID(5), OID(8));
	instance(&g, 5, NODE, 0, 0);
	array(&g, 6, top2, 2);
	root(&g, OID(7), PROFDATA_ROOT_JNI_GLOBAL);
	instance(&g, 7, NODE, 0, 0);
	instance(&g, 8, NODE, 0, 0);
	profdata_heap *h = finish(&g);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 1)), size_of(&g, 1) + size_of(&g, 3));
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 4)), size_of(&g, 4) + size_of(&g, 8));
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 6)), size_of(&g, 6) + size_of(&g, 4) + size_of(&g, 8));
	ck_assert_int_eq(profdata_heap_reachable(h, at(&g, 5)), 0);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

/*
 * ART's and Dalvik's root kinds hold their objects, HEAP DUMP INFO changes
 * nothing, and an UNREACHABLE record (0x90) names no GC root: VisualVM's
 * root table leaves it out (tests/interop/hprof-art-layout.py --unreachable).
 */
START_TEST(an_unreachable_record_names_no_root)
{
	/* A's UNREACHABLE record comes before its root, B's and X's are their only records */
	static const int records[][2] = { { 0, PROFDATA_ROOT_UNREACHABLE }, { 1, PROFDATA_ROOT_UNREACHABLE },
		                          { 0, PROFDATA_ROOT_JAVA_FRAME }, { 3, PROFDATA_ROOT_UNREACHABLE },
		                          { 4, PROFDATA_ROOT_VM_INTERNAL } };
	graph g;
	begin(&g, 0);
	for (size_t k = 0; k < sizeof(records) / sizeof(records[0]); k++)
		root(&g, OID((uint64_t)records[k][0]), records[k][1]);
	profdata_heap_info info = { 'Z', 0 };
	ck_assert_int_eq(g.ev->heap_info(g.p, &info), 0);
	instance(&g, 0, NODE, OID(1), 0); /* A -> B -> C */
	instance(&g, 1, NODE, OID(2), 0);
	info.heap_id = 'A';
	ck_assert_int_eq(g.ev->heap_info(g.p, &info), 0);
	instance(&g, 2, NODE, 0, 0);
	instance(&g, 3, NODE, 0, 0);       /* X: only an UNREACHABLE record names it */
	instance(&g, 4, NODE, OID(5), 0);  /* Y (VM internal) -> Z */
	instance(&g, 5, NODE, 0, 0);
	profdata_heap *h = finish(&g);
	uint64_t s = size_of(&g, 0);
	ck_assert_uint_eq(profdata_heap_unreachable_count(h), 1);
	ck_assert_int_eq(profdata_heap_reachable(h, at(&g, 3)), 0);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 0)), 3 * s);
	ck_assert_uint_eq(profdata_heap_retained(h, at(&g, 1)), 2 * s);
	assert_idom(&g, h, 1, 0);
	assert_idom(&g, h, 5, 4);
	profdata_heap_step st[3];
	ck_assert_int_eq(path_steps(h, at(&g, 2), st, 3), 3);
	ck_assert_uint_eq(st[0].node, at(&g, 0));
	ck_assert_int_eq(st[0].root_kind, PROFDATA_ROOT_JAVA_FRAME);
	ck_assert_int_eq(path_steps(h, at(&g, 5), st, 3), 2);
	ck_assert_int_eq(st[0].root_kind, PROFDATA_ROOT_VM_INTERNAL);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

START_TEST(paths_name_fields_indexes_and_statics)
{
	graph g;
	begin(&g, OID(5));
	root(&g, OID(0), PROFDATA_ROOT_THREAD_OBJECT);
	root(&g, NODE, PROFDATA_ROOT_STICKY_CLASS);
	instance(&g, 0, NODE, 0, OID(1));     /* A.other -> array */
	uint64_t elems[] = { 0, 0, OID(2) };
	array(&g, 1, elems, 3);               /* array[2] -> C */
	instance(&g, 2, NODE, 0, 0);
	instance(&g, 5, NODE, OID(2), 0);     /* Node.cache -> S, S.next -> C as well */
	profdata_heap *h = finish(&g);
	profdata_heap_step st[4];
	ck_assert_int_eq(path_steps(h, at(&g, 2), st, 4), 3);
	ck_assert_uint_eq(st[0].node, at(&g, 0));
	ck_assert_int_eq(st[0].root_kind, PROFDATA_ROOT_THREAD_OBJECT);
	ck_assert_uint_eq(st[1].node, at(&g, 1));
	ck_assert_str_eq(st[1].field, "other");
	ck_assert_uint_eq(st[2].node, at(&g, 2));
	ck_assert_int_eq(st[2].index, 2);
	ck_assert_ptr_null(st[2].field);
	/* the static: from the sticky class's object */
	size_t node_row, cls;
	ck_assert_int_eq(profdata_profile_find_class(g.p, NODE, &node_row), 0);
	ck_assert_int_eq(path_steps(h, at(&g, 5), st, 4), 2);
	ck_assert_int_eq(profdata_heap_node_class(h, st[0].node, &cls), 1);
	ck_assert_uint_eq(cls, node_row);
	ck_assert_int_eq(st[0].root_kind, PROFDATA_ROOT_STICKY_CLASS);
	ck_assert_str_eq(st[1].field, "cache");
	/* C is held by A's array and by S: only the roots dominate it; S is the class's */
	assert_idom(&g, h, 2, -1);
	size_t d;
	ck_assert_int_eq(profdata_heap_dominator_of(&d, h, at(&g, 5)), 0);
	ck_assert_uint_eq(d, profdata_heap_class_node(h, node_row));
	/* a class object adds nothing of its own (VisualVM), only what it holds */
	ck_assert_uint_eq(profdata_heap_retained(h, d), size_of(&g, 5));
	ck_assert_uint_eq(profdata_heap_size(h, d), 0); /* no java.lang.Class in this dump to size it by */
	assert_graph_only_agrees(g.p, h, 0, 1);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

/* Counts its calls in *payload, and returns `rc` in phase `phase`. */
typedef struct stopper {
	int calls, rc;
	const char *phase;
} stopper;

static int stop_in_phase(void *payload, const char *phase, uint64_t done, uint64_t total)
{
	stopper *st = payload;
	(void)done;
	(void)total;
	st->calls++;
	return strcmp(phase, st->phase) == 0 ? st->rc : 0;
}

/* One reachable Node: the smallest dump there is. */
static profdata_profile *one_object(void)
{
	graph g;
	begin(&g, 0);
	root(&g, OID(0), PROFDATA_ROOT_JAVA_FRAME);
	instance(&g, 0, NODE, 0, 0);
	ck_assert_int_eq(g.ev->dump_end(g.p), 0);
	ck_assert_int_eq(g.ev->end(g.p), 0);
	return g.p;
}

/* A failed analysis: the heap holds `code` and a message that contains `words`. */
static void assert_failed(profdata_heap *h, int code, const char *words)
{
	ck_assert_ptr_nonnull(h);
	const profdata_error *e = profdata_heap_error(h);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->code, code);
	ck_assert_msg(strstr(e->message, words) != NULL, "\"%s\" does not say \"%s\"", e->message, words);
	profdata_heap_free(h);
}

START_TEST(progress_can_stop_the_work_and_says_where)
{
	profdata_profile *p = one_object();
	stopper st = { 0, 1, "retained" };
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	o.progress = stop_in_phase;
	o.payload = &st;
	profdata_heap *h;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), PROFDATA_STOPPED);
	ck_assert_int_ge(st.calls, 1);
	assert_failed(h, PROFDATA_STOPPED, "phase retained");

	/* A code of the callback's own comes back as it was, PROFDATA_EUSER's range and all. */
	st.rc = PROFDATA_EUSER - 7;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), PROFDATA_EUSER - 7);
	assert_failed(h, PROFDATA_EUSER - 7, "stopped by the progress callback");
	ck_assert_str_eq(profdata_strerror(PROFDATA_EUSER - 7), "a callback's own error");
	profdata_profile_free(p);
}
END_TEST

/* A copy of n entries of a heap's table, to compare with it later. */
static pd_hnode *copy_table(const pd_hnode *table, size_t n)
{
	pd_hnode *c = malloc(n * sizeof *c);
	ck_assert_ptr_nonnull(c);
	memcpy(c, table, n * sizeof *c);
	return c;
}

/*
 * The retained histogram's walk reports every 2^20 objects and borrows the
 * heap's tables (num, idom): stopped there, it must still give them back
 * entry for entry, and a second call must compute the histogram and give
 * them back too. The dump is a comb (each object of a long chain holds a
 * leaf of its own, so the tree has siblings), one leaf is also a root, and
 * a few objects are unreachable.
 */
START_TEST(a_stop_in_the_histogram_leaves_the_heap_whole)
{
	enum { C = (1 << 19) + 8, UNREACHABLE = 10 };
	graph g;
	begin(&g, 0);
	root(&g, OID(0), PROFDATA_ROOT_JNI_GLOBAL);
	root(&g, OID(C + C / 2), PROFDATA_ROOT_JAVA_FRAME);
	for (uint64_t n = 0; n < C; n++)
		instance(&g, n, NODE, n + 1 < C ? OID(n + 1) : 0, OID(C + n));
	for (uint64_t n = C; n < 2 * C; n++)
		instance(&g, n, NODE, 0, 0);
	for (uint64_t n = 2 * C; n < 2 * C + UNREACHABLE; n++)
		instance(&g, n, NODE, OID(C + n - 2 * C), 0); /* their leaves: the roots' alone (VisualVM) */
	ck_assert_int_eq(g.ev->dump_end(g.p), 0);
	ck_assert_int_eq(g.ev->end(g.p), 0);
	stopper st = { 0, 1, "classes" };
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	o.progress = stop_in_phase;
	o.payload = &st;
	profdata_heap *h;
	ck_assert_int_eq(profdata_heap_new(&h, g.p, &o), 0);
	ck_assert_uint_eq(h->m, 2 * C + 1); /* and the class object of Node */
	pd_hnode *num = copy_table(h->num, (size_t)h->g.nodes + 1), *idom = copy_table(h->idom, (size_t)h->m + 1);
	size_t node_row;
	uint64_t bytes = 7, s = size_of(&g, 0);
	ck_assert_int_eq(profdata_profile_find_class(g.p, NODE, &node_row), 0);
	ck_assert_int_eq(profdata_heap_retained_by_class(&bytes, h, node_row), PROFDATA_STOPPED);
	ck_assert_ptr_nonnull(strstr(profdata_heap_error(h)->message, "phase classes"));
	ck_assert_int_eq(memcmp(num, h->num, ((size_t)h->g.nodes + 1) * sizeof *num), 0);
	ck_assert_int_eq(memcmp(idom, h->idom, ((size_t)h->m + 1) * sizeof *idom), 0);
	st.rc = 0;
	ck_assert_int_eq(profdata_heap_retained_by_class(&bytes, h, node_row), 0);
	profdata_heap *fresh;
	uint64_t want;
	ck_assert_int_eq(profdata_heap_new(&fresh, g.p, NULL), 0);
	ck_assert_int_eq(profdata_heap_retained_by_class(&want, fresh, node_row), 0);
	ck_assert_uint_eq(bytes, want);
	ck_assert_uint_ge(want, (uint64_t)2 * C * s); /* the chain's head and the leaves it does not hold */
	profdata_heap_free(fresh);
	ck_assert_int_eq(memcmp(num, h->num, ((size_t)h->g.nodes + 1) * sizeof *num), 0);
	ck_assert_int_eq(memcmp(idom, h->idom, ((size_t)h->m + 1) * sizeof *idom), 0);
	assert_idom(&g, h, C + C / 2, -1);
	assert_idom(&g, h, C + 1, -1); /* a leaf an unreachable object refers to */
	assert_idom(&g, h, C + 20, 20);
	assert_idom(&g, h, C - 1, C - 2);
	free(num);
	free(idom);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

START_TEST(failures_leave_a_message_on_the_heap)
{
	profdata_profile *p = one_object();
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	o.dump = 1;
	profdata_heap *h;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), PROFDATA_ENOTFOUND);
	assert_failed(h, PROFDATA_ENOTFOUND, "no dump 1");
	o.dump = 0;
	o.version = PROFDATA_HEAP_OPTIONS_VERSION + 1;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), PROFDATA_EINVAL);
	assert_failed(h, PROFDATA_EINVAL, "version");
	o.version = 0;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), PROFDATA_EINVAL);
	assert_failed(h, PROFDATA_EINVAL, "version");

	/* A path: to a node that is not in the dump, and to one that is. */
	ck_assert_int_eq(profdata_heap_new(&h, p, NULL), 0);
	profdata_heap_root_path *path;
	ck_assert_int_eq(profdata_heap_root_path_new(&path, h, 99, NULL, NULL), PROFDATA_ENOTFOUND);
	ck_assert_ptr_nonnull(path);
	ck_assert_int_eq(profdata_heap_root_path_error(path)->code, PROFDATA_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(profdata_heap_root_path_error(path)->message, "node 99"));
	ck_assert_uint_eq(profdata_heap_root_path_length(path), 0);
	profdata_heap_root_path_free(path);
	profdata_heap_root_path_free(NULL);
	/* Lookups answer PROFDATA_ENOTFOUND and write nothing to the heap. */
	size_t d = 7;
	uint64_t bytes = 7;
	ck_assert_int_eq(profdata_heap_dominator_of(&d, h, 99), PROFDATA_ENOTFOUND);
	ck_assert_int_eq(profdata_heap_retained_by_class(&bytes, h, 99), PROFDATA_ENOTFOUND);
	ck_assert_uint_eq(bytes, 0);
	ck_assert_int_eq(profdata_heap_retained_by_array_type(&bytes, h, -1), PROFDATA_ENOTFOUND);
	ck_assert_ptr_null(profdata_heap_error(h));
	profdata_heap_free(h);
	profdata_profile_free(p);
}
END_TEST

/*
 * The node numbers have the width this file was built with: the suite runs
 * at both (tests/meson.build). No machine here holds a dump past 2^31 - 2
 * objects and classes, so the graph is asked about a dump whose object count
 * says it is one: at 64 bits it is taken (the graph allocates nothing per
 * object), at 32 it is refused, and the heap says why.
 */
START_TEST(node_numbers_have_the_width_they_were_built_with)
{
	ck_assert_uint_eq(sizeof(pd_hnode) * 8, PD_HEAP_WIDTH);
	ck_assert(PD_HEAP_NONE == (pd_hnode)-1);
	ck_assert(PD_HEAP_FLAG == (pd_hnode)1 << (PD_HEAP_WIDTH - 1));
	ck_assert(PD_HEAP_NUMBER == PD_HEAP_FLAG - 1 && PD_HEAP_MAX_NODES == PD_HEAP_NUMBER - 1);
	/* heap_widths.c picks 64 bits at the very count where the 32-bit graph refuses a dump */
	ck_assert(PD_HEAP_WIDTH == 64 || PD_HEAP_MAX_NODES == PD_HEAP_MAX_NODES_32);
	profdata_profile *p = one_object();
	size_t nobjects = p->dumps.v[0].nobjects, past = (size_t)INT32_MAX + 1;
	p->dumps.v[0].nobjects = past;
	pd_heap_graph g;
	int e = pd_heap_graph_init(&g, p, 0);
#if PD_HEAP_WIDTH == 64
	ck_assert_int_eq(e, 0);
	ck_assert_uint_eq(g.n, past);
	ck_assert_uint_eq(g.nodes, past + p->classes.n);
	ck_assert((g.nodes & PD_HEAP_FLAG) == 0);
	pd_heap_graph_free(&g);
#else
	ck_assert_int_eq(e, PROFDATA_EINVAL);
	pd_heap_graph_free(&g);
	profdata_heap *h;
	ck_assert_int_eq(profdata_heap_new(&h, p, NULL), PROFDATA_EINVAL);
	assert_failed(h, PROFDATA_EINVAL, "fewer than 2147483646 in all");
#endif
	p->dumps.v[0].nobjects = nobjects;
	profdata_profile_free(p);
}
END_TEST

START_TEST(heap_options_grow_by_version)
{
	/* _init zeroes what it is given and sets the newest version that fits. */
	unsigned char buf[sizeof(profdata_heap_options) + 16];
	memset(buf, 0xA5, sizeof buf);
	profdata_heap_options *o = (profdata_heap_options *)(void *)buf;
	ck_assert_int_eq(profdata_heap_options_init(o, offsetof(profdata_heap_options, payload) + sizeof(void *) - 1),
	                 PROFDATA_EINVAL); /* below version 1's */
	for (size_t i = 0; i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0xA5);
	ck_assert_int_eq(profdata_heap_options_init(o, sizeof buf), 0);
	ck_assert_uint_eq(o->version, PROFDATA_HEAP_OPTIONS_VERSION);
	profdata_heap_options init = PROFDATA_HEAP_OPTIONS_INIT;
	ck_assert_int_eq(o->dump, init.dump);
	ck_assert_ptr_null(o->progress);
	ck_assert_ptr_null(o->payload);
	for (size_t i = offsetof(profdata_heap_options, dump); i < sizeof buf; i++)
		ck_assert_uint_eq(buf[i], 0);
	ck_assert_int_eq(profdata_heap_options_init(NULL, sizeof init), PROFDATA_EINVAL);

	/* And the read and write options, by the same rule. */
	profdata_read_options ro;
	profdata_write_options wo;
	memset(&ro, 0xA5, sizeof ro);
	memset(&wo, 0xA5, sizeof wo);
	ck_assert_int_eq(profdata_read_options_init(&ro, sizeof ro), 0);
	ck_assert_int_eq(profdata_write_options_init(&wo, sizeof wo), 0);
	ck_assert_uint_eq(ro.version, PROFDATA_READ_OPTIONS_VERSION);
	ck_assert_uint_eq(wo.version, PROFDATA_WRITE_OPTIONS_VERSION);
	ck_assert(ro.format == NULL && ro.options == NULL && ro.mode == PROFDATA_MODE_PERMISSIVE);
	ck_assert(wo.format == NULL && wo.options == NULL);
	ck_assert_int_eq(profdata_read_options_init(&ro, sizeof(unsigned)), PROFDATA_EINVAL);
}
END_TEST

/*
 * Random graphs (cycles, shared targets, unreachable referrers) against
 * dominators computed the slow way: dom(v) = {v} + the intersection of
 * dom(p) over v's predecessors, iterated to a fixpoint over bit sets, a
 * root target's and a target of an unreachable object's being {v}.
 */
enum { RN = 600, RW = (RN + 63) / 64 };

static void slow_dominators(const int (*succ)[5], const int *nsucc, const int *is_root, const int *reach,
                            uint64_t (*dom)[RW])
{
	for (int v = 0; v < RN; v++)
		for (int w = 0; w < RW; w++)
			dom[v][w] = ~(uint64_t)0;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int v = 0; v < RN; v++) {
			if (!reach[v])
				continue;
			uint64_t next[RW];
			int from_root = is_root[v];
			for (int w = 0; w < RW; w++)
				next[w] = ~(uint64_t)0;
			for (int u = 0; u < RN; u++)
				for (int k = 0; k < nsucc[u]; k++) {
					if (succ[u][k] != v)
						continue;
					if (!reach[u])
						from_root = 1;
					else
						for (int w = 0; w < RW; w++)
							next[w] &= dom[u][w];
				}
			for (int w = 0; w < RW; w++)
				next[w] = from_root ? 0 : next[w];
			next[v / 64] |= (uint64_t)1 << (v % 64);
			if (memcmp(next, dom[v], sizeof(next)) != 0) {
				memcpy(dom[v], next, sizeof(next));
				changed = 1;
			}
		}
	}
}

static int slow_idom(uint64_t (*dom)[RW], int v)
{
	int best = -1, best_count = -1;
	for (int d = 0; d < RN; d++) {
		if (d == v || !(dom[v][d / 64] >> (d % 64) & 1))
			continue;
		int count = 0;
		for (int w = 0; w < RW; w++)
			count += __builtin_popcountll(dom[d][w]);
		if (count > best_count)
			best = d, best_count = count;
	}
	return best;
}

static void reach_from(const int (*succ)[5], const int *nsucc, const int *is_root, int *reach)
{
	int *stack = malloc(RN * sizeof(*stack)), depth = 0;
	for (int v = 0; v < RN; v++)
		if ((reach[v] = is_root[v]) != 0)
			stack[depth++] = v;
	while (depth) {
		int u = stack[--depth];
		for (int k = 0; k < nsucc[u]; k++)
			if (!reach[succ[u][k]])
				reach[succ[u][k]] = 1, stack[depth++] = succ[u][k];
	}
	free(stack);
}

static void assert_dominators(const graph *g, const profdata_heap *h, const int *reach, const int *idom)
{
	for (int v = 0; v < RN; v++) {
		ck_assert_int_eq(profdata_heap_reachable(h, at(g, (uint64_t)v)), reach[v]);
		if (reach[v])
			assert_idom(g, h, (uint64_t)v, idom[v]);
	}
}

/*
 * The retained histogram's row of class `cls` (whose objects are those with
 * is_array[v] == array) the slow way: the retained sizes of its reachable
 * instances that no instance of it dominates.
 */
static void assert_class_retained(const graph *g, profdata_heap *h, const int *reach, const int *idom,
                                  const int *is_array, uint64_t cls, int array)
{
	uint64_t want = 0;
	int counted = 0;
	for (int v = 0; v < RN; v++) {
		if (!reach[v] || is_array[v] != array)
			continue;
		int d = idom[v];
		while (d >= 0 && is_array[d] != array)
			d = idom[d];
		if (d < 0)
			want += profdata_heap_retained(h, at(g, (uint64_t)v)), counted++;
	}
	ck_assert_int_gt(counted, 0);
	size_t row;
	uint64_t got;
	ck_assert_int_eq(profdata_profile_find_class(g->p, cls, &row), 0);
	ck_assert_int_eq(profdata_heap_retained_by_class(&got, h, row), 0);
	ck_assert_uint_eq(got, want);
}

START_TEST(random_graphs_match_the_slow_way)
{
	static int succ[RN][5], nsucc[RN], is_root[RN], reach[RN], is_array[RN];
	static uint64_t dom[RN][RW];
	unsigned seed = 12345u + (unsigned)_i;
	/*
	 * Dense graphs and tree-like ones: the references to shared objects
	 * outnumber the objects, or fit the analysis' third array, or fit it
	 * three times over (the three ways dominators.c makes its lists).
	 */
	static const int nears[3] = { 70, 45, 0 }, fars[3] = { 15, 6, 8 }, root_every[3] = { 97, 23, 97 };
	int near = nears[_i % 3], far = fars[_i % 3], tree = _i % 3 == 2;
	for (int v = 0; v < RN; v++) {
		seed = seed * 1103515245u + 12345u;
		nsucc[v] = (int)(seed >> 16) % 6 == 5 ? 5 : 2; /* arrays of 5, nodes of 2 */
		is_root[v] = (int)((seed >> 8) % (unsigned)root_every[_i % 3]) == 0 || v == 0;
		for (int k = 0; k < nsucc[v]; k++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly forward, close by: long paths; some back edges and far jumps; nulls */
			int r = (int)(seed >> 12) % 100;
			succ[v][k] = r < near ? (v + 1 + (int)(seed >> 20) % 5) % RN : r < near + far ? (int)(seed >> 16) % RN : -1;
			if (tree && k < 2 && r >= far) /* a binary tree, a few more references across it */
				succ[v][k] = 2 * v + 1 + k < RN ? 2 * v + 1 + k : -1;
		}
	}
	graph g;
	begin(&g, 0);
	for (int v = 0; v < RN; v++)
		if (is_root[v])
			root(&g, OID(v), PROFDATA_ROOT_JAVA_FRAME);
	/* Odd loops write the objects last first: ids descending with the file, the index maps ranks to rows
	 * and the walk resolves slots ahead (dominators.c). */
	for (int j = 0; j < RN; j++) {
		int v = _i % 2 ? RN - 1 - j : j;
		uint64_t ids[5] = { 0 };
		int n = 0;
		for (int k = 0; k < nsucc[v]; k++)
			ids[k] = succ[v][k] >= 0 ? OID(succ[v][k]) : 0;
		for (int k = 0; k < nsucc[v]; k++)
			if (succ[v][k] >= 0)
				succ[v][n++] = succ[v][k];
		is_array[v] = nsucc[v] == 5;
		if (is_array[v])
			array(&g, (uint64_t)v, ids, 5);
		else
			instance(&g, (uint64_t)v, NODE, ids[0], ids[1]);
		nsucc[v] = n;
	}
	profdata_heap *h = finish(&g);
	reach_from(succ, nsucc, is_root, reach);
	slow_dominators(succ, nsucc, is_root, reach, dom);
	static int idom[RN];
	for (int v = 0; v < RN; v++)
		idom[v] = reach[v] ? slow_idom(dom, v) : -1;
	assert_dominators(&g, h, reach, idom);
	int nreach = 0, deep = 0;
	for (int v = 0; v < RN; v++)
		nreach += reach[v], deep += reach[v] && idom[v] >= 0;
	ck_assert_int_gt(deep, RN / 8); /* a test of something: many objects have an object as dominator */
	ck_assert_int_lt(nreach, RN);   /* and some are unreachable */
	/* The retained histogram's walk borrows num's and idom's memory: they must come back as they were. */
	assert_class_retained(&g, h, reach, idom, is_array, NODE, 0);
	assert_class_retained(&g, h, reach, idom, is_array, ARRAY, 1);
	assert_dominators(&g, h, reach, idom);
	assert_graph_only_agrees(g.p, h, 0, 1);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

/* jdk17-minimal's model in *p and its whole analysis. */
static profdata_heap *minimal_heap(profdata_profile **p)
{
	char path[4096];
	*p = test_read(test_data_path(path, sizeof(path), "hprof/jdk17-minimal.hprof"), NULL, PROFDATA_MODE_STRICT);
	profdata_heap *h;
	ck_assert_int_eq(profdata_heap_new(&h, *p, NULL), 0);
	return h;
}

/* What the batches of one heap held. */
typedef struct batch_counts {
	size_t weak, classes, longest;
} batch_counts;

/* The batched reader gives every non-null slot of every node, in node and slot order, as pd_heap_slots_of does. */
static batch_counts assert_batches_match(const profdata_heap *h)
{
	const pd_heap_graph *g = &h->g;
	batch_counts c = { 0, 0, 0 };
	pd_heap_refs r;
	pd_heap_refs_start(&r, 0, g->nodes);
	pd_heap_refs_next(g, &r);
	size_t at = 0;
	for (pd_hnode i = 0; i < g->nodes; i++) {
		pd_heap_slots s;
		pd_heap_slots_of(g, i, &s);
		c.longest = s.n > c.longest ? s.n : c.longest;
		for (size_t k = 0; k < s.n; k++) {
			if (!(s.class_id && k == s.n - 1) && !pd_heap_slot_id(&s, k))
				continue;
			if (at == r.n) {
				pd_heap_refs_next(g, &r);
				at = 0;
			}
			ck_assert_uint_gt(r.n, at);
			ck_assert_uint_eq(r.from[at], i);
			ck_assert_uint_eq(r.to[at], pd_heap_slot_target(g, &s, k));
			ck_assert_int_eq(!!(r.kind[at] & PD_HEAP_REF_WEAK), k == s.weak);
			c.weak += k == s.weak;
			c.classes += !!(r.kind[at] & PD_HEAP_REF_CLASS);
			at++;
		}
	}
	ck_assert_uint_eq(at, r.n);
	pd_heap_refs_next(g, &r);
	ck_assert_uint_eq(r.n, 0);
	return c;
}

/*
 * The batched reader (heap_refs.h) gives the targets, weak marks and class
 * connections node-by-node reading gives: on a JDK dump (arrays longer than
 * a batch, Reference subclasses) and on a class connection.
 */
START_TEST(batched_references_are_the_slots_node_by_node)
{
	profdata_profile *p;
	profdata_heap *h = minimal_heap(&p);
	batch_counts c = assert_batches_match(h);
	ck_assert_uint_gt(c.longest, PD_HEAP_BATCH); /* a test of something: each case is met */
	ck_assert_uint_gt(c.weak, 0);
	profdata_heap_free(h);
	profdata_profile_free(p);
	graph g;
	begin(&g, OID(2));
	root(&g, OID(0), PROFDATA_ROOT_JAVA_FRAME);
	uint64_t elems[1] = { OID(1) };
	array(&g, 0, elems, 1); /* the graph of the_first_instance_of_a_class_connects_its_class_object */
	instance(&g, 1, NODE, 0, 0);
	instance(&g, 2, NODE, 0, 0);
	h = finish(&g);
	c = assert_batches_match(h);
	ck_assert_uint_eq(c.classes, 1);
	profdata_heap_free(h);
	profdata_profile_free(g.p);
}
END_TEST

/* The fixtures: what VisualVM reports for them is checked by tests/interop/heap-visualvm.sh; here, invariants. */
START_TEST(fixture_invariants)
{
	profdata_profile *p;
	profdata_heap *h = minimal_heap(&p);
	size_t first, count, top[50], n;
	profdata_heap_objects(h, &first, &count);
	ck_assert_uint_eq(count, profdata_profile_count(p, PROFDATA_TABLE_OBJECTS));
	uint64_t shallow = 0;
	for (size_t i = 0; i < count; i++)
		shallow += profdata_profile_object_size(p, i);
	ck_assert_uint_eq(profdata_heap_reachable_bytes(h) + profdata_heap_unreachable_bytes(h), shallow);
	ck_assert_int_eq(profdata_heap_top_nodes(top, &n, h, 50), 0);
	ck_assert_uint_eq(n, 50);
	for (size_t k = 1; k < n; k++)
		ck_assert_uint_ge(profdata_heap_retained(h, top[k - 1]), profdata_heap_retained(h, top[k]));
	/* every path ends at its object and starts at a root */
	for (size_t k = 0; k < n; k++) {
		profdata_heap_step st[64];
		long len = path_steps(h, top[k], st, 64);
		ck_assert_int_gt(len, 0);
		ck_assert_int_le(len, 64);
		ck_assert_uint_eq(st[len - 1].node, top[k]);
		ck_assert_int_ge(st[0].root_kind, 1);
	}
	profdata_heap_free(h);
	profdata_profile_free(p);
}
END_TEST

/* The index in nodes[0 .. n) of `node`, or n. */
static size_t index_of(const size_t *nodes, size_t n, size_t node)
{
	size_t k = 0;
	while (k < n && nodes[k] != node)
		k++;
	return k;
}

/* The tree's top: top_nodes()'s nodes, each after and linked to its nearest dominator among them. */
START_TEST(the_tree_top_links_each_node_to_its_nearest_chosen_dominator)
{
	profdata_profile *p;
	profdata_heap *h = minimal_heap(&p);
	enum { WANT = 300 };
	size_t top[WANT], ntop, nodes[WANT], parent[WANT], n;
	ck_assert_int_eq(profdata_heap_top_nodes(top, &ntop, h, WANT), 0);
	ck_assert_int_eq(profdata_heap_tree_top(nodes, parent, &n, h, WANT), 0);
	ck_assert_uint_eq(n, ntop);
	for (size_t k = 0; k < n; k++) {
		ck_assert_uint_lt(index_of(top, ntop, nodes[k]), ntop);
		size_t up = nodes[k], want = PROFDATA_HEAP_ROOTS;
		while (want == PROFDATA_HEAP_ROOTS && profdata_heap_dominator_of(&up, h, up) == 0 && up != PROFDATA_HEAP_ROOTS)
			if (index_of(nodes, n, up) < n)
				want = index_of(nodes, n, up);
		ck_assert_uint_eq(parent[k], want);
		ck_assert(want == PROFDATA_HEAP_ROOTS || want < k);
	}
	profdata_heap_free(h);
	ck_assert_int_eq(profdata_heap_tree_top(nodes, parent, &n, h = graph_only_heap(p, 0), WANT), PROFDATA_EINVAL);
	ck_assert_uint_eq(n, 0);
	profdata_heap_free(h);
	profdata_profile_free(p);
}
END_TEST

/*
 * Paths from a heap of the graph only equal the whole analysis' on every
 * fixture of tests/data/hprof and every HPROF file of the corpus (when
 * there is one), in each dump, for about 600 nodes each and the 20 biggest.
 */
static const char *const path_fixtures[] = {
	"hprof/jdk17-loaders.hprof", "hprof/jdk17-minimal.hprof", "hprof/jdk17-threads.hprof",
	"hprof/jdk17-types.hprof", "hprof/jdk17-types-nocoops.hprof.gz", "hprof/synthetic/agent-1.0.1-id4.hprof",
	"hprof/synthetic/android-1.0.3-tiny-segments.hprof", "hprof/synthetic/multi-dump-1.0.2-id8.hprof",
	"corpus:hprof/hprof-slurp_hprof-32.bin", "corpus:hprof/hprof-slurp_hprof-64.bin",
};

START_TEST(graph_only_paths_equal_the_whole_analysis)
{
	const char *name = path_fixtures[_i], *corpus = test_corpus_dir();
	char path[4096];
	if (strncmp(name, "corpus:", 7) == 0) {
		if (!corpus)
			return; /* no corpus here: the fixtures above stand */
		snprintf(path, sizeof path, "%s/%s", corpus, name + 7);
	} else {
		test_data_path(path, sizeof path, name);
	}
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	size_t nodes = profdata_profile_count(p, PROFDATA_TABLE_OBJECTS) + profdata_profile_count(p, PROFDATA_TABLE_CLASSES);
	for (long dump = 0; dump < (long)profdata_profile_count(p, PROFDATA_TABLE_DUMPS); dump++) {
		profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
		o.dump = dump;
		profdata_heap *whole;
		ck_assert_int_eq(profdata_heap_new(&whole, p, &o), 0);
		assert_graph_only_agrees(p, whole, dump, nodes / 600 + 1);
		profdata_heap_free(whole);
	}
	profdata_profile_free(p);
}
END_TEST

/* A heap of the graph only refuses what needs the dominator tree, with a message, and writes nothing. */
START_TEST(graph_only_refuses_dominators_and_retained_sizes)
{
	profdata_profile *p = one_object();
	profdata_heap *h = graph_only_heap(p, 0);
	size_t node = 0, d = 7, top[4], n = 7;
	uint64_t bytes = 7;
	const profdata_error *e = profdata_heap_error(h);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->code, PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(e->message, "graph_only"));
	ck_assert_ptr_nonnull(strstr(e->message, "no dominator tree"));
	ck_assert_int_eq(profdata_heap_dominator_of(&d, h, node), PROFDATA_EINVAL);
	ck_assert_uint_eq(d, 7);
	ck_assert_int_eq(profdata_heap_top_nodes(top, &n, h, 4), PROFDATA_EINVAL);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(profdata_heap_retained_by_class(&bytes, h, 0), PROFDATA_EINVAL);
	ck_assert_uint_eq(bytes, 0);
	bytes = 7;
	ck_assert_int_eq(profdata_heap_retained_by_array_type(&bytes, h, PROFDATA_TYPE_INT), PROFDATA_EINVAL);
	ck_assert_uint_eq(bytes, 0);
	ck_assert_uint_eq(profdata_heap_retained(h, node), 0);
	ck_assert_ptr_eq(profdata_heap_error(h), e); /* the refusals wrote nothing */
	/* What the graph tells it answers: the object is reachable, sized, a root's target. */
	ck_assert_uint_eq(profdata_heap_reachable_count(h), 2); /* and Node's class object, the class of a root */
	ck_assert_int_eq(profdata_heap_reachable(h, node), 1);
	ck_assert_uint_eq(profdata_heap_size(h, node), profdata_profile_object_size(p, node));
	profdata_heap_step st[2];
	ck_assert_int_eq(path_steps(h, node, st, 2), 1);
	ck_assert_int_eq(st[0].root_kind, PROFDATA_ROOT_JAVA_FRAME);
	profdata_heap_free(h);

	/* A failure of a graph-only analysis is the heap's error, as for the whole one. */
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	o.graph_only = 1;
	o.dump = 1;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), PROFDATA_ENOTFOUND);
	assert_failed(h, PROFDATA_ENOTFOUND, "no dump 1");
	profdata_profile_free(p);
}
END_TEST

/* Options of version 1 (no graph_only) and 2 (no node_bits) are still taken, and ask for the whole analysis. */
START_TEST(version_1_heap_options_still_work)
{
	profdata_profile *p = one_object();
	size_t v1 = offsetof(profdata_heap_options, payload) + sizeof(void *);
	profdata_heap_options o;
	memset(&o, 0xA5, sizeof o);
	ck_assert_int_eq(profdata_heap_options_init(&o, v1), 0);
	ck_assert_uint_eq(o.version, 1);
	ck_assert_int_ne(o.graph_only, 0); /* past version 1: untouched */
	profdata_heap *h;
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), 0); /* graph_only is not read: not version 1's */
	ck_assert_ptr_null(profdata_heap_error(h));
	size_t d;
	ck_assert_int_eq(profdata_heap_dominator_of(&d, h, 0), 0);
	ck_assert_uint_eq(d, PROFDATA_HEAP_ROOTS);
	ck_assert_uint_eq(profdata_heap_retained(h, 0), profdata_profile_object_size(p, 0));
	profdata_heap_free(h);
	/* Version 2 (no node_bits) leaves what follows it alone; version 3 is the whole struct. */
	memset(&o, 0xA5, sizeof o);
	ck_assert_int_eq(profdata_heap_options_init(&o, offsetof(profdata_heap_options, node_bits)), 0);
	ck_assert_uint_eq(o.version, 2);
	ck_assert_int_eq(o.graph_only, 0);
	ck_assert_uint_ne(o.node_bits, 0);
	ck_assert_int_eq(profdata_heap_new(&h, p, &o), 0); /* node_bits is not read: not version 2's */
	profdata_heap_free(h);
	ck_assert_int_eq(profdata_heap_options_init(&o, sizeof o), 0);
	ck_assert_uint_eq(o.version, 3);
	ck_assert_int_eq(o.graph_only, 0);
	ck_assert_uint_eq(o.node_bits, 0);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("analysis");
	TCase *tc = tcase_create("heap");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, diamond_and_cycle);
	tcase_add_test(tc, a_long_chain_needs_no_recursion);
	tcase_add_test(tc, references_from_unreachable_objects_count);
	tcase_add_test(tc, weak_referents_are_not_followed_phantom_ones_are);
	tcase_add_test(tc, the_first_instance_of_a_class_connects_its_class_object);
	tcase_add_test(tc, a_root_inside_a_tree_counts_there);
	tcase_add_test(tc, a_root_taken_before_its_child_root_stays_no_tree);
	tcase_add_test(tc, a_self_reference_or_a_lost_referent_makes_no_tree);
	tcase_add_test(tc, an_unreachable_record_names_no_root);
	tcase_add_test(tc, paths_name_fields_indexes_and_statics);
	tcase_add_test(tc, progress_can_stop_the_work_and_says_where);
	tcase_add_test(tc, failures_leave_a_message_on_the_heap);
	tcase_add_test(tc, node_numbers_have_the_width_they_were_built_with);
	tcase_add_test(tc, heap_options_grow_by_version);
	tcase_add_loop_test(tc, random_graphs_match_the_slow_way, 0, 8);
	tcase_add_test(tc, fixture_invariants);
	tcase_add_test(tc, batched_references_are_the_slots_node_by_node);
	tcase_add_test(tc, the_tree_top_links_each_node_to_its_nearest_chosen_dominator);
	tcase_add_loop_test(tc, graph_only_paths_equal_the_whole_analysis, 0,
	                    (int)(sizeof path_fixtures / sizeof path_fixtures[0]));
	tcase_add_test(tc, graph_only_refuses_dominators_and_retained_sizes);
	tcase_add_test(tc, version_1_heap_options_still_work);
	suite_add_tcase(s, tc);
	if (test_case_requested("big")) {
		tc = tcase_create("big");
		tcase_set_timeout(tc, 120);
		tcase_add_test(tc, a_stop_in_the_histogram_leaves_the_heap_whole);
		suite_add_tcase(s, tc);
	}
	return s;
}
