/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The metadata event: a string table, then a tree of elements (root,
 * metadata, class, field, annotation, setting, region) whose attributes
 * are indexes into it. JFR has no published specification, so the types
 * of a chunk are whatever its metadata says: each "class" element is a
 * type (id, name, superType), each "field" in it a field (name, class id,
 * constantPool, dimension). Field types are resolved by id once the whole
 * tree is read; an id no class has is an error, and nesting is bounded.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "codecs/jfr/jfr.h"

/* Reading a metadata event: its strings' indexes in m->names, the class being filled. */
typedef struct meta_walk {
	jfr_meta *m;
	uint32_t *str;        /* metadata string index -> names index */
	uint64_t nstr;
	uint64_t *field_ids;  /* per field added, its class id, in order of addition */
	size_t nfield_ids, field_ids_cap;
} meta_walk;

/* Attributes an element may carry that the reader uses. */
enum { AT_ID, AT_NAME, AT_SUPER, AT_CLASS, AT_POOL, AT_DIM, AT_COUNT };

static const char *const attr_names[AT_COUNT] = { "id", "name", "superType", "class", "constantPool", "dimension" };

const char *jfr_type_name(const jfr_meta *m, const jfr_type *t) { return pd_intern_str(&m->names, t->name, NULL); }

size_t jfr_type_find(const jfr_meta *m, const char *name)
{
	uint32_t ix;
	if (!pd_intern_find(&m->names, name, strlen(name), &ix))
		return SIZE_MAX;
	for (size_t i = 0; i < m->ntypes; i++)
		if (m->types[i].name == ix)
			return i;
	return SIZE_MAX;
}

size_t jfr_field_find(const jfr_meta *m, const jfr_type *t, const char *name)
{
	uint32_t ix;
	if (!pd_intern_find(&m->names, name, strlen(name), &ix))
		return SIZE_MAX;
	for (size_t i = 0; i < t->nfields; i++)
		if (t->fields[i].name == ix)
			return i;
	return SIZE_MAX;
}

void jfr_meta_free(jfr_meta *m)
{
	for (size_t i = 0; i < m->ntypes; i++) {
		free(m->types[i].fields);
		pd_map_free(&m->types[i].pool);
	}
	free(m->types);
	pd_intern_free(&m->names);
	pd_map_free(&m->row_of_id);
	memset(m, 0, sizeof *m);
}

void jfr_meta_clear_pools(jfr_meta *m)
{
	for (size_t i = 0; i < m->ntypes; i++)
		pd_map_clear(&m->types[i].pool);
}

static uint8_t kind_of(const char *name)
{
	static const char *const prim[] = { "boolean", "byte", "char", "short", "int", "long", "float", "double",
		                            "java.lang.String" };
	for (size_t i = 0; i < sizeof prim / sizeof prim[0]; i++)
		if (strcmp(name, prim[i]) == 0)
			return (uint8_t)(JFR_BOOLEAN + i);
	return JFR_COMPLEX;
}

/* The metadata's strings into m->names. */
static int read_strings(meta_walk *w, jfr_cur *c)
{
	pd_strbuf b = { NULL, 0, 0 };
	const unsigned char *at = c->p;
	int rc = jfr_int(c, 4, &w->nstr);
	if (rc == 0 && w->nstr > (uint64_t)(c->end - c->p))
		rc = jfr_fail(c, at, PROFDATA_EFORMAT, "%" PRIu64 " metadata strings in %zu bytes", w->nstr,
		              (size_t)(c->end - c->p));
	if (rc == 0 && !(w->str = malloc((size_t)w->nstr * sizeof *w->str + 1)))
		rc = PROFDATA_ENOMEM;
	for (uint64_t i = 0; i < w->nstr && rc == 0; i++) {
		jfr_str s;
		at = c->p;
		b.n = 0;
		if ((rc = jfr_string(c, &s)) != 0)
			break;
		if (s.enc == JFR_STR_POOL)
			rc = jfr_fail(c, at, PROFDATA_EFORMAT, "a metadata string refers to a constant pool");
		else if ((rc = jfr_string_utf8(c, &s, &b)) == 0 &&
		         pd_intern_put(&w->m->names, b.p ? b.p : "", b.n, &w->str[i]) < 0)
			rc = PROFDATA_ENOMEM;
	}
	free(b.p);
	return rc;
}

