/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Class histograms, two ways with one set of rules (jvm/jvm.h):
 *
 * - streaming (pd_histogram_events, which core/histogram_read.c puts behind
 *   the decoder for profdata_histogram_read): decoder events in, counts per
 *   class out, holding nothing per object. Array sizes depend on the reference
 *   size, which only the class dumps reveal, so arrays are summed under each
 *   shape a JVM can have (pd_jvm_shape) and the right sum is picked at the
 *   end; instances are counted per class and sized by their flattened layout
 *   then.
 * - from a model (profdata_histogram_new): each object's size is
 *   profdata_profile_object_size(), read straight from the tables.
 */
#include "analysis/histogram.h"
#include "model/model_impl.h"
#include "jvm/jvm.h"
#include "util/hashmap.h"

#include <stdlib.h>
#include <string.h>

enum { PRIM_TYPES = 12 };

typedef struct cls {
	uint64_t name_id;         /* first load's name */
	uint64_t super_id;
	int has_dump, has_load;
	uint32_t stated_isize;
	size_t types_off, nfields; /* own instance field types of its first dump, into field_types */
	uint64_t instances;
	uint64_t arr_sum[PD_JVM_SHAPES];
	uint64_t stated_bytes;    /* bytes of objects whose format stated their size */
	pd_jvm_payload_sums unstated; /* instances without a stated size, sized at the end */
} cls;

struct profdata_histogram {
	unsigned id_size;
	long want_dump;           /* dump to count, or PROFDATA_HISTOGRAM_ALL_DUMPS */
	long dump;                /* index of the dump being read */
	pd_jvm_hints hints;
	/* Strings by id over their id column: one probe per string, and no hashing
	 * of their bytes, which most strings of a dump (symbols) never need. */
	PD_VEC(uint64_t) str_ids;
	PD_VEC(size_t) str_off;
	pd_index str_ix;
	pd_arena text;
	PD_VEC(cls) classes;
	PD_VEC(uint64_t) class_ids;
	PD_VEC(uint8_t) field_types;
	pd_index class_ix;
	cls prim[PRIM_TYPES];     /* primitive arrays without a class id, by element type */
	/* Objects of a class come in runs and a heap has few classes: a small
	 * direct-mapped cache in front of the hash index saves most lookups. */
	struct { uint64_t id; uint32_t row; } cache[256];
	/* results */
	profdata_histogram_entry *entries;
	size_t nentries;
	char *names;
	uint64_t total_instances, total_bytes;
	int failed;
	pd_diag diag;             /* why profdata_histogram_new() failed */
};

static const char *str_of(const void *table, uint64_t id)
{
	const profdata_histogram *h = table;
	uint32_t row;
	if (!id || !pd_index_find(&h->str_ix, h->str_ids.v, id, &row))
		return NULL;
	return (const char *)h->text.p + h->str_off.v[row];
}

static cls *class_of(profdata_histogram *h, uint64_t id)
{
	uint32_t row;
	if (pd_index_find(&h->class_ix, h->class_ids.v, id, &row))
		return &h->classes.v[row];
	cls c;
	memset(&c, 0, sizeof(c));
	if (PD_VEC_PUSH(h->classes, c) < 0 || PD_VEC_PUSH(h->class_ids, id) < 0 ||
	    pd_index_add(&h->class_ix, h->class_ids.v, (uint32_t)(h->classes.n - 1), NULL) < 0) {
		h->failed = 1;
		return NULL;
	}
	return &h->classes.v[h->classes.n - 1];
}

static int on_begin(void *payload, const profdata_meta *m)
{
	profdata_histogram *h = payload;
	h->id_size = m->id_size ? m->id_size : (m->word_size ? m->word_size : 8);
	return 0;
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	profdata_histogram *h = payload;
	size_t off;
	if (h->str_ids.n >= UINT32_MAX - 1 || pd_arena_put(&h->text, utf8, len, &off) < 0)
		return PROFDATA_ENOMEM;
	h->text.p[h->text.len++] = '\0';
	if (PD_VEC_PUSH(h->str_ids, id) < 0 || PD_VEC_PUSH(h->str_off, off) < 0)
		return PROFDATA_ENOMEM;
	int a = pd_index_add(&h->str_ix, h->str_ids.v, (uint32_t)(h->str_ids.n - 1), NULL);
	if (a < 0)
		return PROFDATA_ENOMEM;
	if (a == 1) { /* keep the first definition */
		h->str_ids.n--;
		h->str_off.n--;
		h->text.len = off;
	}
	return 0;
}

