/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading speedscope's file format (doc/formats-speedscope.md) through
 * yajl's push parser. The shared frames may come after the profiles that
 * use them (ours write them last), and events want a frame before a stack,
 * so the pass keeps the frames, each distinct stack once, and per sample
 * its stack's index and weight (or per event its kind, frame and time);
 * the events follow the pass.
 *
 * Profiles: a file we wrote (exporter "libprofdata ...") holds one sampled
 * profile per sample type, named "type (unit)", which become sample types
 * again; any other file's sampled profiles are threads, with one sample
 * type per kind of unit (counts, time in nanoseconds, bytes). Evented
 * profiles are threads of method entries and exits.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/speedscope/speedscope.h"
#include "util/hashmap.h"
#include "util/json.h"
#include "util/text.h"

enum { S_OTHER, S_TOP, S_SHARED, S_FRAMES, S_FRAME, S_PROFILES, S_PROFILE, S_SAMPLES, S_SAMPLE, S_WEIGHTS,
       S_EVENTS, S_EVENT };
enum { K_OTHER, K_SHARED, K_FRAMES, K_NAME, K_FILE, K_LINE, K_COL, K_PROFILES, K_TYPE, K_UNIT, K_SAMPLES,
       K_WEIGHTS, K_EVENTS, K_FRAME, K_AT, K_EXPORTER };
static const char *const key_names[] = { "", "shared", "frames", "name", "file", "line", "col", "profiles",
	                                 "type", "unit", "samples", "weights", "events", "frame", "at",
	                                 "exporter" };

#define MAX_KNOWN_DEPTH 8

typedef struct ss_frame {
	uint32_t name, file;       /* string index + 1 */
	int64_t line;
} ss_frame;

typedef struct ss_event {
	double at;
	uint32_t frame;
	uint8_t open;
} ss_event;

typedef struct ss_profile {
	int evented;
	uint32_t name;             /* string index + 1 */
	double unit_ns;            /* nanoseconds per unit; 0 a count, -1 bytes */
	size_t samples_from, nsamples, weights_from, nweights, events_from, nevents;
	size_t type;               /* its sample type */
} ss_profile;

typedef struct ss_decoder {
	const pd_decode_args *a;
	profdata_reader *in;
	const unsigned char *base;  /* the whole input */
	size_t size;
	pd_json *json;
	unsigned char kinds[MAX_KNOWN_DEPTH];
	size_t depth;
	int key, rc, ours;
	pd_intern strings, stacks;
	ss_frame *frames;
	ss_profile *profiles;
	uint32_t *samples;         /* stack index per sample */
	double *weights;
	ss_event *events;
	uint32_t *chain;           /* the sample array being read */
	size_t nframes, frames_cap, nprofiles, profiles_cap, nsamples, samples_cap, nweights, weights_cap;
	size_t nevents, events_cap, nchain, chain_cap;
	ss_event ev;               /* the event being read */
	uint64_t *frame_ids;
	size_t frame_ids_cap;
	unsigned char *stack_sent;
} ss_decoder;

static int fail(ss_decoder *d, int code, const char *fmt, ...) PD_PRINTF(3, 4);
static int fail(ss_decoder *d, int code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	uint64_t at = d->json ? d->json->fed + yajl_get_bytes_consumed(d->json->h) : PD_NO_OFFSET;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!d->rc)
		d->rc = code == PROFDATA_ENOMEM ? pd_in_error(d->in, code, PD_NO_OFFSET, "out of memory")
		                                : pd_in_error_line(d->in, code, at, pd_json_line(d->base, d->size, at), "%s", msg);
	return 0;
}

static uint32_t string_of(ss_decoder *d, const void *s, size_t len)
{
	uint32_t index;
	if (d->strings.n >= UINT32_MAX - 2 || pd_intern_put(&d->strings, s, len, &index) < 0)
		return fail(d, PROFDATA_ENOMEM, "out of memory");
	return index + 1;
}

