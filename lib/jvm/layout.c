/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Class layouts flattened along the superclass chain, and the references an
 * instance or object array payload holds at them.
 */
#include "jvm/jvm.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static int add_field(pd_jvm_layout *l, const profdata_field *f, int type, unsigned id_size)
{
	if (l->fields && l->nfields < l->fields_cap)
		l->fields[l->nfields] = *f;
	if (l->want_types) {
		if (l->nfields >= l->types_cap && pd_grow((void **)&l->types, &l->types_cap, l->nfields + 1, 1) < 0)
			return PROFDATA_ENOMEM;
		l->types[l->nfields] = (uint8_t)type;
	}
	l->nfields++;
	unsigned sz = pd_jvm_type_size(type, id_size);
	if (!sz || l->bytes > UINT32_MAX) /* past UINT32_MAX no payload offset can say where */
		l->bad_type = 1;
	if (l->bad_type)
		return 0;
	if (type == PROFDATA_TYPE_OBJECT) {
		if (l->want_offsets) {
			if (l->nrefs >= l->offsets_cap &&
			    pd_grow((void **)&l->ref_offsets, &l->offsets_cap, l->nrefs + 1, sizeof *l->ref_offsets) < 0)
				return PROFDATA_ENOMEM;
			l->ref_offsets[l->nrefs] = (uint32_t)l->bytes;
		}
		l->nrefs++;
	} else {
		l->prim_bytes += sz;
	}
	l->bytes += sz;
	return 0;
}

static int add_class(pd_jvm_layout *l, const pd_jvm_class_view *v, unsigned id_size)
{
	for (size_t i = 0; i < v->nfields; i++) {
		profdata_field f = { 0, 0, 0 };
		if (v->fields)
			f = v->fields[i];
		else
			f.type = v->types[i];
		int e = add_field(l, &f, f.type, id_size);
		if (e < 0)
			return e;
	}
	return 0;
}

int pd_jvm_flatten(pd_jvm_layout *l, uint64_t class_id, unsigned id_size, size_t max_hops, pd_jvm_class_fn lookup,
                   const void *table)
{
	l->nfields = l->nrefs = 0;
	l->bytes = l->prim_bytes = 0;
	l->bad_type = 0;
	for (size_t hops = 0;; hops++) {
		pd_jvm_class_view v;
		if (hops > max_hops)
			return PROFDATA_EFORMAT; /* a chain longer than the class table is a cycle */
		if (!lookup(table, class_id, &v))
			return 0;
		int e = add_class(l, &v, id_size);
		if (e < 0)
			return e;
		if (!v.super_id)
			return 1;
		class_id = v.super_id;
	}
}

void pd_jvm_layout_free(pd_jvm_layout *l)
{
	free(l->ref_offsets);
	free(l->types);
	/* what the caller set stays: it may flatten again */
	*l = (pd_jvm_layout){ .want_offsets = l->want_offsets, .want_types = l->want_types, .fields = l->fields,
		              .fields_cap = l->fields_cap };
}

void pd_jvm_refs_add(pd_jvm_refs *sink, uint64_t r)
{
	if (!r && !sink->keep_nulls) {
		sink->nulls++;
		return;
	}
	if (sink->n < sink->cap)
		sink->out[sink->n] = r;
	sink->n++;
}

/* Whether the id at p is not null: its byte order does not matter. */
static inline int id_is_set(const unsigned char *p, unsigned id_size)
{
	if (id_size == 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		return v != 0;
	}
	uint32_t v;
	memcpy(&v, p, 4);
	return v != 0;
}

/* A sink that only counts (reference_count) skips decoding the ids. */
static int counts_only(const pd_jvm_refs *sink)
{
	return sink->cap == 0 && !sink->keep_nulls;
}

void pd_jvm_instance_refs(const unsigned char *data, uint64_t len, unsigned id_size, const uint32_t *offsets,
                          size_t noffsets, pd_jvm_refs *sink)
{
	if (counts_only(sink)) {
		size_t set = 0, k = 0;
		for (; k < noffsets && (uint64_t)offsets[k] + id_size <= len; k++)
			set += (size_t)id_is_set(data + offsets[k], id_size);
		sink->n += set;
		sink->nulls += k - set;
		return;
	}
	for (size_t k = 0; k < noffsets; k++) {
		if ((uint64_t)offsets[k] + id_size > len)
			break;
		pd_jvm_refs_add(sink, pd_be_id(data + offsets[k], id_size));
	}
}

void pd_jvm_array_refs(const unsigned char *data, uint64_t len, unsigned id_size, pd_jvm_refs *sink)
{
	if (counts_only(sink) && id_size) {
		size_t set = 0, k = 0;
		for (; k + id_size <= len; k += id_size)
			set += (size_t)id_is_set(data + k, id_size);
		sink->n += set;
		sink->nulls += k / id_size - set;
		return;
	}
	for (uint64_t k = 0; k + id_size <= len; k += id_size)
		pd_jvm_refs_add(sink, pd_be_id(data + k, id_size));
}
