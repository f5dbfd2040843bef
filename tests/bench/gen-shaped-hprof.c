/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A heap dump of another shape than the JDK's, for tests/bench/run.sh: the
 * JDK writes objects in address order, with a few hundred classes; this
 * writes HPROF 1.0.2 directly, fast (tens of millions of objects in seconds),
 * with thousands of classes (inheritance, static fields), instances, object
 * and primitive arrays and strings whose ids are 8-byte aligned addresses in
 * no particular order, references forming trees with shared objects and
 * cycles, and GC roots of several kinds. Everything is derived from the
 * object's index and the seed, so the same arguments give the same bytes.
 *
 *   gen-shaped-hprof OUT [--objects N] [--classes N] [--seed N] [--segment-mb N]
 *
 * Defaults: 7,000,000 objects; 4,000 application classes (and an array
 * class for one in 16 of them) besides the JDK's few that readers look for;
 * seed 1; heap dump segments of 8 MiB.
 *
 * Object i of N (in file order) gets id HEAP + 8 * permute(i), a bijection
 * on the smallest power of two >= 2N. The first (N + 1) / 3 objects are the
 * inner nodes of a 3-ary tree (object i holds i*3+1 .. i*3+3 in its first
 * three reference slots); the other reference slots point to null, to one of
 * a few thousand popular objects (the last ones: leaves), back to the parent
 * (a cycle), to a grandchild (shared within a subtree), rarely to a
 * neighbour or anywhere: enough sharing that dominators are not the tree,
 * not so much that every object hangs from the root.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAN = 3, THREADS = 8, MAX_OWN = 6, MAX_STATIC = 4, SLACK = 1 << 16 };
enum hprof_type { T_OBJECT = 2, T_BOOLEAN = 4, T_CHAR, T_FLOAT, T_DOUBLE, T_BYTE, T_SHORT, T_INT, T_LONG };

/* The classes every dump has, in this order; the application's follow. */
enum base_class {
	C_OBJECT, C_CLASS, C_STRING, C_THREAD, C_REFERENCE, C_WEAK_REFERENCE, C_SOFT_REFERENCE,
	C_FINAL_REFERENCE, C_PHANTOM_REFERENCE,
	C_BOOLEAN_ARRAY, C_CHAR_ARRAY, C_FLOAT_ARRAY, C_DOUBLE_ARRAY,
	C_BYTE_ARRAY, C_SHORT_ARRAY, C_INT_ARRAY, C_LONG_ARRAY,
	C_OBJECT_ARRAY, C_STRING_ARRAY, BASE_CLASSES
};
static const char *const base_names[BASE_CLASSES] = {
	"java/lang/Object", "java/lang/Class", "java/lang/String", "java/lang/Thread",
	"java/lang/ref/Reference", "java/lang/ref/WeakReference", "java/lang/ref/SoftReference",
	"java/lang/ref/FinalReference", "java/lang/ref/PhantomReference",
	"[Z", "[C", "[F", "[D", "[B", "[S", "[I", "[J",
	"[Ljava/lang/Object;", "[Ljava/lang/String;",
};

/* Names that are not class names: symbol ids 1.. in this order. */
enum symbol {
	S_VALUE = 1, S_HASH, S_CODER, S_HASH_IS_ZERO, S_NAME, S_TARGET, S_LOCALS, S_TID,
	S_REFERENT, S_QUEUE, S_NEXT, S_DISCOVERED,
	S_RUN, S_WORK, S_VOID_SIG, S_SOURCE, S_FIELD0, S_STATIC0 = S_FIELD0 + MAX_OWN,
	SYMBOLS = S_STATIC0 + MAX_STATIC
};
static const char *const symbol_texts[SYMBOLS] = {
	"", "value", "hash", "coder", "hashIsZero", "name", "target", "threadLocals", "tid",
	"referent", "queue", "next", "discovered",
	"run", "work", "()V", "Shape.java", "f0", "f1", "f2", "f3", "f4", "f5", "s0", "s1", "s2", "s3",
};