static int kind_at(const ss_decoder *d) { return d->depth == 0 || d->depth > MAX_KNOWN_DEPTH ? S_OTHER : d->kinds[d->depth - 1]; }

static int push(ss_decoder *d, int kind)
{
	if (d->depth < MAX_KNOWN_DEPTH)
		d->kinds[d->depth] = (unsigned char)kind;
	d->depth++;
	return 1;
}

static ss_profile *profile(ss_decoder *d) { return &d->profiles[d->nprofiles - 1]; }

static int on_start_map(void *ctx)
{
	ss_decoder *d = ctx;
	int parent = kind_at(d), kind = S_OTHER;
	if (d->depth == 0)
		kind = S_TOP;
	else if (parent == S_TOP && d->key == K_SHARED)
		kind = S_SHARED;
	else if (parent == S_FRAMES)
		kind = S_FRAME;
	else if (parent == S_PROFILES)
		kind = S_PROFILE;
	else if (parent == S_EVENTS)
		kind = S_EVENT;
	if (kind == S_FRAME) {
		if (d->nframes >= UINT32_MAX - 1 ||
		    pd_grow((void **)&d->frames, &d->frames_cap, d->nframes + 1, sizeof *d->frames))
			return fail(d, PROFDATA_ENOMEM, "out of memory");
		memset(&d->frames[d->nframes++], 0, sizeof *d->frames);
	} else if (kind == S_PROFILE) {
		if (pd_grow((void **)&d->profiles, &d->profiles_cap, d->nprofiles + 1, sizeof *d->profiles))
			return fail(d, PROFDATA_ENOMEM, "out of memory");
		memset(&d->profiles[d->nprofiles++], 0, sizeof *d->profiles);
	} else if (kind == S_EVENT) {
		memset(&d->ev, 0, sizeof d->ev);
		d->ev.frame = UINT32_MAX;
		d->ev.open = 2;
	}
	return push(d, kind);
}

static int on_start_array(void *ctx)
{
	ss_decoder *d = ctx;
	int parent = kind_at(d), kind = S_OTHER;
	if (parent == S_SHARED && d->key == K_FRAMES)
		kind = S_FRAMES;
	else if (parent == S_TOP && d->key == K_PROFILES)
		kind = S_PROFILES;
	else if (parent == S_PROFILE && d->key == K_SAMPLES)
		kind = S_SAMPLES, profile(d)->samples_from = d->nsamples;
	else if (parent == S_SAMPLES)
		kind = S_SAMPLE, d->nchain = 0;
	else if (parent == S_PROFILE && d->key == K_WEIGHTS)
		kind = S_WEIGHTS, profile(d)->weights_from = d->nweights;
	else if (parent == S_PROFILE && d->key == K_EVENTS)
		kind = S_EVENTS, profile(d)->events_from = d->nevents;
	return push(d, kind);
}

static int on_map_key(void *ctx, const unsigned char *s, size_t len)
{
	ss_decoder *d = ctx;
	d->key = K_OTHER;
	for (int k = 1; k < (int)(sizeof key_names / sizeof key_names[0]); k++)
		if (strlen(key_names[k]) == len && memcmp(key_names[k], s, len) == 0)
			d->key = k;
	return 1;
}

/* nanoseconds per unit: 0 a count ("none"), -1 bytes; -2 not a unit of the format. */
static double unit_factor(const unsigned char *s, size_t len)
{
	uint64_t ns = pd_time_unit_ns((const char *)s, len);
	if (ns)
		return (double)ns;
	if (len == 4 && memcmp(s, "none", 4) == 0)
		return 0;
	return len == 5 && memcmp(s, "bytes", 5) == 0 ? -1 : -2;
}

