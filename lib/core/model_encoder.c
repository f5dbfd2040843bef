/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The encoder of every format that writes from a built profile (its
 * descriptor has write_model and no encoder_new): the events build a model,
 * and finish hands it to write_model. A conversion into such a format is
 * then decoder -> builder -> writer, and the writer needs no tables of its
 * own, whatever order the decoder gives the events in.
 */
#include "core/model_encoder.h"

#include <stdlib.h>
#include <string.h>

typedef struct model_encoder {
	profdata_profile *profile;
	profdata_events build;         /* the builder's callbacks, called with `profile` */
	profdata_writer *w;
	const profdata_format *format;
	const pd_options *opts;
	int began, ended, failed;
	uint64_t skip;                 /* events not built: unknown records of another format's source (on_begin) */
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

/*
 * Records a decoder kept unread are its format's bytes, which only that
 * format's writer can put back (pprof's fields, a recording's events): a
 * model for another format would hold them for nothing. A source that
 * names no format is taken at its word.
 */
static int on_begin(void *payload, const profdata_meta *meta)
{
	model_encoder *m = payload;
	if (meta->format && strcmp(meta->format, m->format->name) != 0)
		m->skip |= PD_EVENT_BIT(unknown);
	m->began = 1;
	return forward_result(m, m->build.begin(m->profile, meta));
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	model_encoder *m = payload;
	int rc = ensure_begun(m);
	return rc ? rc : forward_result(m, m->build.string(m->profile, id, utf8, len));
}

/*
 * The record events outside heap dumps (event_list.h) pass one struct to
 * the builder; begin, string and end have handlers of their own above and
 * below, and heap-dump contents are not taken (model_encoder_ops).
 */
#define FORWARD_RECORD_PROFILE(member, type) \
	static int on_##member(void *payload, const type *arg) \
	{ \
		model_encoder *m = payload; \
		int rc = ensure_begun(m); \
		if (rc || (m->skip & PD_EVENT_BIT(member))) \
			return rc; \
		return forward_result(m, m->build.member(m->profile, arg)); \
	}
#define FORWARD_META_PROFILE(member, type)
#define FORWARD_STRING_PROFILE(member, type)
#define FORWARD_VOID_PROFILE(member, type)
#define FORWARD_RECORD_DUMP(member, type) FORWARD_RECORD_PROFILE(member, type)
#define FORWARD_VOID_DUMP(member, type) \
	static int on_##member(void *payload) \
	{ \
		model_encoder *m = payload; \
		int rc = ensure_begun(m); \
		return rc ? rc : forward_result(m, m->build.member(m->profile)); \
	}
#define FORWARD(a, shape, member, type, version, group, name) FORWARD_##shape##_##group(member, type)
PD_EVENT_LIST(FORWARD, ~)
#undef FORWARD

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
 * are taken only by a writer that reads them (write_model_heap): a dump
 * converted to a call-stack format would otherwise be copied whole into
 * memory.
 */
static const pd_encoder_ops model_encoder_ops = {
	.events = { PD_PROFILE_EVENTS(on_) },
	.finish = model_encoder_finish,
	.free = model_encoder_free,
};

static const pd_encoder_ops model_encoder_heap_ops = {
	.events = { PD_EVERY_EVENT(on_) },
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
	*ops = f->write_model_heap ? &model_encoder_heap_ops : &model_encoder_ops;
	return 0;
}
