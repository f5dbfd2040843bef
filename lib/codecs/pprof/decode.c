/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading pprof's profile.proto with a wire-level walk of our own (wire.h)
 * rather than protobuf-c's unpack, which allocates every sample, label and
 * line as a message of its own (measured in doc/formats-pprof.md).
 *
 * A Profile's fields come in any order and Go writes the string table after
 * the samples that use it, while events want a string before its use and a
 * frame before a stack. So the reader holds the decompressed message (a
 * mapped file in place) and walks it twice: the first walk notes where the
 * strings, sample types, mappings, functions and locations are and reads
 * the scalars; then come begin, strings, sample types, mappings, functions
 * and frames (a location's lines as consecutive frames), and the second
 * walk streams the samples, each stack emitted at its first sample. What it
 * keeps per sample is nothing; per distinct stack, its location list (so a
 * merge can stream through it).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/pprof/pprof.h"
#include "codecs/pprof/wire.h"
#include "util/hashmap.h"

/* Spans of repeated message fields, by position. */
typedef struct span_vec {
	pb_span *v;
	size_t n, cap;
} span_vec;

/* Scalars of the Profile message (absent: 0, as proto3 reads them). */
enum { TOP_DROP, TOP_KEEP, TOP_TIME, TOP_DURATION, TOP_PERIOD, TOP_DEFAULT_TYPE, TOP_DOC_URL, TOP_COUNT };

typedef struct pprof_decoder {
	const pd_decode_args *a;
	profdata_reader *in;
	const unsigned char *base;   /* the whole message */
	size_t size;
	span_vec strings, types, mappings, functions, locations;
	int64_t top[TOP_COUNT];
	const unsigned char *top_at[TOP_COUNT]; /* where each was (the last one read wins, as in protobuf) */
	pb_span period_type;
	int64_t *comments;
	const unsigned char **comment_at;
	size_t ncomments, comments_cap, comment_at_cap;
	pd_map mapping_of_id;        /* pprof mapping id -> index + 1 */
	pd_map location_of_id;       /* pprof location id -> index + 1 */
	uint32_t *location_row;      /* the same as a table by id, when the ids are dense (Go's are 1, 2, ...) */
	uint64_t location_rows;
	uint32_t *loc_first;         /* location i's frames have ids loc_first[i] .. loc_first[i + 1] - 1 */
	pd_intern stacks;            /* distinct location-index lists; serial = index + 1 */
	uint64_t *ids, *vals;        /* the sample being read: location ids, values */
	uint32_t *locs;              /* its location indexes */
	uint64_t *frame_ids;         /* a stack's frames */
	profdata_label *labels;      /* the sample's labels */
	size_t ids_cap, vals_cap, locs_cap, frames_cap, labels_cap, nlabels;
	uint32_t thread;             /* the sample's thread serial, from a thread label; 0 none */
	pd_intern threads;           /* thread label values (the label's bytes); serial = index + 1 */
	uint64_t nested_unknown;     /* fields inside messages that profile.proto does not name */
	pd_intern text;              /* NUL-terminated copies for the begin event */
} pprof_decoder;

static void decoder_free(pprof_decoder *d)
{
	free(d->strings.v);
	free(d->types.v);
	free(d->mappings.v);
	free(d->functions.v);
	free(d->locations.v);
	free(d->comments);
	free(d->comment_at);
	free(d->loc_first);
	free(d->location_row);
	free(d->locs);
	free(d->frame_ids);
	free(d->ids);
	free(d->vals);
	free(d->labels);
	pd_intern_free(&d->threads);
	pd_map_free(&d->mapping_of_id);
	pd_map_free(&d->location_of_id);
	pd_intern_free(&d->stacks);
	pd_intern_free(&d->text);
}

static uint64_t offset_of(const pprof_decoder *d, const unsigned char *at) { return (uint64_t)(at - d->base); }

static int fail(pprof_decoder *d, const unsigned char *at, int code, const char *fmt, ...) PD_PRINTF(4, 5);
static int fail(pprof_decoder *d, const unsigned char *at, int code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return pd_in_error(d->in, code, offset_of(d, at), "%s", msg);
}

/* A malformed field inside `what` (a -PB_* from pb_next), at s->p. */
static int wire_fail(pprof_decoder *d, const pb_span *s, int e, const char *what)
{
	return fail(d, s->p, e == -PB_TRUNCATED ? PROFDATA_ETRUNCATED : PROFDATA_EFORMAT, "%s in %s", pb_problem(e),
	            what);
}

static int span_push(span_vec *v, pb_span s)
{
	if (pd_grow((void **)&v->v, &v->cap, v->n + 1, sizeof *v->v))
		return PROFDATA_ENOMEM;
	v->v[v->n++] = s;
	return 0;
}

/* A field's string index checked against the table: its model string id (index; 0 is ""). */
static int string_id(pprof_decoder *d, const pb_field *f, uint64_t *id)
{
	if (f->value >= d->strings.n)
		return fail(d, f->at, PROFDATA_EFORMAT, "string index %" PRIu64 " past the string table of %zu",
		            f->value, d->strings.n);
	*id = f->value;
	return 0;
}

/* Repeated int64 comment: one varint, or packed. */
static int add_comments(pprof_decoder *d, const pb_field *f)
{
	pb_span s = f->bytes;
	uint64_t v = f->value;
	int e;
	if (f->wire == PB_VARINT)
		s.p = s.end = NULL;
	do {
		if (s.p && (e = pb_varint(&s, &v)) != PB_OK)
			return wire_fail(d, &s, -e, "comments");
		if (pd_grow((void **)&d->comments, &d->comments_cap, d->ncomments + 1, sizeof *d->comments) ||
		    pd_grow((void **)&d->comment_at, &d->comment_at_cap, d->ncomments + 1, sizeof *d->comment_at))
			return PROFDATA_ENOMEM;
		d->comment_at[d->ncomments] = f->at;
		d->comments[d->ncomments++] = (int64_t)v;
	} while (s.p < s.end);
	return 0;
}

/* Field numbers of Profile and the wire type each has (packed comments may be either). */
static int top_wire_ok(uint32_t number, unsigned wire)
{
	if (number <= 6 || number == 11)
		return wire == PB_BYTES;
	if (number == 13)
		return wire == PB_BYTES || wire == PB_VARINT;
	return number <= 15 ? wire == PB_VARINT : 1;
}

static int note_top_field(pprof_decoder *d, const pb_field *f)
{
	static const int scalar[16] = { [7] = TOP_DROP + 1, [8] = TOP_KEEP + 1, [9] = TOP_TIME + 1,
		                        [10] = TOP_DURATION + 1, [12] = TOP_PERIOD + 1, [14] = TOP_DEFAULT_TYPE + 1,
		                        [15] = TOP_DOC_URL + 1 };
	if (!top_wire_ok(f->number, f->wire))
		return fail(d, f->at, PROFDATA_EFORMAT, "Profile field %" PRIu32 " with wire type %u", f->number, f->wire);
	switch (f->number) {
	case 1: return span_push(&d->types, f->bytes);
	case 2: return 0; /* samples: the second walk */
	case 3: return span_push(&d->mappings, f->bytes);
	case 4: return span_push(&d->locations, f->bytes);
	case 5: return span_push(&d->functions, f->bytes);
	case 6: return span_push(&d->strings, f->bytes);
	case 11: d->period_type = f->bytes; return 0;
	case 13: return add_comments(d, f);
	default:
		if (f->number < 16 && scalar[f->number]) {
			d->top[scalar[f->number] - 1] = (int64_t)f->value;
			d->top_at[scalar[f->number] - 1] = f->at;
		}
		return 0; /* unknown ones: emitted by the second walk */
	}
}

static int first_walk(pprof_decoder *d)
{
	pb_span s = { d->base, d->base + d->size };
	pb_field f;
	int e, rc;
	while ((e = pb_next(&s, &f)) > 0)
		if ((rc = note_top_field(d, &f)) != 0)
			return rc;
	if (e < 0)
		return wire_fail(d, &s, e, "the Profile message");
	if (d->strings.n == 0 && (d->types.n || d->locations.n || d->functions.n))
		return fail(d, d->base + d->size, PROFDATA_EFORMAT, "no string table");
	if (d->strings.n && d->strings.v[0].p != d->strings.v[0].end)
		return fail(d, d->strings.v[0].p, PROFDATA_EFORMAT, "the string table's first string is not empty");
	return 0;
}

/* String `index` (checked) of the table. */
static pb_span string_at(const pprof_decoder *d, int64_t index)
{
	pb_span none = { (const unsigned char *)"", (const unsigned char *)"" };
	return index > 0 && (uint64_t)index < d->strings.n ? d->strings.v[index] : none;
}

/* A string index of field `what` at `at`, checked against the table. */
static int check_index(pprof_decoder *d, int64_t index, const unsigned char *at, const char *what)
{
	if (index < 0 || (uint64_t)index >= (d->strings.n ? d->strings.n : 1))
		return fail(d, at, PROFDATA_EFORMAT, "%s: string index %" PRId64 " past the string table of %zu",
		            what, index, d->strings.n);
	return 0;
}

/* A ValueType's type and unit string indexes. */
static int value_type(pprof_decoder *d, pb_span s, uint64_t *type, uint64_t *unit)
{
	pb_field f;
	int e, rc;
	*type = *unit = 0;
	while ((e = pb_next(&s, &f)) > 0) {
		if (f.wire != PB_VARINT) {
			d->nested_unknown++;
			continue;
		}
		if (f.number == 1 && (rc = string_id(d, &f, type)) != 0)
			return rc;
		if (f.number == 2 && (rc = string_id(d, &f, unit)) != 0)
			return rc;
		d->nested_unknown += f.number > 2;
	}
	return e < 0 ? wire_fail(d, &s, e, "a ValueType") : 0;
}

/* A NUL-terminated copy of s in d->text: *index; 0 or PROFDATA_ENOMEM. */
static int keep_text(pprof_decoder *d, const char *s, size_t len, uint32_t *index)
{
	return pd_intern_put(&d->text, s, len, index) < 0 ? PROFDATA_ENOMEM : 0;
}

/* The string table's entry `index` (checked), likewise. */
static int keep_string(pprof_decoder *d, int64_t index, uint32_t *out)
{
	pb_span s = string_at(d, index);
	return keep_text(d, (const char *)s.p, (size_t)(s.end - s.p), out);
}

static int keep_number(pprof_decoder *d, int64_t v, uint32_t *out)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%" PRId64, v);
	return keep_text(d, buf, (size_t)n, out);
}

