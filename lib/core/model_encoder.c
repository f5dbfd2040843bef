/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The encoder of every format that writes from a built profile (its
 * descriptor has write_model and no encoder_new): the events build a model,
 * and finish hands it to write_model. A conversion into such a format is
 * then decoder -> builder -> writer, and the writer needs no tables of its
 * own, whatever order the decoder gives the events in.
 */
#include "core/model_encoder.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct model_encoder {
	profdata_profile *profile;
	profdata_events build;         /* the builder's callbacks, called with `profile` */
	profdata_writer *w;
	const profdata_format *format;
	const pd_options *opts;
	int began, ended, failed;
} model_encoder;

/* The builder keeps its error on the profile; the caller of an encoder looks on the writer. */
static int forward_result(model_encoder *m, int rc)
{
	if (rc >= 0)
		return rc;
	const profdata_error *err = profdata_profile_error(m->profile);
	m->failed = rc;
	return pd_out_error(m->w, rc, "%s", err && err->message ? err->message : "building the profile failed");
}

/* Streaming encoders took events without a begin; a model needs one first. */
static int ensure_begun(model_encoder *m)
{
	if (m->began)
		return m->failed;
	profdata_meta meta;
	memset(&meta, 0, sizeof meta);
	m->began = 1;
	return forward_result(m, m->build.begin(m->profile, &meta));
}

static int on_begin(void *payload, const profdata_meta *meta)
{
	model_encoder *m = payload;
	m->began = 1;
	return forward_result(m, m->build.begin(m->profile, meta));
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	model_encoder *m = payload;
	int rc = ensure_begun(m);
	return rc ? rc : forward_result(m, m->build.string(m->profile, id, utf8, len));
}

/* The record events (PD_EACH_RECORD_EVENT) pass one struct to the builder. */
#define FORWARD(member, type)                                                   \
	static int on_##member(void *payload, const type *arg)                      \
	{                                                                           \
		model_encoder *m = payload;                                             \
		int rc = ensure_begun(m);                                               \
		return rc ? rc : forward_result(m, m->build.member(m->profile, arg));   \
	}

PD_EACH_RECORD_EVENT(FORWARD)

static int on_end(void *payload)
{
	model_encoder *m = payload;
	int rc = ensure_begun(m);
	if (rc || m->ended)
		return rc;
	m->ended = 1;
	return forward_result(m, m->build.end(m->profile));
}

static int model_encoder_finish(void *state)
{
	model_encoder *m = state;
	int rc = on_end(m);
	if (rc)
		return rc;
	return m->format->write_model(m->profile, m->w, m->opts);
}

static void model_encoder_free(void *state)
{
	model_encoder *m = state;
	if (!m)
		return;
	profdata_profile_free(m->profile);
	free(m);
}

/*
 * Heap-dump contents (dump_begin .. dump_end, objects, roots, class dumps)
 * are not taken: no whole-profile writer reads them, and a dump converted
 * to a call-stack format would otherwise be copied whole into memory.
 */
static const pd_encoder_ops model_encoder_ops = {
	.events = { PD_PROFILE_EVENTS(on_) },
	.finish = model_encoder_finish,
	.free = model_encoder_free,
};

int pd_model_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts,
                         const profdata_format *f)
{
	model_encoder *m = calloc(1, sizeof *m);
	if (!m || profdata_profile_new(&m->profile) < 0) {
		free(m);
		return pd_out_error(w, PROFDATA_ENOMEM, "%s: out of memory", f->name);
	}
	m->build = *profdata_profile_builder_events();
	m->w = w;
	m->format = f;
	m->opts = opts;
	*state = m;
	*ops = &model_encoder_ops;
	return 0;
}

/* ---- what writers from the model share ---- */

int pd_class_prefix(pd_strbuf *b, const profdata_profile *p, uint32_t class_serial, int java_form)
{
	size_t ci, len;
	profdata_class_info info;
	if (!class_serial || profdata_profile_find_class_serial(p, class_serial, &ci) < 0 ||
	    profdata_profile_class(p, ci, &info) < 0 || !info.has_load)
		return 0;
	const char *name = pd_profile_text(p, info.load.name_id, &len);
	if (!name || !len)
		return 0;
	if (!java_form)
		return pd_strbuf_add(b, name, len) || pd_strbuf_add(b, ".", 1) ? PROFDATA_ENOMEM : 0;
	char small[256];
	size_t need = profdata_java_name(name, len, small, sizeof small);
	int rc;
	if (need < sizeof small) {
		rc = pd_strbuf_add(b, small, need);
	} else {
		char *big = malloc(need + 1);
		if (!big)
			return PROFDATA_ENOMEM;
		profdata_java_name(name, len, big, need + 1);
		rc = pd_strbuf_add(b, big, need);
		free(big);
	}
	return rc || pd_strbuf_add(b, ".", 1) ? PROFDATA_ENOMEM : 0;
}

static int string_is(const profdata_profile *p, uint64_t id, const char *s)
{
	size_t len;
	const char *t = pd_profile_text(p, id, &len);
	return t && len == strlen(s) && memcmp(t, s, len) == 0;
}

size_t pd_sample_count_index(const profdata_profile *p)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES);
	for (size_t i = 0; i < n; i++) {
		profdata_sample_type t;
		profdata_profile_sample_type(p, i, &t);
		if (string_is(p, t.type_id, "samples") && string_is(p, t.unit_id, "count"))
			return i;
	}
	return 0;
}

