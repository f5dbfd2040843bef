/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IBM classic (text) heapdump encoder.
 *
 * Streams: each object is written when its event arrives; only the CLS
 * records (small, written after the objects as OpenJ9 does) and objects
 * whose class layout has not been seen yet are held until dump_end.
 *
 * Objects with explicit references (classic input) are written as given. For
 * objects with HPROF payloads the references are decoded: object array
 * elements, and the instance fields of type object through the class
 * layout (the class's fields, then its superclass's, up to the root). Nulls
 * are counted for the EOF line; OpenJ9 does not print them, jdmpview prints
 * "0x0". Sizes: the stated size when there is one, else VisualVM's shallow
 * size as profdata_profile_object_size() computes it: an instance is its
 * class's instance size plus two identifiers, an array two identifiers plus 4
 * plus its elements. A class's CLS size is the stated one, else two
 * identifiers plus its static fields.
 *
 * doc/formats-classic.md has the whole mapping.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classic.h"
#include "jvm/jvm.h"
#include "util/hashmap.h"
#include "util/numtext.h"

typedef struct enc_class {
	uint64_t id;
	char *name; /* internal form; NULL until loaded */
	size_t name_len;
	int name_kind; /* pd_classic_type_kind of the name: what the trailer counts it as */
	int has_dump;
	uint64_t super_id;
	uint32_t instance_size;
	uint8_t *field_types; /* own instance fields of its first dump, in record order */
	size_t nfields;
	/* flattened layout: offsets of object fields; layout_state 0 not computed, 1 ok */
	int layout_state; /* -1 when the chain is cyclic or holds a field of no basic type */
	uint32_t *ref_offs;
	size_t nref_offs;
	uint64_t prim_bytes; /* primitive field bytes along the chain */
} enc_class;

/* A class dump of the open dump: a CLS record to write at its end. */
typedef struct enc_cls_rec {
	size_t ci;
	uint64_t size;            /* stated (classic) or 0 */
	size_t refs_off, nrefs;   /* into cpool: explicit references, or the object statics (nulls included) */
	int derived;              /* the references are the object statics */
	uint64_t statics_bytes;   /* primitive static fields */
} enc_cls_rec;

typedef struct enc_counts {
	uint64_t classes, objects, arrays, prims;
	uint64_t listed, zeros, hidden, cbitems;
} enc_counts;

/* An object held until its class layout is known. */
typedef struct enc_held {
	profdata_object o;
	size_t data_off, refs_off; /* into held_bytes */
	int has_refs;
} enc_held;

typedef struct classic_encoder {
	pd_dropped dropped; /* first: the core counts what the format has no place for (classic_ops.drops) */
	profdata_writer *w;
	int failed;

	/* options */
	int style, style_set;
	unsigned word_size;
	int ws_set;
	int crlf, crlf_set;
	int single, single_set;

	/* meta */
	int begun, from_classic, has_version;
	char *version;
	char *source;
	unsigned id_size;

	/* strings: id -> index + 1 into strs */
	pd_map str_ix;
	pd_intern strs;

	/* classes: id -> index + 1 into classes; the last object's class, found without a lookup
	 * for the half of the objects whose class is their predecessor's (a class's index never changes) */
	pd_map class_ix;
	uint64_t last_class_id;
	size_t last_ci;
	enc_class *classes;
	size_t nclasses, classes_cap;

	/* attachments from a classic source, oldest first */
	struct enc_att { int trailer, dump; char *text; } *atts;
	size_t natts, atts_cap;

	/* the open dump */
	int in_dump, ndumps;
	enc_counts cnt;
	enc_cls_rec *recs; /* class dumps of this dump, in order */
	size_t nrecs, recs_cap;
	uint64_t *cpool;
	size_t ncpool, cpool_cap;
	enc_held *held;
	size_t nheld, held_cap;
	unsigned char *held_bytes;
	size_t held_len, held_cap2;

	/* what decides VisualVM's sizes (jvm/jvm.h), and what they decide until a class dump adds to them */
	pd_jvm_hints hints;
	pd_jvm_sizes sizes;
	int sizes_known;

	/* the classes of primitive arrays without a class id, for the class-block style */
	uint64_t prim_class[16];
	size_t prim_scanned[16];

	/* scratch */
	uint64_t *refs;
	size_t refs_cap;

	/* what cannot be written */
	uint64_t prim_refs;
	uint64_t dropped_roots, dropped_other, unnamed, wide, no_layout;
	int warned_names;
} classic_encoder;

/* What a reference token takes at most: a separator, "0x" and 16 digits. */
#define REF_TOKEN_MAX 19
/* References formatted per output reservation: a long array needs no buffer of its size. */
#define REFS_PER_RESERVE 1024

/* ---- output ---- */

static int put(classic_encoder *e, const void *p, size_t n)
{
	int rc = pd_out_write(e->w, p, n);
	if (rc < 0)
		e->failed = 1;
	return rc < 0 ? rc : 0;
}

static int put_eol(classic_encoder *e)
{
	return e->crlf ? put(e, "\r\n", 2) : put(e, "\n", 1);
}

static size_t fmt_eol(const classic_encoder *e, unsigned char *b)
{
	size_t n = 0;
	if (e->crlf)
		b[n++] = '\r';
	b[n++] = '\n';
	return n;
}