static const uint64_t SYMBOL_BASE = 0x10000, CLASS_BASE = 0x100000000, HEAP_BASE = 0x700000000,
		      FRAME_BASE = 0x8000;

struct cls {
	int super; /* index in the class table, -1 for none */
	int own, statics;
	unsigned char own_type[MAX_OWN], own_name[MAX_OWN];
	unsigned char static_type[MAX_STATIC];
	uint32_t bytes; /* instance data, own and inherited fields */
	int refs;       /* reference fields, own and inherited */
};

struct gen {
	uint64_t n, inner, popular, seed, mask;
	unsigned bits;
	int classes; /* all of them: base, application, application arrays */
	int app_arrays; /* the application's array classes, at the end of the table */
	struct cls *cls;
	int *holders, nholders; /* classes with at least FAN reference fields */
	FILE *f;
	unsigned char *buf;
	size_t len, segment, segment_limit; /* segment: where the open segment's header is, or SIZE_MAX */
};

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

/* A bijection on [0, 2^bits): odd multipliers and xor-shifts, both invertible. */
static uint64_t permute(const struct gen *g, uint64_t x)
{
	unsigned s = g->bits / 2 + 1;
	x = (x * 0x9e3779b97f4a7c15u) & g->mask;
	x ^= x >> s;
	x = (x * 0xbf58476d1ce4e5b9u) & g->mask;
	x ^= x >> s;
	x = (x * 0x94d049bb133111ebu) & g->mask;
	return x ^ (x >> s);
}

static uint64_t obj_id(const struct gen *g, uint64_t i)
{
	return HEAP_BASE + 8 * permute(g, i);
}

/* One of the objects many others share: leaves (the last objects), as an
 * interned string or a constant is, so that sharing them leaves the tree's
 * dominators standing. */
static uint64_t popular(const struct gen *g, uint64_t h)
{
	return obj_id(g, g->n - 1 - h % g->popular);
}

static uint64_t class_id(int k)
{
	return CLASS_BASE + 0x1a8 * (uint64_t)k;
}

static uint64_t class_name_id(int k)
{
	return SYMBOL_BASE + 8 * (uint64_t)(SYMBOLS + k);
}

static void put1(struct gen *g, unsigned v)
{
	g->buf[g->len++] = (unsigned char)v;
}

static void put4(struct gen *g, uint32_t v)
{
	unsigned char *p = g->buf + g->len;
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
	g->len += 4;
}

static void put8(struct gen *g, uint64_t v)
{
	put4(g, (uint32_t)(v >> 32));
	put4(g, (uint32_t)v);
}

static void put_bytes(struct gen *g, const void *p, size_t n)
{
	memcpy(g->buf + g->len, p, n);
	g->len += n;
}

static int flush(struct gen *g)
{
	if (g->len && fwrite(g->buf, 1, g->len, g->f) != g->len)
		return -1;
	g->len = 0;
	return 0;
}

static void patch4(struct gen *g, size_t at, uint32_t v)
{
	size_t len = g->len;
	g->len = at;
	put4(g, v);
	g->len = len;
}

static void record(struct gen *g, unsigned tag, uint32_t length)
{
	put1(g, tag);
	put4(g, 0);
	put4(g, length);
}

static void close_segment(struct gen *g)
{
	if (g->segment == SIZE_MAX)
		return;
	patch4(g, g->segment + 5, (uint32_t)(g->len - g->segment - 9));
	g->segment = SIZE_MAX;
}

/* Room for one more record, in a heap dump segment when in_heap. */
static int room(struct gen *g, int in_heap)
{
	if (g->len < g->segment_limit) {
		if (in_heap && g->segment == SIZE_MAX) {
			g->segment = g->len;
			record(g, 0x1c, 0);
		}
		return 0;
	}
	close_segment(g);
	if (flush(g))
		return -1;
	return room(g, in_heap);
}

