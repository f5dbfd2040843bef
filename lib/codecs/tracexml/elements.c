/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace elements to events: the typed attributes into the fields of
 * profdata_trace_event (and of the class, function and thread rows their
 * defining elements make), every other attribute verbatim and in order. An
 * attribute is typed only when writing the field back gives its text again
 * (a canonical non-zero number, a time of 1 to 9 fraction digits), so that
 * nothing is lost either way.
 */
#include <stdlib.h>
#include <string.h>

#include "tracexml_decode.h"

typedef enum slot {
	SLOT_NONE, SLOT_TIME, SLOT_THREAD, SLOT_METHOD, SLOT_CLASS, SLOT_OBJECT, SLOT_TICKET, SLOT_DEPTH, SLOT_CPU,
	SLOT_NAME, SLOT_SIGNATURE, SLOT_START_LINE, SLOT_END_LINE, SLOT_GROUP, SLOT_PARENT, SLOT_COUNT_
} slot;

typedef struct parsed {
	uint64_t v[SLOT_COUNT_];
	const char *text[SLOT_COUNT_];
} parsed;

/* First bytes compared inline: most attributes differ there, and this runs for each one. */
#define EQ(a, b) ((a)[0] == (b)[0] && (a)[1] == (b)[1] && strcmp((a), (b)) == 0)

/* Which typed field an attribute fills for an element of `kind`, and its value. */
static slot slot_of(unsigned kind, const tx_typed_names *names, const char *key, const char *v, uint64_t *out)
{
	if (EQ(key, "time"))
		return tx_parse_time(v, out) ? SLOT_TIME : SLOT_NONE;
	if (EQ(key, "threadCpuTime"))
		return tx_parse_time(v, out) ? SLOT_CPU : SLOT_NONE;
	slot s = EQ(key, names->thread) ? SLOT_THREAD
	       : EQ(key, names->method) ? SLOT_METHOD
	       : EQ(key, names->klass) ? SLOT_CLASS
	       : EQ(key, names->object) ? SLOT_OBJECT
	       : EQ(key, "ticket") ? SLOT_TICKET
	       : EQ(key, "stackDepth") ? SLOT_DEPTH : SLOT_NONE;
	if (s == SLOT_NONE && kind == PROFDATA_TRACE_METHOD_DEF)
		s = EQ(key, "name") ? SLOT_NAME
		  : EQ(key, "signature") ? SLOT_SIGNATURE
		  : EQ(key, "startLineNumber") ? SLOT_START_LINE
		  : EQ(key, "endLineNumber") ? SLOT_END_LINE : SLOT_NONE;
	else if (s == SLOT_NONE && kind == PROFDATA_TRACE_CLASS_DEF)
		s = EQ(key, "name") ? SLOT_NAME : SLOT_NONE;
	else if (s == SLOT_NONE && kind == PROFDATA_TRACE_THREAD_START)
		s = EQ(key, "threadName") ? SLOT_NAME
		  : EQ(key, "groupName") ? SLOT_GROUP
		  : EQ(key, "parentName") ? SLOT_PARENT : SLOT_NONE;
	if (s >= SLOT_NAME && s != SLOT_START_LINE && s != SLOT_END_LINE)
		return s;
	if (s == SLOT_NONE || !tx_parse_id(v, out))
		return SLOT_NONE;
	if ((s == SLOT_DEPTH && *out > UINT32_MAX) || ((s == SLOT_START_LINE || s == SLOT_END_LINE) && *out > INT32_MAX))
		return SLOT_NONE;
	return s;
}

/*
 * Sort the attributes into typed slots and verbatim pairs. Names are typed
 * only on an element whose id is typed (a threadStart without a usable
 * threadId keeps its threadName as text), so a second look undoes that.
 */