/* Write "0x" and v in upper-case hex, at least `width` digits. Returns the bytes written to b. */
static size_t fmt_hex(unsigned char *b, uint64_t v, unsigned width)
{
	b[0] = '0';
	b[1] = 'x';
	if (width == 16) {
		pd_put_hex16(b + 2, v);
		return 18;
	}
	return 2 + pd_put_hex(b + 2, v, width);
}

/* A reference token with its separator: nulls as "0x0" (padded in the class-block style). */
static size_t fmt_ref(const classic_encoder *e, unsigned char *b, uint64_t v)
{
	size_t n = e->single;
	b[0] = ' ';
	if (v == 0 && e->style != PD_CLASSIC_CLASSBLOCK)
		n += fmt_hex(b + n, 0, 1);
	else
		n += fmt_hex(b + n, v, e->word_size * 2);
	if (!e->single)
		b[n++] = ' ';
	return n;
}

/* ---- strings and classes ---- */

static int find_class(const classic_encoder *e, uint64_t id, size_t *out)
{
	uint32_t v = id ? pd_map_get(&e->class_ix, id) : 0;
	if (!v)
		return 0;
	*out = v - 1;
	return 1;
}

static int class_for(classic_encoder *e, uint64_t id, size_t *out)
{
	int rc;
	if (find_class(e, id, out))
		return 0;
	if (e->nclasses >= UINT32_MAX - 1)
		return PROFDATA_ELIMIT;
	if ((rc = pd_grow((void **)&e->classes, &e->classes_cap, e->nclasses + 1, sizeof *e->classes)) < 0)
		return rc;
	memset(&e->classes[e->nclasses], 0, sizeof *e->classes);
	e->classes[e->nclasses].id = id;
	if ((rc = pd_map_put(&e->class_ix, id, (uint32_t)e->nclasses + 1)) < 0)
		return rc;
	*out = e->nclasses++;
	return 0;
}

static int do_begin(void *payload, const profdata_meta *m)
{
	classic_encoder *e = payload;
	size_t i;
	e->begun = 1;
	e->from_classic = m->format && strcmp(m->format, "ibm-classic") == 0;
	e->has_version = m->version != NULL;
	if (m->version && !(e->version = strdup(m->version)))
		return PROFDATA_ENOMEM;
	if (m->format && !(e->source = strdup(m->format)))
		return PROFDATA_ENOMEM;
	e->id_size = m->id_size;
	e->sizes_known = 0;
	if (!e->ws_set)
		e->word_size = m->word_size == 4 || m->word_size == 8 ? m->word_size
		               : m->id_size == 4 || m->id_size == 8 ? m->id_size : 8;
	for (i = 0; i < m->ncomments && e->from_classic; i++) {
		const char *k = m->comments[i].key, *v = m->comments[i].value;
		if (!k || !v)
			continue;
		if (!e->style_set && strcmp(k, PD_CLASSIC_KEY_STYLE) == 0)
			e->style = strcmp(v, "jdmpview") == 0 ? PD_CLASSIC_JDMPVIEW
			           : strcmp(v, "classblock") == 0 ? PD_CLASSIC_CLASSBLOCK : PD_CLASSIC_OPENJ9;
		else if (!e->crlf_set && strcmp(k, PD_CLASSIC_KEY_LINE_END) == 0)
			e->crlf = strcmp(v, "crlf") == 0;
		else if (!e->single_set && strcmp(k, PD_CLASSIC_KEY_LAYOUT) == 0)
			e->single = strcmp(v, "single-line") == 0;
	}
	return 0;
}

static int do_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	classic_encoder *e = payload;
	uint32_t index;
	if (!id || pd_map_get(&e->str_ix, id))
		return 0; /* the first definition wins, as in the model */
	if (len > UINT32_MAX || e->strs.n >= UINT32_MAX - 1)
		return PROFDATA_ELIMIT;
	int rc = pd_intern_put(&e->strs, utf8, len, &index);
	if (rc < 0 || (rc = pd_map_put(&e->str_ix, id, index + 1)) < 0)
		return rc;
	return 0;
}

/* String `id`, NULL when the input gave none; *len its length when not NULL. */
static const char *string_of(const classic_encoder *e, uint64_t id, size_t *len)
{
	uint32_t v = id ? pd_map_get(&e->str_ix, id) : 0;
	return v ? pd_intern_str(&e->strs, v - 1, len) : NULL;
}

static const char *static_name(const void *table, uint64_t id)
{
	return string_of(table, id, NULL);
}

/*
 * Store `name` as the class's name in internal form (names from other formats
 * may be in source form; a classic source's are written as they were read);
 * whitespace becomes '_'.
 */
static int set_name(classic_encoder *e, enc_class *c, const char *name, size_t len)
{
	size_t n = e->from_classic ? len : profdata_internal_name(name, len, NULL, 0), i;
	char *s = malloc(n + 1);
	if (!s)
		return PROFDATA_ENOMEM;
	if (e->from_classic) {
		memcpy(s, name, len);
		s[len] = 0;
	} else {
		profdata_internal_name(name, len, s, n + 1);
	}
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] <= ' ') {
			s[i] = '_';
			if (!e->warned_names) {
				e->warned_names = 1;
				pd_out_warn(e->w, "ibm-classic: class names with spaces or control characters: written with '_'");
			}
		}
	}
	if (n == 0) {
		free(s);
		return 0;
	}
	free(c->name);
	c->name = s;
	c->name_len = n;
	{
		uint8_t elem;
		c->name_kind = pd_classic_type_kind(s, n, &elem);
	}
	return 0;
}

