/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one consumer of events that builds a model. Every format reads through
 * it, so its checks (ids unique, objects inside dumps) hold for all of them.
 */
#include "model/model_impl.h"
#include "util/huge.h"

#include <stdlib.h>
#include <string.h>


static int fail(profdata_profile *p, int code, const char *what)
{
	return pd_diag_error(&p->diag, code, PD_NO_OFFSET, 0, "%s", what);
}

#define NOMEM(p) fail((p), PROFDATA_ENOMEM, "out of memory building the model")
#define TRY(p, expr) do { if ((expr) < 0) return NOMEM(p); } while (0)

static int need_begun(profdata_profile *p, const char *ev)
{
	if (!p->began || p->ended)
		return pd_diag_error(&p->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "event '%s' outside begin/end", ev);
	return 0;
}

static int put_text(profdata_profile *p, const char *s, size_t *off)
{
	return pd_arena_put_str(&p->text, s, off);
}

/*
 * Defines on_<event>, which checks that the event comes between begin and
 * end, and then runs the body that follows the macro with `p` the profile.
 */
#define BEGUN_EVENT(event, type, arg) \
	static int event##_begun(profdata_profile *p, const type *arg); \
	static int on_##event(void *payload, const type *arg) \
	{ \
		int e = need_begun(payload, #event); \
		return e ? e : event##_begun(payload, arg); \
	} \
	static int event##_begun(profdata_profile *p, const type *arg)

/* Copy `count` items of `size` bytes to the end of a column; 0 or a reported PROFDATA_ENOMEM. */
static int append_items(profdata_profile *p, void **v, size_t *cap, size_t *n, const void *src, size_t count,
                        size_t size)
{
	TRY(p, pd_grow(v, cap, *n + count, size));
	if (count)
		memcpy((char *)*v + *n * size, src, count * size);
	*n += count;
	return 0;
}
#define APPEND(p, vec, src, count) \
	append_items((p), (void **)&(vec).v, &(vec).cap, &(vec).n, (src), (count), sizeof(*(vec).v))

/*
 * Index the key just pushed on `keys`; a key already there is warned about
 * and the new row popped again (the first definition stays, as readers of
 * HPROF keep it). 0 new, 1 a repeat, or a reported PROFDATA_ENOMEM.
 */
static int index_new_key(profdata_profile *p, pd_index *ix, const uint64_t *keys, size_t *nkeys, size_t *nrows,
                         const char *what)
{
	uint64_t key = keys[*nkeys - 1];
	int a = pd_index_add(ix, keys, (uint32_t)(*nkeys - 1), NULL);
	if (a < 0)
		return NOMEM(p);
	if (a == 1) {
		(*nrows)--;
		(*nkeys)--;
		pd_diag_warn(&p->diag, PROFDATA_EFORMAT, PD_NO_OFFSET, 0, "%s %llu defined twice", what,
		             (unsigned long long)key);
	}
	return a;
}

static int on_begin(void *payload, const profdata_meta *m)
{
	profdata_profile *p = payload;
	if (p->began)
		return fail(p, PROFDATA_EINVAL, "a second 'begin' event");
	p->began = 1;
	p->meta = *m;
	p->meta.format = p->meta.version = p->meta.period_type = p->meta.period_unit = NULL;
	p->meta.comments = NULL;
	TRY(p, put_text(p, m->format ? m->format : "", &p->meta_format_off));
	p->has_version = m->version != NULL;
	p->has_ptype = m->period_type != NULL;
	p->has_punit = m->period_unit != NULL;
	TRY(p, put_text(p, m->version, &p->meta_version_off));
	TRY(p, put_text(p, m->period_type, &p->meta_ptype_off));
	TRY(p, put_text(p, m->period_unit, &p->meta_punit_off));
	p->meta_kvs_off = p->kvs.n;
	p->meta_nkvs = m->ncomments;
	for (size_t i = 0; i < m->ncomments; i++) {
		pd_kv_row kv;
		TRY(p, put_text(p, m->comments[i].key, &kv.key_off));
		TRY(p, put_text(p, m->comments[i].value, &kv.value_off));
		TRY(p, PD_VEC_PUSH(p->kvs, kv));
	}
	return 0;
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	profdata_profile *p = payload;
	int e = need_begun(p, "string");
	if (e)
		return e;
	if (len > UINT32_MAX)
		return fail(p, PROFDATA_ELIMIT, "a string longer than 4 GiB");
	size_t off;
	TRY(p, pd_arena_put(&p->str_bytes, utf8, len, &off));
	p->str_bytes.p[p->str_bytes.len++] = '\0';
	TRY(p, PD_VEC_PUSH(p->str_ids, id));
	TRY(p, PD_VEC_PUSH(p->str_off, off));
	TRY(p, PD_VEC_PUSH(p->str_len, (uint32_t)len));
	uint32_t dup;
	int r = pd_index_add(&p->str_ix, p->str_ids.v, (uint32_t)(p->str_ids.n - 1), &dup);
	if (r < 0)
		return NOMEM(p);
	if (r == 1) {
		/* Keep the first definition, as readers of HPROF do. */
		pd_diag_warn(&p->diag, PROFDATA_EFORMAT, PD_NO_OFFSET, 0,
		             "string id %llu defined twice; keeping the first", (unsigned long long)id);
		p->str_ids.n--;
		p->str_off.n--;
		p->str_len.n--;
		p->str_bytes.len = off;
	}
	return 0;
}

/* The class row for `id`, created empty when new. */
static int class_row(profdata_profile *p, uint64_t id, uint32_t *row)
{
	if (pd_index_find(&p->class_ix, p->class_ids.v, id, row))
		return 0;
	pd_class_row c;
	memset(&c, 0, sizeof(c));
	c.id = id;
	TRY(p, PD_VEC_PUSH(p->classes, c));
	TRY(p, PD_VEC_PUSH(p->class_ids, id));
	*row = (uint32_t)(p->classes.n - 1);
	TRY(p, pd_index_add(&p->class_ix, p->class_ids.v, *row, NULL));
	return 0;
}

BEGUN_EVENT(class_load, profdata_class_load, c)
{
	int e;
	uint32_t row;
	if ((e = class_row(p, c->id, &row)) < 0)
		return e;
	TRY(p, PD_VEC_PUSH(p->loads, *c));
	TRY(p, PD_VEC_PUSH(p->load_serials, c->serial));
	TRY(p, PD_VEC_PUSH(p->load_class, row));
	pd_class_row *r = &p->classes.v[row];
	if (!r->has_load) {
		r->load = *c;
		r->has_load = 1;
	}
	if (c->serial) {
		uint32_t dup;
		int a = pd_index_add(&p->serial_ix, p->load_serials.v, (uint32_t)(p->loads.n - 1), &dup);
		if (a < 0)
			return NOMEM(p);
		if (a == 1)
			pd_diag_warn(&p->diag, PROFDATA_EFORMAT, PD_NO_OFFSET, 0,
			             "class serial %u loaded twice; lookups find the first", (unsigned)c->serial);
	}
	return 0;
}

/*
 * The events kept as they come, one row each. Classes are marked unloaded
 * when the profile is finished, whatever the order of the events.
 */
#define STORE_AS_IS(event, type, table) \
	BEGUN_EVENT(event, type, x) \
	{ \
		TRY(p, PD_VEC_PUSH(p->table, *x)); \
		return 0; \
	}

STORE_AS_IS(class_unload, profdata_class_unload, unloads)

static int push_fields(profdata_profile *p, const profdata_field *f, size_t n, size_t *off)
{
	*off = p->fields.n;
	return APPEND(p, p->fields, f, n);
}

BEGUN_EVENT(class_dump, profdata_class_dump, c)
{
	int e;
	if (!p->in_dump)
		return fail(p, PROFDATA_EINVAL, "class_dump outside a dump");
	uint32_t row;
	if ((e = class_row(p, c->id, &row)) < 0)
		return e;
	pd_cdump_row cd;
	memset(&cd, 0, sizeof(cd));
	cd.class_row = row;
	cd.dump = (uint32_t)(p->dumps.n - 1);
	cd.constants_off = p->constants.n;
	cd.refs_off = p->class_refs.n;
	cd.has_refs = c->refs != NULL;
	if ((e = APPEND(p, p->constants, c->constants, c->nconstants)) < 0 ||
	    (e = push_fields(p, c->statics, c->nstatics, &cd.statics_off)) < 0 ||
	    (e = push_fields(p, c->fields, c->nfields, &cd.fields_off)) < 0 ||
	    (c->refs && (e = APPEND(p, p->class_refs, c->refs, c->nrefs)) < 0))
		return e;
	cd.d = *c;
	cd.d.constants = NULL;
	cd.d.statics = cd.d.fields = NULL;
	cd.d.refs = NULL;
	TRY(p, PD_VEC_PUSH(p->cdumps, cd));
	/* The class itself describes its first dump; later ones stay in the sequence. */
	pd_class_row *r = &p->classes.v[row];
	if (!r->has_dump) {
		r->dump = cd.d;
		r->constants_off = cd.constants_off;
		r->statics_off = cd.statics_off;
		r->fields_off = cd.fields_off;
		r->refs_off = cd.refs_off;
		r->has_refs = cd.has_refs;
		r->has_dump = 1;
		r->dump_index = cd.dump;
	}
	return 0;
}

/* Functions and frames: kept with their ids in a column, indexed; a repeated id keeps the first. */
#define STORE_BY_ID(event, type) \
	BEGUN_EVENT(event, type, x) \
	{ \
		TRY(p, PD_VEC_PUSH(p->event##s, *x)); \
		TRY(p, PD_VEC_PUSH(p->event##_ids, x->id)); \
		int e = index_new_key(p, &p->event##_ix, p->event##_ids.v, &p->event##_ids.n, &p->event##s.n, \
		                      #event " id"); \
		return e < 0 ? e : 0; \
	}

STORE_BY_ID(function, profdata_function)
STORE_BY_ID(frame, profdata_frame)

BEGUN_EVENT(stack, profdata_stack, s)
{
	int e;
	pd_stack_row r = { s->serial, s->thread_serial, p->stack_frames.n, s->nframes };
	TRY(p, PD_VEC_PUSH(p->stacks, r));
	TRY(p, PD_VEC_PUSH(p->stack_serials, s->serial));
	e = index_new_key(p, &p->stack_ix, p->stack_serials.v, &p->stack_serials.n, &p->stacks.n, "stack serial");
	if (e != 0)
		return e < 0 ? e : 0;
	/* The largest column of most profiles (8 bytes a frame of every stack):
	 * its next pages are faulted in beside (util/prefault.h), which waits
	 * before the column moves. */
	if (p->stack_frames.n + s->nframes > p->stack_frames.cap)
		pd_prefault_wait(&p->stack_frames_ahead);
	if ((e = APPEND(p, p->stack_frames, s->frame_ids, s->nframes)) != 0)
		return e;
	pd_prefault_ahead(&p->stack_frames_ahead, p->stack_frames.v, p->stack_frames.n * sizeof *p->stack_frames.v,
	                  p->stack_frames.cap * sizeof *p->stack_frames.v);
	return 0;
}

/* The thread row for `serial`, created empty when new; NULL when out of memory (reported). */
static profdata_thread_info *thread_row(profdata_profile *p, uint32_t serial)
{
	uint32_t row;
	if (!pd_index_find(&p->thread_ix, p->thread_serials.v, serial, &row)) {
		profdata_thread_info t;
		memset(&t, 0, sizeof(t));
		row = (uint32_t)p->threads.n;
		if (PD_VEC_PUSH(p->threads, t) < 0 || PD_VEC_PUSH(p->thread_serials, serial) < 0 ||
		    pd_index_add(&p->thread_ix, p->thread_serials.v, row, NULL) < 0) {
			NOMEM(p);
			return NULL;
		}
	}
	return &p->threads.v[row];
}

BEGUN_EVENT(thread_start, profdata_thread_start, t)
{
	profdata_thread_info *ti = thread_row(p, t->serial);
	if (!ti)
		return PROFDATA_ENOMEM;
	if (ti->has_start) {
		pd_diag_warn(&p->diag, PROFDATA_EFORMAT, PD_NO_OFFSET, 0, "thread serial %u started twice",
		             (unsigned)t->serial);
		return 0;
	}
	ti->start = *t;
	ti->has_start = 1;
	return 0;
}

BEGUN_EVENT(thread_end, profdata_thread_end, t)
{
	profdata_thread_info *ti = thread_row(p, t->serial);
	if (!ti)
		return PROFDATA_ENOMEM;
	ti->end = *t;
	ti->has_end = 1;
	return 0;
}

STORE_AS_IS(sample_type, profdata_sample_type, sample_types)

BEGUN_EVENT(sample_group, profdata_sample_group, g)
{
	pd_group_row r = { *g, p->samples.n, 0 };
	TRY(p, PD_VEC_PUSH(p->groups, r));
	return 0;
}

BEGUN_EVENT(sample, profdata_sample, s)
{
	int e;
	if (p->groups.n == 0) {
		profdata_sample_group g = { 0, 0 };
		if ((e = on_sample_group(p, &g)) < 0)
			return e;
	}
	/* Once per sample (millions in a CPU profile): grow only when full. */
	if (p->samples.n == p->samples.cap)
		TRY(p, pd_grow((void **)&p->samples.v, &p->samples.cap, p->samples.n + 1, sizeof *p->samples.v));
	pd_sample_row *r = &p->samples.v[p->samples.n++];
	r->stack_serial = s->stack_serial;
	r->thread_serial = s->thread_serial;
	r->time_ns = s->time_ns;
	r->values_off = p->values.n;
	r->nvalues = s->nvalues;
	if (p->values.n + s->nvalues > p->values.cap)
		TRY(p, pd_grow((void **)&p->values.v, &p->values.cap, p->values.n + s->nvalues, 8));
	for (size_t i = 0; i < s->nvalues; i++)
		p->values.v[p->values.n + i] = s->values[i];
	p->values.n += s->nvalues;
	p->groups.v[p->groups.n - 1].count++;
	return pd_model_label_sample(p);
}

BEGUN_EVENT(alloc_sites, profdata_alloc_sites, a)
{
	pd_sites_row r = { *a, p->site_rows.n };
	r.a.sites = NULL;
	TRY(p, PD_VEC_PUSH(p->sites, r));
	return APPEND(p, p->site_rows, a->sites, a->nsites);
}

#define STORE_PLAIN(member, type, vec, table) STORE_AS_IS(member, type, vec)
PD_MODEL_PLAIN_LIST(STORE_PLAIN)
#undef STORE_PLAIN

BEGUN_EVENT(dump_begin, profdata_dump, d)
{
	if (p->in_dump)
		return fail(p, PROFDATA_EINVAL, "dump_begin inside a dump");
	pd_dump_row r = { *d, p->nobjects, 0 };
	TRY(p, PD_VEC_PUSH(p->dumps, r));
	p->in_dump = 1;
	return 0;
}

static int on_dump_end(void *payload)
{
	profdata_profile *p = payload;
	if (!p->in_dump)
		return fail(p, PROFDATA_EINVAL, "dump_end outside a dump");
	p->in_dump = 0;
	return 0;
}

static int on_heap_info(void *payload, const profdata_heap_info *h)
{
	profdata_profile *p = payload;
	if (!p->in_dump)
		return fail(p, PROFDATA_EINVAL, "heap_info outside a dump");
	pd_heap_row r = { *h, (uint32_t)(p->dumps.n - 1), p->nobjects };
	TRY(p, PD_VEC_PUSH(p->heaps, r));
	return 0;
}

static int on_root(void *payload, const profdata_root *r)
{
	profdata_profile *p = payload;
	if (!p->in_dump)
		return fail(p, PROFDATA_EINVAL, "root outside a dump");
	pd_root_row row = { *r, (uint32_t)(p->dumps.n - 1) };
	TRY(p, PD_VEC_PUSH(p->roots, row));
	return 0;
}

/* Grow every object column together. */
static int grow_objects(profdata_profile *p)
{
	size_t ncap = p->objcap ? p->objcap * 2 : 1024;
#define GROW_COL(col) do { \
		if (pd_regrow((void **)&p->col, p->objcap * sizeof(*p->col), ncap * sizeof(*p->col)) < 0) \
			return NOMEM(p); \
	} while (0)
	if (pd_col64_reserve(&p->obj_id, ncap) < 0 || pd_col64_reserve(&p->obj_data, ncap) < 0)
		return NOMEM(p);
	GROW_COL(obj_ck);
	GROW_COL(obj_len);
	if (p->obj_trace)
		GROW_COL(obj_trace);
	if (p->obj_size)
		GROW_COL(obj_size);
	if (p->obj_refs_start && pd_regrow((void **)&p->obj_refs_start, (p->objcap + 1) * sizeof(*p->obj_refs_start),
	                                   (ncap + 1) * sizeof(*p->obj_refs_start)) < 0)
		return NOMEM(p);
#undef GROW_COL
	p->objcap = ncap;
	return 0;
}

/* Materialise an optional column at its constant value when the first exception arrives. */
static int open_column(profdata_profile *p, void **col, size_t elem, uint64_t fill)
{
	void *c = pd_huge_malloc(p->objcap * elem);
	if (!c)
		return NOMEM(p);
	for (size_t i = 0; i < p->nobjects; i++) {
		if (elem == 4)
			((uint32_t *)c)[i] = (uint32_t)fill;
		else
			((uint64_t *)c)[i] = fill;
	}
	*col = c;
	return 0;
}

static int on_object(void *payload, const profdata_object *o)
{
	profdata_profile *p = payload;
	if (!p->in_dump)
		return fail(p, PROFDATA_EINVAL, "object outside a dump");
	if (o->length > UINT32_MAX)
		return fail(p, PROFDATA_ELIMIT, "an object longer than 2^32 elements");
	if (p->nobjects >= UINT32_MAX - 1)
		return fail(p, PROFDATA_ELIMIT, "more than 2^32 objects");
	int e;
	if (p->nobjects == p->objcap && (e = grow_objects(p)) < 0)
		return e;
	size_t i = p->nobjects;
	uint32_t crow = PD_OBJ_NO_CLASS;
	if (o->class_id) {
		/* Objects of one class come in runs: remember the last few lookups. */
		size_t slot = (size_t)(o->class_id ^ (o->class_id >> 11)) & (PD_CLASS_CACHE - 1);
		if (p->class_cache_id[slot] == o->class_id) {
			crow = p->class_cache_row[slot];
		} else {
			if ((e = class_row(p, o->class_id, &crow)) < 0)
				return e;
			p->class_cache_id[slot] = o->class_id;
			p->class_cache_row[slot] = crow;
		}
	}
	if (o->class_id && crow >= PD_OBJ_MAX_CLASSES)  /* the class takes 24 bits of obj_ck */
		return fail(p, PROFDATA_ELIMIT, "objects of more than 16,777,214 classes");
	unsigned kind = (o->kind & 3) | ((o->elem_type & 15u) << 2) | ((o->flags & PROFDATA_OBJECT_NODATA) ? 64 : 0);
	p->obj_ck[i] = crow | (uint32_t)kind << 24;
	p->obj_len[i] = (uint32_t)o->length;
	uint64_t pos = UINT64_MAX;
	if (o->data) {
		const unsigned char *d = o->data;
		const unsigned char *b = p->blob ? pd_blob_data(p->blob) : NULL;
		uint64_t span = p->blob ? pd_blob_size(p->blob) : 0;
		if (b && d >= b && o->data_len <= span && (uint64_t)(d - b) <= span - o->data_len) {
			pos = (uint64_t)(d - b);
		} else {
			size_t off;
			if (o->data_len > SIZE_MAX / 2 || pd_arena_put(&p->payload, d, (size_t)o->data_len, &off) < 0)
				return NOMEM(p);
			pos = p->arena_base + off;
		}
	}
	if (pd_col64_set(&p->obj_id, i, i, o->id) < 0 || pd_col64_set(&p->obj_data, i, i, pos) < 0)
		return NOMEM(p);
	if (i == 0)
		p->obj_trace0 = o->trace_serial;
	if (!p->obj_trace && o->trace_serial != p->obj_trace0 &&
	    (e = open_column(p, (void **)&p->obj_trace, 4, p->obj_trace0)) < 0)
		return e;
	if (p->obj_trace)
		p->obj_trace[i] = o->trace_serial;
	if (!p->obj_size && o->size && (e = open_column(p, (void **)&p->obj_size, 8, 0)) < 0)
		return e;
	if (p->obj_size)
		p->obj_size[i] = o->size;
	if (!p->obj_refs_start && o->refs) {
		p->obj_refs_start = pd_huge_calloc(p->objcap + 1, sizeof(*p->obj_refs_start));
		if (!p->obj_refs_start)
			return NOMEM(p);
	}
	if (p->obj_refs_start) {
		uint64_t start = p->obj_refs.n;
		if (o->refs) {
			TRY(p, pd_grow((void **)&p->obj_refs.v, &p->obj_refs.cap, p->obj_refs.n + o->nrefs, 8));
			if (o->nrefs)
				memcpy(p->obj_refs.v + p->obj_refs.n, o->refs, o->nrefs * 8);
			p->obj_refs.n += o->nrefs;
		}
		p->obj_refs_start[i] = start;
		p->obj_refs_start[i + 1] = p->obj_refs.n;
	}
	p->nobjects++;
	p->dumps.v[p->dumps.n - 1].nobjects++;
	return 0;
}

/* Keep a record's bytes for row `r`; 0 or PROFDATA_ENOMEM. */
static int put_bytes(profdata_profile *p, pd_blobref_row *r, const void *data, uint64_t len)
{
	if (len > SIZE_MAX / 2)
		return PROFDATA_ENOMEM;
	r->len = len;
	return pd_arena_put(&p->bytes, data, (size_t)len, &r->data_off);
}

BEGUN_EVENT(unknown, profdata_unknown, u)
{
	pd_blobref_row r = { .tag = u->tag, .time_us = u->time_us, .in_dump = u->in_dump,
	                     .dump = p->dumps.n ? (uint32_t)(p->dumps.n - 1) : 0 };
	TRY(p, put_bytes(p, &r, u->data, u->len));
	TRY(p, PD_VEC_PUSH(p->unknowns, r));
	return 0;
}

BEGUN_EVENT(attachment, profdata_attachment, a)
{
	pd_blobref_row r;
	memset(&r, 0, sizeof(r));
	TRY(p, put_text(p, a->name, &r.name_off));
	TRY(p, put_bytes(p, &r, a->data, a->len));
	TRY(p, PD_VEC_PUSH(p->attachments, r));
	return 0;
}

BEGUN_EVENT(trace_event, profdata_trace_event, t)
{
	pd_trace_row r;
	r.e = *t;
	r.e.attrs = NULL;
	r.attrs_off = p->kvs.n;
	for (size_t i = 0; i < t->nattrs; i++) {
		pd_kv_row kv;
		TRY(p, put_text(p, t->attrs[i].key, &kv.key_off));
		TRY(p, put_text(p, t->attrs[i].value, &kv.value_off));
		TRY(p, PD_VEC_PUSH(p->kvs, kv));
	}
	TRY(p, PD_VEC_PUSH(p->traces, r));
	return 0;
}

static int on_end(void *payload)
{
	profdata_profile *p = payload;
	int e = need_begun(p, "end");
	if (e)
		return e;
	if (p->in_dump)
		return fail(p, PROFDATA_EINVAL, "end inside a dump");
	p->ended = 1;
	pd_prefault_wait(&p->stack_frames_ahead);
	return pd_profile_finish(p);
}

/* Trace contexts are built in the trace part of the model (pd_model_on_trace_context). */
static int on_trace_context(void *payload, const profdata_trace_context *c)
{
	return pd_model_on_trace_context(payload, c);
}

/* Sample labels are kept apart, set by set (pd_model_on_sample_labels). */
static int on_sample_labels(void *payload, const profdata_sample_labels *l)
{
	return pd_model_on_sample_labels(payload, l);
}

static const profdata_events builder_events = { PD_EVERY_EVENT(on_) };

const profdata_events *profdata_profile_builder_events(void)
{
	return &builder_events;
}

/* The caller's table may be a 0.1 one: write version 1's members and no more. */
void profdata_profile_builder(profdata_events *ev)
{
	memcpy(ev, &builder_events, PD_EVENTS_SIZE_V1);
	ev->version = 1;
}

void pd_profile_set_source(profdata_profile *p, pd_blob *blob, const char *format_name)
{
	(void)format_name;
	if (blob && p->nobjects == 0) {  /* positions already given stay with the blob they name */
		pd_blob_retain(blob);
		pd_blob_release(p->blob);
		p->blob = blob;
		p->arena_base = pd_blob_size(blob) + 1;  /* a payload may end the blob: its position is the size */
	}
}

/* Flatten each class's layout into the offsets of its reference fields. */
static int flatten_layouts(profdata_profile *p)
{
	pd_jvm_layout l;
	memset(&l, 0, sizeof(l));
	l.want_offsets = 1;
	for (size_t ci = 0; ci < p->classes.n; ci++) {
		pd_class_row *c = &p->classes.v[ci];
		c->layout_ok = 0;
		c->nref_offsets = 0;
		if (!c->has_dump)
			continue;
		int e = pd_class_flatten(p, ci, &l);
		if (e == PROFDATA_ENOMEM) {
			pd_jvm_layout_free(&l);
			return NOMEM(p);
		}
		if (e != 1 || l.bad_type || l.bytes > UINT32_MAX)
			continue;
		c->ref_offsets_off = p->ref_offsets.n;
		for (size_t k = 0; k < l.nrefs; k++)
			if (PD_VEC_PUSH(p->ref_offsets, l.ref_offsets[k]) < 0) {
				pd_jvm_layout_free(&l);
				return NOMEM(p);
			}
		c->nref_offsets = l.nrefs;
		c->prim_bytes = (uint32_t)l.prim_bytes;
		c->layout_ok = 1;
	}
	pd_jvm_layout_free(&l);
	return 0;
}

static const char *model_string(const void *table, uint64_t id)
{
	return profdata_profile_string(table, id, NULL);
}

static void decide_sizes(profdata_profile *p)
{
	pd_jvm_hints hints;
	memset(&hints, 0, sizeof(hints));
	for (size_t ci = 0; ci < p->classes.n; ci++) {
		const pd_class_row *c = &p->classes.v[ci];
		if (!c->has_dump || !c->has_load)
			continue;
		pd_jvm_note_class(&hints, profdata_profile_string(p, c->load.name_id, NULL), c->dump.super_id,
		                  c->dump.instance_size, c->dump.nstatics ? p->fields.v + c->statics_off : NULL,
		                  c->dump.nstatics, model_string, p);
	}
	pd_jvm_decide(p->meta.id_size ? p->meta.id_size : 8, &hints, &p->jvm);
}

/* The 0-based dump that holds object i. */
static uint32_t dump_of(const profdata_profile *p, size_t i)
{
	uint32_t dump = 0;
	profdata_profile_object_place(p, i, &dump, NULL);
	return dump;
}

static void warn_repeat(profdata_profile *p, size_t i)
{
	pd_diag_warn(&p->diag, PROFDATA_EFORMAT, PD_NO_OFFSET, 0,
	             "object id 0x%llx appears twice in dump %u; lookups find the first",
	             (unsigned long long)pd_obj_id(p, i), dump_of(p, i));
}

/* A repeat in the whole model's index: damage when within the first dump (later dumps: below). */
static void on_repeat_in_model(void *payload, size_t row, size_t first_row)
{
	profdata_profile *p = payload;
	(void)first_row;
	if (dump_of(p, row) == 0)
		warn_repeat(p, row);
}

/* A repeat within one later dump's own index. */
static void on_repeat_in_dump(void *payload, size_t row, size_t first_row)
{
	(void)first_row;
	warn_repeat(payload, row);
}

/*
 * Ids are per dump: the HPROF agent writes every object again in a second
 * dump, so only a repeat within one dump is damage. The lookup index keeps
 * each id's first object, all dumps together; so a dump after the first
 * has its repeats found by an index of its own, made and dropped here.
 */
static int warn_repeats_in_later_dumps(profdata_profile *p)
{
	for (size_t d = 1; d < p->dumps.n; d++) {
		size_t first = p->dumps.v[d].first_object, end = first + p->dumps.v[d].nobjects;
		pd_id_index ix;
		int e = pd_id_index_build(&ix, &p->obj_id, p->nobjects, first, end, on_repeat_in_dump, p);
		pd_id_index_free(&ix);
		if (e < 0)
			return PROFDATA_ENOMEM;
	}
	return 0;
}

/* The model's id index, and the warnings of repeated ids, in the order of the objects. */
static int index_objects(profdata_profile *p)
{
	if (pd_id_index_build(&p->obj_index, &p->obj_id, p->nobjects, 0, p->nobjects, on_repeat_in_model, p) < 0)
		return PROFDATA_ENOMEM;
	int narrow = p->obj_id.narrow != NULL;
	if (warn_repeats_in_later_dumps(p) < 0)
		return PROFDATA_ENOMEM;
	if (!narrow || p->obj_id.narrow)
		return 0;
	/* A later dump's index widened the ids (its own were sparse): the model's reads them anew. */
	pd_id_index_free(&p->obj_index);
	return pd_id_index_build(&p->obj_index, &p->obj_id, p->nobjects, 0, p->nobjects, NULL, NULL);
}

int pd_profile_finish(profdata_profile *p)
{
	p->meta.format = pd_text(p, p->meta_format_off);
	p->meta.version = p->has_version ? pd_text(p, p->meta_version_off) : NULL;
	p->meta.period_type = p->has_ptype ? pd_text(p, p->meta_ptype_off) : NULL;
	p->meta.period_unit = p->has_punit ? pd_text(p, p->meta_punit_off) : NULL;
	if (p->kvs.n) {
		free(p->kv_view);
		p->kv_view = malloc(p->kvs.n * sizeof(*p->kv_view));
		if (!p->kv_view)
			return NOMEM(p);
		for (size_t i = 0; i < p->kvs.n; i++) {
			p->kv_view[i].key = pd_text(p, p->kvs.v[i].key_off);
			p->kv_view[i].value = pd_text(p, p->kvs.v[i].value_off);
		}
	}
	p->meta.comments = p->meta_nkvs ? p->kv_view + p->meta_kvs_off : NULL;
	p->meta.ncomments = p->meta_nkvs;
	TRY(p, index_objects(p));
	for (size_t i = 0; i < p->unloads.n; i++) {
		size_t ci;
		if (profdata_profile_find_class_serial(p, p->unloads.v[i].serial, &ci) == 0)
			p->classes.v[ci].unloaded = 1;
	}
	p->finished = 1;
	decide_sizes(p);
	return flatten_layouts(p);
}
