/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HPROF decoder: bytes to events.
 *
 * Top-level records are read whole (they are small, except unknown ones,
 * which are kept verbatim). HEAP DUMP and HEAP DUMP SEGMENT bodies are read
 * sub-record by sub-record from input windows of at most a chunk, so a
 * segment never has to fit a buffer; only a single sub-record does, since its
 * payload is handed on as one pointer. On a memory-mapped input the window
 * is the mapping itself and nothing is copied.
 */
#include <stdlib.h>
#include <string.h>

#include "hprof.h"

/* How much of a heap dump body to ask for at once when the input is a stream. */
#define MAPPED_STEP ((size_t)4 << 20)
#define STREAM_CHUNK ((size_t)1 << 20)
/* Permissive mode keeps the unparseable rest of a segment when it is no bigger than this (streams). */
#define UNKNOWN_KEEP_MAX ((uint64_t)64 << 20)

/* Internal result: the input ends here (its end, or a permissive repair); finish cleanly. */
#define FINISH_INPUT 2

typedef struct hprof_decoder {
	const pd_decode_args *a;
	profdata_reader *in;
	unsigned ids;
	int mode; /* profdata_mode */
	int no_primitive_data;  /* PD_DECODE_NO_PRIMITIVE_DATA, or the read option primitive_data=0 */
	int dump_open;          /* a HEAP DUMP SEGMENT run is open (no HEAP DUMP END yet) */
	int sample_type_done;
	uint64_t size;          /* input size when it is one stable span, else UINT64_MAX */
	char version[64];

	/* Scratch, grown to what records that are already in memory justify. */
	uint64_t *frames;
	size_t frames_cap;
	profdata_alloc_site *sites;
	size_t sites_cap;
	profdata_constant *consts;
	size_t consts_cap;
	profdata_field *statics, *fields;
	size_t statics_cap, fields_cap;
} hprof_decoder;

/* A callback asked to stop. */
#define EMIT(d, member, ...) \
	do { if (PD_EMIT((d)->a, member, __VA_ARGS__)) return PROFDATA_STOPPED; } while (0)
#define EMIT0(d, member) \
	do { if (PD_EMIT0((d)->a, member)) return PROFDATA_STOPPED; } while (0)

static int reserve(void **ptr, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return 0;
	return pd_grow(ptr, cap, n, size);
}

/* ---- the header ---- */

static int read_header(hprof_decoder *d)
{
	const unsigned char *p;
	int64_t n = pd_in_fill(d->in, 64 + 13, &p);
	size_t len, i;

	if (n < 0)
		return (int)n;
	for (len = 0; len < (size_t)n && p[len] != '\0'; len++)
		;
	if (len >= (size_t)n && (size_t)n > 19 && memcmp(p, "JAVA PROFILE 1.0.", 17) == 0 &&
	    memcmp(p + 18, ", created", (size_t)n - 18 < 9 ? (size_t)n - 18 : 9) == 0)
		return pd_in_error(d->in, PROFDATA_EFORMAT, 0,
		                "not a binary HPROF file: this is the HPROF agent's text output (java.hprof.txt, "
		                "\"JAVA PROFILE 1.0.x, created ...\"); read it as hprof-text");
	if (len >= (size_t)n && n < 64 + 13 && memcmp(p, "JAVA PROFILE 1.0.", (size_t)n < 17 ? (size_t)n : 17) == 0)
		return pd_in_error(d->in, PROFDATA_ETRUNCATED, 0,
		                "truncated HPROF header at offset 0: the input ends after %lld bytes", (long long)n);
	if (len >= (size_t)n || len >= sizeof d->version || strncmp((const char *)p, "JAVA PROFILE ", 13) != 0)
		return pd_in_error(d->in, PROFDATA_EFORMAT, 0,
		                "not an HPROF file: no \"JAVA PROFILE 1.0.x\" header at offset 0");
	if ((size_t)n < len + 13)
		return pd_in_error(d->in, PROFDATA_ETRUNCATED, (uint64_t)len + 1,
		                "truncated HPROF header at offset %zu: 12 bytes needed, %zu remain", len + 1,
		                (size_t)n - len - 1);
	memcpy(d->version, p, len + 1);
	if (strcmp(d->version, "JAVA PROFILE 1.0.1") != 0 && strcmp(d->version, "JAVA PROFILE 1.0.2") != 0 &&
	    strcmp(d->version, "JAVA PROFILE 1.0.3") != 0) {
		int rc = pd_in_damage(d->in, d->mode, PROFDATA_EUNSUPPORTED, 0, 0,
		                    "unknown HPROF version \"%s\"; reading it as 1.0.2", d->version);
		if (rc)
			return rc;
	}
	for (i = 0; i < len; i++)
		if ((unsigned char)d->version[i] < 0x20 || (unsigned char)d->version[i] > 0x7e)
			d->version[i] = '?';
	d->ids = pd_be32(p + len + 1);
	if (d->ids != 4 && d->ids != 8)
		return pd_in_error(d->in, PROFDATA_EUNSUPPORTED, (uint64_t)len + 1,
		                "HPROF identifier size %u at offset %zu is not supported (only 4 and 8)",
		                d->ids, len + 1);
	{
		profdata_meta m;
		memset(&m, 0, sizeof m);
		m.format = "hprof";
		m.version = d->version;
		m.id_size = d->ids;
		m.timestamp_ms = pd_be64(p + len + 5);
		pd_in_skip(d->in, len + 13);
		EMIT(d, begin, &m);
	}
	return 0;
}

/* ---- top-level records other than heap dumps ---- */

/* A record's length does not match its contents. */
static int report_bad_length(hprof_decoder *d, unsigned tag, uint64_t off, uint64_t len, uint64_t want)
{
	return pd_in_damage(d->in, d->mode, PROFDATA_EFORMAT, off, 0,
	                  "%s (tag 0x%02X) at offset %llu: length %llu does not match its contents (%llu bytes)%s",
	                  pd_hprof_record_name(tag), tag, (unsigned long long)off, (unsigned long long)len,
	                  (unsigned long long)want, len < want ? "; record dropped" : "; extra bytes ignored");
}

/*
 * Checks that a record of `len` bytes holds exactly `want`. Returns 0 to go
 * on, 1 to drop the record (permissive), or an error code.
 */
static int expect_length(hprof_decoder *d, unsigned tag, uint64_t off, uint64_t len, uint64_t want)
{
	int rc;
	if (len == want)
		return 0;
	rc = report_bad_length(d, tag, off, len, want);
	if (rc)
		return rc;
	return len < want ? 1 : 0;
}

