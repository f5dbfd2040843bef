/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HPROF agent's text output, written: SITES from the model's
 * allocation sites and HEAP DUMP from its roots, classes and objects, in
 * the agent's layout (encode.c writes the rest). The text lists
 * references only: primitive values are lost, and said so.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"

/* ---- SITES ---- */

/* The allocated class: by serial, else a primitive array's "type[]"; "<unknown>" when neither. */
static int site_class(ht_writer *hw, const profdata_alloc_site *s)
{
	int rc = pd_htw_class_name(hw, s->class_serial);
	const char *prim = s->array_type && s->array_type != PROFDATA_TYPE_OBJECT ? profdata_basic_type_name(s->array_type)
	                                                                          : NULL;
	if (rc != 0)
		return rc < 0 ? rc : 0;
	hw->name.n = 0;
	if (prim)
		return pd_strbuf_add(&hw->name, prim, strlen(prim)) || pd_strbuf_add(&hw->name, "[]", 2) ? PROFDATA_ENOMEM : 0;
	return pd_strbuf_add(&hw->name, "<unknown>", 9) ? PROFDATA_ENOMEM : 0;
}

static int write_site_table(ht_writer *hw, const profdata_alloc_sites *a)
{
	double accum = 0;
	int rc = pd_htw_printf(hw, "SITES BEGIN (ordered by %s) %s\n"
	                       "          percent          live          alloc'ed  stack class\n"
	                       " rank   self  accum     bytes objs     bytes  objs trace name\n",
	                       a->flags & 0x2 ? "allocated bytes" : "live bytes", hw->date);
	for (size_t i = 0; i < a->nsites && rc == 0; i++) {
		const profdata_alloc_site *s = &a->sites[i];
		double percent = a->total_live_bytes ? 100.0 * s->live_bytes / a->total_live_bytes : 0.0;
		accum += percent;
		if ((rc = site_class(hw, s)) != 0)
			break;
		rc = pd_htw_printf(hw, "%5zu %5.2f%% %5.2f%% %9" PRIu32 " %4" PRIu32 " %9" PRIu32 " %5" PRIu32 " %5" PRIu32
		                   " %.*s\n", i + 1, percent, accum, s->live_bytes, s->live_instances, s->alloc_bytes,
		                   s->alloc_instances, pd_htw_trace(hw, s->trace_serial), (int)hw->name.n, hw->name.p);
	}
	return rc ? rc : pd_htw_add(hw, "SITES END\n", 10);
}

int pd_htw_sites(ht_writer *hw)
{
	size_t n = profdata_profile_count(hw->p, PROFDATA_TABLE_ALLOC_SITES);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		profdata_alloc_sites a;
		if (profdata_profile_alloc_sites(hw->p, i, &a) == 0)
			rc = write_site_table(hw, &a);
	}
	return rc;
}

/* ---- HEAP DUMP: roots ---- */

static int write_root(ht_writer *hw, const profdata_root *r)
{
	uint64_t id = r->object_id;
	switch (r->kind) {
	case PROFDATA_ROOT_JNI_GLOBAL:
		return pd_htw_printf(hw, "ROOT %" PRIx64 " (kind=<JNI global ref>, id=%" PRIx64 ", trace=300000)\n", id,
		                     r->extra_id);
	case PROFDATA_ROOT_JNI_LOCAL:
	case PROFDATA_ROOT_JAVA_FRAME:
		return pd_htw_printf(hw, "ROOT %" PRIx64 " (kind=<%s>, thread=%" PRIu32 ", frame=%" PRId32 ")\n", id,
		                     r->kind == PROFDATA_ROOT_JNI_LOCAL ? "JNI local ref" : "Java stack", r->thread_serial,
		                     (int32_t)r->frame);
	case PROFDATA_ROOT_NATIVE_STACK:
	case PROFDATA_ROOT_THREAD_BLOCK:
		return pd_htw_printf(hw, "ROOT %" PRIx64 " (kind=<%s>, thread=%" PRIu32 ")\n", id,
		                     r->kind == PROFDATA_ROOT_NATIVE_STACK ? "native stack" : "thread block", r->thread_serial);
	case PROFDATA_ROOT_STICKY_CLASS: {
		int rc = pd_htw_class_name_of_id(hw, id);
		if (rc < 0)
			return rc;
		return pd_htw_printf(hw, "ROOT %" PRIx64 " (kind=<system class>, name=%s)\n", id,
		                     rc ? hw->name.p : "<unknown>");
	}
	case PROFDATA_ROOT_MONITOR_USED:
		return pd_htw_printf(hw, "ROOT %" PRIx64 " (kind=<busy monitor>)\n", id);
	case PROFDATA_ROOT_THREAD_OBJECT:
		return pd_htw_printf(hw, "ROOT %" PRIx64 " (kind=<thread>, id=%" PRIu32 ", trace=%" PRIu32 ")\n", id,
		                     r->thread_serial, pd_htw_trace(hw, r->frame));
	default:
		return pd_htw_printf(hw, "ROOT %" PRIx64 " (kind=<unknown>)\n", id);
	}
}