static size_t classify(tx_decoder *d, unsigned kind, const XML_Char **atts, parsed *pa)
{
	tx_typed_names names;
	size_t n = 0;
	tx_typed_names_of(kind, &names);
	memset(pa, 0, sizeof(*pa));
	for (size_t k = 0; atts[k]; k += 2) {
		uint64_t v = 0;
		slot s = slot_of(kind, &names, atts[k], atts[k + 1], &v);
		if (s != SLOT_NONE && !pa->text[s]) {
			pa->v[s] = v;
			pa->text[s] = atts[k + 1];
		} else if (tx_value_too_long(d, atts[k + 1])) {
			return SIZE_MAX;
		} else {
			d->kv[n++] = (profdata_kv){ atts[k], atts[k + 1] };
		}
	}
	return n;
}

static int named(tx_decoder *d, const char *s, uint64_t *id)
{
	*id = 0;
	return s ? tx_string(d, s, strlen(s), id) : 0;
}

static int define_thread(tx_decoder *d, profdata_trace_event *t, const parsed *pa)
{
	uint64_t serial;
	int e = tx_define(&d->threads, pa->v[SLOT_THREAD], &serial);
	if (e)
		return e;
	profdata_thread_start ts;
	memset(&ts, 0, sizeof(ts));
	ts.time_us = t->time_ns / 1000;
	ts.serial = (uint32_t)serial;
	ts.object_id = t->object_id;
	if ((e = named(d, pa->text[SLOT_NAME], &ts.name_id)) || (e = named(d, pa->text[SLOT_GROUP], &ts.group_name_id)) ||
	    (e = named(d, pa->text[SLOT_PARENT], &ts.parent_group_name_id)))
		return e;
	t->thread_serial = ts.serial;
	return PD_EMIT(d->a, thread_start, &ts);
}

static int source_of(tx_decoder *d, uint32_t serial, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (strcmp(d->kv[k].key, "sourceName") != 0)
			continue;
		int e = pd_grow((void **)&d->class_source, &d->class_source_cap, (size_t)serial + 1, sizeof(uint64_t));
		if (e == 0) {
			d->class_source[serial] = 0;
			e = named(d, d->kv[k].value, &d->class_source[serial]);
		}
		return e;
	}
	return 0;
}

/* classDef: dotted in the file, internal form (java/lang/String) in the model. */
static int define_class(tx_decoder *d, profdata_trace_event *t, const parsed *pa, size_t n)
{
	uint64_t id;
	int e = tx_define(&d->classes, pa->v[SLOT_CLASS], &id);
	if (e)
		return e;
	profdata_class_load cl;
	memset(&cl, 0, sizeof(cl));
	cl.time_us = t->time_ns / 1000;
	cl.serial = ++d->nclasses;
	cl.id = id;
	if (pa->text[SLOT_NAME]) {
		const char *s = pa->text[SLOT_NAME];
		size_t len = strlen(s), need = profdata_internal_name(s, len, NULL, 0);
		d->name.n = 0;
		if (pd_grow((void **)&d->name.p, &d->name.cap, need + 1, 1) < 0)
			return PROFDATA_ENOMEM;
		profdata_internal_name(s, len, d->name.p, need + 1);
		if ((e = tx_string(d, d->name.p, need, &cl.name_id)))
			return e;
	}
	if ((e = pd_map_put(&d->class_serial_of, id, cl.serial)) < 0 || (e = source_of(d, cl.serial, n)))
		return e;
	t->class_id = id;
	return PD_EMIT(d->a, class_load, &cl);
}

