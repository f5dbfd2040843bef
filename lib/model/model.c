/* SPDX-License-Identifier: Apache-2.0 */
/* The model: creation, accessors and lookups. Building is in model_builder.c. */
#include "model/model_impl.h"
#include "io/pager.h"

#include <stdlib.h>
#include <string.h>


/*
 * Hand a row to a caller whose headers may declare a shorter or longer
 * struct than ours: write no more than `out_size`, and zero what the
 * caller's struct holds beyond ours (members a newer header added read as
 * absent).
 */
static inline int deliver(void *out, size_t out_size, const void *row, size_t row_size)
{
	if (!out)
		return PROFDATA_EINVAL;
	if (PD_LIKELY(out_size == row_size)) {
		memcpy(out, row, row_size);
		return 0;
	}
	memcpy(out, row, out_size < row_size ? out_size : row_size);
	if (out_size > row_size)
		memset((char *)out + row_size, 0, out_size - row_size);
	return 0;
}

/* An explicit but empty reference list must stay distinguishable from "none" (NULL). */
static const uint64_t no_refs[1];

static const uint64_t *class_refs_at(const profdata_profile *p, int has, size_t off, size_t n)
{
	if (!has)
		return NULL;
	return n ? p->class_refs.v + off : no_refs;
}

int pd_arena_put(pd_arena *a, const void *data, size_t len, size_t *off)
{
	if (pd_grow((void **)&a->p, &a->cap, a->len + len + 1, 1) < 0)
		return PROFDATA_ENOMEM;
	*off = a->len;
	if (len)
		memcpy(a->p + a->len, data, len);
	a->len += len;
	return 0;
}

int pd_arena_put_str(pd_arena *a, const char *s, size_t *off)
{
	size_t n = s ? strlen(s) : 0;
	int e = pd_arena_put(a, s ? s : "", n, off);
	if (e == 0)
		a->p[a->len++] = '\0';
	return e;
}

int profdata_profile_new(profdata_profile **out)
{
	*out = NULL;
	profdata_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return PROFDATA_ENOMEM;
	pd_diag_init(&p->diag, "<model>");
	pd_col64_init(&p->obj_id, PD_COL_NEAR_FIRST);
	pd_col64_init(&p->obj_data, PD_COL_FROM_ZERO);
	*out = p;
	return 0;
}

void profdata_profile_free(profdata_profile *p)
{
	if (!p)
		return;
	pd_diag_free(&p->diag);
	pd_index *indexes[] = { &p->str_ix, &p->class_ix, &p->serial_ix, &p->thread_ix,
	                        &p->function_ix, &p->frame_ix, &p->stack_ix };
	for (size_t i = 0; i < sizeof(indexes) / sizeof(indexes[0]); i++)
		pd_index_free(indexes[i]);
	pd_blob_release(p->blob);
	PD_FREE_ALL(p->meta_kv_view, p->meta_format_buf, p->text.p, p->kvs.v, p->kv_view);
	PD_FREE_ALL(p->str_ids.v, p->str_off.v, p->str_len.v, p->str_bytes.p);
	PD_FREE_ALL(p->classes.v, p->class_ids.v, p->loads.v, p->load_serials.v, p->load_class.v, p->unloads.v);
	PD_FREE_ALL(p->constants.v, p->fields.v, p->class_refs.v, p->ref_offsets.v, p->cdumps.v);
	pd_id_index_free(&p->obj_index);
	pd_col64_free(&p->obj_id);
	pd_col64_free(&p->obj_data);
	PD_FREE_ALL(p->obj_ck, p->obj_len, p->obj_trace, p->obj_size, p->obj_refs_start, p->obj_refs.v, p->payload.p);
	PD_FREE_ALL(p->roots.v, p->dumps.v, p->heaps.v, p->threads.v, p->thread_serials.v);
	pd_prefault_wait(&p->stack_frames_ahead);
	PD_FREE_ALL(p->functions.v, p->function_ids.v, p->frames.v, p->frame_ids.v, p->stacks.v,
	            p->stack_serials.v, p->stack_frames.v);
	PD_FREE_ALL(p->sample_types.v, p->groups.v, p->samples.v, p->values.v, p->sites.v, p->site_rows.v);
#define FREE_PLAIN(member, type, vec, table) free(p->vec.v);
	PD_MODEL_PLAIN_LIST(FREE_PLAIN)
#undef FREE_PLAIN
	pd_model_labels_free(p);
	PD_FREE_ALL(p->traces.v, p->contexts.v, p->unknowns.v, p->attachments.v, p->bytes.p, p);
}