/* Span s up to its first NUL: the text the model keeps of a string. */
static size_t text_len(pb_span s)
{
	const unsigned char *nul = s.p != s.end ? memchr(s.p, 0, (size_t)(s.end - s.p)) : NULL;
	return (size_t)((nul ? nul : s.end) - s.p);
}

/*
 * Whether string `index` is the type of a sample type: what a
 * default_sample_type must name for go tool pprof to use the file, and all
 * the writer writes of one. Reads the types again; what that counts of
 * unknown fields was counted before.
 */
static int names_a_sample_type(pprof_decoder *d, int64_t index)
{
	pb_span want = string_at(d, index);
	uint64_t unknown = d->nested_unknown;
	int found = 0;
	for (size_t i = 0; i < d->types.n && !found; i++) {
		uint64_t type, unit;
		if (value_type(d, d->types.v[i], &type, &unit) != 0)
			break;
		pb_span have = string_at(d, (int64_t)type);
		found = text_len(have) == text_len(want) && memcmp(have.p, want.p, text_len(want)) == 0;
	}
	d->nested_unknown = unknown;
	return found;
}

/*
 * The meta comments (pprof.h): each pprof comment, then the fields the
 * model has no place for, as key and value text indexes into d->text.
 */
static int meta_comments(pprof_decoder *d, uint32_t *kv, size_t *n)
{
	static const char *const keys[TOP_COUNT] = { PPROF_KEY_DROP, PPROF_KEY_KEEP, PPROF_KEY_TIME, PPROF_KEY_DURATION,
		                                     NULL, PPROF_KEY_DEFAULT_TYPE, PPROF_KEY_DOC_URL };
	static const int is_string[TOP_COUNT] = { 1, 1, 0, 0, 0, 1, 1 };
	int rc = 0;
	*n = 0;
	for (size_t i = 0; i < d->ncomments && rc == 0; i++, (*n)++) {
		if ((rc = check_index(d, d->comments[i], d->comment_at[i], "a comment")) == 0 &&
		    (rc = keep_text(d, PPROF_KEY_COMMENT, strlen(PPROF_KEY_COMMENT), &kv[2 * *n])) == 0)
			rc = keep_string(d, d->comments[i], &kv[2 * *n + 1]);
	}
	for (size_t i = 0; i < TOP_COUNT && rc == 0; i++) {
		if (!keys[i] || !d->top[i])
			continue;
		if (i == TOP_DEFAULT_TYPE && (uint64_t)d->top[i] < d->strings.n &&
		    !names_a_sample_type(d, d->top[i])) {
			pd_in_warn(d->in, 0, (uint64_t)(d->top_at[i] - d->base),
			           "default_sample_type names no sample type: left out");
			continue;
		}
		if (!is_string[i])
			rc = keep_number(d, d->top[i], &kv[2 * *n + 1]);
		else if ((rc = check_index(d, d->top[i], d->top_at[i], keys[i])) == 0)
			rc = keep_string(d, d->top[i], &kv[2 * *n + 1]);
		if (rc == 0)
			rc = keep_text(d, keys[i], strlen(keys[i]), &kv[2 * *n]);
		(*n)++;
	}
	return rc;
}

