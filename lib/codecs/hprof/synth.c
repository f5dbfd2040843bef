/*
 * HPROF from formats whose objects list their references instead of
 * carrying payloads (the IBM classic heapdump: meta.id_size 0, objects with
 * `refs` and no `data`). An event filter in front of the HPROF encoder turns
 * them into what HPROF can hold:
 *
 * - every class gets synthetic instance fields "ref0", "ref1", ... of type
 *   object, as many as the most references one of its instances lists; an
 *   instance's payload holds its references in order, then nulls;
 * - a class's own references (classic CLS records) become static fields
 *   "sref0", "sref1", ... of type object;
 * - classes without a class dump get one (HPROF readers need a dump for the
 *   class of every instance); every class but java/lang/Object has
 *   java/lang/Object as superclass when the input has it;
 * - object arrays take their references as elements; primitive arrays get
 *   the length their stated size implies (no elements are known: zeros).
 *
 * Field layouts depend on every instance of a dump, and the classic format
 * puts its classes after its objects, so a dump is held until its end and
 * then written. Inputs with payloads (id_size set) pass straight through.
 * The field names say what they are; doc/formats-classic.md describes the
 * mapping. Each dump gets the class dumps its input gave it (classes without
 * one get theirs in the first dump). A class keeps the layout of the first
 * dump that had it: an instance of a later dump with more references loses
 * the extra ones (a warning counts them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hprof.h"

typedef struct sy_obj {
	profdata_object o; /* refs and data cleared; see refs_off */
	size_t refs_off;
	int has_refs;
} sy_obj;

typedef struct sy_cls {
	uint64_t id;
	int is_array, is_object;
	int dumped;          /* written in an earlier dump */
	uint32_t want;       /* references of its largest instance in this dump */
	uint32_t nfields;    /* synthetic fields, fixed when written */
	uint64_t inst_size;  /* stated size of its first instance */
	int held;            /* a class dump of this dump is held */
	profdata_class_dump cd;
	size_t refs_off, nrefs;
} sy_cls;

typedef struct sy {
	void *inner;
	const pd_encoder_ops *iops;
	profdata_writer *w;
	int active;
	unsigned ids;
	unsigned hdr, ref; /* object header and reference size the stated sizes imply */
	int decided;       /* hdr and ref are fixed (at the first dump) */
	uint64_t max_string;
	/* string id -> flags: 1 array class name, 2 "java/lang/Object" (active only) */
	uint64_t *str_keys;
	uint8_t *str_flags;
	size_t str_cap, str_n;
	/* classes, in order of first appearance */
	sy_cls *cls;
	size_t ncls, cls_cap;
	uint64_t *cls_keys;
	uint32_t *cls_vals;
	size_t cls_map_cap, cls_map_n;
	uint64_t object_class;
	uint32_t max_serial;
	/* field name strings written so far */
	uint64_t *ref_names, *sref_names;
	size_t nref_names, ref_names_cap, nsref_names, sref_names_cap;
	/* the held dump */
	int in_dump;
	profdata_dump dump;
	sy_obj *objs;
	size_t nobjs, objs_cap;
	profdata_root *roots;
	size_t nroots, roots_cap;
	uint64_t *pool;
	size_t npool, pool_cap;
	unsigned char *payload;
	size_t payload_cap;
	uint64_t dropped_refs, dropped_other;
} sy;

#define INNER(s, member, ...) \
	((s)->iops->events.member ? (s)->iops->events.member((s)->inner, __VA_ARGS__) : 0)
#define INNER0(s, member) ((s)->iops->events.member ? (s)->iops->events.member((s)->inner) : 0)

static int sy_nomem(sy *s)
{
	return pd_out_error(s->w, PROFDATA_ENOMEM, "out of memory");
}

