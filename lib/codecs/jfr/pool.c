/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Values read by their type descriptors, and the checkpoint events that
 * hold the constant pools. A value is a primitive, a string, a pool index
 * (a field marked constantPool) or a struct of fields inline; an array is
 * a count then its elements. A pool entry is noted by where its value
 * stands in the chunk (the type's map, keyed by its index), and read when
 * an event refers to it: memory grows with the pools' entries, not with
 * what they hold.
 */
#include <inttypes.h>

#include "codecs/jfr/jfr.h"

static int step(jfr_cur *c)
{
	if (c->steps && ++*c->steps > c->max_steps)
		return jfr_fail(c, c->p, PROFDATA_ELIMIT, "more than %" PRIu64 " values read in one chunk (empty structs "
		                "nested in arrays?)", c->max_steps);
	return 0;
}

/*
 * n values of flat type t (jfr.h) passed over, each counted as the walk
 * counts it (`extra` for an array's element, then its fields): 0, or 1
 * when they do not fit in the event, c left as it was (the walk then says
 * where and why). Most of a chunk's pools are such values, and each is
 * passed over once to find the next.
 */
static int skip_flat(jfr_cur *c, const jfr_type *t, uint64_t n, unsigned extra)
{
	const unsigned char *p = c->p, *end = c->end;
	uint64_t steps = n * (extra + t->nfields);
	if (p > end)
		return 1;
	if (c->steps && (*c->steps += steps) > c->max_steps)
		goto refused;
	for (uint64_t e = 0; e < n; e++)
		for (size_t i = 0; i < t->nfields; i++) {
			const jfr_field *f = &t->fields[i];
			if (f->varint && c->compressed) {
				/* up to 8 bytes with the high bit set, then one more */
				for (unsigned k = 0; k < 8 && p < end && (*p & 0x80); k++)
					p++;
				if (p >= end)
					goto refused;
				p++;
			} else if ((size_t)(end - p) >= f->width) {
				p += f->width;
			} else {
				goto refused;
			}
		}
	c->p = p;
	return 0;
refused:
	if (c->steps)
		*c->steps -= steps;
	return 1;
}

int jfr_read_value(jfr_cur *c, const jfr_meta *m, const jfr_type *t, jfr_value *v, unsigned depth)
{
	const unsigned char *p = NULL;
	int rc;
	v->at = c->p;
	v->u = 0;
	switch (t->kind) {
	case JFR_BOOLEAN:
	case JFR_BYTE:
		if ((rc = jfr_bytes(c, 1, &p)) == 0)
			v->u = *p;
		return rc;
	case JFR_CHAR:
	case JFR_SHORT: return jfr_int(c, 2, &v->u);
	case JFR_INT: return jfr_int(c, 4, &v->u);
	case JFR_LONG: return jfr_int(c, 8, &v->u);
	case JFR_FLOAT:
		if ((rc = jfr_bytes(c, 4, &p)) == 0)
			v->u = pd_be32(p);
		return rc;
	case JFR_DOUBLE:
		if ((rc = jfr_bytes(c, 8, &p)) == 0)
			v->u = pd_be64(p);
		return rc;
	case JFR_STRING: return jfr_string(c, &v->s);
	default: return jfr_read_struct(c, m, t, NULL, depth + 1);
	}
}

int jfr_read_field(jfr_cur *c, const jfr_meta *m, const jfr_field *f, jfr_value *v, unsigned depth)
{
	const jfr_type *t = &m->types[f->type];
	jfr_value e;
	int rc;
	if (!f->array)
		return f->pooled ? (v->at = c->p, jfr_int(c, 8, &v->u)) : jfr_read_value(c, m, t, v, depth);
	v->at = c->p;
	if ((rc = jfr_int(c, 4, &v->u)) != 0)
		return rc;
	if (v->u > (uint64_t)(c->end - c->p))
		return jfr_fail(c, v->at, PROFDATA_EFORMAT, "an array of %" PRIu64 " elements in %zu bytes", v->u,
		                (size_t)(c->end - c->p));
	v->at = c->p; /* the first element */
	if (!f->pooled && t->flat && skip_flat(c, t, v->u, 1) == 0)
		return 0;
	for (uint64_t i = 0; i < v->u; i++) {
		if ((rc = step(c)) != 0)
			return rc;
		rc = f->pooled ? jfr_int(c, 8, &e.u) : jfr_read_value(c, m, t, &e, depth);
		if (rc)
			return rc;
	}
	return 0;
}

int jfr_read_struct(jfr_cur *c, const jfr_meta *m, const jfr_type *t, jfr_value *vals, unsigned depth)
{
	jfr_value skip;
	int rc;
	if (!vals && t->flat && skip_flat(c, t, 1, 0) == 0)
		return 0;
	if (depth > JFR_MAX_DEPTH)
		return jfr_fail(c, c->p, PROFDATA_EFORMAT, "type %s nested deeper than %d (a type that holds itself?)",
		                jfr_type_name(m, t), JFR_MAX_DEPTH);
	for (size_t i = 0; i < t->nfields; i++) {
		if ((rc = step(c)) != 0 || (rc = jfr_read_field(c, m, &t->fields[i], vals ? &vals[i] : &skip, depth)) != 0)
			return rc;
	}
	return 0;
}

/* One pool of a checkpoint: its type, its entries noted. */
static int read_pool(jfr_cur *c, jfr_meta *m, const unsigned char *chunk)
{
	const unsigned char *at = c->p;
	uint64_t id, n;
	uint32_t row;
	int rc;
	if ((rc = jfr_int(c, 8, &id)) != 0 || (rc = jfr_int(c, 4, &n)) != 0)
		return rc;
	if (!(row = pd_map_get(&m->row_of_id, id)))
		return jfr_fail(c, at, PROFDATA_EFORMAT, "a constant pool of type id %" PRIu64 ", which the metadata lacks",
		                id);
	if (n > (uint64_t)(c->end - c->p))
		return jfr_fail(c, at, PROFDATA_EFORMAT, "a constant pool of %" PRIu64 " entries in %zu bytes", n,
		                (size_t)(c->end - c->p));
	jfr_type *t = &m->types[row - 1];
	for (uint64_t i = 0; i < n; i++) {
		uint64_t key;
		jfr_value v;
		if ((rc = step(c)) != 0 || (rc = jfr_int(c, 8, &key)) != 0)
			return rc;
		if (pd_map_put(&t->pool, key, (uint32_t)(c->p - chunk) + 1))
			return PROFDATA_ENOMEM;
		if ((rc = jfr_read_value(c, m, t, &v, 0)) != 0)
			return rc;
	}
	return 0;
}

int jfr_checkpoint_read(jfr_cur *c, jfr_meta *m, const unsigned char *chunk, int has_flush_byte)
{
	uint64_t ignored, n;
	const unsigned char *p = NULL;
	int rc = 0;
	/* start time, duration, delta to the previous checkpoint: every one is read where it stands */
	for (int i = 0; i < 3 && rc == 0; i++)
		rc = jfr_int(c, 8, &ignored);
	if (rc == 0 && has_flush_byte)
		rc = jfr_bytes(c, 1, &p);
	if (rc || (rc = jfr_int(c, 4, &n)) != 0)
		return rc;
	if (n > (uint64_t)(c->end - c->p))
		return jfr_fail(c, c->p, PROFDATA_EFORMAT, "%" PRIu64 " constant pools in %zu bytes", n,
		                (size_t)(c->end - c->p));
	for (uint64_t i = 0; i < n && rc == 0; i++)
		rc = read_pool(c, m, chunk);
	return rc;
}

int jfr_pool_at(const jfr_cur *chunk_cur, const jfr_type *t, const unsigned char *chunk, uint64_t index, jfr_cur *out)
{
	uint32_t off = pd_map_get(&t->pool, index);
	if (!off)
		return 1;
	*out = *chunk_cur;
	out->p = chunk + off - 1;
	return 0;
}
