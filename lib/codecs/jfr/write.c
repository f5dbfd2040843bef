/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing a recording from a built profile (a conversion gets here through
 * the model encoder, core/model_encoder.c): one chunk made in memory, as
 * its header needs the offsets of what follows. The chunk holds the events
 * (a jdk.ExecutionSample per counted sample, or a
 * jdk.ObjectAllocationSample per sample of an allocation profile), then
 * the metadata event (write_meta.c), then one checkpoint with the pools the
 * events refer to: stack traces, methods, classes, symbols, threads, frame
 * types and the thread states. Methods: one per function, else one per
 * frame name; a function without a class is split at its last "." before
 * any "/", "(" or " " into class and method, so that every reader puts the
 * same name back together (doc/formats-jfr.md, "Writing"). A profile read
 * from a recording has its other events written back first, as the chunks
 * they came from (write_kept.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "codecs/jfr/jfr.h"
#include "codecs/jfr/write.h"
#include "analysis/samples.h"
#include "analysis/stacks.h"
#include "util/hashmap.h"
#include "util/text.h"

/* More events than this (a folded count of billions) are written one per sample instead, and said. */
#define JW_MAX_EVENTS (1u << 26)
#define JW_HEADER 68
#define JW_TICKS_PER_SECOND 1000000000u

typedef struct jw_method {
	uint32_t cls, name, descriptor; /* pool keys */
} jw_method;

typedef struct jfr_writer {
	const profdata_profile *p;
	profdata_writer *w;
	pd_frame_names names;
	pd_intern symbols;          /* symbol key = index + 1 */
	pd_intern classes;          /* class names, internal form: key = index + 1 */
	pd_intern named_methods;    /* names of frames without a function */
	pd_intern states;           /* the samples' thread states: key = index + 1 */
	uint32_t *named_key;        /* their index -> method key */
	size_t named_key_cap;
	jw_method *methods;         /* method key - 1 -> its class, name and descriptor */
	size_t nmethods, methods_cap;
	uint32_t *function_method;  /* function index -> method key (0: not yet) */
	uint32_t *frame_method;     /* frame index -> method key */
	uint8_t *frame_type;        /* frame index -> its FrameType pool key: its profdata_frame_kind_value */
	uint8_t *kind_given;        /* frame index -> 1 when the source gave its kind, 0 when guessed */
	pd_map thread_key;          /* thread serial -> key */
	uint32_t *threads;          /* key - 1 -> serial */
	size_t nthreads, threads_cap;
	size_t count_index, alloc_index; /* the value an event counts; the allocation weight (SIZE_MAX: none) */
	uint64_t per_event;         /* the counted value one event stands for (value_per_event) */
	int one_each;               /* too many events counted, or a time without a period: one per sample */
	uint64_t first_ns, last_ns; /* the samples' times (first_ns UINT64_MAX: none has one) */
	uint64_t start_ns;          /* the chunk's start: the source's, else the first sample's */
	pd_strbuf chunk, body, text;
	pd_strbuf pools;            /* the checkpoint's pools */
	uint64_t meta_id;           /* the metadata number of the chunk before ours (write_kept.c); 0 none */
	uint64_t ids[JW_NTYPES];    /* each type's class id (jw_type_ids) */
	size_t npools;
} jfr_writer;

static int jw_fail(jfr_writer *jw, int rc)
{
	return rc == PROFDATA_ENOMEM ? pd_out_error(jw->w, rc, "jfr: out of memory") : rc;
}

static int symbol_key(jfr_writer *jw, const char *s, size_t n, uint32_t *key)
{
	uint32_t index;
	if (pd_intern_put(&jw->symbols, s, n, &index) < 0)
		return PROFDATA_ENOMEM;
	*key = index + 1;
	return 0;
}

/*
 * The key of the class named s: a Java name split from a dotted one
 * (`dotted`: a folded line's java.lang.Thread.run) has its '.' made '/',
 * the JVM's internal form; a class's own name is kept as the model has it.
 */
static int class_key(jfr_writer *jw, const char *s, size_t n, int dotted, uint32_t *key)
{
	uint32_t index;
	size_t start = jw->text.n;
	if (pd_strbuf_add(&jw->text, s, n))
		return PROFDATA_ENOMEM;
	for (size_t i = start; dotted && i < jw->text.n; i++)
		if (jw->text.p[i] == '.')
			jw->text.p[i] = '/';
	int rc = pd_intern_put(&jw->classes, jw->text.p + start, n, &index);
	jw->text.n = start;
	if (rc < 0)
		return PROFDATA_ENOMEM;
	*key = index + 1;
	return 0;
}

/* Where a name without a class splits into class and method: its last '.' before any '/', '(' or ' ', or 0. */
static size_t split_at(const char *s, size_t n)
{
	size_t dot = 0;
	for (size_t i = 0; i < n && s[i] != '/' && s[i] != '(' && s[i] != ' '; i++)
		if (s[i] == '.')
			dot = i;
	return dot + 1 < n ? dot : 0;
}

static int add_method(jfr_writer *jw, const jw_method *m, uint32_t *key)
{
	if (pd_grow((void **)&jw->methods, &jw->methods_cap, jw->nmethods + 1, sizeof *jw->methods))
		return PROFDATA_ENOMEM;
	jw->methods[jw->nmethods++] = *m;
	*key = (uint32_t)jw->nmethods;
	return 0;
}

/* A method from a name alone: split as the file's comment says when `split`, else of no class. */
static int method_of_name(jfr_writer *jw, const char *s, size_t n, const char *descriptor, int split, jw_method *m)
{
	size_t dot = split ? split_at(s, n) : 0;
	int rc = class_key(jw, s, dot, 1, &m->cls);
	if (rc == 0)
		rc = symbol_key(jw, s + (dot ? dot + 1 : 0), n - (dot ? dot + 1 : 0), &m->name);
	return rc ? rc : symbol_key(jw, descriptor, strlen(descriptor), &m->descriptor);
}

/* A descriptor the JDK can print: the function's signature when it is one, else "()V". */
static const char *descriptor_of(const profdata_profile *p, const profdata_function *fn)
{
	size_t len;
	const char *sig = pd_profile_text(p, fn->signature_id, &len);
	return sig && len > 2 && sig[0] == '(' && memchr(sig, ')', len) ? sig : "()V";
}

/*
 * Whether frame i is machine code by its source's word (native libraries',
 * the JVM's own, the kernel's): a guess from a name does not count, for a
 * folded file's "java.lang.Thread.run" is a method of a class.
 */
static int machine_code(const jfr_writer *jw, size_t i)
{
	uint8_t type = jw->frame_type[i];
	return jw->kind_given[i] &&
	       (type == PROFDATA_FRAME_KIND_NATIVE || type == PROFDATA_FRAME_KIND_CPP || type == PROFDATA_FRAME_KIND_KERNEL);
}

/* Function fi's method: its class and name when it has a class, else its name (or its frame's) alone. */
static int function_method(jfr_writer *jw, size_t fi, size_t frame_index, uint32_t *key)
{
	profdata_function fn;
	profdata_class_info info;
	size_t ci, len = 0, nlen = 0;
	jw_method m;
	const char *cls = NULL, *name;
	int rc;
	if (jw->function_method[fi]) {
		*key = jw->function_method[fi];
		return 0;
	}
	profdata_profile_function(jw->p, fi, &fn);
	if (fn.class_serial && profdata_profile_find_class_serial(jw->p, fn.class_serial, &ci) == 0 &&
	    profdata_profile_class(jw->p, ci, &info) == 0 && info.has_load)
		cls = pd_profile_text(jw->p, info.load.name_id, &len);
	name = pd_profile_text(jw->p, fn.name_id, &nlen);
	const char *descriptor = descriptor_of(jw->p, &fn);
	if (cls && len && name && nlen) {
		/* the model's class names are in the JVM's form already (decoders convert dotted ones): a '.' is
		 * part of the name (a hidden class's "App$$Lambda$72.0x0000000800c3a5d0", a library's "libc-2.17.so") */
		rc = class_key(jw, cls, len, 0, &m.cls);
		if (rc == 0)
			rc = symbol_key(jw, name, nlen, &m.name);
		if (rc == 0)
			rc = symbol_key(jw, descriptor, strlen(descriptor), &m.descriptor);
	} else {
		/*
		 * The function's own name, as written (the frame's rendered one has ';' made '_' for folded
		 * lines); a JVM method's split into class and method, machine code's kept whole, as
		 * async-profiler writes it ("count_memcg_events.constprop.0" is one C function).
		 */
		if (!name || !nlen)
			name = pd_frame_name(&jw->names, frame_index, &nlen);
		rc = method_of_name(jw, name, nlen, descriptor, !machine_code(jw, frame_index), &m);
	}
	if (rc == 0 && (rc = add_method(jw, &m, key)) == 0)
		jw->function_method[fi] = *key;
	return rc;
}

/* A method per distinct name, for frames without a function (an address, "[unknown]"). */
static int named_method(jfr_writer *jw, const char *s, size_t n, uint32_t *key)
{
	uint32_t index;
	jw_method m;
	int rc = pd_intern_put(&jw->named_methods, s, n, &index);
	if (rc < 0)
		return PROFDATA_ENOMEM;
	if (rc == 1) {
		*key = jw->named_key[index];
		return 0;
	}
	if (pd_grow((void **)&jw->named_key, &jw->named_key_cap, (size_t)index + 1, sizeof *jw->named_key))
		return PROFDATA_ENOMEM;
	rc = method_of_name(jw, s, n, "()V", 1, &m);
	if (rc == 0 && (rc = add_method(jw, &m, key)) == 0)
		jw->named_key[index] = *key;
	return rc;
}

/*
 * The frame type of a frame whose source gave no kind: from the line's
 * special values, "Native" for machine code.
 */
static uint8_t frame_type_of(const profdata_frame *fr, unsigned kind)
{
	if (fr->line == PROFDATA_LINE_NATIVE || kind != PD_FRAME_JVM)
		return PROFDATA_FRAME_KIND_NATIVE;
	return fr->line == PROFDATA_LINE_COMPILED ? PROFDATA_FRAME_KIND_JIT : PROFDATA_FRAME_KIND_INTERPRETED;
}

/* The kinds the source gave (a recording's own frame types) over those guesses. */
static void given_frame_types(jfr_writer *jw)
{
	size_t n = profdata_profile_count(jw->p, PROFDATA_TABLE_FRAME_KINDS), fi;
	for (size_t i = 0; i < n; i++) {
		profdata_frame_kind k;
		profdata_profile_frame_kind(jw->p, i, &k);
		if (k.kind > 0 && k.kind < JFR_FRAME_KINDS && profdata_profile_find_frame(jw->p, k.frame_id, &fi) == 0) {
			jw->frame_type[fi] = (uint8_t)k.kind;
			jw->kind_given[fi] = 1;
		}
	}
}

/* Every frame's method and type. */
static int prepare_frames(jfr_writer *jw)
{
	size_t nframes = profdata_profile_count(jw->p, PROFDATA_TABLE_FRAMES);
	size_t nfunctions = profdata_profile_count(jw->p, PROFDATA_TABLE_FUNCTIONS);
	int rc = pd_frame_names_render(jw->p, &jw->names);
	jw->function_method = calloc(nfunctions + 1, sizeof *jw->function_method);
	jw->frame_method = calloc(nframes + 1, sizeof *jw->frame_method);
	jw->frame_type = calloc(nframes + 1, 1);
	jw->kind_given = calloc(nframes + 1, 1);
	if (rc || !jw->function_method || !jw->frame_method || !jw->frame_type || !jw->kind_given)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < nframes; i++) {
		profdata_frame fr;
		profdata_profile_frame(jw->p, i, &fr);
		jw->frame_type[i] = frame_type_of(&fr, jw->names.kind[i]);
	}
	given_frame_types(jw);
	for (size_t i = 0; i < nframes && rc == 0; i++) {
		profdata_frame fr;
		size_t fi, len;
		profdata_profile_frame(jw->p, i, &fr);
		if (fr.function_id && profdata_profile_find_function(jw->p, fr.function_id, &fi) == 0)
			rc = function_method(jw, fi, i, &jw->frame_method[i]);
		else {
			const char *name = pd_frame_name(&jw->names, i, &len);
			rc = named_method(jw, name, len, &jw->frame_method[i]);
		}
	}
	return rc;
}