static int read_string(hprof_decoder *d, const unsigned char *p, uint32_t len, uint64_t off)
{
	unsigned I = d->ids;
	uint64_t id;
	int rc;

	if (len < I) {
		if ((rc = expect_length(d, HPROF_STRING, off, len, I)) != 0)
			return rc < 0 ? rc : 0;
	}
	id = pd_be_id(p, I);
	if (id >= HPROF_SYNTH_ID_MIN) {
		rc = pd_in_damage(d->in, d->mode, PROFDATA_EUNSUPPORTED, off, 0,
		                "STRING (tag 0x01) at offset %llu: id 0x%llx is reserved for strings the reader makes up; string dropped",
		                (unsigned long long)off, (unsigned long long)id);
		return rc;
	}
	EMIT(d, string, id, (const char *)p + I, (size_t)(len - I));
	return 0;
}

static int read_stack_trace(hprof_decoder *d, const unsigned char *p, uint32_t len, uint64_t off)
{
	unsigned I = d->ids;
	profdata_stack s;
	uint64_t n, i;
	int rc;

	memset(&s, 0, sizeof s);
	if (len < 12) {
		rc = expect_length(d, HPROF_STACK_TRACE, off, len, 12);
		return rc < 0 ? rc : 0;
	}
	n = pd_be32(p + 8);
	if ((rc = expect_length(d, HPROF_STACK_TRACE, off, len, 12 + n * I)) != 0)
		return rc < 0 ? rc : 0;
	if (reserve((void **)&d->frames, &d->frames_cap, (size_t)n, sizeof *d->frames))
		return pd_in_error(d->in, PROFDATA_ENOMEM, off, "out of memory");
	for (i = 0; i < n; i++)
		d->frames[i] = pd_be_id(p + 12 + i * I, I);
	s.serial = pd_be32(p);
	s.thread_serial = pd_be32(p + 4);
	s.frame_ids = d->frames;
	s.nframes = (size_t)n;
	EMIT(d, stack, &s);
	return 0;
}

static int read_alloc_sites(hprof_decoder *d, const unsigned char *p, uint32_t len, uint32_t time, uint64_t off)
{
	profdata_alloc_sites a;
	uint64_t n, i;
	int rc;

	memset(&a, 0, sizeof a);
	if (len < 34) {
		rc = expect_length(d, HPROF_ALLOC_SITES, off, len, 34);
		return rc < 0 ? rc : 0;
	}
	n = pd_be32(p + 30);
	if ((rc = expect_length(d, HPROF_ALLOC_SITES, off, len, 34 + n * 25)) != 0)
		return rc < 0 ? rc : 0;
	if (reserve((void **)&d->sites, &d->sites_cap, (size_t)n, sizeof *d->sites))
		return pd_in_error(d->in, PROFDATA_ENOMEM, off, "out of memory");
	for (i = 0; i < n; i++) {
		const unsigned char *q = p + 34 + i * 25;
		profdata_alloc_site *s = &d->sites[i];
		memset(s, 0, sizeof *s);
		s->array_type = q[0];
		s->class_serial = pd_be32(q + 1);
		s->trace_serial = pd_be32(q + 5);
		s->live_bytes = pd_be32(q + 9);
		s->live_instances = pd_be32(q + 13);
		s->alloc_bytes = pd_be32(q + 17);
		s->alloc_instances = pd_be32(q + 21);
	}
	a.time_us = time;
	a.flags = pd_be16(p);
	a.cutoff_bits = pd_be32(p + 2);
	a.total_live_bytes = pd_be32(p + 6);
	a.total_live_instances = pd_be32(p + 10);
	a.total_alloc_bytes = pd_be64(p + 14);
	a.total_alloc_instances = pd_be64(p + 22);
	a.sites = d->sites;
	a.nsites = (size_t)n;
	EMIT(d, alloc_sites, &a);
	return 0;
}

static int read_cpu_samples(hprof_decoder *d, const unsigned char *p, uint32_t len, uint32_t time, uint64_t off)
{
	profdata_sample_group g;
	uint64_t n, i;
	int rc;

	memset(&g, 0, sizeof g);
	if (len < 8) {
		rc = expect_length(d, HPROF_CPU_SAMPLES, off, len, 8);
		return rc < 0 ? rc : 0;
	}
	n = pd_be32(p + 4);
	if ((rc = expect_length(d, HPROF_CPU_SAMPLES, off, len, 8 + n * 8)) != 0)
		return rc < 0 ? rc : 0;
	if (!d->sample_type_done) {
		profdata_sample_type t;
		memset(&t, 0, sizeof t);
		d->sample_type_done = 1;
		EMIT(d, string, HPROF_SYNTH_SAMPLES, "samples", 7);
		EMIT(d, string, HPROF_SYNTH_COUNT, "count", 5);
		t.type_id = HPROF_SYNTH_SAMPLES;
		t.unit_id = HPROF_SYNTH_COUNT;
		EMIT(d, sample_type, &t);
	}
	g.time_us = time;
	g.total = pd_be32(p);
	EMIT(d, sample_group, &g);
	for (i = 0; i < n; i++) {
		profdata_sample s;
		int64_t v = pd_be32(p + 8 + i * 8);
		memset(&s, 0, sizeof s);
		s.stack_serial = pd_be32(p + 12 + i * 8);
		s.thread_serial = 0;
		s.time_ns = 0;
		s.values = &v;
		s.nvalues = 1;
		EMIT(d, sample, &s);
	}
	return 0;
}

static int read_class_load(hprof_decoder *d, const unsigned char *p, uint32_t len, uint32_t time, uint64_t off)
{
	unsigned I = d->ids;
	profdata_class_load c;
	int rc;
	if ((rc = expect_length(d, HPROF_LOAD_CLASS, off, len, 8 + 2 * I)) != 0)
		return rc < 0 ? rc : 0;
	memset(&c, 0, sizeof c);
	c.time_us = time;
	c.serial = pd_be32(p);
	c.id = pd_be_id(p + 4, I);
	c.trace_serial = pd_be32(p + 4 + I);
	c.name_id = pd_be_id(p + 8 + I, I);
	EMIT(d, class_load, &c);
	return 0;
}

static int read_class_unload(hprof_decoder *d, const unsigned char *p, uint32_t len, uint32_t time, uint64_t off)
{
	profdata_class_unload c;
	int rc;
	if ((rc = expect_length(d, HPROF_UNLOAD_CLASS, off, len, 4)) != 0)
		return rc < 0 ? rc : 0;
	memset(&c, 0, sizeof c);
	c.time_us = time;
	c.serial = pd_be32(p);
	EMIT(d, class_unload, &c);
	return 0;
}

/* A STACK FRAME is both a function and a frame (at a line) of it. */
static int read_stack_frame(hprof_decoder *d, const unsigned char *p, uint32_t len, uint64_t off)
{
	unsigned I = d->ids;
	profdata_function f;
	profdata_frame fr;
	int rc;
	if ((rc = expect_length(d, HPROF_STACK_FRAME, off, len, 8 + 4 * I)) != 0)
		return rc < 0 ? rc : 0;
	memset(&f, 0, sizeof f);
	memset(&fr, 0, sizeof fr);
	f.id = pd_be_id(p, I);
	f.name_id = pd_be_id(p + I, I);
	f.signature_id = pd_be_id(p + 2 * I, I);
	f.source_file_id = pd_be_id(p + 3 * I, I);
	f.class_serial = pd_be32(p + 4 * I);
	fr.id = f.id;
	fr.function_id = f.id;
	fr.line = (int32_t)pd_be32(p + 4 * I + 4);
	EMIT(d, function, &f);
	EMIT(d, frame, &fr);
	return 0;
}

