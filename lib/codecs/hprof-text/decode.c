/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HPROF agent's text output: the decoder. Lines are read in place
 * (io/lines.h); a line's first word says what it is, and a section
 * (TRACE, CPU SAMPLES, CPU TIME, SITES, HEAP DUMP, MONITOR TIME, MONITOR
 * DUMP) is read until the line that ends it. The heap dump is heap.c's;
 * names are names.c's. doc/formats-hprof-text.md has the mapping.
 */
#include <stdlib.h>
#include <string.h>

#include "hprof_text.h"

#define LINE (const char *)d->ln.ls, (const char *)d->ln.ls + d->ln.ll

static int starts(const ht_decoder *d, const char *lit)
{
	size_t n = strlen(lit);
	return d->ln.ll >= n && memcmp(d->ln.ls, lit, n) == 0;
}

/* ---- the header ---- */

static int attach(ht_decoder *d, const char *name)
{
	profdata_attachment at;
	at.name = name;
	at.data = d->scratch.p ? d->scratch.p : "";
	at.len = d->scratch.n;
	return PD_EMIT(d->a, attachment, &at) ? PROFDATA_STOPPED : 0;
}

/* "JAVA PROFILE 1.0.1, created Fri Jun 14 01:16:23 2013": meta.version and the date as a comment. */
static int on_first_line(ht_decoder *d)
{
	const char *p = (const char *)d->ln.ls, *end = p + d->ln.ll, *comma;
	char version[32];
	profdata_meta m;
	profdata_kv kv;
	if (!starts(d, "JAVA PROFILE 1.0.") || !(comma = memchr(p, ',', d->ln.ll)) ||
	    (size_t)(comma - p) >= sizeof version)
		return pd_ht_error(d, PROFDATA_EFORMAT, "not the HPROF agent's text output: no \"JAVA PROFILE 1.0.x, "
		                   "created\" line");
	memcpy(version, p, (size_t)(comma - p));
	version[comma - p] = '\0';
	memset(&m, 0, sizeof m);
	m.format = "hprof-text";
	m.version = version;
	m.period = (uint64_t)d->interval;
	m.period_type = "cpu";
	m.period_unit = "milliseconds";
	p = pd_ht_lit(pd_ht_spaces(comma + 1, end), end, "created");
	kv.key = "hprof-text.created";
	d->scratch.n = 0;
	if (pd_strbuf_add(&d->scratch, "", 0) < 0)
		return PROFDATA_ENOMEM;
	if (p && pd_strbuf_add(&d->scratch, pd_ht_spaces(p, end), (size_t)(end - pd_ht_spaces(p, end))) < 0)
		return PROFDATA_ENOMEM;
	kv.value = d->scratch.p;
	m.comments = p ? &kv : NULL;
	m.ncomments = p ? 1 : 0;
	if (PD_EMIT(d->a, begin, &m))
		return PROFDATA_STOPPED;
	d->scratch.n = 0;
	return 0;
}