/* The key of a thread by its serial (0 for none), added at its first event. */
static int thread_key(jfr_writer *jw, uint32_t serial, uint64_t *key)
{
	uint32_t k = serial ? pd_map_get(&jw->thread_key, serial) : 0;
	if (!serial || k) {
		*key = k;
		return 0;
	}
	if (pd_grow((void **)&jw->threads, &jw->threads_cap, jw->nthreads + 1, sizeof *jw->threads) ||
	    pd_map_put(&jw->thread_key, serial, (uint32_t)jw->nthreads + 1) < 0)
		return PROFDATA_ENOMEM;
	jw->threads[jw->nthreads++] = serial;
	*key = jw->nthreads;
	return 0;
}

/* The sample type an allocation profile weighs its samples by: bytes, named for allocations; SIZE_MAX none. */
static size_t alloc_type(const profdata_profile *p)
{
	size_t ntypes = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES);
	for (size_t i = 0; i < ntypes; i++) {
		size_t len;
		profdata_sample_type t;
		profdata_profile_sample_type(p, i, &t);
		const char *unit = pd_sample_unit(p, i, &len), *name = pd_profile_text(p, t.type_id, &len);
		if (name && unit && strcmp(unit, "bytes") == 0 && strstr(name, "alloc"))
			return i;
	}
	return SIZE_MAX;
}