static int profile_string(ss_decoder *d, const unsigned char *s, size_t len)
{
	ss_profile *p = profile(d);
	if (d->key == K_NAME)
		return (p->name = string_of(d, s, len)) != 0;
	if (d->key == K_UNIT && (p->unit_ns = unit_factor(s, len)) == -2)
		return fail(d, PROFDATA_EFORMAT, "unit \"%.*s\": not one of speedscope's", (int)(len > 40 ? 40 : len), s);
	if (d->key == K_TYPE) {
		if ((len != 7 || memcmp(s, "sampled", 7) != 0) && (len != 7 || memcmp(s, "evented", 7) != 0))
			return fail(d, PROFDATA_EFORMAT, "a profile of type \"%.*s\": neither sampled nor evented",
			            (int)(len > 40 ? 40 : len), s);
		p->evented = s[0] == 'e' ? 1 : 0;
	}
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	ss_decoder *d = ctx;
	int kind = kind_at(d);
	if (kind == S_FRAME && (d->key == K_NAME || d->key == K_FILE)) {
		uint32_t id = string_of(d, s, len);
		*(d->key == K_NAME ? &d->frames[d->nframes - 1].name : &d->frames[d->nframes - 1].file) = id;
		return id != 0;
	}
	if (kind == S_PROFILE)
		return profile_string(d, s, len);
	if (kind == S_EVENT && d->key == K_TYPE) {
		if (len != 1 || (s[0] != 'O' && s[0] != 'C'))
			return fail(d, PROFDATA_EFORMAT, "an event of type \"%.*s\": neither O nor C", (int)(len > 40 ? 40 : len), s);
		d->ev.open = s[0] == 'O';
	} else if (kind == S_TOP && d->key == K_EXPORTER) {
		d->ours = len >= 12 && memcmp(s, "libprofdata ", 12) == 0;
	}
	return 1;
}

static int push_weight(ss_decoder *d, double w)
{
	if (pd_grow((void **)&d->weights, &d->weights_cap, d->nweights + 1, sizeof *d->weights))
		return fail(d, PROFDATA_ENOMEM, "out of memory");
	d->weights[d->nweights++] = w;
	return 1;
}

static int on_double(void *ctx, double v)
{
	ss_decoder *d = ctx;
	int kind = kind_at(d);
	if (kind == S_WEIGHTS)
		return push_weight(d, v);
	if (kind == S_EVENT && d->key == K_AT)
		d->ev.at = v;
	else if (kind == S_SAMPLE || (kind == S_EVENT && d->key == K_FRAME))
		return fail(d, PROFDATA_EFORMAT, "a frame index %g: not an integer", v);
	return 1;
}

static int on_integer(void *ctx, long long v)
{
	ss_decoder *d = ctx;
	int kind = kind_at(d);
	if ((kind == S_SAMPLE || (kind == S_EVENT && d->key == K_FRAME)) && (v < 0 || v >= UINT32_MAX))
		return fail(d, PROFDATA_EFORMAT, "a frame index %lld", v);
	if (kind == S_SAMPLE) {
		if (pd_grow((void **)&d->chain, &d->chain_cap, d->nchain + 1, sizeof *d->chain))
			return fail(d, PROFDATA_ENOMEM, "out of memory");
		d->chain[d->nchain++] = (uint32_t)v;
		return 1;
	}
	if (kind == S_EVENT && d->key == K_FRAME)
		d->ev.frame = (uint32_t)v;
	else if (kind == S_FRAME && d->key == K_LINE)
		d->frames[d->nframes - 1].line = v;
	return kind == S_WEIGHTS || (kind == S_EVENT && d->key == K_AT) ? on_double(ctx, (double)v) : 1;
}

/* A sample's frames, root first, as a stack index (each distinct chain once). */
static int sample_end(ss_decoder *d)
{
	uint32_t index;
	if (d->stacks.n >= UINT32_MAX - 2 ||
	    pd_intern_put(&d->stacks, (const char *)d->chain, d->nchain * sizeof *d->chain, &index) < 0 ||
	    pd_grow((void **)&d->samples, &d->samples_cap, d->nsamples + 1, sizeof *d->samples))
		return fail(d, PROFDATA_ENOMEM, "out of memory");
	d->samples[d->nsamples++] = index;
	return 1;
}