static int on_class_load(void *payload, const profdata_class_load *c)
{
	profdata_histogram *h = payload;
	cls *k = class_of(h, c->id);
	if (!k)
		return PROFDATA_ENOMEM;
	if (!k->has_load) {
		k->has_load = 1;
		k->name_id = c->name_id;
	}
	return 0;
}

static int on_class_dump(void *payload, const profdata_class_dump *c)
{
	profdata_histogram *h = payload;
	cls *k = class_of(h, c->id);
	if (!k)
		return PROFDATA_ENOMEM;
	if (k->has_dump)
		return 0;
	k->has_dump = 1;
	k->super_id = c->super_id;
	k->stated_isize = c->instance_size;
	k->types_off = h->field_types.n;
	k->nfields = c->nfields;
	for (size_t i = 0; i < c->nfields; i++)
		if (PD_VEC_PUSH(h->field_types, (uint8_t)c->fields[i].type) < 0)
			return PROFDATA_ENOMEM;
	pd_jvm_note_class(&h->hints, str_of(h, k->name_id), c->super_id, c->instance_size, c->statics, c->nstatics,
	                  str_of, h);
	return 0;
}

static int on_dump_begin(void *payload, const profdata_dump *d)
{
	profdata_histogram *h = payload;
	(void)d;
	h->dump++;
	return 0;
}

/* Out of line, so that the per-object step (on_object) stays small enough to keep in registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static cls *cache_miss(profdata_histogram *h, uint64_t id, size_t slot)
{
	cls *k = class_of(h, id);
	if (k) {
		h->cache[slot].id = id;
		h->cache[slot].row = (uint32_t)(k - h->classes.v);
	}
	return k;
}

static inline cls *cached_class(profdata_histogram *h, uint64_t id)
{
	size_t slot = (size_t)(id ^ (id >> 11)) & 255;
	if (PD_LIKELY(h->cache[slot].id == id))
		return &h->classes.v[h->cache[slot].row];
	return cache_miss(h, id, slot);
}

static int on_object(void *payload, const profdata_object *o)
{
	profdata_histogram *h = payload;
	if (h->want_dump != PROFDATA_HISTOGRAM_ALL_DUMPS && h->dump != h->want_dump)
		return 0;
	cls *k;
	unsigned elem = o->elem_type < PRIM_TYPES ? o->elem_type : 0;
	if (o->class_id)
		k = cached_class(h, o->class_id);
	else
		k = &h->prim[elem];
	if (!k)
		return PROFDATA_ENOMEM;
	k->instances++;
	if (o->size) {
		k->stated_bytes += o->size;
		return 0;
	}
	if (o->kind == PROFDATA_OBJECT_INSTANCE) {
		pd_jvm_payload_sums_add(&k->unstated, o->length);
		return 0;
	}
	pd_jvm_array_size_per_shape(o->kind, (int)elem, o->length, k->arr_sum);
	return 0;
}

/* The histogram's classes as the JVM module's layout flattening reads them. */
static int class_fields_view(const void *table, uint64_t class_id, pd_jvm_class_view *v)
{
	const profdata_histogram *h = table;
	uint32_t row;
	if (!pd_index_find(&h->class_ix, h->class_ids.v, class_id, &row) || !h->classes.v[row].has_dump)
		return 0;
	const cls *k = &h->classes.v[row];
	v->fields = NULL;
	v->types = h->field_types.v ? h->field_types.v + k->types_off : NULL; /* no class has fields yet */
	v->nfields = k->nfields;
	v->super_id = k->super_id;
	return 1;
}

/* Bytes of the instances of class `row` that stated no size. */
static int unstated_bytes(profdata_histogram *h, size_t row, const pd_jvm_sizes *sz, pd_jvm_layout *l,
                          uint64_t *bytes)
{
	const cls *k = &h->classes.v[row];
	*bytes = 0;
	if (!k->unstated.count)
		return 0;
	int e = pd_jvm_flatten(l, h->class_ids.v[row], h->id_size, h->classes.n, class_fields_view, h);
	if (e == PROFDATA_ENOMEM)
		return e;
	if (e != 1 || l->bad_type) {
		*bytes = pd_jvm_payload_sums_size(sz, &k->unstated);
		return 0;
	}
	*bytes = k->unstated.count * pd_jvm_instance_size(sz, 1, l->prim_bytes, l->nrefs, k->stated_isize, 0);
	return 0;
}

static int by_bytes(const void *a, const void *b)
{
	const profdata_histogram_entry *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->class_id < y->class_id ? -1 : x->class_id > y->class_id;
}

