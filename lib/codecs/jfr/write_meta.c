/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The metadata event the writer declares its types in, and the primitive
 * values it writes. Names and fields are the JDK's own (jdk.types.Method's
 * `type`, `name`, `descriptor`, ...), so the JDK's consumer and every
 * reader that looks fields up by name read our recordings as the JDK's;
 * only what the writer fills is declared.
 */
#include <stdio.h>
#include <stdlib.h>

#include "codecs/jfr/write.h"

#include "util/hashmap.h"

#define JW_MAX_FIELDS 5

typedef struct jw_field {
	const char *name;
	uint8_t type;
	uint8_t pooled, array, ticks; /* a constant pool reference; dimension 1; @Timestamp("TICKS") */
} jw_field;

typedef struct jw_class {
	const char *name, *super;
	jw_field fields[JW_MAX_FIELDS];
	int simple; /* simpleType="true": its value reads as its one field's (a Symbol as a String) */
} jw_class;

#define EVENT "jdk.jfr.Event"
#define START { "startTime", JW_LONG, 0, 0, 1 }

/* In the order of the enum in write.h. */
static const jw_class classes[JW_NTYPES] = {
	[JW_LONG] = { "long", NULL, { { NULL } } },
	[JW_INT] = { "int", NULL, { { NULL } } },
	[JW_BOOLEAN] = { "boolean", NULL, { { NULL } } },
	[JW_STRING] = { "java.lang.String", NULL, { { NULL } } },
	[JW_TIMESTAMP] = { "jdk.jfr.Timestamp", "java.lang.annotation.Annotation", { { "value", JW_STRING, 0, 0, 0 } } },
	[JW_THREAD] = { "java.lang.Thread", NULL,
	                { { "osName", JW_STRING, 0, 0, 0 }, { "osThreadId", JW_LONG, 0, 0, 0 },
	                  { "javaName", JW_STRING, 0, 0, 0 }, { "javaThreadId", JW_LONG, 0, 0, 0 } } },
	[JW_SYMBOL] = { "jdk.types.Symbol", NULL, { { "string", JW_STRING, 0, 0, 0 } }, 1 },
	[JW_CLASS] = { "java.lang.Class", NULL, { { "name", JW_SYMBOL, 1, 0, 0 }, { "modifiers", JW_INT, 0, 0, 0 } } },
	[JW_METHOD] = { "jdk.types.Method", NULL,
	                { { "type", JW_CLASS, 1, 0, 0 }, { "name", JW_SYMBOL, 1, 0, 0 },
	                  { "descriptor", JW_SYMBOL, 1, 0, 0 }, { "modifiers", JW_INT, 0, 0, 0 },
	                  { "hidden", JW_BOOLEAN, 0, 0, 0 } } },
	[JW_FRAME_TYPE] = { "jdk.types.FrameType", NULL, { { "description", JW_STRING, 0, 0, 0 } }, 1 },
	[JW_STACK_FRAME] = { "jdk.types.StackFrame", NULL,
	                     { { "method", JW_METHOD, 1, 0, 0 }, { "lineNumber", JW_INT, 0, 0, 0 },
	                       { "bytecodeIndex", JW_INT, 0, 0, 0 }, { "type", JW_FRAME_TYPE, 1, 0, 0 } } },
	[JW_STACK_TRACE] = { "jdk.types.StackTrace", NULL,
	                     { { "truncated", JW_BOOLEAN, 0, 0, 0 }, { "frames", JW_STACK_FRAME, 0, 1, 0 } } },
	[JW_THREAD_STATE] = { "jdk.types.ThreadState", NULL, { { "name", JW_STRING, 0, 0, 0 } }, 1 },
	[JW_EXECUTION_SAMPLE] = { "jdk.ExecutionSample", EVENT,
	                          { START, { "sampledThread", JW_THREAD, 1, 0, 0 },
	                            { "stackTrace", JW_STACK_TRACE, 1, 0, 0 }, { "state", JW_THREAD_STATE, 1, 0, 0 } } },
	[JW_ALLOCATION_SAMPLE] = { "jdk.ObjectAllocationSample", EVENT,
	                           { START, { "eventThread", JW_THREAD, 1, 0, 0 },
	                             { "stackTrace", JW_STACK_TRACE, 1, 0, 0 }, { "objectClass", JW_CLASS, 1, 0, 0 },
	                             { "weight", JW_LONG, 0, 0, 0 } } },
};

int jw_varint(pd_strbuf *b, uint64_t v)
{
	char bytes[9];
	size_t n = 0;
	while (n < 8 && v > 0x7f) {
		bytes[n++] = (char)(0x80 | (v & 0x7f));
		v >>= 7;
	}
	bytes[n++] = (char)v; /* the ninth byte holds 8 bits: what is left after 56 */
	return pd_strbuf_add(b, bytes, n);
}

int jw_string(pd_strbuf *b, const char *s, size_t n)
{
	if (!n)
		return pd_strbuf_add(b, "\1", 1);
	return pd_strbuf_add(b, "\3", 1) || jw_varint(b, n) || pd_strbuf_add(b, s, n) ? PROFDATA_ENOMEM : 0;
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;
	while (n < 9 && v > 0x7f) {
		v >>= 7;
		n++;
	}
	return n;
}

