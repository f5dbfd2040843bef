/*
 * Class histograms as an events consumer: the streaming pass and the model
 * (replayed as events) share every line of the counting.
 *
 * Array sizes depend on the reference size, which is only known once the
 * class dumps that reveal it have been seen; so arrays are summed under each
 * possible (header, reference) pair and the right sum is picked at the end.
 */
#include "model/model_impl.h"
#include "jvm/jvmsize.h"

#include <stdlib.h>
#include <string.h>

enum { LAYOUTS = 3 };
static const unsigned layout_h[LAYOUTS] = { 8, 12, 16 };
static const unsigned layout_r[LAYOUTS] = { 4, 4, 8 };

typedef struct cls {
	uint64_t name_id;         /* first load's name */
	uint64_t super_id;
	int has_dump, has_load;
	uint32_t stated_isize;
	uint32_t prim_bytes;      /* own primitive field bytes */
	uint32_t nrefs;           /* own reference fields */
	uint64_t instances;
	uint64_t arr_sum[LAYOUTS];
	uint64_t stated_bytes;    /* bytes of objects whose format stated their size */
	uint64_t unstated;        /* instances without a stated size */
} cls;

struct profdata_histogram {
	unsigned id_size;
	long want_dump;           /* dump to count, or PROFDATA_HISTOGRAM_ALL_DUMPS */
	long dump;                /* index of the dump being read */
	pd_jvm_hints hints;
	PD_VEC(uint64_t) str_ids;
	PD_VEC(size_t) str_off;
	pd_index str_ix;
	pd_arena text;
	PD_VEC(cls) classes;
	PD_VEC(uint64_t) class_ids;
	pd_index class_ix;
	cls prim[12];             /* primitive arrays without a class id, by element type */
	/* Objects of a class come in runs and a heap has few classes: a small
	 * direct-mapped cache in front of the hash index saves most lookups. */
	struct { uint64_t id; uint32_t row; } cache[256];
	/* results */
	profdata_histogram_entry *entries;
	size_t nentries;
	char *names;
	uint64_t total_instances, total_bytes;
	int failed;
};

static const char *str_of(const profdata_histogram *h, uint64_t id)
{
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
	if (pd_arena_put(&h->text, utf8, len, &off) < 0)
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
	for (size_t i = 0; i < c->nfields; i++) {
		if (c->fields[i].type == PROFDATA_TYPE_OBJECT)
			k->nrefs++;
		else
			k->prim_bytes += profdata_basic_type_size(c->fields[i].type, h->id_size);
	}
	const char *name = str_of(h, k->name_id);
	if (!name)
		return 0;
	if (!c->super_id && strcmp(name, "java/lang/Object") == 0)
		h->hints.object_instance_size = c->instance_size;
	for (size_t i = 0; i < c->nstatics; i++)
		if (c->statics[i].type == PROFDATA_TYPE_LONG || c->statics[i].type == PROFDATA_TYPE_INT)
			pd_jvm_note_static(&h->hints, name, str_of(h, c->statics[i].name_id),
			                   c->statics[i].type == PROFDATA_TYPE_INT ? (int32_t)c->statics[i].value
			                                                           : (int64_t)c->statics[i].value);
	return 0;
}

static int on_dump_begin(void *payload, const profdata_dump *d)
{
	profdata_histogram *h = payload;
	(void)d;
	h->dump++;
	return 0;
}

/* Element sizes of primitive arrays by profdata_basic_type (objects are sized per layout). */
static const uint8_t prim_size[12] = { 0, 0, 0, 0, 1, 2, 4, 8, 1, 2, 4, 8 };

static cls *cached_class(profdata_histogram *h, uint64_t id)
{
	size_t slot = (size_t)(id ^ (id >> 11)) & 255;
	if (h->cache[slot].id == id)
		return &h->classes.v[h->cache[slot].row];
	cls *k = class_of(h, id);
	if (k) {
		h->cache[slot].id = id;
		h->cache[slot].row = (uint32_t)(k - h->classes.v);
	}
	return k;
}