/* ---- HEAP DUMP: classes ---- */

static int write_cls(ht_writer *hw, const profdata_class_dump *d)
{
	static const char *const slot[] = { "super", "loader", "signers", "domain" };
	const uint64_t ids[] = { d->super_id, d->loader_id, d->signers_id, d->protection_domain_id };
	int rc = pd_htw_class_name_of_id(hw, d->id);
	if (rc < 0)
		return rc;
	rc = pd_htw_printf(hw, "CLS %" PRIx64 " (name=%s, trace=%" PRIu32 ")\n", d->id, rc ? hw->name.p : "<unknown>",
	                   pd_htw_trace(hw, d->trace_serial));
	for (size_t i = 0; i < 4 && rc == 0; i++)
		if (ids[i])
			rc = pd_htw_printf(hw, "\t%s\t\t%" PRIx64 "\n", slot[i], ids[i]);
	for (size_t i = 0; i < d->nstatics && rc == 0; i++) {
		size_t nl;
		const char *name = pd_profile_text(hw->p, d->statics[i].name_id, &nl);
		if (d->statics[i].type == PROFDATA_TYPE_OBJECT && d->statics[i].value)
			rc = pd_htw_printf(hw, "\tstatic %.*s\t%" PRIx64 "\n", (int)nl, name ? name : "", d->statics[i].value);
	}
	for (size_t i = 0; i < d->nconstants && rc == 0; i++)
		if (d->constants[i].type == PROFDATA_TYPE_OBJECT && d->constants[i].value)
			rc = pd_htw_printf(hw, "\tconstant pool entry %u\t%" PRIx64 "\n", (unsigned)d->constants[i].index,
			                   d->constants[i].value);
	return rc;
}

/* ---- HEAP DUMP: objects ---- */

/*
 * The names of an instance's nrefs references: its class's layout's
 * reference fields in payload order (the class's own first; a class read
 * from text declares every field its instances list), when it has nrefs.
 */
static long ref_field_names(ht_writer *hw, uint64_t class_id, uint64_t *names, size_t nrefs)
{
	size_t ci, k = 0;
	long n;
	profdata_field *f;
	if (profdata_profile_find_class(hw->p, class_id, &ci) < 0 || (n = profdata_profile_class_layout(hw->p, ci, NULL, 0)) <= 0)
		return 0;
	if (!(f = malloc((size_t)n * sizeof *f)))
		return PROFDATA_ENOMEM;
	profdata_profile_class_layout(hw->p, ci, f, (size_t)n);
	for (long i = 0; i < n; i++)
		if (f[i].type == PROFDATA_TYPE_OBJECT && k < nrefs)
			names[k++] = f[i].name_id;
	free(f);
	return k == nrefs ? (long)k : 0;
}

/* Object i's references (nulls included when derived from a payload) into hw's scratch; their count or an error. */
static long object_refs(ht_writer *hw, size_t i, uint64_t **refs, size_t *cap)
{
	long n = profdata_profile_object_refs(hw->p, i, 1, NULL, 0);
	if (n <= 0)
		return n;
	if ((size_t)n > *cap && pd_grow((void **)refs, cap, (size_t)n, sizeof **refs) < 0)
		return PROFDATA_ENOMEM;
	return profdata_profile_object_refs(hw->p, i, 1, *refs, (size_t)n);
}