static int read_heap_summary(hprof_decoder *d, const unsigned char *p, uint32_t len, uint32_t time, uint64_t off)
{
	profdata_heap_summary h;
	int rc;
	if ((rc = expect_length(d, HPROF_HEAP_SUMMARY, off, len, 24)) != 0)
		return rc < 0 ? rc : 0;
	memset(&h, 0, sizeof h);
	h.time_us = time;
	h.live_bytes = pd_be32(p);
	h.live_instances = pd_be32(p + 4);
	h.alloc_bytes = pd_be64(p + 8);
	h.alloc_instances = pd_be64(p + 16);
	EMIT(d, heap_summary, &h);
	return 0;
}

static int read_thread_start(hprof_decoder *d, const unsigned char *p, uint32_t len, uint32_t time, uint64_t off)
{
	unsigned I = d->ids;
	profdata_thread_start t;
	int rc;
	if ((rc = expect_length(d, HPROF_START_THREAD, off, len, 8 + 4 * I)) != 0)
		return rc < 0 ? rc : 0;
	memset(&t, 0, sizeof t);
	t.time_us = time;
	t.serial = pd_be32(p);
	t.object_id = pd_be_id(p + 4, I);
	t.trace_serial = pd_be32(p + 4 + I);
	t.name_id = pd_be_id(p + 8 + I, I);
	t.group_name_id = pd_be_id(p + 8 + 2 * I, I);
	t.parent_group_name_id = pd_be_id(p + 8 + 3 * I, I);
	EMIT(d, thread_start, &t);
	return 0;
}

static int read_thread_end(hprof_decoder *d, const unsigned char *p, uint32_t len, uint32_t time, uint64_t off)
{
	profdata_thread_end t;
	int rc;
	if ((rc = expect_length(d, HPROF_END_THREAD, off, len, 4)) != 0)
		return rc < 0 ? rc : 0;
	memset(&t, 0, sizeof t);
	t.time_us = time;
	t.serial = pd_be32(p);
	EMIT(d, thread_end, &t);
	return 0;
}

static int read_control_settings(hprof_decoder *d, const unsigned char *p, uint32_t len, uint32_t time,
                                 uint64_t off)
{
	profdata_control_settings c;
	int rc;
	if ((rc = expect_length(d, HPROF_CONTROL_SETTINGS, off, len, 6)) != 0)
		return rc < 0 ? rc : 0;
	memset(&c, 0, sizeof c);
	c.time_us = time;
	c.flags = pd_be32(p);
	c.stack_depth = pd_be16(p + 4);
	EMIT(d, control_settings, &c);
	return 0;
}

/* A record of a tag this decoder does not know: handed on verbatim. */
static int read_unknown(hprof_decoder *d, unsigned tag, uint32_t time, const unsigned char *p, uint32_t len)
{
	profdata_unknown u;
	memset(&u, 0, sizeof u);
	u.tag = tag;
	u.time_us = time;
	u.data = p;
	u.len = len;
	u.in_dump = 0;
	EMIT(d, unknown, &u);
	return 0;
}

/* One whole record that is not a heap dump, at p. */
static int read_record(hprof_decoder *d, unsigned tag, uint32_t time, const unsigned char *p, uint32_t len,
                       uint64_t off)
{
	switch (tag) {
	case HPROF_STRING: return read_string(d, p, len, off);
	case HPROF_LOAD_CLASS: return read_class_load(d, p, len, time, off);
	case HPROF_UNLOAD_CLASS: return read_class_unload(d, p, len, time, off);
	case HPROF_STACK_FRAME: return read_stack_frame(d, p, len, off);
	case HPROF_STACK_TRACE: return read_stack_trace(d, p, len, off);
	case HPROF_ALLOC_SITES: return read_alloc_sites(d, p, len, time, off);
	case HPROF_HEAP_SUMMARY: return read_heap_summary(d, p, len, time, off);
	case HPROF_START_THREAD: return read_thread_start(d, p, len, time, off);
	case HPROF_END_THREAD: return read_thread_end(d, p, len, time, off);
	case HPROF_CPU_SAMPLES: return read_cpu_samples(d, p, len, time, off);
	case HPROF_CONTROL_SETTINGS: return read_control_settings(d, p, len, time, off);
	default: return read_unknown(d, tag, time, p, len);
	}
}

/* ---- heap dumps ---- */

static int emit_dump_begin(hprof_decoder *d, uint32_t time, int kind)
{
	profdata_dump dump;
	memset(&dump, 0, sizeof dump);
	dump.time_us = time;
	dump.kind = kind;
	EMIT(d, dump_begin, &dump);
	return 0;
}

/* Close a HEAP DUMP SEGMENT run that no HEAP DUMP END closed. */
static int close_open_dump(hprof_decoder *d, uint64_t off, const char *where)
{
	int rc;
	if (!d->dump_open)
		return 0;
	rc = pd_in_damage(d->in, d->mode, PROFDATA_EFORMAT, off, 0,
	                "heap dump segments not closed by HEAP DUMP END (tag 0x2C) %s at offset %llu", where,
	                (unsigned long long)off);
	if (rc)
		return rc;
	d->dump_open = 0;
	EMIT0(d, dump_end);
	return 0;
}

/*
 * Size of the CLASS DUMP sub-record at q (tag included) when it is complete
 * within n bytes: returns 0 and sets *size. Returns 1 with *size a lower
 * bound of what it needs when more bytes are needed, or -1 with *size the
 * offset of a value of unknown type.
 */
static int class_dump_size(const unsigned char *q, size_t n, unsigned I, uint64_t *size)
{
	uint64_t pos = 1 + 7 * (uint64_t)I + 8;
	unsigned k, cnt, t, sz;

	if (n < pos + 2) {
		*size = pos + 2;
		return 1;
	}
	cnt = pd_be16(q + pos);
	pos += 2;
	for (k = 0; k < cnt; k++) {
		if (n < pos + 3) {
			*size = pos + 3;
			return 1;
		}
		t = q[pos + 2];
		if ((sz = hprof_type_size(t, I)) == 0) {
			*size = pos + 2;
			return -1;
		}
		pos += 3 + sz;
	}
	if (n < pos + 2) {
		*size = pos + 2;
		return 1;
	}
	cnt = pd_be16(q + pos);
	pos += 2;
	for (k = 0; k < cnt; k++) {
		if (n < pos + I + 1) {
			*size = pos + I + 1;
			return 1;
		}
		t = q[pos + I];
		if ((sz = hprof_type_size(t, I)) == 0) {
			*size = pos + I;
			return -1;
		}
		pos += I + 1 + sz;
	}
	if (n < pos + 2) {
		*size = pos + 2;
		return 1;
	}
	cnt = pd_be16(q + pos);
	pos += 2 + (uint64_t)cnt * (I + 1);
	*size = pos;
	return n < pos;
}

