/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JVM's types into the model: a sample event's stack trace (frames of
 * methods of classes, names from symbols), its thread and time. Pool
 * entries are read when first referred to in a chunk and keyed by what
 * they hold, so that chunks, whose pools number entries afresh, share
 * the classes, functions, frames, stacks and threads emitted; per chunk,
 * a map from pool index to id saves reading an entry twice.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "codecs/jfr/jfr.h"

/* The types read, their names, and the fields read of each (at most 4; a sample's are sample_fields'). */
static const char *const type_names[JT_COUNT] = { "jdk.types.StackTrace", "jdk.types.StackFrame", "jdk.types.Method",
	                                          "java.lang.Class", "jdk.types.Symbol", "java.lang.Thread",
	                                          "java.lang.String", "jdk.types.FrameType", "jdk.types.ThreadState",
	                                          "jdk.types.OldObject", "jdk.types.Reference", "jdk.types.OldObjectArray",
	                                          "jdk.types.OldObjectGcRoot", NULL };
static const char *const field_names[JT_COUNT][4] = {
	{ "truncated", "frames", NULL, NULL },         { "method", "lineNumber", "type", NULL },
	{ "type", "name", "descriptor", NULL },        { "name", NULL, NULL, NULL },
	{ "string", NULL, NULL, NULL },                { "javaName", "osName", "javaThreadId", "osThreadId" },
	{ NULL, NULL, NULL, NULL },                    { "description", NULL, NULL, NULL },
	{ "name", NULL, NULL, NULL },                  { "address", "type", "referrer", NULL },
	{ "array", "object", NULL, NULL },             { "size", NULL, NULL, NULL },
	{ "system", "type", "description", NULL },
};

/* The fields read of a sample event: its time, thread (either name), stack, value and thread state. */
static void sample_fields(jfr_decoder *d, size_t k, const jfr_sample_spec *spec)
{
	const jfr_type *t = &d->meta.types[d->row[k]];
	d->fx[k][0] = jfr_field_find(&d->meta, t, "startTime");
	d->fx[k][1] = jfr_field_find(&d->meta, t, "sampledThread");
	if (d->fx[k][1] == SIZE_MAX)
		d->fx[k][1] = jfr_field_find(&d->meta, t, "eventThread");
	d->fx[k][2] = jfr_field_find(&d->meta, t, "stackTrace");
	d->fx[k][3] = spec->value ? jfr_field_find(&d->meta, t, spec->value) : SIZE_MAX;
	d->fx[k][4] = jfr_field_find(&d->meta, t, "state");
}

void jfr_typed_chunk_reset(jfr_decoder *d)
{
	pd_map *const per_chunk[] = { &d->stack_of, &d->method_of, &d->class_of, &d->thread_of, &d->kind_of,
		                      &d->state_of };
	for (size_t i = 0; i < sizeof per_chunk / sizeof *per_chunk; i++) {
		pd_map_free(per_chunk[i]);
		memset(per_chunk[i], 0, sizeof *per_chunk[i]);
	}
	for (size_t k = 0; k < JT_COUNT; k++) {
		const char *name = k < JT_SAMPLE ? type_names[k] : k - JT_SAMPLE < d->nspec ? d->spec[k - JT_SAMPLE].event : NULL;
		d->row[k] = name ? jfr_type_find(&d->meta, name) : SIZE_MAX;
		if (k >= JT_SAMPLE && d->row[k] != SIZE_MAX) {
			sample_fields(d, k, &d->spec[k - JT_SAMPLE]);
			continue;
		}
		for (int f = 0; f < JFR_PICKED; f++)
			d->fx[k][f] = d->row[k] == SIZE_MAX || f >= 4 || !field_names[k][f]
			                      ? SIZE_MAX
			                      : jfr_field_find(&d->meta, &d->meta.types[d->row[k]], field_names[k][f]);
	}
}

/* Put `key` (len bytes) in t: *id its index + 1, *is_new whether it was not there. */
static int intern_id(pd_intern *t, const void *key, size_t len, uint64_t *id, int *is_new)
{
	uint32_t ix;
	int rc = t->n >= UINT32_MAX - 1 ? PROFDATA_ELIMIT : pd_intern_put(t, key, len, &ix);
	if (rc < 0)
		return rc;
	*id = (uint64_t)ix + 1;
	*is_new = rc == 0;
	return 0;
}