static unsigned type_size(unsigned type)
{
	static const unsigned char sizes[] = {0, 0, 8, 0, 1, 2, 4, 8, 1, 2, 4, 8};
	return sizes[type];
}

/* A primitive value of TYPE from the bits of H. */
static void put_value(struct gen *g, unsigned type, uint64_t h)
{
	switch (type_size(type)) {
	case 1:
		put1(g, type == T_BOOLEAN ? (unsigned)(h & 1) : (unsigned)h);
		break;
	case 2:
		put1(g, (unsigned)(h >> 8));
		put1(g, (unsigned)h);
		break;
	case 4:
		put4(g, (uint32_t)h);
		break;
	default:
		put8(g, h);
	}
}

static unsigned random_type(uint64_t h)
{
	static const unsigned char types[] = {T_OBJECT, T_OBJECT, T_OBJECT, T_INT, T_LONG, T_BOOLEAN,
					      T_BYTE, T_CHAR, T_SHORT, T_FLOAT, T_DOUBLE, T_INT};
	return types[h % sizeof(types)];
}

/* Where reference slot SLOT of object I points. */
static uint64_t ref_target(const struct gen *g, uint64_t i, unsigned slot)
{
	if (slot < FAN && i < g->inner) {
		uint64_t child = i * FAN + 1 + slot;
		return child < g->n ? obj_id(g, child) : 0;
	}
	uint64_t h = mix(g->seed ^ (i * 64 + slot) ^ 0x5bd1e995u);
	unsigned r = (unsigned)(h % 100);
	h >>= 8;
	if (r < 35)
		return 0;
	if (r < 57)
		return popular(g, h);
	if (r < 72 && i > 0)
		return obj_id(g, (i - 1) / FAN); /* back to the parent: a cycle */
	if (r < 99) { /* a grandchild: shared within the subtree the object dominates */
		uint64_t below = i * FAN * FAN + 1 + h % (FAN * FAN);
		return i < g->inner && below < g->n ? obj_id(g, below) : 0;
	}
	if (h % 2) {
		uint64_t near = i + h % 64;
		near = near < 32 ? 0 : near - 32;
		return obj_id(g, near < g->n ? near : g->n - 1);
	}
	return obj_id(g, h % g->n);
}

static void set_own(struct cls *c, int j, unsigned type, int name)
{
	c->own_type[j] = (unsigned char)type;
	c->own_name[j] = (unsigned char)name;
	c->own = j + 1;
}

static void base_classes(struct gen *g)
{
	for (int k = 0; k < BASE_CLASSES; k++)
		g->cls[k].super = k == C_OBJECT ? -1 : C_OBJECT;
	struct cls *s = &g->cls[C_STRING], *t = &g->cls[C_THREAD];
	set_own(s, 0, T_OBJECT, S_VALUE);
	set_own(s, 1, T_INT, S_HASH);
	set_own(s, 2, T_BYTE, S_CODER);
	set_own(s, 3, T_BOOLEAN, S_HASH_IS_ZERO);
	set_own(t, 0, T_OBJECT, S_NAME);
	set_own(t, 1, T_OBJECT, S_TARGET);
	set_own(t, 2, T_OBJECT, S_LOCALS);
	set_own(t, 3, T_LONG, S_TID);
	/* VisualVM's retained sizes need Reference.referent and its four kinds. */
	struct cls *r = &g->cls[C_REFERENCE];
	for (int j = 0; j < 4; j++)
		set_own(r, j, T_OBJECT, S_REFERENT + j);
	for (int k = C_WEAK_REFERENCE; k <= C_PHANTOM_REFERENCE; k++)
		g->cls[k].super = C_REFERENCE;
}