static uint64_t read_value(const unsigned char *q, unsigned sz)
{
	switch (sz) {
	case 1: return q[0];
	case 2: return pd_be16(q);
	case 4: return pd_be32(q);
	default: return pd_be64(q);
	}
}

/* Emit the complete CLASS DUMP at q. */
static int emit_class_dump(hprof_decoder *d, const unsigned char *q, uint64_t off)
{
	unsigned I = d->ids;
	profdata_class_dump c;
	const unsigned char *r;
	unsigned k, n, sz;

	memset(&c, 0, sizeof c);
	c.id = pd_be_id(q + 1, I);
	c.trace_serial = pd_be32(q + 1 + I);
	r = q + 5 + I;
	c.super_id = pd_be_id(r, I);
	c.loader_id = pd_be_id(r + I, I);
	c.signers_id = pd_be_id(r + 2 * I, I);
	c.protection_domain_id = pd_be_id(r + 3 * I, I);
	c.reserved1 = pd_be_id(r + 4 * I, I);
	c.reserved2 = pd_be_id(r + 5 * I, I);
	r += 6 * I;
	c.instance_size = pd_be32(r);
	r += 4;

	n = pd_be16(r);
	r += 2;
	if (reserve((void **)&d->consts, &d->consts_cap, n, sizeof *d->consts))
		return pd_in_error(d->in, PROFDATA_ENOMEM, off, "out of memory");
	if (n)
		memset(d->consts, 0, n * sizeof *d->consts);
	for (k = 0; k < n; k++) {
		d->consts[k].index = pd_be16(r);
		d->consts[k].type = r[2];
		sz = hprof_type_size(r[2], I);
		d->consts[k].value = read_value(r + 3, sz);
		r += 3 + sz;
	}
	c.constants = d->consts;
	c.nconstants = n;

	n = pd_be16(r);
	r += 2;
	if (reserve((void **)&d->statics, &d->statics_cap, n, sizeof *d->statics))
		return pd_in_error(d->in, PROFDATA_ENOMEM, off, "out of memory");
	if (n)
		memset(d->statics, 0, n * sizeof *d->statics);
	for (k = 0; k < n; k++) {
		d->statics[k].name_id = pd_be_id(r, I);
		d->statics[k].type = r[I];
		sz = hprof_type_size(r[I], I);
		d->statics[k].value = read_value(r + I + 1, sz);
		r += I + 1 + sz;
	}
	c.statics = d->statics;
	c.nstatics = n;

	n = pd_be16(r);
	r += 2;
	if (reserve((void **)&d->fields, &d->fields_cap, n, sizeof *d->fields))
		return pd_in_error(d->in, PROFDATA_ENOMEM, off, "out of memory");
	if (n)
		memset(d->fields, 0, n * sizeof *d->fields);
	for (k = 0; k < n; k++) {
		d->fields[k].name_id = pd_be_id(r, I);
		d->fields[k].type = r[I];
		d->fields[k].value = 0;
		r += I + 1;
	}
	c.fields = d->fields;
	c.nfields = n;
	EMIT(d, class_dump, &c);
	return 0;
}

/*
 * Permissive mode meets a sub-record it cannot size at the current position.
 * The rest of the record (or of the input, with to_eof) is kept as one
 * unknown in-dump record, tag first, when it can be had whole; then the
 * decoder goes past it.
 */
static int keep_rest_as_unknown(hprof_decoder *d, unsigned tag, uint64_t left, int to_eof)
{
	uint64_t rest = left, at = pd_in_offset(d->in);
	const unsigned char *p;
	int64_t n;

	if (to_eof)
		rest = d->size != UINT64_MAX ? d->size - at : UNKNOWN_KEEP_MAX + 1;
	if (rest > 1 && rest <= SIZE_MAX && (d->size != UINT64_MAX || rest <= UNKNOWN_KEEP_MAX + 1)) {
		n = pd_in_fill(d->in, (size_t)rest, &p);
		if (n < 0)
			return (int)n;
		if ((uint64_t)n < rest && to_eof)
			rest = (uint64_t)n; /* the end of a stream */
		if ((uint64_t)n >= rest && rest > 1) {
			profdata_unknown u;
			memset(&u, 0, sizeof u);
			u.tag = tag;
			u.time_us = 0;
			u.data = p + 1;
			u.len = rest - 1;
			u.in_dump = 1;
			EMIT(d, unknown, &u);
		}
	}
	if (to_eof)
		return FINISH_INPUT;
	n = pd_in_discard(d->in, left);
	if (n < 0)
		return (int)n;
	return (uint64_t)n < left ? FINISH_INPUT : 0;
}

/*
 * A HEAP DUMP or HEAP DUMP SEGMENT body being read: the record, how much of
 * it is left, and the window of input in hand.
 */
typedef struct heap_body {
	unsigned rtag;   /* the record's tag */
	uint64_t roff;   /* offset of its header */
	uint64_t len;    /* its stated length */
	uint64_t left;   /* body bytes not consumed yet; UINT64_MAX with to_eof */
	int to_eof;      /* the body runs to the end of the input */
	const unsigned char *win; /* the window: avail bytes at input offset base */
	size_t avail;
	uint64_t base;
	int eof;         /* no more input after the window */
	size_t need;     /* bytes the sub-record at the stop point needs; 0 when none */
	int result;      /* why reading stopped before the window's end */
	size_t last;     /* the previous window's size */
	uint64_t skip;   /* SUB_SKIP_DATA: the primitive array's bytes, to read past */
	profdata_object skipped; /* SUB_SKIP_DATA: the array, data NULL, emitted once read past */
} heap_body;

/* Outcomes of reading a sub-record, beside 0, PROFDATA_STOPPED, FINISH_INPUT and errors. */
enum {
	SUB_NEED_MORE = 3, /* incomplete in the window: heap_body.need says how much it needs */
	SUB_SKIP_REST,     /* cannot be sized: permissive mode keeps the rest of the record */
	SUB_TOO_BIG,       /* larger than this system can address */
	SUB_SKIP_DATA,     /* a primitive array the consumer wants without data, larger than the window */
	BODY_NEXT_WINDOW   /* the window is used up: read the next */
};

/*
 * The sub-record readers return the bytes they consumed, or 0 with
 * b->result saying why they stopped: sub-records are never empty, and the
 * hot loop tests one value.
 */
static inline size_t stop_reading(heap_body *b, int result)
{
	b->result = result;
	return 0;
}