int jfr_string_id(jfr_decoder *d, const char *s, size_t len, uint64_t *id)
{
	int is_new, rc = intern_id(&d->strings, s, len, id, &is_new);
	return rc || !is_new ? rc : PD_EMIT(d->a, string, *id, s, len);
}

/* The wanted fields of a value of type `kind` at c into out[0..JFR_PICKED) (absent ones zero). */
int jfr_pick(jfr_decoder *d, jfr_cur *c, size_t kind, jfr_value *out)
{
	const jfr_type *t = &d->meta.types[d->row[kind]];
	const size_t *want = d->fx[kind];
	memset(out, 0, JFR_PICKED * sizeof *out);
	for (size_t i = 0; i < t->nfields; i++) {
		jfr_value skipped, *v = &skipped; /* a wanted field is read into its place, not copied there */
		for (int k = 0; k < JFR_PICKED; k++)
			if (want[k] == i) {
				v = &out[k];
				break;
			}
		int rc = jfr_read_field(c, &d->meta, &t->fields[i], v, 0);
		if (rc)
			return rc;
	}
	return 0;
}

/* Field k of type `kind` as the metadata has it, or NULL. */
const jfr_field *jfr_field_of(const jfr_decoder *d, size_t kind, int k)
{
	return d->fx[kind][k] == SIZE_MAX ? NULL : &d->meta.types[d->row[kind]].fields[d->fx[kind][k]];
}

/* A cursor at entry `index` of type `kind`'s pool: 0, 1 when there is none (damage: a warning), or an error. */
int jfr_entry(jfr_decoder *d, int kind, uint64_t index, const unsigned char *at, jfr_cur *out)
{
	if (d->row[kind] == SIZE_MAX)
		return 1;
	if (jfr_pool_at(&d->chunk, &d->meta.types[d->row[kind]], d->chunk.p, index, out) == 0)
		return 0;
	int rc = pd_in_damage(d->in, d->a->mode, PROFDATA_EFORMAT, (uint64_t)(at - d->base), 0,
	                      "jfr: no entry %" PRIu64 " in the constant pool of %s", index, type_names[kind]);
	return rc ? rc : 1;
}

/* The text of string field f's value v into d->text (a pool string looked up). */
int jfr_field_text(jfr_decoder *d, const jfr_field *f, const jfr_value *v)
{
	jfr_str s = v->s;
	jfr_cur c;
	int rc;
	d->text.n = 0;
	if (d->text.p)
		d->text.p[0] = 0;
	if (!f || d->meta.types[f->type].kind != JFR_STRING || f->array)
		return 0;
	if (f->pooled || s.enc == JFR_STR_POOL) {
		if ((rc = jfr_entry(d, JT_STRING, f->pooled ? v->u : s.index, v->at, &c)) != 0)
			return rc < 0 ? rc : 0;
		if ((rc = jfr_string(&c, &s)) != 0)
			return rc;
	}
	return jfr_string_utf8(&d->chunk, &s, &d->text);
}

/* The text of symbol `index` into d->text. */
static int symbol_text(jfr_decoder *d, uint64_t index, const unsigned char *at)
{
	jfr_value v[JFR_PICKED];
	jfr_cur c;
	int rc = jfr_entry(d, JT_SYMBOL, index, at, &c);
	d->text.n = 0;
	if (rc)
		return rc < 0 ? rc : 0;
	return (rc = jfr_pick(d, &c, JT_SYMBOL, v)) != 0 ? rc
	                                                 : jfr_field_text(d, jfr_field_of(d, JT_SYMBOL, 0), &v[0]);
}

/* A pooled field's symbol text: field k of `kind`, value v. */
static int field_symbol(jfr_decoder *d, int kind, int k, const jfr_value *v)
{
	const jfr_field *f = jfr_field_of(d, kind, k);
	d->text.n = 0;
	if (!f || !f->pooled || d->meta.types[f->type].kind == JFR_STRING)
		return jfr_field_text(d, f, v);
	return symbol_text(d, v->u, v->at);
}