/*
 * What one event of the counted value stands for: 1 for a count; for a
 * time (a CPU profile read as nanoseconds), the sampling period in that
 * unit, so that the events are the samples the profiler took.
 */
static uint64_t value_per_event(jfr_writer *jw)
{
	const profdata_meta *m = profdata_profile_meta(jw->p);
	size_t len;
	const char *unit = pd_sample_unit(jw->p, jw->count_index, &len);
	uint64_t unit_ns = unit ? pd_time_unit_ns(unit, len) : 0;
	uint64_t period_ns = m->period && m->period_unit ? pd_time_unit_ns(m->period_unit, strlen(m->period_unit)) : 0;
	if (!unit_ns)
		return 1;
	if (!period_ns || m->period * period_ns < unit_ns) {
		pd_out_warn(jw->w, "jfr: the samples' value is a time (%s) and the input has no sampling period: "
		            "wrote one jdk.ExecutionSample per sample", unit);
		jw->one_each = 1;
		return 1;
	}
	return m->period * period_ns / unit_ns;
}

/* The events one sample makes: its count in events, or 1 for an allocation of some weight; 0 none. */
static uint64_t events_of(const jfr_writer *jw, const profdata_sample *s)
{
	if (jw->alloc_index != SIZE_MAX)
		return jw->alloc_index < s->nvalues && s->values[jw->alloc_index] > 0;
	int64_t count = pd_sample_count(s, jw->count_index);
	if (count <= 0)
		return 0;
	return jw->one_each ? 1 : ((uint64_t)count + jw->per_event / 2) / jw->per_event;
}