const profdata_error *profdata_profile_error(const profdata_profile *p) { return pd_diag_last(&p->diag); }
int pd_profile_ended(const profdata_profile *p) { return p->ended; }
size_t pd_profile_warning_count(const profdata_profile *p) { return p->diag.kept; }
size_t pd_profile_warning_total(const profdata_profile *p) { return p->diag.nwarnings; }
const profdata_error *pd_profile_warning(const profdata_profile *p, size_t i) { return pd_diag_warning(&p->diag, i); }

const profdata_meta *profdata_profile_meta(const profdata_profile *p)
{
	return &p->meta;
}

size_t profdata_profile_count(const profdata_profile *p, profdata_table t)
{
	switch (t) {
	case PROFDATA_TABLE_STRINGS: return p->str_ids.n;
	case PROFDATA_TABLE_CLASSES: return p->classes.n;
	case PROFDATA_TABLE_OBJECTS: return p->nobjects;
	case PROFDATA_TABLE_ROOTS: return p->roots.n;
	case PROFDATA_TABLE_DUMPS: return p->dumps.n;
	case PROFDATA_TABLE_HEAP_INFOS: return p->heaps.n;
	case PROFDATA_TABLE_THREADS: return p->threads.n;
	case PROFDATA_TABLE_FUNCTIONS: return p->functions.n;
	case PROFDATA_TABLE_FRAMES: return p->frames.n;
	case PROFDATA_TABLE_STACKS: return p->stacks.n;
	case PROFDATA_TABLE_SAMPLE_TYPES: return p->sample_types.n;
	case PROFDATA_TABLE_SAMPLE_GROUPS: return p->groups.n;
	case PROFDATA_TABLE_SAMPLES: return p->samples.n;
	case PROFDATA_TABLE_ALLOC_SITES: return p->sites.n;
#define COUNT_PLAIN(member, type, vec, table) case PROFDATA_TABLE_##table: return p->vec.n;
	PD_MODEL_PLAIN_LIST(COUNT_PLAIN)
#undef COUNT_PLAIN
	case PROFDATA_TABLE_TRACE_EVENTS: return p->traces.n;
	case PROFDATA_TABLE_UNKNOWN: return p->unknowns.n;
	case PROFDATA_TABLE_ATTACHMENTS: return p->attachments.n;
	case PROFDATA_TABLE_UNLOADS: return p->unloads.n;
	case PROFDATA_TABLE_CLASS_LOADS: return p->loads.n;
	case PROFDATA_TABLE_CLASS_DUMPS: return p->cdumps.n;
	case PROFDATA_TABLE_TRACE_CONTEXTS: return p->contexts.n;
	case PROFDATA_TABLE_LABEL_SETS: return p->label_sets.n;
	default: return 0;
	}
}

/* ---- strings ---- */

const char *profdata_profile_string(const profdata_profile *p, uint64_t id, size_t *len)
{
	uint32_t row;
	if (!pd_index_find(&p->str_ix, p->str_ids.v, id, &row))
		return NULL;
	if (len)
		*len = p->str_len.v[row];
	return (const char *)p->str_bytes.p + p->str_off.v[row];
}

int profdata_profile_string_at(const profdata_profile *p, size_t i, uint64_t *id, const char **utf8, size_t *len)
{
	if (i >= p->str_ids.n)
		return PROFDATA_ENOTFOUND;
	if (id)
		*id = p->str_ids.v[i];
	if (utf8)
		*utf8 = (const char *)p->str_bytes.p + p->str_off.v[i];
	if (len)
		*len = p->str_len.v[i];
	return 0;
}

/* ---- classes ---- */