/* A line that begins a record: the header (licence and help text, which names the records) is over. */
static int is_record(const ht_decoder *d)
{
	static const char *const words[] = { "THREAD START (", "THREAD END (", "CPU SAMPLES BEGIN",
		                             "CPU TIME (ms) BEGIN", "SITES BEGIN", "HEAP DUMP BEGIN",
		                             "MONITOR TIME BEGIN", "MONITOR DUMP BEGIN" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (starts(d, words[i]))
			return 1;
	return starts(d, "TRACE ") && d->ln.ll > 6 && d->ln.ls[6] >= '0' && d->ln.ls[6] <= '9';
}

/* The header's lines are kept verbatim, "--------" included, as the attachment hprof-text.header. */
static int on_header_line(ht_decoder *d, int *done)
{
	int rc;
	*done = 0;
	if (is_record(d)) {
		*done = 1;
		return attach(d, "hprof-text.header");
	}
	if (pd_strbuf_add(&d->scratch, (const char *)d->ln.ls, d->ln.ll) < 0 || pd_strbuf_add(&d->scratch, "\n", 1) < 0)
		return PROFDATA_ENOMEM;
	if (d->ln.ll == 8 && memcmp(d->ln.ls, "--------", 8) == 0) {
		if ((rc = attach(d, "hprof-text.header")) != 0)
			return rc;
		d->state = HT_TOP;
	}
	return 0;
}
/* ---- threads ---- */

/* The text of KEY="..." up to the quote before `stop` (searched from the line's end), or to the last quote. */
static const char *quoted(const char *p, const char *end, const char *key, const char *stop, size_t *len)
{
	const char *q = NULL, *s;
	size_t sl = stop ? strlen(stop) : 0;
	if (!(p = pd_ht_key(p, end, key)) || p == end || *p != '"')
		return NULL;
	s = ++p;
	for (const char *t = end; t > s && !q; t--)
		if (stop ? (size_t)(end - t) >= sl && memcmp(t, stop, sl) == 0 : t[-1] == '"')
			q = stop ? t : t - 1;
	if (!q)
		return NULL;
	*len = (size_t)(q - s);
	return s;
}

/* THREAD START (obj=5000016b, id = 200001, name="main", group="main") */
static int on_thread_start(ht_decoder *d)
{
	const char *p = (const char *)d->ln.ls + 14, *end = p + d->ln.ll - 14, *name, *group;
	size_t name_len = 0, group_len = 0;
	profdata_thread_start t;
	int rc;
	memset(&t, 0, sizeof t);
	p = pd_ht_hex(pd_ht_key(p, end, "obj"), end, &t.object_id);
	if (pd_ht_at(p, end, ','))
		p = pd_ht_u32(pd_ht_key(p + 1, end, "id"), end, &t.serial);
	name = pd_ht_at(p, end, ',') ? quoted(p + 1, end, "name", "\", group=\"", &name_len) : NULL;
	group = name ? quoted(name + name_len + 2, end, "group", NULL, &group_len) : NULL;
	if (!name)
		return pd_ht_damage(d, PROFDATA_EFORMAT, "a THREAD START without obj=, id = and name=; ignored");
	if ((rc = pd_ht_string(d, name, name_len, &t.name_id)) != 0 ||
	    (group && (rc = pd_ht_string(d, group, group_len, &t.group_name_id)) != 0))
		return rc;
	return PD_EMIT(d->a, thread_start, &t) ? PROFDATA_STOPPED : 0;
}

/* THREAD END (id = 200001) */
static int on_thread_end(ht_decoder *d)
{
	const char *p = (const char *)d->ln.ls + 12, *end = (const char *)d->ln.ls + d->ln.ll;
	profdata_thread_end t;
	memset(&t, 0, sizeof t);
	if (!pd_ht_u32(pd_ht_key(p, end, "id"), end, &t.serial))
		return pd_ht_damage(d, PROFDATA_EFORMAT, "a THREAD END without id =; ignored");
	return PD_EMIT(d->a, thread_end, &t) ? PROFDATA_STOPPED : 0;
}

/* ---- traces ---- */

/* The current line opens a section of kind `state`: where it began is what a cut-short file's warning names. */
static void enter_section(ht_decoder *d, ht_state state)
{
	d->state = state;
	d->section_line = d->ln.lineno;
	d->section_off = d->ln.loff;
}

/* TRACE 301000: (thread=200001) */
static int on_trace(ht_decoder *d)
{
	const char *p = (const char *)d->ln.ls + 6, *end = (const char *)d->ln.ls + d->ln.ll;
	d->trace_thread = 0;
	p = pd_ht_u32(p, end, &d->trace_serial);
	if (!p || p == end || *p != ':')
		return pd_ht_error(d, PROFDATA_EFORMAT, "a TRACE line is not \"TRACE <serial>:\"");
	p = pd_ht_spaces(p + 1, end);
	if (p < end) {
		p = pd_ht_u32(pd_ht_key(pd_ht_lit(p, end, "("), end, "thread"), end, &d->trace_thread);
		if (!p || p == end || *p != ')' || d->trace_thread == UINT32_MAX)
			return pd_ht_error(d, PROFDATA_EFORMAT, "a TRACE line's \"(thread=<serial>)\" is not well formed");
	}
	if (pd_map_get(&d->traces, d->trace_serial))
		return pd_ht_error(d, PROFDATA_EFORMAT, "a second TRACE with the same serial");
	d->nids = 0;
	enter_section(d, HT_TRACE);
	return 0;
}

static int on_frame_line(ht_decoder *d)
{
	const char *p = pd_ht_spaces(LINE), *end = (const char *)d->ln.ls + d->ln.ll;
	uint64_t id;
	int rc;
	if ((size_t)(end - p) == 7 && memcmp(p, "<empty>", 7) == 0)
		return 0;
	if ((rc = pd_ht_frame(d, p, (size_t)(end - p), &id)) != 0)
		return rc;
	return pd_ht_push_id(d, id);
}

static int end_trace(ht_decoder *d)
{
	profdata_stack s;
	int rc;
	d->state = HT_TOP;
	if ((rc = pd_map_put(&d->traces, d->trace_serial, d->trace_thread + 1u)) < 0)
		return rc;
	memset(&s, 0, sizeof s);
	s.serial = d->trace_serial;
	s.thread_serial = d->trace_thread;
	s.frame_ids = d->ids;
	s.nframes = d->nids;
	d->nids = 0;
	return PD_EMIT(d->a, stack, &s) ? PROFDATA_STOPPED : 0;
}

/* ---- CPU SAMPLES, CPU TIME (ms) ---- */

/* "45.49%" or "45,49%" (the agent printed in the JVM's locale): hundredths of a percent. */
static const char *percent(const char *p, const char *end, uint64_t *hundredths)
{
	uint64_t whole, frac = 0;
	int digits = 0;
	if (!(p = pd_ht_dec(pd_ht_spaces(p, end), end, &whole)) || whole > 1000000)
		return NULL;
	if (p < end && (*p == '.' || *p == ','))
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits++)
			if (digits < 2)
				frac = frac * 10 + (uint64_t)(*p - '0');
	for (; digits < 2; digits++)
		frac *= 10;
	if (p == end || *p != '%')
		return NULL;
	*hundredths = whole * 100 + frac;
	return p + 1;
}