/* Class `index` of the pool: its serial, its class_load emitted at first sight of its name. */
int jfr_class_serial(jfr_decoder *d, uint64_t index, const unsigned char *at, uint64_t *serial)
{
	jfr_value v[JFR_PICKED];
	jfr_cur c;
	uint64_t name_id;
	int is_new, rc;
	if ((*serial = pd_map_get(&d->class_of, index)) != 0)
		return 0;
	if ((rc = jfr_entry(d, JT_CLASS, index, at, &c)) != 0)
		return rc < 0 ? rc : 0;
	if ((rc = jfr_pick(d, &c, JT_CLASS, v)) != 0 || (rc = field_symbol(d, JT_CLASS, 0, &v[0])) != 0 ||
	    (rc = intern_id(&d->classes, d->text.p ? d->text.p : "", d->text.n, serial, &is_new)) != 0)
		return rc;
	if (is_new) {
		if ((rc = jfr_string_id(d, d->text.p ? d->text.p : "", d->text.n, &name_id)) != 0)
			return rc;
		profdata_class_load l = { .serial = (uint32_t)*serial, .id = *serial, .name_id = name_id };
		if ((rc = PD_EMIT(d->a, class_load, &l)) != 0)
			return rc;
	}
	return pd_map_put(&d->class_of, index, (uint32_t)*serial) ? PROFDATA_ENOMEM : 0;
}

/* Method `index` of the pool: its function id, emitted at first sight of its class, name and descriptor. */
static int method_id(jfr_decoder *d, uint64_t index, const unsigned char *at, uint64_t *id)
{
	jfr_value v[JFR_PICKED];
	jfr_cur c;
	uint64_t key[3] = { 0, 0, 0 };
	int is_new, rc;
	if ((*id = pd_map_get(&d->method_of, index)) != 0)
		return 0;
	if ((rc = jfr_entry(d, JT_METHOD, index, at, &c)) != 0)
		return rc < 0 ? rc : 0;
	if ((rc = jfr_pick(d, &c, JT_METHOD, v)) != 0)
		return rc;
	if (jfr_field_of(d, JT_METHOD, 0) && jfr_field_of(d, JT_METHOD, 0)->pooled &&
	    (rc = jfr_class_serial(d, v[0].u, v[0].at, &key[0])) != 0)
		return rc;
	for (int k = 1; k <= 2; k++)
		if ((rc = field_symbol(d, JT_METHOD, k, &v[k])) != 0 ||
		    (rc = jfr_string_id(d, d->text.p ? d->text.p : "", d->text.n, &key[k])) != 0)
			return rc;
	if ((rc = intern_id(&d->functions, key, sizeof key, id, &is_new)) != 0)
		return rc;
	if (is_new) {
		profdata_function f = { .id = *id, .name_id = key[1], .signature_id = key[2], .class_serial = (uint32_t)key[0] };
		if ((rc = PD_EMIT(d->a, function, &f)) != 0)
			return rc;
	}
	return pd_map_put(&d->method_of, index, (uint32_t)*id) ? PROFDATA_ENOMEM : 0;
}

/* FrameType `index` of the pool: its kind (PROFDATA_FRAME_KIND_UNKNOWN for a description not known). */
static int frame_kind(jfr_decoder *d, uint64_t index, const unsigned char *at, uint64_t *kind)
{
	jfr_value v[JFR_PICKED];
	jfr_cur c;
	int rc;
	uint32_t known = pd_map_get(&d->kind_of, index);
	*kind = PROFDATA_FRAME_KIND_UNKNOWN;
	if (known) {
		*kind = known - 1;
		return 0;
	}
	if ((rc = jfr_entry(d, JT_FRAME_TYPE, index, at, &c)) != 0)
		return rc < 0 ? rc : 0;
	if ((rc = jfr_pick(d, &c, JT_FRAME_TYPE, v)) != 0 ||
	    (rc = jfr_field_text(d, jfr_field_of(d, JT_FRAME_TYPE, 0), &v[0])) != 0)
		return rc;
	for (uint32_t k = 1; k < JFR_FRAME_KINDS; k++)
		if (d->text.n == strlen(jfr_frame_type_names[k]) && memcmp(d->text.p, jfr_frame_type_names[k], d->text.n) == 0)
			*kind = k;
	return pd_map_put(&d->kind_of, index, (uint32_t)*kind + 1) ? PROFDATA_ENOMEM : 0;
}

