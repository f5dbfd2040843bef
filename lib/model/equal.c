/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Model equality, the oracle of every round-trip test. Keyed tables (strings,
 * classes, threads, functions, frames, stacks) are compared by key, because
 * formats may list them in another order; sequences (objects, roots,
 * samples, ...) are compared in order, because order is data there.
 */
#include "model/model_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cmp {
	char *why;
	size_t len;
} cmp;

static int differ(cmp *c, const char *fmt, ...) PD_PRINTF(2, 3);
static int differ(cmp *c, const char *fmt, ...)
{
	if (c->why && c->len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->why, c->len, fmt, ap);
		va_end(ap);
	}
	return 0;
}

static int str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

#define ULL(x) ((unsigned long long)(x))
#define CHECK_COUNT(table, name) \
	if (profdata_profile_count(a, table) != profdata_profile_count(b, table)) \
		return differ(c, "%s: %zu vs %zu", name, profdata_profile_count(a, table), \
		              profdata_profile_count(b, table))
/*
 * Field-by-field comparators: structs are never compared with memcmp, whose
 * padding bytes are whatever the producer's stack held.
 */
#define F(f) (x->f == y->f)
static int eq_thread_start(const profdata_thread_start *x, const profdata_thread_start *y)
{
	return F(time_us) && F(serial) && F(object_id) && F(trace_serial) && F(name_id) && F(group_name_id) &&
	       F(parent_group_name_id);
}
static int eq_thread_end(const profdata_thread_end *x, const profdata_thread_end *y) { return F(time_us) && F(serial); }
static int eq_function(const profdata_function *x, const profdata_function *y)
{
	return F(id) && F(name_id) && F(signature_id) && F(source_file_id) && F(class_serial) && F(start_line) &&
	       F(end_line);
}
static int eq_sample(const profdata_sample *x, const profdata_sample *y)
{
	return F(stack_serial) && F(thread_serial) && F(time_ns) && F(nvalues) &&
	       (!x->nvalues || memcmp(x->values, y->values, x->nvalues * 8) == 0);
}
static int eq_sample_type(const profdata_sample_type *x, const profdata_sample_type *y) { return F(type_id) && F(unit_id); }
static int eq_heap_summary(const profdata_heap_summary *x, const profdata_heap_summary *y)
{
	return F(time_us) && F(live_bytes) && F(live_instances) && F(alloc_bytes) && F(alloc_instances);
}
static int eq_control_settings(const profdata_control_settings *x, const profdata_control_settings *y)
{
	return F(time_us) && F(flags) && F(stack_depth);
}
static int eq_mapping(const profdata_mapping *x, const profdata_mapping *y)
{
	return F(start) && F(limit) && F(offset) && F(inode) && F(path_id) && F(build_id) &&
	       strcmp(x->perms, y->perms) == 0 && strcmp(x->device, y->device) == 0;
}
static int eq_frame_kind(const profdata_frame_kind *x, const profdata_frame_kind *y) { return F(frame_id) && F(kind); }
static int eq_stack_truncated(const profdata_stack_truncated *x, const profdata_stack_truncated *y)
{
	return F(stack_serial);
}
static int eq_object_sample(const profdata_object_sample *x, const profdata_object_sample *y)
{
	return F(object_id) && F(time_ns) && F(allocation_ns) && F(age_ns) && F(heap_used) && F(thread_serial) &&
	       F(root_name_id);
}
static int eq_class_unload(const profdata_class_unload *x, const profdata_class_unload *y) { return F(time_us) && F(serial); }
static int eq_class_load(const profdata_class_load *x, const profdata_class_load *y)
{
	return F(time_us) && F(serial) && F(id) && F(trace_serial) && F(name_id);
}
static int eq_alloc_site(const profdata_alloc_site *x, const profdata_alloc_site *y)
{
	return F(array_type) && F(class_serial) && F(trace_serial) && F(live_bytes) && F(live_instances) &&
	       F(alloc_bytes) && F(alloc_instances);
}
static int eq_root(const profdata_root *x, const profdata_root *y)
{
	return F(kind) && F(object_id) && F(thread_serial) && F(frame) && F(extra_id);
}
static int eq_dump_row(const pd_dump_row *x, const pd_dump_row *y)
{
	return F(d.time_us) && F(d.kind) && F(first_object) && F(nobjects);
}
static int eq_heap_row(const pd_heap_row *x, const pd_heap_row *y)
{
	return F(h.heap_id) && F(h.name_id) && F(dump) && F(obj_pos);
}
#undef F