/* Deeper hierarchies print their remaining fields in payload order. */
#define HTW_MAX_SEGMENTS 64

/*
 * Where each class of class_id's hierarchy starts among its instances'
 * references (payload order: the class's own first, then its
 * superclass's): starts[k] for k < the count returned, starts[count] the end.
 */
static size_t ref_segments(ht_writer *hw, uint64_t class_id, size_t starts[HTW_MAX_SEGMENTS + 1])
{
	size_t n = 0, ci;
	starts[0] = 0;
	while (n < HTW_MAX_SEGMENTS && class_id && profdata_profile_find_class(hw->p, class_id, &ci) == 0) {
		profdata_class_info c;
		size_t own = 0;
		if (profdata_profile_class(hw->p, ci, &c) < 0 || !c.has_dump)
			break;
		for (size_t j = 0; j < c.dump.nfields; j++)
			own += c.dump.fields[j].type == PROFDATA_TYPE_OBJECT;
		starts[n + 1] = starts[n] + own;
		n++;
		class_id = c.dump.super_id;
	}
	return n;
}

static int write_field(ht_writer *hw, const uint64_t *names, long named, long k, uint64_t ref)
{
	size_t nl = 0;
	const char *name = named ? pd_profile_text(hw->p, names[k], &nl) : NULL;
	if (!ref)
		return 0;
	/* the agent's padding: a second TAB after a name shorter than 8 */
	return name ? pd_htw_printf(hw, "\t%.*s\t%s%" PRIx64 "\n", (int)nl, name, nl < 8 ? "\t" : "", ref)
	            : pd_htw_printf(hw, "\tref%ld\t\t%" PRIx64 "\n", k, ref);
}

/*
 * OBJ: its non-null fields, named as its class's layout names them ("ref<i>"
 * when it has no layout), in the agent's order: the topmost superclass's
 * fields first, the class's own last.
 */
static int write_obj(ht_writer *hw, const profdata_object *o, uint64_t size, const uint64_t *refs, long n,
                     uint64_t *names)
{
	size_t starts[HTW_MAX_SEGMENTS + 1], nseg;
	int rc = pd_htw_class_name_of_id(hw, o->class_id);
	if (rc < 0)
		return rc;
	rc = pd_htw_printf(hw, "OBJ %" PRIx64 " (sz=%" PRIu64 ", trace=%" PRIu32 ", class=%s@%" PRIx64 ")\n", o->id, size,
	                   pd_htw_trace(hw, o->trace_serial), rc ? hw->name.p : "<unknown>", o->class_id);
	long named = rc == 0 ? ref_field_names(hw, o->class_id, names, (size_t)n) : 0;
	if (named < 0)
		return (int)named;
	nseg = named ? ref_segments(hw, o->class_id, starts) : 0;
	for (size_t g = nseg; g-- > 0 && rc == 0;)
		for (size_t k = starts[g]; k < starts[g + 1] && k < (size_t)n && rc == 0; k++)
			rc = write_field(hw, names, named, (long)k, refs[k]);
	for (long k = nseg ? (long)starts[nseg] : 0; k < n && rc == 0; k++)
		rc = write_field(hw, names, named, k, refs[k]);
	return rc;
}