static int do_class_load(void *payload, const profdata_class_load *cl)
{
	classic_encoder *e = payload;
	size_t ci, len;
	const char *name;
	int rc;
	if (!cl->id)
		return 0;
	if ((rc = class_for(e, cl->id, &ci)) < 0)
		return rc;
	if (e->classes[ci].name)
		return 0;
	if ((name = string_of(e, cl->name_id, &len)) != NULL)
		return set_name(e, &e->classes[ci], name, len);
	return 0;
}

static int do_class_dump(void *payload, const profdata_class_dump *cd)
{
	classic_encoder *e = payload;
	enc_class *c;
	size_t ci, i;
	unsigned ids = e->id_size ? e->id_size : 8;
	int rc;
	if (!cd->id)
		return 0;
	if ((rc = class_for(e, cd->id, &ci)) < 0)
		return rc;
	c = &e->classes[ci];
	if (!c->has_dump) {
		/* the layout and the size hints come from a class's first dump, as in the model */
		c->has_dump = 1;
		c->super_id = cd->super_id;
		c->instance_size = cd->instance_size;
		if (cd->nfields) {
			if (!(c->field_types = malloc(cd->nfields)))
				return PROFDATA_ENOMEM;
			for (i = 0; i < cd->nfields; i++)
				c->field_types[i] = cd->fields[i].type;
			c->nfields = cd->nfields;
		}
		pd_jvm_note_class(&e->hints, c->name, cd->super_id, cd->instance_size, cd->statics, cd->nstatics,
		                  static_name, e);
		e->sizes_known = 0;
	}
	if (!e->in_dump)
		return 0;
	/* every class dump of a dump is a CLS record of it (a class may be dumped in each) */
	{
		enc_cls_rec *r;
		size_t n = 0;
		if (cd->refs)
			n = cd->nrefs;
		else
			for (i = 0; i < cd->nstatics; i++)
				n += cd->statics[i].type == PROFDATA_TYPE_OBJECT;
		if ((rc = pd_grow((void **)&e->recs, &e->recs_cap, e->nrecs + 1, sizeof *e->recs)) < 0 ||
		    (rc = pd_grow((void **)&e->cpool, &e->cpool_cap, e->ncpool + n, sizeof *e->cpool)) < 0)
			return rc;
		r = &e->recs[e->nrecs++];
		memset(r, 0, sizeof *r);
		r->ci = ci;
		r->size = cd->size;
		r->refs_off = e->ncpool;
		if (cd->refs) {
			if (n)
				memcpy(e->cpool + e->ncpool, cd->refs, n * sizeof *e->cpool);
			e->ncpool += n;
		} else {
			r->derived = 1;
			for (i = 0; i < cd->nstatics; i++) {
				if (cd->statics[i].type == PROFDATA_TYPE_OBJECT)
					e->cpool[e->ncpool++] = cd->statics[i].value;
				else
					r->statics_bytes += pd_jvm_type_size(cd->statics[i].type, ids);
			}
		}
		r->nrefs = e->ncpool - r->refs_off;
	}
	return 0;
}

/* The encoder's classes as the JVM module's layout flattening reads them. */
static int class_fields_view(const void *table, uint64_t class_id, pd_jvm_class_view *v)
{
	const classic_encoder *e = table;
	size_t ci;
	if (!find_class(e, class_id, &ci) || !e->classes[ci].has_dump)
		return 0;
	v->fields = NULL;
	v->types = e->classes[ci].field_types;
	v->nfields = e->classes[ci].nfields;
	v->super_id = e->classes[ci].super_id;
	return 1;
}

/*
 * The offsets of the object fields of instances of class ci. 1 when known,
 * 0 when a class of the chain has no dump yet, negative on a cycle or a
 * field of no basic type.
 */
static int layout(classic_encoder *e, size_t ci)
{
	enc_class *c = &e->classes[ci];
	pd_jvm_layout l;
	if (c->layout_state)
		return c->layout_state == 1 ? 1 : PROFDATA_EFORMAT;
	memset(&l, 0, sizeof l);
	l.want_offsets = 1;
	int st = pd_jvm_flatten(&l, c->id, e->id_size ? e->id_size : 8, e->nclasses, class_fields_view, e);
	if (st == 1 && l.bad_type)
		st = PROFDATA_EFORMAT;
	if (st != 1) {
		pd_jvm_layout_free(&l);
		if (st == PROFDATA_EFORMAT)
			c->layout_state = -1;
		return st;
	}
	c->ref_offs = l.ref_offsets;
	c->nref_offs = l.nrefs;
	c->prim_bytes = l.prim_bytes;
	c->layout_state = 1;
	return 1;
}

/* The sizes VisualVM would give, decided once per change of the hints: objects outnumber class dumps. */
static const pd_jvm_sizes *sizes(classic_encoder *e)
{
	if (!e->sizes_known) {
		pd_jvm_decide(e->id_size ? e->id_size : 8, &e->hints, &e->sizes);
		e->sizes_known = 1;
	}
	return &e->sizes;
}