/*
 * A StackFrame at c: its frame id (function, line and kind), emitted at
 * first sight with its kind when known: the JIT-compiled and interpreted
 * frames of one method and line are two frames.
 */
static int frame_id(jfr_decoder *d, jfr_cur *c, uint64_t *id)
{
	jfr_value v[JFR_PICKED];
	uint64_t key[3] = { 0, 0, 0 };
	int is_new, rc;
	if ((rc = jfr_pick(d, c, JT_STACK_FRAME, v)) != 0)
		return rc;
	if (jfr_field_of(d, JT_STACK_FRAME, 0) && jfr_field_of(d, JT_STACK_FRAME, 0)->pooled &&
	    (rc = method_id(d, v[0].u, v[0].at, &key[0])) != 0)
		return rc;
	key[1] = (uint32_t)v[1].u;
	if (jfr_field_of(d, JT_STACK_FRAME, 2) && jfr_field_of(d, JT_STACK_FRAME, 2)->pooled &&
	    (rc = frame_kind(d, v[2].u, v[2].at, &key[2])) != 0)
		return rc;
	if ((rc = intern_id(&d->frames, key, sizeof key, id, &is_new)) != 0 || !is_new)
		return rc;
	profdata_frame f = { .id = *id, .function_id = key[0], .line = (int32_t)(uint32_t)key[1] };
	profdata_frame_kind k = { .frame_id = *id, .kind = (uint32_t)key[2] };
	if ((rc = PD_EMIT(d->a, frame, &f)) != 0 || !k.kind)
		return rc;
	return PD_EMIT(d->a, frame_kind, &k);
}

/* The frames of a stack trace's `frames` field (inline StackFrames) into d->frame_ids, with room for one more. */
static int stack_frames(jfr_decoder *d, const jfr_value *frames, size_t *n)
{
	const jfr_field *f = jfr_field_of(d, JT_STACK_TRACE, 1);
	jfr_cur c = d->chunk;
	*n = 0;
	if (!f || !f->array || f->pooled || d->row[JT_STACK_FRAME] == SIZE_MAX ||
	    f->type != d->row[JT_STACK_FRAME])
		return 0;
	c.p = frames->at;
	if (frames->u >= d->frames_cap &&
	    pd_grow((void **)&d->frame_ids, &d->frames_cap, (size_t)frames->u + 1, sizeof *d->frame_ids))
		return PROFDATA_ENOMEM;
	for (uint64_t i = 0; i < frames->u; i++) {
		int rc = frame_id(d, &c, &d->frame_ids[i]);
		if (rc)
			return rc;
	}
	*n = (size_t)frames->u;
	return 0;
}

/* A new stack: its frames (d->frame_ids), then whether the recorder cut it short. */
static int emit_stack(jfr_decoder *d, uint32_t serial, size_t n, int truncated)
{
	profdata_stack s = { .serial = serial, .frame_ids = d->frame_ids, .nframes = n };
	profdata_stack_truncated t = { .stack_serial = serial };
	int rc = PD_EMIT(d->a, stack, &s);
	return rc || !truncated ? rc : PD_EMIT(d->a, stack_truncated, &t);
}

/* The serial of the stack of the n frames in d->frame_ids (room for one more), emitted when new. */
static int stack_of_frames(jfr_decoder *d, size_t n, int truncated, uint32_t *serial)
{
	uint64_t id;
	int is_new, rc;
	/* a truncated stack is keyed apart from a whole one of the same frames: frame id 0 (none) ends its key */
	d->frame_ids[n] = 0;
	if ((rc = intern_id(&d->stacks, d->frame_ids, (n + (size_t)truncated) * sizeof *d->frame_ids, &id,
	                    &is_new)) != 0)
		return rc;
	*serial = (uint32_t)id;
	return is_new ? emit_stack(d, *serial, n, truncated) : 0;
}