static int meta_equal(const profdata_profile *a, const profdata_profile *b, cmp *c)
{
	const profdata_meta *m = &a->meta, *n = &b->meta;
	if (!str_eq(m->version, n->version))
		return differ(c, "meta version: '%s' vs '%s'", m->version ? m->version : "(none)",
		              n->version ? n->version : "(none)");
	if (m->id_size != n->id_size || m->word_size != n->word_size || m->big_endian != n->big_endian ||
	    m->timestamp_ms != n->timestamp_ms || m->period != n->period)
		return differ(c, "meta: id size %u/%u, word size %u/%u, byte order %d/%d, time %llu/%llu, period %llu/%llu",
		              m->id_size, n->id_size, m->word_size, n->word_size, m->big_endian, n->big_endian,
		              ULL(m->timestamp_ms), ULL(n->timestamp_ms), ULL(m->period), ULL(n->period));
	if (!str_eq(m->period_type, n->period_type) || !str_eq(m->period_unit, n->period_unit))
		return differ(c, "meta period type or unit");
	if (m->ncomments != n->ncomments)
		return differ(c, "meta comments: %zu vs %zu", m->ncomments, n->ncomments);
	for (size_t i = 0; i < m->ncomments; i++)
		if (!str_eq(m->comments[i].key, n->comments[i].key) || !str_eq(m->comments[i].value, n->comments[i].value))
			return differ(c, "meta comment %zu: %s=%s vs %s=%s", i, m->comments[i].key, m->comments[i].value,
			              n->comments[i].key, n->comments[i].value);
	return 1;
}

static int strings_equal(const profdata_profile *a, const profdata_profile *b, cmp *c)
{
	CHECK_COUNT(PROFDATA_TABLE_STRINGS, "strings");
	for (size_t i = 0; i < a->str_ids.n; i++) {
		uint64_t id;
		const char *s;
		size_t len, len2;
		profdata_profile_string_at(a, i, &id, &s, &len);
		const char *t = profdata_profile_string(b, id, &len2);
		if (!t)
			return differ(c, "string id %llu missing from the second", ULL(id));
		if (len != len2 || memcmp(s, t, len) != 0)
			return differ(c, "string id %llu: '%.*s' vs '%.*s'", ULL(id), (int)len, s, (int)len2, t);
	}
	return 1;
}

static int fields_equal(const profdata_field *x, const profdata_field *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i].name_id != y[i].name_id || x[i].type != y[i].type || x[i].value != y[i].value)
			return 0;
	return 1;
}

static int class_dump_equal(const profdata_class_dump *p, const profdata_class_dump *q)
{
	if (p->id != q->id || p->trace_serial != q->trace_serial || p->super_id != q->super_id ||
	    p->loader_id != q->loader_id || p->signers_id != q->signers_id ||
	    p->protection_domain_id != q->protection_domain_id || p->reserved1 != q->reserved1 ||
	    p->reserved2 != q->reserved2 || p->instance_size != q->instance_size || p->size != q->size)
		return 0;
	if (p->nconstants != q->nconstants || p->nstatics != q->nstatics || p->nfields != q->nfields)
		return 0;
	for (size_t k = 0; k < p->nconstants; k++)
		if (p->constants[k].index != q->constants[k].index || p->constants[k].type != q->constants[k].type ||
		    p->constants[k].value != q->constants[k].value)
			return 0;
	if (!fields_equal(p->statics, q->statics, p->nstatics) || !fields_equal(p->fields, q->fields, p->nfields))
		return 0;
	return (p->refs == NULL) == (q->refs == NULL) && p->nrefs == q->nrefs &&
	       (!p->nrefs || memcmp(p->refs, q->refs, p->nrefs * 8) == 0);
}

static int classes_equal(const profdata_profile *a, const profdata_profile *b, cmp *c)
{
	CHECK_COUNT(PROFDATA_TABLE_CLASSES, "classes");
	for (size_t i = 0; i < a->classes.n; i++) {
		profdata_class_info x, y;
		size_t j;
		profdata_profile_class(a, i, &x);
		uint64_t id = a->classes.v[i].id;
		if (profdata_profile_find_class(b, id, &j) < 0)
			return differ(c, "class 0x%llx missing from the second", ULL(id));
		profdata_profile_class(b, j, &y);
		if (x.has_load != y.has_load || x.has_dump != y.has_dump || x.unloaded != y.unloaded)
			return differ(c, "class 0x%llx: load/dump/unload presence differs", ULL(id));
		if (x.has_load && (x.load.serial != y.load.serial || x.load.trace_serial != y.load.trace_serial ||
		                   x.load.name_id != y.load.name_id || x.load.time_us != y.load.time_us))
			return differ(c, "class 0x%llx: load record differs", ULL(id));
		if (!x.has_dump)
			continue;
		if (x.dump_index != y.dump_index || !class_dump_equal(&x.dump, &y.dump))
			return differ(c, "class 0x%llx: dump differs", ULL(id));
	}
	CHECK_COUNT(PROFDATA_TABLE_CLASS_DUMPS, "class dumps");
	for (size_t i = 0; i < a->cdumps.n; i++) {
		profdata_class_dump x, y;
		uint32_t dx, dy;
		profdata_profile_class_dump_at(a, i, &x, &dx);
		profdata_profile_class_dump_at(b, i, &y, &dy);
		if (dx != dy || !class_dump_equal(&x, &y))
			return differ(c, "class dump %zu (class 0x%llx) differs", i, ULL(x.id));
	}
	return 1;
}

