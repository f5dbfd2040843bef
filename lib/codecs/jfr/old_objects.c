/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JDK Flight Recorder's old object samples (jdk.OldObjectSample: the
 * objects its leak search kept alive to the recording's end) into the
 * model. Each sample's object, and, when the recording kept paths to GC
 * roots, the objects of its path, become objects of one heap dump emitted
 * after the last chunk: each object of a path holds a reference to the one
 * after it, the path's first object is a root of the kind its
 * OldObjectGcRoot names, and an object_sample event per sample gives its
 * allocation time, age and the root's name. Objects are keyed by address
 * over all chunks, so that paths through one map share its objects: the
 * first sight of an address defines it. A path the recorder shortened (a
 * Reference's `skip`) keeps one reference over the objects it left out.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "codecs/jfr/jfr.h"
#include "jvm/jvm.h"

/* The fields of jdk.OldObjectSample read, in jfr_old_objects.fx's order. */
enum { OS_TIME, OS_THREAD, OS_STACK, OS_ALLOCATED, OS_AGE, OS_HEAP, OS_OBJECT, OS_ELEMENTS, OS_ROOT, OS_SIZE,
       OS_FIELDS };
/* one index per field in jfr_old_objects.fx (C99 has no static assertion) */
typedef char jfr_old_fields_match[OS_FIELDS == JFR_OLD_FIELDS ? 1 : -1];
static const char *const sample_field[OS_FIELDS] = { "startTime",          "eventThread", "stackTrace",
	                                             "allocationTime",     "objectAge",   "lastKnownHeapUsage",
	                                             "object",             "arrayElements", "root",
	                                             "objectSize" };

void jfr_old_chunk_reset(jfr_decoder *d)
{
	jfr_old_objects *o = &d->old;
	o->row = d->a->ev->object ? jfr_type_find(&d->meta, "jdk.OldObjectSample") : SIZE_MAX;
	for (int k = 0; k < OS_FIELDS; k++)
		o->fx[k] = o->row == SIZE_MAX ? SIZE_MAX
		                              : jfr_field_find(&d->meta, &d->meta.types[o->row], sample_field[k]);
}

void jfr_old_free(jfr_old_objects *o)
{
	pd_map_free(&o->row_of);
	pd_map_free(&o->rooted);
	PD_FREE_ALL(o->objs, o->refs, o->roots, o->samples, o->ids, o->chunks);
}

/* Whether field f (NULL: absent), of value v, refers to a pool entry of type `to` (a JT_*), not null. */
static int is_ref(const jfr_decoder *d, const jfr_field *f, const jfr_value *v, int to)
{
	return f && f->pooled && !f->array && d->row[to] != SIZE_MAX && f->type == d->row[to] && v->u != 0;
}

/* Whether field k of the sample read (d->vals) refers to a pool entry of type `kind`. */
static int refers_to(const jfr_decoder *d, int k, int kind)
{
	size_t i = d->old.fx[k];
	return i != SIZE_MAX && is_ref(d, &d->meta.types[d->old.row].fields[i], &d->vals[i], kind);
}

/*
 * Whether field k refers to an entry of the chunk's own pool of `kind`. The
 * JDK names some old objects' allocation stacks by ids its recording holds
 * no entry for (jdk17-profile: 11 of 12 after a chunk rotation; `jfr
 * print` shows them null): such a stack or thread is left unknown, not
 * taken for damage.
 */
static int in_chunk_pool(const jfr_decoder *d, int k, int kind)
{
	jfr_cur c;
	return refers_to(d, k, kind) &&
	       jfr_pool_at(&d->chunk, &d->meta.types[d->row[kind]], d->chunk.p, d->vals[d->old.fx[k]].u, &c) == 0;
}

/* Field k of a picked value v of type `kind` refers to a pool entry of type `to`. */
static int picked_ref(const jfr_decoder *d, int kind, int k, const jfr_value *v, int to)
{
	return is_ref(d, jfr_field_of(d, (size_t)kind, k), &v[k], to);
}

/* The kind of an object of class `name` (JVM internal form), and a primitive array's element type. */
static void kind_of_class(const char *name, size_t len, uint8_t *kind, uint8_t *elem)
{
	*kind = len > 1 && name[0] == '[' ? PROFDATA_OBJECT_ARRAY : PROFDATA_OBJECT_INSTANCE;
	*elem = 0;
	for (int t = PROFDATA_TYPE_BOOLEAN; len == 2 && *kind && t <= PROFDATA_TYPE_LONG; t++)
		if (memcmp(pd_jvm_array_internal_name(t), name, 2) == 0) {
			*kind = PROFDATA_OBJECT_PRIM_ARRAY;
			*elem = (uint8_t)t;
		}
}

/* The object at `address` noted (row *row), its class from pool entry v's `type`; *is_new whether it was not. */
static int note_object(jfr_decoder *d, const jfr_value *v, uint32_t *row, int *is_new)
{
	jfr_old_objects *o = &d->old;
	uint64_t address = v[0].u, class_id = 0;
	size_t len = 0;
	int rc;
	*row = pd_map_get(&o->row_of, address);
	if ((*is_new = *row == 0) == 0) {
		(*row)--;
		return 0;
	}
	if (o->nobjs >= UINT32_MAX - 1)
		return PROFDATA_ELIMIT;
	if (picked_ref(d, JT_OLD_OBJECT, 1, v, JT_CLASS) && (rc = jfr_class_serial(d, v[1].u, v[1].at, &class_id)) != 0)
		return rc;
	if (pd_grow((void **)&o->objs, &o->objs_cap, o->nobjs + 1, sizeof *o->objs) ||
	    pd_map_put(&o->row_of, address, (uint32_t)o->nobjs + 1))
		return PROFDATA_ENOMEM;
	const char *name = class_id ? pd_intern_str(&d->classes, (uint32_t)class_id - 1, &len) : "";
	jfr_old_object *obj = &o->objs[o->nobjs];
	memset(obj, 0, sizeof *obj);
	obj->address = address;
	obj->class_id = class_id;
	kind_of_class(name, len, &obj->kind, &obj->elem_type);
	*row = (uint32_t)o->nobjs++;
	return 0;
}

/* Object row `from` holds a reference to the object at address `to`. */
static int add_ref(jfr_old_objects *o, uint32_t from, uint64_t to)
{
	if (pd_grow((void **)&o->refs, &o->refs_cap, o->nrefs + 1, sizeof *o->refs))
		return PROFDATA_ENOMEM;
	o->refs[o->nrefs++] = (jfr_old_ref){ .to = to, .from = from };
	return 0;
}

/* The referrer of an OldObject's picked value v: *object the referring OldObject's index (0 none), *length
 * its array's size. */
static int referrer(jfr_decoder *d, const jfr_value *v, uint64_t *object, uint64_t *length)
{
	jfr_value r[JFR_PICKED], a[JFR_PICKED];
	jfr_cur c;
	int rc;
	*object = *length = 0;
	if (!picked_ref(d, JT_OLD_OBJECT, 2, v, JT_REFERENCE))
		return 0;
	if ((rc = jfr_entry(d, JT_REFERENCE, v[2].u, v[2].at, &c)) != 0)
		return rc < 0 ? rc : 0;
	if ((rc = jfr_pick(d, &c, JT_REFERENCE, r)) != 0)
		return rc;
	if (picked_ref(d, JT_REFERENCE, 0, r, JT_OLD_ARRAY) && (rc = jfr_entry(d, JT_OLD_ARRAY, r[0].u, r[0].at, &c)) <= 0) {
		if (rc < 0 || (rc = jfr_pick(d, &c, JT_OLD_ARRAY, a)) != 0)
			return rc;
		*length = (uint32_t)a[0].u;
	}
	*object = picked_ref(d, JT_REFERENCE, 1, r, JT_OLD_OBJECT) ? r[1].u : 0;
	return 0;
}

/* The path's first object is a root of `kind`, once (PROFDATA_ROOT_UNKNOWN when the recording named none). */
static int add_root(jfr_old_objects *o, uint64_t address, uint8_t kind)
{
	if (pd_map_get(&o->rooted, address))
		return 0;
	if (pd_grow((void **)&o->roots, &o->roots_cap, o->nroots + 1, sizeof *o->roots) ||
	    pd_map_put(&o->rooted, address, 1))
		return PROFDATA_ENOMEM;
	o->roots[o->nroots++] = (profdata_root){ .kind = kind, .object_id = address };
	return 0;
}

/*
 * The path of the sampled object, pool index `index`, from it toward its
 * root: each object noted (the first with the sample's stack, elements and
 * size), each referrer given a reference to the object it refers to, the
 * last one the root. It stops at an object noted before: its path was
 * walked then (and a cycle of the pool ends there too).
 */
static int walk_path(jfr_decoder *d, uint64_t index, const unsigned char *at, const jfr_old_object *sampled,
                     int rooted, uint8_t root_kind, uint64_t *address)
{
	jfr_old_objects *o = &d->old;
	uint64_t length = sampled->length, next, prev = 0;
	int is_new, rc;
	for (int first = 1; index; first = 0, index = next) {
		jfr_value v[JFR_PICKED];
		jfr_cur c;
		uint32_t row;
		if ((rc = jfr_entry(d, JT_OLD_OBJECT, index, at, &c)) != 0)
			return rc < 0 ? rc : 0;
		if ((rc = jfr_pick(d, &c, JT_OLD_OBJECT, v)) != 0 || v[0].u == 0) /* no address: not an object */
			return rc;
		if ((rc = note_object(d, v, &row, &is_new)) != 0)
			return rc;
		if (first)
			*address = v[0].u;
		if (first && !o->objs[row].trace) { /* also when another path met it first */
			o->objs[row].trace = sampled->trace;
			o->objs[row].size = sampled->size;
		}
		if (!first && (rc = add_ref(o, row, prev)) != 0)
			return rc;
		if (!is_new)
			return 0;
		o->objs[row].length = length;
		prev = v[0].u;
		if ((rc = referrer(d, v, &next, &length)) != 0)
			return rc;
		if (!next && rooted)
			return add_root(o, prev, root_kind);
	}
	return 0;
}

/*
 * The JDK's names of a root's type, then of its system (OldObjectRoot's
 * descriptions, JDK 11 to 25), as HPROF's root kinds: a type says more
 * than the system it lies in, so it is matched first.
 */
static const struct {
	const char *name;
	uint8_t kind;
} root_kinds[] = {
	{ "Stack Variable", PROFDATA_ROOT_JAVA_FRAME },   { "Local JNI Handle", PROFDATA_ROOT_JNI_LOCAL },
	{ "Global JNI Handle", PROFDATA_ROOT_JNI_GLOBAL }, { "Handle Area", PROFDATA_ROOT_VM_INTERNAL },
	{ "Threads", PROFDATA_ROOT_THREAD_OBJECT },       { "Object Monitor", PROFDATA_ROOT_MONITOR_USED },
	{ "JNI Global", PROFDATA_ROOT_JNI_GLOBAL },       { "Class Loader Data", PROFDATA_ROOT_STICKY_CLASS },
	{ "String Table", PROFDATA_ROOT_INTERNED_STRING }, { "Universe", PROFDATA_ROOT_VM_INTERNAL },
	{ "VM Global", PROFDATA_ROOT_VM_INTERNAL },       { "Management", PROFDATA_ROOT_VM_INTERNAL },
	{ "JVMTI", PROFDATA_ROOT_VM_INTERNAL },           { "AOT", PROFDATA_ROOT_VM_INTERNAL },
	{ "Code Cache", PROFDATA_ROOT_VM_INTERNAL },
};

static uint8_t root_kind_named(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof root_kinds / sizeof *root_kinds; i++)
		if (strlen(root_kinds[i].name) == len && memcmp(root_kinds[i].name, name, len) == 0)
			return root_kinds[i].kind;
	return PROFDATA_ROOT_UNKNOWN;
}