/* ARR: an object array's non-null elements by index; a primitive array its element type and length only. */
static int write_arr(ht_writer *hw, const profdata_object *o, uint64_t size, const uint64_t *refs, long n)
{
	int rc;
	if (o->kind == PROFDATA_OBJECT_PRIM_ARRAY) {
		const char *t = profdata_basic_type_name(o->elem_type);
		return pd_htw_printf(hw, "ARR %" PRIx64 " (sz=%" PRIu64 ", trace=%" PRIu32 ", nelems=%" PRIu64
		                     ", elem type=%s[])\n", o->id, size, pd_htw_trace(hw, o->trace_serial), o->length,
		                     t ? t : "byte");
	}
	if ((rc = pd_htw_class_name_of_id(hw, o->class_id)) < 0)
		return rc;
	rc = pd_htw_printf(hw, "ARR %" PRIx64 " (sz=%" PRIu64 ", trace=%" PRIu32 ", nelems=%" PRIu64
	                   ", elem type=%s@%" PRIx64 ")\n", o->id, size, pd_htw_trace(hw, o->trace_serial),
	                   o->length > (uint64_t)n ? o->length : (uint64_t)n, rc ? hw->name.p : "java.lang.Object[]",
	                   o->class_id);
	for (long k = 0; k < n && rc == 0; k++)
		if (refs[k])
			rc = pd_htw_printf(hw, "\t[%ld]\t\t%" PRIx64 "\n", k, refs[k]);
	return rc;
}

static int write_objects(ht_writer *hw, uint32_t dump)
{
	size_t n = profdata_profile_count(hw->p, PROFDATA_TABLE_OBJECTS), cap = 0, names_cap = 0;
	uint64_t *refs = NULL, *names = NULL;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		profdata_object o;
		uint32_t d;
		size_t hi;
		long nr;
		if (profdata_profile_object_place(hw->p, i, &d, &hi) < 0 || d != dump || profdata_profile_object(hw->p, i, &o) < 0)
			continue;
		if ((nr = object_refs(hw, i, &refs, &cap)) < 0)
			rc = (int)nr;
		else if (o.kind == PROFDATA_OBJECT_INSTANCE && (size_t)nr > names_cap &&
		         pd_grow((void **)&names, &names_cap, (size_t)nr, sizeof *names) < 0)
			rc = PROFDATA_ENOMEM;
		else if (o.kind == PROFDATA_OBJECT_INSTANCE)
			rc = write_obj(hw, &o, profdata_profile_object_size(hw->p, i), refs, nr, names);
		else
			rc = write_arr(hw, &o, profdata_profile_object_size(hw->p, i), refs, nr);
	}
	PD_FREE_ALL(refs, names);
	return rc;
}

/* ---- HEAP DUMP ---- */

static int write_dump(ht_writer *hw, uint32_t dump)
{
	size_t nobj = profdata_profile_count(hw->p, PROFDATA_TABLE_OBJECTS), count = 0;
	size_t nroots = profdata_profile_count(hw->p, PROFDATA_TABLE_ROOTS);
	size_t ncls = profdata_profile_count(hw->p, PROFDATA_TABLE_CLASS_DUMPS);
	uint64_t bytes = 0;
	int rc;
	for (size_t i = 0; i < nobj; i++) {
		uint32_t d;
		size_t hi;
		if (profdata_profile_object_place(hw->p, i, &d, &hi) == 0 && d == dump) {
			count++;
			bytes += profdata_profile_object_size(hw->p, i);
		}
	}
	rc = pd_htw_printf(hw, "HEAP DUMP BEGIN (%zu objects, %" PRIu64 " bytes) %s\n", count, bytes, hw->date);
	for (size_t i = 0; i < nroots && rc == 0; i++) {
		profdata_root r;
		uint32_t d;
		if (profdata_profile_root(hw->p, i, &r, &d) == 0 && d == dump)
			rc = write_root(hw, &r);
	}
	/* objects before classes, as a dump read from text gives them back (its order between the two is not kept) */
	if (rc == 0)
		rc = write_objects(hw, dump);
	for (size_t i = 0; i < ncls && rc == 0; i++) {
		profdata_class_dump c;
		uint32_t d;
		if (profdata_profile_class_dump_at(hw->p, i, &c, &d) == 0 && d == dump)
			rc = write_cls(hw, &c);
	}
	return rc ? rc : pd_htw_add(hw, "HEAP DUMP END\n", 14);
}

int pd_htw_heap(ht_writer *hw)
{
	/* every dump is a heap dump (segmented or not): objects, roots and classes say which they are in */
	uint32_t n = (uint32_t)profdata_profile_count(hw->p, PROFDATA_TABLE_DUMPS), i = 0;
	int rc = 0;
	while (rc == 0 && i < n)
		rc = write_dump(hw, i++);
	return rc;
}