static void class_view(const profdata_profile *p, const pd_class_row *c, profdata_class_info *out)
{
	memset(out, 0, sizeof(*out));
	out->load = c->load;
	out->dump = c->dump;
	out->dump.constants = c->dump.nconstants ? p->constants.v + c->constants_off : NULL;
	out->dump.statics = c->dump.nstatics ? p->fields.v + c->statics_off : NULL;
	out->dump.fields = c->dump.nfields ? p->fields.v + c->fields_off : NULL;
	out->dump.refs = class_refs_at(p, c->has_refs, c->refs_off, c->dump.nrefs);
	out->has_load = c->has_load;
	out->has_dump = c->has_dump;
	out->unloaded = c->unloaded;
	out->dump_index = c->dump_index;
	out->name = c->has_load ? profdata_profile_string(p, c->load.name_id, NULL) : NULL;
}

int profdata_profile_class_sized(const profdata_profile *p, size_t i, profdata_class_info *out, size_t out_size)
{
	if (i >= p->classes.n)
		return PROFDATA_ENOTFOUND;
	profdata_class_info row;
	class_view(p, &p->classes.v[i], &row);
	return deliver(out, out_size, &row, sizeof(row));
}

int profdata_profile_find_class(const profdata_profile *p, uint64_t id, size_t *index)
{
	uint32_t row;
	if (!pd_index_find(&p->class_ix, p->class_ids.v, id, &row))
		return PROFDATA_ENOTFOUND;
	*index = row;
	return 0;
}

int profdata_profile_find_class_serial(const profdata_profile *p, uint32_t serial, size_t *index)
{
	uint32_t row;
	if (serial == 0 || !pd_index_find(&p->serial_ix, p->load_serials.v, serial, &row))
		return PROFDATA_ENOTFOUND;
	*index = p->load_class.v[row];
	return 0;
}

/* The model's classes as the JVM module's layout flattening reads them. */
static int class_fields_view(const void *table, uint64_t class_id, pd_jvm_class_view *v)
{
	const profdata_profile *p = table;
	size_t ci;
	if (profdata_profile_find_class(p, class_id, &ci) < 0 || !p->classes.v[ci].has_dump)
		return 0;
	const pd_class_row *c = &p->classes.v[ci];
	v->fields = c->dump.nfields ? p->fields.v + c->fields_off : NULL;
	v->types = NULL;
	v->nfields = c->dump.nfields;
	v->super_id = c->dump.super_id;
	return 1;
}

int pd_class_flatten(const profdata_profile *p, size_t ci, pd_jvm_layout *l)
{
	if (ci >= p->classes.n || !p->classes.v[ci].has_dump)
		return PROFDATA_EFORMAT;
	return pd_jvm_flatten(l, p->classes.v[ci].id, p->meta.id_size, p->classes.n, class_fields_view, p);
}

long pd_class_layout(const profdata_profile *p, size_t ci, profdata_field *out, size_t cap)
{
	pd_jvm_layout l;
	memset(&l, 0, sizeof(l));
	l.fields = out;
	l.fields_cap = cap;
	int e = pd_class_flatten(p, ci, &l);
	if (e < 0)
		return e;
	return e == 1 ? (long)l.nfields : PROFDATA_EFORMAT;
}

long profdata_profile_class_layout(const profdata_profile *p, size_t class_index, profdata_field *out, size_t cap)
{
	return pd_class_layout(p, class_index, out, cap);
}

int profdata_profile_class_dump_at_sized(const profdata_profile *p, size_t i, profdata_class_dump *out,
                                        size_t out_size, uint32_t *dump)
{
	if (i >= p->cdumps.n)
		return PROFDATA_ENOTFOUND;
	const pd_cdump_row *c = &p->cdumps.v[i];
	profdata_class_dump row = c->d;
	row.constants = c->d.nconstants ? p->constants.v + c->constants_off : NULL;
	row.statics = c->d.nstatics ? p->fields.v + c->statics_off : NULL;
	row.fields = c->d.nfields ? p->fields.v + c->fields_off : NULL;
	row.refs = class_refs_at(p, c->has_refs, c->refs_off, c->d.nrefs);
	if (dump)
		*dump = c->dump;
	return deliver(out, out_size, &row, sizeof(row));
}

/*
 * The getters whose row is stored as the caller sees it: `member` is empty,
 * or the field of the stored row that holds it.
 */