static int emit_begin(pprof_decoder *d)
{
	uint64_t ptype = 0, punit = 0;
	uint32_t pt, pu, *kv = malloc((d->ncomments + TOP_COUNT) * 2 * sizeof *kv + 1);
	profdata_kv *comments = malloc((d->ncomments + TOP_COUNT) * sizeof *comments + 1);
	size_t n = 0;
	int rc = !kv || !comments ? PROFDATA_ENOMEM : 0;
	if (rc == 0 && d->period_type.p)
		rc = value_type(d, d->period_type, &ptype, &punit);
	if (rc == 0)
		rc = meta_comments(d, kv, &n);
	if (rc == 0 && !(rc = keep_string(d, (int64_t)ptype, &pt)) && !(rc = keep_string(d, (int64_t)punit, &pu))) {
		/* pointers into d->text only now: it no longer grows */
		for (size_t i = 0; i < n; i++) {
			comments[i].key = pd_intern_str(&d->text, kv[2 * i], NULL);
			comments[i].value = pd_intern_str(&d->text, kv[2 * i + 1], NULL);
		}
		profdata_meta m = { .format = "pprof", .period = (uint64_t)d->top[TOP_PERIOD],
			            .timestamp_ms = (uint64_t)d->top[TOP_TIME] / 1000000u,
			            .period_type = d->period_type.p ? pd_intern_str(&d->text, pt, NULL) : NULL,
			            .period_unit = d->period_type.p ? pd_intern_str(&d->text, pu, NULL) : NULL,
			            .comments = comments, .ncomments = n };
		rc = PD_EMIT(d->a, begin, &m);
	}
	free(kv);
	free(comments);
	return rc;
}