static int define_method(tx_decoder *d, profdata_trace_event *t, const parsed *pa)
{
	uint64_t id;
	int e = tx_define(&d->methods, pa->v[SLOT_METHOD], &id);
	if (e)
		return e;
	profdata_function f;
	memset(&f, 0, sizeof(f));
	f.id = id;
	f.class_serial = t->class_id ? pd_map_get(&d->class_serial_of, t->class_id) : 0;
	if (f.class_serial < d->class_source_cap && d->class_source)
		f.source_file_id = d->class_source[f.class_serial];
	const char *name = pa->text[SLOT_NAME], *model = name ? tx_method_to_model(name) : NULL;
	if ((e = named(d, model ? model : name, &f.name_id)) || (e = named(d, pa->text[SLOT_SIGNATURE], &f.signature_id)))
		return e;
	f.start_line = (int32_t)pa->v[SLOT_START_LINE];
	f.end_line = (int32_t)pa->v[SLOT_END_LINE];
	t->method_id = id;
	return PD_EMIT(d->a, function, &f);
}

/* A name typed without its id would be lost: put it back among the verbatim pairs, in slot order. */
static size_t untype_names(tx_decoder *d, parsed *pa, size_t n, const char *const *keys)
{
	for (int s = SLOT_NAME; s < SLOT_COUNT_; s++) {
		if (!pa->text[s] || !keys[s - SLOT_NAME])
			continue;
		d->kv[n++] = (profdata_kv){ keys[s - SLOT_NAME], pa->text[s] };
		pa->text[s] = NULL;
		pa->v[s] = 0;
	}
	return n;
}

static int typed_rows(tx_decoder *d, profdata_trace_event *t, parsed *pa, size_t *n)
{
	static const char *const class_keys[] = { "name", NULL, NULL, NULL, NULL, NULL };
	static const char *const method_keys[] = { "name", "signature", "startLineNumber", "endLineNumber", NULL, NULL };
	static const char *const thread_keys[] = { "threadName", NULL, NULL, NULL, "groupName", "parentName" };
	switch (t->kind) {
	case PROFDATA_TRACE_THREAD_START:
		if (pa->text[SLOT_THREAD] && pa->v[SLOT_THREAD] <= UINT32_MAX)
			return define_thread(d, t, pa);
		if (pa->text[SLOT_THREAD])
			d->kv[(*n)++] = (profdata_kv){ "threadId", pa->text[SLOT_THREAD] };
		*n = untype_names(d, pa, *n, thread_keys);
		return 0;
	case PROFDATA_TRACE_CLASS_DEF:
		if (pa->text[SLOT_CLASS])
			return define_class(d, t, pa, *n);
		*n = untype_names(d, pa, *n, class_keys);
		return 0;
	case PROFDATA_TRACE_METHOD_DEF:
		if (pa->text[SLOT_METHOD])
			return define_method(d, t, pa);
		*n = untype_names(d, pa, *n, method_keys);
		return 0;
	default:
		return 0;
	}
}

/* Elements that undefine an id: after them the id may be defined anew. */
static int undefine(tx_decoder *d, const profdata_trace_event *t, const char *name)
{
	if (t->kind == PROFDATA_TRACE_THREAD_END && t->thread_serial) {
		profdata_thread_end te = { t->time_ns / 1000, t->thread_serial };
		return PD_EMIT(d->a, thread_end, &te);
	}
	if (t->kind == PROFDATA_TRACE_OTHER && t->class_id && strcmp(name, "classUnload") == 0) {
		profdata_class_unload u = { t->time_ns / 1000, pd_map_get(&d->class_serial_of, t->class_id) };
		return u.serial ? PD_EMIT(d->a, class_unload, &u) : 0;
	}
	return 0;
}

