/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which classes the waste search reads (profdata/waste.h) and where their
 * fields lie: found by name, along the superclass chain for the classes
 * whose subclasses keep their fields' meaning (a LinkedHashMap is a
 * HashMap; a Properties is not a Hashtable since JDK 9: it keeps its
 * entries in a map of its own, its inherited table stays empty).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/waste_impl.h"

typedef struct known_class {
	const char *name;              /* internal form */
	uint8_t role;
	uint8_t subclasses;            /* 1: its subclasses take its role */
	const char *fields[PD_WASTE_FIELDS];
} known_class;

static const known_class known[] = {
	{ "java/lang/String", PD_WASTE_STRING, 0, { "value", "coder", "offset", "count" } },
	{ "java/lang/Integer", PD_WASTE_BOX, 0, { "value" } },
	{ "java/lang/Long", PD_WASTE_BOX, 0, { "value" } },
	{ "java/lang/Short", PD_WASTE_BOX, 0, { "value" } },
	{ "java/lang/Byte", PD_WASTE_BOX, 0, { "value" } },
	{ "java/lang/Character", PD_WASTE_BOX, 0, { "value" } },
	{ "java/lang/Boolean", PD_WASTE_BOX, 0, { "value" } },
	{ "java/lang/Float", PD_WASTE_BOX, 0, { "value" } },
	{ "java/lang/Double", PD_WASTE_BOX, 0, { "value" } },
	{ "java/util/HashMap", PD_WASTE_MAP, 1, { "table", "size" } },
	{ "java/util/WeakHashMap", PD_WASTE_MAP, 0, { "table", "size" } },
	{ "java/util/Hashtable", PD_WASTE_MAP, 0, { "table", "count" } },
	{ "java/util/concurrent/ConcurrentHashMap", PD_WASTE_MAP, 0, { "table", "baseCount" } },
	{ "java/util/ArrayList", PD_WASTE_LIST, 1, { "elementData", "size" } },
	{ "java/util/Vector", PD_WASTE_LIST, 1, { "elementData", "elementCount" } },
	{ "java/util/ArrayDeque", PD_WASTE_DEQUE, 0, { "elements", "head", "tail" } },
};

/* The known class class row c is, or inherits the role of: its entry and *ancestor's row; NULL for none. */
static const known_class *recognise(const profdata_profile *p, size_t c, size_t *ancestor)
{
	for (size_t hops = 0; hops <= p->classes.n; hops++) {
		const char *name = pd_heap_class_name(p, c);
		for (size_t k = 0; name && k < sizeof known / sizeof known[0]; k++)
			if (pd_heap_class_named(name, known[k].name))
				return hops == 0 || known[k].subclasses ? (*ancestor = c, &known[k]) : NULL;
		if (!p->classes.v[c].has_dump || profdata_profile_find_class(p, p->classes.v[c].dump.super_id, &c) < 0)
			return NULL;
	}
	return NULL;
}

/* The fields of k in class row c's instances: they are past c's own fields and those between c and `ancestor`. */
static int find_fields(const profdata_profile *p, size_t c, size_t ancestor, unsigned id_size, const known_class *k,
                       pd_waste_class *v)
{
	long nc = pd_class_layout(p, c, NULL, 0), na = pd_class_layout(p, ancestor, NULL, 0);
	if (nc <= 0 || na <= 0 || na > nc)
		return 0;
	profdata_field *f = malloc((size_t)nc * sizeof *f);
	if (!f)
		return PROFDATA_ENOMEM;
	pd_class_layout(p, c, f, (size_t)nc);
	uint64_t off = 0;
	for (long j = 0; j < nc && off <= UINT32_MAX; j++) {
		const char *name = j >= nc - na ? profdata_profile_string(p, f[j].name_id, NULL) : NULL;
		for (int q = 0; name && q < PD_WASTE_FIELDS; q++)
			if (k->fields[q] && !v->has[q] && strcmp(name, k->fields[q]) == 0) {
				v->has[q] = 1;
				v->type[q] = f[j].type;
				v->off[q] = (uint32_t)off;
			}
		off += pd_jvm_type_size(f[j].type, id_size);
	}
	free(f);
	/* A role without its first field (a string's value, a collection's array, a box's value) reads nothing. */
	v->role = v->has[0] ? k->role : PD_WASTE_NONE;
	return 0;
}

int pd_waste_classes(const profdata_profile *p, unsigned id_size, pd_waste_class **out)
{
	pd_waste_class *v = *out = calloc(p->classes.n ? p->classes.n : 1, sizeof *v);
	if (!v)
		return PROFDATA_ENOMEM;
	for (size_t c = 0; c < p->classes.n; c++) {
		size_t ancestor;
		const known_class *k = p->classes.v[c].layout_ok ? recognise(p, c, &ancestor) : NULL;
		int e = k ? find_fields(p, c, ancestor, id_size, k, &v[c]) : 0;
		if (e)
			return e;
	}
	return 0;
}

uint64_t pd_waste_field(const pd_waste_class *c, int k, const unsigned char *data, uint64_t len, unsigned id_size)
{
	if (!c->has[k])
		return 0;
	unsigned size = pd_jvm_type_size(c->type[k], id_size);
	if (!size || (uint64_t)c->off[k] + size > len)
		return 0;
	uint64_t x = 0;
	for (unsigned b = 0; b < size; b++)
		x = x << 8 | data[c->off[k] + b];
	return x;
}