/* The name of class `c` (NULL: not known), whose id is `id`. */
static const char *class_name(classic_encoder *e, const enc_class *c, uint64_t id, size_t *len, char *buf,
                              size_t buf_len)
{
	if (c && c->name) {
		*len = c->name_len;
		return c->name;
	}
	e->unnamed++;
	*len = (size_t)snprintf(buf, buf_len, "unknown/0x%llX", (unsigned long long)id);
	return buf;
}

static int need_refs(classic_encoder *e, size_t n)
{
	return pd_grow((void **)&e->refs, &e->refs_cap, n, sizeof *e->refs);
}

/* References refs[0, k) as tokens at b; *zeros counts the nulls. Returns the bytes written. */
static size_t fmt_refs(const classic_encoder *e, unsigned char *b, const uint64_t *refs, size_t k, uint64_t *zeros)
{
	size_t n = 0, i;
	if (e->single || e->word_size != 8 || e->style == PD_CLASSIC_CLASSBLOCK) {
		for (i = 0; i < k; i++) {
			n += fmt_ref(e, b + n, refs[i]);
			*zeros += refs[i] == 0;
		}
		return n;
	}
	/* OpenJ9's and jdmpview's two-line 64-bit layout, what nearly every conversion writes */
	for (i = 0; i < k; i++) {
		if (refs[i]) {
			b[n] = '0';
			b[n + 1] = 'x';
			pd_put_hex16(b + n + 2, refs[i]);
			b[n + 18] = ' ';
			n += 19;
		} else {
			memcpy(b + n, "0x0 ", 4);
			n += 4;
			++*zeros;
		}
	}
	return n;
}

/* The record line up to its references: "0x<addr> [<size>] OBJ|CLS <name>", and in two lines "\n\t". */
static size_t fmt_record_line(const classic_encoder *e, unsigned char *b, int cls, uint64_t addr, uint64_t size,
                              const char *name, size_t name_len)
{
	size_t n = fmt_hex(b, addr, e->word_size * 2);
	b[n++] = ' ';
	b[n++] = '[';
	n += pd_put_dec(b + n, size);
	b[n++] = ']';
	b[n++] = ' ';
	memcpy(b + n, cls ? "CLS " : "OBJ ", 4);
	n += 4;
	memcpy(b + n, name, name_len);
	n += name_len;
	if (!e->single) {
		n += fmt_eol(e, b + n);
		b[n++] = '\t';
	}
	return n;
}

/*
 * Write one record: the record line and its references, in as few output
 * reservations as the references allow. `refs` are the written references
 * (zeros print as null tokens); `hidden` nulls are only counted. `cb` is the
 * class-block address for that style (0 none).
 */
static int write_record(classic_encoder *e, int cls, uint64_t addr, uint64_t size, const char *name, size_t name_len,
                        const uint64_t *refs, size_t nrefs, uint64_t cb)
{
	unsigned char *b;
	size_t i = 0, n, k;
	uint64_t zeros = 0;
	if (addr > 0xFFFFFFFFu && e->word_size == 4)
		e->wide++;
	k = nrefs < REFS_PER_RESERVE ? nrefs : REFS_PER_RESERVE;
	if (!(b = pd_out_reserve(e->w, 18 + 2 + PD_DEC_MAX + 2 + 4 + name_len + 3 + (k + 1) * REF_TOKEN_MAX + 2)))
		goto fail;
	n = fmt_record_line(e, b, cls, addr, size, name, name_len);
	if (cb)
		n += fmt_ref(e, b + n, cb);
	for (;;) {
		if (k) /* refs may be NULL when there are none */
			n += fmt_refs(e, b + n, refs + i, k, &zeros);
		i += k;
		if (i == nrefs)
			break;
		pd_out_commit(e->w, n);
		k = nrefs - i < REFS_PER_RESERVE ? nrefs - i : REFS_PER_RESERVE;
		if (!(b = pd_out_reserve(e->w, k * REF_TOKEN_MAX + 2)))
			goto fail;
		n = 0;
	}
	n += fmt_eol(e, b + n);
	pd_out_commit(e->w, n);
	e->cnt.zeros += zeros;
	e->cnt.listed += nrefs;
	if (cb)
		e->cnt.listed++, e->cnt.cbitems++; /* counted as a reference: see write_trailer */
	return 0;
fail:
	e->failed = 1;
	return pd_out_diag(e->w)->has_err ? pd_out_diag(e->w)->err.code : PROFDATA_EIO;
}

/*
 * The class-block address the class-block style puts first: the object's
 * class, or for a primitive array without one (HPROF) the class named like
 * it, if any. 0 when there is none: the item is then left out.
 */
static uint64_t class_block(classic_encoder *e, const profdata_object *o)
{
	char want[3];
	unsigned t = o->elem_type & 15;
	size_t i;
	if (o->class_id || o->kind != PROFDATA_OBJECT_PRIM_ARRAY || !pd_classic_type_letter(t))
		return o->class_id;
	if (e->prim_class[t])
		return e->prim_class[t];
	if (e->prim_scanned[t] == e->nclasses)
		return 0;
	want[0] = '[';
	want[1] = pd_classic_type_letter(t);
	want[2] = 0;
	for (i = e->prim_scanned[t]; i < e->nclasses; i++)
		if (e->classes[i].name && strcmp(e->classes[i].name, want) == 0) {
			e->prim_class[t] = e->classes[i].id;
			return e->classes[i].id;
		}
	e->prim_scanned[t] = e->nclasses;
	return 0;
}