/* The events' kind and number, and the samples' first and last times. */
static void plan_events(jfr_writer *jw)
{
	size_t n = profdata_profile_count(jw->p, PROFDATA_TABLE_SAMPLES);
	uint64_t total = 0;
	jw->count_index = pd_sample_count_index(jw->p);
	jw->alloc_index = alloc_type(jw->p);
	jw->per_event = jw->alloc_index == SIZE_MAX ? value_per_event(jw) : 1;
	jw->first_ns = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		profdata_sample s;
		profdata_profile_sample(jw->p, i, &s);
		total += events_of(jw, &s);
		if (s.time_ns && s.time_ns < jw->first_ns)
			jw->first_ns = s.time_ns;
		if (s.time_ns > jw->last_ns)
			jw->last_ns = s.time_ns;
	}
	if (total > JW_MAX_EVENTS) {
		jw->one_each = 1;
		pd_out_warn(jw->w, "jfr: the samples count %" PRIu64 " events: wrote one jdk.ExecutionSample per sample, "
		            "without its count", total);
	}
	/* A recording's start stands before its first event: the source's, where it says one on the same clock. */
	const profdata_meta *m = profdata_profile_meta(jw->p);
	uint64_t stated = m->timestamp_ms * 1000000u;
	if (jw->first_ns == UINT64_MAX)
		jw->first_ns = jw->last_ns = stated;
	jw->start_ns = stated && stated <= jw->first_ns ? stated : jw->first_ns;
}