static int on_end_array(void *ctx)
{
	ss_decoder *d = ctx;
	int kind = kind_at(d), ok = 1;
	if (kind == S_SAMPLE)
		ok = sample_end(d);
	else if (kind == S_SAMPLES)
		profile(d)->nsamples = d->nsamples - profile(d)->samples_from;
	else if (kind == S_WEIGHTS)
		profile(d)->nweights = d->nweights - profile(d)->weights_from;
	else if (kind == S_EVENTS)
		profile(d)->nevents = d->nevents - profile(d)->events_from;
	d->depth--;
	return ok;
}

static int event_end(ss_decoder *d)
{
	if (d->ev.open == 2 || d->ev.frame == UINT32_MAX)
		return fail(d, PROFDATA_EFORMAT, "an event without %s", d->ev.open == 2 ? "a type" : "a frame");
	if (pd_grow((void **)&d->events, &d->events_cap, d->nevents + 1, sizeof *d->events))
		return fail(d, PROFDATA_ENOMEM, "out of memory");
	d->events[d->nevents++] = d->ev;
	return 1;
}

static int on_end_map(void *ctx)
{
	ss_decoder *d = ctx;
	int kind = kind_at(d), ok = 1;
	if (kind == S_EVENT)
		ok = event_end(d);
	else if (kind == S_FRAME && !d->frames[d->nframes - 1].name)
		ok = fail(d, PROFDATA_EFORMAT, "frame %zu without a name", d->nframes - 1);
	else if (kind == S_PROFILE && !profile(d)->evented && profile(d)->nsamples != profile(d)->nweights)
		ok = fail(d, PROFDATA_EFORMAT, "profile %zu: %zu samples and %zu weights", d->nprofiles - 1,
		          profile(d)->nsamples, profile(d)->nweights);
	d->depth--;
	return ok;
}

static int on_other(void *ctx)
{
	(void)ctx;
	return 1;
}

static int on_boolean(void *ctx, int v)
{
	(void)v;
	return on_other(ctx);
}

/* Our own sampled profile's name, "type (unit)": its sample type's strings. */
static int our_type(ss_decoder *d, const ss_profile *p, profdata_sample_type *t)
{
	size_t len = 0, cut;
	const char *name = p->name ? pd_intern_str(&d->strings, p->name - 1, &len) : "";
	char *s = malloc(len + 1);
	if (!s)
		return PROFDATA_ENOMEM;
	memcpy(s, name, len); /* the interner moves its bytes as it grows */
	for (cut = len; cut > 0 && !(cut + 1 < len && s[cut] == ' ' && s[cut + 1] == '('); cut--)
		;
	if (cut > 0 && s[len - 1] == ')') {
		t->type_id = string_of(d, s, cut);
		t->unit_id = string_of(d, s + cut + 2, len - cut - 3);
	} else {
		t->type_id = string_of(d, s, len);
		t->unit_id = string_of(d, "", 0);
	}
	free(s);
	return t->type_id && t->unit_id ? 0 : PROFDATA_ENOMEM;
}

/* The sample types: ours one per sampled profile; else one per kind of unit. *n of them in t. */
static int sample_types(ss_decoder *d, profdata_sample_type *t, size_t *n)
{
	static const char *const names[3][2] = { { "samples", "count" }, { "time", "nanoseconds" }, { "space", "bytes" } };
	size_t of_class[3] = { SIZE_MAX, SIZE_MAX, SIZE_MAX };
	*n = 0;
	for (size_t i = 0; i < d->nprofiles; i++) {
		ss_profile *p = &d->profiles[i];
		if (p->evented)
			continue;
		if (d->ours) {
			p->type = (*n)++;
			if (our_type(d, p, &t[p->type]))
				return PROFDATA_ENOMEM;
			continue;
		}
		int c = p->unit_ns > 0 ? 1 : p->unit_ns < 0 ? 2 : 0;
		if (of_class[c] == SIZE_MAX) {
			of_class[c] = (*n)++;
			t[of_class[c]].type_id = string_of(d, names[c][0], strlen(names[c][0]));
			t[of_class[c]].unit_id = string_of(d, names[c][1], strlen(names[c][1]));
			if (!t[of_class[c]].type_id || !t[of_class[c]].unit_id)
				return PROFDATA_ENOMEM;
		}
		p->type = of_class[c];
	}
	return 0;
}