int jw_event(pd_strbuf *out, const pd_strbuf *body, const pd_strbuf *rest)
{
	/* The size counts its own bytes: the smallest k for which the event + k takes k bytes. */
	size_t n = body->n + (rest ? rest->n : 0), k = 1;
	while (varint_len(n + k) != k)
		k++;
	return jw_varint(out, n + k) || pd_strbuf_add(out, body->p, body->n) ||
	                       (rest && pd_strbuf_add(out, rest->p, rest->n))
	               ? PROFDATA_ENOMEM : 0;
}

/* ---- the element tree: names and attribute values are indexes into the event's string table ---- */

typedef struct jw_tree {
	pd_intern strings;
	pd_strbuf b;
	int rc;
	const uint64_t *ids; /* each type's class id */
} jw_tree;

static void put_index(jw_tree *t, const char *s)
{
	uint32_t index = 0;
	if (t->rc == 0 && pd_intern_put(&t->strings, s, strlen(s), &index) < 0)
		t->rc = PROFDATA_ENOMEM;
	if (t->rc == 0)
		t->rc = jw_varint(&t->b, index);
}

static void put_count(jw_tree *t, size_t n)
{
	if (t->rc == 0)
		t->rc = jw_varint(&t->b, n);
}

/* Append the attribute key = value to the pairs in kv, *n of them so far. */
static void attribute(const char **kv, size_t *n, const char *key, const char *value)
{
	kv[2 * *n] = key;
	kv[2 * *n + 1] = value;
	++*n;
}

/* An element's name and its attributes: `n` key, value pairs. Its children's count follows. */
static void element(jw_tree *t, const char *name, size_t n, const char *const *kv)
{
	put_index(t, name);
	put_count(t, n);
	for (size_t i = 0; i < 2 * n; i++)
		put_index(t, kv[i]);
}

static void field_element(jw_tree *t, const jw_field *f)
{
	char type_id[24], ts_id[24];
	const char *kv[8] = { "name", f->name, "class", type_id };
	size_t n = 2;
	snprintf(type_id, sizeof type_id, "%llu", (unsigned long long)t->ids[f->type]);
	if (f->pooled)
		attribute(kv, &n, "constantPool", "true");
	if (f->array)
		attribute(kv, &n, "dimension", "1");
	element(t, "field", n, kv);
	put_count(t, f->ticks);
	if (!f->ticks)
		return;
	snprintf(ts_id, sizeof ts_id, "%llu", (unsigned long long)t->ids[JW_TIMESTAMP]);
	element(t, "annotation", 2, (const char *const[]){ "class", ts_id, "value", "TICKS" });
	put_count(t, 0);
}

static void class_element(jw_tree *t, size_t type)
{
	const jw_class *c = &classes[type];
	char id[24];
	size_t nfields = 0;
	snprintf(id, sizeof id, "%llu", (unsigned long long)t->ids[type]);
	const char *kv[8] = { "id", id, "name", c->name };
	size_t n = 2;
	if (c->super)
		attribute(kv, &n, "superType", c->super);
	if (c->simple)
		attribute(kv, &n, "simpleType", "true");
	element(t, "class", n, kv);
	while (nfields < JW_MAX_FIELDS && c->fields[nfields].name)
		nfields++;
	put_count(t, nfields);
	for (size_t i = 0; i < nfields; i++)
		field_element(t, &c->fields[i]);
}

static void root_element(jw_tree *t)
{
	element(t, "root", 0, NULL);
	put_count(t, 2);
	element(t, "metadata", 0, NULL);
	put_count(t, JW_NTYPES);
	for (size_t i = 0; i < JW_NTYPES; i++)
		class_element(t, i);
	element(t, "region", 2, (const char *const[]){ "locale", "en_US", "gmtOffset", "0" });
	put_count(t, 0);
}

/* The event: its type (0), start, duration, id, the string table, the tree. */
static int metadata_body(jw_tree *t, uint64_t ticks, uint64_t id, pd_strbuf *body)
{
	if (jw_varint(body, 0) || jw_varint(body, ticks) || jw_varint(body, 0) || jw_varint(body, id) ||
	    jw_varint(body, t->strings.n))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < t->strings.n; i++) {
		size_t len;
		const char *s = pd_intern_str(&t->strings, (uint32_t)i, &len);
		if (jw_string(body, s, len))
			return PROFDATA_ENOMEM;
	}
	return pd_strbuf_add(body, t->b.p, t->b.n);
}

int jw_metadata(pd_strbuf *out, uint64_t ticks, uint64_t id, const uint64_t ids[JW_NTYPES])
{
	jw_tree t;
	pd_strbuf body = { 0, 0, 0 };
	memset(&t, 0, sizeof t);
	t.ids = ids;
	root_element(&t);
	int rc = t.rc ? t.rc : metadata_body(&t, ticks, id, &body);
	if (rc == 0)
		rc = jw_event(out, &body, NULL);
	pd_intern_free(&t.strings);
	free(t.b.p);
	free(body.p);
	return rc;
}