static inline size_t need_bytes(heap_body *b, uint64_t n)
{
	if (n > SIZE_MAX)
		return stop_reading(b, SUB_TOO_BIG);
	b->need = (size_t)n;
	return stop_reading(b, SUB_NEED_MORE);
}

static uint64_t sub_offset(const heap_body *b, const unsigned char *q)
{
	return b->base + (uint64_t)(q - b->win);
}

static inline size_t emit_object(hprof_decoder *d, heap_body *b, const profdata_object *o, size_t size)
{
	const pd_decode_args *a = d->a;
	return PD_EMIT(a, object, o) ? stop_reading(b, PROFDATA_STOPPED) : size;
}

static inline size_t instance_dump(hprof_decoder *d, heap_body *b, unsigned I, const unsigned char *q, size_t rem)
{
	profdata_object o;
	size_t head = 9 + 2 * (size_t)I;
	uint64_t dl;
	if (rem < head)
		return need_bytes(b, head);
	dl = pd_be32(q + 5 + 2 * I);
	if (rem - head < dl)
		return need_bytes(b, head + dl);
	o.id = pd_be_id(q + 1, I);
	o.trace_serial = pd_be32(q + 1 + I);
	o.class_id = pd_be_id(q + 5 + I, I);
	o.kind = PROFDATA_OBJECT_INSTANCE;
	o.elem_type = 0;
	o.flags = 0;
	o.length = dl;
	o.size = 0;
	o.data = q + head;
	o.data_len = dl;
	o.refs = NULL;
	o.nrefs = 0;
	return emit_object(d, b, &o, head + (size_t)dl);
}

static inline size_t object_array_dump(hprof_decoder *d, heap_body *b, unsigned I, const unsigned char *q,
                                    size_t rem)
{
	profdata_object o;
	size_t head = 9 + 2 * (size_t)I;
	uint64_t dl;
	if (rem < head)
		return need_bytes(b, head);
	dl = (uint64_t)pd_be32(q + 5 + I) * I;
	if (rem - head < dl)
		return need_bytes(b, head + dl);
	o.id = pd_be_id(q + 1, I);
	o.trace_serial = pd_be32(q + 1 + I);
	o.length = pd_be32(q + 5 + I);
	o.class_id = pd_be_id(q + 9 + I, I);
	o.kind = PROFDATA_OBJECT_ARRAY;
	o.elem_type = PROFDATA_TYPE_OBJECT;
	o.flags = 0;
	o.size = 0;
	o.data = q + head;
	o.data_len = dl;
	o.refs = NULL;
	o.nrefs = 0;
	return emit_object(d, b, &o, head + (size_t)dl);
}

static size_t bad_element_type(hprof_decoder *d, heap_body *b, unsigned I, const unsigned char *q)
{
	uint64_t at = sub_offset(b, q);
	int rc = pd_in_damage(d->in, d->mode, PROFDATA_EFORMAT, at, 0,
	                      "%s (tag 0x%02X) at offset %llu: element type %u is not a primitive type",
	                      pd_hprof_subrecord_name(q[0]), q[0], (unsigned long long)at, q[9 + I]);
	return stop_reading(b, rc ? rc : SUB_SKIP_REST);
}

/*
 * A stream whose consumer needs no primitive array data (PD_DECODE_NO_PRIMITIVE_DATA):
 * an array larger than the window is read past (settle_window), not held, so
 * that a 512 MiB byte[] costs no 512 MiB buffer. Mapped inputs never get here.
 */
static size_t skip_primitive_data(heap_body *b, unsigned I, const unsigned char *q, uint64_t size)
{
	profdata_object *o = &b->skipped;
	memset(o, 0, sizeof *o);
	o->id = pd_be_id(q + 1, I);
	o->trace_serial = pd_be32(q + 1 + I);
	o->length = pd_be32(q + 5 + I);
	o->kind = PROFDATA_OBJECT_PRIM_ARRAY;
	o->elem_type = q[9 + I];
	b->skip = size;
	return stop_reading(b, SUB_SKIP_DATA);
}

/* PRIMITIVE ARRAY DUMP, or Android's PRIMITIVE ARRAY NODATA (no elements). */
static inline size_t primitive_array_dump(hprof_decoder *d, heap_body *b, unsigned I, const unsigned char *q,
                                       size_t rem)
{
	profdata_object o;
	size_t head = 10 + (size_t)I;
	uint64_t dl = 0;
	unsigned es;
	int nodata = q[0] == HPROF_GC_PRIM_ARRAY_NODATA;
	if (rem < head)
		return need_bytes(b, head);
	es = hprof_type_size(q[9 + I], I);
	if (es == 0 || q[9 + I] == PROFDATA_TYPE_OBJECT)
		return bad_element_type(d, b, I, q);
	if (!nodata) {
		dl = (uint64_t)pd_be32(q + 5 + I) * es;
		if (rem - head < dl)
			return d->no_primitive_data && d->size == UINT64_MAX
			               ? skip_primitive_data(b, I, q, head + dl)
			               : need_bytes(b, head + dl);
	}
	o.id = pd_be_id(q + 1, I);
	o.trace_serial = pd_be32(q + 1 + I);
	o.length = pd_be32(q + 5 + I);
	o.class_id = 0;
	o.kind = PROFDATA_OBJECT_PRIM_ARRAY;
	o.elem_type = q[9 + I];
	o.flags = nodata ? PROFDATA_OBJECT_NODATA : 0;
	o.size = 0;
	o.data = nodata ? NULL : q + head;
	o.data_len = dl;
	o.refs = NULL;
	o.nrefs = 0;
	return emit_object(d, b, &o, head + (size_t)dl);
}

static size_t class_dump(hprof_decoder *d, heap_body *b, unsigned I, const unsigned char *q, size_t rem)
{
	uint64_t sz;
	int k = class_dump_size(q, rem, I, &sz), rc;
	if (k < 0) {
		uint64_t at = sub_offset(b, q);
		rc = pd_in_damage(d->in, d->mode, PROFDATA_EFORMAT, at + sz, 0,
		                  "CLASS DUMP (tag 0x20) at offset %llu: value type %u at offset %llu is not a basic type",
		                  (unsigned long long)at, q[sz], (unsigned long long)(at + sz));
		return stop_reading(b, rc ? rc : SUB_SKIP_REST);
	}
	if (k > 0)
		return need_bytes(b, sz);
	if ((rc = emit_class_dump(d, q, sub_offset(b, q))) != 0)
		return stop_reading(b, rc);
	return (size_t)sz;
}

static size_t heap_dump_info(hprof_decoder *d, heap_body *b, unsigned I, const unsigned char *q, size_t rem)
{
	const pd_decode_args *a = d->a;
	profdata_heap_info h;
	size_t sz = 5 + I;
	if (rem < sz)
		return need_bytes(b, sz);
	memset(&h, 0, sizeof h);
	h.heap_id = pd_be32(q + 1);
	h.name_id = pd_be_id(q + 5, I);
	return PD_EMIT(a, heap_info, &h) ? stop_reading(b, PROFDATA_STOPPED) : sz;
}