/* Stack trace `index` of the pool: its serial, emitted at first sight of its frames. */
int jfr_stack_serial(jfr_decoder *d, uint64_t index, const unsigned char *at, uint32_t *serial)
{
	jfr_value v[JFR_PICKED];
	jfr_cur c;
	size_t n = 0;
	int rc;
	if ((*serial = pd_map_get(&d->stack_of, index)) != 0)
		return 0;
	if (pd_grow((void **)&d->frame_ids, &d->frames_cap, 1, sizeof *d->frame_ids))
		return PROFDATA_ENOMEM;
	if ((rc = jfr_entry(d, JT_STACK_TRACE, index, at, &c)) < 0)
		return rc;
	if (rc == 0 && ((rc = jfr_pick(d, &c, JT_STACK_TRACE, v)) != 0 || (rc = stack_frames(d, &v[1], &n)) != 0))
		return rc;
	if ((rc = stack_of_frames(d, n, rc == 0 && v[0].u != 0, serial)) != 0)
		return rc;
	return pd_map_put(&d->stack_of, index, *serial) ? PROFDATA_ENOMEM : 0;
}

/*
 * The serial of the stack of no frames: a sample of an event type that has
 * no stack trace (events=jdk.BooleanFlag), or whose stack trace is null
 * (0: the JDK's with stackTrace=false in the settings), is on it, as one
 * whose stack the pool lacks is, so that every writer takes it (stack
 * serial 0 names no stack).
 */
static int no_stack_serial(jfr_decoder *d, uint32_t *serial)
{
	if (pd_grow((void **)&d->frame_ids, &d->frames_cap, 1, sizeof *d->frame_ids))
		return PROFDATA_ENOMEM;
	return stack_of_frames(d, 0, 0, serial);
}

/* Thread `index` of the pool: its serial, its thread_start emitted at first sight (ids and name). */
int jfr_thread_serial(jfr_decoder *d, uint64_t index, const unsigned char *at, uint32_t *serial)
{
	jfr_value v[JFR_PICKED];
	jfr_cur c;
	uint64_t id, name_id;
	int is_new, rc;
	if ((*serial = pd_map_get(&d->thread_of, index)) != 0 || index == 0)
		return 0;
	if ((rc = jfr_entry(d, JT_THREAD, index, at, &c)) != 0)
		return rc < 0 ? rc : 0;
	if ((rc = jfr_pick(d, &c, JT_THREAD, v)) != 0 ||
	    (rc = jfr_field_text(d, jfr_field_of(d, JT_THREAD, 0), &v[0])) != 0)
		return rc;
	if (d->text.n == 0 && (rc = jfr_field_text(d, jfr_field_of(d, JT_THREAD, 1), &v[1])) != 0)
		return rc;
	if ((rc = jfr_string_id(d, d->text.p ? d->text.p : "", d->text.n, &name_id)) != 0)
		return rc;
	uint64_t key[3] = { v[2].u, v[3].u, name_id };
	if ((rc = intern_id(&d->threads, key, sizeof key, &id, &is_new)) != 0)
		return rc;
	*serial = (uint32_t)id;
	if (is_new) {
		profdata_thread_start t = { .serial = *serial, .object_id = v[2].u, .name_id = name_id };
		if ((rc = PD_EMIT(d->a, thread_start, &t)) != 0)
			return rc;
	}
	return pd_map_put(&d->thread_of, index, *serial) ? PROFDATA_ENOMEM : 0;
}

/* Ticks of the chunk's clock as nanoseconds since 1970 (jfr.h). */
uint64_t jfr_ticks_ns(const jfr_header *h, uint64_t ticks)
{
	if (h->ticks_per_second <= 0)
		return 0;
	uint64_t delta = ticks - (uint64_t)h->start_ticks, tps = (uint64_t)h->ticks_per_second;
	double rest = (double)(delta % tps) * 1e9 / (double)tps;
	return (uint64_t)h->start_nanos + delta / tps * 1000000000u + (uint64_t)rest;
}