/*
 * The references to write for object `o` of class `c` (NULL: none known)
 * into *refs and *nrefs, and the nulls only counted; `name_kind` is the kind
 * its name says. 0 or an error.
 */
static int object_refs(classic_encoder *e, const profdata_object *o, const enc_class *c, int name_kind,
                       const uint64_t **refs, size_t *nrefs, uint64_t *nulls)
{
	unsigned ids = e->id_size ? e->id_size : 8;
	pd_jvm_refs sink = { NULL, 0, e->style == PD_CLASSIC_JDMPVIEW, 0, 0 };
	int rc;
	if (o->refs && o->nrefs && e->style != PD_CLASSIC_CLASSBLOCK && name_kind == PROFDATA_OBJECT_PRIM_ARRAY) {
		/* A primitive array holds no references: written, they would read as the
		 * class-block variant. So for any object written under a primitive array's
		 * name (a class a damaged dump named "[C"), whatever its kind in the model. */
		e->prim_refs += o->nrefs;
		return 0;
	}
	if (o->refs) {
		*refs = o->refs;
		*nrefs = o->nrefs;
		return 0;
	}
	if (!o->data || (o->kind != PROFDATA_OBJECT_ARRAY && o->kind != PROFDATA_OBJECT_INSTANCE))
		return 0;
	if (o->kind == PROFDATA_OBJECT_INSTANCE && !(c && c->layout_state == 1)) {
		e->no_layout++;
		return 0;
	}
	if ((rc = need_refs(e, o->kind == PROFDATA_OBJECT_ARRAY ? (size_t)(o->data_len / ids) : c->nref_offs)) < 0)
		return rc;
	sink.out = e->refs;
	sink.cap = e->refs_cap;
	if (o->kind == PROFDATA_OBJECT_ARRAY)
		pd_jvm_array_refs(o->data, o->data_len, ids, &sink);
	else
		pd_jvm_instance_refs(o->data, o->data_len, ids, c->ref_offs, c->nref_offs, &sink);
	*refs = e->refs;
	*nrefs = sink.n;
	*nulls = sink.nulls;
	return 0;
}

/* VisualVM's shallow size of `o`, as profdata_profile_object_size() gives it (jvm/jvm.h). */
static uint64_t object_size(classic_encoder *e, const profdata_object *o, const enc_class *c)
{
	const pd_jvm_sizes *sz = sizes(e);
	if (o->kind != PROFDATA_OBJECT_INSTANCE)
		return pd_jvm_array_size(sz, o->kind, o->elem_type, o->length);
	if (c && c->layout_state == 1)
		return pd_jvm_instance_size(sz, 1, c->prim_bytes, c->nref_offs, c->instance_size, o->length);
	return pd_jvm_instance_size(sz, 0, 0, 0, 0, o->length);
}

/* Write an object whose references are known or decodable now; `c` is its class, NULL when unknown. */
static int write_object(classic_encoder *e, const profdata_object *o, const enc_class *c)
{
	char buf[48];
	const char *name;
	size_t name_len, nrefs = 0;
	const uint64_t *refs = NULL;
	uint64_t size = o->size, nulls = 0;
	int kind, rc;

	if (o->kind == PROFDATA_OBJECT_PRIM_ARRAY && (!c || !c->name)) {
		buf[0] = '[';
		buf[1] = pd_classic_type_letter(o->elem_type);
		if (!buf[1])
			buf[1] = '?';
		buf[2] = 0;
		name = buf;
		name_len = 2;
		kind = PROFDATA_OBJECT_PRIM_ARRAY;
	} else {
		name = class_name(e, c, o->class_id, &name_len, buf, sizeof buf);
		kind = c && c->name ? c->name_kind : PROFDATA_OBJECT_INSTANCE; /* "unknown/0x..." */
	}
	if ((rc = object_refs(e, o, c, kind, &refs, &nrefs, &nulls)) < 0)
		return rc;
	if (!size)
		size = object_size(e, o, c);
	/* counted as a reader of the name will count it */
	switch (kind) {
	case PROFDATA_OBJECT_INSTANCE: e->cnt.objects++; break;
	case PROFDATA_OBJECT_ARRAY: e->cnt.arrays++; break;
	default: e->cnt.prims++; break;
	}
	e->cnt.hidden += nulls;
	return write_record(e, 0, o->id, size, name, name_len, refs, nrefs,
	                    e->style == PD_CLASSIC_CLASSBLOCK ? class_block(e, o) : 0);
}

static int hold(classic_encoder *e, const profdata_object *o)
{
	enc_held *h;
	size_t need;
	int rc;
	if ((rc = pd_grow((void **)&e->held, &e->held_cap, e->nheld + 1, sizeof *e->held)) < 0)
		return rc;
	need = e->held_len + (size_t)o->data_len + 8;
	if (o->data_len > SIZE_MAX / 2 || (rc = pd_grow((void **)&e->held_bytes, &e->held_cap2, need, 1)) < 0)
		return rc < 0 ? rc : PROFDATA_ENOMEM;
	h = &e->held[e->nheld++];
	h->o = *o;
	h->data_off = e->held_len;
	if (o->data_len)
		memcpy(e->held_bytes + e->held_len, o->data, (size_t)o->data_len);
	e->held_len += (size_t)o->data_len;
	h->o.data = NULL;
	h->o.refs = NULL;
	h->o.nrefs = 0;
	return 0;
}