static int refs_equal(const profdata_profile *a, size_t i, const profdata_profile *b, size_t j)
{
	long n = profdata_profile_object_refs(a, i, 0, NULL, 0);
	long m = profdata_profile_object_refs(b, j, 0, NULL, 0);
	if (n != m)
		return 0;
	if (n <= 0)
		return 1;
	uint64_t *x = malloc((size_t)n * 16);
	if (!x)
		return 0;
	profdata_profile_object_refs(a, i, 0, x, (size_t)n);
	profdata_profile_object_refs(b, j, 0, x + n, (size_t)n);
	int eq = memcmp(x, x + n, (size_t)n * 8) == 0;
	free(x);
	return eq;
}

static int objects_equal(const profdata_profile *a, const profdata_profile *b, cmp *c)
{
	CHECK_COUNT(PROFDATA_TABLE_OBJECTS, "objects");
	for (size_t i = 0; i < a->nobjects; i++) {
		profdata_object x, y;
		profdata_profile_object(a, i, &x);
		profdata_profile_object(b, i, &y);
		if (x.id != y.id || x.class_id != y.class_id || x.trace_serial != y.trace_serial || x.kind != y.kind ||
		    x.elem_type != y.elem_type || x.flags != y.flags || x.length != y.length || x.size != y.size)
			return differ(c, "object %zu (id 0x%llx vs 0x%llx): header differs", i, ULL(x.id), ULL(y.id));
		if ((x.data == NULL) != (y.data == NULL) || x.data_len != y.data_len ||
		    (x.data && memcmp(x.data, y.data, (size_t)x.data_len) != 0))
			return differ(c, "object %zu (id 0x%llx): payload differs", i, ULL(x.id));
		if (!refs_equal(a, i, b, i))
			return differ(c, "object %zu (id 0x%llx): references differ", i, ULL(x.id));
		uint32_t da, db;
		size_t ha, hb;
		profdata_profile_object_place(a, i, &da, &ha);
		profdata_profile_object_place(b, i, &db, &hb);
		if (da != db || ha != hb)
			return differ(c, "object %zu (id 0x%llx): dump or heap differs", i, ULL(x.id));
	}
	return 1;
}

/* Compare a table row by row through its accessor into zeroed structs. */
#define SEQ_EQUAL(table, name, T, getter, eq) \
	do { \
		CHECK_COUNT(table, name); \
		for (size_t i_ = 0; i_ < profdata_profile_count(a, table); i_++) { \
			T x_, y_; \
			getter(a, i_, &x_); \
			getter(b, i_, &y_); \
			if (!eq(&x_, &y_)) \
				return differ(c, "%s %zu differs", name, i_); \
		} \
	} while (0)

static int root_get(const profdata_profile *p, size_t i, profdata_root *r)
{
	memset(r, 0, sizeof(*r));
	profdata_root t;
	uint32_t d;
	profdata_profile_root(p, i, &t, &d);
	r->kind = t.kind;
	r->object_id = t.object_id;
	r->thread_serial = t.thread_serial;
	r->frame = t.frame;
	r->extra_id = t.extra_id ^ ((uint64_t)d << 56); /* the dump index takes part in the comparison */
	return 0;
}

/* Dumps and heap infos with where they stand among the objects; eq_*_row reads the fields it compares. */
static int dump_get(const profdata_profile *p, size_t i, pd_dump_row *r)
{
	*r = p->dumps.v[i];
	return 0;
}

static int heap_get(const profdata_profile *p, size_t i, pd_heap_row *r)
{
	*r = p->heaps.v[i];
	return 0;
}