#define STORED_ROW_GETTER(name, type, table, member) \
	int profdata_profile_##name##_sized(const profdata_profile *p, size_t i, type *out, size_t out_size) \
	{ \
		if (i >= p->table.n) \
			return PROFDATA_ENOTFOUND; \
		return deliver(out, out_size, &p->table.v[i] member, sizeof(type)); \
	}

STORED_ROW_GETTER(class_load, profdata_class_load, loads, )
STORED_ROW_GETTER(unload, profdata_class_unload, unloads, )
STORED_ROW_GETTER(dump, profdata_dump, dumps, .d)
STORED_ROW_GETTER(heap_info, profdata_heap_info, heaps, .h)
STORED_ROW_GETTER(thread, profdata_thread_info, threads, )
STORED_ROW_GETTER(function, profdata_function, functions, )
STORED_ROW_GETTER(frame, profdata_frame, frames, )
STORED_ROW_GETTER(sample_type, profdata_sample_type, sample_types, )
#define GET_PLAIN(member, type, vec, table) STORED_ROW_GETTER(member, type, vec, )
PD_MODEL_PLAIN_LIST(GET_PLAIN)
#undef GET_PLAIN

/* ---- objects ---- */

const unsigned char *pd_object_data(const profdata_profile *p, size_t i, uint64_t *len)
{
	unsigned k = pd_obj_kind(p, i);
	int kind = k & 3, elem = (k >> 2) & 15, nodata = (k >> 6) & 1;
	uint64_t n = p->obj_len[i];
	uint64_t bytes;
	if (kind == PROFDATA_OBJECT_INSTANCE)
		bytes = n;
	else if (kind == PROFDATA_OBJECT_ARRAY)
		bytes = n * p->meta.id_size;
	else
		bytes = nodata ? 0 : n * pd_jvm_type_size(elem, p->meta.id_size);
	*len = bytes;
	uint64_t pos = pd_obj_payload(p, i);
	if (pos == UINT64_MAX)
		return NULL;
	if (pos < p->arena_base)
		return pd_blob_data(p->blob) + pos;
	return p->payload.p + (pos - p->arena_base);
}

int profdata_profile_object_sized(const profdata_profile *p, size_t i, profdata_object *out, size_t out_size)
{
	if (i >= p->nobjects)
		return PROFDATA_ENOTFOUND;
	profdata_object row;
	memset(&row, 0, sizeof(row));
	unsigned k = pd_obj_kind(p, i);
	row.id = pd_obj_id(p, i);
	uint32_t c = pd_obj_class(p, i);
	row.class_id = c == UINT32_MAX ? 0 : p->classes.v[c].id;
	row.trace_serial = p->obj_trace ? p->obj_trace[i] : p->obj_trace0;
	row.kind = k & 3;
	row.elem_type = (k >> 2) & 15;
	row.flags = (k >> 6) & 1 ? PROFDATA_OBJECT_NODATA : 0;
	row.length = p->obj_len[i];
	row.size = p->obj_size ? p->obj_size[i] : 0;
	row.data = pd_object_data(p, i, &row.data_len);
	if (!row.data)
		row.data_len = 0;
	if (p->obj_refs_start && p->obj_refs_start[i + 1] > p->obj_refs_start[i]) {
		row.refs = p->obj_refs.v + p->obj_refs_start[i];
		row.nrefs = (size_t)(p->obj_refs_start[i + 1] - p->obj_refs_start[i]);
	} else if (p->obj_refs_start && !row.data) {
		row.refs = no_refs; /* explicit and empty, not "derive from the payload" */
		row.nrefs = 0;
	}
	return deliver(out, out_size, &row, sizeof(row));
}

int profdata_profile_find_object(const profdata_profile *p, uint64_t id, size_t *index)
{
	size_t row = pd_id_index_find(&p->obj_index, &p->obj_id, id);
	if (row == SIZE_MAX)
		return PROFDATA_ENOTFOUND;
	*index = row;
	return 0;
}

int profdata_profile_object_place(const profdata_profile *p, size_t i, uint32_t *dump, size_t *heap_info)
{
	if (i >= p->nobjects)
		return PROFDATA_ENOTFOUND;
	size_t lo = 0, hi = p->dumps.n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->dumps.v[mid].first_object <= i)
			lo = mid;
		else
			hi = mid;
	}
	if (dump)
		*dump = (uint32_t)lo;
	if (heap_info) {
		*heap_info = SIZE_MAX;
		for (size_t h = 0; h < p->heaps.n; h++)
			if (p->heaps.v[h].dump == lo && p->heaps.v[h].obj_pos <= i)
				*heap_info = h;
	}
	return 0;
}