static int sample_types(ht_decoder *d, int kind)
{
	static const char *const names[2][4] = { { "samples", "count", NULL, NULL },
		                                 { "cpu", "milliseconds", "calls", "count" } };
	const char *const *n = names[kind == 'T'];
	profdata_sample_type t;
	int rc;
	d->cpu_kind = kind;
	for (int i = 0; i < 4 && n[i]; i += 2) {
		if ((rc = pd_ht_string(d, n[i], strlen(n[i]), &t.type_id)) != 0 ||
		    (rc = pd_ht_string(d, n[i + 1], strlen(n[i + 1]), &t.unit_id)) != 0)
			return rc;
		if (PD_EMIT(d->a, sample_type, &t))
			return PROFDATA_STOPPED;
	}
	return 0;
}

/* CPU SAMPLES BEGIN (total = 981) Fri Jun 14 01:16:35 2013, or CPU TIME (ms) BEGIN (total = 2482436) ... */
static int on_cpu_begin(ht_decoder *d, int kind)
{
	const char *p = memchr(d->ln.ls, '(', d->ln.ll), *end = (const char *)d->ln.ls + d->ln.ll;
	profdata_sample_group g;
	int rc;
	if (p && kind == 'T')
		p = memchr(p + 1, '(', (size_t)(end - p - 1));
	if (!p || !pd_ht_dec(pd_ht_key(p + 1, end, "total"), end, &d->cpu_total))
		return pd_ht_error(d, PROFDATA_EFORMAT, "a CPU table's first line has no \"(total = <n>)\"");
	if (d->cpu_kind && d->cpu_kind != kind) {
		if ((rc = pd_ht_damage(d, PROFDATA_EUNSUPPORTED,
		                       "CPU SAMPLES and CPU TIME in one file: the second kind is skipped")) != 0)
			return rc;
		d->verbatim_end = kind == 'T' ? "CPU TIME (ms) END" : "CPU SAMPLES END";
		d->verbatim_name = NULL;
		d->state = HT_VERBATIM;
		return 0;
	}
	if (!d->cpu_kind && (rc = sample_types(d, kind)) != 0)
		return rc;
	memset(&g, 0, sizeof g);
	g.total = d->cpu_total;
	enter_section(d, HT_CPU);
	return PD_EMIT(d->a, sample_group, &g) ? PROFDATA_STOPPED : 0;
}