/*
 * The text of field f's value v into d->text: a string, or a pooled struct
 * around one (the JDK's OldObjectRootSystem and OldObjectRootType hold
 * their names so): its first string field's. An entry missing is no text.
 */
static int wrapped_text(jfr_decoder *d, const jfr_field *f, const jfr_value *v)
{
	if (!f || !f->pooled || f->array || d->meta.types[f->type].kind == JFR_STRING)
		return jfr_field_text(d, f, v);
	const jfr_type *t = &d->meta.types[f->type];
	jfr_cur c;
	d->text.n = 0;
	if (!v->u || jfr_pool_at(&d->chunk, t, d->chunk.p, v->u, &c) != 0)
		return 0;
	for (size_t i = 0; i < t->nfields; i++) {
		jfr_value s;
		int rc = jfr_read_field(&c, &d->meta, &t->fields[i], &s, 0);
		if (rc || (d->meta.types[t->fields[i].type].kind == JFR_STRING && !t->fields[i].array))
			return rc ? rc : jfr_field_text(d, &t->fields[i], &s);
	}
	return 0;
}

/*
 * GC root `index` of the pool: its kind (by its type when the JDK names
 * one, else by its system), and its name as the recording gives it
 * ("Class Loader Data", "Threads, Stack Variable: ...": the system, the
 * type when known, the description when there is one) as a string id.
 */