/* A profile that is a thread: every evented one, and the sampled ones of files not ours. */
static int is_thread(const ss_decoder *d, const ss_profile *p) { return p->evented || !d->ours; }

static int emit_header(ss_decoder *d, profdata_sample_type *types, size_t ntypes)
{
	profdata_meta m = { .format = "speedscope" };
	int rc = PD_EMIT(d->a, begin, &m);
	for (uint32_t i = 0; i < d->strings.n && rc == 0; i++) {
		size_t len;
		const char *s = pd_intern_str(&d->strings, i, &len);
		rc = PD_EMIT(d->a, string, (uint64_t)i + 1, s, len);
	}
	for (size_t i = 0; i < ntypes && rc == 0; i++)
		rc = PD_EMIT(d->a, sample_type, &types[i]);
	for (size_t i = 0; i < d->nprofiles && rc == 0; i++) {
		profdata_thread_start t = { .serial = (uint32_t)i + 1, .name_id = d->profiles[i].name };
		if (is_thread(d, &d->profiles[i]))
			rc = PD_EMIT(d->a, thread_start, &t);
	}
	for (size_t i = 0; i < d->nframes && rc == 0; i++) {
		const ss_frame *f = &d->frames[i];
		int32_t line = f->line > 0 && f->line < INT32_MAX ? (int32_t)f->line : 0;
		profdata_function fn = { .id = i + 1, .name_id = f->name, .source_file_id = f->file, .start_line = line };
		profdata_frame fr = { .id = i + 1, .function_id = i + 1, .line = line };
		if ((rc = PD_EMIT(d->a, function, &fn)) == 0)
			rc = PD_EMIT(d->a, frame, &fr);
	}
	return rc;
}

/* Stack `index` (serial index + 1), emitted the first time: its frames leaf first. */
static int emit_stack(ss_decoder *d, uint32_t index, size_t profile_index)
{
	size_t len;
	const char *bytes = pd_intern_str(&d->stacks, index, &len);
	size_t n = len / sizeof(uint32_t);
	if (d->stack_sent[index])
		return 0;
	if (n > d->frame_ids_cap && pd_grow((void **)&d->frame_ids, &d->frame_ids_cap, n, sizeof *d->frame_ids))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint32_t f;
		memcpy(&f, bytes + (n - 1 - i) * sizeof f, sizeof f);
		if (f >= d->nframes)
			return pd_in_error(d->in, PROFDATA_EFORMAT, PD_NO_OFFSET,
			                   "profile %zu: frame %" PRIu32 " past the %zu shared frames", profile_index, f, d->nframes);
		d->frame_ids[i] = (uint64_t)f + 1;
	}
	d->stack_sent[index] = 1;
	profdata_stack st = { .serial = index + 1, .frame_ids = d->frame_ids, .nframes = n };
	return PD_EMIT(d->a, stack, &st);
}

static int64_t rounded(double v)
{
	return v != v ? 0 : v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)(v + (v >= 0 ? 0.5 : -0.5));
}

static int emit_sampled(ss_decoder *d, size_t pi, int64_t *values, size_t ntypes)
{
	const ss_profile *p = &d->profiles[pi];
	double scale = !d->ours && p->unit_ns > 0 ? p->unit_ns : 1;
	int rc = 0;
	for (size_t i = 0; i < p->nsamples && rc == 0; i++) {
		uint32_t stack = d->samples[p->samples_from + i];
		memset(values, 0, ntypes * sizeof *values);
		values[p->type] = rounded(d->weights[p->weights_from + i] * scale);
		profdata_sample s = { .stack_serial = stack + 1, .thread_serial = is_thread(d, p) ? (uint32_t)pi + 1 : 0,
			              .values = values, .nvalues = ntypes };
		if ((rc = emit_stack(d, stack, pi)) == 0)
			rc = PD_EMIT(d->a, sample, &s);
	}
	return rc;
}

