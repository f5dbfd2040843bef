/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing XML trace elements: a closed document rooted at TRACE (or, with
 * root=traceRoot, the patent's spelling), one trace element per line, UTF-8,
 * valid against our trace.dtd whenever the input held only what it
 * declares; fragments=1 writes the wire form (no declaration, no root) and
 * zip=1 a .trcxml archive with one TraceContents entry per trace.
 *
 * It streams: trace events are written as they come; the classes,
 * functions and threads their defining elements name are remembered (their
 * number, not the trace's length, bounds memory). A source without trace
 * events (HPROF, gperftools) gets its classes, methods and threads written
 * at the end, and a warning says what the format could not hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_config.h"
#include "tracexml.h"
#include "tracexml_encode.h"
#include "util/hashmap.h"

/* ---- output ---- */

static int flush_out(tx_encoder *x)
{
	if (x->out.n == 0)
		return 0;
	int e = x->zip ? tx_zip_write(x, x->out.p, x->out.n) : pd_out_write(x->w, x->out.p, x->out.n);
	x->out.n = 0;
	return e;
}

static int put(tx_encoder *x, const char *s, size_t n)
{
	if (pd_strbuf_add(&x->out, s, n) < 0)
		return pd_out_error(x->w, PROFDATA_ENOMEM, "tracexml: out of memory");
	return x->out.n >= (1u << 16) ? flush_out(x) : 0;
}

#define PUTS(x, s) put((x), (s), strlen(s))

/* Length of the valid UTF-8 sequence at s (0: invalid). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
	if (len == 0 || len > n || (len == 2 && s[0] < 0xC2))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* Escaped for an attribute value or character data; bytes XML cannot carry become U+FFFD. */
static int put_escaped(tx_encoder *x, const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t run = 0, i = 0;
	int e = 0;
	while (i < n && e == 0) {
		unsigned char c = s[i];
		if (c >= 0x20 && c < 0x7F && c != '&' && c != '<' && c != '>' && c != '"') {
			i++;
			continue;
		}
		const char *rep = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
		                : c == '\t' ? "&#9;" : c == '\n' ? "&#10;" : c == '\r' ? "&#13;" : NULL;
		size_t len = rep ? 0 : c < 0x20 ? 0 : utf8_len(s + i, n - i);
		if (!rep && len == 0)
			rep = "\xEF\xBF\xBD";
		if (rep) {
			e = put(x, text + run, i - run);
			if (e == 0)
				e = PUTS(x, rep);
			run = ++i;
		} else {
			i += len;
		}
	}
	return e ? e : put(x, text + run, i - run);
}

/* An attribute whose value needs no escaping (digits, '.'). */
static int put_plain_attr(tx_encoder *x, const char *key, const char *value, size_t len)
{
	size_t klen = strlen(key);
	if (pd_grow((void **)&x->out.p, &x->out.cap, x->out.n + klen + len + 5, 1) < 0)
		return pd_out_error(x->w, PROFDATA_ENOMEM, "tracexml: out of memory");
	char *o = x->out.p + x->out.n;
	*o++ = ' ';
	memcpy(o, key, klen);
	o += klen;
	*o++ = '=';
	*o++ = '"';
	memcpy(o, value, len);
	o += len;
	*o++ = '"';
	*o = '\0';
	x->out.n = (size_t)(o - x->out.p);
	return x->out.n >= (1u << 16) ? flush_out(x) : 0;
}

static int plain_ascii(const char *v, size_t *len)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t i = 0;
	for (; s[i]; i++)
		if (s[i] < 0x20 || s[i] >= 0x7F || s[i] == '&' || s[i] == '<' || s[i] == '>' || s[i] == '"')
			return 0;
	*len = i;
	return 1;
}

static int put_attr(tx_encoder *x, const char *key, const char *value)
{
	size_t vlen;
	if (plain_ascii(value, &vlen))
		return put_plain_attr(x, key, value, vlen);
	int e = put(x, " ", 1);
	if (e == 0)
		e = PUTS(x, key);
	if (e == 0)
		e = put(x, "=\"", 2);
	if (e == 0)
		e = put_escaped(x, value, strlen(value));
	return e ? e : put(x, "\"", 1);
}

static int put_u64(tx_encoder *x, const char *key, uint64_t v)
{
	char num[24];
	if (!v)
		return 0;
	return put_plain_attr(x, key, num, tx_format_u64(v, num));
}

static int put_time(tx_encoder *x, const char *key, uint64_t ns)
{
	char buf[32];
	if (!ns)
		return 0;
	return put_plain_attr(x, key, buf, tx_format_time(ns, buf));
}

static int put_kvs(tx_encoder *x, const profdata_kv *kv, size_t n)
{
	int e = 0;
	for (size_t i = 0; i < n && e == 0; i++)
		if (kv[i].key && kv[i].key[0])
			e = put_attr(x, kv[i].key, kv[i].value ? kv[i].value : "");
	return e;
}

/* ---- the element structure ---- */

/* Close the open elements down to `level` (0: the trace element too), ending the line at 0. */
static int close_to(tx_encoder *x, unsigned level)
{
	int e = 0;
	while (x->open > level && e == 0) {
		x->open--;
		if (x->tag_open) {
			e = put(x, "/>", 2);
			x->tag_open = 0;
		} else {
			e = put(x, "</", 2);
			if (e == 0)
				e = PUTS(x, x->names.p + x->name_off[x->open]);
			if (e == 0)
				e = put(x, ">", 1);
		}
		x->names.n = x->name_off[x->open];
		if (e == 0 && x->open == 0)
			e = put(x, "\n", 1);
	}
	return e;
}

/* Start element `name` at nesting `level` (0: a trace element); its attributes follow. */
int tx_open_element(tx_encoder *x, const char *name, unsigned level)
{
	int e = tx_begin_trace(x, NULL, 0);
	if (e == 0)
		e = close_to(x, level < x->open ? level : x->open);
	if (e == 0 && x->tag_open) {
		e = put(x, ">", 1);
		x->tag_open = 0;
	}
	if (e == 0 && level != x->open)
		return pd_out_error(x->w, PROFDATA_EINVAL, "tracexml: a nested element without its parent");
	if (e == 0 && level >= TX_MAX_DEPTH)
		return pd_out_error(x->w, PROFDATA_ELIMIT, "tracexml: elements nested deeper than 64");
	x->name_off[x->open++] = x->names.n;
	if (e == 0 && pd_strbuf_add(&x->names, name, strlen(name) + 1) < 0)
		e = PROFDATA_ENOMEM;
	if (e == 0)
		e = put(x, "<", 1);
	if (e == 0)
		e = PUTS(x, name);
	x->tag_open = 1;
	return e;
}

static int put_text(tx_encoder *x, unsigned level, const char *text)
{
	int e = close_to(x, level < x->open ? level : x->open);
	if (e == 0 && x->tag_open) {
		e = put(x, ">", 1);
		x->tag_open = 0;
	}
	return e ? e : put_escaped(x, text, strlen(text));
}

/* ---- traces ---- */

int tx_begin_trace(tx_encoder *x, const char *entry, int force)
{
	if (x->in_trace && !force)
		return 0;
	int e = tx_end_trace(x);
	x->in_trace = 1;
	x->ntraces++;
	if (e == 0 && x->zip)
		e = tx_zip_entry(x, entry);
	if (e == 0 && !x->fragments) {
		e = PUTS(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<");
		if (e == 0)
			e = PUTS(x, x->root);
		if (e == 0)
			e = put(x, ">\n", 2);
	}
	return e;
}

int tx_end_trace(tx_encoder *x)
{
	if (!x->in_trace)
		return 0;
	int e = close_to(x, 0);
	x->in_trace = 0;
	if (e == 0 && !x->fragments) {
		e = put(x, "</", 2);
		if (e == 0)
			e = PUTS(x, x->root);
		if (e == 0)
			e = put(x, ">\n", 2);
	}
	return e ? e : flush_out(x);
}

static int on_trace_context(void *payload, const profdata_trace_context *c)
{
	tx_encoder *x = payload;
	if (c->kind == PROFDATA_TRACE_CONTEXT_BEGIN) {
		/* One document holds one trace: without zip=1 later traces join the first. */
		if (!x->zip && x->in_trace) {
			x->merged_traces++;
			return 0;
		}
		return tx_begin_trace(x, NULL, 1);
	}
	const tx_element *el = tx_context_element(c->kind);
	if (!el) {
		x->lost_contexts++;
		return 0;
	}
	int e = tx_open_element(x, el->name, 0);
	if (e == 0 && c->id && el->id_attr)
		e = put_attr(x, el->id_attr, c->id);
	if (e == 0 && c->ref && el->ref_attr)
		e = put_attr(x, el->ref_attr, c->ref);
	if (e == 0)
		e = put_time(x, "time", c->time_ns);
	return e ? e : put_kvs(x, c->attrs, c->nattrs);
}

static int on_trace_event(void *payload, const profdata_trace_event *t)
{
	tx_encoder *x = payload;
	int e;
	if (t->kind == PROFDATA_TRACE_NESTED && !t->name_id) {
		const char *text = t->nattrs && t->attrs[0].value ? t->attrs[0].value : "";
		return put_text(x, t->depth, text);
	}
	if (t->kind == PROFDATA_TRACE_NESTED || t->kind == PROFDATA_TRACE_OTHER || !tx_event_element_name(t->kind)) {
		const char *name = tx_encoder_string(x, t->name_id);
		if (!name || !name[0]) {
			x->lost_events++;
			return 0;
		}
		e = tx_open_element(x, name, t->kind == PROFDATA_TRACE_NESTED ? t->depth : 0);
		if (e == 0 && t->kind != PROFDATA_TRACE_NESTED)
			e = tx_put_typed(x, t);
		return e ? e : put_kvs(x, t->attrs, t->nattrs);
	}
	e = tx_open_element(x, tx_event_element_name(t->kind), 0);
	if (e == 0)
		e = tx_put_definition(x, t);
	if (e == 0)
		e = tx_put_typed(x, t);
	return e ? e : put_kvs(x, t->attrs, t->nattrs);
}

/* The typed fields of a trace event, under the names its kind spells them. */
int tx_put_typed(tx_encoder *x, const profdata_trace_event *t)
{
	tx_typed_names n;
	tx_typed_names_of(t->kind, &n);
	int e = put_u64(x, n.thread, t->thread_serial);
	if (e == 0)
		e = put_time(x, "time", t->time_ns);
	if (e == 0)
		e = put_u64(x, n.method, t->method_id);
	if (e == 0)
		e = put_u64(x, n.klass, t->class_id);
	if (e == 0)
		e = put_u64(x, n.object, t->object_id);
	if (e == 0)
		e = put_u64(x, "ticket", t->ticket);
	if (e == 0)
		e = put_u64(x, "stackDepth", t->depth);
	if (e == 0)
		e = put_time(x, "threadCpuTime", t->cpu_time_ns);
	return e;
}

int tx_put_attr(tx_encoder *x, const char *key, const char *value) { return put_attr(x, key, value); }
int tx_put_u64(tx_encoder *x, const char *key, uint64_t v) { return put_u64(x, key, v); }
int tx_close_all(tx_encoder *x) { return close_to(x, 0); }

static int on_end(void *payload)
{
	tx_encoder *x = payload;
	int e = tx_write_definitions(x);
	if (e == 0 && !x->in_trace && x->ntraces == 0)
		e = tx_begin_trace(x, NULL, 0);
	if (e == 0)
		e = tx_end_trace(x);
	if (e == 0 && x->zip)
		e = tx_zip_close(x);
	return e;
}

static int encoder_finish(void *state)
{
	tx_encoder *x = state;
	if (x->lost_samples || x->lost_objects || x->lost_other)
		pd_out_warn(x->w,
		            "tracexml: the format cannot hold %llu samples, %llu heap objects and %llu other records "
		            "(stacks, sites, roots, ...) of the input; they were not written",
		            (unsigned long long)x->lost_samples, (unsigned long long)x->lost_objects,
		            (unsigned long long)x->lost_other);
	if (x->merged_traces)
		pd_out_warn(x->w, "tracexml: %llu traces after the first were written into its document (zip=1 keeps "
		            "each in an archive entry of its own)", (unsigned long long)x->merged_traces);
	if (x->lost_events || x->lost_contexts)
		pd_out_warn(x->w, "tracexml: %llu elements without a name were not written",
		            (unsigned long long)(x->lost_events + x->lost_contexts));
	return 0;
}

static void encoder_free(void *state)
{
	tx_encoder *x = state;
	if (!x)
		return;
	tx_symbols_free(x);
	tx_zip_free(x);
	free(x->out.p);
	free(x->names.p);
	free(x);
}

static const pd_encoder_ops tracexml_ops = {
	.events = {
		.version = PROFDATA_EVENTS_VERSION,
		.string = tx_on_string,
		.class_load = tx_on_class_load,
		.function = tx_on_function,
		.thread_start = tx_on_thread_start,
		.thread_end = tx_on_thread_end,
		.sample = tx_on_sample,
		.object = tx_on_object,
		.stack = tx_on_other_stack,
		.alloc_sites = tx_on_other_sites,
		.root = tx_on_other_root,
		.trace_event = on_trace_event,
		.trace_context = on_trace_context,
		.end = on_end,
	},
	.finish = encoder_finish,
	.free = encoder_free,
};

int pd_tracexml_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts)
{
	long long fragments = 0, zip = 0;
	const char *root = pd_options_get(opts, "root");
	if (root && strcmp(root, "TRACE") != 0 && strcmp(root, "traceRoot") != 0)
		return pd_out_error(w, PROFDATA_EINVAL, "tracexml: root must be TRACE or traceRoot, not '%s'", root);
	int e = pd_options_int(opts, "fragments", 0, 0, 1, &fragments, pd_out_diag(w));
	if (e == 0)
		e = pd_options_int(opts, "zip", 0, 0, 1, &zip, pd_out_diag(w));
	if (e < 0)
		return e;
#if !PD_HAVE_LIBARCHIVE
	if (zip)
		return pd_out_error(w, PROFDATA_EUNSUPPORTED, "tracexml: zip=1 needs libarchive, which this build lacks");
#endif
	tx_encoder *x = calloc(1, sizeof(*x));
	if (!x)
		return PROFDATA_ENOMEM;
	x->w = w;
	x->root = root ? root : "TRACE";
	x->fragments = (int)fragments;
	x->zip = (int)zip;
	*state = x;
	*ops = &tracexml_ops;
	return 0;
}