static size_t slot(uint64_t k, size_t cap)
{
	return (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (cap - 1);
}

/* A u64 -> value map with keys stored beside values; 0 keys unused (ids are never 0 here). */
static int map_find(const uint64_t *keys, size_t cap, uint64_t k, size_t *at)
{
	size_t i;
	if (!cap)
		return 0;
	for (i = slot(k, cap); keys[i]; i = (i + 1) & (cap - 1))
		if (keys[i] == k) {
			*at = i;
			return 1;
		}
	*at = i;
	return 0;
}

static int str_put(sy *s, uint64_t id, uint8_t flags)
{
	size_t at = 0, i;
	if ((s->str_n + 1) * 2 > s->str_cap) {
		size_t cap = s->str_cap ? s->str_cap * 2 : 256;
		uint64_t *k = calloc(cap, sizeof *k);
		uint8_t *f = calloc(cap, 1);
		if (!k || !f) {
			free(k);
			free(f);
			return -1;
		}
		for (i = 0; i < s->str_cap; i++)
			if (s->str_keys[i]) {
				map_find(k, cap, s->str_keys[i], &at);
				k[at] = s->str_keys[i];
				f[at] = s->str_flags[i];
			}
		free(s->str_keys);
		free(s->str_flags);
		s->str_keys = k;
		s->str_flags = f;
		s->str_cap = cap;
	}
	if (!map_find(s->str_keys, s->str_cap, id, &at)) {
		s->str_keys[at] = id;
		s->str_flags[at] = flags;
		s->str_n++;
	}
	return 0;
}

/* The class row for id, created when new. */
static sy_cls *cls_get(sy *s, uint64_t id)
{
	size_t at = 0, i;
	if (map_find(s->cls_keys, s->cls_map_cap, id, &at))
		return &s->cls[s->cls_vals[at]];
	if ((s->cls_map_n + 1) * 2 > s->cls_map_cap) {
		size_t cap = s->cls_map_cap ? s->cls_map_cap * 2 : 256;
		uint64_t *k = calloc(cap, sizeof *k);
		uint32_t *v = calloc(cap, sizeof *v);
		if (!k || !v) {
			free(k);
			free(v);
			return NULL;
		}
		for (i = 0; i < s->cls_map_cap; i++)
			if (s->cls_keys[i]) {
				map_find(k, cap, s->cls_keys[i], &at);
				k[at] = s->cls_keys[i];
				v[at] = s->cls_vals[i];
			}
		free(s->cls_keys);
		free(s->cls_vals);
		s->cls_keys = k;
		s->cls_vals = v;
		s->cls_map_cap = cap;
		map_find(s->cls_keys, s->cls_map_cap, id, &at);
	}
	if (s->ncls >= UINT32_MAX || pd_grow((void **)&s->cls, &s->cls_cap, s->ncls + 1, sizeof *s->cls) < 0)
		return NULL;
	memset(&s->cls[s->ncls], 0, sizeof *s->cls);
	s->cls[s->ncls].id = id;
	s->cls_keys[at] = id;
	s->cls_vals[at] = (uint32_t)s->ncls;
	s->cls_map_n++;
	return &s->cls[s->ncls++];
}

static int pool_add(sy *s, const uint64_t *v, size_t n, size_t *off)
{
	if (pd_grow((void **)&s->pool, &s->pool_cap, s->npool + n, sizeof *s->pool) < 0)
		return -1;
	*off = s->npool;
	if (n)
		memcpy(s->pool + s->npool, v, n * sizeof *v);
	s->npool += n;
	return 0;
}

/* ---- the filter ---- */

static int sy_begin(void *payload, const profdata_meta *m)
{
	sy *s = payload;
	profdata_meta copy = *m;
	s->active = m->id_size == 0;
	if (!s->active)
		return INNER(s, begin, m);
	s->ids = m->word_size == 4 ? 4 : 8;
	/* 64-bit IBM and OpenJ9 JVMs mostly run with compressed references, and say so
	 * in the version text ("amd64-64-Bit Compressed References"). */
	s->ref = s->ids == 8 && m->version && strstr(m->version, "Compressed") ? 4 : s->ids;
	s->hdr = s->ids == 4 ? 8 : 8 + s->ref;
	copy.id_size = s->ids; /* the payloads made here use this size */
	return INNER(s, begin, &copy);
}

static int sy_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	sy *s = payload;
	if (s->active) {
		uint8_t f = (len && utf8[0] == '[') ? 1 : 0;
		if (len == 16 && memcmp(utf8, "java/lang/Object", 16) == 0)
			f |= 2;
		if (id > s->max_string && id < HPROF_SYNTH_ID_MIN)
			s->max_string = id;
		if (str_put(s, id, f) < 0)
			return sy_nomem(s);
	}
	return INNER(s, string, id, utf8, len);
}

