/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IBM classic (text) heapdump decoder.
 *
 * Lines are parsed in place from the reader's window (the mapping, for
 * files), nothing allocated per line. The lines writers write (a record
 * line ending after its type, reference lines of "0x" and sixteen digits
 * each) are read by fast paths that find the line's end by parsing it,
 * sixteen hex digits at a time; anything else goes the general way, which
 * says what is wrong with it. A record line sets a
 * pending record; TAB-led reference lines that follow add to its
 * references; the next other line (or the end) emits it. So the two-line
 * layout of OpenJ9 and jdmpview, the single-line layout of the IBM
 * documentation and mixtures of them all read the same way.
 *
 * Class ids: a type gets the address of the first CLS record naming it. When
 * the input is one stable span (a mapped file or memory), the CLS records at
 * the end of the input (where OpenJ9 writes them, after all objects) are
 * read first, backwards, so that objects already carry their class's
 * address. A type with no CLS record before its first object gets a
 * synthetic id: 1, 3, 5, ... in order of first use. Real addresses are
 * aligned, so odd ids do not collide with them; a hostile file's odd CLS
 * addresses are skipped when they are known first. In the IBM Java 6 variant
 * (class-block address first on each object's reference line) the class id
 * of an object is that class-block address.
 *
 * doc/formats-classic.md has the whole mapping.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classic.h"
#include "util/hashmap.h"

#define WIN_BYTES ((size_t)4 << 20)
#define LOOKAHEAD_BYTES ((size_t)256 << 10)
#define SKIP_BYTES ((size_t)1 << 20)
#define LOOKAHEAD_RECORDS 512

/* Hex digit value plus one; 0 for anything else. */
static const unsigned char hexv[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

/* What the decoder knows of a type name; the names themselves are in the interner, same index. */
typedef struct type_info {
	uint64_t string_id; /* 0 until its string event was sent */
	uint64_t class_id;  /* name-based class id; 0 until assigned */
	uint64_t loaded_id; /* the last id a class_load was sent for with this name */
	uint8_t kind, elem;
} type_info;

typedef struct record_counts {
	uint64_t classes, objects, arrays, prims;
	uint64_t listed, zeros, cbitems;
} record_counts;

typedef struct classic_decoder {
	const pd_decode_args *a;
	profdata_reader *r;
	int mode; /* profdata_mode */

	/* the input's lines (the window, the current line) */
	pd_lines ln;

	/* types, numbered by the interner of their names */
	pd_intern type_names;
	type_info *types;
	size_t types_cap;
	uint64_t next_string;
	uint64_t next_synth;
	uint32_t next_serial;

	/* class ids already loaded; class ids dumped (value: dump number); CLS addresses scan_tail found */
	pd_map ids, dumped, claimed;

	/* CLS records found by scan_tail, last first */
	struct { size_t type; uint64_t addr; } *tail;
	size_t ntail, tail_cap;

	/* references of the pending record */
	uint64_t *refs;
	size_t nrefs, refs_cap;

	/* the pending record */
	int pending;
	int pend_cls;
	uint64_t pend_addr, pend_size, pend_line, pend_off;
	size_t pend_type;

	/* file and dump state */
	int begun, in_dump, ndumps;
	int classblock; /* variant detected (or forced) */
	int force_variant; /* -1 auto, 0 openj9, 1 classblock */
	int tail_compact;
	record_counts cnt;
	pd_classic_trailer tr;
	uint64_t bd_line, bd_off, tr_line, tr_off;
	char *trailer_text;
	char *first_header;
	size_t first_header_len;
	int jdmpview; /* meta says style=jdmpview */
	size_t trailer_len, trailer_cap;
	uint64_t last_line, last_off;
} classic_decoder;

/* ---- diagnostics ---- */

static int report_error(classic_decoder *d, int code, uint64_t off, uint64_t line, const char *what)
{
	return pd_in_error_line(d->r, code, off, line, "ibm-classic: line %llu: %s",
	                        (unsigned long long)line, what);
}

/* A problem the permissive mode repairs: a warning, or in strict mode an error (returned). */
static int report_damage(classic_decoder *d, int code, uint64_t off, uint64_t line, const char *what)
{
	return pd_in_damage(d->r, d->mode, code, off, line, "ibm-classic: line %llu: %s", (unsigned long long)line,
	                    what);
}

/* ---- tables ---- */

/* Index of type `name` in *out, adding it when new. */
static int type_index(classic_decoder *d, const unsigned char *name, size_t len, size_t *out)
{
	uint32_t ix;
	int rc = pd_intern_put(&d->type_names, (const char *)name, len, &ix);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		type_info *t;
		if ((rc = pd_grow((void **)&d->types, &d->types_cap, (size_t)ix + 1, sizeof *d->types)) < 0)
			return rc;
		t = &d->types[ix];
		memset(t, 0, sizeof *t);
		t->kind = (uint8_t)pd_classic_type_kind((const char *)name, len, &t->elem);
	}
	*out = ix;
	return 0;
}

/* 1 when `id` was in the set, else adds it and returns 0; negative on error. */
static int id_seen(classic_decoder *d, uint64_t id)
{
	int rc;
	if (pd_map_get(&d->ids, id))
		return 1;
	if ((rc = pd_map_put(&d->ids, id, 1)) < 0)
		return rc;
	return 0;
}

/* Send the type's string (once) and a class_load for `id` (once per id). */
static int ensure_loaded(classic_decoder *d, size_t type, uint64_t id)
{
	type_info *t = &d->types[type];
	profdata_class_load cl;
	int rc;
	if (t->loaded_id == id)
		return 0;
	if ((rc = id_seen(d, id)) != 0) {
		if (rc > 0)
			t->loaded_id = id;
		return rc < 0 ? rc : 0;
	}
	t->loaded_id = id;
	if (!t->string_id) {
		t->string_id = ++d->next_string;
		size_t len;
		const char *name = pd_intern_str(&d->type_names, (uint32_t)type, &len);
		if (PD_EMIT(d->a, string, t->string_id, name, len))
			return PROFDATA_STOPPED;
	}
	memset(&cl, 0, sizeof cl);
	cl.serial = ++d->next_serial;
	cl.id = id;
	cl.name_id = t->string_id;
	if (PD_EMIT(d->a, class_load, &cl))
		return PROFDATA_STOPPED;
	return 0;
}

static int push_ref(classic_decoder *d, uint64_t v)
{
	if (PD_UNLIKELY(d->nrefs == d->refs_cap)) {
		int rc = pd_grow((void **)&d->refs, &d->refs_cap, d->nrefs + 1, sizeof *d->refs);
		if (rc < 0)
			return rc;
	}
	d->refs[d->nrefs++] = v;
	return 0;
}

/* ---- parsing ---- */

/*
 * Parse "0x<hex>" at *pp (at most 16 digits). Returns the digit count (0 when
 * not an address) and advances *pp.
 */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ONES 0x0101010101010101ULL
/*
 * Hex digits eight bytes at a time. Range checks on bytes below 0x80 cannot
 * carry across bytes; a byte of 0x80 or more is no digit, whatever its sums
 * carry into the next byte, and callers want all eight.
 */
/* The bytes of x that are hex digits, as their top bits (0x80). */
static inline uint64_t hex_bytes(uint64_t x)
{
	uint64_t digit = (x + ONES * (0x80 - '0')) & ~(x + ONES * (0x7F - '9'));
	uint64_t lower = x | (ONES * 0x20);
	uint64_t letter = (lower + ONES * (0x80 - 'a')) & ~(lower + ONES * (0x7F - 'f'));
	return (digit | letter) & ~x & (ONES * 0x80);
}

/* The value of eight hex digits (checked by hex_bytes), the first one highest. */
static inline uint32_t hex_value(uint64_t x)
{
	uint64_t v = (x & (ONES * 0x0F)) + ((x >> 6) & ONES) * 9;
	v = ((v & 0x0F000F000F000F00ULL) >> 8) | ((v & 0x000F000F000F000FULL) << 4);
	v = ((v & 0x00FF000000FF0000ULL) >> 16) | ((v & 0x000000FF000000FFULL) << 8);
	v = ((v & 0x0000FFFF00000000ULL) >> 32) | ((v & 0x000000000000FFFFULL) << 16);
	return (uint32_t)v;
}

/* Eight hex digits at p: 1 and *out when all are, else 0. */
static int hex8(const unsigned char *p, uint32_t *out)
{
	uint64_t x;
	memcpy(&x, p, 8);
	if (hex_bytes(x) != ONES * 0x80)
		return 0;
	*out = hex_value(x);
	return 1;
}

/* Sixteen hex digits at p, both halves checked at once: 1 and *out, else 0. */
static inline int hex16(const unsigned char *p, uint64_t *out)
{
	uint64_t x, y;
	memcpy(&x, p, 8);
	memcpy(&y, p + 8, 8);
	if ((hex_bytes(x) & hex_bytes(y)) != ONES * 0x80)
		return 0;
	*out = ((uint64_t)hex_value(x) << 32) | hex_value(y);
	return 1;
}

/*
 * The first space, tab or line feed in [p, end), or end: eight bytes at a
 * time (a type name is twenty or so). A line feed ends a name read from the
 * window rather than from a line (usual_record_line).
 */
static const unsigned char *blank_or_end(const unsigned char *p, const unsigned char *end)
{
	for (; end - p >= 8; p += 8) {
		uint64_t x, sp, tab, lf;
		memcpy(&x, p, 8);
		sp = x ^ (ONES * ' ');
		tab = x ^ (ONES * '\t');
		lf = x ^ (ONES * '\n');
		/* the lowest byte flagged is exact: a zero byte's borrow only flags bytes above it */
		uint64_t hit = ((sp - ONES) & ~sp) | ((tab - ONES) & ~tab) | ((lf - ONES) & ~lf);
		hit &= ONES * 0x80;
		if (hit)
			return p + (pd_ctz64(hit) >> 3);
	}
	while (p < end && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	return p;
}
#else
static int hex8(const unsigned char *p, uint32_t *out)
{
	uint32_t v = 0;
	unsigned bad = 0, h;
	int i;
	for (i = 0; i < 8; i++) {
		h = hexv[p[i]];
		bad |= h == 0;
		v = (v << 4) | ((h - 1) & 15);
	}
	*out = v;
	return !bad;
}

static int hex16(const unsigned char *p, uint64_t *out)
{
	uint32_t hi, lo;
	if (!hex8(p, &hi) || !hex8(p + 8, &lo))
		return 0;
	*out = ((uint64_t)hi << 32) | lo;
	return 1;
}

static const unsigned char *blank_or_end(const unsigned char *p, const unsigned char *end)
{
	while (p < end && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	return p;
}
#endif

static int parse_addr(const unsigned char **pp, const unsigned char *end, uint64_t *out)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	int n = 0;
	unsigned h;
	uint32_t lo;
	if (end - p < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return 0;
	/* Fast paths for the widths writers use: 16 and 8 digits. */
	if (end - p >= 18 && (end - p == 18 || !hexv[p[18]])) {
		if (hex16(p + 2, out)) {
			*pp = p + 18;
			return 16;
		}
	} else if (end - p >= 10 && (end - p == 10 || !hexv[p[10]])) {
		if (hex8(p + 2, &lo)) {
			*out = lo;
			*pp = p + 10;
			return 8;
		}
	}
	p += 2;
	while (p < end && (h = hexv[*p]) != 0) {
		if (++n > 16)
			return 0;
		v = (v << 4) | (h - 1);
		p++;
	}
	*out = v;
	*pp = p;
	return n;
}

/*
 * The addresses at p in the shape writers give them ("0x", sixteen digits and
 * a space each) onto d->refs while there is room; returns where that shape
 * stops. A tight loop: these are most of a dump's bytes.
 */
static const unsigned char *usual_items(classic_decoder *d, const unsigned char *p, const unsigned char *end,
                                        int *zero_style)
{
	uint64_t v;
	while (d->nrefs < d->refs_cap && end - p >= 19 && p[0] == '0' && p[1] == 'x' && p[18] == ' ' &&
	       hex16(p + 2, &v)) {
		if (v == 0 && zero_style)
			*zero_style |= 2;
		d->refs[d->nrefs++] = v;
		p += 19;
	}
	return p;
}

/*
 * Parse space-separated addresses in [p, end) onto d->refs. Returns 0, or -1
 * with *bad set to where the first thing that is not an address starts.
 * *zero_style gets 1 when a null was written "0x0", 2 for a zero-padded one.
 */
static int parse_items(classic_decoder *d, const unsigned char *p, const unsigned char *end, const unsigned char **bad,
                       int *zero_style)
{
	for (;;) {
		uint64_t v;
		const unsigned char *s;
		int n, rc;
		p = usual_items(d, p, end, zero_style); /* the general way below grows the list */
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			return 0;
		s = p;
		n = parse_addr(&p, end, &v);
		if (!n || (p < end && *p != ' ' && *p != '\t')) {
			*bad = s;
			return -1;
		}
		if (v == 0 && zero_style)
			*zero_style |= n == 1 ? 1 : 2;
		if ((rc = push_ref(d, v)) < 0) {
			*bad = NULL;
			return rc;
		}
	}
}

typedef struct record_line {
	uint64_t addr, size;
	int digits;
	int cls;
	const unsigned char *type;
	size_t type_len;
	const unsigned char *rest; /* after the type */
} record_line;

/* Parse "0x<hex> [<dec>] OBJ|CLS <type>" from the line; 0, or -1 with *bad. */
static int parse_record(const unsigned char *p, const unsigned char *end, record_line *rec, const unsigned char **bad)
{
	uint64_t v = 0;
	const unsigned char *s;
	if (end - p >= 19 && p[0] == '0' && p[1] == 'x' && p[18] == ' ' && hex16(p + 2, &rec->addr)) {
		rec->digits = 16; /* the usual shape, as usual_items reads it */
		p += 18;
	} else {
		rec->digits = parse_addr(&p, end, &rec->addr);
	}
	if (!rec->digits || end - p < 2 || p[0] != ' ' || p[1] != '[') {
		*bad = p;
		return -1;
	}
	p += 2;
	s = p;
	while (p < end && *p >= '0' && *p <= '9') {
		unsigned dg = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - dg) / 10) {
			*bad = s;
			return -1;
		}
		v = v * 10 + dg;
		p++;
	}
	if (p == s || end - p < 7 || p[0] != ']' || p[1] != ' ') {
		*bad = p;
		return -1;
	}
	rec->size = v;
	p += 2;
	if (memcmp(p, "OBJ ", 4) == 0)
		rec->cls = 0;
	else if (memcmp(p, "CLS ", 4) == 0)
		rec->cls = 1;
	else {
		*bad = p;
		return -1;
	}
	p += 4;
	s = p;
	p = blank_or_end(p, end);
	if (p == s) {
		*bad = p;
		return -1;
	}
	rec->type = s;
	rec->type_len = (size_t)(p - s);
	rec->rest = p;
	return 0;
}

static int is_blank(const unsigned char *p, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return 0;
	return 1;
}

/* ---- looking ahead ---- */

typedef struct lookahead_object {
	const unsigned char *type;
	size_t type_len;
	uint64_t first;
	int has_first;
	int prim;
} lookahead_object;

typedef struct lookahead_result {
	int word_size;
	int single_line;
	int zero_style;
	int classblock;
} lookahead_result;

/*
 * Look at the records at the start of a dump without consuming them: the
 * address width, the layout, how nulls are written, and whether the
 * reference lines start with the class-block address (IBM Java 6). That
 * variant is assumed when every object record seen has a first reference,
 * none of them null, and either a primitive array has one (other writers
 * give primitive arrays no references) or a null was written zero-padded
 * (other writers omit nulls or write "0x0"). Two classes of one name (two
 * class loaders) are legitimate there, so the first items need not agree.
 */
static int lookahead(classic_decoder *d, lookahead_result *res)
{
	lookahead_object *objs;
	size_t nobj = 0, i, pos;
	int rc, all_first = 1, prim_has = 0, rec_open = 0, obj_open = 0;
	size_t with_tab = 0, without_tab = 0, inline_refs = 0;
	size_t save_refs = d->nrefs;
	memset(res, 0, sizeof *res);
	if (!d->ln.at_eof && d->ln.len - d->ln.pos < LOOKAHEAD_BYTES && (rc = pd_lines_refill(&d->ln, LOOKAHEAD_BYTES)) < 0)
		return rc;
	objs = malloc(LOOKAHEAD_RECORDS * sizeof *objs);
	if (!objs)
		return PROFDATA_ENOMEM;
	pos = d->ln.pos;
	while (pos < d->ln.len && nobj < LOOKAHEAD_RECORDS) {
		const unsigned char *s = d->ln.win + pos, *nl, *e, *bad;
		record_line rec;
		nl = memchr(s, '\n', d->ln.len - pos);
		if (!nl && !d->ln.at_eof)
			break;
		e = nl ? nl : d->ln.win + d->ln.len;
		pos = (size_t)(e - d->ln.win) + 1;
		if (e > s && e[-1] == '\r')
			e--;
		if (e > s && s[0] == '\t') {
			d->nrefs = save_refs;
			/* as the main pass: the items before a malformed one count */
			if (parse_items(d, s + 1, e, &bad, &res->zero_style) >= -1 && obj_open &&
			    d->nrefs > save_refs && !objs[nobj - 1].has_first) {
				objs[nobj - 1].has_first = 1;
				objs[nobj - 1].first = d->refs[save_refs];
			}
			with_tab += rec_open;
			rec_open = obj_open = 0;
			continue;
		}
		without_tab += rec_open;
		rec_open = obj_open = 0;
		if (e - s >= 2 && s[0] == '/' && s[1] == '/')
			break;
		if (parse_record(s, e, &rec, &bad) < 0)
			continue;
		if (!res->word_size)
			res->word_size = rec.digits > 8 ? 8 : 4;
		d->nrefs = save_refs;
		if (parse_items(d, rec.rest, e, &bad, &res->zero_style) < 0)
			continue; /* the main pass drops such a record */
		if (d->nrefs > save_refs)
			inline_refs++;
		rec_open = 1;
		if (rec.cls)
			continue;
		objs[nobj].type = rec.type;
		objs[nobj].type_len = rec.type_len;
		objs[nobj].has_first = d->nrefs > save_refs;
		objs[nobj].first = objs[nobj].has_first ? d->refs[save_refs] : 0;
		{
			uint8_t elem;
			objs[nobj].prim = pd_classic_type_kind((const char *)rec.type, rec.type_len, &elem) ==
			                  PROFDATA_OBJECT_PRIM_ARRAY;
		}
		nobj++;
		obj_open = 1;
	}
	d->nrefs = save_refs;
	res->single_line = inline_refs > 0 || (without_tab > 0 && with_tab == 0);
	for (i = 0; i < nobj; i++) {
		if (!objs[i].has_first || objs[i].first == 0)
			all_first = 0;
		if (objs[i].prim && objs[i].has_first)
			prim_has = 1;
	}
	res->classblock = nobj >= 1 && all_first && (prim_has || (res->zero_style & 2));
	free(objs);
	return 0;
}

/*
 * Read the CLS records at the end of a stable input backwards (OpenJ9
 * writes them after all objects) so that types get their CLS address before
 * their first object. Also notes the spelling of the last trailer.
 */
static int scan_tail(classic_decoder *d)
{
	pd_blob *b = pd_in_blob(d->r);
	const unsigned char *data, *end;
	uint64_t size;
	if (!b)
		return 0;
	data = pd_blob_data(b);
	size = pd_blob_size(b);
	if (size > SIZE_MAX)
		return 0;
	end = data + size;
	while (end > data) {
		const unsigned char *e = end, *s;
		record_line rec;
		const unsigned char *bad;
		if (e[-1] == '\n')
			e--;
		s = e;
		while (s > data && s[-1] != '\n')
			s--;
		end = s;
		if (e > s && e[-1] == '\r')
			e--;
		if (e == s || s[0] == '\t' || is_blank(s, (size_t)(e - s)))
			continue;
		if (e - s >= 2 && s[0] == '/' && s[1] == '/') {
			pd_classic_trailer t;
			memset(&t, 0, sizeof t);
			if (pd_classic_parse_eof(s, (size_t)(e - s), &t) == 0) {
				if (d->tail_compact < 0)
					d->tail_compact = t.eof_compact; /* unless the Breakdown line says */
				continue;
			}
			if (pd_classic_parse_breakdown(s, (size_t)(e - s), &t) == 0) {
				d->tail_compact = t.bd_compact;
				continue;
			}
			break; /* a header or another comment: the last dump's start */
		}
		if (parse_record(s, e, &rec, &bad) < 0 || !rec.cls)
			break;
		if (rec.addr) {
			size_t ti;
			int rc = type_index(d, rec.type, rec.type_len, &ti);
			if (rc < 0)
				return rc;
			d->types[ti].class_id = rec.addr; /* the earliest one wins: we go backwards */
			if ((rc = pd_map_put(&d->claimed, rec.addr, 1)) < 0)
				return rc;
			if ((rc = pd_grow((void **)&d->tail, &d->tail_cap, d->ntail + 1, sizeof *d->tail)) < 0)
				return rc;
			d->tail[d->ntail].type = ti;
			d->tail[d->ntail++].addr = rec.addr;
		}
	}
	return 0;
}

/* ---- events ---- */

static int emit_begin(classic_decoder *d, const char *version, lookahead_result *la)
{
	profdata_meta m;
	profdata_kv kv[3];
	size_t n = 0;
	memset(&m, 0, sizeof m);
	m.format = "ibm-classic";
	m.version = version;
	m.word_size = (uint32_t)la->word_size;
	if (d->classblock)
		kv[n].key = PD_CLASSIC_KEY_STYLE, kv[n++].value = "classblock";
	else if ((la->zero_style & 1) || d->tail_compact > 0)
		kv[n].key = PD_CLASSIC_KEY_STYLE, kv[n++].value = "jdmpview", d->jdmpview = 1;
	if (d->ln.cr)
		kv[n].key = PD_CLASSIC_KEY_LINE_END, kv[n++].value = "crlf";
	if (la->single_line)
		kv[n].key = PD_CLASSIC_KEY_LAYOUT, kv[n++].value = "single-line";
	m.comments = n ? kv : NULL;
	m.ncomments = n;
	d->begun = 1;
	if (PD_EMIT(d->a, begin, &m))
		return PROFDATA_STOPPED;
	/* Classes in the order of their CLS records, so that a rewrite keeps it. */
	while (d->ntail) {
		int rc;
		d->ntail--;
		if ((rc = ensure_loaded(d, d->tail[d->ntail].type, d->tail[d->ntail].addr)) != 0)
			return rc;
	}
	return 0;
}

static int emit_dump_begin(classic_decoder *d, const unsigned char *header, size_t header_len)
{
	profdata_dump dump;
	if (d->ndumps == 0) {
		/* remember the first dump's header to compare later ones with */
		if (header && !(d->first_header = malloc(header_len + 1)))
			return PROFDATA_ENOMEM;
		if (header) {
			memcpy(d->first_header, header, header_len);
			d->first_header_len = header_len;
		}
	} else if (!header || !d->first_header || header_len != d->first_header_len ||
	           memcmp(header, d->first_header, header_len) != 0) {
		profdata_attachment at;
		char name[48];
		snprintf(name, sizeof name, "%s%d", PD_CLASSIC_ATT_HEADER, d->ndumps + 1);
		at.name = name;
		at.data = header ? (const void *)header : (const void *)"";
		at.len = header ? header_len : 0;
		if (PD_EMIT(d->a, attachment, &at))
			return PROFDATA_STOPPED;
	}
	memset(&dump, 0, sizeof dump);
	dump.kind = PROFDATA_DUMP_HEAP;
	memset(&d->cnt, 0, sizeof d->cnt);
	memset(&d->tr, 0, sizeof d->tr);
	d->trailer_len = 0;
	d->in_dump = 1;
	d->ndumps++;
	return PD_EMIT(d->a, dump_begin, &dump) ? PROFDATA_STOPPED : 0;
}

static int emit_pending(classic_decoder *d)
{
	type_info *t = &d->types[d->pend_type];
	const uint64_t *refs = d->refs;
	size_t n = d->nrefs, i;
	uint64_t class_id;
	int rc;
	d->pending = 0;
	d->nrefs = 0;
	if (d->pend_cls) {
		profdata_class_dump cd;
		if (!t->class_id)
			t->class_id = d->pend_addr;
		if ((rc = ensure_loaded(d, d->pend_type, d->pend_addr)) != 0)
			return rc;
		memset(&cd, 0, sizeof cd);
		cd.id = d->pend_addr;
		cd.size = d->pend_size;
		cd.refs = n ? refs : NULL; /* none: as a class without statics (and no empty list for the model) */
		cd.nrefs = n;
		d->cnt.classes++;
		for (i = 0; i < n; i++)
			d->cnt.zeros += refs[i] == 0;
		d->cnt.listed += n;
		{
			/* A later heap may repeat a class's CLS record (OpenJ9 writes every class into
			 * every heap's file): each dump has its own. Twice in one dump is an error. */
			if (pd_map_get(&d->dumped, cd.id) == (uint32_t)d->ndumps)
				return report_damage(d, PROFDATA_EFORMAT, d->pend_off, d->pend_line,
				                   "a second CLS record for the same address in one dump; dropped");
			if ((rc = pd_map_put(&d->dumped, cd.id, (uint32_t)d->ndumps)) < 0)
				return rc;
		}
		return PD_EMIT(d->a, class_dump, &cd) ? PROFDATA_STOPPED : 0;
	} else {
		profdata_object o;
		if (d->classblock && n && refs[0]) {
			class_id = refs[0];
			refs++;
			n--;
			d->cnt.cbitems++;
		} else {
			if (d->classblock) {
				rc = report_damage(d, PROFDATA_EFORMAT, d->pend_off, d->pend_line,
				                 "object without the class-block address its variant puts first");
				if (rc)
					return rc;
			}
			if (!t->class_id) {
				/* a hostile file may give a CLS record an odd address: skip the ids taken */
				while (pd_map_get(&d->claimed, d->next_synth) || pd_map_get(&d->ids, d->next_synth))
					d->next_synth += 2;
				t->class_id = d->next_synth;
				d->next_synth += 2;
			}
			class_id = t->class_id;
		}
		if ((rc = ensure_loaded(d, d->pend_type, class_id)) != 0)
			return rc;
		memset(&o, 0, sizeof o);
		o.id = d->pend_addr;
		o.class_id = class_id;
		o.kind = t->kind;
		o.elem_type = t->elem;
		o.size = d->pend_size;
		o.refs = refs;
		o.nrefs = n;
		switch (t->kind) {
		case PROFDATA_OBJECT_INSTANCE: d->cnt.objects++; break;
		case PROFDATA_OBJECT_ARRAY: d->cnt.arrays++; break;
		default: d->cnt.prims++; break;
		}
		for (i = 0; i < n; i++)
			d->cnt.zeros += refs[i] == 0;
		d->cnt.listed += n;
		return PD_EMIT(d->a, object, &o) ? PROFDATA_STOPPED : 0;
	}
}

static int flush(classic_decoder *d)
{
	return d->pending ? emit_pending(d) : 0;
}

static int keep_trailer_line(classic_decoder *d)
{
	size_t need = d->trailer_len + d->ln.ll + 1;
	int rc;
	if ((rc = pd_grow((void **)&d->trailer_text, &d->trailer_cap, need, 1)) < 0)
		return rc;
	if (d->trailer_len)
		d->trailer_text[d->trailer_len++] = '\n';
	memcpy(d->trailer_text + d->trailer_len, d->ln.ls, d->ln.ll);
	d->trailer_len += d->ln.ll;
	return 0;
}

/* Compare the trailer with what was read. */
static int check_trailer(classic_decoder *d)
{
	const pd_classic_trailer *t = &d->tr;
	const record_counts *c = &d->cnt;
	char msg[256];
	if (t->has_breakdown &&
	    (t->classes != c->classes || t->objects != c->objects || t->arrays != c->arrays || t->prims != c->prims)) {
		snprintf(msg, sizeof msg,
		         "the breakdown states %llu classes, %llu objects, %llu object arrays, %llu primitive arrays; "
		         "the dump has %llu, %llu, %llu, %llu",
		         (unsigned long long)t->classes, (unsigned long long)t->objects, (unsigned long long)t->arrays,
		         (unsigned long long)t->prims, (unsigned long long)c->classes, (unsigned long long)c->objects,
		         (unsigned long long)c->arrays, (unsigned long long)c->prims);
		return report_damage(d, PROFDATA_EFORMAT, d->bd_off, d->bd_line, msg);
	}
	if (t->has_eof) {
		uint64_t total = c->classes + c->objects + c->arrays + c->prims;
		uint64_t nonnull = c->listed - c->zeros;
		int ok = t->total == total && t->refs >= t->nulls && t->nulls >= c->zeros &&
		         (t->refs - t->nulls == nonnull || t->refs - t->nulls == nonnull + c->cbitems);
		if (!ok) {
			snprintf(msg, sizeof msg,
			         "the EOF line states %llu records and %llu references (%llu null); the dump has %llu "
			         "records and %llu non-null references",
			         (unsigned long long)t->total, (unsigned long long)t->refs, (unsigned long long)t->nulls,
			         (unsigned long long)total, (unsigned long long)nonnull);
			return report_damage(d, PROFDATA_EFORMAT, d->tr_off, d->tr_line, msg);
		}
	}
	return 0;
}

/* Close the open dump; `complete` when its EOF line was just read. */
static int close_dump(classic_decoder *d, int complete)
{
	int rc;
	if ((rc = flush(d)) != 0)
		return rc;
	if (!complete) {
		char msg[160];
		snprintf(msg, sizeof msg, "dump %d ends without its %s trailer line; keeping the %llu records read",
		         d->ndumps, d->tr.has_breakdown ? "EOF" : "Breakdown and EOF",
		         (unsigned long long)(d->cnt.classes + d->cnt.objects + d->cnt.arrays + d->cnt.prims));
		if ((rc = report_damage(d, PROFDATA_ETRUNCATED, d->last_off, d->last_line, msg)) != 0)
			return rc;
	}
	if ((rc = check_trailer(d)) != 0)
		return rc;
	if (d->trailer_len) {
		/* Only what the encoder would not write by itself from the records. */
		char def[512], name[48];
		const record_counts *c = &d->cnt;
		int n = pd_classic_format_trailer(def, sizeof def, d->jdmpview, c->classes, c->objects, c->arrays,
		                                  c->prims, c->listed + c->cbitems, c->zeros);
		if (n < 0 || (size_t)n != d->trailer_len || memcmp(def, d->trailer_text, d->trailer_len) != 0) {
			profdata_attachment at;
			snprintf(name, sizeof name, "%s%d", PD_CLASSIC_ATT_TRAILER, d->ndumps);
			at.name = name;
			at.data = d->trailer_text;
			at.len = d->trailer_len;
			if (PD_EMIT(d->a, attachment, &at))
				return PROFDATA_STOPPED;
		}
	}
	d->in_dump = 0;
	return PD_EMIT0(d->a, dump_end) ? PROFDATA_STOPPED : 0;
}

/* The first dump's start: look ahead and send begin. version may be NULL. */
static int start_file(classic_decoder *d, const char *version)
{
	lookahead_result la;
	int rc = lookahead(d, &la);
	if (rc < 0)
		return rc;
	if (d->force_variant >= 0)
		d->classblock = d->force_variant;
	else
		d->classblock = la.classblock;
	return emit_begin(d, version, &la);
}

static int on_header(classic_decoder *d)
{
	int rc;
	const unsigned char *v = d->ln.ls + 11;
	size_t vl = d->ln.ll - 11;
	if (vl && *v == ' ')
		v++, vl--;
	if ((rc = flush(d)) != 0)
		return rc;
	if (!d->begun) {
		char *ver = malloc(vl + 1);
		if (!ver)
			return PROFDATA_ENOMEM;
		memcpy(ver, v, vl);
		ver[vl] = 0;
		rc = start_file(d, ver);
		if (rc == 0) {
			/* the window may have moved: rebuild the header line from the version */
			size_t hl = 12 + vl;
			unsigned char *h = malloc(hl);
			if (!h) {
				free(ver);
				return PROFDATA_ENOMEM;
			}
			memcpy(h, "// Version: ", 12);
			memcpy(h + 12, ver, vl);
			rc = emit_dump_begin(d, h, hl);
			free(h);
		}
		free(ver);
		return rc;
	}
	if (d->in_dump && (rc = close_dump(d, 0)) != 0)
		return rc;
	return emit_dump_begin(d, d->ln.ls, d->ln.ll);
}

/*
 * The type of the record being read into d->pend_type. Half the records of a
 * dump name the type of the record before them (an object and its array, a
 * run of one class): those are compared, not hashed.
 */
static int record_type(classic_decoder *d, const unsigned char *name, size_t len)
{
	size_t last_len, i = 0;
	const unsigned char *last;
	if (d->pend_type >= d->type_names.n)
		return type_index(d, name, len, &d->pend_type);
	last = (const unsigned char *)pd_intern_str(&d->type_names, (uint32_t)d->pend_type, &last_len);
	if (last_len != len)
		return type_index(d, name, len, &d->pend_type);
	/* by words, the last one overlapping: no call to memcmp for a name's few bytes */
	for (; i + 8 < len; i += 8)
		if (pd_hash_load(last + i, 8) != pd_hash_load(name + i, 8))
			return type_index(d, name, len, &d->pend_type);
	if (len >= 8 ? pd_hash_load(last + len - 8, 8) == pd_hash_load(name + len - 8, 8)
	             : memcmp(last, name, len) == 0)
		return 0;
	return type_index(d, name, len, &d->pend_type);
}

/* The record just read is the pending one; its references so far are d->refs. */
static void set_pending(classic_decoder *d, const record_line *rec)
{
	d->pending = 1;
	d->pend_cls = rec->cls;
	d->pend_addr = rec->addr;
	d->pend_size = rec->size;
	d->pend_line = d->ln.lineno;
	d->pend_off = d->ln.loff;
}

static int on_record(classic_decoder *d)
{
	record_line rec;
	const unsigned char *bad = NULL, *end = d->ln.ls + d->ln.ll;
	int rc;
	if (d->ln.no_nl)
		return report_damage(d, PROFDATA_ETRUNCATED, d->ln.loff + d->ln.ll, d->ln.lineno,
		                   "the input ends inside a record line; the record is dropped");
	if (parse_record(d->ln.ls, end, &rec, &bad) < 0 || rec.addr == 0) {
		uint64_t off = d->ln.loff + (uint64_t)((bad ? bad : d->ln.ls) - d->ln.ls);
		if (d->ln.no_nl)
			return report_damage(d, PROFDATA_ETRUNCATED, off, d->ln.lineno, "the last record is cut short; dropped");
		return report_damage(d, PROFDATA_EFORMAT, off, d->ln.lineno,
		                   rec.addr == 0 && !bad ? "a record at address 0; dropped" : "malformed record line; dropped");
	}
	if (!d->in_dump && (rc = emit_dump_begin(d, NULL, 0)) != 0)
		return rc;
	if ((rc = record_type(d, rec.type, rec.type_len)) < 0)
		return rc;
	d->nrefs = 0;
	rc = parse_items(d, rec.rest, end, &bad, NULL);
	if (rc) {
		if (rc != -1)
			return rc;
		d->nrefs = 0;
		rc = report_damage(d, PROFDATA_EFORMAT, d->ln.loff + (uint64_t)(bad - d->ln.ls), d->ln.lineno,
		                 "malformed reference on a record line; record dropped");
		return rc;
	}
	set_pending(d, &rec);
	return 0;
}

static int on_refs(classic_decoder *d)
{
	const unsigned char *bad = NULL, *end = d->ln.ls + d->ln.ll;
	size_t keep = d->nrefs;
	int rc;
	if (!d->pending)
		return report_damage(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno, "a reference line without a record; ignored");
	if (d->ln.no_nl && d->ln.ll > 1 && end[-1] != ' ') {
		/* Cut short: every reference is followed by a space, so the last one may be partial. */
		const unsigned char *p = end;
		while (p > d->ln.ls + 1 && p[-1] != ' ' && p[-1] != '\t')
			p--;
		rc = report_damage(d, PROFDATA_ETRUNCATED, d->ln.loff + (uint64_t)(p - d->ln.ls), d->ln.lineno,
		                 "the input ends inside a reference line; its last reference is dropped");
		if (rc)
			return rc;
		end = p;
	}
	rc = parse_items(d, d->ln.ls + 1, end, &bad, NULL);
	if (rc == 0)
		return 0;
	if (rc != -1)
		return rc;
	rc = report_damage(d, PROFDATA_EFORMAT, d->ln.loff + (uint64_t)(bad - d->ln.ls), d->ln.lineno,
	                 "malformed reference; the rest of the line is ignored");
	(void)keep;
	return rc;
}

static int on_comment(classic_decoder *d)
{
	int rc;
	if (d->ln.ll >= 11 && memcmp(d->ln.ls, "// Version:", 11) == 0)
		return on_header(d);
	if ((rc = flush(d)) != 0)
		return rc;
	if (!d->in_dump && ((d->ln.ll >= 14 && memcmp(d->ln.ls, "// Breakdown -", 14) == 0) ||
	                    (d->ln.ll >= 7 && memcmp(d->ln.ls, "// EOF:", 7) == 0))) {
		/* A trailer right after a trailer: an empty dump without header. */
		if ((rc = emit_dump_begin(d, NULL, 0)) != 0)
			return rc;
	}
	if (d->ln.ll >= 14 && memcmp(d->ln.ls, "// Breakdown -", 14) == 0) {
		if (pd_classic_parse_breakdown(d->ln.ls, d->ln.ll, &d->tr) < 0)
			return report_damage(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno, "malformed Breakdown line; ignored");
		d->bd_line = d->ln.lineno;
		d->bd_off = d->ln.loff;
		return keep_trailer_line(d);
	}
	if (d->ln.ll >= 7 && memcmp(d->ln.ls, "// EOF:", 7) == 0) {
		if (pd_classic_parse_eof(d->ln.ls, d->ln.ll, &d->tr) < 0) {
			rc = report_damage(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno, "malformed EOF line; ignored");
			return rc;
		}
		if ((rc = keep_trailer_line(d)) < 0)
			return rc;
		if (!d->tr.has_breakdown) {
			rc = report_damage(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno, "an EOF line without a Breakdown line");
			if (rc)
				return rc;
		}
		d->tr_line = d->ln.lineno;
		d->tr_off = d->ln.loff;
		return close_dump(d, 1);
	}
	return report_damage(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno, "unknown comment line; ignored");
}

static void decoder_free(classic_decoder *d)
{
	pd_intern_free(&d->type_names);
	pd_map_free(&d->ids);
	pd_map_free(&d->dumped);
	pd_map_free(&d->claimed);
	PD_FREE_ALL(d->types, d->refs, d->trailer_text, d->first_header, d->tail);
}

/*
 * The next line when it is a reference line of the usual shape, parsed where
 * it lies, its end found by the parse instead of a search: 1 when it was
 * (the line state set as next_line sets it), else 0 and nothing read.
 */
/* Line [s, nl) of the window, nl its line feed, is the current line: the state next_line sets. */
static void take_line(classic_decoder *d, const unsigned char *s, const unsigned char *nl)
{
	d->ln.loff = d->ln.win_off + d->ln.pos;
	d->ln.ls = s;
	d->ln.ll = (size_t)(nl - s);
	d->ln.pos += d->ln.ll + 1;
	d->ln.no_nl = 0;
	d->ln.cr = 0;
	d->ln.lineno++;
	d->last_line = d->ln.lineno;
	d->last_off = d->ln.loff + d->ln.ll;
}

static int usual_ref_line(classic_decoder *d)
{
	const unsigned char *s = d->ln.win + d->ln.pos, *end = d->ln.win + d->ln.len, *p;
	size_t keep = d->nrefs;
	if (!d->pending || d->ln.pos >= SKIP_BYTES || d->ln.pos == d->ln.len || s[0] != '\t')
		return 0;
	p = usual_items(d, s + 1, end, NULL);
	if (p == end || *p != '\n') {
		d->nrefs = keep;
		return 0;
	}
	take_line(d, s, p);
	return 1;
}

/*
 * The next line when it is a record line of the usual shape (a valid record
 * whose line ends after its type), read where it lies as usual_ref_line
 * reads reference lines: *taken 1 when it was and is now the pending
 * record. Returns 0, or what emitting the record before it returned.
 */
static int usual_record_line(classic_decoder *d, int *taken)
{
	const unsigned char *s = d->ln.win + d->ln.pos, *end = d->ln.win + d->ln.len, *bad;
	record_line rec;
	int rc;
	*taken = 0;
	if (!d->in_dump || d->ln.pos >= SKIP_BYTES || d->ln.pos == d->ln.len || s[0] != '0')
		return 0;
	if (parse_record(s, end, &rec, &bad) < 0 || rec.addr == 0 || rec.rest == end || rec.rest[0] != '\n' ||
	    rec.rest[-1] == '\r')
		return 0;
	take_line(d, s, rec.rest);
	if ((rc = flush(d)) != 0 || (rc = record_type(d, rec.type, rec.type_len)) < 0)
		return rc;
	d->nrefs = 0;
	set_pending(d, &rec);
	*taken = 1;
	return 0;
}

static int run(classic_decoder *d)
{
	int rc;
	d->ln.r = d->r;
	d->ln.name = "ibm-classic";
	d->ln.stable = pd_in_blob(d->r) != NULL;
	if ((rc = scan_tail(d)) < 0)
		return rc;
	if ((rc = pd_lines_refill(&d->ln, WIN_BYTES)) < 0)
		return rc;
	for (;;) {
		unsigned char c;
		int taken;
		if (usual_ref_line(d))
			continue;
		if ((rc = usual_record_line(d, &taken)) != 0)
			return rc;
		if (taken)
			continue;
		rc = pd_lines_next(&d->ln);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
		c = d->ln.ll ? d->ln.ls[0] : 0;
		if (c == '\t') {
			if ((rc = on_refs(d)) != 0)
				return rc;
		} else if (c == '0') {
			if ((rc = flush(d)) != 0)
				return rc;
			if (!d->begun) {
				rc = report_damage(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno,
				                 "no \"// Version:\" header before the first record");
				if (rc)
					return rc;
				/* look ahead from this line on, then read it again */
				d->ln.pos = (size_t)(d->ln.ls - d->ln.win);
				d->ln.lineno--;
				if ((rc = start_file(d, NULL)) != 0 || (rc = emit_dump_begin(d, NULL, 0)) != 0)
					return rc;
				continue;
			}
			if ((rc = on_record(d)) != 0)
				return rc;
		} else if (c == '/' && d->ln.ll >= 2 && d->ln.ls[1] == '/') {
			if (!d->begun && !(d->ln.ll >= 11 && memcmp(d->ln.ls, "// Version:", 11) == 0))
				return report_error(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno,
				                 "not an IBM classic heapdump: no \"// Version:\" header");
			if ((rc = on_comment(d)) != 0)
				return rc;
		} else if (is_blank(d->ln.ls, d->ln.ll)) {
			continue;
		} else {
			if (!d->begun)
				return report_error(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno,
				                 "not an IBM classic heapdump: no \"// Version:\" header");
			if ((rc = flush(d)) != 0)
				return rc;
			if ((rc = report_damage(d, PROFDATA_EFORMAT, d->ln.loff, d->ln.lineno, "unrecognised line; ignored")) != 0)
				return rc;
		}
		d->last_line = d->ln.lineno;
		d->last_off = d->ln.loff + d->ln.ll;
	}
	if (!d->begun)
		return report_error(d, PROFDATA_EFORMAT, 0, 1, "not an IBM classic heapdump: the input is empty");
	if (d->in_dump && (rc = close_dump(d, 0)) != 0)
		return rc;
	pd_lines_finish(&d->ln);
	return PD_EMIT0(d->a, end) ? PROFDATA_STOPPED : 0;
}

int pd_classic_decode(const pd_decode_args *a)
{
	classic_decoder d;
	const char *v;
	int rc;
	memset(&d, 0, sizeof d);
	d.a = a;
	d.r = a->in;
	d.mode = a->mode;
	d.next_synth = 1;
	d.force_variant = -1;
	d.tail_compact = -1;
	v = a->opts ? pd_options_get(a->opts, "variant") : NULL;
	if (v && strcmp(v, "auto") != 0) {
		if (strcmp(v, "classblock") == 0)
			d.force_variant = 1;
		else if (strcmp(v, "openj9") == 0 || strcmp(v, "jdmpview") == 0)
			d.force_variant = 0;
		else
			return pd_in_error(d.r, PROFDATA_EINVAL, PD_NO_OFFSET,
			                   "ibm-classic: variant must be auto, openj9, jdmpview or classblock, not \"%s\"", v);
	}
	rc = run(&d);
	decoder_free(&d);
	return rc;
}