static int emit_strings(pprof_decoder *d)
{
	uint64_t cut = 0;
	for (size_t i = 1; i < d->strings.n; i++) {
		const pb_span *s = &d->strings.v[i];
		size_t len = (size_t)(s->end - s->p);
		const unsigned char *nul = len ? memchr(s->p, 0, len) : NULL;
		/* a NUL ends a string here as it does in protobuf-c's tables, which the writer uses */
		if (nul) {
			len = (size_t)(nul - s->p);
			cut++;
		}
		int rc = PD_EMIT(d->a, string, i, (const char *)s->p, len);
		if (rc)
			return rc;
	}
	if (cut)
		pd_in_warn(d->in, 0, PD_NO_OFFSET, "%" PRIu64 " strings cut at a NUL byte", cut);
	return 0;
}

static int emit_sample_types(pprof_decoder *d)
{
	int rc = 0;
	for (size_t i = 0; i < d->types.n && rc == 0; i++) {
		profdata_sample_type t;
		if ((rc = value_type(d, d->types.v[i], &t.type_id, &t.unit_id)) == 0)
			rc = PD_EMIT(d->a, sample_type, &t);
	}
	return rc;
}

static int read_mapping(pprof_decoder *d, pb_span s, uint64_t *id, profdata_mapping *m)
{
	pb_field f;
	int e, rc = 0;
	memset(m, 0, sizeof *m);
	*id = 0;
	while (rc == 0 && (e = pb_next(&s, &f)) > 0) {
		if (f.wire != PB_VARINT) {
			d->nested_unknown++;
			continue;
		}
		switch (f.number) {
		case 1: *id = f.value; break;
		case 2: m->start = f.value; break;
		case 3: m->limit = f.value; break;
		case 4: m->offset = f.value; break;
		case 5: rc = string_id(d, &f, &m->path_id); break;
		case 6: rc = string_id(d, &f, &m->build_id); break;
		case 7: case 8: case 9: case 10: break; /* what it was symbolized with: the writer tells again */
		default: d->nested_unknown++;
		}
	}
	return rc ? rc : e < 0 ? wire_fail(d, &s, e, "a Mapping") : 0;
}