static int keyed_equal(const profdata_profile *a, const profdata_profile *b, cmp *c)
{
	CHECK_COUNT(PROFDATA_TABLE_THREADS, "threads");
	for (size_t i = 0; i < a->threads.n; i++) {
		size_t j;
		uint32_t serial = (uint32_t)a->thread_serials.v[i];
		if (profdata_profile_find_thread(b, serial, &j) < 0)
			return differ(c, "thread %u missing from the second", serial);
		const profdata_thread_info *x = &a->threads.v[i], *y = &b->threads.v[j];
		if (x->has_start != y->has_start || x->has_end != y->has_end ||
		    (x->has_start && !eq_thread_start(&x->start, &y->start)) ||
		    (x->has_end && !eq_thread_end(&x->end, &y->end)))
			return differ(c, "thread %u differs", serial);
	}
	CHECK_COUNT(PROFDATA_TABLE_FUNCTIONS, "functions");
	for (size_t i = 0; i < a->functions.n; i++) {
		size_t j;
		if (profdata_profile_find_function(b, a->functions.v[i].id, &j) < 0 ||
		    !eq_function(&a->functions.v[i], &b->functions.v[j]))
			return differ(c, "function %llu differs", ULL(a->functions.v[i].id));
	}
	CHECK_COUNT(PROFDATA_TABLE_FRAMES, "frames");
	for (size_t i = 0; i < a->frames.n; i++) {
		size_t j;
		const profdata_frame *x = &a->frames.v[i];
		if (profdata_profile_find_frame(b, x->id, &j) < 0)
			return differ(c, "frame %llu missing from the second", ULL(x->id));
		const profdata_frame *y = &b->frames.v[j];
		if (x->function_id != y->function_id || x->line != y->line || x->has_address != y->has_address ||
		    (x->has_address && x->address != y->address) || x->mapping != y->mapping)
			return differ(c, "frame %llu differs", ULL(x->id));
	}
	CHECK_COUNT(PROFDATA_TABLE_STACKS, "stacks");
	for (size_t i = 0; i < a->stacks.n; i++) {
		size_t j;
		profdata_stack x, y;
		profdata_profile_stack(a, i, &x);
		if (profdata_profile_find_stack(b, x.serial, &j) < 0)
			return differ(c, "stack %u missing from the second", x.serial);
		profdata_profile_stack(b, j, &y);
		if (x.thread_serial != y.thread_serial || x.nframes != y.nframes ||
		    (x.nframes && memcmp(x.frame_ids, y.frame_ids, x.nframes * 8) != 0))
			return differ(c, "stack %u differs", x.serial);
	}
	return 1;
}

static int samples_equal(const profdata_profile *a, const profdata_profile *b, cmp *c)
{
	SEQ_EQUAL(PROFDATA_TABLE_SAMPLE_TYPES, "sample type", profdata_sample_type, profdata_profile_sample_type,
	          eq_sample_type);
	CHECK_COUNT(PROFDATA_TABLE_SAMPLE_GROUPS, "sample groups");
	for (size_t i = 0; i < a->groups.n; i++)
		if (a->groups.v[i].g.time_us != b->groups.v[i].g.time_us ||
		    a->groups.v[i].g.total != b->groups.v[i].g.total || a->groups.v[i].first != b->groups.v[i].first ||
		    a->groups.v[i].count != b->groups.v[i].count)
			return differ(c, "sample group %zu differs", i);
	SEQ_EQUAL(PROFDATA_TABLE_SAMPLES, "sample", profdata_sample, profdata_profile_sample, eq_sample);
	size_t at;
	if (!pd_model_labels_equal(a, b, &at))
		return differ(c, "the labels of sample %zu differ", at);
	return 1;
}