long profdata_profile_object_refs(const profdata_profile *p, size_t i, int include_null, uint64_t *out, size_t cap)
{
	if (i >= p->nobjects)
		return PROFDATA_ENOTFOUND;
	pd_jvm_refs sink = { out, cap, include_null, 0, 0 };
	if (p->obj_refs_start && (p->obj_refs_start[i + 1] > p->obj_refs_start[i] || pd_obj_payload(p, i) == UINT64_MAX)) {
		for (uint64_t k = p->obj_refs_start[i]; k < p->obj_refs_start[i + 1]; k++)
			pd_jvm_refs_add(&sink, p->obj_refs.v[k]);
		return (long)sink.n;
	}
	uint64_t len;
	const unsigned char *d = pd_object_data(p, i, &len);
	int e = d ? pd_object_refs_in(p, i, d, len, &sink) : 0;
	return e < 0 ? e : (long)sink.n;
}

int pd_object_refs_in(const profdata_profile *p, size_t i, const unsigned char *d, uint64_t len, pd_jvm_refs *sink)
{
	unsigned ids = p->meta.id_size;
	int kind = pd_obj_kind(p, i) & 3;
	uint32_t crow = pd_obj_class(p, i);
	if (kind == PROFDATA_OBJECT_ARRAY) {
		pd_jvm_array_refs(d, len, ids, sink);
		return 0;
	}
	if (kind != PROFDATA_OBJECT_INSTANCE || crow == UINT32_MAX)
		return 0;
	const pd_class_row *c = &p->classes.v[crow];
	if (!c->layout_ok)
		return PROFDATA_EFORMAT;
	pd_jvm_instance_refs(d, len, ids, c->nref_offsets ? p->ref_offsets.v + c->ref_offsets_off : NULL,
	                     c->nref_offsets, sink);
	return 0;
}

/* VisualVM's shallow sizes (jvm/jvm.h). */
uint64_t profdata_profile_object_size(const profdata_profile *p, size_t i)
{
	if (i >= p->nobjects)
		return 0;
	if (p->obj_size && p->obj_size[i])
		return p->obj_size[i];
	unsigned k = pd_obj_kind(p, i);
	int kind = k & 3, elem = (k >> 2) & 15;
	uint64_t n = p->obj_len[i];
	if (kind != PROFDATA_OBJECT_INSTANCE)
		return pd_jvm_array_size(&p->jvm, kind, elem, n);
	uint32_t c = pd_obj_class(p, i);
	if (c == UINT32_MAX)
		return pd_jvm_instance_size(&p->jvm, 0, 0, 0, 0, n);
	const pd_class_row *cr = &p->classes.v[c];
	return pd_jvm_instance_size(&p->jvm, cr->layout_ok, cr->prim_bytes, cr->nref_offsets, cr->dump.instance_size, n);
}

/* ---- other tables ---- */

int profdata_profile_root_sized(const profdata_profile *p, size_t i, profdata_root *out, size_t out_size,
                                uint32_t *dump)
{
	if (i >= p->roots.n)
		return PROFDATA_ENOTFOUND;
	if (dump)
		*dump = p->roots.v[i].dump;
	return deliver(out, out_size, &p->roots.v[i].r, sizeof(profdata_root));
}

/*
 * Row of `key` among n keys. Decoders that number their own ids (pprof's
 * frames, gperftools' PCs, every stack serial) give 1, 2, ... in order, so
 * the row is first tried at key - 1: keys are unique, so a match there is
 * the answer, and writers that look up every frame of every stack skip the
 * hash.
 */
static int find_u64(const pd_index *ix, const uint64_t *keys, size_t n, uint64_t key, size_t *index)
{
	uint32_t row;
	if (key - 1 < n && keys[key - 1] == key) {
		*index = (size_t)(key - 1);
		return 0;
	}
	if (!pd_index_find(ix, keys, key, &row))
		return PROFDATA_ENOTFOUND;
	*index = row;
	return 0;
}