/*
 * One sample's event: its type, time, thread and stack, then a execution
 * sample's thread state (state_key) or an allocation's class (none:
 * profiles do not say it) and weight.
 */
static int sample_event(jfr_writer *jw, const profdata_sample *s, size_t stack_index, uint64_t thread, uint64_t state)
{
	int alloc = jw->alloc_index != SIZE_MAX;
	pd_strbuf *b = &jw->body;
	b->n = 0;
	if (jw_varint(b, jw->ids[alloc ? JW_ALLOCATION_SAMPLE : JW_EXECUTION_SAMPLE]) ||
	    jw_varint(b, s->time_ns ? s->time_ns : jw->first_ns) || jw_varint(b, thread) ||
	    jw_varint(b, stack_index + 1))
		return PROFDATA_ENOMEM;
	if (alloc)
		return jw_varint(b, 0) || jw_varint(b, (uint64_t)s->values[jw->alloc_index]) ? PROFDATA_ENOMEM : 0;
	return jw_varint(b, state);
}

/*
 * The pool key of sample i's thread state: its label "state" (a recording's
 * jdk.ExecutionSample state, as the reader labels it), else STATE_RUNNABLE.
 */
static int state_key(jfr_writer *jw, size_t i, uint64_t *key)
{
	const profdata_label *labels;
	size_t n, len = 14, key_len;
	const char *state = "STATE_RUNNABLE";
	uint32_t index;
	profdata_profile_sample_labels(&labels, &n, jw->p, i);
	for (size_t k = 0; k < n; k++) {
		const char *name = pd_profile_text(jw->p, labels[k].key_id, &key_len);
		if (labels[k].str_id && name && key_len == 5 && memcmp(name, "state", 5) == 0)
			state = pd_profile_text(jw->p, labels[k].str_id, &len);
	}
	if (!state || pd_intern_put(&jw->states, state, len, &index) < 0)
		return PROFDATA_ENOMEM;
	*key = (uint64_t)index + 1;
	return 0;
}

/* Sample `sample`'s events: the same bytes `events_of` times over. */
static int sample_events(jfr_writer *jw, size_t sample, const profdata_sample *s, size_t stack_index,
                         uint32_t stack_thread)
{
	uint64_t thread, state = 0, n = events_of(jw, s);
	size_t start = jw->chunk.n;
	if (!n)
		return 0;
	if (thread_key(jw, s->thread_serial ? s->thread_serial : stack_thread, &thread) ||
	    (jw->alloc_index == SIZE_MAX && state_key(jw, sample, &state)) ||
	    sample_event(jw, s, stack_index, thread, state) || jw_event(&jw->chunk, &jw->body, NULL))
		return PROFDATA_ENOMEM;
	size_t len = jw->chunk.n - start, more = (size_t)n - 1; /* n <= JW_MAX_EVENTS */
	if (more && pd_grow((void **)&jw->chunk.p, &jw->chunk.cap, jw->chunk.n + len * more + 1, 1))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < more; i++, jw->chunk.n += len)
		memcpy(jw->chunk.p + jw->chunk.n, jw->chunk.p + start, len);
	jw->chunk.p[jw->chunk.n] = '\0';
	return 0;
}