/* Entries are gathered with their names in one buffer, which entries point into once it stops moving. */
typedef struct entry_list {
	pd_arena names;
	size_t *name_off;
} entry_list;

static int entries_start(profdata_histogram *h, entry_list *l, size_t n)
{
	memset(l, 0, sizeof(*l));
	h->entries = calloc(n ? n : 1, sizeof(*h->entries));
	l->name_off = calloc(n ? n : 1, sizeof(*l->name_off));
	return h->entries && l->name_off ? 0 : PROFDATA_ENOMEM; /* h->entries is freed with h */
}

static int entry_add(profdata_histogram *h, entry_list *l, const char *internal, uint64_t class_id,
                     uint64_t instances, uint64_t bytes)
{
	char tmp[512];
	char *buf = tmp;
	const char *src = internal ? internal : "<unknown class>";
	size_t len = profdata_java_name(src, strlen(src), tmp, sizeof(tmp));
	if (len >= sizeof(tmp)) {
		if (!(buf = malloc(len + 1)))
			return PROFDATA_ENOMEM;
		profdata_java_name(src, strlen(src), buf, len + 1);
	}
	int err = pd_arena_put_str(&l->names, buf, &l->name_off[h->nentries]);
	if (buf != tmp)
		free(buf);
	if (err < 0)
		return PROFDATA_ENOMEM;
	profdata_histogram_entry *e = &h->entries[h->nentries++];
	e->class_id = class_id;
	e->instances = instances;
	e->bytes = bytes;
	h->total_instances += instances;
	h->total_bytes += bytes;
	return 0;
}

static int entries_end(profdata_histogram *h, entry_list *l, int e)
{
	if (e == 0) {
		h->names = (char *)l->names.p;
		l->names.p = NULL;
		for (size_t i = 0; i < h->nentries; i++)
			h->entries[i].name = h->names + l->name_off[i];
		qsort(h->entries, h->nentries, sizeof(*h->entries), by_bytes);
	}
	free(l->names.p);
	free(l->name_off);
	return e;
}

static int add_prim_entries(profdata_histogram *h, entry_list *l, const uint64_t *instances, const uint64_t *bytes)
{
	int e = 0;
	for (int t = 0; t < PRIM_TYPES && e == 0; t++)
		if (instances[t])
			e = entry_add(h, l, pd_jvm_array_internal_name(t), 0, instances[t], bytes[t]);
	return e;
}

static int finish(profdata_histogram *h)
{
	pd_jvm_sizes sz;
	pd_jvm_decide(h->id_size, &h->hints, &sz);
	unsigned shape = pd_jvm_shape_index(&sz);
	entry_list l;
	pd_jvm_layout layout;
	memset(&layout, 0, sizeof(layout));
	int e = entries_start(h, &l, h->classes.n + PRIM_TYPES);
	for (size_t i = 0; i < h->classes.n && e == 0; i++) {
		const cls *k = &h->classes.v[i];
		uint64_t bytes;
		if (!k->instances || (e = unstated_bytes(h, i, &sz, &layout, &bytes)) < 0)
			continue;
		/* By what the objects were, not by the name: the old agent named arrays "char[]". */
		bytes += k->stated_bytes + k->arr_sum[shape];
		e = entry_add(h, &l, str_of(h, k->name_id), h->class_ids.v[i], k->instances, bytes);
	}
	pd_jvm_layout_free(&layout);
	uint64_t prim_instances[PRIM_TYPES], prim_bytes[PRIM_TYPES];
	for (int t = 0; t < PRIM_TYPES; t++) {
		prim_instances[t] = h->prim[t].instances;
		prim_bytes[t] = h->prim[t].stated_bytes + h->prim[t].arr_sum[shape];
	}
	if (e == 0)
		e = add_prim_entries(h, &l, prim_instances, prim_bytes);
	return entries_end(h, &l, e);
}

const profdata_events pd_histogram_events = {
	.version = PROFDATA_EVENTS_VERSION,
	.begin = on_begin,
	.string = on_string,
	.class_load = on_class_load,
	.class_dump = on_class_dump,
	.dump_begin = on_dump_begin,
	.object = on_object,
};

static void release_work(profdata_histogram *h)
{
	free(h->str_ids.v);
	free(h->str_off.v);
	pd_index_free(&h->str_ix);
	free(h->text.p);
	free(h->classes.v);
	free(h->class_ids.v);
	free(h->field_types.v);
	pd_index_free(&h->class_ix);
	memset(&h->str_ids, 0, sizeof(h->str_ids));
	memset(&h->str_off, 0, sizeof(h->str_off));
	memset(&h->str_ix, 0, sizeof(h->str_ix));
	memset(&h->text, 0, sizeof(h->text));
	memset(&h->classes, 0, sizeof(h->classes));
	memset(&h->class_ids, 0, sizeof(h->class_ids));
	memset(&h->field_types, 0, sizeof(h->field_types));
}