static size_t unknown_subrecord(hprof_decoder *d, heap_body *b, const unsigned char *q)
{
	uint64_t at = sub_offset(b, q);
	int rc = pd_in_damage(d->in, d->mode, PROFDATA_EFORMAT, at, 0,
	                      "unknown heap dump sub-record tag 0x%02X at offset %llu in %s (tag 0x%02X) at offset %llu%s",
	                      q[0], (unsigned long long)at, pd_hprof_record_name(b->rtag), b->rtag,
	                      (unsigned long long)b->roff,
	                      d->mode == PROFDATA_MODE_STRICT ? "" : "; the rest of the record is kept as an unknown record");
	return stop_reading(b, rc ? rc : SUB_SKIP_REST);
}

/* A GC root, or a tag that is no sub-record at all. */
static inline size_t gc_root(hprof_decoder *d, heap_body *b, unsigned I, const unsigned char *q, size_t rem)
{
	const pd_decode_args *a = d->a;
	profdata_root r;
	unsigned tag = q[0];
	size_t sz = hprof_root_size(tag, I);
	if (sz == 0)
		return unknown_subrecord(d, b, q);
	sz += 1;
	if (rem < sz)
		return need_bytes(b, sz);
	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)tag;
	r.object_id = pd_be_id(q + 1, I);
	switch (tag) {
	case PROFDATA_ROOT_JNI_GLOBAL:
		r.extra_id = pd_be_id(q + 1 + I, I);
		break;
	case PROFDATA_ROOT_JNI_LOCAL:
	case PROFDATA_ROOT_JAVA_FRAME:
	case PROFDATA_ROOT_THREAD_OBJECT:
	case PROFDATA_ROOT_JNI_MONITOR:
		r.frame = pd_be32(q + 5 + I);
		/* fall through */
	case PROFDATA_ROOT_NATIVE_STACK:
	case PROFDATA_ROOT_THREAD_BLOCK:
		r.thread_serial = pd_be32(q + 1 + I);
		break;
	default:
		break;
	}
	return PD_EMIT(a, root, &r) ? stop_reading(b, PROFDATA_STOPPED) : sz;
}

/*
 * Every sub-record that is complete in the window, from its start: each
 * reader checks that its sub-record is whole before touching it. *stop gets
 * where reading stopped: the window's end, or the sub-record the result
 * (SUB_NEED_MORE, ...) is about.
 */
static int read_subrecords(hprof_decoder *d, heap_body *b, const unsigned char **stop)
{
	const unsigned I = d->ids;
	const unsigned char *q = b->win, *end = b->win + b->avail;

	while (q < end) {
		size_t rem = (size_t)(end - q), used;
		switch (q[0]) {
		case HPROF_GC_INSTANCE_DUMP:
			used = instance_dump(d, b, I, q, rem);
			break;
		case HPROF_GC_OBJ_ARRAY_DUMP:
			used = object_array_dump(d, b, I, q, rem);
			break;
		case HPROF_GC_PRIM_ARRAY_DUMP:
		case HPROF_GC_PRIM_ARRAY_NODATA:
			used = primitive_array_dump(d, b, I, q, rem);
			break;
		case HPROF_GC_CLASS_DUMP:
			used = class_dump(d, b, I, q, rem);
			break;
		case HPROF_GC_HEAP_DUMP_INFO:
			used = heap_dump_info(d, b, I, q, rem);
			break;
		default:
			used = gc_root(d, b, I, q, rem);
			break;
		}
		if (PD_UNLIKELY(used == 0))
			break;
		q += used;
	}
	*stop = q;
	return q < end ? b->result : 0;
}

/* The next window of the body: b->avail is 0 when the input has no more. */
static int next_window(hprof_decoder *d, heap_body *b)
{
	uint64_t want;
	int64_t n;

	b->base = pd_in_offset(d->in);
	if (d->size != UINT64_MAX) {
		want = d->size - b->base;
	} else {
		want = STREAM_CHUNK;
		if (b->need > 0 && want < 2 * (uint64_t)b->last)
			want = 2 * (uint64_t)b->last;
	}
	if (want < b->need)
		want = b->need;
	if (want > b->left)
		want = b->left;
	if (want > SIZE_MAX)
		want = SIZE_MAX;
	n = pd_in_fill(d->in, (size_t)want, &b->win);
	if (n < 0)
		return (int)n;
	b->eof = (uint64_t)n < want || (d->size != UINT64_MAX && b->base + (uint64_t)n >= d->size);
	b->avail = (uint64_t)n < b->left ? (size_t)n : (size_t)b->left;
	/*
	 * A mapped input offers the whole rest at once; parse it a few MiB at a
	 * time anyway, so that the reader hears the position and releases what
	 * lies behind (one HEAP DUMP record can be the whole file).
	 */
	if (d->size != UINT64_MAX) {
		size_t step = b->need > MAPPED_STEP ? b->need : MAPPED_STEP;
		if (b->avail > step) {
			b->avail = step;
			b->eof = 0;
		}
	}
	b->last = b->avail;
	b->need = 0;
	return 0;
}

/* The sub-record at the input's position needs more than the record has left. */
static int past_record_end(hprof_decoder *d, heap_body *b, unsigned tag)
{
	uint64_t at = pd_in_offset(d->in);
	int64_t n;
	int rc = pd_in_damage(d->in, d->mode, PROFDATA_EFORMAT, at, 0,
	                      "%s (tag 0x%02X) at offset %llu runs past the end of its %s (tag 0x%02X) at offset %llu: needs %llu bytes, the record has %llu left%s",
	                      pd_hprof_subrecord_name(tag), tag, (unsigned long long)at, pd_hprof_record_name(b->rtag),
	                      b->rtag, (unsigned long long)b->roff, (unsigned long long)b->need,
	                      (unsigned long long)b->left,
	                      d->mode == PROFDATA_MODE_STRICT ? "" : "; the rest of the record is skipped");
	if (rc)
		return rc;
	n = pd_in_discard(d->in, b->left);
	if (n < 0)
		return (int)n;
	return (uint64_t)n < b->left ? FINISH_INPUT : 0;
}