static int root_of(jfr_decoder *d, uint64_t index, const unsigned char *at, uint8_t *kind, uint64_t *name_id)
{
	static const char *const sep[3] = { "", ", ", ": " };
	uint8_t named[2] = { PROFDATA_ROOT_UNKNOWN, PROFDATA_ROOT_UNKNOWN };
	jfr_value v[JFR_PICKED];
	pd_strbuf name = { 0 };
	jfr_cur c;
	int rc;
	*kind = PROFDATA_ROOT_UNKNOWN;
	if ((rc = jfr_entry(d, JT_GC_ROOT, index, at, &c)) != 0 || (rc = jfr_pick(d, &c, JT_GC_ROOT, v)) != 0)
		return rc < 0 ? rc : 0;
	for (int k = 0; k < 3 && rc == 0; k++) { /* system, type, description */
		if ((rc = wrapped_text(d, jfr_field_of(d, JT_GC_ROOT, k), &v[k])) != 0 || d->text.n == 0 ||
		    (k == 1 && strcmp(d->text.p, "<unknown>") == 0))
			continue;
		if (k < 2)
			named[k] = root_kind_named(d->text.p, d->text.n);
		if ((name.n && pd_strbuf_add(&name, sep[k], strlen(sep[k]))) || pd_strbuf_add(&name, d->text.p, d->text.n))
			rc = PROFDATA_ENOMEM;
	}
	*kind = named[1] != PROFDATA_ROOT_UNKNOWN ? named[1] : named[0];
	if (rc == 0 && name.n)
		rc = jfr_string_id(d, name.p, name.n, name_id);
	free(name.p);
	return rc;
}