static int emit_evented(ss_decoder *d, size_t pi)
{
	const ss_profile *p = &d->profiles[pi];
	double scale = p->unit_ns > 0 ? p->unit_ns : 1;
	int rc = 0;
	for (size_t i = 0; i < p->nevents && rc == 0; i++) {
		const ss_event *e = &d->events[p->events_from + i];
		double ns = e->at * scale;
		if (e->frame >= d->nframes)
			return pd_in_error(d->in, PROFDATA_EFORMAT, PD_NO_OFFSET,
			                   "profile %zu: frame %" PRIu32 " past the %zu shared frames", pi, e->frame, d->nframes);
		profdata_trace_event t = { .kind = e->open ? PROFDATA_TRACE_METHOD_ENTRY : PROFDATA_TRACE_METHOD_EXIT,
			                   .time_ns = ns > 0 ? (uint64_t)rounded(ns) : 0, .thread_serial = (uint32_t)pi + 1,
			                   .method_id = (uint64_t)e->frame + 1 };
		rc = PD_EMIT(d->a, trace_event, &t);
	}
	return rc;
}

static int emit_all(ss_decoder *d)
{
	size_t ntypes;
	profdata_sample_type *types = malloc((d->nprofiles + 3) * sizeof *types);
	int64_t *values = malloc((d->nprofiles + 3) * sizeof *values);
	d->stack_sent = calloc(d->stacks.n + 1, 1);
	int rc = !types || !values || !d->stack_sent ? PROFDATA_ENOMEM : sample_types(d, types, &ntypes);
	if (rc == 0)
		rc = emit_header(d, types, ntypes);
	for (size_t i = 0; i < d->nprofiles && rc == 0; i++)
		rc = d->profiles[i].evented ? emit_evented(d, i) : emit_sampled(d, i, values, ntypes);
	free(types);
	free(values);
	return rc;
}

static const yajl_callbacks callbacks = { on_other, on_boolean, on_integer, on_double, NULL, on_string,
	                                  on_start_map, on_map_key, on_end_map, on_start_array, on_end_array };

static void decoder_free(ss_decoder *d)
{
	pd_intern_free(&d->strings);
	pd_intern_free(&d->stacks);
	PD_FREE_ALL(d->frames, d->profiles, d->samples, d->weights, d->events, d->chain, d->frame_ids, d->stack_sent);
}

int pd_speedscope_decode(const pd_decode_args *a)
{
	ss_decoder d;
	pd_json json;
	char msg[160];
	uint64_t where;
	memset(&d, 0, sizeof d);
	d.a = a;
	d.in = a->in;
	int rc = pd_in_fill_all(a->in, &d.base, &d.size);
	if (rc == 0 && (rc = pd_json_open(&json, &callbacks, &d)) == 0) {
		d.json = &json;
		int e = pd_json_feed(&json, d.base, d.size, 1, msg, sizeof msg, &where);
		rc = e < 0 ? pd_in_error_line(a->in, PROFDATA_EFORMAT, where, pd_json_line(d.base, d.size, where), "%s", msg)
		           : e > 0 ? d.rc : 0;
		d.json = NULL;
		pd_json_close(&json);
	}
	if (rc == 0 && (rc = emit_all(&d)) == 0) {
		pd_in_skip(a->in, d.size);
		rc = PD_EMIT0(a, end);
	}
	if (rc == PROFDATA_ENOMEM && !pd_in_diag(a->in)->has_err)
		rc = pd_in_error(a->in, rc, PD_NO_OFFSET, "out of memory");
	decoder_free(&d);
	return rc;
}