static int sy_class_load(void *payload, const profdata_class_load *c)
{
	sy *s = payload;
	if (s->active && c->id) {
		size_t at;
		sy_cls *k = cls_get(s, c->id);
		if (c->serial > s->max_serial)
			s->max_serial = c->serial;
		if (!k)
			return sy_nomem(s);
		if (map_find(s->str_keys, s->str_cap, c->name_id, &at)) {
			k->is_array = s->str_flags[at] & 1;
			k->is_object = (s->str_flags[at] & 2) != 0;
			if (k->is_object && !s->object_class)
				s->object_class = c->id;
		}
	}
	return INNER(s, class_load, c);
}

static int sy_dump_begin(void *payload, const profdata_dump *d)
{
	sy *s = payload;
	if (!s->active)
		return INNER(s, dump_begin, d);
	s->in_dump = 1;
	s->dump = *d;
	return 0;
}

static int sy_class_dump(void *payload, const profdata_class_dump *c)
{
	sy *s = payload;
	sy_cls *k;
	if (!s->active)
		return INNER(s, class_dump, c);
	if (!c->id || !(k = cls_get(s, c->id)))
		return c->id ? sy_nomem(s) : 0;
	if (k->held)
		return 0; /* once per dump */
	k->held = 1;
	k->cd = *c;
	k->nrefs = c->refs ? c->nrefs : 0;
	if (pool_add(s, c->refs, k->nrefs, &k->refs_off) < 0)
		return sy_nomem(s);
	return 0;
}

static int sy_root(void *payload, const profdata_root *r)
{
	sy *s = payload;
	if (!s->active)
		return INNER(s, root, r);
	if (pd_grow((void **)&s->roots, &s->roots_cap, s->nroots + 1, sizeof *s->roots) < 0)
		return sy_nomem(s);
	s->roots[s->nroots++] = *r;
	return 0;
}

static int sy_object(void *payload, const profdata_object *o)
{
	sy *s = payload;
	sy_obj *h;
	if (!s->active)
		return INNER(s, object, o);
	if (pd_grow((void **)&s->objs, &s->objs_cap, s->nobjs + 1, sizeof *s->objs) < 0)
		return sy_nomem(s);
	h = &s->objs[s->nobjs];
	h->o = *o;
	h->has_refs = o->refs != NULL;
	if (pool_add(s, o->refs, o->refs ? o->nrefs : 0, &h->refs_off) < 0)
		return sy_nomem(s);
	h->o.refs = NULL;
	h->o.data = NULL;
	h->o.data_len = 0;
	s->nobjs++;
	if (o->kind == PROFDATA_OBJECT_INSTANCE && o->class_id) {
		sy_cls *k = cls_get(s, o->class_id);
		if (!k)
			return sy_nomem(s);
		if (o->nrefs > k->want)
			k->want = o->nrefs > 0xFFFF ? 0xFFFF : (uint32_t)o->nrefs;
		if (!k->inst_size)
			k->inst_size = o->size;
	}
	return 0;
}