static int write_events(jfr_writer *jw)
{
	pd_sample_walk walk;
	profdata_sample s;
	size_t stack_index;
	int rc = pd_sample_walk_init(&walk, jw->p, pd_out_diag(jw->w), "jfr");
	while (rc == 0 && (rc = pd_sample_walk_next(&walk, &s, &stack_index)) > 0) {
		profdata_stack st;
		profdata_profile_stack(jw->p, stack_index, &st);
		rc = sample_events(jw, walk.next - 1, &s, stack_index, st.thread_serial);
	}
	pd_sample_walk_free(&walk);
	return rc;
}

/* ---- the checkpoint: a pool is its type id, its count, then each entry's key and fields ---- */

/* The JDK refuses an empty pool: one without entries is left out. */
static int pool_head(jfr_writer *jw, unsigned type, size_t count)
{
	if (!count)
		return 0;
	jw->npools++;
	return jw_varint(&jw->pools, jw->ids[type]) || jw_varint(&jw->pools, count) ? PROFDATA_ENOMEM : 0;
}

static int put_frame(jfr_writer *jw, uint64_t frame_id)
{
	profdata_frame fr = { 0 };
	size_t fi;
	uint32_t method, type = PROFDATA_FRAME_KIND_NATIVE;
	int rc = 0;
	if (profdata_profile_find_frame(jw->p, frame_id, &fi) == 0) {
		profdata_profile_frame(jw->p, fi, &fr);
		method = jw->frame_method[fi];
		type = jw->frame_type[fi];
	} else {
		rc = named_method(jw, "[unknown]", 9, &method);
	}
	int64_t line = fr.line > 0 ? fr.line : fr.line == PROFDATA_LINE_NONE ? 0 : -1;
	return rc ? rc : jw_varint(&jw->pools, method) || jw_varint(&jw->pools, (uint64_t)line) ||
	                 jw_varint(&jw->pools, 0) || jw_varint(&jw->pools, type) ? PROFDATA_ENOMEM : 0;
}

/* Per stack index, whether its source cut it short (calloc'd; NULL out of memory). */
static uint8_t *truncated_stacks(const profdata_profile *p, size_t nstacks)
{
	uint8_t *cut = calloc(nstacks + 1, 1);
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_TRUNCATED_STACKS), si;
	for (size_t i = 0; cut && i < n; i++) {
		profdata_stack_truncated t;
		profdata_profile_stack_truncated(p, i, &t);
		if (profdata_profile_find_stack(p, t.stack_serial, &si) == 0)
			cut[si] = 1;
	}
	return cut;
}

static int stack_pool(jfr_writer *jw)
{
	size_t n = profdata_profile_count(jw->p, PROFDATA_TABLE_STACKS);
	uint8_t *cut = truncated_stacks(jw->p, n);
	int rc = cut ? pool_head(jw, JW_STACK_TRACE, n) : PROFDATA_ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++) {
		profdata_stack st;
		profdata_profile_stack(jw->p, i, &st);
		rc = jw_varint(&jw->pools, i + 1) || jw_varint(&jw->pools, cut[i]) || jw_varint(&jw->pools, st.nframes)
		             ? PROFDATA_ENOMEM : 0;
		for (size_t k = 0; k < st.nframes && rc == 0; k++)
			rc = put_frame(jw, st.frame_ids[k]);
	}
	free(cut);
	return rc;
}