static int on_object(void *payload, const profdata_object *o)
{
	profdata_histogram *h = payload;
	if (h->want_dump != PROFDATA_HISTOGRAM_ALL_DUMPS && h->dump != h->want_dump)
		return 0;
	cls *k;
	unsigned elem = o->elem_type < 12 ? o->elem_type : 0;
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
		k->unstated++; /* sized per class at the end */
		return 0;
	}
	if (o->kind == PROFDATA_OBJECT_ARRAY) {
		for (int l = 0; l < LAYOUTS; l++)
			k->arr_sum[l] += pd_align8(layout_h[l] + 4 + o->length * layout_r[l]);
	} else {
		uint64_t bytes = o->length * prim_size[elem];
		for (int l = 0; l < LAYOUTS; l++)
			k->arr_sum[l] += pd_align8(layout_h[l] + 4 + bytes);
	}
	return 0;
}

/* Bytes of all fields along the chain, references counted as `ref`; 0 when the chain is broken. */
static uint64_t instance_fields(profdata_histogram *h, const cls *k, unsigned ref)
{
	uint64_t sum = 0;
	for (size_t hops = 0; k && hops <= h->classes.n; hops++) {
		if (!k->has_dump)
			return sum;
		sum += k->prim_bytes + (uint64_t)k->nrefs * ref;
		if (!k->super_id)
			return sum;
		uint32_t row;
		k = pd_index_find(&h->class_ix, h->class_ids.v, k->super_id, &row) ? &h->classes.v[row] : NULL;
	}
	return sum;
}