/* The input ends within the sub-record at its position. */
static int cut_in_subrecord(hprof_decoder *d, const heap_body *b, unsigned tag)
{
	uint64_t at = pd_in_offset(d->in);
	uint64_t remain = at + b->avail - (b->roff + HPROF_RECORD_HEADER);
	int rc;
	if (b->to_eof)
		rc = pd_in_damage(d->in, d->mode, PROFDATA_ETRUNCATED, at, 0,
		                  "truncated %s (tag 0x%02X) at offset %llu: the input ends within its %s (tag 0x%02X) at offset %llu",
		                  pd_hprof_record_name(b->rtag), b->rtag, (unsigned long long)b->roff,
		                  pd_hprof_subrecord_name(tag), tag, (unsigned long long)at);
	else
		rc = pd_in_damage(d->in, d->mode, PROFDATA_ETRUNCATED, at, 0,
		                  "truncated %s (tag 0x%02X) at offset %llu: record says %llu bytes, %llu remain; the input ends within its %s (tag 0x%02X) at offset %llu",
		                  pd_hprof_record_name(b->rtag), b->rtag, (unsigned long long)b->roff,
		                  (unsigned long long)b->len, (unsigned long long)remain, pd_hprof_subrecord_name(tag),
		                  tag, (unsigned long long)at);
	return rc ? rc : FINISH_INPUT;
}

/* SUB_SKIP_DATA: read past the array at the input's position, then emit it. */
static int read_past_array(hprof_decoder *d, heap_body *b, unsigned tag)
{
	const pd_decode_args *a = d->a;
	uint64_t at = pd_in_offset(d->in);
	int64_t n;
	int rc;
	if (!b->to_eof && b->skip > b->left) {
		b->need = b->skip > SIZE_MAX ? SIZE_MAX : (size_t)b->skip;
		return past_record_end(d, b, tag);
	}
	if ((n = pd_in_discard(d->in, b->skip)) < 0)
		return (int)n;
	if (!b->to_eof)
		b->left -= (uint64_t)n;
	if ((uint64_t)n < b->skip) {
		rc = pd_in_damage(d->in, d->mode, PROFDATA_ETRUNCATED, at, 0,
		                  "truncated %s (tag 0x%02X) at offset %llu: the input ends within its %s (tag 0x%02X) at offset %llu",
		                  pd_hprof_record_name(b->rtag), b->rtag, (unsigned long long)b->roff,
		                  pd_hprof_subrecord_name(tag), tag, (unsigned long long)at);
		return rc ? rc : FINISH_INPUT;
	}
	return PD_EMIT(a, object, &b->skipped) ? PROFDATA_STOPPED : BODY_NEXT_WINDOW;
}

/*
 * Consume the window up to `stop`, where reading stopped with `result`.
 * BODY_NEXT_WINDOW to go on with the next window, else the body's result.
 */
static int settle_window(hprof_decoder *d, heap_body *b, const unsigned char *stop, int result)
{
	size_t used = (size_t)(stop - b->win);
	uint64_t at;

	pd_in_skip(d->in, used);
	b->left -= used;
	switch (result) {
	case 0:
		return BODY_NEXT_WINDOW;
	case SUB_SKIP_REST:
		return keep_rest_as_unknown(d, stop[0], b->left, b->to_eof);
	case SUB_TOO_BIG:
		at = pd_in_offset(d->in);
		return pd_in_error(d->in, PROFDATA_ELIMIT, at,
		                   "%s (tag 0x%02X) at offset %llu is larger than this system can address",
		                   pd_hprof_subrecord_name(stop[0]), stop[0], (unsigned long long)at);
	case SUB_NEED_MORE:
		break;
	case SUB_SKIP_DATA:
		return read_past_array(d, b, stop[0]);
	default:
		return result;
	}
	if (!b->to_eof && b->need > b->left)
		return past_record_end(d, b, stop[0]);
	if (b->eof && b->need > b->avail)
		return cut_in_subrecord(d, b, stop[0]);
	return BODY_NEXT_WINDOW;
}

/*
 * The body of a HEAP DUMP or HEAP DUMP SEGMENT record of `len` bytes whose
 * header was at `roff`; with to_eof, the body runs to the end of the input.
 * Sub-records are read from windows of the input; one that does not fit
 * the window makes the next window start at it, at least as large as it.
 */
static int read_heap_body(hprof_decoder *d, unsigned rtag, uint64_t len, int to_eof, uint64_t roff)
{
	heap_body b;
	int rc;

	memset(&b, 0, sizeof b);
	b.rtag = rtag;
	b.roff = roff;
	b.len = len;
	b.to_eof = to_eof;
	b.left = to_eof ? UINT64_MAX : len;
	while (b.left > 0) {
		const unsigned char *stop;
		if ((rc = next_window(d, &b)) < 0)
			return rc;
		if (b.avail == 0)
			break;
		rc = read_subrecords(d, &b, &stop);
		rc = settle_window(d, &b, stop, rc);
		if (rc != BODY_NEXT_WINDOW)
			return rc;
	}
	if (b.left > 0 && !to_eof) {
		uint64_t at = pd_in_offset(d->in);
		rc = pd_in_damage(d->in, d->mode, PROFDATA_ETRUNCATED, roff, 0,
		                  "truncated %s (tag 0x%02X) at offset %llu: record says %llu bytes, %llu remain",
		                  pd_hprof_record_name(rtag), rtag, (unsigned long long)roff, (unsigned long long)len,
		                  (unsigned long long)(at - (roff + HPROF_RECORD_HEADER)));
		return rc ? rc : FINISH_INPUT;
	}
	return to_eof ? FINISH_INPUT : 0;
}

/*
 * Whether the bytes at p (n of them, at offset off) look like heap dump
 * sub-records rather than the next top-level record.
 */
static int subrecords_follow(const hprof_decoder *d, const unsigned char *p, size_t n, uint64_t off)
{
	unsigned tag = p[0];
	int sub = hprof_root_size(tag, 4) != 0 || (tag >= HPROF_GC_CLASS_DUMP && tag <= HPROF_GC_PRIM_ARRAY_DUMP) ||
	          tag == HPROF_GC_PRIM_ARRAY_NODATA || tag == HPROF_GC_HEAP_DUMP_INFO;
	int top = (tag >= HPROF_STRING && tag <= HPROF_HEAP_SUMMARY) ||
	          (tag >= HPROF_START_THREAD && tag <= HPROF_CONTROL_SETTINGS) || tag == HPROF_HEAP_DUMP_SEGMENT ||
	          tag == HPROF_HEAP_DUMP_END;
	if (!sub)
		return 0;
	if (!top)
		return 1;
	/* Both readings are possible: a top-level record must fit the input. */
	if (n < HPROF_RECORD_HEADER)
		return 1;
	return d->size != UINT64_MAX && off + HPROF_RECORD_HEADER + pd_be32(p + 5) > d->size;
}