/* Strict mode: ids defined before use, and each ticket entered once and exited once. */
static int check_refs(tx_decoder *d, const profdata_trace_event *t, const parsed *pa)
{
	if (t->kind != PROFDATA_TRACE_THREAD_START && pa->text[SLOT_THREAD] && !pd_map_get(&d->threads.used, pa->v[SLOT_THREAD]))
		tx_warn_here(d, "a thread used before its threadStart: id", pa->v[SLOT_THREAD]);
	if (t->kind != PROFDATA_TRACE_METHOD_DEF && pa->text[SLOT_METHOD] && !pd_map_get(&d->methods.used, pa->v[SLOT_METHOD]))
		tx_warn_here(d, "a method used before its methodDef: id", pa->v[SLOT_METHOD]);
	if (t->kind != PROFDATA_TRACE_CLASS_DEF && pa->text[SLOT_CLASS] && !pd_map_get(&d->classes.used, pa->v[SLOT_CLASS]))
		tx_warn_here(d, "a class used before its classDef: id", pa->v[SLOT_CLASS]);
	int entry = t->kind == PROFDATA_TRACE_METHOD_ENTRY || t->kind == PROFDATA_TRACE_METHOD_CALL;
	int exit = t->kind == PROFDATA_TRACE_METHOD_EXIT || t->kind == PROFDATA_TRACE_METHOD_RETURN;
	if (!t->ticket || (!entry && !exit))
		return 0;
	/* methodCall/methodReturn tickets are kept apart from methodEntry/methodExit ones. */
	uint64_t key = t->ticket * 2 + (t->kind == PROFDATA_TRACE_METHOD_CALL || t->kind == PROFDATA_TRACE_METHOD_RETURN);
	uint32_t state = pd_map_get(&d->tickets, key);
	if (entry && state)
		tx_warn_here(d, "a ticket entered twice:", t->ticket);
	else if (exit && state != 1)
		tx_warn_here(d, "an exit whose ticket was not entered (or already exited):", t->ticket);
	/* Only open tickets are kept: the map grows with the calls open, not with the trace. */
	if (entry && !state) {
		d->open_tickets++;
		return pd_map_put(&d->tickets, key, 1);
	}
	if (exit && state == 1) {
		d->open_tickets--;
		pd_map_remove(&d->tickets, key);
	}
	return 0;
}

int tx_emit_event(tx_decoder *d, unsigned kind, const char *name, const XML_Char **atts)
{
	profdata_trace_event t;
	parsed pa;
	memset(&t, 0, sizeof(t));
	t.kind = (uint16_t)kind;
	size_t n = classify(d, kind, atts, &pa);
	if (n == SIZE_MAX)
		return 0; /* the document ended there as damage */
	int e = kind == PROFDATA_TRACE_OTHER ? tx_string(d, name, strlen(name), &t.name_id) : 0;
	if (e)
		return e;
	t.time_ns = pa.v[SLOT_TIME];
	t.cpu_time_ns = pa.v[SLOT_CPU];
	t.object_id = pa.v[SLOT_OBJECT];
	t.ticket = pa.v[SLOT_TICKET];
	t.depth = (uint32_t)pa.v[SLOT_DEPTH];
	if (kind != PROFDATA_TRACE_THREAD_START && pa.text[SLOT_THREAD]) {
		uint64_t serial = tx_resolve(&d->threads, pa.v[SLOT_THREAD]);
		if (serial <= UINT32_MAX)
			t.thread_serial = (uint32_t)serial;
		else
			d->kv[n++] = (profdata_kv){ "threadIdRef", pa.text[SLOT_THREAD] };
	}
	if (kind != PROFDATA_TRACE_CLASS_DEF && pa.text[SLOT_CLASS])
		t.class_id = tx_resolve(&d->classes, pa.v[SLOT_CLASS]);
	if (kind != PROFDATA_TRACE_METHOD_DEF && pa.text[SLOT_METHOD])
		t.method_id = tx_resolve(&d->methods, pa.v[SLOT_METHOD]);
	if (d->a->mode == PROFDATA_MODE_STRICT && (e = check_refs(d, &t, &pa)) < 0)
		return e;
	if ((e = typed_rows(d, &t, &pa, &n)) || (e = undefine(d, &t, name)))
		return e;
	t.attrs = n ? d->kv : NULL;
	t.nattrs = n;
	d->nevents++;
	return PD_EMIT(d->a, trace_event, &t);
}
