/* SPDX-License-Identifier: Apache-2.0 */
/* Class names between the JVM's internal form and Java source form. */
#include "internal.h"

#include <string.h>

static const char *prim_name(char c)
{
	switch (c) {
	case 'Z': return "boolean";
	case 'B': return "byte";
	case 'C': return "char";
	case 'S': return "short";
	case 'I': return "int";
	case 'J': return "long";
	case 'F': return "float";
	case 'D': return "double";
	case 'V': return "void";
	default: return NULL;
	}
}

static char prim_code(const char *s, size_t n)
{
	static const char codes[] = "ZBCSIJFDV";
	for (const char *c = codes; *c; c++) {
		const char *name = prim_name(*c);
		if (strlen(name) == n && memcmp(name, s, n) == 0)
			return *c;
	}
	return 0;
}

/* Appends to buf while counting the full length. */
typedef struct sbuf {
	char *buf;
	size_t cap, len;
} sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, b->len++)
		if (b->len + 1 < b->cap)
			b->buf[b->len] = s[i];
}

static size_t finish(sbuf *b)
{
	if (b->cap)
		b->buf[b->len < b->cap ? b->len : b->cap - 1] = '\0';
	return b->len;
}

size_t profdata_java_name(const char *name, size_t n, char *buf, size_t cap)
{
	sbuf b = { buf, cap, 0 };
	size_t dims = 0;
	while (dims < n && name[dims] == '[')
		dims++;
	const char *elem = name + dims;
	size_t elen = n - dims;
	if (dims > 0 && elen == 1 && prim_name(elem[0])) {
		const char *pn = prim_name(elem[0]);
		put(&b, pn, strlen(pn));
	} else {
		if (dims > 0 && elen >= 2 && elem[0] == 'L' && elem[elen - 1] == ';') {
			elem++;
			elen -= 2;
		}
		for (size_t i = 0; i < elen; i++)
			put(&b, elem[i] == '/' ? "." : &elem[i], 1);
	}
	for (size_t i = 0; i < dims; i++)
		put(&b, "[]", 2);
	return finish(&b);
}

size_t profdata_internal_name(const char *name, size_t n, char *buf, size_t cap)
{
	sbuf b = { buf, cap, 0 };
	size_t dims = 0;
	size_t base = n;
	while (base >= 2 && name[base - 2] == '[' && name[base - 1] == ']') {
		dims++;
		base -= 2;
	}
	for (size_t i = 0; i < dims; i++)
		put(&b, "[", 1);
	char code = dims ? prim_code(name, base) : 0;
	if (code) {
		put(&b, &code, 1);
	} else {
		if (dims)
			put(&b, "L", 1);
		for (size_t i = 0; i < base; i++)
			put(&b, name[i] == '.' ? "/" : &name[i], 1);
		if (dims)
			put(&b, ";", 1);
	}
	return finish(&b);
}
