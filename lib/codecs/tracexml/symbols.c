/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the defining elements of a trace (classDef, methodDef, threadStart)
 * take from the model's rows: remembered by the encoder as they come, and
 * written in place by the trace event that defines them, or at the end for
 * a source that has rows and no trace events (HPROF, gperftools).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracexml_encode.h"

static int nomem(tx_encoder *x)
{
	return pd_out_error(x->w, PROFDATA_ENOMEM, "tracexml: out of memory");
}

const char *tx_encoder_string(const tx_encoder *x, uint64_t id)
{
	uint32_t i = id ? pd_map_get(&x->str_ix, id) : 0;
	return i ? x->strtext.p + x->str_off[i - 1] : NULL;
}

int tx_on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	tx_encoder *x = payload;
	if (!id || pd_map_get(&x->str_ix, id))
		return 0;
	if (pd_grow((void **)&x->str_off, &x->str_cap, x->nstr + 1, sizeof(size_t)) < 0)
		return nomem(x);
	x->str_off[x->nstr] = x->strtext.n;
	/* Text with a NUL in it is cut there: XML cannot carry a NUL. */
	size_t n = memchr(utf8, 0, len) ? strlen(utf8) : len;
	if (pd_strbuf_add(&x->strtext, utf8, n) < 0 || pd_strbuf_add(&x->strtext, "", 1) < 0 ||
	    pd_map_put(&x->str_ix, id, (uint32_t)++x->nstr) < 0)
		return nomem(x);
	return 0;
}

int tx_on_class_load(void *payload, const profdata_class_load *c)
{
	tx_encoder *x = payload;
	if (!c->id || pd_map_get(&x->class_ix, c->id))
		return 0;
	if (pd_grow((void **)&x->classes, &x->classes_cap, x->nclasses + 1, sizeof(tx_class)) < 0)
		return nomem(x);
	tx_class *k = &x->classes[x->nclasses++];
	memset(k, 0, sizeof(*k));
	k->id = c->id;
	k->name_id = c->name_id;
	k->time_us = c->time_us;
	if (pd_map_put(&x->class_ix, c->id, (uint32_t)x->nclasses) < 0 ||
	    (c->serial && pd_map_put(&x->class_serial_ix, c->serial, (uint32_t)x->nclasses) < 0))
		return nomem(x);
	return 0;
}

int tx_on_function(void *payload, const profdata_function *f)
{
	tx_encoder *x = payload;
	if (!f->id || pd_map_get(&x->function_ix, f->id))
		return 0;
	if (pd_grow((void **)&x->functions, &x->functions_cap, x->nfunctions + 1, sizeof(tx_function)) < 0)
		return nomem(x);
	x->functions[x->nfunctions].f = *f;
	x->functions[x->nfunctions++].written = 0;
	return pd_map_put(&x->function_ix, f->id, (uint32_t)x->nfunctions) < 0 ? nomem(x) : 0;
}

static tx_thread *thread_of(tx_encoder *x, uint32_t serial, int add)
{
	uint32_t i = serial ? pd_map_get(&x->thread_ix, serial) : 0;
	if (i || !add || !serial)
		return i ? &x->threads[i - 1] : NULL;
	if (pd_grow((void **)&x->threads, &x->threads_cap, x->nthreads + 1, sizeof(tx_thread)) < 0)
		return NULL;
	tx_thread *t = &x->threads[x->nthreads++];
	memset(t, 0, sizeof(*t));
	t->start.serial = serial;
	return pd_map_put(&x->thread_ix, serial, (uint32_t)x->nthreads) < 0 ? NULL : t;
}

int tx_on_thread_start(void *payload, const profdata_thread_start *s)
{
	tx_encoder *x = payload;
	tx_thread *t = thread_of(x, s->serial, 1);
	if (!t)
		return s->serial ? nomem(x) : 0;
	t->start = *s;
	return 0;
}

int tx_on_thread_end(void *payload, const profdata_thread_end *e)
{
	tx_encoder *x = payload;
	tx_thread *t = thread_of(x, e->serial, 1);
	if (!t)
		return e->serial ? nomem(x) : 0;
	t->end = *e;
	t->has_end = 1;
	return 0;
}

int tx_on_sample(void *payload, const profdata_sample *s) { (void)s; ((tx_encoder *)payload)->lost_samples++; return 0; }
int tx_on_object(void *payload, const profdata_object *o) { (void)o; ((tx_encoder *)payload)->lost_objects++; return 0; }
int tx_on_other_stack(void *payload, const profdata_stack *s) { (void)s; ((tx_encoder *)payload)->lost_other++; return 0; }
int tx_on_other_sites(void *payload, const profdata_alloc_sites *a) { (void)a; ((tx_encoder *)payload)->lost_other++; return 0; }
int tx_on_other_root(void *payload, const profdata_root *r) { (void)r; ((tx_encoder *)payload)->lost_other++; return 0; }

/* The model's internal class name, dotted as the agent wrote it. */
static int put_class_name(tx_encoder *x, const char *name)
{
	char small[256];
	size_t n = profdata_java_name(name, strlen(name), small, sizeof small);
	if (n < sizeof small)
		return tx_put_attr(x, "name", small);
	char *big = malloc(n + 1);
	if (!big)
		return nomem(x);
	profdata_java_name(name, strlen(name), big, n + 1);
	int e = tx_put_attr(x, "name", big);
	free(big);
	return e;
}