int profdata_profile_find_thread(const profdata_profile *p, uint32_t serial, size_t *index)
{
	return find_u64(&p->thread_ix, p->thread_serials.v, p->thread_serials.n, serial, index);
}

int profdata_profile_find_function(const profdata_profile *p, uint64_t id, size_t *index)
{
	return find_u64(&p->function_ix, p->function_ids.v, p->function_ids.n, id, index);
}

int profdata_profile_find_frame(const profdata_profile *p, uint64_t id, size_t *index)
{
	return find_u64(&p->frame_ix, p->frame_ids.v, p->frame_ids.n, id, index);
}

int profdata_profile_stack_sized(const profdata_profile *p, size_t i, profdata_stack *out, size_t out_size)
{
	if (i >= p->stacks.n)
		return PROFDATA_ENOTFOUND;
	const pd_stack_row *s = &p->stacks.v[i];
	profdata_stack row = { .serial = s->serial, .thread_serial = s->thread_serial, .nframes = s->nframes,
	                       .frame_ids = s->nframes ? p->stack_frames.v + s->frames_off : NULL };
	return deliver(out, out_size, &row, sizeof(row));
}

int profdata_profile_find_stack(const profdata_profile *p, uint32_t serial, size_t *index)
{
	return find_u64(&p->stack_ix, p->stack_serials.v, p->stack_serials.n, serial, index);
}

int profdata_profile_sample_group_sized(const profdata_profile *p, size_t i, profdata_sample_group *out,
                                        size_t out_size, size_t *first, size_t *count)
{
	if (i >= p->groups.n)
		return PROFDATA_ENOTFOUND;
	if (first)
		*first = p->groups.v[i].first;
	if (count)
		*count = p->groups.v[i].count;
	return deliver(out, out_size, &p->groups.v[i].g, sizeof(profdata_sample_group));
}

int profdata_profile_sample_sized(const profdata_profile *p, size_t i, profdata_sample *out, size_t out_size)
{
	if (i >= p->samples.n)
		return PROFDATA_ENOTFOUND;
	const pd_sample_row *s = &p->samples.v[i];
	profdata_sample row = { .stack_serial = s->stack_serial, .thread_serial = s->thread_serial, .time_ns = s->time_ns,
	                        .nvalues = s->nvalues, .values = s->nvalues ? p->values.v + s->values_off : NULL };
	return deliver(out, out_size, &row, sizeof(row));
}

int profdata_profile_alloc_sites_sized(const profdata_profile *p, size_t i, profdata_alloc_sites *out,
                                       size_t out_size)
{
	if (i >= p->sites.n)
		return PROFDATA_ENOTFOUND;
	profdata_alloc_sites row = p->sites.v[i].a;
	row.sites = row.nsites ? p->site_rows.v + p->sites.v[i].sites_off : NULL;
	return deliver(out, out_size, &row, sizeof(row));
}

int profdata_profile_trace_event_sized(const profdata_profile *p, size_t i, profdata_trace_event *out,
                                       size_t out_size)
{
	if (i >= p->traces.n)
		return PROFDATA_ENOTFOUND;
	profdata_trace_event row = p->traces.v[i].e;
	row.attrs = row.nattrs && p->kv_view ? p->kv_view + p->traces.v[i].attrs_off : NULL;
	return deliver(out, out_size, &row, sizeof(row));
}

static void blobref_view(const profdata_profile *p, const pd_blobref_row *b, const void **data, uint64_t *len)
{
	*data = b->len ? p->bytes.p + b->data_off : NULL;
	*len = b->len;
}

int profdata_profile_unknown_sized(const profdata_profile *p, size_t i, profdata_unknown *out, size_t out_size)
{
	if (i >= p->unknowns.n)
		return PROFDATA_ENOTFOUND;
	const pd_blobref_row *b = &p->unknowns.v[i];
	profdata_unknown row;
	memset(&row, 0, sizeof(row));
	row.tag = b->tag;
	row.time_us = b->time_us;
	row.in_dump = b->in_dump;
	blobref_view(p, b, &row.data, &row.len);
	return deliver(out, out_size, &row, sizeof(row));
}

