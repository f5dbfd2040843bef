/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `perf script` output read: a sample is its first line (ps_header), the
 * frames of its call chain on TAB-led lines, leaf first, each maybe
 * followed by its source line, and a blank line. A sample's frame lines
 * are copied (a stream's window moves) and resolved at its end, from the
 * root: an inlined call's frame, printed before the frame of the function
 * it was inlined into, then takes that frame's mapping.
 *
 * Frames are keyed by their text (with its source line), so a frame seen
 * before costs one hash; functions by symbol, DSO and file; stacks by their
 * frame ids; threads by pid, tid and command; each an interner, its index
 * plus one the id. See doc/formats-perf-script.md.
 */
#include <stdlib.h>
#include <string.h>

#include "codecs/perf-script/perf_script.h"
#include "analysis/stacks.h"
#include "util/numtext.h"


/* A frame line of the open sample, and its source line, in d->text. */
typedef struct ps_ref {
	size_t off, n, src_off, src_n;
} ps_ref;

typedef struct ps_decoder {
	const pd_decode_args *a;
	pd_lines in;
	pd_intern strings, frames, functions, mappings, stacks, threads, events;
	uint32_t *frame_mapping;     /* per frame: its mapping (1-based; 0 none) */
	size_t frame_mapping_cap;
	pd_strbuf text, key;         /* the open sample's frame lines; a key being built */
	ps_ref *refs;
	size_t nrefs, refs_cap;
	uint64_t *ids;               /* the open sample's frame ids, leaf first */
	size_t ids_cap;
	int64_t *values;
	size_t values_cap;
	/* the open sample */
	int open;
	uint64_t time_ns, period;
	uint32_t thread, event;
} ps_decoder;

static int fail(ps_decoder *d, uint64_t off, const char *what)
{
	return pd_in_damage(d->in.r, d->a->mode, PROFDATA_EFORMAT, off, d->in.lineno, "perf-script: %s", what);
}

static int string_id(ps_decoder *d, ps_span s, uint64_t *id)
{
	return pd_emit_interned_string(d->a, &d->strings, (const char *)s.p, s.n, id);
}

static int key_add(ps_decoder *d, const void *p, size_t n)
{
	return pd_strbuf_add(&d->key, (const char *)p, n);
}

/* The mapping (1-based) of DSO `dso`, sent when new; 0 for none. */
static int mapping_of(ps_decoder *d, ps_span dso, uint32_t *out)
{
	uint32_t ix;
	uint64_t path;
	int rc;
	*out = 0;
	if (!dso.n)
		return 0;
	if ((rc = pd_intern_put(&d->mappings, (const char *)dso.p, dso.n, &ix)) < 0)
		return rc;
	*out = ix + 1;
	if (rc == 1)
		return 0;
	if ((rc = string_id(d, dso, &path)) != 0)
		return rc;
	profdata_mapping m = { .path_id = path };
	return PD_EMIT(d->a, mapping, &m);
}

/* The function of frame f in mapping `mapping`, sent when new; 0 when it has no symbol. */
static int function_of(ps_decoder *d, const ps_frame *f, uint32_t mapping, uint64_t *out)
{
	uint32_t ix;
	int rc;
	*out = 0;
	if (!f->sym.n)
		return 0;
	d->key.n = 0;
	if (key_add(d, f->sym.p, f->sym.n) || key_add(d, "", 1) || key_add(d, &mapping, sizeof mapping) ||
	    key_add(d, f->file.p, f->file.n))
		return PROFDATA_ENOMEM;
	if ((rc = pd_intern_put(&d->functions, d->key.p, d->key.n, &ix)) < 0)
		return rc;
	*out = (uint64_t)ix + 1;
	if (rc == 1)
		return 0;
	profdata_function fn = { .id = *out };
	if ((rc = string_id(d, f->sym, &fn.name_id)) != 0 || (f->file.n && (rc = string_id(d, f->file, &fn.source_file_id))))
		return rc;
	return PD_EMIT(d->a, function, &fn);
}

/* The kind of frame f: inlined by the compiler, the kernel's (its DSO, or an address in the upper half), else unknown. */
static uint32_t kind_of(const ps_frame *f)
{
	if (f->inlined)
		return PROFDATA_FRAME_KIND_INLINED;
	if ((f->dso.n >= 8 && memcmp(f->dso.p, "[kernel.", 8) == 0) || pd_kernel_address(f->address))
		return PROFDATA_FRAME_KIND_KERNEL;
	return PROFDATA_FRAME_KIND_UNKNOWN;
}

/* Send frame `id` from its text, with its kind when known; *mapping: the caller's mapping in, the frame's out. */
static int send_frame(ps_decoder *d, const ps_ref *r, uint64_t id, uint32_t *mapping)
{
	ps_frame f;
	const unsigned char *t = (const unsigned char *)d->text.p;
	int rc;
	pd_ps_parse_frame(t + r->off, r->n, &f);
	if (r->src_n)
		pd_ps_parse_srcline(t + r->src_off, r->src_n, &f);
	if (!f.inlined && (rc = mapping_of(d, f.dso, mapping)) != 0)
		return rc;
	profdata_frame fr = { .id = id, .line = f.line, .address = f.address, .mapping = *mapping };
	fr.has_address = !f.inlined;
	profdata_frame_kind k = { .frame_id = id, .kind = kind_of(&f) };
	if ((rc = function_of(d, &f, *mapping, &fr.function_id)) != 0 || (rc = PD_EMIT(d->a, frame, &fr)) != 0)
		return rc;
	return k.kind ? PD_EMIT(d->a, frame_kind, &k) : 0;
}

static int ends_inlined(const char *s, size_t n)
{
	return n >= 9 && memcmp(s + n - 9, "(inlined)", 9) == 0;
}

/* The id of frame r (text, source line, and for an inlined call its caller's mapping), sent when new. */
static int frame_of(ps_decoder *d, const ps_ref *r, uint32_t *mapping, uint64_t *out)
{
	const char *t = d->text.p, *key = t + r->off;
	uint32_t ix;
	int inlined = ends_inlined(t + r->off, r->n) || ends_inlined(t + r->src_off, r->src_n), rc;
	/* The key is the frame's line and its source line as they stand in the text, each ended by its
	 * '\n' (add_text), so that most frames are looked up with no copy; an inlined call adds its
	 * caller's mapping. */
	size_t len = (r->src_n ? r->src_off + r->src_n : r->off + r->n) + 1 - r->off;
	if (inlined) {
		d->key.n = 0;
		if (key_add(d, key, len) || key_add(d, mapping, sizeof *mapping))
			return PROFDATA_ENOMEM;
		key = d->key.p;
		len = d->key.n;
	}
	if ((rc = pd_intern_put(&d->frames, key, len, &ix)) < 0)
		return rc;
	*out = (uint64_t)ix + 1;
	if (rc == 1) {
		*mapping = d->frame_mapping[ix];
		return 0;
	}
	if (pd_grow((void **)&d->frame_mapping, &d->frame_mapping_cap, (size_t)ix + 1, sizeof *d->frame_mapping))
		return PROFDATA_ENOMEM;
	rc = send_frame(d, r, *out, mapping);
	d->frame_mapping[ix] = *mapping;
	return rc;
}

/* The stack of the open sample's frames (d->ids, leaf first), sent when new. */
static int stack_of(ps_decoder *d, uint32_t *serial)
{
	uint32_t ix;
	size_t bytes = d->nrefs * sizeof *d->ids;
	int rc = pd_intern_put(&d->stacks, d->nrefs ? (const char *)d->ids : "", bytes, &ix);
	if (rc < 0)
		return rc;
	if (ix >= UINT32_MAX - 1)
		return pd_in_error_line(d->in.r, PROFDATA_ELIMIT, d->in.loff, d->in.lineno, "perf-script: too many stacks");
	*serial = ix + 1;
	if (rc == 1)
		return 0;
	profdata_stack st = { .serial = *serial, .frame_ids = d->ids, .nframes = d->nrefs };
	return PD_EMIT(d->a, stack, &st);
}

/* The open sample is whole: its frames, its stack, the sample. */
static int close_sample(ps_decoder *d)
{
	uint32_t mapping = 0, serial = 0;
	int rc;
	d->open = 0;
	if (pd_grow((void **)&d->ids, &d->ids_cap, d->nrefs + 1, sizeof *d->ids))
		return PROFDATA_ENOMEM;
	for (size_t i = d->nrefs; i-- > 0;)
		if ((rc = frame_of(d, &d->refs[i], &mapping, &d->ids[i])) != 0)
			return rc;
	if ((rc = stack_of(d, &serial)) != 0)
		return rc;
	size_t nv = 2 * (size_t)d->events.n;
	if (pd_grow((void **)&d->values, &d->values_cap, nv, sizeof *d->values))
		return PROFDATA_ENOMEM;
	memset(d->values, 0, nv * sizeof *d->values);
	d->values[2 * d->event] = 1;
	d->values[2 * d->event + 1] = d->period <= INT64_MAX ? (int64_t)d->period : INT64_MAX;
	profdata_sample s = { .stack_serial = serial, .thread_serial = d->thread, .time_ns = d->time_ns,
	                      .values = d->values, .nvalues = nv };
	d->text.n = 0;
	d->nrefs = 0;
	return PD_EMIT(d->a, sample, &s);
}

/*
 * Copy frame text [s, s + n) and a '\n' into the open sample: a frame line,
 * or the source line of the last one, which so follows it (frame_of()).
 */
static int add_text(ps_decoder *d, const unsigned char *s, size_t n, int srcline)
{
	size_t off = d->text.n;
	if (pd_strbuf_add(&d->text, (const char *)s, n) || pd_strbuf_add(&d->text, "\n", 1))
		return PROFDATA_ENOMEM;
	if (srcline) {
		d->refs[d->nrefs - 1].src_off = off;
		d->refs[d->nrefs - 1].src_n = n;
		return 0;
	}
	if (pd_grow((void **)&d->refs, &d->refs_cap, d->nrefs + 1, sizeof *d->refs))
		return PROFDATA_ENOMEM;
	d->refs[d->nrefs++] = (ps_ref){ off, n, 0, 0 };
	return 0;
}

static int span_starts(ps_span s, const char *t)
{
	size_t n = strlen(t);
	return s.n >= n && memcmp(s.p, t, n) == 0;
}

/*
 * Event `e`'s two sample types: how many samples, and their periods summed
 * (nanoseconds for the software clocks, else events). The first event's
 * count is "samples", which every writer of one value takes; a later
 * event's is "EVENT_samples".
 */
static int send_event_types(ps_decoder *d, ps_span e, int first)
{
	profdata_sample_type t[2];
	static const ps_span samples = { (const unsigned char *)"samples", 7 }, count = { (const unsigned char *)"count", 5 },
	                     ns = { (const unsigned char *)"nanoseconds", 11 };
	int clock = span_starts(e, "cpu-clock") || span_starts(e, "task-clock"), rc;
	d->key.n = 0;
	if (!first && (key_add(d, e.p, e.n) || key_add(d, "_samples", 8)))
		return PROFDATA_ENOMEM;
	ps_span name = first ? samples : (ps_span){ (const unsigned char *)d->key.p, d->key.n };
	if ((rc = string_id(d, name, &t[0].type_id)) != 0 || (rc = string_id(d, count, &t[0].unit_id)) != 0 ||
	    (rc = string_id(d, e, &t[1].type_id)) != 0 || (rc = string_id(d, clock ? ns : count, &t[1].unit_id)) != 0)
		return rc;
	if ((rc = PD_EMIT(d->a, sample_type, &t[0])) != 0)
		return rc;
	return PD_EMIT(d->a, sample_type, &t[1]);
}

static int event_of(ps_decoder *d, ps_span e, uint32_t *out)
{
	static const ps_span none = { (const unsigned char *)"event", 5 };
	uint32_t ix;
	if (!e.n)
		e = none;
	int rc = pd_intern_put(&d->events, (const char *)e.p, e.n, &ix);
	if (rc < 0)
		return rc;
	*out = ix;
	return rc == 1 ? 0 : send_event_types(d, e, ix == 0);
}

/* The thread of pid, tid and command (a thread group is a process: the pid is its group name), sent when new. */
static int thread_of(ps_decoder *d, const ps_header *h, uint32_t *out)
{
	uint32_t ix;
	uint64_t tid = 0;
	d->key.n = 0;
	if (key_add(d, h->pid.p, h->pid.n) || key_add(d, "/", 1) || key_add(d, h->tid.p, h->tid.n) ||
	    key_add(d, " ", 1) || key_add(d, h->comm.p, h->comm.n))
		return PROFDATA_ENOMEM;
	int rc = pd_intern_put(&d->threads, d->key.p, d->key.n, &ix);
	if (rc < 0)
		return rc;
	*out = ix + 1;
	if (rc == 1)
		return 0;
	if (h->tid.n)
		pd_parse_dec_len(h->tid.p, h->tid.p + h->tid.n, &tid);
	profdata_thread_start t = { .serial = *out, .object_id = tid };
	if ((h->comm.n && (rc = string_id(d, h->comm, &t.name_id)) != 0) ||
	    (h->pid.n && (rc = string_id(d, h->pid, &t.group_name_id)) != 0))
		return rc;
	return PD_EMIT(d->a, thread_start, &t);
}

/* A sample's first line: close the open sample, open this one (its IP, when on the line, its one frame). */
static int open_sample(ps_decoder *d, const ps_header *h)
{
	int rc = d->open ? close_sample(d) : 0;
	if (rc != 0 || (rc = event_of(d, h->event, &d->event)) != 0 || (rc = thread_of(d, h, &d->thread)) != 0)
		return rc;
	d->open = 1;
	d->time_ns = h->has_time ? h->time_ns : 0;
	d->period = h->has_period ? h->period : 1;
	if (h->rest.n && pd_ps_is_frame(h->rest.p, h->rest.n))
		return add_text(d, h->rest.p, h->rest.n, 0);
	return 0;
}

static size_t leading_blanks(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* A line inside a sample or between samples. */
static int read_line(ps_decoder *d)
{
	const unsigned char *s = d->in.ls;
	size_t n = d->in.ll, b = leading_blanks(s, n);
	ps_header h;
	while (n > b && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (b == n)
		return d->open ? close_sample(d) : 0;
	if (s[0] == '\t' && d->open) {
		if (!pd_ps_is_frame(s + b, n - b))
			return fail(d, d->in.loff + b, "a call chain's line is not \"ADDRESS SYMBOL (DSO)\"; passed over");
		return add_text(d, s + b, n - b, 0);
	}
	if (s[0] == ' ' && d->open && d->nrefs && pd_ps_is_srcline(s + b, n - b))
		return add_text(d, s + b, n - b, 1);
	if (s[0] == '#' && !d->open)
		return 0; /* perf script --header's lines */
	if (!pd_ps_parse_header(s, n, &h))
		return fail(d, d->in.loff + b, "neither a sample's first line (COMMAND PID TIME: ...) nor a frame of one; "
		            "passed over");
	return open_sample(d, &h);
}

static int read_lines(ps_decoder *d)
{
	profdata_meta m = { .format = "perf-script" };
	int rc = PD_EMIT(d->a, begin, &m);
	while (rc == 0 && (rc = pd_lines_next(&d->in)) == 1)
		rc = read_line(d);
	pd_lines_finish(&d->in);
	if (rc == 0 && d->open)
		rc = close_sample(d);
	return rc == 0 ? PD_EMIT0(d->a, end) : rc;
}

int pd_ps_decode(const pd_decode_args *a)
{
	ps_decoder d;
	memset(&d, 0, sizeof d);
	d.a = a;
	int rc = pd_lines_start(&d.in, a->in, "perf-script", 0);
	if (rc == 0)
		rc = read_lines(&d);
	if (rc == PROFDATA_ENOMEM && !pd_in_diag(a->in)->has_err)
		rc = pd_in_error(a->in, rc, PD_NO_OFFSET, "perf-script: out of memory");
	pd_intern *tables[] = { &d.strings, &d.frames, &d.functions, &d.mappings, &d.stacks, &d.threads, &d.events };
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
		pd_intern_free(tables[i]);
	PD_FREE_ALL(d.frame_mapping, d.text.p, d.key.p, d.refs, d.ids, d.values);
	return rc;
}