static int put_function(tx_encoder *x, const profdata_function *f)
{
	const char *name = tx_encoder_string(x, f->name_id), *sig = tx_encoder_string(x, f->signature_id);
	const char *file = name ? tx_method_to_file(name) : NULL;
	char num[16];
	int e = name ? tx_put_attr(x, "name", file ? file : name) : 0;
	if (e == 0 && sig)
		e = tx_put_attr(x, "signature", sig);
	if (e == 0 && f->start_line > 0) {
		snprintf(num, sizeof num, "%d", (int)f->start_line);
		e = tx_put_attr(x, "startLineNumber", num);
	}
	if (e == 0 && f->end_line > 0) {
		snprintf(num, sizeof num, "%d", (int)f->end_line);
		e = tx_put_attr(x, "endLineNumber", num);
	}
	return e;
}

static int put_thread_names(tx_encoder *x, const profdata_thread_start *s)
{
	const char *name = tx_encoder_string(x, s->name_id), *group = tx_encoder_string(x, s->group_name_id);
	const char *parent = tx_encoder_string(x, s->parent_group_name_id);
	int e = name ? tx_put_attr(x, "threadName", name) : 0;
	if (e == 0 && group)
		e = tx_put_attr(x, "groupName", group);
	if (e == 0 && parent)
		e = tx_put_attr(x, "parentName", parent);
	return e;
}

int tx_put_definition(tx_encoder *x, const profdata_trace_event *t)
{
	uint32_t i;
	if (t->kind == PROFDATA_TRACE_CLASS_DEF && t->class_id && (i = pd_map_get(&x->class_ix, t->class_id))) {
		const char *name = tx_encoder_string(x, x->classes[i - 1].name_id);
		x->classes[i - 1].written = 1;
		return name ? put_class_name(x, name) : 0;
	}
	if (t->kind == PROFDATA_TRACE_METHOD_DEF && t->method_id && (i = pd_map_get(&x->function_ix, t->method_id))) {
		x->functions[i - 1].written = 1;
		return put_function(x, &x->functions[i - 1].f);
	}
	tx_thread *th = thread_of(x, t->thread_serial, 0);
	if (t->kind == PROFDATA_TRACE_THREAD_START && th) {
		th->start_written = 1;
		return put_thread_names(x, &th->start);
	}
	if (t->kind == PROFDATA_TRACE_THREAD_END && th)
		th->end_written = 1;
	return 0;
}

static int write_threads(tx_encoder *x)
{
	int e = 0;
	for (size_t i = 0; i < x->nthreads && e == 0; i++) {
		tx_thread *t = &x->threads[i];
		profdata_trace_event ev;
		memset(&ev, 0, sizeof(ev));
		ev.thread_serial = t->start.serial;
		if (!t->start_written) {
			ev.kind = PROFDATA_TRACE_THREAD_START;
			ev.time_ns = t->start.time_us * 1000;
			ev.object_id = t->start.object_id;
			e = tx_open_element(x, "threadStart", 0);
			if (e == 0)
				e = put_thread_names(x, &t->start);
			if (e == 0)
				e = tx_put_typed(x, &ev);
		}
		if (e == 0 && t->has_end && !t->end_written) {
			ev.kind = PROFDATA_TRACE_THREAD_END;
			ev.time_ns = t->end.time_us * 1000;
			ev.object_id = 0;
			e = tx_open_element(x, "threadEnd", 0);
			if (e == 0)
				e = tx_put_typed(x, &ev);
		}
	}
	return e;
}

int tx_write_definitions(tx_encoder *x)
{
	int e = write_threads(x);
	for (size_t i = 0; i < x->nclasses && e == 0; i++) {
		const tx_class *k = &x->classes[i];
		const char *name = tx_encoder_string(x, k->name_id);
		if (k->written)
			continue;
		e = tx_open_element(x, "classDef", 0);
		if (e == 0 && name)
			e = put_class_name(x, name);
		if (e == 0)
			e = tx_put_u64(x, "classId", k->id);
	}
	for (size_t i = 0; i < x->nfunctions && e == 0; i++) {
		const profdata_function *f = &x->functions[i].f;
		uint32_t k = f->class_serial ? pd_map_get(&x->class_serial_ix, f->class_serial) : 0;
		if (x->functions[i].written)
			continue;
		e = tx_open_element(x, "methodDef", 0);
		if (e == 0)
			e = put_function(x, f);
		if (e == 0)
			e = tx_put_u64(x, "methodId", f->id);
		if (e == 0 && k)
			e = tx_put_u64(x, "classIdRef", x->classes[k - 1].id);
	}
	return e ? e : tx_close_all(x);
}

void tx_symbols_free(tx_encoder *x)
{
	free(x->strtext.p);
	free(x->str_off);
	pd_map_free(&x->str_ix);
	free(x->classes);
	pd_map_free(&x->class_ix);
	pd_map_free(&x->class_serial_ix);
	free(x->functions);
	pd_map_free(&x->function_ix);
	free(x->threads);
	pd_map_free(&x->thread_ix);
}