/* Application class A: every fourth holds at least FAN references of its own. */
static void app_class(struct gen *g, int a)
{
	struct cls *c = &g->cls[BASE_CLASSES + a];
	uint64_t h = mix(g->seed ^ ((uint64_t)a << 32));
	c->super = a == 0 || h % 4 == 0 ? C_OBJECT : BASE_CLASSES + (int)((h >> 8) % (uint64_t)a);
	int own = (int)((h >> 24) % (MAX_OWN + 1)), j = 0;
	if (a % 4 == 0)
		for (; j < FAN; j++)
			set_own(c, j, T_OBJECT, S_FIELD0 + j);
	for (; j < own; j++)
		set_own(c, j, random_type(mix(h + (uint64_t)j)), S_FIELD0 + j);
	c->statics = (int)((h >> 40) % (MAX_STATIC + 1));
	for (j = 0; j < c->statics; j++)
		c->static_type[j] = (unsigned char)random_type(mix(h ^ (uint64_t)(j + 16)));
}

/* The class table; a super class always comes before its subclasses. */
static int make_classes(struct gen *g, int apps)
{
	g->app_arrays = apps / 16;
	g->classes = BASE_CLASSES + apps + g->app_arrays;
	g->cls = calloc((size_t)g->classes, sizeof(*g->cls));
	g->holders = calloc((size_t)apps + 1, sizeof(*g->holders));
	if (!g->cls || !g->holders)
		return -1;
	base_classes(g);
	for (int a = 0; a < apps; a++)
		app_class(g, a);
	for (int k = BASE_CLASSES + apps; k < g->classes; k++)
		g->cls[k].super = C_OBJECT;
	for (int k = 0; k < g->classes; k++) {
		struct cls *c = &g->cls[k];
		if (c->super >= 0) {
			c->bytes = g->cls[c->super].bytes;
			c->refs = g->cls[c->super].refs;
		}
		for (int j = 0; j < c->own; j++) {
			c->bytes += type_size(c->own_type[j]);
			c->refs += c->own_type[j] == T_OBJECT;
		}
		if (k >= BASE_CLASSES && k < BASE_CLASSES + apps && c->refs >= FAN)
			g->holders[g->nholders++] = k;
	}
	return 0;
}

/* The name of class K as LOAD CLASS gives it ("java/lang/String", "[I"). */
static int class_name(const struct gen *g, int k, char *out, size_t size)
{
	int apps = g->classes - BASE_CLASSES - g->app_arrays;
	if (k < BASE_CLASSES)
		return snprintf(out, size, "%s", base_names[k]);
	if (k >= BASE_CLASSES + apps) {
		char element[96];
		class_name(g, BASE_CLASSES + (k - BASE_CLASSES - apps) * 16, element, sizeof(element));
		return snprintf(out, size, "[L%s;", element);
	}
	int a = k - BASE_CLASSES;
	return snprintf(out, size, "com/example/shape/p%02d/C%05d%s", a % 97, a, a % 7 == 3 ? "$Node" : "");
}

static void utf8(struct gen *g, uint64_t id, const char *text, size_t len)
{
	room(g, 0);
	record(g, 0x01, (uint32_t)(8 + len));
	put8(g, id);
	put_bytes(g, text, len);
}

/* Header, names, LOAD CLASS, the threads' frames and traces. */
static void write_preamble(struct gen *g)
{
	static const char magic[] = "JAVA PROFILE 1.0.2";
	put_bytes(g, magic, sizeof(magic));
	put4(g, 8);
	put8(g, 1764000000000u);
	for (int s = 1; s < SYMBOLS; s++)
		utf8(g, SYMBOL_BASE + 8 * (uint64_t)s, symbol_texts[s], strlen(symbol_texts[s]));
	for (int k = 0; k < g->classes; k++) {
		char name[128];
		int len = class_name(g, k, name, sizeof(name));
		utf8(g, class_name_id(k), name, (size_t)len);
		room(g, 0);
		record(g, 0x02, 24);
		put4(g, (uint32_t)k + 1);
		put8(g, class_id(k));
		put4(g, 1);
		put8(g, class_name_id(k));
	}
	for (unsigned f = 0; f < 2 * THREADS; f++) {
		room(g, 0);
		record(g, 0x04, 40);
		put8(g, FRAME_BASE + f);
		put8(g, SYMBOL_BASE + 8 * (uint64_t)(f % 2 ? S_WORK : S_RUN));
		put8(g, SYMBOL_BASE + 8 * (uint64_t)S_VOID_SIG);
		put8(g, SYMBOL_BASE + 8 * (uint64_t)S_SOURCE);
		put4(g, C_THREAD + 1);
		put4(g, 10 + f);
	}
	room(g, 0);
	record(g, 0x05, 12); /* serial 1: the empty trace objects name */
	put4(g, 1);
	put4(g, 0);
	put4(g, 0);
	for (unsigned t = 0; t < THREADS; t++) {
		room(g, 0);
		record(g, 0x05, 12 + 16);
		put4(g, t + 2);
		put4(g, t + 1);
		put4(g, 2);
		put8(g, FRAME_BASE + 2 * t + 1);
		put8(g, FRAME_BASE + 2 * t);
	}
}