static int thread_pool(jfr_writer *jw)
{
	int rc = pool_head(jw, JW_THREAD, jw->nthreads);
	for (size_t i = 0; i < jw->nthreads && rc == 0; i++) {
		uint32_t serial = jw->threads[i];
		profdata_thread_info info;
		size_t ti;
		uint64_t java_id = serial;
		if (profdata_profile_find_thread(jw->p, serial, &ti) == 0 && profdata_profile_thread(jw->p, ti, &info) == 0 &&
		    info.has_start && info.start.object_id)
			java_id = info.start.object_id;
		jw->text.n = 0;
		rc = pd_thread_name(jw->p, serial, &jw->text);
		if (rc == 0 && (jw_varint(&jw->pools, i + 1) || jw_string(&jw->pools, jw->text.p, jw->text.n) ||
		                jw_varint(&jw->pools, serial) || jw_string(&jw->pools, jw->text.p, jw->text.n) ||
		                jw_varint(&jw->pools, java_id)))
			rc = PROFDATA_ENOMEM;
	}
	return rc;
}

static int method_pool(jfr_writer *jw)
{
	int rc = pool_head(jw, JW_METHOD, jw->nmethods);
	for (size_t i = 0; i < jw->nmethods && rc == 0; i++) {
		const jw_method *m = &jw->methods[i];
		/* modifiers 1 (public), not hidden */
		if (jw_varint(&jw->pools, i + 1) || jw_varint(&jw->pools, m->cls) || jw_varint(&jw->pools, m->name) ||
		    jw_varint(&jw->pools, m->descriptor) || jw_varint(&jw->pools, 1) || jw_varint(&jw->pools, 0))
			rc = PROFDATA_ENOMEM;
	}
	return rc;
}

/* Classes, then symbols: a class's name is a symbol, which must be known before the symbols are written. */
static int class_and_symbol_pools(jfr_writer *jw)
{
	size_t n = jw->classes.n;
	int rc = pool_head(jw, JW_CLASS, n);
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t len;
		uint32_t name;
		const char *s = pd_intern_str(&jw->classes, (uint32_t)i, &len);
		rc = symbol_key(jw, s, len, &name) ||
		     jw_varint(&jw->pools, i + 1) || jw_varint(&jw->pools, name) || jw_varint(&jw->pools, 1)
		             ? PROFDATA_ENOMEM : 0;
	}
	if (rc == 0)
		rc = pool_head(jw, JW_SYMBOL, jw->symbols.n);
	for (size_t i = 0; i < jw->symbols.n && rc == 0; i++) {
		size_t len;
		const char *s = pd_intern_str(&jw->symbols, (uint32_t)i, &len);
		rc = jw_varint(&jw->pools, i + 1) || jw_string(&jw->pools, s, len) ? PROFDATA_ENOMEM : 0;
	}
	return rc;
}

/* The frame types (keyed by their kinds) and the samples' thread states. */
static int fixed_pools(jfr_writer *jw)
{
	int rc = pool_head(jw, JW_FRAME_TYPE, JFR_FRAME_KINDS - 1);
	for (unsigned k = 1; k < JFR_FRAME_KINDS && rc == 0; k++)
		rc = jw_varint(&jw->pools, k) ||
		     jw_string(&jw->pools, jfr_frame_type_names[k], strlen(jfr_frame_type_names[k])) ? PROFDATA_ENOMEM : 0;
	if (rc == 0)
		rc = pool_head(jw, JW_THREAD_STATE, jw->states.n);
	for (uint32_t i = 0; i < jw->states.n && rc == 0; i++) {
		size_t len;
		const char *state = pd_intern_str(&jw->states, i, &len);
		rc = jw_varint(&jw->pools, i + 1) || jw_string(&jw->pools, state, len) ? PROFDATA_ENOMEM : 0;
	}
	return rc;
}

/* Type 1, start, duration, delta to the previous checkpoint (none), flags, then the pools. */
static int checkpoint(jfr_writer *jw)
{
	int rc = stack_pool(jw);
	if (rc == 0)
		rc = thread_pool(jw);
	if (rc == 0)
		rc = method_pool(jw);
	if (rc == 0)
		rc = class_and_symbol_pools(jw);
	if (rc == 0)
		rc = fixed_pools(jw);
	jw->body.n = 0;
	if (rc == 0 && (jw_varint(&jw->body, 1) || jw_varint(&jw->body, jw->first_ns) || jw_varint(&jw->body, 0) ||
	                jw_varint(&jw->body, 0) || pd_strbuf_add(&jw->body, "\0", 1) || jw_varint(&jw->body, jw->npools)))
		rc = PROFDATA_ENOMEM;
	return rc ? rc : jw_event(&jw->chunk, &jw->body, &jw->pools);
}