static int misc_equal(const profdata_profile *a, const profdata_profile *b, cmp *c)
{
	CHECK_COUNT(PROFDATA_TABLE_ALLOC_SITES, "alloc sites records");
	for (size_t i = 0; i < a->sites.n; i++) {
		profdata_alloc_sites x, y;
		profdata_profile_alloc_sites(a, i, &x);
		profdata_profile_alloc_sites(b, i, &y);
		if (x.time_us != y.time_us || x.flags != y.flags || x.cutoff_bits != y.cutoff_bits ||
		    x.total_live_bytes != y.total_live_bytes || x.total_live_instances != y.total_live_instances ||
		    x.total_alloc_bytes != y.total_alloc_bytes || x.total_alloc_instances != y.total_alloc_instances ||
		    x.nsites != y.nsites)
			return differ(c, "alloc sites record %zu differs", i);
		for (size_t k = 0; k < x.nsites; k++)
			if (!eq_alloc_site(&x.sites[k], &y.sites[k]))
				return differ(c, "alloc sites record %zu, site %zu differs", i, k);
	}
#define EQUAL_PLAIN(member, type, vec, table) \
	SEQ_EQUAL(PROFDATA_TABLE_##table, profdata_table_name(PROFDATA_TABLE_##table), type, profdata_profile_##member, \
	          eq_##member);
	PD_MODEL_PLAIN_LIST(EQUAL_PLAIN)
#undef EQUAL_PLAIN
	SEQ_EQUAL(PROFDATA_TABLE_CLASS_LOADS, "class load", profdata_class_load, profdata_profile_class_load,
	          eq_class_load);
	SEQ_EQUAL(PROFDATA_TABLE_UNLOADS, "class unload", profdata_class_unload, profdata_profile_unload,
	          eq_class_unload);
	SEQ_EQUAL(PROFDATA_TABLE_ROOTS, "root", profdata_root, root_get, eq_root);
	SEQ_EQUAL(PROFDATA_TABLE_DUMPS, "dump", pd_dump_row, dump_get, eq_dump_row);
	SEQ_EQUAL(PROFDATA_TABLE_HEAP_INFOS, "heap info", pd_heap_row, heap_get, eq_heap_row);
	CHECK_COUNT(PROFDATA_TABLE_UNKNOWN, "unknown records");
	/* Top-level records and those inside dumps are two sequences: a rewrite keeps each one's order. */
	for (int in_dump = 0; in_dump <= 1; in_dump++) {
		size_t i = 0, j = 0;
		for (;;) {
			while (i < a->unknowns.n && a->unknowns.v[i].in_dump != in_dump)
				i++;
			while (j < b->unknowns.n && b->unknowns.v[j].in_dump != in_dump)
				j++;
			if (i == a->unknowns.n || j == b->unknowns.n)
				break;
			profdata_unknown x, y;
			profdata_profile_unknown(a, i, &x);
			profdata_profile_unknown(b, j, &y);
			if (x.tag != y.tag || x.time_us != y.time_us || x.len != y.len ||
			    (x.len && memcmp(x.data, y.data, (size_t)x.len) != 0) ||
			    (in_dump && a->unknowns.v[i].dump != b->unknowns.v[j].dump))
				return differ(c, "unknown record %zu (tag 0x%x) differs", i, x.tag);
			i++;
			j++;
		}
		if (i != a->unknowns.n || j != b->unknowns.n)
			return differ(c, "unknown records %s dumps differ in number", in_dump ? "inside" : "outside");
	}
	CHECK_COUNT(PROFDATA_TABLE_ATTACHMENTS, "attachments");
	for (size_t i = 0; i < a->attachments.n; i++) {
		profdata_attachment x, y;
		profdata_profile_attachment(a, i, &x);
		profdata_profile_attachment(b, i, &y);
		if (strcmp(x.name, y.name) != 0 || x.len != y.len || (x.len && memcmp(x.data, y.data, x.len) != 0))
			return differ(c, "attachment '%s' differs", x.name);
	}
	CHECK_COUNT(PROFDATA_TABLE_TRACE_EVENTS, "trace events");
	for (size_t i = 0; i < a->traces.n; i++) {
		profdata_trace_event x, y;
		profdata_profile_trace_event(a, i, &x);
		profdata_profile_trace_event(b, i, &y);
		if (x.kind != y.kind || x.name_id != y.name_id || x.time_ns != y.time_ns ||
		    x.thread_serial != y.thread_serial || x.method_id != y.method_id || x.class_id != y.class_id ||
		    x.object_id != y.object_id || x.ticket != y.ticket || x.depth != y.depth ||
		    x.cpu_time_ns != y.cpu_time_ns || x.nattrs != y.nattrs)
			return differ(c, "trace event %zu differs", i);
		for (size_t k = 0; k < x.nattrs; k++)
			if (!str_eq(x.attrs[k].key, y.attrs[k].key) || !str_eq(x.attrs[k].value, y.attrs[k].value))
				return differ(c, "trace event %zu, attribute %zu differs", i, k);
	}
	return 1;
}

static int contexts_equal(const profdata_profile *a, const profdata_profile *b, cmp *c)
{
	size_t at;
	if (pd_model_contexts_equal(a, b, &at))
		return 1;
	return differ(c, "trace context %zu differs", at);
}

int profdata_profile_equal(const profdata_profile *a, const profdata_profile *b, char *why, size_t why_len)
{
	cmp c = { why, why_len };
	if (why && why_len)
		why[0] = '\0';
	return meta_equal(a, b, &c) && strings_equal(a, b, &c) && classes_equal(a, b, &c) &&
	       objects_equal(a, b, &c) && keyed_equal(a, b, &c) && samples_equal(a, b, &c) && misc_equal(a, b, &c) &&
	       contexts_equal(a, b, &c);
}