/* Strings "ref<n>" (or "sref<n>") up to n < want, written once; their ids in *names. */
static int field_names(sy *s, const char *prefix, uint64_t **names, size_t *n, size_t *cap, size_t want)
{
	char buf[32];
	int rc;
	if (want > *n && pd_grow((void **)names, cap, want, sizeof **names) < 0)
		return sy_nomem(s);
	while (*n < want) {
		int len = snprintf(buf, sizeof buf, "%s%zu", prefix, *n);
		uint64_t id = ++s->max_string;
		if (id >= HPROF_SYNTH_ID_MIN)
			return pd_out_error(s->w, PROFDATA_ERANGE, "no string ids left for synthetic field names");
		if ((rc = INNER(s, string, id, buf, (size_t)len)) != 0)
			return rc;
		(*names)[(*n)++] = id;
	}
	return 0;
}

static void put_id(unsigned char *p, uint64_t v, unsigned ids)
{
	if (ids == 8)
		pd_put_be64(p, v);
	else
		pd_put_be32(p, (uint32_t)v);
}

static int flush_dump(sy *s)
{
	size_t i, want = 0, swant = 0;
	profdata_field *f = NULL;
	size_t fcap = 0;
	int rc = 0;

	s->in_dump = 0;
	if (s->ids == 8 && s->ref == 8 && !s->decided) {
		/* An object array smaller than 8-byte references allow: compressed references. */
		for (i = 0; i < s->nobjs; i++) {
			const sy_obj *h = &s->objs[i];
			if (h->o.kind == PROFDATA_OBJECT_ARRAY && h->o.size &&
			    h->o.size < ((16 + 4 + 8 * (uint64_t)h->o.nrefs + 7) & ~(uint64_t)7)) {
				s->ref = 4;
				s->hdr = 12;
				break;
			}
		}
	}
	s->decided = 1;
	if (!s->object_class) {
		/* Every class gets java/lang/Object as superclass, and its stated instance size
		 * tells readers (VisualVM) that instances have stated sizes. */
		profdata_class_load cl;
		sy_cls *k;
		uint64_t name = ++s->max_string;
		memset(&cl, 0, sizeof cl);
		cl.id = s->ids == 8 ? UINT64_C(0x7FFFFFFFFFFFFFFF) : UINT64_C(0x7FFFFFFF);
		cl.serial = ++s->max_serial;
		cl.name_id = name;
		if (!(k = cls_get(s, cl.id)))
			return sy_nomem(s);
		k->is_object = 1;
		s->object_class = cl.id;
		if ((rc = INNER(s, string, name, "java/lang/Object", 16)) != 0 || (rc = INNER(s, class_load, &cl)) != 0)
			return rc;
	}
	for (i = 0; i < s->ncls; i++) {
		sy_cls *k = &s->cls[i];
		if (!k->dumped && !k->is_array && k->want > want)
			want = k->want;
		if (k->held && k->nrefs > swant)
			swant = k->nrefs;
	}
	if ((rc = field_names(s, "ref", &s->ref_names, &s->nref_names, &s->ref_names_cap, want)) != 0 ||
	    (rc = field_names(s, "sref", &s->sref_names, &s->nsref_names, &s->sref_names_cap, swant)) != 0)
		return rc;
	if ((rc = INNER(s, dump_begin, &s->dump)) != 0)
		return rc;
	for (i = 0; i < s->ncls && !rc; i++) {
		sy_cls *k = &s->cls[i];
		profdata_class_dump cd;
		size_t j, nf, ns;
		if (k->dumped && !k->held)
			continue; /* dumped before; this dump has no class dump of it */
		if (!k->dumped)
			k->nfields = k->is_array ? 0 : k->want;
		nf = k->nfields;
		ns = k->held ? k->nrefs : 0;
		if (pd_grow((void **)&f, &fcap, nf + ns + 1, sizeof *f) < 0) {
			rc = sy_nomem(s);
			break;
		}
		for (j = 0; j < ns; j++) {
			f[j].name_id = s->sref_names[j];
			f[j].type = PROFDATA_TYPE_OBJECT;
			f[j].value = s->pool[k->refs_off + j];
		}
		for (j = 0; j < nf; j++) {
			f[ns + j].name_id = s->ref_names[j];
			f[ns + j].type = PROFDATA_TYPE_OBJECT;
			f[ns + j].value = 0;
		}
		if (k->held) {
			cd = k->cd;
		} else {
			memset(&cd, 0, sizeof cd);
			cd.id = k->id;
		}
		if (!cd.super_id && !k->is_object && s->object_class && s->object_class != k->id)
			cd.super_id = s->object_class;
		/* Stated sizes: java/lang/Object's is the object header (8 + a reference), so
		 * that references count as many bytes as HotSpot's would; other classes take
		 * their first instance's size, or their fields' when they have no instance. */
		if (k->is_object)
			cd.instance_size = s->hdr;
		else if (k->inst_size && k->inst_size <= UINT32_MAX)
			cd.instance_size = (uint32_t)k->inst_size;
		else
			cd.instance_size = (uint32_t)(s->hdr + nf * s->ref);
		cd.statics = ns ? f : NULL;
		cd.nstatics = ns;
		cd.fields = nf ? f + ns : NULL;
		cd.nfields = nf;
		cd.refs = NULL;
		cd.nrefs = 0;
		k->dumped = 1;
		k->held = 0;
		rc = INNER(s, class_dump, &cd);
	}
	free(f);
	for (i = 0; i < s->nroots && !rc; i++)
		rc = INNER(s, root, &s->roots[i]);
	for (i = 0; i < s->nobjs && !rc; i++) {
		sy_obj *h = &s->objs[i];
		profdata_object o = h->o;
		const uint64_t *refs = s->pool ? s->pool + h->refs_off : NULL;
		size_t nrefs = h->has_refs ? h->o.nrefs : 0;
		if (o.kind == PROFDATA_OBJECT_INSTANCE) {
			size_t j, nf = 0;
			size_t at;
			if (o.class_id && map_find(s->cls_keys, s->cls_map_cap, o.class_id, &at))
				nf = s->cls[s->cls_vals[at]].nfields;
			if (nf * s->ids > s->payload_cap) {
				unsigned char *np = realloc(s->payload, nf * s->ids);
				if (!np) {
					rc = sy_nomem(s);
					break;
				}
				s->payload = np;
				s->payload_cap = nf * s->ids;
			}
			for (j = 0; j < nf; j++)
				put_id(s->payload + j * s->ids, j < nrefs ? refs[j] : 0, s->ids);
			if (nrefs > nf)
				s->dropped_refs += nrefs - nf;
			o.data = nf ? s->payload : NULL;
			o.data_len = nf * s->ids;
			o.length = o.data_len;
			o.refs = NULL;
			o.nrefs = 0;
		} else if (o.kind == PROFDATA_OBJECT_ARRAY) {
			/* The stated size tells the length; the nulls OpenJ9 leaves out fill it up. */
			o.refs = nrefs ? refs : NULL;
			o.nrefs = nrefs;
			if (!o.length && o.size > (uint64_t)s->hdr + 4)
				o.length = (o.size - s->hdr - 4) / s->ref;
			if (o.length < nrefs)
				o.length = nrefs;
		} else {
			/* the length the stated size implies, with the header java/lang/Object states */
			unsigned es = profdata_basic_type_size(o.elem_type, s->ids);
			if (!o.length && es && o.size > (uint64_t)s->hdr + 4)
				o.length = (o.size - s->hdr - 4) / es;
			o.refs = NULL;
			o.nrefs = 0;
		}
		rc = INNER(s, object, &o);
	}
	s->nobjs = s->nroots = s->npool = 0;
	for (i = 0; i < s->ncls; i++)
		s->cls[i].want = 0, s->cls[i].inst_size = 0;
	if (rc)
		return rc;
	return INNER0(s, dump_end);
}