/* Row `row` for the pprof id `id` of a mapping or location: ids are non-zero and unique. */
static int number_id(pprof_decoder *d, pd_map *rows, uint64_t id, size_t row, const unsigned char *at,
                     const char *what)
{
	if (id == 0 || pd_map_get(rows, id))
		return fail(d, at, PROFDATA_EFORMAT, "%s id %" PRIu64 " %s", what, id, id ? "used twice" : "is 0");
	return pd_map_put(rows, id, (uint32_t)row + 1) ? PROFDATA_ENOMEM : 0;
}

static int emit_mappings(pprof_decoder *d)
{
	for (size_t i = 0; i < d->mappings.n; i++) {
		profdata_mapping m;
		uint64_t id;
		int rc = read_mapping(d, d->mappings.v[i], &id, &m);
		if (rc == 0)
			rc = number_id(d, &d->mapping_of_id, id, i, d->mappings.v[i].p, "mapping");
		if (rc == 0)
			rc = PD_EMIT(d->a, mapping, &m);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_function(pprof_decoder *d, pb_span s, profdata_function *fn)
{
	pb_field f;
	uint64_t system_name = 0;
	int e, rc = 0;
	memset(fn, 0, sizeof *fn);
	while (rc == 0 && (e = pb_next(&s, &f)) > 0) {
		if (f.wire != PB_VARINT) {
			d->nested_unknown++;
			continue;
		}
		switch (f.number) {
		case 1: fn->id = f.value; break;
		case 2: rc = string_id(d, &f, &fn->name_id); break;
		case 3: rc = string_id(d, &f, &system_name); break;
		case 4: rc = string_id(d, &f, &fn->source_file_id); break;
		case 5: fn->start_line = f.value <= INT32_MAX ? (int32_t)f.value : 0; break;
		default: d->nested_unknown++;
		}
	}
	/* the system name, when it says more than the name, is the signature (encode.c writes it back) */
	if (system_name != fn->name_id)
		fn->signature_id = system_name;
	return rc ? rc : e < 0 ? wire_fail(d, &s, e, "a Function") : 0;
}

static int emit_functions(pprof_decoder *d)
{
	for (size_t i = 0; i < d->functions.n; i++) {
		profdata_function fn;
		int rc = read_function(d, d->functions.v[i], &fn);
		if (rc == 0 && fn.id == 0)
			rc = fail(d, d->functions.v[i].p, PROFDATA_EFORMAT, "function id 0");
		if (rc == 0)
			rc = PD_EMIT(d->a, function, &fn);
		if (rc)
			return rc;
	}
	return 0;
}

/* A Line's function and line into a frame. */
static int read_line(pprof_decoder *d, pb_span s, profdata_frame *fr)
{
	pb_field f;
	int e;
	while ((e = pb_next(&s, &f)) > 0) {
		if (f.wire == PB_VARINT && f.number == 1)
			fr->function_id = f.value;
		else if (f.wire == PB_VARINT && f.number == 2)
			fr->line = f.value <= INT32_MAX ? (int32_t)f.value : PROFDATA_LINE_UNKNOWN;
		else if (f.number != 3) /* the column: no place in a frame */
			d->nested_unknown++;
	}
	return e < 0 ? wire_fail(d, &s, e, "a Line") : 0;
}

/* A Location's scalars; *nlines its lines. */
static int read_location(pprof_decoder *d, pb_span s, uint64_t *id, profdata_frame *fr, size_t *nlines)
{
	pb_field f;
	uint64_t mapping_id = 0;
	int e;
	memset(fr, 0, sizeof *fr);
	*id = 0;
	*nlines = 0;
	while ((e = pb_next(&s, &f)) > 0) {
		if (f.number == 4 && f.wire == PB_BYTES)
			(*nlines)++;
		else if (f.wire != PB_VARINT || f.number > 5)
			d->nested_unknown++;
		else if (f.number == 1)
			*id = f.value;
		else if (f.number == 2)
			mapping_id = f.value;
		else if (f.number == 3)
			fr->address = f.value;
	}
	if (e < 0)
		return wire_fail(d, &s, e, "a Location");
	fr->mapping = mapping_id ? pd_map_get(&d->mapping_of_id, mapping_id) : 0;
	if (mapping_id && !fr->mapping)
		return fail(d, s.end, PROFDATA_EFORMAT, "location %" PRIu64 ": no mapping %" PRIu64, *id, mapping_id);
	/* an address 0 in a mapping is still the location's own (not an inlined call's) */
	fr->has_address = fr->address != 0 || *nlines == 0 || fr->mapping != 0;
	return 0;
}

/*
 * Location i's frames, ids from `next`: its lines innermost call first,
 * each but the last an inlined call (no address, the location's mapping:
 * what encode.c joins into one location again), the last with the address.
 */
static int emit_location(pprof_decoder *d, size_t i, uint32_t *next)
{
	pb_span s = d->locations.v[i];
	profdata_frame loc, fr;
	pb_field f;
	uint64_t id;
	size_t nlines, k = 0;
	int e, rc = read_location(d, s, &id, &loc, &nlines);
	if (rc == 0)
		rc = number_id(d, &d->location_of_id, id, i, s.p, "location");
	d->loc_first[i] = *next;
	if (rc || nlines == 0) {
		loc.id = (*next)++;
		return rc ? rc : PD_EMIT(d->a, frame, &loc);
	}
	while (rc == 0 && (e = pb_next(&s, &f)) > 0) {
		if (f.number != 4 || f.wire != PB_BYTES)
			continue;
		fr = loc;
		fr.function_id = 0;
		fr.line = 0;
		if (++k < nlines)
			fr.has_address = 0, fr.address = 0;
		fr.id = (*next)++;
		if ((rc = read_line(d, f.bytes, &fr)) == 0)
			rc = PD_EMIT(d->a, frame, &fr);
	}
	return rc;
}

/*
 * A table by id beside the map when the ids are no more than twice the
 * locations: a sample's lookups (tens per sample) are then one load each.
 */
static int dense_locations(pprof_decoder *d)
{
	uint64_t max = 0;
	for (size_t i = 0; i < d->location_of_id.cap; i++)
		if (d->location_of_id.vals[i] && d->location_of_id.keys[i] > max)
			max = d->location_of_id.keys[i];
	if (max > 2 * (uint64_t)d->locations.n + 64)
		return 0;
	if (!(d->location_row = calloc((size_t)max + 1, sizeof *d->location_row)))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < d->location_of_id.cap; i++)
		if (d->location_of_id.vals[i])
			d->location_row[d->location_of_id.keys[i]] = d->location_of_id.vals[i];
	d->location_rows = max + 1;
	return 0;
}

static int emit_frames(pprof_decoder *d)
{
	uint32_t next = 1;
	d->loc_first = malloc((d->locations.n + 1) * sizeof *d->loc_first);
	if (!d->loc_first)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < d->locations.n; i++) {
		int rc;
		if (next > UINT32_MAX - 65536)
			return fail(d, d->locations.v[i].p, PROFDATA_ELIMIT, "more than 2^32 frames");
		if ((rc = emit_location(d, i, &next)) != 0)
			return rc;
	}
	d->loc_first[d->locations.n] = next;
	return dense_locations(d);
}