/* "   1  0.82%  0.82%       8 301000 java.lang.ClassLoader.defineClass1" */
static int on_cpu_row(ht_decoder *d)
{
	const char *p = (const char *)d->ln.ls, *end = p + d->ln.ll;
	uint64_t rank, self, accum, count;
	uint32_t trace, thread;
	profdata_sample s;
	int64_t v[2];
	p = pd_ht_dec(pd_ht_spaces(p, end), end, &rank);
	p = p ? percent(p, end, &self) : NULL;
	p = p ? percent(p, end, &accum) : NULL;
	p = p ? pd_ht_dec(pd_ht_spaces(p, end), end, &count) : NULL;
	p = p ? pd_ht_u32(pd_ht_spaces(p, end), end, &trace) : NULL;
	if (!p || count > INT64_MAX)
		return pd_ht_error(d, PROFDATA_EFORMAT, "a CPU table row is not \"rank self% accum% count trace method\"");
	if (!(thread = pd_map_get(&d->traces, trace)))
		return pd_ht_damage(d, PROFDATA_EFORMAT, "a CPU table row names a TRACE the file has not given; ignored");
	memset(&s, 0, sizeof s);
	s.stack_serial = trace;
	s.thread_serial = thread - 1;
	s.values = v;
	s.nvalues = d->cpu_kind == 'T' ? 2 : 1;
	/* CPU TIME states each trace's share of the total: its milliseconds, as near as the share tells */
	if (d->cpu_kind == 'T' && self && d->cpu_total > (uint64_t)INT64_MAX / self)
		return pd_ht_error(d, PROFDATA_ERANGE, "a CPU TIME total too large");
	v[0] = d->cpu_kind == 'T' ? (int64_t)((self * d->cpu_total + 5000) / 10000) : (int64_t)count;
	v[1] = (int64_t)count;
	return PD_EMIT(d->a, sample, &s) ? PROFDATA_STOPPED : 0;
}

static int cpu_line(ht_decoder *d)
{
	if (starts(d, "CPU SAMPLES END") || starts(d, "CPU TIME (ms) END")) {
		d->state = HT_TOP;
		return 0;
	}
	if (starts(d, "rank"))
		return 0;
	return on_cpu_row(d);
}

/* ---- SITES ---- */

/* SITES BEGIN (ordered by live bytes) Sun Jul 28 00:19:32 2019 */
static int on_sites_begin(ht_decoder *d)
{
	const char *end = (const char *)d->ln.ls + d->ln.ll;
	const char *p = pd_ht_lit(pd_ht_spaces((const char *)d->ln.ls + 11, end), end, "(ordered by ");
	d->sites_flags = p && !pd_ht_lit(p, end, "live") ? 0x2 : 0;
	d->nsites = 0;
	enter_section(d, HT_SITES);
	return 0;
}

/* "    1 18.51% 18.51%    131544 1244    131544  1244 300000 char[]" */
static int on_site_row(ht_decoder *d)
{
	const char *p = (const char *)d->ln.ls, *end = p + d->ln.ll;
	uint64_t rank, self, accum;
	uint32_t n[5];
	profdata_alloc_site *s;
	int rc, elem;
	p = pd_ht_dec(pd_ht_spaces(p, end), end, &rank);
	p = p ? percent(p, end, &self) : NULL;
	p = p ? percent(p, end, &accum) : NULL;
	for (int i = 0; i < 5 && p; i++)
		p = pd_ht_u32(pd_ht_spaces(p, end), end, &n[i]);
	p = p ? pd_ht_spaces(p, end) : NULL;
	if (!p || p == end)
		return pd_ht_error(d, PROFDATA_EFORMAT, "a SITES row is not \"rank self% accum% live-bytes live-objs "
		                   "alloc-bytes alloc-objs trace class\" (numbers of 32 bits)");
	if ((rc = pd_grow((void **)&d->sites, &d->sites_cap, d->nsites + 1, sizeof *d->sites)) < 0)
		return rc;
	s = &d->sites[d->nsites];
	memset(s, 0, sizeof *s);
	if ((rc = pd_ht_class_serial(d, p, (size_t)(end - p), &s->class_serial)) != 0)
		return rc;
	elem = pd_ht_elem_type(p, (size_t)(end - p));
	s->array_type = (uint8_t)(elem ? elem : end - p > 2 && end[-1] == ']' && end[-2] == '[' ? PROFDATA_TYPE_OBJECT : 0);
	s->live_bytes = n[0];
	s->live_instances = n[1];
	s->alloc_bytes = n[2];
	s->alloc_instances = n[3];
	s->trace_serial = n[4];
	d->nsites++;
	return 0;
}