static int do_object(void *payload, const profdata_object *o)
{
	classic_encoder *e = payload;
	size_t ci = 0;
	int has_class;
	if (!e->in_dump)
		return 0;
	if (o->class_id && o->class_id == e->last_class_id) {
		ci = e->last_ci;
		has_class = 1;
	} else if ((has_class = find_class(e, o->class_id, &ci)) != 0) {
		e->last_class_id = o->class_id;
		e->last_ci = ci;
	}
	if (!o->refs && o->data && o->kind == PROFDATA_OBJECT_INSTANCE) {
		if (!has_class)
			return hold(e, o); /* its class may be dumped later in this dump */
		if (e->classes[ci].layout_state != 1) {
			int st = layout(e, ci);
			if (st < 0 && st != PROFDATA_EFORMAT)
				return st;
			if (st == 0)
				return hold(e, o);
		}
	}
	return write_object(e, o, has_class ? &e->classes[ci] : NULL);
}

static int on_root(void *payload, const profdata_root *r)
{
	(void)r;
	((classic_encoder *)payload)->dropped_roots++;
	return 0;
}

/* "ibm-classic/trailer:N" -> 1 (trailer) or 0 (header) and *dump; -1 for other names. */
static int att_kind(const char *name, int *dump)
{
	const char *p;
	int trailer;
	long n = 0;
	if (strncmp(name, PD_CLASSIC_ATT_TRAILER, sizeof PD_CLASSIC_ATT_TRAILER - 1) == 0) {
		trailer = 1;
		p = name + sizeof PD_CLASSIC_ATT_TRAILER - 1;
	} else if (strncmp(name, PD_CLASSIC_ATT_HEADER, sizeof PD_CLASSIC_ATT_HEADER - 1) == 0) {
		trailer = 0;
		p = name + sizeof PD_CLASSIC_ATT_HEADER - 1;
	} else {
		return -1;
	}
	if (!*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || n > 1000000)
			return -1;
		n = n * 10 + (*p - '0');
	}
	*dump = (int)n;
	return trailer;
}

static int do_attachment(void *payload, const profdata_attachment *a)
{
	classic_encoder *e = payload;
	int dump, kind = a->name ? att_kind(a->name, &dump) : -1, rc;
	char *s;
	if (!e->from_classic || kind < 0) {
		e->dropped_other++;
		return 0;
	}
	if (!(s = malloc(a->len + 1)))
		return PROFDATA_ENOMEM;
	if (a->len)
		memcpy(s, a->data, a->len);
	s[a->len] = 0;
	if ((rc = pd_grow((void **)&e->atts, &e->atts_cap, e->natts + 1, sizeof *e->atts)) < 0) {
		free(s);
		return rc;
	}
	e->atts[e->natts].trailer = kind;
	e->atts[e->natts].dump = dump;
	e->atts[e->natts++].text = s;
	return 0;
}

/* The text of attachment (kind, dump), or NULL. */
static const char *find_att(const classic_encoder *e, int trailer, int dump)
{
	size_t i;
	for (i = 0; i < e->natts; i++)
		if (e->atts[i].trailer == trailer && e->atts[i].dump == dump)
			return e->atts[i].text;
	return NULL;
}

static int write_header(classic_encoder *e)
{
	int rc;
	const char *h = e->ndumps > 0 ? find_att(e, 0, e->ndumps + 1) : NULL;
	if (h) {
		if (!*h)
			return 0;
		if ((rc = put(e, h, strlen(h))) < 0)
			return rc;
		return put_eol(e);
	}
	if (e->from_classic) {
		/* A source without header (a warning when it was read) gets an empty one:
		 * what we write is always valid. */
		if ((rc = put(e, "// Version: ", 12)) < 0 ||
		    (e->has_version && (rc = put(e, e->version, strlen(e->version))) < 0))
			return rc;
		return put_eol(e);
	}
	rc = pd_out_printf(e->w, "// Version: converted by libprofdata %s from %s%s%s%s", PROFDATA_VERSION_STRING,
	                   e->source ? e->source : "events", e->version ? " (" : "", e->version ? e->version : "",
	                   e->version ? ")" : "");
	if (rc < 0)
		return rc;
	return put_eol(e);
}

static int do_dump_begin(void *payload, const profdata_dump *d)
{
	classic_encoder *e = payload;
	(void)d;
	if (e->in_dump)
		return 0;
	memset(&e->cnt, 0, sizeof e->cnt);
	e->nrecs = 0;
	e->ncpool = 0;
	e->nheld = 0;
	e->held_len = 0;
	e->in_dump = 1;
	if (write_header(e) < 0)
		return PROFDATA_EIO;
	e->ndumps++;
	return 0;
}

static int flush_held(classic_encoder *e)
{
	size_t i, ci;
	int rc;
	for (i = 0; i < e->nheld; i++) {
		profdata_object o = e->held[i].o;
		o.data = e->held_bytes + e->held[i].data_off;
		int has_class = find_class(e, o.class_id, &ci);
		if (has_class) {
			int st = layout(e, ci);
			if (st < 0 && st != PROFDATA_EFORMAT)
				return st;
		}
		if ((rc = write_object(e, &o, has_class ? &e->classes[ci] : NULL)) < 0)
			return rc;
	}
	e->nheld = 0;
	e->held_len = 0;
	return 0;
}