static int sy_dump_end(void *payload)
{
	sy *s = payload;
	if (!s->active)
		return INNER0(s, dump_end);
	if (!s->in_dump)
		return 0;
	return flush_dump(s);
}

static int sy_end(void *payload)
{
	sy *s = payload;
	int rc;
	if (s->active && s->in_dump && (rc = flush_dump(s)) != 0)
		return rc;
	return INNER0(s, end);
}

/* The other events pass through; inside a held dump those HPROF could place there are dropped. */
#define PASS(name, type) \
	static int sy_##name(void *payload, const type *x) \
	{ \
		sy *s = payload; \
		return INNER(s, name, x); \
	}
PASS(class_unload, profdata_class_unload)
PASS(function, profdata_function)
PASS(frame, profdata_frame)
PASS(stack, profdata_stack)
PASS(thread_start, profdata_thread_start)
PASS(thread_end, profdata_thread_end)
PASS(sample_type, profdata_sample_type)
PASS(sample_group, profdata_sample_group)
PASS(sample, profdata_sample)
PASS(alloc_sites, profdata_alloc_sites)
PASS(heap_summary, profdata_heap_summary)
PASS(control_settings, profdata_control_settings)
PASS(mapping, profdata_mapping)
PASS(attachment, profdata_attachment)
PASS(trace_event, profdata_trace_event)

