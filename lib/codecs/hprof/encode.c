/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HPROF encoder: events to bytes, streaming.
 *
 * Top-level records are written as their events arrive. Heap dump
 * sub-records are gathered into a segment buffer of at most 1 MiB that is
 * written as a HEAP DUMP SEGMENT when the next sub-record would not fit (a
 * larger sub-record is written as a segment of its own, straight from the
 * event's payload); a 1.0.1 HEAP DUMP record needs its length first, so its
 * whole body is gathered: up to HEAP_HELD_MAX in memory, the rest spilled to
 * an anonymous temporary file (tmpfile(): mode 0600, already unlinked) and
 * copied out when the dump ends, so that no dump is ever held in memory
 * whole. What HPROF cannot hold is counted and reported as warnings on the
 * writer at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hprof.h"
#include "jvm/jvm.h"
#include "util/hashmap.h"

typedef struct byte_buf {
	unsigned char *p;
	size_t len, cap;
} byte_buf;

typedef struct function_row {
	uint64_t name_id, signature_id, source_file_id;
	uint32_t class_serial;
} function_row;

/* A class's own instance fields, kept when payloads must change id size. */
typedef struct class_fields {
	uint64_t super_id;
	size_t first, n; /* into hprof_encoder.ftypes */
} class_fields;

typedef struct hprof_encoder {
	pd_dropped dropped; /* first: the core counts what HPROF has no record for (drops below) */
	profdata_writer *w;
	int err;
	int began;
	unsigned ids, src_ids;
	int conv;                 /* payload identifiers change size */
	unsigned opt_ids;         /* 0: the source's */
	int opt_version;          /* 0: the source's; else 1, 2 or 3 */
	int version;
	int strip, android;

	int in_dump, dump_kind;
	uint32_t dump_time;
	int dump_written;         /* a segment of this dump has been written */
	byte_buf seg;                 /* sub-records of the open segment (or HEAP DUMP) */
	byte_buf rec;                 /* one record or sub-record being built */
	byte_buf conv_buf;            /* a payload with converted identifiers */
	byte_buf tail;                /* unknown sub-records of a HEAP DUMP record, written last in it */
	FILE *spill;                  /* the HEAP DUMP body beyond HEAP_HELD_MAX, before seg's */
	uint64_t spilled;             /* bytes of this dump in spill */
	/*
	 * Once an instance comes before its class layout (id sizes changing),
	 * the rest of the dump waits here, in order, until the dump ends:
	 * 'I' entries are such instances, 'R' entries finished sub-records.
	 */
	byte_buf deferred;

	function_row *fns;
	size_t nfns, fns_cap;
	pd_map fn_map;            /* function id -> index + 1 */

	class_fields *cls;
	size_t ncls, cls_cap;
	unsigned char *ftypes;
	size_t nftypes, ftypes_cap;
	pd_map cls_map;           /* class id -> index + 1 */
	pd_jvm_layout layout;     /* scratch: a layout whose identifiers change size */

	int group_open;
	uint32_t group_time;
	uint64_t group_total;
	int group_implicit;
	byte_buf samples;             /* (u4 count, u4 trace) pairs of the open group */

	uint64_t n_times_clamped, n_counts_clamped, n_values_dropped, n_thread_dropped;
	uint64_t n_frames_no_fn, n_addresses;
	/* the source is not HPROF: its unknown records are dropped, its arrays of unrecorded elements zeros */
	int foreign;
	uint64_t n_unknown_dropped, n_refs_dropped, n_zero_filled, n_stripped, n_android;
	uint64_t n_sample_types;
} hprof_encoder;

/* ---- buffers ---- */

static int buf_reserve(hprof_encoder *e, byte_buf *b, size_t more)
{
	size_t cap;
	unsigned char *np;

	if (b->cap - b->len >= more)
		return 0;
	if (more > SIZE_MAX / 2 - b->len)
		goto nomem;
	cap = b->cap ? b->cap : 256;
	while (cap - b->len < more)
		cap *= 2;
	np = realloc(b->p, cap);
	if (!np)
		goto nomem;
	b->p = np;
	b->cap = cap;
	return 0;
nomem:
	if (!e->err)
		e->err = pd_out_error(e->w, PROFDATA_ENOMEM, "out of memory");
	return -1;
}

static void buf_u1(byte_buf *b, unsigned v) { b->p[b->len++] = (unsigned char)v; }
static void buf_u2(byte_buf *b, unsigned v) { pd_put_be16(b->p + b->len, (uint16_t)v); b->len += 2; }
static void buf_u4(byte_buf *b, uint32_t v) { pd_put_be32(b->p + b->len, v); b->len += 4; }
static void buf_u8(byte_buf *b, uint64_t v) { pd_put_be64(b->p + b->len, v); b->len += 8; }
static void buf_bytes(byte_buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* An identifier in the output size; an id that does not fit is an error. */
static void buf_id(hprof_encoder *e, byte_buf *b, uint64_t id)
{
	if (e->ids == 8) {
		buf_u8(b, id);
		return;
	}
	if (id > UINT32_MAX && !e->err)
		e->err = pd_out_error(e->w, PROFDATA_ERANGE,
		                      "identifier 0x%llx does not fit in 4 bytes (id_size=4); write with id_size=8",
		                      (unsigned long long)id);
	buf_u4(b, (uint32_t)id);
}

/* A value of basic type t, raw bits. */
static void buf_value(hprof_encoder *e, byte_buf *b, unsigned t, uint64_t v)
{
	switch (pd_jvm_type_size(t, e->ids)) {
	case 1: buf_u1(b, (unsigned)v); break;
	case 2: buf_u2(b, (unsigned)v); break;
	case 4:
		if (t == PROFDATA_TYPE_OBJECT)
			buf_id(e, b, v);
		else
			buf_u4(b, (uint32_t)v);
		break;
	default: buf_u8(b, v); break;
	}
}

/* ---- writing ---- */

static int fail_nomem(hprof_encoder *e)
{
	if (!e->err)
		e->err = pd_out_error(e->w, PROFDATA_ENOMEM, "out of memory");
	return e->err;
}

static int write_bytes(hprof_encoder *e, const void *p, size_t n)
{
	int rc;
	if (e->err)
		return e->err;
	if (n && (rc = pd_out_write(e->w, p, n)) != 0)
		e->err = rc;
	return e->err;
}

static uint32_t clamp_time(hprof_encoder *e, uint64_t us)
{
	if (us > UINT32_MAX) {
		e->n_times_clamped++;
		return UINT32_MAX;
	}
	return (uint32_t)us;
}

static int write_record_header(hprof_encoder *e, unsigned tag, uint32_t time, uint64_t len)
{
	unsigned char h[HPROF_RECORD_HEADER];
	if (len > UINT32_MAX) {
		if (!e->err)
			e->err = pd_out_error(e->w, PROFDATA_ERANGE,
			                      "%s record of %llu bytes does not fit HPROF's 32-bit record length",
			                      pd_hprof_record_name(tag), (unsigned long long)len);
		return e->err;
	}
	h[0] = (unsigned char)tag;
	pd_put_be32(h + 1, time);
	pd_put_be32(h + 5, (uint32_t)len);
	return write_bytes(e, h, sizeof h);
}

/* Write e->rec as the body of a top-level record. */
static int write_record(hprof_encoder *e, unsigned tag, uint32_t time)
{
	if (e->err)
		return e->err;
	if (write_record_header(e, tag, time, e->rec.len))
		return e->err;
	return write_bytes(e, e->rec.p, e->rec.len);
}

/* Start building a record body of at most `max` bytes in e->rec. */
static int start_rec(hprof_encoder *e, size_t max)
{
	e->rec.len = 0;
	if (e->err)
		return e->err;
	return buf_reserve(e, &e->rec, max) ? e->err : 0;
}

/*
 * Start a record of a `head`-byte header and `n` items of `item` bytes, or
 * fail with "<before><what><after>" when its length would not fit 32 bits.
 */
static int start_list_rec(hprof_encoder *e, size_t head, size_t n, size_t item, const char *before,
                          unsigned long long what, const char *after)
{
	if (n > (UINT32_MAX - head) / item) {
		e->err = pd_out_error(e->w, PROFDATA_ERANGE, "%s%llu%s", before, what, after);
		return e->err;
	}
	return start_rec(e, head + n * item);
}

static int write_file_header(hprof_encoder *e, const profdata_meta *m)
{
	static const char *const names[] = { "", "JAVA PROFILE 1.0.1", "JAVA PROFILE 1.0.2", "JAVA PROFILE 1.0.3" };
	uint64_t ts = m ? m->timestamp_ms : 0;
	unsigned char tail[12];

	e->began = 1;
	e->src_ids = 0;
	if (m && (m->id_size == 4 || m->id_size == 8))
		e->src_ids = m->id_size;
	else if (m && (m->word_size == 4 || m->word_size == 8))
		e->src_ids = m->word_size;
	e->ids = e->opt_ids ? e->opt_ids : e->src_ids ? e->src_ids : 8;
	e->conv = e->src_ids && e->src_ids != e->ids;
	e->version = e->opt_version;
	if (!e->version) {
		const char *v = m ? m->version : NULL;
		e->version = 2;
		if (v && strncmp(v, "JAVA PROFILE 1.0.", 17) == 0 && v[17] >= '1' && v[17] <= '3' && v[18] == '\0')
			e->version = v[17] - '0';
		if (e->android && e->version == 3)
			e->version = 2;
	}
	if (write_bytes(e, names[e->version], strlen(names[e->version]) + 1))
		return e->err;
	pd_put_be32(tail, e->ids);
	pd_put_be64(tail + 4, ts);
	return write_bytes(e, tail, sizeof tail);
}

/* Events may arrive without begin (a consumer's mistake); give them a header. */
static int ensure_file_header(hprof_encoder *e)
{
	if (e->err)
		return e->err;
	if (!e->began)
		return write_file_header(e, NULL);
	return 0;
}

/* ---- CPU samples: one record per group, written when the group is over ---- */

static int flush_samples(hprof_encoder *e)
{
	uint64_t n;
	unsigned char h[8];

	if (!e->group_open)
		return e->err;
	e->group_open = 0;
	if (e->err)
		return e->err;
	n = e->samples.len / 8;
	if (e->group_total > UINT32_MAX) {
		e->n_counts_clamped++;
		e->group_total = UINT32_MAX;
	}
	if (write_record_header(e, HPROF_CPU_SAMPLES, e->group_time, 8 + (uint64_t)e->samples.len))
		return e->err;
	pd_put_be32(h, (uint32_t)e->group_total);
	pd_put_be32(h + 4, (uint32_t)n);
	write_bytes(e, h, 8);
	write_bytes(e, e->samples.p, e->samples.len);
	e->samples.len = 0;
	return e->err;
}

/* Every event but the sample ones starts here. */
static int start_event(hprof_encoder *e)
{
	if (ensure_file_header(e))
		return e->err;
	if (e->group_open)
		flush_samples(e);
	return e->err;
}

/*
 * Strings, functions, frames and stacks are what samples refer to: formats
 * that define them as their samples go (gperftools) must not split a group,
 * so these records are written ahead of the open group's CPU SAMPLES.
 */
static int start_definition(hprof_encoder *e)
{
	return ensure_file_header(e);
}

/*
 * Append fields laid out as `layout` says, one character per value: '1',
 * '2', '4' or '8' for an unsigned of that many bytes, 'i' for an id. Room
 * for them must be reserved (8 bytes a field is always enough).
 */
static void buf_fields(hprof_encoder *e, byte_buf *b, const char *layout, const uint64_t *v)
{
	for (; *layout; layout++, v++) {
		switch (*layout) {
		case '1': buf_u1(b, (unsigned)*v); break;
		case '2': buf_u2(b, (unsigned)*v); break;
		case '4': buf_u4(b, (uint32_t)*v); break;
		case '8': buf_u8(b, *v); break;
		default: buf_id(e, b, *v); break;
		}
	}
}

/* A top-level record of fixed fields (buf_fields), its time clamped to HPROF's 32 bits. */
static int write_fields(hprof_encoder *e, unsigned tag, uint64_t time_us, const char *layout, const uint64_t *v)
{
	if (start_rec(e, strlen(layout) * 8))
		return e->err;
	buf_fields(e, &e->rec, layout, v);
	return write_record(e, tag, clamp_time(e, time_us));
}

/* The same for an event that closes an open group of samples first. */
static int write_event_fields(hprof_encoder *e, unsigned tag, uint64_t time_us, const char *layout,
                              const uint64_t *v)
{
	if (start_event(e))
		return e->err;
	return write_fields(e, tag, time_us, layout, v);
}

/* UNLOAD CLASS and END THREAD: a serial alone. */
static int write_serial_record(hprof_encoder *e, unsigned tag, uint64_t time_us, uint32_t serial)
{
	const uint64_t v[] = { serial };
	return write_event_fields(e, tag, time_us, "4", v);
}

/* ---- the events ---- */

static int on_begin(void *payload, const profdata_meta *m)
{
	hprof_encoder *e = payload;
	if (e->err)
		return e->err;
	if (e->began) {
		pd_out_warn(e->w, "a second begin event was ignored");
		return 0;
	}
	/* another format's records kept unread (a recording's events) are no HPROF records */
	e->foreign = m->format && strcmp(m->format, "hprof") != 0;
	return write_file_header(e, m);
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	hprof_encoder *e = payload;
	if (start_definition(e))
		return e->err;
	if (id >= HPROF_SYNTH_ID_MIN)
		return 0; /* made up by the decoder; see hprof.h */
	if (len > UINT32_MAX - 8) {
		e->err = pd_out_error(e->w, PROFDATA_ERANGE, "string 0x%llx of %zu bytes is too long for HPROF",
		                      (unsigned long long)id, len);
		return e->err;
	}
	if (start_rec(e, 8 + len))
		return e->err;
	buf_id(e, &e->rec, id);
	buf_bytes(&e->rec, utf8, len);
	return write_record(e, HPROF_STRING, 0);
}

static int on_class_load(void *payload, const profdata_class_load *c)
{
	const uint64_t v[] = { c->serial, c->id, c->trace_serial, c->name_id };
	return write_event_fields(payload, HPROF_LOAD_CLASS, c->time_us, "4i4i", v);
}

static int on_class_unload(void *payload, const profdata_class_unload *c)
{
	return write_serial_record(payload, HPROF_UNLOAD_CLASS, c->time_us, c->serial);
}

static int on_function(void *payload, const profdata_function *f)
{
	hprof_encoder *e = payload;
	uint32_t i;

	if (start_definition(e))
		return e->err;
	/* The first definition of an id wins, as in the model. */
	if (pd_map_get(&e->fn_map, f->id))
		return 0;
	if (e->nfns >= UINT32_MAX - 1 || pd_grow((void **)&e->fns, &e->fns_cap, e->nfns + 1, sizeof *e->fns))
		return fail_nomem(e);
	i = (uint32_t)++e->nfns;
	if (pd_map_put(&e->fn_map, f->id, i))
		return fail_nomem(e);
	e->fns[i - 1].name_id = f->name_id;
	e->fns[i - 1].signature_id = f->signature_id;
	e->fns[i - 1].source_file_id = f->source_file_id;
	e->fns[i - 1].class_serial = f->class_serial;
	return 0;
}

static int on_frame(void *payload, const profdata_frame *f)
{
	hprof_encoder *e = payload;
	function_row none = { 0, 0, 0, 0 };
	const function_row *fn = &none;
	uint32_t i;

	if (start_definition(e))
		return e->err;
	i = pd_map_get(&e->fn_map, f->function_id);
	if (i)
		fn = &e->fns[i - 1];
	else
		e->n_frames_no_fn++;
	if (f->has_address)
		e->n_addresses++;
	const uint64_t v[] = { f->id, fn->name_id, fn->signature_id, fn->source_file_id, fn->class_serial,
	                       (uint32_t)f->line };
	return write_fields(e, HPROF_STACK_FRAME, 0, "iiii44", v);
}

static int on_stack(void *payload, const profdata_stack *s)
{
	hprof_encoder *e = payload;
	if (start_definition(e) ||
	    start_list_rec(e, 12, s->nframes, 8, "stack ", s->serial, " has too many frames for HPROF"))
		return e->err;
	const uint64_t head[] = { s->serial, s->thread_serial, s->nframes };
	buf_fields(e, &e->rec, "444", head);
	for (size_t i = 0; i < s->nframes; i++)
		buf_id(e, &e->rec, s->frame_ids[i]);
	return write_record(e, HPROF_STACK_TRACE, 0);
}

static int on_thread_start(void *payload, const profdata_thread_start *t)
{
	const uint64_t v[] = { t->serial, t->object_id, t->trace_serial, t->name_id, t->group_name_id,
	                       t->parent_group_name_id };
	return write_event_fields(payload, HPROF_START_THREAD, t->time_us, "4i4iii", v);
}

static int on_thread_end(void *payload, const profdata_thread_end *t)
{
	return write_serial_record(payload, HPROF_END_THREAD, t->time_us, t->serial);
}

static int on_sample_type(void *payload, const profdata_sample_type *t)
{
	hprof_encoder *e = payload;
	(void)t;
	if (start_event(e))
		return e->err;
	e->n_sample_types++;
	return 0;
}

static int on_sample_group(void *payload, const profdata_sample_group *g)
{
	hprof_encoder *e = payload;
	if (start_event(e))
		return e->err;
	e->group_open = 1;
	e->group_implicit = 0;
	e->group_time = clamp_time(e, g->time_us);
	e->group_total = g->total;
	e->samples.len = 0;
	return 0;
}

static int on_sample(void *payload, const profdata_sample *s)
{
	hprof_encoder *e = payload;
	int64_t v = s->nvalues ? s->values[0] : 0;

	if (ensure_file_header(e))
		return e->err;
	if (!e->group_open) {
		/* Samples without a group: one CPU SAMPLES record whose total is their sum. */
		e->group_open = 1;
		e->group_implicit = 1;
		e->group_time = 0;
		e->group_total = 0;
		e->samples.len = 0;
	}
	if (e->samples.len / 8 >= (UINT32_MAX - 8) / 8) {
		flush_samples(e);
		e->group_open = 1;
		e->group_total = 0;
	}
	if (s->nvalues > 1)
		e->n_values_dropped++;
	if (s->thread_serial)
		e->n_thread_dropped++;
	if (v < 0 || v > UINT32_MAX) {
		e->n_counts_clamped++;
		v = v < 0 ? 0 : UINT32_MAX;
	}
	if (e->group_implicit)
		e->group_total += (uint64_t)v;
	if (buf_reserve(e, &e->samples, 8))
		return e->err;
	buf_u4(&e->samples, (uint32_t)v);
	buf_u4(&e->samples, s->stack_serial);
	return 0;
}

static int on_alloc_sites(void *payload, const profdata_alloc_sites *a)
{
	hprof_encoder *e = payload;
	if (start_event(e) ||
	    start_list_rec(e, 34, a->nsites, 25, "ALLOC SITES with ", a->nsites, " sites is too big for HPROF"))
		return e->err;
	const uint64_t head[] = { a->flags, a->cutoff_bits, a->total_live_bytes, a->total_live_instances,
	                          a->total_alloc_bytes, a->total_alloc_instances, a->nsites };
	buf_fields(e, &e->rec, "2444884", head);
	for (size_t i = 0; i < a->nsites; i++) {
		const profdata_alloc_site *s = &a->sites[i];
		const uint64_t site[] = { s->array_type, s->class_serial, s->trace_serial, s->live_bytes,
		                          s->live_instances, s->alloc_bytes, s->alloc_instances };
		buf_fields(e, &e->rec, "1444444", site);
	}
	return write_record(e, HPROF_ALLOC_SITES, clamp_time(e, a->time_us));
}

static int on_heap_summary(void *payload, const profdata_heap_summary *h)
{
	const uint64_t v[] = { h->live_bytes, h->live_instances, h->alloc_bytes, h->alloc_instances };
	return write_event_fields(payload, HPROF_HEAP_SUMMARY, h->time_us, "4488", v);
}

static int on_control_settings(void *payload, const profdata_control_settings *c)
{
	const uint64_t v[] = { c->flags, c->stack_depth };
	return write_event_fields(payload, HPROF_CONTROL_SETTINGS, c->time_us, "42", v);
}


/* ---- heap dumps ---- */

/* What a HEAP DUMP record's body may hold in memory before it goes to the spill file. */
#define HEAP_HELD_MAX (4 * HPROF_SEGMENT_MAX)

/* Append n bytes to the spill file: from p, zeros when p is NULL. */
static int spill_write(hprof_encoder *e, const void *p, uint64_t n)
{
	static const unsigned char zero[4096];
	if (!e->spill && !(e->spill = tmpfile())) {
		e->err = pd_out_error(e->w, PROFDATA_EIO,
		                      "a HEAP DUMP record (version=1.0.1) needs a temporary file for its body: cannot create one");
		return e->err;
	}
	e->spilled += n;
	while (n > 0) {
		size_t most = p ? (size_t)1 << 30 : sizeof zero;
		size_t k = n < most ? (size_t)n : most;
		if (fwrite(p ? p : zero, 1, k, e->spill) != k) {
			e->err = pd_out_error(e->w, PROFDATA_EIO, "cannot write the temporary file of a HEAP DUMP record");
			return e->err;
		}
		if (p)
			p = (const unsigned char *)p + k;
		n -= k;
	}
	return 0;
}

/*
 * A HEAP DUMP sub-record that would take the body held in memory past
 * HEAP_HELD_MAX: what is held goes to the spill file, then the sub-record
 * when it is larger than what may be held; 1 when it was spilled, 0 when it
 * still goes to seg.
 */
static int spill_sub_record(hprof_encoder *e, const void *payload, uint64_t have, uint64_t plen)
{
	uint64_t s = e->rec.len + plen;
	if (spill_write(e, e->seg.p, e->seg.len))
		return -1;
	e->seg.len = 0;
	if (s <= HEAP_HELD_MAX)
		return 0;
	if (spill_write(e, e->rec.p, e->rec.len) || spill_write(e, payload, have) || spill_write(e, NULL, plen - have))
		return -1;
	return 1;
}

/* Copy the spilled part of the body out, then forget it. */
static int write_spilled(hprof_encoder *e)
{
	unsigned char buf[65536];
	size_t k;
	if (!e->spill)
		return e->err;
	if (fflush(e->spill) != 0 || fseek(e->spill, 0, SEEK_SET) != 0) {
		e->err = pd_out_error(e->w, PROFDATA_EIO, "cannot read back the temporary file of a HEAP DUMP record");
		return e->err;
	}
	while (!e->err && (k = fread(buf, 1, sizeof buf, e->spill)) > 0)
		write_bytes(e, buf, k);
	fclose(e->spill);
	e->spill = NULL;
	e->spilled = 0;
	return e->err;
}

/* Write the open segment, if it holds anything, as a HEAP DUMP SEGMENT. */
static int flush_segment(hprof_encoder *e)
{
	if (e->err || e->seg.len == 0)
		return e->err;
	if (write_record_header(e, HPROF_HEAP_DUMP_SEGMENT, e->dump_time, e->seg.len))
		return e->err;
	write_bytes(e, e->seg.p, e->seg.len);
	e->seg.len = 0;
	e->dump_written = 1;
	return e->err;
}

static int write_zeros(hprof_encoder *e, uint64_t n)
{
	static const unsigned char zero[4096];
	while (n > 0 && !e->err) {
		size_t k = n < sizeof zero ? (size_t)n : sizeof zero;
		write_bytes(e, zero, k);
		n -= k;
	}
	return e->err;
}

/* Append e->rec and `plen` payload bytes, zeros past the first `have`, to `b` (room reserved). */
static void buf_sub_record(hprof_encoder *e, byte_buf *b, const void *payload, uint64_t have, uint64_t plen)
{
	buf_bytes(b, e->rec.p, e->rec.len);
	if (have)
		buf_bytes(b, payload, (size_t)have);
	memset(b->p + b->len, 0, (size_t)(plen - have));
	b->len += (size_t)(plen - have);
}

/*
 * Add one sub-record: the e->rec.len bytes of e->rec, then `plen` payload
 * bytes: the first `have` from `payload`, zeros after them. Zeros are never
 * materialised where the sub-record is written out directly, so an array
 * whose length says more than its data does costs no memory.
 */
static int add_sub_record_tail(hprof_encoder *e, const void *payload, uint64_t have, uint64_t plen)
{
	uint64_t s = e->rec.len + plen;
	if (!payload || have > plen)
		have = payload ? plen : 0;

	if (e->err)
		return e->err;
	if (e->deferred.len) {
		if (s > SIZE_MAX - 16 || buf_reserve(e, &e->deferred, 9 + (size_t)s))
			return fail_nomem(e);
		buf_u1(&e->deferred, 'R');
		buf_u8(&e->deferred, s);
		buf_sub_record(e, &e->deferred, payload, have, plen);
		return 0;
	}
	if (e->dump_kind == PROFDATA_DUMP_SEGMENTED) {
		if (e->seg.len > 0 && e->seg.len + s > HPROF_SEGMENT_MAX && flush_segment(e))
			return e->err;
		if (s > HPROF_SEGMENT_MAX) {
			/* A segment of its own, written from the payload where it lies. */
			if (write_record_header(e, HPROF_HEAP_DUMP_SEGMENT, e->dump_time, s) ||
			    write_bytes(e, e->rec.p, e->rec.len))
				return e->err;
			e->dump_written = 1;
			const unsigned char *p = payload;
			for (uint64_t left = have; left > 0 && !e->err;) {
				size_t k = left > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)left;
				write_bytes(e, p, k);
				p += k;
				left -= k;
			}
			return e->err ? e->err : write_zeros(e, plen - have);
		}
	}
	if (e->dump_kind == PROFDATA_DUMP_HEAP && e->spilled + e->seg.len + s > UINT32_MAX) {
		e->err = pd_out_error(e->w, PROFDATA_ERANGE,
		                      "heap dump passes 4 GiB, more than one HEAP DUMP record holds (version=1.0.1); write 1.0.2");
		return e->err;
	}
	if (e->dump_kind == PROFDATA_DUMP_HEAP && e->seg.len + s > HEAP_HELD_MAX) {
		int spilled = spill_sub_record(e, payload, have, plen);
		if (spilled)
			return spilled < 0 ? e->err : 0;
	}
	if (plen > SIZE_MAX - e->rec.len || buf_reserve(e, &e->seg, (size_t)s))
		return fail_nomem(e);
	buf_sub_record(e, &e->seg, payload, have, plen);
	return 0;
}

static int add_sub_record(hprof_encoder *e, const void *payload, uint64_t plen)
{
	return add_sub_record_tail(e, payload, plen, plen);
}

static int flush_deferred(hprof_encoder *e);

static int close_dump(hprof_encoder *e)
{
	if (!e->in_dump || e->err)
		return e->err;
	if (e->deferred.len && flush_deferred(e))
		return e->err;
	e->in_dump = 0;
	if (e->dump_kind == PROFDATA_DUMP_HEAP) {
		if (write_record_header(e, HPROF_HEAP_DUMP, e->dump_time, e->spilled + e->seg.len + e->tail.len) ||
		    write_spilled(e))
			return e->err;
		write_bytes(e, e->seg.p, e->seg.len);
		write_bytes(e, e->tail.p, e->tail.len);
		e->seg.len = 0;
		e->tail.len = 0;
		return e->err;
	}
	/* An empty dump is a HEAP DUMP END alone, carrying the dump's time. */
	if (!e->dump_written && e->seg.len == 0)
		return write_record_header(e, HPROF_HEAP_DUMP_END, e->dump_time, 0);
	if (flush_segment(e))
		return e->err;
	return write_record_header(e, HPROF_HEAP_DUMP_END, 0, 0);
}

static int on_dump_begin(void *payload, const profdata_dump *d)
{
	hprof_encoder *e = payload;
	if (start_event(e))
		return e->err;
	if (e->in_dump) {
		pd_out_warn(e->w, "a heap dump began before the previous one ended; closing that one");
		if (close_dump(e))
			return e->err;
	}
	e->in_dump = 1;
	e->dump_written = 0;
	e->seg.len = 0;
	e->tail.len = 0;
	if (e->spill)
		fclose(e->spill);
	e->spill = NULL;
	e->spilled = 0;
	e->dump_time = clamp_time(e, d->time_us);
	/* version=source keeps each dump's own kind; otherwise the version decides. */
	if (e->opt_version == 0)
		e->dump_kind = d->kind == PROFDATA_DUMP_HEAP ? PROFDATA_DUMP_HEAP : PROFDATA_DUMP_SEGMENTED;
	else
		e->dump_kind = e->opt_version == 1 ? PROFDATA_DUMP_HEAP : PROFDATA_DUMP_SEGMENTED;
	return 0;
}

static int on_dump_end(void *payload)
{
	hprof_encoder *e = payload;
	if (start_event(e))
		return e->err;
	if (!e->in_dump) {
		pd_out_warn(e->w, "a heap dump end without a heap dump was ignored");
		return 0;
	}
	return close_dump(e);
}

/* Sub-records outside a dump: open one so that nothing is lost. */
static int need_dump(hprof_encoder *e)
{
	profdata_dump d;
	if (e->in_dump)
		return 0;
	pd_out_warn(e->w, "heap dump records outside a heap dump; writing them into one");
	d.time_us = 0;
	d.kind = PROFDATA_DUMP_SEGMENTED;
	return on_dump_begin(e, &d);
}

static int on_heap_info(void *payload, const profdata_heap_info *h)
{
	hprof_encoder *e = payload;
	if (start_event(e))
		return e->err;
	if (e->android) {
		e->n_android++;
		return 0;
	}
	if (need_dump(e) || start_rec(e, 13))
		return e->err;
	buf_u1(&e->rec, HPROF_GC_HEAP_DUMP_INFO);
	buf_u4(&e->rec, h->heap_id);
	buf_id(e, &e->rec, h->name_id);
	return add_sub_record(e, NULL, 0);
}

static int on_root(void *payload, const profdata_root *r)
{
	hprof_encoder *e = payload;
	unsigned kind = r->kind;

	if (start_event(e) || need_dump(e) || start_rec(e, 17))
		return e->err;
	if (hprof_root_size(kind, 8) == 0) {
		pd_out_warn(e->w, "root of unknown kind %u written as ROOT UNKNOWN", kind);
		kind = PROFDATA_ROOT_UNKNOWN;
	} else if (e->android && kind >= 0x80 && kind != PROFDATA_ROOT_UNKNOWN) {
		e->n_android++;
		kind = PROFDATA_ROOT_UNKNOWN;
	}
	buf_u1(&e->rec, kind);
	buf_id(e, &e->rec, r->object_id);
	switch (kind) {
	case PROFDATA_ROOT_JNI_GLOBAL:
		buf_id(e, &e->rec, r->extra_id);
		break;
	case PROFDATA_ROOT_JNI_LOCAL:
	case PROFDATA_ROOT_JAVA_FRAME:
	case PROFDATA_ROOT_THREAD_OBJECT:
	case PROFDATA_ROOT_JNI_MONITOR:
		buf_u4(&e->rec, r->thread_serial);
		buf_u4(&e->rec, r->frame);
		break;
	case PROFDATA_ROOT_NATIVE_STACK:
	case PROFDATA_ROOT_THREAD_BLOCK:
		buf_u4(&e->rec, r->thread_serial);
		break;
	default:
		break;
	}
	return add_sub_record(e, NULL, 0);
}

static int fail_bad_type(hprof_encoder *e, const char *what, uint64_t class_id, unsigned t)
{
	if (!e->err)
		e->err = pd_out_error(e->w, PROFDATA_EFORMAT, "class 0x%llx: %s type %u is not a basic type",
		                      (unsigned long long)class_id, what, t);
	return e->err;
}

static int on_class_dump(void *payload, const profdata_class_dump *c)
{
	hprof_encoder *e = payload;
	size_t i, max = 1 + 7 * 8 + 8 + 6 + c->nconstants * 11 + c->nstatics * 17 + c->nfields * 9;

	if (start_event(e) || need_dump(e))
		return e->err;
	if (c->nconstants > 0xFFFF || c->nstatics > 0xFFFF || c->nfields > 0xFFFF) {
		e->err = pd_out_error(e->w, PROFDATA_ERANGE,
		                      "class 0x%llx has more than 65535 constants, statics or fields",
		                      (unsigned long long)c->id);
		return e->err;
	}
	if (c->refs && c->nrefs)
		e->n_refs_dropped++;
	if (start_rec(e, max))
		return e->err;
	buf_u1(&e->rec, HPROF_GC_CLASS_DUMP);
	buf_id(e, &e->rec, c->id);
	buf_u4(&e->rec, c->trace_serial);
	buf_id(e, &e->rec, c->super_id);
	buf_id(e, &e->rec, c->loader_id);
	buf_id(e, &e->rec, c->signers_id);
	buf_id(e, &e->rec, c->protection_domain_id);
	buf_id(e, &e->rec, c->reserved1);
	buf_id(e, &e->rec, c->reserved2);
	buf_u4(&e->rec, c->instance_size);
	buf_u2(&e->rec, (unsigned)c->nconstants);
	for (i = 0; i < c->nconstants; i++) {
		if (!pd_jvm_type_size(c->constants[i].type, 8))
			return fail_bad_type(e, "constant", c->id, c->constants[i].type);
		buf_u2(&e->rec, c->constants[i].index);
		buf_u1(&e->rec, c->constants[i].type);
		buf_value(e, &e->rec, c->constants[i].type, c->constants[i].value);
	}
	buf_u2(&e->rec, (unsigned)c->nstatics);
	for (i = 0; i < c->nstatics; i++) {
		if (!pd_jvm_type_size(c->statics[i].type, 8))
			return fail_bad_type(e, "static field", c->id, c->statics[i].type);
		buf_id(e, &e->rec, c->statics[i].name_id);
		buf_u1(&e->rec, c->statics[i].type);
		buf_value(e, &e->rec, c->statics[i].type, c->statics[i].value);
	}
	buf_u2(&e->rec, (unsigned)c->nfields);
	for (i = 0; i < c->nfields; i++) {
		buf_id(e, &e->rec, c->fields[i].name_id);
		buf_u1(&e->rec, c->fields[i].type);
	}
	if (e->conv) {
		/* Keep the layout: instances of this class change size. */
		uint32_t k = pd_map_get(&e->cls_map, c->id);
		class_fields *hc;
		if (!k) {
			if (e->ncls >= UINT32_MAX - 1 || pd_grow((void **)&e->cls, &e->cls_cap, e->ncls + 1, sizeof *e->cls))
				return fail_nomem(e);
			k = (uint32_t)++e->ncls;
			if (pd_map_put(&e->cls_map, c->id, k))
				return fail_nomem(e);
		}
		if (pd_grow((void **)&e->ftypes, &e->ftypes_cap, e->nftypes + c->nfields, 1))
			return fail_nomem(e);
		hc = &e->cls[k - 1];
		hc->super_id = c->super_id;
		hc->first = e->nftypes;
		hc->n = c->nfields;
		for (i = 0; i < c->nfields; i++)
			e->ftypes[e->nftypes++] = c->fields[i].type;
	}
	return add_sub_record(e, NULL, 0);
}

/* The classes kept for conversion as the JVM module's layout flattening reads them. */
static int class_fields_view(const void *table, uint64_t class_id, pd_jvm_class_view *v)
{
	const hprof_encoder *e = table;
	uint32_t k = pd_map_get(&e->cls_map, class_id);
	if (!k)
		return 0;
	const class_fields *hc = &e->cls[k - 1];
	v->fields = NULL;
	v->types = e->ftypes + hc->first;
	v->nfields = hc->n;
	v->super_id = hc->super_id;
	return 1;
}

/*
 * Instance field values from src_ids to ids identifiers, into e->conv_buf.
 * Returns 0, 1 when a class of the chain has not been dumped yet, or an error.
 */
static int convert_instance(hprof_encoder *e, uint64_t oid, uint64_t class_id, const unsigned char *data, uint64_t len,
                               int final)
{
	const unsigned char *p = data, *end = data + len;
	pd_jvm_layout *l = &e->layout;

	e->conv_buf.len = 0;
	if (len > SIZE_MAX / 2 - 16 || buf_reserve(e, &e->conv_buf, (size_t)len * 2 + 16))
		return fail_nomem(e);
	l->want_types = 1;
	l->nfields = 0;
	l->bytes = 0;
	l->bad_type = 0;
	int st = class_id ? pd_jvm_flatten(l, class_id, e->src_ids, e->ncls, class_fields_view, e) : 1;
	if (st == PROFDATA_ENOMEM)
		return fail_nomem(e);
	if (st == 0 && !final)
		return 1;
	if (st != 1 || l->bad_type || l->bytes != len)
		goto broken;
	for (size_t i = 0; i < l->nfields; i++) {
		unsigned t = l->types[i];
		unsigned sz = pd_jvm_type_size((int)t, e->src_ids);
		if (t == PROFDATA_TYPE_OBJECT)
			buf_id(e, &e->conv_buf, pd_be_id(p, e->src_ids));
		else
			buf_bytes(&e->conv_buf, p, sz);
		p += sz;
	}
	if (p == end)
		return e->err;
broken:
	if (!e->err)
		e->err = pd_out_error(e->w, PROFDATA_EFORMAT,
		                      "instance 0x%llx: its %llu bytes of fields do not match the layout of class 0x%llx, so its identifiers cannot change size",
		                      (unsigned long long)oid, (unsigned long long)len, (unsigned long long)class_id);
	return e->err;
}

static int add_instance_sub_record(hprof_encoder *e, uint64_t id, uint32_t trace, uint64_t class_id, const void *data, uint64_t plen)
{
	if (plen > UINT32_MAX) {
		e->err = pd_out_error(e->w, PROFDATA_ERANGE, "instance 0x%llx has too many bytes of fields",
		                      (unsigned long long)id);
		return e->err;
	}
	if (start_rec(e, 32))
		return e->err;
	buf_u1(&e->rec, HPROF_GC_INSTANCE_DUMP);
	buf_id(e, &e->rec, id);
	buf_u4(&e->rec, trace);
	buf_id(e, &e->rec, class_id);
	buf_u4(&e->rec, (uint32_t)plen);
	return add_sub_record(e, data, plen);
}

/* Keep an instance whose class layout is not known yet, until the dump ends. */
static int defer_instance(hprof_encoder *e, const profdata_object *o)
{
	if (o->data_len > SIZE_MAX - 32 || buf_reserve(e, &e->deferred, 29 + (size_t)o->data_len))
		return fail_nomem(e);
	buf_u1(&e->deferred, 'I');
	buf_u8(&e->deferred, o->id);
	buf_u4(&e->deferred, o->trace_serial);
	buf_u8(&e->deferred, o->class_id);
	buf_u8(&e->deferred, o->data_len);
	buf_bytes(&e->deferred, o->data, (size_t)o->data_len);
	return 0;
}

static int flush_deferred(hprof_encoder *e)
{
	byte_buf d = e->deferred;
	size_t pos = 0;

	e->deferred.p = NULL;
	e->deferred.len = e->deferred.cap = 0;
	while (pos < d.len && !e->err) {
		const unsigned char *q = d.p + pos;
		if (q[0] == 'R') {
			uint64_t len = pd_be64(q + 1);
			e->rec.len = 0;
			add_sub_record(e, q + 9, len);
			pos += 9 + (size_t)len;
		} else {
			uint64_t id = pd_be64(q + 1), cid = pd_be64(q + 13), len = pd_be64(q + 21);
			uint32_t trace = pd_be32(q + 9);
			if (convert_instance(e, id, cid, q + 29, len, 1))
				break;
			add_instance_sub_record(e, id, trace, cid, e->conv_buf.p, e->conv_buf.len);
			pos += 29 + (size_t)len;
		}
	}
	free(d.p);
	return e->err;
}

static int write_instance(hprof_encoder *e, const profdata_object *o)
{
	const void *data = o->data;
	uint64_t plen;
	if (!data) {
		if (o->nrefs)
			e->n_refs_dropped++;
		if (o->length)
			e->n_zero_filled++;
		plen = o->length;
	} else if (e->conv) {
		int rc = convert_instance(e, o->id, o->class_id, o->data, o->data_len, 0);
		if (rc == 1)
			return defer_instance(e, o);
		if (rc)
			return rc;
		data = e->conv_buf.p;
		plen = e->conv_buf.len;
	} else {
		plen = o->data_len;
	}
	return add_instance_sub_record(e, o->id, o->trace_serial, o->class_id, data, plen);
}

static int write_object_array(hprof_encoder *e, const profdata_object *o)
{
	const void *data = o->data;
	unsigned sids = e->src_ids ? e->src_ids : e->ids;
	uint64_t n = o->length, i, zeros = 0, plen;
	if (!data && o->refs && o->nrefs > n)
		n = o->nrefs;
	if (n > UINT32_MAX) {
		e->err = pd_out_error(e->w, PROFDATA_ERANGE, "object array 0x%llx is too long for HPROF",
		                      (unsigned long long)o->id);
		return e->err;
	}
	buf_u1(&e->rec, HPROF_GC_OBJ_ARRAY_DUMP);
	buf_id(e, &e->rec, o->id);
	buf_u4(&e->rec, o->trace_serial);
	buf_u4(&e->rec, (uint32_t)n);
	buf_id(e, &e->rec, o->class_id);
	plen = n * e->ids;
	if (data && !e->conv && o->data_len >= plen)
		return add_sub_record(e, data, plen);
	/*
	 * Elements from converted ids, or from the explicit references; past
	 * what the input holds, nulls, which add_sub_record_tail() writes without
	 * building them (a length taken from a stated size can be huge).
	 */
	uint64_t known = data ? o->data_len / sids : (o->refs ? o->nrefs : 0);
	if (known > n)
		known = n;
	zeros = known < n;
	e->conv_buf.len = 0;
	if (known * e->ids > SIZE_MAX || buf_reserve(e, &e->conv_buf, (size_t)(known * e->ids)))
		return fail_nomem(e);
	for (i = 0; i < known; i++)
		buf_id(e, &e->conv_buf, data ? pd_be_id((const unsigned char *)data + i * sids, sids) : o->refs[i]);
	e->n_zero_filled += zeros;
	return add_sub_record_tail(e, e->conv_buf.p, known * e->ids, plen);
}

/* Less payload than elements: the rest are zeros. */
static int add_padded_sub_record(hprof_encoder *e, const profdata_object *o, uint64_t plen)
{
	e->n_zero_filled++;
	e->conv_buf.len = 0;
	if (plen > SIZE_MAX || buf_reserve(e, &e->conv_buf, (size_t)plen))
		return fail_nomem(e);
	memcpy(e->conv_buf.p, o->data, (size_t)o->data_len);
	memset(e->conv_buf.p + o->data_len, 0, (size_t)(plen - o->data_len));
	return add_sub_record(e, e->conv_buf.p, plen);
}

static int write_prim_array(hprof_encoder *e, const profdata_object *o)
{
	const void *data = o->data;
	unsigned es = pd_jvm_type_size(o->elem_type, e->ids);
	uint64_t n = o->length;
	int nodata = (o->flags & PROFDATA_OBJECT_NODATA) != 0;
	if (es == 0 || o->elem_type == PROFDATA_TYPE_OBJECT) {
		e->err = pd_out_error(e->w, PROFDATA_EFORMAT,
		                      "primitive array 0x%llx: element type %u is not a primitive type",
		                      (unsigned long long)o->id, o->elem_type);
		return e->err;
	}
	if (n > UINT32_MAX) {
		e->err = pd_out_error(e->w, PROFDATA_ERANGE, "primitive array 0x%llx is too long for HPROF",
		                      (unsigned long long)o->id);
		return e->err;
	}
	if (e->strip || (nodata && e->android)) {
		if (e->strip)
			e->n_stripped++;
		else
			e->n_android++;
		n = 0;
		nodata = 0;
		data = NULL;
	}
	if (nodata && e->foreign) /* JFR's old objects: a HotSpot reader knows no 0xC3 */
		nodata = 0;
	buf_u1(&e->rec, nodata ? HPROF_GC_PRIM_ARRAY_NODATA : HPROF_GC_PRIM_ARRAY_DUMP);
	buf_id(e, &e->rec, o->id);
	buf_u4(&e->rec, o->trace_serial);
	buf_u4(&e->rec, (uint32_t)n);
	buf_u1(&e->rec, o->elem_type);
	if (nodata)
		return add_sub_record(e, NULL, 0);
	uint64_t plen = n * es;
	if (!data || o->data_len >= plen) {
		if (!data && n)
			e->n_zero_filled++;
		return add_sub_record(e, data, plen);
	}
	return add_padded_sub_record(e, o, plen);
}

static int on_object(void *payload, const profdata_object *o)
{
	hprof_encoder *e = payload;
	if (start_event(e) || need_dump(e) || start_rec(e, 32))
		return e->err;
	switch (o->kind) {
	case PROFDATA_OBJECT_INSTANCE: return write_instance(e, o);
	case PROFDATA_OBJECT_ARRAY: return write_object_array(e, o);
	case PROFDATA_OBJECT_PRIM_ARRAY: return write_prim_array(e, o);
	default:
		e->err = pd_out_error(e->w, PROFDATA_EINVAL, "object 0x%llx has unknown kind %u",
		                      (unsigned long long)o->id, o->kind);
		return e->err;
	}
}

static int on_unknown(void *payload, const profdata_unknown *u)
{
	hprof_encoder *e = payload;

	if (start_event(e))
		return e->err;
	if (e->foreign || u->tag > 0xFF || u->len > UINT32_MAX - 1) {
		e->n_unknown_dropped++;
		return 0;
	}
	if (!u->in_dump) {
		if (write_record_header(e, u->tag, clamp_time(e, u->time_us), u->len))
			return e->err;
		return write_bytes(e, u->data, (size_t)u->len);
	}
	/*
	 * A sub-record nobody could size makes a reader skip the rest of its
	 * record, so it goes where that skips only it: into a segment of its
	 * own, or at the end of a HEAP DUMP record.
	 */
	if (!e->in_dump) {
		e->n_unknown_dropped++;
		return 0;
	}
	if (e->dump_kind == PROFDATA_DUMP_HEAP) {
		if (buf_reserve(e, &e->tail, 1 + (size_t)u->len))
			return e->err;
		buf_u1(&e->tail, u->tag);
		buf_bytes(&e->tail, u->data, (size_t)u->len);
		return 0;
	}
	if (flush_segment(e) || write_record_header(e, HPROF_HEAP_DUMP_SEGMENT, e->dump_time, 1 + u->len))
		return e->err;
	{
		unsigned char t = (unsigned char)u->tag;
		write_bytes(e, &t, 1);
	}
	e->dump_written = 1;
	return write_bytes(e, u->data, (size_t)u->len);
}

static int on_end(void *payload)
{
	hprof_encoder *e = payload;
	if (start_event(e))
		return e->err;
	if (e->in_dump) {
		pd_out_warn(e->w, "the input ended inside a heap dump; closing it");
		close_dump(e);
	}
	return e->err;
}

static void warn_count(hprof_encoder *e, uint64_t n, const char *what)
{
	if (n)
		pd_out_warn(e->w, "%llu %s", (unsigned long long)n, what);
}

static int encoder_finish(void *state)
{
	hprof_encoder *e = state;
	if (start_event(e))
		return e->err;
	if (e->in_dump)
		close_dump(e);
	warn_count(e, e->n_times_clamped, "times over 4295 s were clamped to HPROF's 32-bit microseconds");
	warn_count(e, e->n_counts_clamped, "sample counts or totals did not fit 32 bits and were clamped");
	warn_count(e, e->n_values_dropped, "samples had values beyond the first (HPROF keeps only the count)");
	if (e->n_sample_types > 1)
		pd_out_warn(e->w, "%llu sample types: HPROF keeps only the first value of each sample, as its count",
		            (unsigned long long)e->n_sample_types);
	warn_count(e, e->n_thread_dropped, "samples named a thread, which CPU SAMPLES cannot hold");
	warn_count(e, e->n_frames_no_fn, "frames had no function; written with empty names");
	warn_count(e, e->n_addresses, "frame addresses were dropped (HPROF frames have none)");
	warn_count(e, e->n_unknown_dropped, "unknown records could not be written and were dropped");
	warn_count(e, e->n_refs_dropped, "objects or classes had explicit references that HPROF cannot hold");
	warn_count(e, e->n_zero_filled, "objects had no payload for their length and were written with zeros");
	warn_count(e, e->n_stripped, "primitive arrays were written empty (strip_primitive_arrays=1)");
	warn_count(e, e->n_android, "Android-only records were converted or dropped (android_to_hotspot=1)");
	return e->err;
}

static void encoder_free(void *state)
{
	hprof_encoder *e = state;
	if (!e)
		return;
	if (e->spill)
		fclose(e->spill);
	pd_jvm_layout_free(&e->layout);
	pd_map_free(&e->fn_map);
	pd_map_free(&e->cls_map);
	PD_FREE_ALL(e->seg.p, e->rec.p, e->conv_buf.p, e->deferred.p, e->tail.p, e->samples.p, e->fns, e->cls,
	            e->ftypes, e);
}

/* HPROF has no record for these. */
#define HPROF_DROPS \
	(PD_EVENT_BIT(mapping) | PD_EVENT_BIT(attachment) | PD_EVENT_BIT(trace_event) | PD_EVENT_BIT(trace_context) | \
	 PD_EVENT_BIT(object_sample))

static const pd_encoder_ops hprof_encoder_ops = {
	.events = {
		.version = PROFDATA_EVENTS_VERSION,
		.begin = on_begin, .string = on_string, .class_load = on_class_load, .class_unload = on_class_unload,
		.function = on_function, .frame = on_frame, .stack = on_stack, .thread_start = on_thread_start,
		.thread_end = on_thread_end, .sample_type = on_sample_type, .sample_group = on_sample_group,
		.sample = on_sample, .alloc_sites = on_alloc_sites, .heap_summary = on_heap_summary,
		.control_settings = on_control_settings, .dump_begin = on_dump_begin, .heap_info = on_heap_info,
		.class_dump = on_class_dump, .root = on_root, .object = on_object, .dump_end = on_dump_end,
		.unknown = on_unknown, .end = on_end,
	},
	.finish = encoder_finish,
	.free = encoder_free,
	.drops = HPROF_DROPS,
};

typedef struct option_choice {
	const char *name;
	int value;
} option_choice;

/* The value `key` names among `choices` (ended by a NULL name) into *out, which stays as it is when unset. */
static int choice_option(profdata_writer *w, const pd_options *opts, const char *key, const option_choice *choices,
                         const char *expected, int *out)
{
	const char *v = opts ? pd_options_get(opts, key) : NULL;
	if (!v)
		return 0;
	for (; choices->name; choices++) {
		if (strcmp(v, choices->name) == 0) {
			*out = choices->value;
			return 0;
		}
	}
	return pd_out_error(w, PROFDATA_EINVAL, "hprof option %s=%s: expected %s", key, v, expected);
}

int pd_hprof_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts)
{
	static const option_choice booleans[] = { { "1", 1 }, { "", 1 }, { "yes", 1 }, { "true", 1 },
	                                          { "0", 0 }, { "no", 0 }, { "false", 0 }, { NULL, 0 } };
	static const option_choice versions[] = { { "source", 0 }, { "1.0.1", 1 }, { "1.0.2", 2 }, { "1.0.3", 3 },
	                                          { NULL, 0 } };
	static const option_choice id_sizes[] = { { "4", 4 }, { "8", 8 }, { "source", 0 }, { NULL, 0 } };
	int strip = 0, android = 0, version = 2, ids = 0, rc;

	*state = NULL;
	if ((rc = choice_option(w, opts, "strip_primitive_arrays", booleans, "0 or 1", &strip)) != 0 ||
	    (rc = choice_option(w, opts, "android_to_hotspot", booleans, "0 or 1", &android)) != 0 ||
	    (rc = choice_option(w, opts, "version", versions, "1.0.1, 1.0.2, 1.0.3 or source", &version)) != 0 ||
	    (rc = choice_option(w, opts, "id_size", id_sizes, "4, 8 or source", &ids)) != 0)
		return rc;
	hprof_encoder *e = calloc(1, sizeof *e);
	if (!e)
		return pd_out_error(w, PROFDATA_ENOMEM, "out of memory");
	e->w = w;
	e->strip = strip;
	e->android = android;
	e->opt_version = version;
	e->opt_ids = (unsigned)ids;
	*state = e;
	*ops = &hprof_encoder_ops;
	return 0;
}