int pd_need_samples(const profdata_profile *p, profdata_writer *w, const char *format)
{
	size_t objects = profdata_profile_count(p, PROFDATA_TABLE_OBJECTS);
	size_t classes = profdata_profile_count(p, PROFDATA_TABLE_CLASSES);
	if (profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) > 0 || (objects == 0 && classes == 0))
		return 0;
	return pd_out_error(w, PROFDATA_EUNSUPPORTED,
	                    "%s: the input holds no samples, only a heap (classes and objects); %s output is "
	                    "made of samples (convert a CPU profile, or write hprof or ibm-classic)",
	                    format, format);
}

int pd_sample_walk_init(pd_sample_walk *sw, const profdata_profile *p, profdata_writer *w, const char *format)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_STACKS), max = 0;
	memset(sw, 0, sizeof *sw);
	sw->p = p;
	sw->w = w;
	sw->format = format;
	sw->nsamples = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES);
	for (size_t i = 0; i < n; i++) {
		profdata_stack st;
		profdata_profile_stack(p, i, &st);
		if (st.serial > max)
			max = st.serial;
	}
	if (n == 0 || max > 4 * n + 1024 || n >= UINT32_MAX)
		return 0;
	sw->stack_of_serial = calloc(max + 1, sizeof *sw->stack_of_serial);
	if (!sw->stack_of_serial)
		return pd_out_error(w, PROFDATA_ENOMEM, "%s: out of memory", format);
	sw->nserials = max + 1;
	for (size_t i = 0; i < n; i++) {
		profdata_stack st;
		profdata_profile_stack(p, i, &st);
		sw->stack_of_serial[st.serial] = (uint32_t)i + 1;
	}
	return 0;
}

/* ---- buffered output ---- */

void pd_outbuf_add(pd_outbuf *o, const char *s, size_t n)
{
	if (o->rc)
		return;
	if (pd_strbuf_add(&o->buf, s, n)) {
		o->rc = pd_out_error(o->w, PROFDATA_ENOMEM, "out of memory");
		return;
	}
	if (o->buf.n >= (1u << 16)) {
		o->rc = pd_out_write(o->w, o->buf.p, o->buf.n);
		o->buf.n = 0;
	}
}

void pd_outbuf_str(pd_outbuf *o, const char *s)
{
	pd_outbuf_add(o, s, strlen(s));
}

void pd_outbuf_printf(pd_outbuf *o, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		pd_outbuf_add(o, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big) {
		if (!o->rc)
			o->rc = pd_out_error(o->w, PROFDATA_ENOMEM, "out of memory");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	pd_outbuf_add(o, big, (size_t)n);
	free(big);
}

/* The length of the UTF-8 sequence at s (at most n bytes), or 0 when it is not one. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
	if (len == 0 || len > n || (len == 2 && s[0] < 0xC2) || (len == 4 && s[0] > 0xF4))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((len == 3 && s[0] == 0xE0 && s[1] < 0xA0) || (len == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
	    (len == 4 && s[0] == 0xF0 && s[1] < 0x90) || (len == 4 && s[0] == 0xF4 && s[1] >= 0x90))
		return 0;
	return len;
}

void pd_outbuf_json_string(pd_outbuf *o, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t from = 0, i = 0;
	pd_outbuf_add(o, "\"", 1);
	while (i < n) {
		size_t len = utf8_length(u + i, n - i);
		char esc[8];
		const char *rep = NULL;
		if (len == 0)
			rep = "\\ufffd";
		else if (u[i] == '"')
			rep = "\\\"";
		else if (u[i] == '\\')
			rep = "\\\\";
		else if (u[i] < 0x20) {
			snprintf(esc, sizeof esc, "\\u%04x", u[i]);
			rep = esc;
		}
		if (rep) {
			pd_outbuf_add(o, s + from, i - from);
			pd_outbuf_str(o, rep);
			i += len ? len : 1;
			from = i;
		} else {
			i += len;
		}
	}
	pd_outbuf_add(o, s + from, n - from);
	pd_outbuf_add(o, "\"", 1);
}

int pd_outbuf_finish(pd_outbuf *o)
{
	if (o->rc == 0 && o->buf.n)
		o->rc = pd_out_write(o->w, o->buf.p, o->buf.n);
	free(o->buf.p);
	o->buf.p = NULL;
	o->buf.n = o->buf.cap = 0;
	return o->rc;
}

void pd_sample_walk_free(pd_sample_walk *sw)
{
	free(sw->stack_of_serial);
	sw->stack_of_serial = NULL;
}

int pd_sample_walk_next(pd_sample_walk *sw, profdata_sample *s, size_t *stack_index)
{
	if (sw->next >= sw->nsamples)
		return 0;
	profdata_profile_sample(sw->p, sw->next++, s);
	if (sw->stack_of_serial) {
		uint32_t row = s->stack_serial < sw->nserials ? sw->stack_of_serial[s->stack_serial] : 0;
		*stack_index = (size_t)row - 1;
		if (row)
			return 1;
	} else if (profdata_profile_find_stack(sw->p, s->stack_serial, stack_index) == 0) {
		return 1;
	}
	return pd_out_error(sw->w, PROFDATA_EINVAL, "%s: a sample refers to stack %" PRIu32
	                    " that no stack event defined", sw->format, s->stack_serial);
}