static const char *prim_internal(int type)
{
	switch (type) {
	case PROFDATA_TYPE_BOOLEAN: return "[Z";
	case PROFDATA_TYPE_CHAR: return "[C";
	case PROFDATA_TYPE_FLOAT: return "[F";
	case PROFDATA_TYPE_DOUBLE: return "[D";
	case PROFDATA_TYPE_BYTE: return "[B";
	case PROFDATA_TYPE_SHORT: return "[S";
	case PROFDATA_TYPE_INT: return "[I";
	case PROFDATA_TYPE_LONG: return "[J";
	default: return "[?";
	}
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

static int finish(profdata_histogram *h)
{
	pd_jvm_sizes sz;
	pd_jvm_decide(h->id_size, &h->hints, &sz);
	int l = sz.ref == 8 ? 2 : (sz.header == 8 ? 0 : 1);
	size_t n = h->classes.n + 12;
	h->entries = calloc(n, sizeof(*h->entries));
	if (!h->entries)
		return PROFDATA_ENOMEM;
	/* Names go into one buffer; entries point into it once it stops moving. */
	pd_arena names = { NULL, 0, 0 };
	size_t *name_off = calloc(n, sizeof(*name_off));
	if (!name_off)
		return PROFDATA_ENOMEM; /* h->entries is freed with h */
	for (size_t i = 0; i < n; i++) {
		int is_prim = i >= h->classes.n;
		cls *k = is_prim ? &h->prim[i - h->classes.n] : &h->classes.v[i];
		if (!k->instances)
			continue;
		profdata_histogram_entry *e = &h->entries[h->nentries];
		uint64_t bytes = k->stated_bytes;
		const char *internal;
		if (is_prim) {
			internal = prim_internal((int)(i - h->classes.n));
			e->class_id = 0;
			bytes += k->arr_sum[l];
		} else {
			internal = str_of(h, k->name_id);
			e->class_id = h->class_ids.v[i];
			/* By what the objects were, not by the name: the old agent named arrays "char[]". */
			bytes += k->arr_sum[l];
			if (sz.stated_instances)
				bytes += k->unstated * k->stated_isize;
			else
				bytes += k->unstated * pd_align8(sz.header + instance_fields(h, k, sz.ref));
		}
		char tmp[512];
		char *buf = tmp;
		const char *src = internal ? internal : "<unknown class>";
		size_t len = profdata_java_name(src, strlen(src), tmp, sizeof(tmp));
		if (len >= sizeof(tmp)) {
			buf = malloc(len + 1);
			if (!buf) {
				free(name_off);
				free(names.p);
				return PROFDATA_ENOMEM;
			}
			profdata_java_name(src, strlen(src), buf, len + 1);
		}
		int err = pd_arena_put_str(&names, buf, &name_off[h->nentries]);
		if (buf != tmp)
			free(buf);
		if (err < 0) {
			free(name_off);
			free(names.p);
			return PROFDATA_ENOMEM;
		}
		e->instances = k->instances;
		e->bytes = bytes;
		h->total_instances += e->instances;
		h->total_bytes += bytes;
		h->nentries++;
	}
	h->names = (char *)names.p;
	for (size_t i = 0; i < h->nentries; i++)
		h->entries[i].name = h->names + name_off[i];
	free(name_off);
	qsort(h->entries, h->nentries, sizeof(*h->entries), by_bytes);
	return 0;
}

static void events_of(profdata_events *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->version = PROFDATA_EVENTS_VERSION;
	ev->begin = on_begin;
	ev->string = on_string;
	ev->class_load = on_class_load;
	ev->class_dump = on_class_dump;
	ev->object = on_object;
	ev->dump_begin = on_dump_begin;
}

static void release_work(profdata_histogram *h)
{
	free(h->str_ids.v);
	free(h->str_off.v);
	pd_index_free(&h->str_ix);
	free(h->text.p);
	free(h->classes.v);
	free(h->class_ids.v);
	pd_index_free(&h->class_ix);
	memset(&h->str_ids, 0, sizeof(h->str_ids));
	memset(&h->str_off, 0, sizeof(h->str_off));
	memset(&h->text, 0, sizeof(h->text));
	memset(&h->classes, 0, sizeof(h->classes));
	memset(&h->class_ids, 0, sizeof(h->class_ids));
}

static int conclude(profdata_histogram *h, int e, profdata_histogram **out)
{
	if (e == 0 && h->failed)
		e = PROFDATA_ENOMEM;
	if (e == 0)
		e = finish(h);
	release_work(h);
	if (e != 0) {
		profdata_histogram_free(h);
		return e < 0 ? e : PROFDATA_ERROR;
	}
	*out = h;
	return 0;
}

static profdata_histogram *histogram_new(long dump)
{
	profdata_histogram *h = calloc(1, sizeof(*h));
	if (h) {
		h->want_dump = dump;
		h->dump = -1;
	}
	return h;
}

int profdata_histogram_read(profdata_histogram **out, profdata_reader *in, const profdata_read_options *opts,
                            long dump)
{
	*out = NULL;
	profdata_histogram *h = histogram_new(dump);
	if (!h)
		return PROFDATA_ENOMEM;
	profdata_events ev;
	events_of(&ev);
	int e = profdata_decode(in, opts, &ev, h);
	e = conclude(h, e, out);
	/* A consumer's own failure (memory) stops the decoder without a message: give it one. */
	if (e < 0 && !profdata_reader_error(in))
		pd_in_error(in, e, pd_in_offset(in), "histogram: %s", profdata_strerror(e));
	return e;
}

int profdata_histogram_from_profile(profdata_histogram **out, const profdata_profile *p, long dump)
{
	*out = NULL;
	profdata_histogram *h = histogram_new(dump);
	if (!h)
		return PROFDATA_ENOMEM;
	profdata_events ev;
	events_of(&ev);
	int e = profdata_profile_replay(p, &ev, h);
	return conclude(h, e, out);
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
	free(h->entries);
	free(h->names);
	free(h);
}