static int read_heap_record(hprof_decoder *d, unsigned tag, uint32_t time, uint32_t len32, uint64_t off)
{
	uint64_t len = len32;
	int to_eof = 0, rc;

	if (tag == HPROF_HEAP_DUMP) {
		if ((rc = close_open_dump(d, off, "before the HEAP DUMP (tag 0x0C)")) != 0)
			return rc;
		if ((rc = emit_dump_begin(d, time, PROFDATA_DUMP_HEAP)) != 0)
			return rc;
	} else if (!d->dump_open) {
		if ((rc = emit_dump_begin(d, time, PROFDATA_DUMP_SEGMENTED)) != 0)
			return rc;
		d->dump_open = 1;
	}

	if (len == 0 && d->mode != PROFDATA_MODE_STRICT) {
		/*
		 * A JVM killed while dumping leaves the length it meant to patch
		 * at 0. Like MAT, read such a record to the end of the input, but
		 * only when sub-records follow: after a genuinely empty record
		 * comes a top-level tag that cannot start a sub-record.
		 */
		const unsigned char *p;
		int64_t n = pd_in_fill(d->in, HPROF_RECORD_HEADER, &p);
		if (n < 0)
			return (int)n;
		if (n > 0 && subrecords_follow(d, p, (size_t)n, pd_in_offset(d->in))) {
			pd_in_warn(d->in, PROFDATA_EFORMAT, off,
			           "%s (tag 0x%02X) at offset %llu has length 0 but sub-records follow; reading it to the end of the input",
			           pd_hprof_record_name(tag), tag, (unsigned long long)off);
			to_eof = 1;
		}
	}
	if (tag == HPROF_HEAP_DUMP && d->size != UINT64_MAX) {
		uint64_t left = d->size - (off + HPROF_RECORD_HEADER);
		if (left > ((uint64_t)1 << 32) && len < left && (left - len) % ((uint64_t)1 << 32) == 0) {
			rc = pd_in_damage(d->in, d->mode, PROFDATA_EFORMAT, off, 0,
			                "HEAP DUMP (tag 0x0C) at offset %llu says %llu bytes but %llu remain, a multiple of 4 GiB more: its u4 length overflowed%s",
			                (unsigned long long)off, (unsigned long long)len, (unsigned long long)left,
			                d->mode == PROFDATA_MODE_STRICT ? " (permissive mode reads it to the end of the input)"
			                          : "; reading it to the end of the input");
			if (rc)
				return rc;
			len = left;
		}
	}
	rc = read_heap_body(d, tag, len, to_eof, off);
	if (rc < 0 || rc == PROFDATA_STOPPED)
		return rc;
	if (tag == HPROF_HEAP_DUMP)
		EMIT0(d, dump_end);
	return rc;
}

/* ---- the record loop ---- */

static int read_heap_dump_end(hprof_decoder *d, uint32_t time, uint32_t len, uint64_t off)
{
	int64_t n;
	int rc;

	/* Without segments before it, it closes an empty dump. */
	if (!d->dump_open && (rc = emit_dump_begin(d, time, PROFDATA_DUMP_SEGMENTED)) != 0)
		return rc;
	d->dump_open = 0;
	EMIT0(d, dump_end);
	if (len == 0)
		return 0;
	rc = pd_in_damage(d->in, d->mode, PROFDATA_EFORMAT, off, 0,
	                  "HEAP DUMP END (tag 0x2C) at offset %llu has length %lu; its body is ignored",
	                  (unsigned long long)off, (unsigned long)len);
	if (rc)
		return rc;
	n = pd_in_discard(d->in, len);
	if (n < 0)
		return (int)n;
	if ((uint64_t)n < len) {
		pd_in_warn(d->in, PROFDATA_ETRUNCATED, off, "truncated HEAP DUMP END (tag 0x2C) at offset %llu",
		           (unsigned long long)off);
		return FINISH_INPUT;
	}
	return 0;
}

/* A record other than a heap dump, read whole. */
static int read_whole_record(hprof_decoder *d, unsigned tag, uint32_t time, uint32_t len, uint64_t off)
{
	static const unsigned char none[1];
	const unsigned char *p = none;
	int64_t n = 0;
	int rc;

	if (len > 0) {
		n = pd_in_fill(d->in, len, &p);
		if (n < 0)
			return (int)n;
	}
	if ((uint64_t)n < len) {
		rc = pd_in_damage(d->in, d->mode, PROFDATA_ETRUNCATED, off, 0,
		                  "truncated %s (tag 0x%02X) at offset %llu: record says %lu bytes, %lld remain",
		                  pd_hprof_record_name(tag), tag, (unsigned long long)off, (unsigned long)len,
		                  (long long)n);
		return rc ? rc : FINISH_INPUT;
	}
	if ((rc = read_record(d, tag, time, p, len, off)) != 0)
		return rc;
	pd_in_skip(d->in, len);
	return 0;
}

/* The record at the input's position: 0, FINISH_INPUT after the last one, or an error. */
static int read_next_record(hprof_decoder *d)
{
	const unsigned char *p;
	uint64_t off = pd_in_offset(d->in);
	unsigned tag;
	uint32_t time, len;
	int64_t n = pd_in_fill(d->in, HPROF_RECORD_HEADER, &p);
	int rc;

	if (n < 0)
		return (int)n;
	if (n == 0)
		return FINISH_INPUT;
	if (n < HPROF_RECORD_HEADER) {
		rc = pd_in_damage(d->in, d->mode, PROFDATA_ETRUNCATED, off, 0,
		                  "truncated record header (tag 0x%02X) at offset %llu: 9 bytes needed, %lld remain", p[0],
		                  (unsigned long long)off, (long long)n);
		return rc ? rc : FINISH_INPUT;
	}
	tag = p[0];
	time = pd_be32(p + 1);
	len = pd_be32(p + 5);
	pd_in_skip(d->in, HPROF_RECORD_HEADER);
	if (tag == HPROF_HEAP_DUMP || tag == HPROF_HEAP_DUMP_SEGMENT)
		return read_heap_record(d, tag, time, len, off);
	if (tag == HPROF_HEAP_DUMP_END)
		return read_heap_dump_end(d, time, len, off);
	return read_whole_record(d, tag, time, len, off);
}

static int run(hprof_decoder *d)
{
	int rc;

	if ((rc = read_header(d)) != 0)
		return rc;
	while ((rc = read_next_record(d)) == 0)
		;
	if (rc != FINISH_INPUT)
		return rc;
	if ((rc = close_open_dump(d, pd_in_offset(d->in), "before the end of the input")) != 0)
		return rc;
	EMIT0(d, end);
	return 0;
}

int pd_hprof_decode(const pd_decode_args *a)
{
	hprof_decoder d;
	pd_blob *blob;
	int rc;

	memset(&d, 0, sizeof d);
	d.a = a;
	d.in = a->in;
	d.mode = a->mode;
	long long primitive_data = 1;
	if (pd_options_int(a->opts, "primitive_data", 1, 0, 1, &primitive_data, pd_in_diag(a->in)))
		return PROFDATA_EINVAL;
	d.no_primitive_data = (a->flags & PD_DECODE_NO_PRIMITIVE_DATA) || !primitive_data;
	blob = pd_in_blob(a->in);
	d.size = blob ? pd_blob_size(blob) : UINT64_MAX;
	rc = run(&d);
	free(d.frames);
	free(d.sites);
	free(d.consts);
	free(d.statics);
	free(d.fields);
	return rc;
}
