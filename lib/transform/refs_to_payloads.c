/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reference lists -> payloads: for formats whose objects list their
 * references instead of carrying payloads (the IBM classic heapdump:
 * meta.id_size 0, objects with `refs` and no `data`), in front of encoders
 * that need payloads (HPROF). It gives them what such an encoder can hold:
 *
 * - a class whose class dump names its instances' reference fields
 *   (hprof-text's) declares those its superclasses lack; any other class
 *   gets synthetic instance fields "ref0", "ref1", ... of type object, as
 *   many as the most references one of its instances lists. An instance's
 *   payload holds each reference in its field, nulls elsewhere, its
 *   superclasses' fields after its class's own (refs_layout.c);
 * - a class's own references (classic CLS records) become static fields
 *   "sref0", "sref1", ... of type object, after the statics its class dump
 *   names (hprof-text's), which are kept, as are its constants;
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
 * the extra ones (a warning counts them). Sizes run the JVM rules
 * (jvm/jvm.h) backwards: from the stated sizes to lengths and layouts.
 *
 * A stated size costs a few bytes of input and can ask for gigabytes of
 * zeros (`0x1000 [4294967000] OBJ [B`), and a class whose largest instance
 * lists 65,535 references gives every instance of it 65,535 fields. So what
 * the payloads made here may add up to is bounded by the input: the larger
 * of PD_SYNTH_FIXED bytes and PD_SYNTH_PER_INPUT times the input, the input
 * measured from the events that came in (a lower estimate of the text that
 * stated them: INPUT_PER_RECORD bytes a record, INPUT_PER_REF a reference,
 * plus the strings). The write option max_synthesized=BYTES sets the bound
 * instead. A dump is checked before any of it is written: beyond the bound
 * the conversion fails, naming the object that passes it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transform/refs_to_payloads.h"

int pd_refs_out_of_memory(payload_filter *s)
{
	return pd_diag_error(s->base.diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "out of memory");
}

/* The class plan for id, created when new. */
static class_plan *plan_of(payload_filter *s, uint64_t id)
{
	uint32_t v = pd_map_get(&s->cls_ix, id);
	if (v)
		return &s->cls[v - 1];
	if (s->ncls >= UINT32_MAX - 1 || pd_grow((void **)&s->cls, &s->cls_cap, s->ncls + 1, sizeof *s->cls) < 0 ||
	    pd_map_put(&s->cls_ix, id, (uint32_t)s->ncls + 1) < 0)
		return NULL;
	memset(&s->cls[s->ncls], 0, sizeof *s->cls);
	s->cls[s->ncls].id = id;
	return &s->cls[s->ncls++];
}

static const class_plan *known_plan(const payload_filter *s, uint64_t id)
{
	uint32_t v = id ? pd_map_get(&s->cls_ix, id) : 0;
	return v ? &s->cls[v - 1] : NULL;
}

static int pool_add(payload_filter *s, const uint64_t *v, size_t n, size_t *off)
{
	if (pd_grow((void **)&s->pool, &s->pool_cap, s->npool + n, sizeof *s->pool) < 0)
		return -1;
	*off = s->npool;
	if (n)
		memcpy(s->pool + s->npool, v, n * sizeof *v);
	s->npool += n;
	return 0;
}

/* ---- events ---- */

static int on_begin(void *payload, const profdata_meta *m)
{
	payload_filter *s = payload;
	profdata_meta copy = *m;
	s->active = m->id_size == 0;
	if (!s->active)
		return PD_DOWN(s, begin, m);
	s->ids = m->word_size == 4 ? 4 : 8;
	/* 64-bit IBM and OpenJ9 JVMs mostly run with compressed references, and say so
	 * in the version text ("amd64-64-Bit Compressed References"). */
	s->sizes = pd_jvm_sizes_of(s->ids, s->ids == 8 && m->version && strstr(m->version, "Compressed") ? 4 : s->ids);
	copy.id_size = s->ids; /* the payloads made here use this size */
	return PD_DOWN(s, begin, &copy);
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	payload_filter *s = payload;
	s->input_weight += INPUT_PER_RECORD + len;
	if (s->active && !pd_map_get(&s->names, id)) {
		uint32_t f = NAME_SEEN | ((len && utf8[0] == '[') ? NAME_ARRAY : 0);
		if (len == 16 && memcmp(utf8, "java/lang/Object", 16) == 0)
			f |= NAME_OBJECT;
		if (id > s->max_string && id < PD_RESERVED_ID_MIN)
			s->max_string = id;
		if (pd_map_put(&s->names, id, f) < 0)
			return pd_refs_out_of_memory(s);
	}
	return PD_DOWN(s, string, id, utf8, len);
}

static int on_class_load(void *payload, const profdata_class_load *c)
{
	payload_filter *s = payload;
	if (s->active && c->id) {
		class_plan *k = plan_of(s, c->id);
		if (c->serial > s->max_serial)
			s->max_serial = c->serial;
		if (!k)
			return pd_refs_out_of_memory(s);
		uint32_t f = pd_map_get(&s->names, c->name_id);
		if (f) {
			k->is_array = (f & NAME_ARRAY) != 0;
			k->is_object = (f & NAME_OBJECT) != 0;
			if (k->is_object && !s->object_class)
				s->object_class = c->id;
		}
	}
	return PD_DOWN(s, class_load, c);
}

/*
 * Defines on_<event> for a dump's contents: passed down as they are when the
 * filter is not active, else held by the body that follows the macro.
 */
#define HELD_WHEN_ACTIVE(event, type, arg) \
	static int event##_held(payload_filter *s, const type *arg); \
	static int on_##event(void *payload, const type *arg) \
	{ \
		payload_filter *s = payload; \
		return s->active ? event##_held(s, arg) : PD_DOWN(s, event, arg); \
	} \
	static int event##_held(payload_filter *s, const type *arg)

HELD_WHEN_ACTIVE(dump_begin, profdata_dump, d)
{
	s->in_dump = 1;
	s->dump = *d;
	return 0;
}

/* Keep the statics and constants a class dump states (formats that list some of them by name). */
static int copy_given(class_plan *k, const profdata_class_dump *c)
{
	PD_FREE_ALL(k->statics, k->constants);
	k->statics = NULL;
	k->constants = NULL;
	k->cd.nstatics = c->statics ? c->nstatics : 0;
	k->cd.nconstants = c->constants ? c->nconstants : 0;
	if (k->cd.nstatics && !(k->statics = malloc(k->cd.nstatics * sizeof *k->statics)))
		return -1;
	if (k->cd.nconstants && !(k->constants = malloc(k->cd.nconstants * sizeof *k->constants)))
		return -1;
	if (k->cd.nstatics)
		memcpy(k->statics, c->statics, k->cd.nstatics * sizeof *k->statics);
	if (k->cd.nconstants)
		memcpy(k->constants, c->constants, k->cd.nconstants * sizeof *k->constants);
	k->cd.statics = k->statics;
	k->cd.constants = k->constants;
	return 0;
}

HELD_WHEN_ACTIVE(class_dump, profdata_class_dump, c)
{
	class_plan *k;
	if (!c->id || !(k = plan_of(s, c->id)))
		return c->id ? pd_refs_out_of_memory(s) : 0;
	if (k->held)
		return 0; /* once per dump */
	k->held = 1;
	s->input_weight += INPUT_PER_RECORD + (uint64_t)INPUT_PER_REF * (c->refs ? c->nrefs : 0);
	k->cd = *c;
	if (copy_given(k, c) < 0 || pd_refs_take_given(k, c) < 0)
		return pd_refs_out_of_memory(s);
	k->nrefs = c->refs ? c->nrefs : 0;
	if (pool_add(s, c->refs, k->nrefs, &k->refs_off) < 0)
		return pd_refs_out_of_memory(s);
	return 0;
}

HELD_WHEN_ACTIVE(root, profdata_root, r)
{
	if (pd_grow((void **)&s->roots, &s->roots_cap, s->nroots + 1, sizeof *s->roots) < 0)
		return pd_refs_out_of_memory(s);
	s->roots[s->nroots++] = *r;
	return 0;
}

HELD_WHEN_ACTIVE(object, profdata_object, o)
{
	held_object *h;
	if (pd_grow((void **)&s->objs, &s->objs_cap, s->nobjs + 1, sizeof *s->objs) < 0)
		return pd_refs_out_of_memory(s);
	h = &s->objs[s->nobjs];
	s->input_weight += INPUT_PER_RECORD + (uint64_t)INPUT_PER_REF * (o->refs ? o->nrefs : 0);
	h->o = *o;
	h->has_refs = o->refs != NULL;
	if (pool_add(s, o->refs, o->refs ? o->nrefs : 0, &h->refs_off) < 0)
		return pd_refs_out_of_memory(s);
	h->o.refs = NULL;
	h->o.data = NULL;
	h->o.data_len = 0;
	s->nobjs++;
	if (o->kind == PROFDATA_OBJECT_INSTANCE && o->class_id) {
		class_plan *k = plan_of(s, o->class_id);
		if (!k)
			return pd_refs_out_of_memory(s);
		if (o->nrefs > k->want)
			k->want = o->nrefs > 0xFFFF ? 0xFFFF : (uint32_t)o->nrefs;
		if (!k->inst_size)
			k->inst_size = o->size;
	}
	return 0;
}

/* ---- writing a held dump ---- */

/* Strings "<prefix><i>" for i < want, written once; their ids in names->ids. */
static int write_field_names(payload_filter *s, field_names *names, size_t want)
{
	char buf[32];
	int rc;
	if (want > names->n && pd_grow((void **)&names->ids, &names->cap, want, sizeof *names->ids) < 0)
		return pd_refs_out_of_memory(s);
	while (names->n < want) {
		int len = snprintf(buf, sizeof buf, "%s%zu", names->prefix, names->n);
		uint64_t id = ++s->max_string;
		if (id >= PD_RESERVED_ID_MIN)
			return pd_diag_error(s->base.diag, PROFDATA_ERANGE, PD_NO_OFFSET, 0,
			                     "no string ids left for synthetic field names");
		if ((rc = PD_DOWN(s, string, id, buf, (size_t)len)) != 0)
			return rc;
		names->ids[names->n++] = id;
	}
	return 0;
}

/* At the first dump: an object array smaller than 8-byte references allow means compressed ones. */
static void settle_reference_size(payload_filter *s)
{
	if (s->decided)
		return;
	s->decided = 1;
	if (s->ids != 8 || s->sizes.ref != 8)
		return;
	for (size_t i = 0; i < s->nobjs; i++) {
		const profdata_object *o = &s->objs[i].o;
		if (o->kind == PROFDATA_OBJECT_ARRAY && o->size &&
		    o->size < pd_jvm_array_size(&s->sizes, PROFDATA_OBJECT_ARRAY, 0, o->nrefs)) {
			s->sizes = pd_jvm_sizes_of(8, 4);
			return;
		}
	}
}

/*
 * Every class gets java/lang/Object as superclass, and its stated instance
 * size tells readers (VisualVM) that instances have stated sizes: made up
 * when the input has none.
 */
static int ensure_object_class(payload_filter *s)
{
	profdata_class_load cl;
	class_plan *k;
	int rc;
	if (s->object_class)
		return 0;
	memset(&cl, 0, sizeof cl);
	cl.id = s->ids == 8 ? UINT64_C(0x7FFFFFFFFFFFFFFF) : UINT64_C(0x7FFFFFFF);
	cl.serial = ++s->max_serial;
	cl.name_id = ++s->max_string;
	if (!(k = plan_of(s, cl.id)))
		return pd_refs_out_of_memory(s);
	k->is_object = 1;
	s->object_class = cl.id;
	if ((rc = PD_DOWN(s, string, cl.name_id, "java/lang/Object", 16)) != 0)
		return rc;
	return PD_DOWN(s, class_load, &cl);
}

/* The "ref<i>" and "sref<i>" names this dump's classes need. */
static int write_all_field_names(payload_filter *s)
{
	size_t want = 0, swant = 0;
	for (size_t i = 0; i < s->ncls; i++) {
		const class_plan *k = &s->cls[i];
		if (!k->own && k->nown > want)
			want = k->nown;
		if (k->held && k->nrefs > swant)
			swant = k->nrefs;
	}
	int rc = write_field_names(s, &s->ref_names, want);
	return rc ? rc : write_field_names(s, &s->sref_names, swant);
}

/*
 * Stated sizes: java/lang/Object's is the object header, so that references
 * count as many bytes as HotSpot's would; other classes take their first
 * instance's size, or their fields' when they have no instance.
 */
static uint32_t stated_instance_size(const payload_filter *s, const class_plan *k)
{
	if (k->is_object)
		return s->sizes.header;
	if (k->inst_size && k->inst_size <= UINT32_MAX)
		return (uint32_t)k->inst_size;
	return (uint32_t)pd_jvm_instance_bytes(&s->sizes, 0, k->npay);
}

static int write_class_dump(payload_filter *s, class_plan *k)
{
	profdata_class_dump cd;
	size_t nf = k->nown, ng = k->held ? k->cd.nstatics : 0, ns = k->held ? k->nrefs : 0;
	if (pd_grow((void **)&s->fields, &s->fields_cap, nf + ng + ns + 1, sizeof *s->fields) < 0)
		return pd_refs_out_of_memory(s);
	profdata_field *f = s->fields;
	if (ng)
		memcpy(f, k->statics, ng * sizeof *f);
	f += ng;
	for (size_t j = 0; j < ns; j++) {
		f[j].name_id = s->sref_names.ids[j];
		f[j].type = PROFDATA_TYPE_OBJECT;
		f[j].value = s->pool[k->refs_off + j];
	}
	for (size_t j = 0; j < nf; j++) {
		f[ns + j].name_id = k->own ? k->own[j] : s->ref_names.ids[j];
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
	cd.instance_size = stated_instance_size(s, k);
	cd.statics = ng + ns ? s->fields : NULL;
	cd.nstatics = ng + ns;
	cd.fields = nf ? f + ns : NULL;
	cd.nfields = nf;
	cd.refs = NULL;
	cd.nrefs = 0;
	k->dumped = 1;
	k->held = 0;
	return PD_DOWN(s, class_dump, &cd);
}

static int write_class_dumps(payload_filter *s)
{
	int rc = 0;
	for (size_t i = 0; i < s->ncls && !rc; i++) {
		class_plan *k = &s->cls[i];
		if (k->dumped && !k->held)
			continue; /* dumped before; this dump has no class dump of it */
		rc = write_class_dump(s, k);
	}
	return rc;
}

/* An instance's payload: each reference in the field its slot maps to (refs_layout.c), nulls elsewhere. */
static int fill_instance(payload_filter *s, profdata_object *o, const uint64_t *refs, size_t nrefs)
{
	const class_plan *k = known_plan(s, o->class_id);
	size_t nf = k ? k->npay : 0, slots = k ? k->nslots : 0;
	if (nf * s->ids > s->payload_cap) {
		unsigned char *np = realloc(s->payload, nf * s->ids);
		if (!np)
			return pd_refs_out_of_memory(s);
		s->payload = np;
		s->payload_cap = nf * s->ids;
	}
	if (nf)
		memset(s->payload, 0, nf * s->ids);
	for (size_t j = 0; j < nrefs; j++) {
		size_t at = j < slots && k->to_payload ? k->to_payload[j] : j;
		if (!refs[j])
			continue;
		if (j >= slots || at >= nf) { /* beyond its class's first layout (or a later dump's new superclass) */
			s->dropped_refs++;
			continue;
		}
		if (s->ids == 8)
			pd_put_be64(s->payload + at * 8, refs[j]);
		else
			pd_put_be32(s->payload + at * 4, (uint32_t)refs[j]);
	}
	o->data = nf ? s->payload : NULL;
	o->data_len = nf * s->ids;
	o->length = o->data_len;
	o->refs = NULL;
	o->nrefs = 0;
	return 0;
}

/*
 * An array's length: the stated size tells it, the header java/lang/Object
 * states included; the nulls OpenJ9 leaves out of object arrays fill it up.
 */
static uint64_t array_length(const payload_filter *s, const held_object *h)
{
	const profdata_object *o = &h->o;
	size_t nrefs = h->has_refs ? o->nrefs : 0;
	uint64_t length = o->length ? o->length : pd_jvm_array_length(&s->sizes, o->kind, o->elem_type, o->size);
	return o->kind == PROFDATA_OBJECT_ARRAY && length < nrefs ? nrefs : length;
}

/* The payload bytes write_object will give h (class layouts as write_class_dump will fix them). */
static uint64_t payload_bytes(const payload_filter *s, const held_object *h)
{
	const profdata_object *o = &h->o;
	if (o->kind == PROFDATA_OBJECT_INSTANCE) {
		const class_plan *k = known_plan(s, o->class_id);
		return (k ? k->npay : 0) * s->ids;
	}
	uint64_t length = array_length(s, h);
	uint64_t each = o->kind == PROFDATA_OBJECT_ARRAY ? s->ids : pd_jvm_type_size(o->elem_type, s->ids);
	if (each && length > UINT64_MAX / each)
		return UINT64_MAX;
	return length * each;
}

/*
 * Before a dump is written: the payloads it makes up must stay within the
 * bound (see the top), or the conversion stops here, having written none of it.
 */
static int check_bound(payload_filter *s)
{
	uint64_t bound = s->max_synthesized;
	uint64_t total = s->synthesized;
	if (!bound) {
		bound = s->input_weight > PD_SYNTH_FIXED / PD_SYNTH_PER_INPUT ? s->input_weight * PD_SYNTH_PER_INPUT
		                                                              : PD_SYNTH_FIXED;
	}
	for (size_t i = 0; i < s->nobjs; i++) {
		uint64_t n = payload_bytes(s, &s->objs[i]);
		if (n <= bound && total <= bound - n) {
			total += n;
			continue;
		}
		return pd_diag_error(s->base.diag, PROFDATA_ERANGE, PD_NO_OFFSET, 0,
		                     "object 0x%llx (object %zu of dump %u) would take the payloads made up from "
		                     "stated sizes and reference lists past %llu bytes, the bound for an input "
		                     "of this size (about %llu bytes); the write option max_synthesized=BYTES "
		                     "raises it",
		                     (unsigned long long)s->objs[i].o.id, i + 1, s->ndumps,
		                     (unsigned long long)bound, (unsigned long long)s->input_weight);
	}
	s->synthesized = total;
	return 0;
}

static int write_object(payload_filter *s, const held_object *h)
{
	profdata_object o = h->o;
	const uint64_t *refs = s->pool ? s->pool + h->refs_off : NULL;
	size_t nrefs = h->has_refs ? h->o.nrefs : 0;
	int rc;
	if (o.kind == PROFDATA_OBJECT_INSTANCE) {
		if ((rc = fill_instance(s, &o, refs, nrefs)) != 0)
			return rc;
	} else {
		o.length = array_length(s, h);
		o.refs = o.kind == PROFDATA_OBJECT_ARRAY && nrefs ? refs : NULL;
		o.nrefs = o.kind == PROFDATA_OBJECT_ARRAY ? nrefs : 0;
	}
	return PD_DOWN(s, object, &o);
}

static void forget_dump(payload_filter *s)
{
	s->nobjs = s->nroots = s->npool = 0;
	for (size_t i = 0; i < s->ncls; i++)
		s->cls[i].want = 0, s->cls[i].inst_size = 0;
}

static int flush_dump(payload_filter *s)
{
	int rc;
	s->in_dump = 0;
	s->ndumps++;
	settle_reference_size(s);
	if ((rc = pd_refs_lay_out(s)) != 0 || (rc = check_bound(s)) != 0 || (rc = ensure_object_class(s)) != 0 ||
	    (rc = write_all_field_names(s)) != 0 ||
	    (rc = PD_DOWN(s, dump_begin, &s->dump)) != 0)
		return rc;
	rc = write_class_dumps(s);
	for (size_t i = 0; i < s->nroots && !rc; i++)
		rc = PD_DOWN(s, root, &s->roots[i]);
	for (size_t i = 0; i < s->nobjs && !rc; i++)
		rc = write_object(s, &s->objs[i]);
	forget_dump(s);
	return rc ? rc : PD_DOWN0(s, dump_end);
}

static int on_dump_end(void *payload)
{
	payload_filter *s = payload;
	if (!s->active)
		return PD_DOWN0(s, dump_end);
	if (!s->in_dump)
		return 0;
	return flush_dump(s);
}

static int on_end(void *payload)
{
	payload_filter *s = payload;
	int rc;
	if (s->active && s->in_dump && (rc = flush_dump(s)) != 0)
		return rc;
	return PD_DOWN0(s, end);
}

/* Inside a held dump, what HPROF could place there is dropped. */
static int on_heap_info(void *payload, const profdata_heap_info *h)
{
	payload_filter *s = payload;
	if (s->active && s->in_dump) {
		s->dropped_other++;
		return 0;
	}
	return PD_DOWN(s, heap_info, h);
}

static int on_unknown(void *payload, const profdata_unknown *u)
{
	payload_filter *s = payload;
	if (s->active && s->in_dump && u->in_dump) {
		s->dropped_other++;
		return 0;
	}
	return PD_DOWN(s, unknown, u);
}

/* The events the filter changes; the others pass straight on. */
static const profdata_events filter_events = {
	.begin = on_begin, .string = on_string, .class_load = on_class_load, .dump_begin = on_dump_begin,
	.class_dump = on_class_dump, .root = on_root, .object = on_object, .dump_end = on_dump_end,
	.heap_info = on_heap_info, .unknown = on_unknown, .end = on_end,
};

static int filter_finish(void *state)
{
	payload_filter *s = state;
	int rc;
	if (s->active && s->in_dump && (rc = flush_dump(s)) != 0)
		return rc;
	if (s->dropped_refs)
		pd_diag_warn(s->base.diag, PROFDATA_OK, PD_NO_OFFSET, 0,
		             "%llu references beyond the fields their class got in an earlier dump were dropped",
		             (unsigned long long)s->dropped_refs);
	if (s->dropped_other)
		pd_diag_warn(s->base.diag, PROFDATA_OK, PD_NO_OFFSET, 0,
		             "%llu heap infos or unknown sub-records of list-of-references dumps were dropped",
		             (unsigned long long)s->dropped_other);
	return 0;
}

static void filter_free(void *state)
{
	payload_filter *s = state;
	pd_map_free(&s->names);
	pd_map_free(&s->cls_ix);
	for (size_t i = 0; i < s->ncls; i++)
		PD_FREE_ALL(s->cls[i].statics, s->cls[i].constants);
	pd_refs_layout_free(s);
	PD_FREE_ALL(s->cls, s->ref_names.ids, s->sref_names.ids, s->objs, s->roots, s->pool, s->payload, s->fields);
}

static int filter_init(void *state, pd_diag *diag, const pd_options *opts)
{
	payload_filter *s = state;
	long long bound = 0;
	if (opts && pd_options_int(opts, "max_synthesized", 0, 1, LLONG_MAX, &bound, diag) < 0)
		return PROFDATA_EINVAL;
	s->max_synthesized = (uint64_t)bound;
	s->ref_names.prefix = "ref";
	s->sref_names.prefix = "sref";
	return 0;
}

const pd_transform_desc pd_transform_refs_to_payloads = {
	.name = "refs_to_payloads",
	.state_size = sizeof(payload_filter),
	.events = &filter_events,
	.init = filter_init,
	.finish = filter_finish,
	.free = filter_free,
};