/* Append one (varint) or several (packed) uint64s of field f to *v. */
static int push_u64s(pprof_decoder *d, const pb_field *f, uint64_t **v, size_t *n, size_t *cap)
{
	pb_span s = f->bytes;
	uint64_t x = f->value;
	int e;
	if (f->wire != PB_VARINT && f->wire != PB_BYTES)
		return fail(d, f->at, PROFDATA_EFORMAT, "a repeated integer with wire type %u", f->wire);
	if (f->wire == PB_VARINT)
		s.p = s.end = NULL;
	do {
		if (s.p && (e = pb_varint(&s, &x)) != PB_OK)
			return wire_fail(d, &s, -e, "a packed list");
		if (*n >= *cap && pd_grow((void **)v, cap, *n + 1 + (size_t)(s.end - s.p), sizeof **v))
			return PROFDATA_ENOMEM;
		(*v)[(*n)++] = x;
	} while (s.p < s.end);
	return 0;
}

/* The location indexes of the sample's location ids (d->ids) into d->locs. */
static int sample_locations(pprof_decoder *d, size_t nids, const unsigned char *at)
{
	if (nids > d->locs_cap && pd_grow((void **)&d->locs, &d->locs_cap, nids, sizeof *d->locs))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < nids; i++) {
		uint64_t id = d->ids[i];
		uint32_t li = id < d->location_rows ? d->location_row[id]
		                                    : d->location_row ? 0 : pd_map_get(&d->location_of_id, id);
		if (!li)
			return fail(d, at, PROFDATA_EFORMAT, "a sample names location %" PRIu64 ", which the profile lacks",
			            d->ids[i]);
		d->locs[i] = li - 1;
	}
	return 0;
}