int pd_histogram_conclude(profdata_histogram *h, int e, profdata_histogram **out)
{
	if (e == 0 && h->failed)
		e = PROFDATA_ENOMEM;
	if (e == 0)
		e = finish(h);
	release_work(h);
	if (e != 0) {
		profdata_histogram_free(h);
		return e; /* a stop asked by the reader's progress callback is positive */
	}
	*out = h;
	return 0;
}

profdata_histogram *pd_histogram_new(long dump)
{
	profdata_histogram *h = calloc(1, sizeof(*h));
	if (h) {
		h->want_dump = dump;
		h->dump = -1;
	}
	return h;
}

/* Instances and bytes per class row of the model, then per element type of class-less arrays. */
static void tally_model(const profdata_profile *p, size_t first, size_t end, uint64_t *instances, uint64_t *bytes)
{
	size_t ncls = p->classes.n;
	for (size_t i = first; i < end; i++) {
		uint32_t c = pd_obj_class(p, i);
		size_t elem = ((size_t)pd_obj_kind(p, i) >> 2) & 15;
		size_t slot = c != UINT32_MAX ? c : ncls + (elem < PRIM_TYPES ? elem : 0);
		instances[slot]++;
		bytes[slot] += profdata_profile_object_size(p, i);
	}
}

static int from_model(profdata_histogram *h, const profdata_profile *p, long dump)
{
	size_t first = 0, end = p->nobjects, ncls = p->classes.n;
	if (dump != PROFDATA_HISTOGRAM_ALL_DUMPS) {
		if (dump < 0 || (size_t)dump >= p->dumps.n)
			end = 0;
		else
			first = p->dumps.v[dump].first_object, end = first + p->dumps.v[dump].nobjects;
	}
	uint64_t *instances = calloc(ncls + PRIM_TYPES, sizeof(*instances));
	uint64_t *bytes = calloc(ncls + PRIM_TYPES, sizeof(*bytes));
	entry_list l;
	int e = entries_start(h, &l, ncls + PRIM_TYPES);
	if (!instances || !bytes)
		e = PROFDATA_ENOMEM;
	if (e == 0)
		tally_model(p, first, end, instances, bytes);
	for (size_t c = 0; c < ncls && e == 0; c++) {
		const pd_class_row *r = &p->classes.v[c];
		if (instances[c])
			e = entry_add(h, &l, r->has_load ? profdata_profile_string(p, r->load.name_id, NULL) : NULL, r->id,
			              instances[c], bytes[c]);
	}
	if (e == 0)
		e = add_prim_entries(h, &l, instances + ncls, bytes + ncls);
	free(instances);
	free(bytes);
	return entries_end(h, &l, e);
}

int profdata_histogram_new(profdata_histogram **out, const profdata_profile *p, long dump)
{
	profdata_histogram *h = *out = pd_histogram_new(dump);
	if (!h)
		return PROFDATA_ENOMEM;
	int e = from_model(h, p, dump);
	if (e != 0)
		pd_diag_error(&h->diag, e, PD_NO_OFFSET, 0, "%s counting the objects of %zu classes",
		              profdata_strerror(e), p->classes.n);
	return e;
}

const profdata_error *profdata_histogram_error(const profdata_histogram *h) { return pd_diag_last(&h->diag); }

int profdata_histogram_from_profile(profdata_histogram **out, const profdata_profile *p, long dump)
{
	int e = profdata_histogram_new(out, p, dump);
	if (e != 0) {
		profdata_histogram_free(*out);
		*out = NULL;
	}
	return e;
}

size_t profdata_histogram_count(const profdata_histogram *h) { return h->nentries; }

const profdata_histogram_entry *profdata_histogram_entry_at(const profdata_histogram *h, size_t i)
{
	return i < h->nentries ? &h->entries[i] : NULL;
}

uint64_t profdata_histogram_total_instances(const profdata_histogram *h) { return h->total_instances; }
uint64_t profdata_histogram_total_bytes(const profdata_histogram *h) { return h->total_bytes; }

void profdata_histogram_free(profdata_histogram *h)
{
	if (!h)
		return;
	release_work(h);
	pd_diag_free(&h->diag);
	free(h->entries);
	free(h->names);
	free(h);
}