/* A string index of the metadata (checked): its text. */
static int meta_string(meta_walk *w, jfr_cur *c, const char **s, uint32_t *ix)
{
	const unsigned char *at = c->p;
	uint64_t i;
	int rc = jfr_int(c, 4, &i);
	if (rc == 0 && i >= w->nstr)
		rc = jfr_fail(c, at, PROFDATA_EFORMAT, "metadata string index %" PRIu64 " of %" PRIu64, i, w->nstr);
	if (rc == 0) {
		*ix = w->str[i];
		*s = pd_intern_str(&w->m->names, *ix, NULL);
	}
	return rc;
}

static int read_attrs(meta_walk *w, jfr_cur *c, const char **val, uint32_t *val_ix)
{
	const unsigned char *at = c->p;
	uint64_t n;
	int rc = jfr_int(c, 4, &n);
	if (rc == 0 && n > (uint64_t)(c->end - c->p) / 2)
		rc = jfr_fail(c, at, PROFDATA_EFORMAT, "%" PRIu64 " attributes in %zu bytes", n, (size_t)(c->end - c->p));
	for (uint64_t i = 0; i < n && rc == 0; i++) {
		const char *key, *value;
		uint32_t kix, vix;
		if ((rc = meta_string(w, c, &key, &kix)) != 0 || (rc = meta_string(w, c, &value, &vix)) != 0)
			break;
		for (int a = 0; a < AT_COUNT; a++)
			if (strcmp(key, attr_names[a]) == 0) {
				val[a] = value;
				val_ix[a] = vix;
			}
	}
	return rc;
}

/* A decimal attribute (a class id, a dimension). */
static int attr_number(const jfr_cur *c, const unsigned char *at, const char *s, uint64_t *v)
{
	char *end;
	if (!s || !*s || *s < '0' || *s > '9')
		return jfr_fail(c, at, PROFDATA_EFORMAT, "a metadata number \"%s\"", s ? s : "(none)");
	*v = strtoull(s, &end, 10);
	return *end ? jfr_fail(c, at, PROFDATA_EFORMAT, "a metadata number \"%s\"", s) : 0;
}

static int add_class(meta_walk *w, const jfr_cur *c, const unsigned char *at, const char **val,
                     const uint32_t *val_ix, size_t *row)
{
	jfr_meta *m = w->m;
	uint64_t id = 0;
	int rc = attr_number(c, at, val[AT_ID], &id);
	if (rc == 0 && !val[AT_NAME])
		rc = jfr_fail(c, at, PROFDATA_EFORMAT, "a class without a name");
	if (rc == 0 && pd_map_get(&m->row_of_id, id))
		rc = jfr_fail(c, at, PROFDATA_EFORMAT, "class id %" PRIu64 " defined twice", id);
	if (rc == 0 && (m->ntypes >= UINT32_MAX - 1 ||
	                pd_grow((void **)&m->types, &m->types_cap, m->ntypes + 1, sizeof *m->types)))
		rc = PROFDATA_ENOMEM;
	if (rc)
		return rc;
	jfr_type *t = &m->types[m->ntypes];
	memset(t, 0, sizeof *t);
	t->id = id;
	t->name = val_ix[AT_NAME];
	t->kind = kind_of(val[AT_NAME]);
	t->is_event = val[AT_SUPER] && strcmp(val[AT_SUPER], "jdk.jfr.Event") == 0;
	*row = m->ntypes++;
	return pd_map_put(&m->row_of_id, id, (uint32_t)*row + 1) ? PROFDATA_ENOMEM : 0;
}

static int add_field(meta_walk *w, const jfr_cur *c, const unsigned char *at, const char **val,
                     const uint32_t *val_ix, size_t row)
{
	jfr_type *t = &w->m->types[row];
	uint64_t id = 0, dim = 0;
	int rc = attr_number(c, at, val[AT_CLASS], &id);
	if (rc == 0 && val[AT_DIM])
		rc = attr_number(c, at, val[AT_DIM], &dim);
	if (rc == 0 && (dim > 1 || !val[AT_NAME]))
		rc = jfr_fail(c, at, PROFDATA_EFORMAT, "a field %s", dim > 1 ? "of more than one dimension" : "without a name");
	if (rc == 0 && (pd_grow((void **)&t->fields, &t->fields_cap, t->nfields + 1, sizeof *t->fields) ||
	                pd_grow((void **)&w->field_ids, &w->field_ids_cap, w->nfield_ids + 1, sizeof *w->field_ids)))
		rc = PROFDATA_ENOMEM;
	if (rc)
		return rc;
	jfr_field *f = &t->fields[t->nfields++];
	f->name = val_ix[AT_NAME];
	f->type = (uint32_t)w->nfield_ids; /* for now: where its class id is; resolved at the end */
	f->array = (uint8_t)dim;
	f->pooled = val[AT_POOL] && strcmp(val[AT_POOL], "true") == 0;
	w->field_ids[w->nfield_ids++] = id;
	return 0;
}