/* The minor version: a 2.x recording's own, else 1, as JDK 17 writes (the layout we write is both's). */
static unsigned minor_version(const profdata_meta *m)
{
	if (m->format && strcmp(m->format, "jfr") == 0 && m->version && m->version[0] == '2' && m->version[1] == '.' &&
	    m->version[2] >= '0' && m->version[2] <= '9' && !m->version[3])
		return (unsigned)(m->version[2] - '0');
	return 1;
}

/* The header, once the offsets are known: a clock of nanoseconds since 1970, so ticks are times. */
static void fill_header(jfr_writer *jw, uint64_t meta_offset, uint64_t cpool_offset)
{
	unsigned char *h = (unsigned char *)jw->chunk.p;
	memcpy(h, "FLR\0", 4);
	pd_put_be16(h + 4, 2);
	pd_put_be16(h + 6, (uint16_t)minor_version(profdata_profile_meta(jw->p)));
	pd_put_be64(h + 8, jw->chunk.n);
	pd_put_be64(h + 16, cpool_offset);
	pd_put_be64(h + 24, meta_offset);
	pd_put_be64(h + 32, jw->start_ns);
	pd_put_be64(h + 40, jw->last_ns - jw->start_ns);
	pd_put_be64(h + 48, jw->start_ns);
	pd_put_be64(h + 56, JW_TICKS_PER_SECOND);
	pd_put_be32(h + 64, 3); /* integers compressed (1), the last chunk (2) */
}

static int write_chunk(jfr_writer *jw)
{
	int rc = pd_strbuf_add(&jw->chunk, (const char[JW_HEADER]){ 0 }, JW_HEADER) ? PROFDATA_ENOMEM : 0;
	plan_events(jw);
	if (rc == 0)
		rc = prepare_frames(jw);
	if (rc == 0)
		rc = write_events(jw);
	size_t meta_offset = jw->chunk.n;
	if (rc == 0)
		rc = jw_metadata(&jw->chunk, jw->first_ns, jw->meta_id + 1, jw->ids);
	size_t cpool_offset = jw->chunk.n;
	if (rc == 0)
		rc = checkpoint(jw);
	if (rc)
		return jw_fail(jw, rc);
	fill_header(jw, meta_offset, cpool_offset);
	return pd_out_write(jw->w, jw->chunk.p, jw->chunk.n);
}

int pd_jfr_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts)
{
	jfr_writer jw;
	(void)opts;
	int samples = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) > 0, kept = 0, rc;
	memset(&jw, 0, sizeof jw);
	jw.p = p;
	jw.w = w;
	if ((rc = jw_type_ids(p, jw.ids)) != 0)
		return jw_fail(&jw, rc);
	/* a recording's events kept unread first (write_kept.c), then the chunk of samples, when there are any */
	if (jw_has_kept(p) && (kept = jw_write_kept(p, w, &jw.chunk, &jw.body, !samples, &jw.meta_id)) < 0)
		rc = kept == PROFDATA_ENOMEM ? jw_fail(&jw, kept) : kept;
	if (rc == 0 && (samples || !kept) && (rc = pd_need_samples(p, w, "jfr")) == 0) {
		jw.chunk.n = 0;
		rc = write_chunk(&jw);
	}
	pd_frame_names_free(&jw.names);
	pd_intern_free(&jw.symbols);
	pd_intern_free(&jw.classes);
	pd_intern_free(&jw.named_methods);
	pd_intern_free(&jw.states);
	pd_map_free(&jw.thread_key);
	PD_FREE_ALL(jw.methods, jw.named_key, jw.function_method, jw.frame_method, jw.frame_type, jw.kind_given, jw.threads,
	            jw.chunk.p, jw.body.p, jw.text.p, jw.pools.p);
	return rc;
}