/* This dump's trailer attachment, parsed; 0 when there is none or it does not parse. */
static int peek_trailer(const classic_encoder *e, pd_classic_trailer *t, const char **text)
{
	const char *s = find_att(e, 1, e->ndumps), *nl;
	memset(t, 0, sizeof *t);
	if (!s)
		return 0;
	nl = strchr(s, '\n');
	*text = s;
	if (!nl || pd_classic_parse_breakdown((const unsigned char *)s, (size_t)(nl - s), t) < 0 ||
	    pd_classic_parse_eof((const unsigned char *)nl + 1, strlen(nl + 1), t) < 0)
		return 0;
	return 1;
}

static int write_trailer(classic_encoder *e)
{
	const enc_counts *c = &e->cnt;
	uint64_t total = c->classes + c->objects + c->arrays + c->prims;
	pd_classic_trailer t;
	const char *text = NULL;
	char buf[512];
	int rc, n;
	uint64_t refs = c->listed + c->hidden, nulls = c->zeros + c->hidden;
	if (peek_trailer(e, &t, &text) && t.classes == c->classes && t.objects == c->objects &&
	    t.arrays == c->arrays && t.prims == c->prims && t.total == total && t.refs >= t.nulls &&
	    t.nulls >= c->zeros &&
	    (t.refs - t.nulls == c->listed - c->zeros || t.refs - t.nulls == c->listed - c->zeros - c->cbitems)) {
		/* A classic source's own trailer agrees with what was written: it knows the nulls
		 * OpenJ9 counts without printing them. Unless a style was asked for, keep it as
		 * it was spelled. */
		const char *nl = strchr(text, '\n');
		if (!e->style_set) {
			if ((rc = put(e, text, (size_t)(nl - text))) < 0 || (rc = put_eol(e)) < 0 ||
			    (rc = put(e, nl + 1, strlen(nl + 1))) < 0)
				return rc;
			return put_eol(e);
		}
		refs = t.refs;
		nulls = t.nulls;
	}
	n = pd_classic_format_trailer(buf, sizeof buf, e->style == PD_CLASSIC_JDMPVIEW, c->classes, c->objects,
	                              c->arrays, c->prims, refs, nulls);
	if (n < 0 || (size_t)n >= sizeof buf)
		return PROFDATA_ERROR;
	{
		const char *nl = strchr(buf, '\n');
		if ((rc = put(e, buf, (size_t)(nl - buf))) < 0 || (rc = put_eol(e)) < 0 ||
		    (rc = put(e, nl + 1, strlen(nl + 1))) < 0)
			return rc;
	}
	return put_eol(e);
}

static int write_class(classic_encoder *e, const enc_cls_rec *r)
{
	char buf[48];
	size_t name_len, nrefs = r->nrefs, k;
	const char *name = class_name(e, &e->classes[r->ci], e->classes[r->ci].id, &name_len, buf, sizeof buf);
	const uint64_t *refs = e->cpool ? e->cpool + r->refs_off : NULL;
	uint64_t size = r->size;
	int rc;
	if (!size) /* a class object: a header and its static fields (jvm/jvm.h) */
		size = pd_jvm_class_size(sizes(e), r->statics_bytes, r->derived ? r->nrefs : 0);
	e->cnt.classes++;
	if (r->derived && e->style != PD_CLASSIC_JDMPVIEW) {
		/* null statics are counted, not printed */
		if ((rc = need_refs(e, r->nrefs)) < 0)
			return rc;
		for (k = 0, nrefs = 0; k < r->nrefs; k++) {
			if (refs[k])
				e->refs[nrefs++] = refs[k];
			else
				e->cnt.hidden++;
		}
		refs = e->refs;
	}
	return write_record(e, 1, e->classes[r->ci].id, size, name, name_len, refs, nrefs, 0);
}

static int do_dump_end(void *payload)
{
	classic_encoder *e = payload;
	size_t i;
	int rc;
	if (!e->in_dump)
		return 0;
	if ((rc = flush_held(e)) < 0)
		return rc;
	for (i = 0; i < e->nrecs; i++)
		if ((rc = write_class(e, &e->recs[i])) < 0)
			return rc;
	e->in_dump = 0;
	return write_trailer(e);
}

static int enc_finish(void *state)
{
	classic_encoder *e = state;
	int rc;
	if (e->failed)
		return pd_out_diag(e->w)->has_err ? pd_out_diag(e->w)->err.code : PROFDATA_EIO;
	if (e->in_dump && (rc = do_dump_end(e)) < 0)
		return rc;
	if (!e->ndumps)
		return pd_out_error(e->w, PROFDATA_EUNSUPPORTED,
		                    "ibm-classic: the input holds no heap dump, and a classic heapdump holds nothing else");
	const struct { uint64_t n; const char *what; } counts[] = {
		{ e->dropped_roots, "GC roots dropped (the format has no roots)" },
		{ e->dropped_other, "attachments dropped (only a classic heapdump's own can be written back)" },
		{ e->unnamed, "records whose class has no name: written as unknown/0x<id>" },
		{ e->no_layout, "instances whose class layout is missing or broken: written without references" },
		{ e->prim_refs, "references of primitive arrays dropped (they cannot hold any)" },
		{ e->wide, "addresses wider than the 32-bit word size: written in full" },
	};
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
		if (counts[i].n)
			pd_out_warn(e->w, "ibm-classic: %llu %s", (unsigned long long)counts[i].n, counts[i].what);
	return 0;
}