/* The sample's value of field k (zero when the metadata lacks it). */
static jfr_value sample_value(const jfr_decoder *d, int k)
{
	return d->old.fx[k] == SIZE_MAX ? (jfr_value){ 0 } : d->vals[d->old.fx[k]];
}

/* The sample read into d->vals: its thread, stack and root, its object's path, and the object sample noted. */
static int old_sample(jfr_decoder *d)
{
	jfr_old_objects *o = &d->old;
	jfr_value object = sample_value(d, OS_OBJECT), thread = sample_value(d, OS_THREAD),
	          stack = sample_value(d, OS_STACK), root = sample_value(d, OS_ROOT);
	int rooted = refers_to(d, OS_ROOT, JT_GC_ROOT), rc = 0;
	int64_t elements = (int32_t)sample_value(d, OS_ELEMENTS).u; /* -1 or absent: not an array */
	jfr_old_object sampled = { .length = elements > 0 ? (uint64_t)elements : 0, .size = sample_value(d, OS_SIZE).u };
	uint8_t root_kind = PROFDATA_ROOT_UNKNOWN;
	profdata_object_sample s = {
		.time_ns = o->fx[OS_TIME] == SIZE_MAX ? 0 : jfr_ticks_ns(&d->h, sample_value(d, OS_TIME).u),
		.allocation_ns = o->fx[OS_ALLOCATED] == SIZE_MAX ? 0 : jfr_ticks_ns(&d->h, sample_value(d, OS_ALLOCATED).u),
		.age_ns = jfr_span_ns(&d->h, sample_value(d, OS_AGE).u),
		.heap_used = sample_value(d, OS_HEAP).u,
	};
	if (in_chunk_pool(d, OS_THREAD, JT_THREAD))
		rc = jfr_thread_serial(d, thread.u, thread.at, &s.thread_serial);
	if (rc == 0 && in_chunk_pool(d, OS_STACK, JT_STACK_TRACE))
		rc = jfr_stack_serial(d, stack.u, stack.at, &sampled.trace);
	if (rc == 0 && rooted)
		rc = root_of(d, root.u, root.at, &root_kind, &s.root_name_id);
	if (rc == 0)
		rc = walk_path(d, object.u, object.at, &sampled, rooted, root_kind, &s.object_id);
	if (rc || !s.object_id)
		return rc;
	if (pd_grow((void **)&o->samples, &o->samples_cap, o->nsamples + 1, sizeof *o->samples))
		return PROFDATA_ENOMEM;
	o->samples[o->nsamples++] = s;
	return 0;
}