static int sy_heap_info(void *payload, const profdata_heap_info *h)
{
	sy *s = payload;
	if (s->active && s->in_dump) {
		s->dropped_other++;
		return 0;
	}
	return INNER(s, heap_info, h);
}

static int sy_unknown(void *payload, const profdata_unknown *u)
{
	sy *s = payload;
	if (s->active && s->in_dump && u->in_dump) {
		s->dropped_other++;
		return 0;
	}
	return INNER(s, unknown, u);
}

static int sy_finish(void *state)
{
	sy *s = state;
	int rc;
	if (s->active && s->in_dump && (rc = flush_dump(s)) != 0)
		return rc;
	if (s->dropped_refs)
		pd_out_warn(s->w, "%llu references beyond the fields their class got in an earlier dump were dropped",
		            (unsigned long long)s->dropped_refs);
	if (s->dropped_other)
		pd_out_warn(s->w, "%llu heap infos or unknown sub-records of list-of-references dumps were dropped",
		            (unsigned long long)s->dropped_other);
	return s->iops->finish ? s->iops->finish(s->inner) : 0;
}

static void sy_free(void *state)
{
	sy *s = state;
	if (!s)
		return;
	if (s->iops && s->iops->free)
		s->iops->free(s->inner);
	free(s->str_keys);
	free(s->str_flags);
	free(s->cls);
	free(s->cls_keys);
	free(s->cls_vals);
	free(s->ref_names);
	free(s->sref_names);
	free(s->objs);
	free(s->roots);
	free(s->pool);
	free(s->payload);
	free(s);
}

static const pd_encoder_ops sy_ops = {
	{
		PROFDATA_EVENTS_VERSION,
		sy_begin,
		sy_string,
		sy_class_load,
		sy_class_unload,
		sy_function,
		sy_frame,
		sy_stack,
		sy_thread_start,
		sy_thread_end,
		sy_sample_type,
		sy_sample_group,
		sy_sample,
		sy_alloc_sites,
		sy_heap_summary,
		sy_control_settings,
		sy_mapping,
		sy_dump_begin,
		sy_heap_info,
		sy_class_dump,
		sy_root,
		sy_object,
		sy_dump_end,
		sy_unknown,
		sy_attachment,
		sy_trace_event,
		sy_end,
	},
	sy_finish,
	sy_free,
};

int pd_hprof_refs_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts)
{
	sy *s = calloc(1, sizeof *s);
	int rc;
	if (!s)
		return PROFDATA_ENOMEM;
	s->w = w;
	if ((rc = pd_hprof_encoder_new(&s->inner, &s->iops, w, opts)) < 0) {
		free(s);
		return rc;
	}
	*state = s;
	*ops = &sy_ops;
	return 0;
}
