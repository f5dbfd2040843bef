/*
 * The encoder of every format that writes from a built profile (its
 * descriptor has write_model and no encoder_new): the events build a model,
 * and finish hands it to write_model. A conversion into such a format is
 * then decoder -> builder -> writer, and the writer needs no tables of its
 * own, whatever order the decoder gives the events in.
 */
#include "core/model_encoder.h"

#include <inttypes.h>
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

/* Every other event passes one struct to the builder. */
#define FORWARD(member, type)                                                   \
	static int on_##member(void *payload, const type *arg)                      \
	{                                                                           \
		model_encoder *m = payload;                                             \
		int rc = ensure_begun(m);                                               \
		return rc ? rc : forward_result(m, m->build.member(m->profile, arg));   \
	}

FORWARD(class_load, profdata_class_load)
FORWARD(class_unload, profdata_class_unload)
FORWARD(function, profdata_function)
FORWARD(frame, profdata_frame)
FORWARD(stack, profdata_stack)
FORWARD(thread_start, profdata_thread_start)
FORWARD(thread_end, profdata_thread_end)
FORWARD(sample_type, profdata_sample_type)
FORWARD(sample_group, profdata_sample_group)
FORWARD(sample, profdata_sample)
FORWARD(alloc_sites, profdata_alloc_sites)
FORWARD(heap_summary, profdata_heap_summary)
FORWARD(control_settings, profdata_control_settings)
FORWARD(mapping, profdata_mapping)
FORWARD(unknown, profdata_unknown)
FORWARD(attachment, profdata_attachment)
FORWARD(trace_event, profdata_trace_event)

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
	.events = {
		.version = PROFDATA_EVENTS_VERSION,
		.begin = on_begin,
		.string = on_string,
		.class_load = on_class_load,
		.class_unload = on_class_unload,
		.function = on_function,
		.frame = on_frame,
		.stack = on_stack,
		.thread_start = on_thread_start,
		.thread_end = on_thread_end,
		.sample_type = on_sample_type,
		.sample_group = on_sample_group,
		.sample = on_sample,
		.alloc_sites = on_alloc_sites,
		.heap_summary = on_heap_summary,
		.control_settings = on_control_settings,
		.mapping = on_mapping,
		.unknown = on_unknown,
		.attachment = on_attachment,
		.trace_event = on_trace_event,
		.end = on_end,
	},
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

int64_t pd_sample_count(const profdata_sample *s, size_t count_index)
{
	if (count_index < s->nvalues)
		return s->values[count_index];
	return s->nvalues ? 0 : 1;
}

int pd_sample_with_stack(const profdata_profile *p, size_t i, profdata_sample *s, size_t *stack_index,
                         profdata_writer *w, const char *format)
{
	profdata_profile_sample(p, i, s);
	if (profdata_profile_find_stack(p, s->stack_serial, stack_index) < 0)
		return pd_out_error(w, PROFDATA_EINVAL, "%s: a sample refers to stack %" PRIu32
		                    " that no stack event defined", format, s->stack_serial);
	return 0;
}