/* A span of ticks as nanoseconds (jfr.h). */
uint64_t jfr_span_ns(const jfr_header *h, uint64_t ticks)
{
	if (h->ticks_per_second <= 0)
		return ticks;
	double ns = (double)ticks * 1e9 / (double)h->ticks_per_second;
	/* a duration past 2^63 ns (292 years) is damage: kept as the largest, not converted out of range */
	return ns < 9.2e18 ? (uint64_t)ns : (uint64_t)INT64_MAX;
}

/* The sample values of spec's event: 1 and its value (a duration in nanoseconds), or its value alone. */
static void sample_values(const jfr_decoder *d, const jfr_sample_spec *spec, int has_value, uint64_t v, int64_t *out)
{
	if (has_value && spec->ticks)
		v = jfr_span_ns(&d->h, v);
	out[0] = d->nvalues == 2 || !has_value ? 1 : (int64_t)v;
	out[1] = has_value ? (int64_t)v : 0;
}

/* The string id of a sample's thread state (its `state`: a jdk.types.ThreadState's name); 0 none. */
static int state_id(jfr_decoder *d, size_t k, const jfr_value *v, uint64_t *id)
{
	const jfr_field *f = jfr_field_of(d, k, 4);
	jfr_value s[JFR_PICKED];
	jfr_cur c;
	int rc;
	*id = 0;
	if (!f || !f->pooled || d->row[JT_THREAD_STATE] == SIZE_MAX || !jfr_field_of(d, JT_THREAD_STATE, 0))
		return 0;
	if ((*id = pd_map_get(&d->state_of, v->u)) != 0)
		return 0;
	if ((rc = jfr_entry(d, JT_THREAD_STATE, v->u, v->at, &c)) != 0)
		return rc < 0 ? rc : 0;
	if ((rc = jfr_pick(d, &c, JT_THREAD_STATE, s)) != 0 ||
	    (rc = jfr_field_text(d, jfr_field_of(d, JT_THREAD_STATE, 0), &s[0])) != 0)
		return rc;
	if (!d->text.n || (rc = jfr_string_id(d, d->text.p, d->text.n, id)) != 0)
		return rc;
	return pd_map_put(&d->state_of, v->u, (uint32_t)*id) ? PROFDATA_ENOMEM : 0;
}

/* The label "state" of the sample that follows, when it has one (async-profiler's and the JDK's states). */
static int emit_state(jfr_decoder *d, uint64_t state)
{
	int rc;
	if (!d->state_key && (rc = jfr_string_id(d, "state", 5, &d->state_key)) != 0)
		return rc;
	profdata_label label = { .key_id = d->state_key, .str_id = state };
	profdata_sample_labels labels = { &label, 1 };
	return PD_EMIT(d->a, sample_labels, &labels);
}

int jfr_emit_sample(jfr_decoder *d, jfr_cur *c, size_t i)
{
	size_t k = JT_SAMPLE + i;
	jfr_value v[JFR_PICKED];
	uint32_t stack = 0, thread = 0;
	uint64_t state = 0;
	int64_t values[2];
	const jfr_field *trace = jfr_field_of(d, k, 2);
	int rc = jfr_pick(d, c, k, v);
	if (rc == 0)
		rc = trace && trace->pooled && v[2].u != 0 ? jfr_stack_serial(d, v[2].u, v[2].at, &stack)
		                                           : no_stack_serial(d, &stack);
	if (rc == 0 && jfr_field_of(d, k, 1) && jfr_field_of(d, k, 1)->pooled)
		rc = jfr_thread_serial(d, v[1].u, v[1].at, &thread);
	if (rc == 0 && d->a->ev->sample_labels && (rc = state_id(d, k, &v[4], &state)) == 0 && state)
		rc = emit_state(d, state);
	if (rc)
		return rc;
	sample_values(d, &d->spec[i], jfr_field_of(d, k, 3) != NULL, v[3].u, values);
	profdata_sample s = { .stack_serial = stack, .thread_serial = thread, .values = values, .nvalues = d->nvalues,
		              .time_ns = jfr_field_of(d, k, 0) ? jfr_ticks_ns(&d->h, v[0].u) : 0 };
	return PD_EMIT(d->a, sample, &s);
}