int jfr_old_note_chunk(jfr_decoder *d, uint64_t type)
{
	jfr_old_objects *o = &d->old;
	if (o->row == SIZE_MAX || d->meta.types[o->row].id != type || (o->nchunks && o->chunks[o->nchunks - 1] == d->chunk.p))
		return 0;
	if (pd_grow((void **)&o->chunks, &o->chunks_cap, o->nchunks + 1, sizeof *o->chunks))
		return PROFDATA_ENOMEM;
	o->chunks[o->nchunks++] = d->chunk.p;
	return 0;
}

int jfr_old_event(jfr_decoder *d, uint64_t type, jfr_cur *c)
{
	jfr_old_objects *o = &d->old;
	if (o->row == SIZE_MAX || d->meta.types[o->row].id != type)
		return 0;
	const jfr_type *t = &d->meta.types[o->row];
	jfr_cur body = *c; /* the event stays unread for the others that take it */
	if (pd_grow((void **)&d->vals, &d->vals_cap, t->nfields + 1, sizeof *d->vals))
		return PROFDATA_ENOMEM;
	int rc = jfr_read_struct(&body, &d->meta, t, d->vals, 0);
	return rc || !refers_to(d, OS_OBJECT, JT_OLD_OBJECT) ? rc : old_sample(d);
}

/* The references of each object, grouped by object in their order: o->ids from ref_at[row] to ref_at[row + 1]. */
static int group_refs(jfr_old_objects *o, size_t **ref_at)
{
	size_t *at = calloc(o->nobjs + 1, sizeof *at);
	if (!at || pd_grow((void **)&o->ids, &o->ids_cap, o->nrefs + 1, sizeof *o->ids)) {
		free(at);
		return PROFDATA_ENOMEM;
	}
	for (size_t i = 0; i < o->nrefs; i++)
		at[o->refs[i].from + 1]++;
	for (size_t r = 0; r < o->nobjs; r++)
		at[r + 1] += at[r];
	for (size_t i = 0; i < o->nrefs; i++) /* at[from] moves on to the next free place, */
		o->ids[at[o->refs[i].from]++] = o->refs[i].to;
	for (size_t r = o->nobjs; r > 0; r--) /* and back to the group's start */
		at[r] = at[r - 1];
	at[0] = 0;
	*ref_at = at;
	return 0;
}

/* Object row r, its references ids[first .. end). */
static int emit_object(jfr_decoder *d, size_t r, size_t first, size_t end)
{
	const jfr_old_object *obj = &d->old.objs[r];
	size_t n = end - first;
	profdata_object out = { .id = obj->address, .class_id = obj->class_id, .trace_serial = obj->trace,
		                .kind = obj->kind, .elem_type = obj->elem_type, .size = obj->size,
		                .length = obj->kind == PROFDATA_OBJECT_INSTANCE ? 0 : obj->length };
	if (obj->kind == PROFDATA_OBJECT_PRIM_ARRAY) {
		out.flags = PROFDATA_OBJECT_NODATA;
	} else {
		out.refs = d->old.ids + first;
		out.nrefs = n;
		if (obj->kind == PROFDATA_OBJECT_ARRAY && out.length < n) /* an array's size the path did not say */
			out.length = n;
	}
	return PD_EMIT(d->a, object, &out);
}

int jfr_old_emit(jfr_decoder *d)
{
	jfr_old_objects *o = &d->old;
	profdata_dump dump = { .kind = PROFDATA_DUMP_HEAP };
	size_t *ref_at = NULL;
	int rc;
	if (!o->nobjs)
		return 0;
	if ((rc = group_refs(o, &ref_at)) != 0 || (rc = PD_EMIT(d->a, dump_begin, &dump)) != 0)
		goto out;
	for (size_t i = 0; i < o->nroots && rc == 0; i++)
		rc = PD_EMIT(d->a, root, &o->roots[i]);
	for (size_t r = 0; r < o->nobjs && rc == 0; r++)
		rc = emit_object(d, r, ref_at[r], ref_at[r + 1]);
	if (rc == 0)
		rc = PD_EMIT0(d->a, dump_end);
	for (size_t i = 0; i < o->nsamples && rc == 0; i++)
		rc = PD_EMIT(d->a, object_sample, &o->samples[i]);
out:
	free(ref_at);
	return rc;
}