/* GC roots of every kind HotSpot writes, on objects spread over the heap. */
static void write_roots(struct gen *g)
{
	/* tag, how many, what follows the id: 0 nothing, 1 a thread, 2 a thread
	 * and a frame, 3 a JNI reference id */
	static const unsigned kinds[][3] = {{0x03, 256, 2}, {0x01, 64, 3}, {0x02, 16, 2}, {0x04, 8, 1},
					    {0x06, 8, 1},    {0x07, 32, 0}, {0xff, 4, 0}};
	for (unsigned t = 0; t < THREADS && t < g->n; t++) {
		room(g, 1);
		put1(g, 0x08);
		put8(g, obj_id(g, t));
		put4(g, t + 1);
		put4(g, t + 2);
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (unsigned j = 0; j < kinds[k][1]; j++) {
			uint64_t h = mix(g->seed ^ (k << 20) ^ j);
			room(g, 1);
			put1(g, kinds[k][0]);
			put8(g, kinds[k][0] == 0x01 ? popular(g, h) : obj_id(g, h % g->n));
			if (kinds[k][2] == 3)
				put8(g, 0x7f0000000000u + 16 * (uint64_t)j);
			if (kinds[k][2] >= 1 && kinds[k][2] <= 2)
				put4(g, 1 + j % THREADS);
			if (kinds[k][2] == 2)
				put4(g, j % 2);
		}
	for (int k = 0; k < g->classes; k++) {
		room(g, 1);
		put1(g, 0x05);
		put8(g, class_id(k));
	}
}

static void write_class_dump(struct gen *g, int k)
{
	const struct cls *c = &g->cls[k];
	room(g, 1);
	put1(g, 0x20);
	put8(g, class_id(k));
	put4(g, 1);
	put8(g, c->super < 0 ? 0 : class_id(c->super));
	for (int j = 0; j < 5; j++) /* loader, signers, protection domain, reserved */
		put8(g, 0);
	/* The size of an instance, header included, as a VM other than HotSpot
	 * states it (HotSpot writes its field bytes, 0 for Object): readers then
	 * take these sizes rather than guess HotSpot's reference size. */
	put4(g, (16 + c->bytes + 7) & ~7u);
	put1(g, 0); /* no constant pool */
	put1(g, 0);
	put1(g, 0);
	put1(g, (unsigned)c->statics);
	for (int j = 0; j < c->statics; j++) {
		uint64_t h = mix(g->seed ^ ((uint64_t)k << 16) ^ (uint64_t)j);
		put8(g, SYMBOL_BASE + 8 * (uint64_t)(S_STATIC0 + j));
		put1(g, c->static_type[j]);
		if (c->static_type[j] == T_OBJECT)
			put8(g, h % 4 ? popular(g, h) : obj_id(g, (h >> 8) % g->n));
		else
			put_value(g, c->static_type[j], h);
	}
	put1(g, 0);
	put1(g, (unsigned)c->own);
	for (int j = 0; j < c->own; j++) {
		put8(g, SYMBOL_BASE + 8 * (uint64_t)c->own_name[j]);
		put1(g, c->own_type[j]);
	}
}

enum kind { K_THREAD, K_HOLDER, K_INSTANCE, K_OBJECT_ARRAY, K_PRIMITIVE_ARRAY, K_STRING, K_STRING_VALUE };

/* Inner nodes of the tree hold references; leaves are of every kind, and
 * a string's value is the byte array right after it. */
static enum kind kind_of(const struct gen *g, uint64_t i, uint64_t h)
{
	if (i < THREADS)
		return K_THREAD;
	if (i < g->inner)
		return h % 8 == 0 ? K_OBJECT_ARRAY : K_HOLDER;
	if (i % 8 == 6 && i + 1 < g->n)
		return K_STRING;
	if (i % 8 == 7)
		return K_STRING_VALUE;
	h %= 100;
	return h < 10 ? K_OBJECT_ARRAY : h < 25 ? K_PRIMITIVE_ARRAY : K_INSTANCE;
}

static void write_instance(struct gen *g, uint64_t i, int k, uint64_t h)
{
	unsigned slot = 0;
	put1(g, 0x21);
	put8(g, obj_id(g, i));
	put4(g, 1);
	put8(g, class_id(k));
	put4(g, g->cls[k].bytes);
	for (int c = k; c >= 0; c = g->cls[c].super)
		for (int j = 0; j < g->cls[c].own; j++) {
			unsigned type = g->cls[c].own_type[j];
			if (c == C_STRING && j == 0) /* the value: the byte array after it */
				put8(g, obj_id(g, i + 1));
			else if (type == T_OBJECT)
				put8(g, ref_target(g, i, slot++));
			else
				put_value(g, type, h = mix(h));
		}
}

static void write_object_array(struct gen *g, uint64_t i, uint64_t h)
{
	uint32_t length = (uint32_t)(i < g->inner ? FAN + (h >> 8) % 14 : (h >> 8) % 10);
	int arrays = 2 + g->app_arrays;
	int pick = (int)((h >> 16) % (uint64_t)arrays);
	int k = pick < 2 ? C_OBJECT_ARRAY + pick : g->classes - g->app_arrays + pick - 2;
	put1(g, 0x22);
	put8(g, obj_id(g, i));
	put4(g, 1);
	put4(g, length);
	put8(g, class_id(k));
	for (unsigned s = 0; s < length; s++)
		put8(g, ref_target(g, i, s));
}

static void write_primitive_array(struct gen *g, uint64_t i, unsigned type, uint32_t length, uint64_t h)
{
	put1(g, 0x23);
	put8(g, obj_id(g, i));
	put4(g, 1);
	put4(g, length);
	put1(g, type);
	size_t bytes = (size_t)length * type_size(type), start = g->len;
	if (type == T_BYTE && length >= 8) { /* a string's text: "shape-" and letters */
		put_bytes(g, "shape-", 6);
		for (size_t b = 6; b < bytes; b++)
			put1(g, 'a' + (unsigned)((h >> (b % 48)) % 26));
		return;
	}
	while (g->len - start < bytes)
		put8(g, type == T_BOOLEAN ? (h = mix(h)) & 0x0101010101010101u : (h = mix(h)));
	g->len = start + bytes;
}

/* A leaf instance's class: any application class, now and then a bare
 * Object (a lock) or a weak, soft or phantom reference. */
static int leaf_class(const struct gen *g, uint64_t h)
{
	int apps = g->classes - BASE_CLASSES - g->app_arrays;
	switch (h % 50) {
	case 7:
		return C_OBJECT;
	case 8:
		return C_WEAK_REFERENCE;
	case 9:
		return C_SOFT_REFERENCE;
	case 10:
		return C_PHANTOM_REFERENCE;
	default:
		return BASE_CLASSES + (int)((h >> 8) % (uint64_t)apps);
	}
}

static void write_object(struct gen *g, uint64_t i)
{
	uint64_t h = mix(g->seed ^ i);
	switch (kind_of(g, i, h)) {
	case K_THREAD:
		write_instance(g, i, C_THREAD, h);
		break;
	case K_HOLDER:
		write_instance(g, i, g->holders[(h >> 8) % (uint64_t)g->nholders], h);
		break;
	case K_INSTANCE:
		write_instance(g, i, leaf_class(g, h), h);
		break;
	case K_OBJECT_ARRAY:
		write_object_array(g, i, h);
		break;
	case K_PRIMITIVE_ARRAY:
		write_primitive_array(g, i, T_BOOLEAN + (unsigned)((h >> 8) % 8),
				      (uint32_t)((h >> 16) % 199 == 0 ? 1000 + (h >> 24) % 1000 : (h >> 24) % 33), h);
		break;
	case K_STRING:
		write_instance(g, i, C_STRING, h);
		break;
	case K_STRING_VALUE:
		write_primitive_array(g, i, T_BYTE, 8 + (uint32_t)((h >> 8) % 24), h);
	}
}

static int write_heap(struct gen *g)
{
	write_roots(g);
	for (int k = 0; k < g->classes; k++)
		write_class_dump(g, k);
	for (uint64_t i = 0; i < g->n; i++) {
		if (room(g, 1))
			return -1;
		write_object(g, i);
	}
	close_segment(g);
	record(g, 0x2c, 0);
	return flush(g);
}

static int setup(struct gen *g, uint64_t n, int apps, uint64_t seed, size_t segment_mb)
{
	memset(g, 0, sizeof(*g));
	g->n = n;
	g->inner = (n + FAN - 2) / FAN;
	g->popular = n < 4096 ? n : 4096;
	g->seed = seed;
	for (g->bits = 4; ((uint64_t)1 << g->bits) < 2 * n; g->bits++)
		;
	g->mask = ((uint64_t)1 << g->bits) - 1;
	g->segment = SIZE_MAX;
	g->segment_limit = segment_mb << 20;
	g->buf = malloc(g->segment_limit + SLACK);
	return g->buf ? make_classes(g, apps) : -1;
}

int main(int argc, char **argv)
{
	uint64_t n = 7000000, seed = 1;
	unsigned long apps = 4000, segment_mb = 8;
	const char *out = NULL;
	int bad = 0;
	for (int a = 1; a < argc && !bad; a++) {
		if (a + 1 < argc && strcmp(argv[a], "--objects") == 0)
			n = strtoull(argv[++a], NULL, 10);
		else if (a + 1 < argc && strcmp(argv[a], "--classes") == 0)
			apps = strtoul(argv[++a], NULL, 10);
		else if (a + 1 < argc && strcmp(argv[a], "--seed") == 0)
			seed = strtoull(argv[++a], NULL, 10);
		else if (a + 1 < argc && strcmp(argv[a], "--segment-mb") == 0)
			segment_mb = strtoul(argv[++a], NULL, 10);
		else if (!out && argv[a][0] != '-')
			out = argv[a];
		else
			bad = 1;
	}
	if (bad || !out || n < 100 || apps < 4 || apps > 100000 || segment_mb < 1 || segment_mb > 2048) {
		fprintf(stderr, "usage: gen-shaped-hprof OUT [--objects N>=100] [--classes 4..100000] [--seed N] [--segment-mb 1..2048]\n");
		return 2;
	}
	struct gen g;
	if (setup(&g, n, (int)apps, seed, segment_mb) || !(g.f = fopen(out, "wb"))) {
		perror(out);
		return 1;
	}
	write_preamble(&g);
	int failed = write_heap(&g) | fclose(g.f);
	if (failed)
		perror(out);
	else
		fprintf(stderr, "%s: %llu objects, %d classes\n", out, (unsigned long long)n, g.classes);
	free(g.buf);
	free(g.cls);
	free(g.holders);
	return failed ? 1 : 0;
}