static void enc_free(void *state)
{
	classic_encoder *e = state;
	size_t i;
	if (!e)
		return;
	for (i = 0; i < e->nclasses; i++) {
		free(e->classes[i].name);
		free(e->classes[i].field_types);
		free(e->classes[i].ref_offs);
	}
	for (i = 0; i < e->natts; i++)
		free(e->atts[i].text);
	pd_map_free(&e->class_ix);
	pd_map_free(&e->str_ix);
	pd_intern_free(&e->strs);
	PD_FREE_ALL(e->atts, e->classes, e->recs, e->cpool, e->held, e->held_bytes, e->refs, e->version, e->source, e);
}

/* ---- the callbacks: failures are recorded on the writer, so that drivers report them ---- */

static int fail(classic_encoder *e, int rc)
{
	if (rc < 0) {
		e->failed = 1;
		if (!pd_out_diag(e->w)->has_err)
			pd_out_error(e->w, rc, "ibm-classic: %s", profdata_strerror(rc));
	}
	return rc;
}

static int on_begin(void *payload, const profdata_meta *m)
{
	return fail(payload, do_begin(payload, m));
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	return fail(payload, do_string(payload, id, utf8, len));
}

static int on_class_load(void *payload, const profdata_class_load *cl)
{
	return fail(payload, do_class_load(payload, cl));
}

static int on_class_dump(void *payload, const profdata_class_dump *cd)
{
	return fail(payload, do_class_dump(payload, cd));
}

static int on_object(void *payload, const profdata_object *o)
{
	return fail(payload, do_object(payload, o));
}

static int on_attachment(void *payload, const profdata_attachment *a)
{
	return fail(payload, do_attachment(payload, a));
}

static int on_dump_begin(void *payload, const profdata_dump *d)
{
	return fail(payload, do_dump_begin(payload, d));
}

static int on_dump_end(void *payload)
{
	return fail(payload, do_dump_end(payload));
}

static const pd_encoder_ops classic_ops = {
	.events = {
		.version = PROFDATA_EVENTS_VERSION,
		.begin = on_begin,
		.string = on_string,
		.class_load = on_class_load,
		.dump_begin = on_dump_begin,
		.class_dump = on_class_dump,
		.root = on_root,
		.object = on_object,
		.dump_end = on_dump_end,
		.attachment = on_attachment,
	},
	.finish = enc_finish,
	.free = enc_free,
	/* Besides these, what describes code (functions, frames, mappings) is left out without a word. */
	.drops = PD_EVENT_BIT(thread_start) | PD_EVENT_BIT(stack) | PD_EVENT_BIT(sample) | PD_EVENT_BIT(unknown) |
	         PD_EVENT_BIT(trace_event) | PD_EVENT_BIT(object_sample),
};

/* Each option: its key, its values and the numbers they stand for, and where they go. */
static const struct classic_option {
	const char *key;
	const char *values[4];
	int numbers[4];
	size_t value_at, set_at; /* offsets of the int fields in classic_encoder; set_at 0: none */
} classic_options[] = {
	{ "style", { "openj9", "jdmpview", "classblock", NULL },
	  { PD_CLASSIC_OPENJ9, PD_CLASSIC_JDMPVIEW, PD_CLASSIC_CLASSBLOCK },
	  offsetof(classic_encoder, style), offsetof(classic_encoder, style_set) },
	{ "line_end", { "lf", "crlf", NULL }, { 0, 1 },
	  offsetof(classic_encoder, crlf), offsetof(classic_encoder, crlf_set) },
	{ "layout", { "two-line", "single-line", NULL }, { 0, 1 },
	  offsetof(classic_encoder, single), offsetof(classic_encoder, single_set) },
};

/* 0, or the value of `o` that is none of its choices. */
static const char *set_option(classic_encoder *e, const pd_options *opts, const struct classic_option *o)
{
	const char *v = pd_options_get(opts, o->key);
	if (!v)
		return NULL;
	for (size_t i = 0; i < 4 && o->values[i]; i++)
		if (strcmp(v, o->values[i]) == 0) {
			*(int *)((char *)e + o->value_at) = o->numbers[i];
			*(int *)((char *)e + o->set_at) = 1;
			return NULL;
		}
	return v;
}

int pd_classic_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts)
{
	classic_encoder *e = calloc(1, sizeof *e);
	const char *bad = NULL;
	if (!e)
		return PROFDATA_ENOMEM;
	e->w = w;
	e->word_size = 8;
	for (size_t i = 0; i < sizeof classic_options / sizeof classic_options[0] && !bad; i++)
		bad = set_option(e, opts, &classic_options[i]);
	const char *ws = pd_options_get(opts, "word_size");
	if (!bad && ws) {
		if (strcmp(ws, "4") != 0 && strcmp(ws, "8") != 0)
			bad = ws;
		e->word_size = ws[0] == '4' ? 4 : 8;
		e->ws_set = 1;
	}
	if (bad) {
		free(e);
		return pd_out_error(w, PROFDATA_EINVAL,
		                    "ibm-classic: options are style=openj9|jdmpview|classblock, word_size=4|8, "
		                    "line_end=lf|crlf, layout=two-line|single-line; \"%s\" is not valid", bad);
	}
	*state = e;
	*ops = &classic_ops;
	return 0;
}