static int end_sites(ht_decoder *d)
{
	profdata_alloc_sites a;
	const float cutoff = 0.0001f; /* the agent's default; the text does not say its own */
	memset(&a, 0, sizeof a);
	a.flags = d->sites_flags;
	memcpy(&a.cutoff_bits, &cutoff, sizeof a.cutoff_bits);
	for (size_t i = 0; i < d->nsites; i++) {
		a.total_live_bytes += d->sites[i].live_bytes;
		a.total_live_instances += d->sites[i].live_instances;
		a.total_alloc_bytes += d->sites[i].alloc_bytes;
		a.total_alloc_instances += d->sites[i].alloc_instances;
	}
	a.sites = d->sites;
	a.nsites = d->nsites;
	d->state = HT_TOP;
	return PD_EMIT(d->a, alloc_sites, &a) ? PROFDATA_STOPPED : 0;
}

static int sites_line(ht_decoder *d)
{
	const char *p = pd_ht_spaces(LINE);
	if (starts(d, "SITES END"))
		return end_sites(d);
	if (p == (const char *)d->ln.ls + d->ln.ll || *p < '0' || *p > '9')
		return 0; /* the two lines of column names */
	return on_site_row(d);
}

/* ---- sections kept verbatim: MONITOR TIME, MONITOR DUMP ---- */

static int on_verbatim_begin(ht_decoder *d, const char *name, const char *end_line)
{
	d->verbatim_name = name;
	d->verbatim_end = end_line;
	d->scratch.n = 0;
	enter_section(d, HT_VERBATIM);
	/* the BEGIN line too (its total and date): a rewrite gives the section back whole */
	if (pd_strbuf_add(&d->scratch, (const char *)d->ln.ls, d->ln.ll) < 0 || pd_strbuf_add(&d->scratch, "\n", 1) < 0)
		return PROFDATA_ENOMEM;
	return 0;
}

static int verbatim_line(ht_decoder *d)
{
	int rc = 0;
	if (d->verbatim_name && (pd_strbuf_add(&d->scratch, (const char *)d->ln.ls, d->ln.ll) < 0 ||
	                         pd_strbuf_add(&d->scratch, "\n", 1) < 0))
		return PROFDATA_ENOMEM;
	if (starts(d, d->verbatim_end)) {
		if (d->verbatim_name)
			rc = attach(d, d->verbatim_name);
		d->scratch.n = 0;
		d->state = HT_TOP;
	}
	return rc;
}

/* ---- the records between sections ---- */

static int is_blank(const ht_decoder *d)
{
	const char *p = (const char *)d->ln.ls, *end = p + d->ln.ll;
	return pd_ht_spaces(p, end) == end;
}

static int on_heap_begin(ht_decoder *d)
{
	profdata_dump dump;
	memset(&dump, 0, sizeof dump);
	dump.kind = PROFDATA_DUMP_HEAP;
	enter_section(d, HT_HEAP);
	return PD_EMIT(d->a, dump_begin, &dump) ? PROFDATA_STOPPED : 0;
}