/* The serial of the stack of locations d->locs[0 .. n), emitted at its first sample. */
static int stack_of(pprof_decoder *d, size_t n, uint32_t *serial)
{
	uint32_t index;
	size_t nframes = 0;
	int rc = d->stacks.n >= UINT32_MAX - 1 ? PROFDATA_ELIMIT
	                                       : pd_intern_put(&d->stacks, (const char *)d->locs, n * sizeof *d->locs, &index);
	if (rc < 0)
		return rc;
	*serial = index + 1;
	if (rc == 1)
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t from = d->loc_first[d->locs[i]], to = d->loc_first[d->locs[i] + 1];
		if (nframes + (to - from) > d->frames_cap &&
		    pd_grow((void **)&d->frame_ids, &d->frames_cap, nframes + (to - from), sizeof *d->frame_ids))
			return PROFDATA_ENOMEM;
		for (uint32_t id = from; id < to; id++)
			d->frame_ids[nframes++] = id;
	}
	profdata_stack st = { .serial = *serial, .frame_ids = d->frame_ids, .nframes = nframes };
	return PD_EMIT(d->a, stack, &st);
}

/* A sample's values, as many as sample types: repaired (zeros, or cut) unless strict. */
static int check_values(pprof_decoder *d, size_t *nvals, const unsigned char *at)
{
	int rc;
	if (*nvals == d->types.n)
		return 0;
	rc = pd_in_damage(d->in, d->a->mode, PROFDATA_EFORMAT, offset_of(d, at), 0,
	                  "a sample with %zu values for %zu sample types", *nvals, d->types.n);
	if (rc)
		return rc;
	if (d->types.n > d->vals_cap && pd_grow((void **)&d->vals, &d->vals_cap, d->types.n, sizeof *d->vals))
		return PROFDATA_ENOMEM;
	while (*nvals < d->types.n)
		d->vals[(*nvals)++] = 0;
	*nvals = d->types.n;
	return 0;
}

/* The thread a label names (pd_pprof_is_thread_label): its serial, its thread_start emitted at first sight. */
static int label_thread(pprof_decoder *d, const profdata_label *l)
{
	uint32_t index;
	pb_span key = string_at(d, (int64_t)l->key_id);
	if (!pd_pprof_is_thread_label((const char *)key.p, (size_t)(key.end - key.p)))
		return 0;
	uint64_t value[2] = { l->str_id, (uint64_t)l->num };
	int rc = d->threads.n >= UINT32_MAX - 1 ? PROFDATA_ELIMIT
	                                        : pd_intern_put(&d->threads, (const char *)value, sizeof value, &index);
	if (rc < 0)
		return rc;
	d->thread = index + 1;
	if (rc == 1)
		return 0;
	profdata_thread_start t = { .serial = index + 1, .name_id = l->str_id };
	return PD_EMIT(d->a, thread_start, &t);
}

static int read_label(pprof_decoder *d, pb_span s)
{
	profdata_label l = { 0, 0, 0, 0 };
	pb_field f;
	int e, rc = 0;
	while (rc == 0 && (e = pb_next(&s, &f)) > 0) {
		if (f.wire != PB_VARINT || f.number > 4)
			d->nested_unknown++;
		else if (f.number == 1)
			rc = string_id(d, &f, &l.key_id);
		else if (f.number == 2)
			rc = string_id(d, &f, &l.str_id);
		else if (f.number == 3)
			l.num = (int64_t)f.value;
		else
			rc = string_id(d, &f, &l.num_unit_id);
	}
	if (rc || (rc = e < 0 ? wire_fail(d, &s, e, "a Label") : 0) != 0)
		return rc;
	if (pd_grow((void **)&d->labels, &d->labels_cap, d->nlabels + 1, sizeof *d->labels))
		return PROFDATA_ENOMEM;
	d->labels[d->nlabels++] = l;
	return label_thread(d, &l);
}