/* An element and its children; `row` is the class it stands in (SIZE_MAX none). */
static int read_element(meta_walk *w, jfr_cur *c, size_t row, unsigned depth)
{
	const unsigned char *at = c->p;
	const char *name, *val[AT_COUNT] = { NULL };
	uint32_t name_ix, val_ix[AT_COUNT] = { 0 };
	uint64_t n;
	int rc;
	if (depth > JFR_MAX_DEPTH)
		return jfr_fail(c, at, PROFDATA_EFORMAT, "metadata elements nested deeper than %d", JFR_MAX_DEPTH);
	if ((rc = meta_string(w, c, &name, &name_ix)) != 0 || (rc = read_attrs(w, c, val, val_ix)) != 0)
		return rc;
	if (strcmp(name, "class") == 0)
		rc = add_class(w, c, at, val, val_ix, &row);
	else if (strcmp(name, "field") == 0 && row != SIZE_MAX)
		rc = add_field(w, c, at, val, val_ix, row), row = SIZE_MAX;
	else
		row = SIZE_MAX;
	at = c->p;
	if (rc || (rc = jfr_int(c, 4, &n)) != 0)
		return rc;
	if (n > (uint64_t)(c->end - c->p))
		return jfr_fail(c, at, PROFDATA_EFORMAT, "%" PRIu64 " child elements in %zu bytes", n,
		                (size_t)(c->end - c->p));
	for (uint64_t i = 0; i < n && rc == 0; i++)
		rc = read_element(w, c, row, depth + 1);
	return rc;
}

/* Each field's class id to the row of that class. */
static int resolve_fields(meta_walk *w, const jfr_cur *c)
{
	for (size_t i = 0; i < w->m->ntypes; i++) {
		jfr_type *t = &w->m->types[i];
		for (size_t k = 0; k < t->nfields; k++) {
			uint64_t id = w->field_ids[t->fields[k].type];
			uint32_t r = pd_map_get(&w->m->row_of_id, id);
			if (!r)
				return jfr_fail(c, c->p, PROFDATA_EFORMAT, "type %s: field %s of class id %" PRIu64
				                ", which the metadata lacks", jfr_type_name(w->m, t),
				                pd_intern_str(&w->m->names, t->fields[k].name, NULL), id);
			t->fields[k].type = r - 1;
		}
	}
	return 0;
}

/*
 * Each field's width, and which types are flat: made of fields that are
 * each one integer, pool index, boolean or float. Method, class, stack
 * frame and most pool types are: pool.c skips their values byte by byte.
 */
static void note_widths(jfr_meta *m)
{
	/* by kind: JFR_COMPLEX, BOOLEAN, BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE, STRING */
	static const uint8_t width[] = { 0, 1, 1, 2, 2, 4, 8, 4, 8, 0 };
	static const uint8_t varint[] = { 0, 0, 0, 1, 1, 1, 1, 0, 0, 0 };
	for (size_t i = 0; i < m->ntypes; i++) {
		jfr_type *t = &m->types[i];
		t->flat = t->nfields > 0;
		for (size_t k = 0; k < t->nfields; k++) {
			jfr_field *f = &t->fields[k];
			uint8_t kind = m->types[f->type].kind;
			f->varint = f->pooled || varint[kind];
			f->width = f->array ? 0 : f->pooled ? 8 : width[kind];
			t->flat &= f->width != 0;
		}
	}
}

int jfr_meta_read(jfr_meta *m, jfr_cur *c)
{
	meta_walk w = { m, NULL, 0, NULL, 0, 0 };
	uint64_t ignored;
	int rc = 0;
	/* start time, duration, metadata id */
	for (int i = 0; i < 3 && rc == 0; i++)
		rc = jfr_int(c, 8, &ignored);
	if (rc == 0 && (rc = read_strings(&w, c)) == 0 && (rc = read_element(&w, c, SIZE_MAX, 0)) == 0)
		rc = resolve_fields(&w, c);
	if (rc == 0)
		note_widths(m);
	free(w.str);
	free(w.field_ids);
	return rc;
}