static int top_line(ht_decoder *d)
{
	if (starts(d, "THREAD START ("))
		return on_thread_start(d);
	if (starts(d, "THREAD END ("))
		return on_thread_end(d);
	if (starts(d, "TRACE "))
		return on_trace(d);
	if (starts(d, "CPU SAMPLES BEGIN"))
		return on_cpu_begin(d, 'S');
	if (starts(d, "CPU TIME (ms) BEGIN"))
		return on_cpu_begin(d, 'T');
	if (starts(d, "SITES BEGIN"))
		return on_sites_begin(d);
	if (starts(d, "HEAP DUMP BEGIN"))
		return on_heap_begin(d);
	if (starts(d, "MONITOR TIME BEGIN"))
		return on_verbatim_begin(d, "hprof-text.monitor-time", "MONITOR TIME END");
	if (starts(d, "MONITOR DUMP BEGIN"))
		return on_verbatim_begin(d, "hprof-text.monitor-dump", "MONITOR DUMP END");
	if (is_blank(d))
		return 0;
	return pd_ht_damage(d, PROFDATA_EFORMAT, "unrecognised line; ignored");
}

static int on_line(ht_decoder *d)
{
	int rc, done;
	switch (d->state) {
	case HT_HEADER:
		if ((rc = on_header_line(d, &done)) != 0 || !done)
			return rc;
		d->state = HT_TOP;
		return top_line(d);
	case HT_TRACE:
		if (d->ln.ll && (d->ln.ls[0] == '\t' || d->ln.ls[0] == ' '))
			return on_frame_line(d);
		if ((rc = end_trace(d)) != 0)
			return rc;
		return top_line(d);
	case HT_CPU: return cpu_line(d);
	case HT_SITES: return sites_line(d);
	case HT_HEAP: return pd_ht_heap_line(d);
	case HT_VERBATIM: return verbatim_line(d);
	default: return top_line(d);
	}
}

/* The input ends: a section left open was cut short. */
static int at_end(ht_decoder *d)
{
	static const char *const what[] = { [HT_TRACE] = "a TRACE", [HT_CPU] = "a CPU table", [HT_SITES] = "SITES",
		                            [HT_HEAP] = "HEAP DUMP", [HT_VERBATIM] = "a MONITOR section" };
	int rc = 0;
	if (d->state == HT_TRACE && !d->ln.no_nl)
		return end_trace(d);
	if (d->state == HT_HEADER)
		return attach(d, "hprof-text.header");
	if (d->state == HT_TOP)
		return 0;
	rc = pd_in_damage(d->r, d->mode, PROFDATA_ETRUNCATED, d->ln.loff + d->ln.ll, d->ln.lineno,
	                  "hprof-text: the input ends inside %s begun at line %llu (byte %llu): cut short",
	                  what[d->state], (unsigned long long)d->section_line, (unsigned long long)d->section_off);
	if (rc)
		return rc;
	if (d->state == HT_TRACE)
		return end_trace(d);
	if (d->state == HT_SITES)
		return end_sites(d);
	return d->state == HT_HEAP ? pd_ht_heap_end(d) : 0;
}

static int run(ht_decoder *d)
{
	int rc;
	if ((rc = pd_lines_start(&d->ln, d->r, "hprof-text", 0)) < 0)
		return rc;
	if ((rc = pd_lines_next(&d->ln)) <= 0)
		return rc < 0 ? rc : pd_ht_error(d, PROFDATA_EFORMAT, "not the HPROF agent's text output: the input is empty");
	if ((rc = on_first_line(d)) != 0)
		return rc;
	/* a last line without its line feed inside a section was cut: at_end says so */
	while ((rc = pd_lines_next(&d->ln)) > 0 && !(d->ln.no_nl && d->state != HT_TOP && d->state != HT_HEADER))
		if ((rc = on_line(d)) != 0)
			return rc;
	if (rc < 0 || (rc = at_end(d)) != 0 || (rc = pd_ht_load_the_rest(d)) != 0)
		return rc;
	pd_lines_finish(&d->ln);
	return PD_EMIT0(d->a, end) ? PROFDATA_STOPPED : 0;
}

int pd_hprof_text_decode(const pd_decode_args *a)
{
	ht_decoder d;
	long long interval;
	int rc;
	memset(&d, 0, sizeof d);
	d.a = a;
	d.r = a->in;
	d.mode = a->mode;
	rc = pd_options_int(a->opts, "interval", 10, 1, INT32_MAX, &interval, pd_in_diag(a->in));
	d.interval = interval;
	if (rc == 0)
		rc = run(&d);
	pd_ht_tables_free(&d);
	pd_ht_heap_free(&d);
	PD_FREE_ALL(d.ids, d.sites);
	return rc;
}
