/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A java.lang.String's characters, as UTF-16 units, from its value array in
 * each layout a dump may hold: a char[] (big-endian in the dump, as HPROF
 * writes every array) with, before JDK 7u6, an offset and a count into it;
 * from JDK 9 a byte[] and a coder: 0 LATIN1 (a unit per byte), 1 UTF16 (the
 * JVM's own byte order, which HPROF copies as is: little-endian on the
 * x86-64 and AArch64 JVMs that write dumps).
 */
#include "analysis/waste_impl.h"
#include "io/pager.h"

/* The value array's local index and payload, when it is a char[] or byte[] of the dump. */
static const unsigned char *value_array(const pd_heap_graph *g, uint64_t id, pd_hnode *array, int *elem,
                                        uint64_t *len)
{
	pd_hnode a = id ? pd_heap_local(g, id) : PD_HEAP_NONE;
	if (a >= g->n)
		return NULL;
	size_t m = g->first + a;
	unsigned kind = pd_obj_kind(g->p, m);
	*elem = (int)((kind >> 2) & 15);
	if ((kind & 3) != PROFDATA_OBJECT_PRIM_ARRAY || (*elem != PROFDATA_TYPE_CHAR && *elem != PROFDATA_TYPE_BYTE))
		return NULL;
	*array = a;
	const unsigned char *d = pd_object_data(g->p, m, len);
	if (d)
		pd_pager_touch(g->pages, pd_obj_payload(g->p, m));
	return d;
}

/* Units [first, first + n) of the array's (2-byte units big- or little-endian, or bytes) into out. */
static int take_units(pd_units *out, const unsigned char *d, uint64_t first, uint64_t n, int unit_bytes, int big)
{
	if (n > SIZE_MAX / 2 || pd_grow((void **)&out->u, &out->cap, (size_t)n ? (size_t)n : 1, sizeof *out->u) < 0)
		return PROFDATA_ENOMEM;
	const unsigned char *s = d + first * (uint64_t)unit_bytes;
	for (uint64_t k = 0; k < n; k++, s += unit_bytes)
		out->u[k] = unit_bytes == 1 ? s[0] : big ? (uint16_t)(s[0] << 8 | s[1]) : (uint16_t)(s[1] << 8 | s[0]);
	out->n = (size_t)n;
	return 1;
}

int pd_waste_string_units(const profdata_heap *h, const pd_waste_class *c, pd_hnode i, pd_units *out,
                          pd_hnode *array)
{
	const pd_heap_graph *g = &h->g;
	size_t m = g->first + i;
	uint64_t len, alen;
	const unsigned char *d = pd_object_data(g->p, m, &len);
	if (!d)
		return 0;
	pd_pager_touch(g->pages, pd_obj_payload(g->p, m));
	int elem;
	const unsigned char *a = value_array(g, pd_waste_field(c, 0, d, len, g->id_size), array, &elem, &alen);
	if (!a)
		return 0;
	int wide = elem == PROFDATA_TYPE_CHAR || pd_waste_field(c, 1, d, len, g->id_size) == 1;
	int unit_bytes = wide ? 2 : 1;
	uint64_t units = alen / (uint64_t)unit_bytes, first = 0, n = units;
	if (c->has[2] && c->has[3]) { /* JDK 6: a window on a shared char[] */
		first = pd_waste_field(c, 2, d, len, g->id_size);
		n = pd_waste_field(c, 3, d, len, g->id_size);
		if (first > units || n > units - first)
			return 0;
	}
	return take_units(out, a, first, n, unit_bytes, elem == PROFDATA_TYPE_CHAR);
}

/* One code point as UTF-8 onto b. */
static int put_utf8(pd_strbuf *b, uint32_t cp)
{
	char s[4];
	size_t n;
	if (cp < 0x80) {
		s[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		s[0] = (char)(0xc0 | cp >> 6);
		s[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		s[0] = (char)(0xe0 | cp >> 12);
		s[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		s[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		s[0] = (char)(0xf0 | cp >> 18);
		s[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		s[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		s[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return pd_strbuf_add(b, s, n);
}

int pd_waste_utf8(const pd_units *units, size_t max_chars, pd_strbuf *b, int *cut)
{
	size_t k = 0, chars = 0;
	for (; k < units->n && chars < max_chars; chars++) {
		uint32_t u = units->u[k++];
		if (u >= 0xd800 && u < 0xdc00 && k < units->n && units->u[k] >= 0xdc00 && units->u[k] < 0xe000)
			u = 0x10000 + ((u - 0xd800) << 10) + (units->u[k++] - 0xdc00u);
		else if (u >= 0xd800 && u < 0xe000)
			u = 0xfffd;
		if (put_utf8(b, u) < 0)
			return PROFDATA_ENOMEM;
	}
	*cut = k < units->n;
	return 0;
}
