/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading gperftools CPU profiles: the header, the text after the records,
 * and the emitting of what the chain pass (records.c) finds in the
 * records, in turn with it over each window of the input or behind it on
 * a second thread (ahead.c). Nothing is allocated per record. Version 0
 * streams (frames and the stack of a new chain are emitted just before
 * its first sample); version 1 learns function names only from the text
 * after the records, so it keeps the records and emits them then (java.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/gperftools/gperftools.h"

int pd_gperftools_emit_string(pd_gperftools_decoder *d, uint64_t *id, const char *s, size_t len)
{
	uint32_t index;
	int rc;
	if (d->strings.n >= UINT32_MAX - 1)
		return PROFDATA_ELIMIT;
	rc = pd_intern_put(&d->strings, s, len, &index);
	if (rc < 0)
		return rc;
	*id = (uint64_t)index + 1;
	if (rc == 1)
		return 0;
	rc = PD_EMIT(d->a, string, *id, s, len);
	return rc ? PD_GPERFTOOLS_STOP(d, rc) : 0;
}

int pd_gperftools_emit_frame(pd_gperftools_decoder *d, uint64_t id, uint64_t pc, uint64_t function_id, int32_t line)
{
	profdata_frame f = { .id = id, .function_id = function_id, .line = line, .address = pc, .has_address = 1 };
	int rc = PD_EMIT(d->a, frame, &f);
	return rc ? PD_GPERFTOOLS_STOP(d, rc) : 0;
}

int pd_gperftools_emit_sample(pd_gperftools_decoder *d, uint32_t serial, uint64_t count)
{
	profdata_sample s;
	int64_t v[2];
	int rc;
	v[0] = (int64_t)count;
	v[1] = (int64_t)(count * d->period * 1000u);
	memset(&s, 0, sizeof s);
	s.stack_serial = serial;
	s.values = v;
	s.nvalues = 2;
	d->nsamples += count;
	rc = PD_EMIT(d->a, sample, &s);
	return rc ? PD_GPERFTOOLS_STOP(d, rc) : 0;
}

/* A new chain's stack, after those of its frames not emitted yet (ids come in order of first appearance). */
static int emit_chain(pd_gperftools_decoder *d, const pd_gperftools_found *f, const uint64_t *ids)
{
	profdata_stack s;
	int rc;
	for (uint32_t i = 0; i < f->n; i++) {
		if (ids[i] <= d->frames_out)
			continue;
		d->frames_out = ids[i];
		rc = pd_gperftools_emit_frame(d, ids[i], pd_gperftools_load(f->pcs + (size_t)i * d->ws, d->ws, d->be), 0, 0);
		if (rc)
			return rc;
	}
	memset(&s, 0, sizeof s);
	s.serial = f->serial;
	s.frame_ids = ids;
	s.nframes = f->n;
	rc = PD_EMIT(d->a, stack, &s);
	return rc ? PD_GPERFTOOLS_STOP(d, rc) : 0;
}

/*
 * What the chain pass found, in order: a new chain's frames and stack
 * just before its first sample, then each record's sample (version 0);
 * the Java variant keeps the records for java.c, which names the frames
 * first.
 */
static int emit_found(pd_gperftools_decoder *d, const pd_gperftools_batch *b)
{
	for (size_t k = 0; k < b->n; k++) {
		const pd_gperftools_found *f = &b->found[k];
		int rc;
		d->nrecords++;
		if (d->version != 0) {
			if (pd_grow((void **)&d->records, &d->records_cap, d->nrecords_kept + 1, sizeof *d->records))
				return PROFDATA_ENOMEM;
			d->records[d->nrecords_kept].count = f->count;
			d->records[d->nrecords_kept].serial = f->serial;
			d->nrecords_kept++;
			continue;
		}
		if (f->ids != PD_GPERFTOOLS_SEEN && (rc = emit_chain(d, f, b->ids + f->ids)) != 0)
			return rc;
		if ((rc = pd_gperftools_emit_sample(d, f->serial, f->count)) != 0)
			return rc;
	}
	return 0;
}

/* The error a callback or allocation failure turns into on the reader. */
static int decode_failure(pd_gperftools_decoder *d, int rc, uint64_t off)
{
	if (d->stopped || rc == PROFDATA_STOPPED)
		return rc;
	if (rc == PROFDATA_ENOMEM)
		return pd_in_error(d->in, rc, off, "out of memory");
	if (rc == PROFDATA_ELIMIT)
		return pd_in_error(d->in, rc, off, "more than 2^32 distinct PCs or call chains");
	return rc;
}

enum { END_NONE = 0, END_TRAILER = 1, END_CUT = 2 };

/* Records up to and including the trailer. *how gets END_*; returns 0,
 * PROFDATA_STOPPED or an error. */
static int read_records(pd_gperftools_decoder *d, int *how)
{
	const size_t chunk = (size_t)1 << 20;
	for (;;) {
		const unsigned char *p;
		uint64_t base = pd_in_offset(d->in), need = 0;
		size_t used = 0, want = chunk;
		int64_t avail = pd_in_fill(d->in, want, &p);
		int rc;
		if (avail < 0)
			return (int)avail;
		if (avail == 0) {
			*how = END_NONE;
			return 0;
		}
		d->batch.n = d->batch.nids = 0;
		rc = pd_gperftools_run_records(d, &d->batch, p, (size_t)avail, PD_GPERFTOOLS_BATCH_RECORDS, &used, &need);
		/* what it found before a failure goes out first, as the records came */
		int emitted = emit_found(d, &d->batch);
		if (emitted)
			return decode_failure(d, emitted, base + used);
		pd_in_skip(d->in, used);
		if (rc == PD_GPERFTOOLS_RECORDS_TRAILER) {
			*how = END_TRAILER;
			return 0;
		}
		if (rc < 0)
			return decode_failure(d, rc, base + used);
		if (used > 0)
			continue;
		/* Not even one record in the window: make room for it. A length no
		 * input could satisfy is treated as a record cut short. */
		if (need == 0)
			need = 2 * (uint64_t)d->ws;
		if (need <= (uint64_t)(SIZE_MAX / 4)) {
			avail = pd_in_fill(d->in, (size_t)need, &p);
			if (avail < 0)
				return (int)avail;
		}
		if ((uint64_t)avail < need) {
			/* Cut inside a record. */
			char kept[64] = "";
			if (d->a->mode != PROFDATA_MODE_STRICT)
				snprintf(kept, sizeof kept, ": kept the %" PRIu64 " complete records before it", d->nrecords);
			rc = pd_in_damage(d->in, d->a->mode, PROFDATA_ETRUNCATED, base, 0,
			                  "profile cut inside the record at offset %" PRIu64 " (%" PRId64 " of %" PRIu64
			                  " bytes)%s", base, avail, need, kept);
			if (rc)
				return rc;
			pd_in_skip(d->in, (size_t)avail);
			*how = END_CUT;
			return 0;
		}
		/* The record now fits: loop. */
	}
}

/*
 * A batch of the pass ahead emitted, and the input consumed up to its end
 * (progress, pages behind released). A progress callback that says stop
 * shows at the next fill, as between windows in turn: asked here, so that
 * the pass stops at once and the events are those the reading in turn
 * would have given.
 */
static int emit_ahead(pd_gperftools_decoder *d, const pd_gperftools_batch *b)
{
	const unsigned char *p;
	int rc = emit_found(d, b);
	if (rc != 0)
		return rc;
	pd_in_skip(d->in, (size_t)(b->end - pd_in_offset(d->in)));
	int64_t left = pd_in_fill(d->in, 0, &p);
	return left < 0 ? (int)left : 0;
}

/*
 * Records up to and including the trailer, as read_records() reads them;
 * with the whole input at hand, its trailer found and enough records for a
 * thread to pay, the chain pass runs ahead of the emitter (ahead.c).
 */
static int read_all_records(pd_gperftools_decoder *d, int *how)
{
	const uint64_t worth = (uint64_t)1 << 20;
	pd_blob *b = pd_in_blob(d->in);
	uint64_t pos = pd_in_offset(d->in);
	pd_gperftools_pass pass;
	int emitted;
	if (!d->maps_read || !b || d->trailer_at < pos || d->trailer_at - pos < worth ||
	    !pd_gperftools_ahead(d, pd_blob_data(b), (size_t)pd_blob_size(b), (size_t)pos, emit_ahead, &pass, &emitted))
		return read_records(d, how);
	if (emitted)
		return decode_failure(d, emitted, pd_in_offset(d->in));
	pd_in_skip(d->in, (size_t)(pass.end - pd_in_offset(d->in)));
	if (pass.rc)
		return decode_failure(d, pass.rc, pass.end);
	if (pass.trailer) {
		*how = END_TRAILER;
		return 0;
	}
	return read_records(d, how); /* not after maps_first's walk; the window reader would say what is wrong */
}

/* Everything left in the input, as one window. */
static int rest_of_input(pd_gperftools_decoder *d, const unsigned char **text, size_t *len)
{
	size_t want = 4096;
	for (;;) {
		int64_t n = pd_in_fill(d->in, want, text);
		if (n < 0)
			return (int)n;
		if ((size_t)n < want) {
			*len = (size_t)n;
			return 0;
		}
		if ((size_t)n > SIZE_MAX / 2)
			return pd_in_error(d->in, PROFDATA_ELIMIT, pd_in_offset(d->in), "text section too large");
		want = (size_t)n * 2;
	}
}


static int read_header(pd_gperftools_decoder *d, profdata_meta *meta, char **extra_text)
{
	const unsigned char *p;
	unsigned want_ws;
	int want_be, rc, found = -1, partial = 0, m;
	int64_t avail;
	size_t i, nhdr;
	uint64_t off = pd_in_offset(d->in);

	rc = pd_gperftools_layout_options(d->a->opts, pd_in_diag(d->in), &want_ws, &want_be);
	if (rc)
		return rc;
	avail = pd_in_fill(d->in, 40, &p);
	if (avail < 0)
		return (int)avail;
	for (i = 0; i < 4 && found < 0; i++) {
		if ((want_ws && pd_gperftools_layouts[i].ws != want_ws) || (want_be >= 0 && pd_gperftools_layouts[i].be != want_be))
			continue;
		m = pd_gperftools_header_match(p, (size_t)avail, &pd_gperftools_layouts[i]);
		if (m > 0)
			found = (int)i;
		else if (m < 0)
			partial = 1;
	}
	if (found < 0) {
		if (avail == 0)
			return pd_in_error(d->in, PROFDATA_ETRUNCATED, off, "empty input: no gperftools profile header");
		if (partial)
			return pd_in_error(d->in, PROFDATA_ETRUNCATED, off,
			                   "gperftools profile header cut short (%" PRId64 " bytes)", avail);
		return pd_in_error(d->in, PROFDATA_EFORMAT, off,
		                   "not a gperftools CPU profile: the header does not read 0, >=3, 0|1, period > 0%s",
		                   (want_ws || want_be >= 0) ? " in the requested word size and byte order" : "");
	}
	d->ws = pd_gperftools_layouts[found].ws;
	d->be = pd_gperftools_layouts[found].be;
	nhdr = (size_t)pd_gperftools_load(p + d->ws, d->ws, d->be);
	d->version = (int)pd_gperftools_load(p + 2 * d->ws, d->ws, d->be);
	d->period = pd_gperftools_load(p + 3 * d->ws, d->ws, d->be);
	avail = pd_in_fill(d->in, (2 + nhdr) * d->ws, &p);
	if (avail < 0)
		return (int)avail;
	if ((size_t)avail < (2 + nhdr) * d->ws)
		return pd_in_error(d->in, PROFDATA_ETRUNCATED, off,
		                   "gperftools profile header of %zu slots cut short (%" PRId64 " bytes)", nhdr + 2,
		                   avail);
	/* Slots after version and period: kept unless they are the usual single 0. */
	if (!(nhdr == 3 && pd_gperftools_load(p + 4 * d->ws, d->ws, d->be) == 0)) {
		size_t cap = (nhdr - 2) * 19 + 1, n = 0;
		char *t = malloc(cap);
		if (!t)
			return pd_in_error(d->in, PROFDATA_ENOMEM, off, "out of memory");
		t[0] = 0;
		for (i = 4; i < nhdr + 2; i++)
			n += (size_t)snprintf(t + n, cap - n, "%s0x%" PRIx64, i > 4 ? " " : "",
			                      pd_gperftools_load(p + i * d->ws, d->ws, d->be));
		*extra_text = t;
	}
	pd_in_skip(d->in, (2 + nhdr) * d->ws);
	memset(meta, 0, sizeof *meta);
	meta->format = "gperftools";
	meta->version = d->version ? "1" : "0";
	meta->word_size = d->ws;
	meta->big_endian = d->be;
	meta->period = d->period;
	meta->period_type = "cpu";
	meta->period_unit = "microseconds";
	return 0;
}


static void decoder_free(pd_gperftools_decoder *d)
{
	pd_index_free(&d->frame_of_pc);
	pd_map_free(&d->chain_of_hash);
	PD_FREE_ALL(d->chains, d->chain_pcs, d->frame_ids, d->records, d->pc_of_frame);
	pd_gperftools_batch_free(&d->batch);
	pd_intern_free(&d->strings);
}

/* begin (with any unusual header slots as a comment), then the two sample types: count and CPU time. */
static int emit_preamble(pd_gperftools_decoder *d)
{
	static const char *const names[4] = { "samples", "count", "cpu", "nanoseconds" };
	profdata_meta meta;
	profdata_kv kv;
	profdata_sample_type t;
	profdata_sample_group g;
	char *extra = NULL;
	uint64_t ids[4];
	int rc = read_header(d, &meta, &extra);
	if (rc)
		return rc;
	if (extra) {
		kv.key = GPERFTOOLS_HEADER_KEY;
		kv.value = extra;
		meta.comments = &kv;
		meta.ncomments = 1;
	}
	rc = PD_EMIT(d->a, begin, &meta);
	free(extra);
	if (rc)
		return PD_GPERFTOOLS_STOP(d, rc);
	for (size_t i = 0; i < 4 && rc == 0; i++)
		rc = pd_gperftools_emit_string(d, &ids[i], names[i], strlen(names[i]));
	if (rc)
		return decode_failure(d, rc, pd_in_offset(d->in));
	t.type_id = ids[0];
	t.unit_id = ids[1];
	rc = PD_EMIT(d->a, sample_type, &t);
	if (rc == 0) {
		t.type_id = ids[2];
		t.unit_id = ids[3];
		rc = PD_EMIT(d->a, sample_type, &t);
	}
	if (rc == 0) {
		memset(&g, 0, sizeof g);
		rc = PD_EMIT(d->a, sample_group, &g);
	}
	return rc ? PD_GPERFTOOLS_STOP(d, rc) : 0;
}

/*
 * With the whole input at hand (a mapped file or memory), the maps text
 * is read before the records: a walk over the records' lengths finds the
 * trailer, so that the mappings go out before the first frame and what
 * names frames (the symbolize transform) knows at once whether it has any
 * file to read. Damaged records are left to the records' own reading.
 */
static int maps_first(pd_gperftools_decoder *d)
{
	pd_blob *b = pd_in_blob(d->in);
	const unsigned char *p;
	uint64_t size, pos = pd_in_offset(d->in), ws = d->ws;
	if (!b || d->version != 0 || pd_blob_size(b) > SIZE_MAX)
		return 0;
	p = pd_blob_data(b);
	size = pd_blob_size(b);
	while (pos <= size && size - pos >= 3 * ws) {
		uint64_t count = pd_gperftools_load(p + pos, d->ws, d->be), n = pd_gperftools_load(p + pos + ws, d->ws, d->be);
		if (count == 0 && n == 1 && pd_gperftools_load(p + pos + 2 * ws, d->ws, d->be) == 0) {
			int rc = pd_gperftools_maps(d, p + pos + 3 * ws, (size_t)(size - pos - 3 * ws));
			d->maps_read = rc == 0;
			d->trailer_at = pos;
			return rc ? decode_failure(d, rc, pos + 3 * ws) : 0;
		}
		if (n > (size - pos) / ws - 2)
			return 0;
		pos += (2 + n) * ws;
	}
	return 0;
}

/* The text after the trailer: maps or symbols, then kept whole as an attachment. */
static int read_text(pd_gperftools_decoder *d)
{
	const unsigned char *text = NULL;
	size_t len = 0;
	uint64_t off = pd_in_offset(d->in);
	int rc = rest_of_input(d, &text, &len);
	if (rc)
		return rc;
	if (d->version != 0)
		rc = pd_gperftools_java(d, text, len);
	else if (!d->maps_read)
		rc = pd_gperftools_maps(d, text, len);
	if (rc == 0 && len > 0) {
		profdata_attachment at;
		at.name = d->version == 0 ? "maps" : "symbols";
		at.data = text;
		at.len = len;
		rc = PD_EMIT(d->a, attachment, &at);
		if (rc)
			rc = PD_GPERFTOOLS_STOP(d, rc);
	}
	if (rc)
		return decode_failure(d, rc, off);
	pd_in_skip(d->in, len);
	return 0;
}

/* After the records: a missing trailer said, the text read, the Java variant's events emitted. */
static int finish_records(pd_gperftools_decoder *d, int ended)
{
	int rc;
	if (ended == END_NONE) {
		uint64_t off = pd_in_offset(d->in);
		rc = pd_in_damage(d->in, d->a->mode, PROFDATA_ETRUNCATED, off, 0,
		                  "no trailer: the profile ends after %" PRIu64 " records (was the process killed?)",
		                  d->nrecords);
		if (rc)
			return rc;
	}
	if (ended == END_TRAILER)
		return read_text(d);
	if (d->version != 0 && (rc = pd_gperftools_java(d, NULL, 0)) != 0)
		return decode_failure(d, rc, pd_in_offset(d->in));
	return 0;
}

int pd_gperftools_decode(const pd_decode_args *a)
{
	pd_gperftools_decoder d;
	int rc, ended = END_NONE;
	memset(&d, 0, sizeof d);
	d.a = a;
	d.in = a->in;
	d.chain_seed = pd_hash_seed(&d);
	rc = emit_preamble(&d);
	if (rc == 0)
		rc = maps_first(&d);
	if (rc == 0)
		rc = read_all_records(&d, &ended);
	if (rc == 0)
		rc = finish_records(&d, ended);
	if (rc == 0 && PD_EMIT0(a, end))
		rc = PROFDATA_STOPPED;
	decoder_free(&d);
	return rc;
}