static int emit_sample(pprof_decoder *d, pb_span s)
{
	const unsigned char *at = s.p;
	pb_field f;
	size_t nids = 0, nvals = 0;
	uint32_t serial;
	int e, rc = 0;
	d->nlabels = 0;
	d->thread = 0;
	while (rc == 0 && (e = pb_next(&s, &f)) > 0) {
		if (f.number == 1)
			rc = push_u64s(d, &f, &d->ids, &nids, &d->ids_cap);
		else if (f.number == 2)
			rc = push_u64s(d, &f, &d->vals, &nvals, &d->vals_cap);
		else if (f.number == 3 && f.wire == PB_BYTES)
			rc = read_label(d, f.bytes);
		else
			d->nested_unknown++;
	}
	if (rc || (rc = e < 0 ? wire_fail(d, &s, e, "a Sample") : 0) != 0)
		return rc;
	if ((rc = check_values(d, &nvals, at)) != 0 || (rc = sample_locations(d, nids, at)) != 0 ||
	    (rc = stack_of(d, nids, &serial)) != 0)
		return rc;
	/* the values are read as uint64 and are int64: the same object representation */
	profdata_sample smp = { .stack_serial = serial, .thread_serial = d->thread, .values = (const int64_t *)d->vals,
		                .nvalues = nvals };
	profdata_sample_labels l = { d->labels, d->nlabels };
	if (d->nlabels && (rc = PD_EMIT(d->a, sample_labels, &l)) != 0)
		return rc;
	return PD_EMIT(d->a, sample, &smp);
}

/* A field of Profile that profile.proto does not name, kept for a rewrite: its key as tag, its value's bytes. */
static int emit_unknown(pprof_decoder *d, const pb_field *f, const unsigned char *end)
{
	/* the bytes after the key, a length included: what protobuf-c packs back after it */
	profdata_unknown u = { .tag = f->number << 3 | f->wire, .data = f->value_at };
	u.len = (uint64_t)(end - f->value_at);
	if (f->number > UINT32_MAX >> 3)
		return fail(d, f->at, PROFDATA_EFORMAT, "field number %" PRIu32 " past 2^29", f->number);
	return PD_EMIT(d->a, unknown, &u);
}

/* The second walk: samples in order, and the fields profile.proto does not name. */
static int emit_samples(pprof_decoder *d)
{
	pb_span s = { d->base, d->base + d->size };
	pb_field f;
	int e, rc = 0;
	while (rc == 0 && (e = pb_next(&s, &f)) > 0) {
		if (f.number == 2)
			rc = emit_sample(d, f.bytes);
		else if (f.number > 15)
			rc = emit_unknown(d, &f, s.p);
	}
	return rc;
}

int pd_pprof_decode(const pd_decode_args *a)
{
	pprof_decoder d;
	int rc;
	memset(&d, 0, sizeof d);
	d.a = a;
	d.in = a->in;
	if ((rc = pd_in_fill_all(d.in, &d.base, &d.size)) == 0 &&
	    (rc = first_walk(&d)) == 0 && (rc = emit_begin(&d)) == 0 &&
	    (rc = emit_strings(&d)) == 0 && (rc = emit_sample_types(&d)) == 0 && (rc = emit_mappings(&d)) == 0 &&
	    (rc = emit_functions(&d)) == 0 && (rc = emit_frames(&d)) == 0 && (rc = emit_samples(&d)) == 0) {
		if (d.nested_unknown)
			pd_in_warn(d.in, 0, PD_NO_OFFSET, "%" PRIu64 " fields inside messages that profile.proto does not name "
			           "were dropped", d.nested_unknown);
		pd_in_skip(d.in, d.size);
		rc = PD_EMIT0(a, end);
	}
	if (rc == PROFDATA_ENOMEM && !pd_in_diag(d.in)->has_err)
		rc = pd_in_error(d.in, rc, PD_NO_OFFSET, "out of memory");
	decoder_free(&d);
	return rc;
}