int profdata_profile_attachment_sized(const profdata_profile *p, size_t i, profdata_attachment *out,
                                      size_t out_size)
{
	if (i >= p->attachments.n)
		return PROFDATA_ENOTFOUND;
	const pd_blobref_row *b = &p->attachments.v[i];
	uint64_t len;
	profdata_attachment row;
	memset(&row, 0, sizeof(row));
	row.name = pd_text(p, b->name_off);
	blobref_view(p, b, &row.data, &len);
	row.len = (size_t)len;
	return deliver(out, out_size, &row, sizeof(row));
}

int profdata_profile_find_attachment_sized(const profdata_profile *p, const char *name, profdata_attachment *out,
                                           size_t out_size)
{
	for (size_t i = 0; i < p->attachments.n; i++)
		if (strcmp(pd_text(p, p->attachments.v[i].name_off), name) == 0)
			return profdata_profile_attachment_sized(p, i, out, out_size);
	return PROFDATA_ENOTFOUND;
}

/*
 * The 0.1 entry points, for programs built against 0.1 headers (where the
 * getters were functions, not macros): they pass structs of the 0.1 layout,
 * whose sizes are frozen here. Today's structs still have that layout; when
 * one grows, its line below must name the 0.1 size instead of sizeof.
 * The parentheses keep the names from expanding as the macros of model.h.
 */
#define ENTRY_0_1(row, type) \
	PROFDATA_API int (profdata_profile_##row)(const profdata_profile *p, size_t i, type *out); \
	int (profdata_profile_##row)(const profdata_profile *p, size_t i, type *out) \
	{ \
		return profdata_profile_##row##_sized(p, i, out, sizeof(type)); \
	}

ENTRY_0_1(class, profdata_class_info)
ENTRY_0_1(object, profdata_object)
ENTRY_0_1(dump, profdata_dump)
ENTRY_0_1(heap_info, profdata_heap_info)
ENTRY_0_1(thread, profdata_thread_info)
ENTRY_0_1(function, profdata_function)
ENTRY_0_1(frame, profdata_frame)
ENTRY_0_1(stack, profdata_stack)
ENTRY_0_1(sample_type, profdata_sample_type)
ENTRY_0_1(sample, profdata_sample)
ENTRY_0_1(alloc_sites, profdata_alloc_sites)
ENTRY_0_1(heap_summary, profdata_heap_summary)
ENTRY_0_1(control_settings, profdata_control_settings)
ENTRY_0_1(mapping, profdata_mapping)
ENTRY_0_1(trace_event, profdata_trace_event)
ENTRY_0_1(unknown, profdata_unknown)
ENTRY_0_1(attachment, profdata_attachment)
ENTRY_0_1(class_load, profdata_class_load)
ENTRY_0_1(unload, profdata_class_unload)

PROFDATA_API int (profdata_profile_root)(const profdata_profile *p, size_t i, profdata_root *out, uint32_t *dump);
int (profdata_profile_root)(const profdata_profile *p, size_t i, profdata_root *out, uint32_t *dump)
{
	return profdata_profile_root_sized(p, i, out, sizeof(profdata_root), dump);
}

PROFDATA_API int (profdata_profile_sample_group)(const profdata_profile *p, size_t i, profdata_sample_group *out,
                                                 size_t *first, size_t *count);
int (profdata_profile_sample_group)(const profdata_profile *p, size_t i, profdata_sample_group *out, size_t *first,
                                    size_t *count)
{
	return profdata_profile_sample_group_sized(p, i, out, sizeof(profdata_sample_group), first, count);
}

PROFDATA_API int (profdata_profile_class_dump_at)(const profdata_profile *p, size_t i, profdata_class_dump *out,
                                                  uint32_t *dump);
int (profdata_profile_class_dump_at)(const profdata_profile *p, size_t i, profdata_class_dump *out, uint32_t *dump)
{
	return profdata_profile_class_dump_at_sized(p, i, out, sizeof(profdata_class_dump), dump);
}

PROFDATA_API int (profdata_profile_find_attachment)(const profdata_profile *p, const char *name,
                                                    profdata_attachment *out);
int (profdata_profile_find_attachment)(const profdata_profile *p, const char *name, profdata_attachment *out)
{
	return profdata_profile_find_attachment_sized(p, name, out, sizeof(profdata_attachment));
}
