/* SPDX-License-Identifier: Apache-2.0 */
/* The model: built through events, replayed as events, compared. */
#define PROFDATA_EXPERIMENTAL
#include "support.h"

#include <stdlib.h>
#include <string.h>

/* Drive `ev` with a synthetic profile that fills every table. */
static void fill_every_table(const profdata_events *ev, void *p, unsigned id_size)
{
	profdata_kv comments[] = { { "host", "test" }, { "jvm", "17" } };
	profdata_meta m = { "synthetic", "JAVA PROFILE 1.0.2", id_size, 8, 0, 1700000000000ULL, 10000,
	                    "cpu", "microseconds", comments, 2 };
	ck_assert_int_eq(ev->begin(p, &m), 0);
	const char *strs[] = { "java/lang/Object", "Foo", "value", "next", "run", "()V", "Foo.java",
	                       "main", "system", "samples", "count", "/lib/x.so", "heapA", "custom" };
	for (unsigned i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		ck_assert_int_eq(ev->string(p, 100 + i, strs[i], strlen(strs[i])), 0);
	profdata_function fn = { 7, 104, 105, 106, 2, 10, 20 };
	ck_assert_int_eq(ev->function(p, &fn), 0);
	profdata_frame fr = { 7, 7, 12, 0, 0, 0 };
	profdata_frame fr2 = { 8, 0, PROFDATA_LINE_NATIVE, 0x401000, 1, 1 };
	ck_assert_int_eq(ev->frame(p, &fr), 0);
	ck_assert_int_eq(ev->frame(p, &fr2), 0);
	profdata_frame_kind fk = { 8, PROFDATA_FRAME_KIND_NATIVE };
	ck_assert_int_eq(ev->frame_kind(p, &fk), 0);
	uint64_t frames[] = { 8, 7 };
	profdata_stack st = { 3, 1, frames, 2 };
	ck_assert_int_eq(ev->stack(p, &st), 0);
	profdata_stack_truncated cut = { 3 };
	ck_assert_int_eq(ev->stack_truncated(p, &cut), 0);
	profdata_thread_start ts = { 5, 1, 0x5000, 3, 107, 108, 0 };
	ck_assert_int_eq(ev->thread_start(p, &ts), 0);
	profdata_class_load cl1 = { 0, 1, 0x1000, 3, 100 };
	profdata_class_load cl2 = { 0, 2, 0x2000, 3, 101 };
	profdata_class_load cl2again = { 0, 3, 0x2000, 3, 101 };
	ck_assert_int_eq(ev->class_load(p, &cl1), 0);
	ck_assert_int_eq(ev->class_load(p, &cl2), 0);
	ck_assert_int_eq(ev->class_load(p, &cl2again), 0);
	profdata_sample_type stype = { 109, 110 };
	ck_assert_int_eq(ev->sample_type(p, &stype), 0);
	profdata_sample_group g = { 9, 4 };
	ck_assert_int_eq(ev->sample_group(p, &g), 0);
	int64_t vals[] = { 4 };
	profdata_sample s = { 3, 1, 0, vals, 1 };
	ck_assert_int_eq(ev->sample(p, &s), 0);
	profdata_label labels[] = { { 109, 110, 0, 0 }, { 110, 0, 4096, 109 } };
	profdata_sample_labels sl = { labels, 2 };
	ck_assert_int_eq(ev->sample_labels(p, &sl), 0);
	ck_assert_int_eq(ev->sample(p, &s), 0);
	profdata_alloc_site site = { 0, 2, 3, 48, 2, 96, 4 };
	profdata_alloc_sites as = { 11, 0x2, 0x3c23d70a, 48, 2, 96, 4, &site, 1 };
	ck_assert_int_eq(ev->alloc_sites(p, &as), 0);
	profdata_heap_summary hs = { 12, 48, 2, 96, 4 };
	ck_assert_int_eq(ev->heap_summary(p, &hs), 0);
	profdata_control_settings cs = { 0, 3, 8 };
	ck_assert_int_eq(ev->control_settings(p, &cs), 0);
	profdata_mapping map = { 0x400000, 0x500000, 0, 42, 111, 0, "r-xp", "08:01" };
	ck_assert_int_eq(ev->mapping(p, &map), 0);
	static const char maps[] = "400000-500000 r-xp 0 08:01 42 /lib/x.so\n";
	profdata_attachment att = { "maps", maps, sizeof(maps) - 1 };
	ck_assert_int_eq(ev->attachment(p, &att), 0);
	profdata_unknown unk = { 0x77, 13, "\1\2\3", 3, 0 };
	ck_assert_int_eq(ev->unknown(p, &unk), 0);

	profdata_dump d = { 14, PROFDATA_DUMP_SEGMENTED };
	ck_assert_int_eq(ev->dump_begin(p, &d), 0);
	profdata_field obj_statics[] = { { 102, PROFDATA_TYPE_INT, 42 } };
	profdata_class_dump cd1;
	memset(&cd1, 0, sizeof(cd1));
	cd1.id = 0x1000;
	cd1.trace_serial = 3;
	cd1.statics = obj_statics;
	cd1.nstatics = 1;
	ck_assert_int_eq(ev->class_dump(p, &cd1), 0);
	profdata_field foo_fields[] = { { 102, PROFDATA_TYPE_INT, 0 }, { 103, PROFDATA_TYPE_OBJECT, 0 } };
	profdata_constant consts[] = { { 1, PROFDATA_TYPE_LONG, 99 } };
	profdata_class_dump cd2;
	memset(&cd2, 0, sizeof(cd2));
	cd2.id = 0x2000;
	cd2.super_id = 0x1000;
	cd2.loader_id = 0x9000;
	cd2.instance_size = 4 + id_size;
	cd2.constants = consts;
	cd2.nconstants = 1;
	cd2.fields = foo_fields;
	cd2.nfields = 2;
	ck_assert_int_eq(ev->class_dump(p, &cd2), 0);
	profdata_root roots[] = {
		{ PROFDATA_ROOT_JNI_GLOBAL, 0x3000, 0, 0, 0x77 },
		{ PROFDATA_ROOT_JAVA_FRAME, 0x3010, 1, 0, 0 },
		{ PROFDATA_ROOT_THREAD_OBJECT, 0x5000, 1, 3, 0 },
		{ PROFDATA_ROOT_JNI_MONITOR, 0x3000, 1, 2, 0 },
	};
	for (unsigned i = 0; i < 4; i++)
		ck_assert_int_eq(ev->root(p, &roots[i]), 0);
	profdata_heap_info hi = { 'A', 112 };
	ck_assert_int_eq(ev->heap_info(p, &hi), 0);
	/* Foo{value=7, next=0x3010}, Foo{value=8, next=null} */
	unsigned char f1[12] = { 0, 0, 0, 7 }, f2[12] = { 0, 0, 0, 8 };
	if (id_size == 8)
		f1[11] = 0x10, f1[10] = 0x30;
	else
		f1[7] = 0x10, f1[6] = 0x30;
	profdata_object o1 = { 0x3000, 0x2000, 3, PROFDATA_OBJECT_INSTANCE, 0, 0, 4 + id_size, 0, f1, 4 + id_size, NULL, 0 };
	profdata_object o2 = { 0x3010, 0x2000, 3, PROFDATA_OBJECT_INSTANCE, 0, 0, 4 + id_size, 0, f2, 4 + id_size, NULL, 0 };
	ck_assert_int_eq(ev->object(p, &o1), 0);
	ck_assert_int_eq(ev->object(p, &o2), 0);
	profdata_heap_info hz = { 'Z', 113 };
	ck_assert_int_eq(ev->heap_info(p, &hz), 0);
	unsigned char arr[16] = { 0 };
	arr[id_size - 1] = 0x10;
	arr[id_size - 2] = 0x30;
	profdata_object o3 = { 0x3020, 0x2000, 4, PROFDATA_OBJECT_ARRAY, 0, 0, 2, 0, arr, 2 * id_size, NULL, 0 };
	ck_assert_int_eq(ev->object(p, &o3), 0);
	unsigned char chars[4] = { 0, 'h', 0, 'i' };
	profdata_object o4 = { 0x3030, 0, 3, PROFDATA_OBJECT_PRIM_ARRAY, PROFDATA_TYPE_CHAR, 0, 2, 0, chars, 4, NULL, 0 };
	profdata_object o5 = { 0x3040, 0, 3, PROFDATA_OBJECT_PRIM_ARRAY, PROFDATA_TYPE_INT, PROFDATA_OBJECT_NODATA,
	                       1000, 0, NULL, 0, NULL, 0 };
	ck_assert_int_eq(ev->object(p, &o4), 0);
	ck_assert_int_eq(ev->object(p, &o5), 0);
	ck_assert_int_eq(ev->dump_end(p), 0);

	/* A second dump with objects that list references explicitly (classic style). */
	profdata_dump d2 = { 20, PROFDATA_DUMP_HEAP };
	ck_assert_int_eq(ev->dump_begin(p, &d2), 0);
	uint64_t refs[] = { 0x3000, 0, 0x3010 };
	profdata_object o6 = { 0x4000, 0x2000, 3, PROFDATA_OBJECT_INSTANCE, 0, 0, 0, 32, NULL, 0, refs, 3 };
	profdata_object o7 = { 0x4010, 0x2000, 3, PROFDATA_OBJECT_INSTANCE, 0, 0, 0, 24, NULL, 0, refs, 0 };
	ck_assert_int_eq(ev->object(p, &o6), 0);
	ck_assert_int_eq(ev->object(p, &o7), 0);
	ck_assert_int_eq(ev->dump_end(p), 0);
	profdata_object_sample os = { 0x4010, 2000000000, 1000000000, 999000000, 1 << 20, 1, 109 };
	ck_assert_int_eq(ev->object_sample(p, &os), 0);

	profdata_class_unload un = { 30, 3 };
	ck_assert_int_eq(ev->class_unload(p, &un), 0);
	profdata_thread_end te = { 31, 1 };
	ck_assert_int_eq(ev->thread_end(p, &te), 0);
	profdata_kv attrs[] = { { "extra", "1" } };
	profdata_trace_event tev = { PROFDATA_TRACE_METHOD_ENTRY, 0, 1000000001ULL, 1, 7, 0x2000, 0, 5, 2, 17, attrs, 1 };
	ck_assert_int_eq(ev->trace_event(p, &tev), 0);
	profdata_kv cattrs[] = { { "hostname", "h" } };
	profdata_trace_context ctx = { PROFDATA_TRACE_CONTEXT_NODE, 1, 1, "UUID-1", NULL, 5, cattrs, 1 };
	ck_assert_int_eq(ev->trace_context(p, &ctx), 0);
	ck_assert_int_eq(ev->end(p), 0);
}

static profdata_profile *synthetic(unsigned id_size)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	fill_every_table(&ev, p, id_size);
	return p;
}

START_TEST(every_table_is_filled)
{
	profdata_profile *p = synthetic(8);
	for (int t = 0; t < PROFDATA_TABLE_COUNT_; t++)
		ck_assert_msg(profdata_profile_count(p, (profdata_table)t) > 0, "table %d is empty", t);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), 7);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_CLASS_LOADS), 3);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_CLASSES), 2);
	profdata_profile_free(p);
}
END_TEST

START_TEST(replay_rebuilds_an_equal_model)
{
	for (unsigned id_size = 4; id_size <= 8; id_size += 4) {
		profdata_profile *a = synthetic(id_size), *b;
		ck_assert_int_eq(profdata_profile_new(&b), 0);
		profdata_events ev;
		ev = *profdata_profile_builder_events();
		ck_assert_int_eq(profdata_profile_replay(a, &ev, b), 0);
		char why[256];
		ck_assert_msg(profdata_profile_equal(a, b, why, sizeof(why)), "id size %u: %s", id_size, why);
		ck_assert_msg(profdata_profile_equal(b, a, why, sizeof(why)), "id size %u: %s", id_size, why);
		profdata_profile_free(a);
		profdata_profile_free(b);
	}
}
END_TEST

START_TEST(equality_sees_a_changed_payload_byte)
{
	profdata_profile *a = synthetic(8), *b = synthetic(4);
	char why[256];
	ck_assert(!profdata_profile_equal(a, b, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "id size"));
	profdata_profile_free(a);
	profdata_profile_free(b);
}
END_TEST

START_TEST(lookups_by_format_ids)
{
	profdata_profile *p = synthetic(8);
	size_t i;
	ck_assert_int_eq(profdata_profile_find_object(p, 0x3020, &i), 0);
	ck_assert_uint_eq(i, 2);
	ck_assert_int_eq(profdata_profile_find_object(p, 0x3021, &i), PROFDATA_ENOTFOUND);
	ck_assert_int_eq(profdata_profile_find_class_serial(p, 3, &i), 0);
	profdata_class_info ci;
	ck_assert_int_eq(profdata_profile_class(p, i, &ci), 0);
	ck_assert_str_eq(ci.name, "Foo");
	ck_assert(ci.unloaded);
	ck_assert_int_eq(profdata_profile_find_stack(p, 3, &i), 0);
	ck_assert_int_eq(profdata_profile_find_frame(p, 8, &i), 0);
	ck_assert_int_eq(profdata_profile_find_thread(p, 1, &i), 0);
	size_t len;
	ck_assert_str_eq(profdata_profile_string(p, 104, &len), "run");
	profdata_attachment at;
	ck_assert_int_eq(profdata_profile_find_attachment(p, "maps", &at), 0);
	ck_assert_uint_eq(at.len, strlen("400000-500000 r-xp 0 08:01 42 /lib/x.so\n"));
	profdata_profile_free(p);
}
END_TEST

START_TEST(references_derive_from_payloads_and_lists)
{
	profdata_profile *p = synthetic(8);
	uint64_t refs[8];
	/* Foo.next through the class layout (value is an int, next a reference). */
	ck_assert_int_eq(profdata_profile_object_refs(p, 0, 0, refs, 8), 1);
	ck_assert_uint_eq(refs[0], 0x3010);
	ck_assert_int_eq(profdata_profile_object_refs(p, 1, 0, refs, 8), 0);
	ck_assert_int_eq(profdata_profile_object_refs(p, 1, 1, refs, 8), 1);
	/* Array elements, null left out unless asked for. */
	ck_assert_int_eq(profdata_profile_object_refs(p, 2, 0, refs, 8), 1);
	ck_assert_int_eq(profdata_profile_object_refs(p, 2, 1, refs, 8), 2);
	/* Explicit lists. */
	ck_assert_int_eq(profdata_profile_object_refs(p, 5, 0, refs, 8), 2);
	ck_assert_int_eq(profdata_profile_object_refs(p, 5, 1, refs, 8), 3);
	ck_assert_int_eq(profdata_profile_object_refs(p, 6, 1, refs, 8), 0);
	ck_assert_uint_eq(profdata_profile_reference_count(p), 1 + 1 + 2);
	profdata_field layout[4];
	ck_assert_int_eq(profdata_profile_class_layout(p, 1, layout, 4), 2);
	profdata_profile_free(p);
}
END_TEST

START_TEST(objects_keep_their_dump_and_heap)
{
	profdata_profile *p = synthetic(8);
	uint32_t d;
	size_t h;
	ck_assert_int_eq(profdata_profile_object_place(p, 0, &d, &h), 0);
	ck_assert_uint_eq(d, 0);
	ck_assert_uint_eq(h, 0);
	ck_assert_int_eq(profdata_profile_object_place(p, 2, &d, &h), 0);
	ck_assert_uint_eq(h, 1);
	ck_assert_int_eq(profdata_profile_object_place(p, 5, &d, &h), 0);
	ck_assert_uint_eq(d, 1);
	ck_assert_uint_eq(h, SIZE_MAX);
	profdata_object o;
	ck_assert_int_eq(profdata_profile_object(p, 4, &o), 0);
	ck_assert(o.flags & PROFDATA_OBJECT_NODATA);
	ck_assert_ptr_null(o.data);
	ck_assert_uint_eq(o.length, 1000);
	profdata_profile_free(p);
}
END_TEST

START_TEST(builder_rejects_objects_outside_a_dump)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	m.id_size = 8;
	ck_assert_int_eq(ev.begin(p, &m), 0);
	profdata_object o;
	memset(&o, 0, sizeof(o));
	o.id = 1;
	ck_assert_int_eq(ev.object(p, &o), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(profdata_profile_error(p));
	ck_assert_ptr_nonnull(strstr(profdata_profile_error(p)->message, "outside a dump"));
	profdata_profile_free(p);
}
END_TEST

START_TEST(unsorted_ids_are_found_through_the_hash_index)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	m.id_size = 8;
	ck_assert_int_eq(ev.begin(p, &m), 0);
	profdata_dump d = { 0, 0 };
	ck_assert_int_eq(ev.dump_begin(p, &d), 0);
	const unsigned n = 50000;
	for (unsigned i = 0; i < n; i++) {
		profdata_object o;
		memset(&o, 0, sizeof(o));
		o.id = ((uint64_t)(i * 2654435761u) << 3) | 8;
		o.kind = PROFDATA_OBJECT_PRIM_ARRAY;
		o.elem_type = PROFDATA_TYPE_BYTE;
		ck_assert_int_eq(ev.object(p, &o), 0);
	}
	ck_assert_int_eq(ev.dump_end(p), 0);
	ck_assert_int_eq(ev.end(p), 0);
	for (unsigned i = 0; i < n; i += 97) {
		size_t idx;
		ck_assert_int_eq(profdata_profile_find_object(p, ((uint64_t)(i * 2654435761u) << 3) | 8, &idx), 0);
		ck_assert_uint_eq(idx, i);
	}
	profdata_profile_free(p);
}
END_TEST

/*
 * An HPROF file of `ndumps` dumps, each holding `n` byte arrays with ids
 * n .. 1 (descending: the builder then looks them up through its hash
 * index), each written `copies` times, read back with profdata_read().
 */
static profdata_reader *read_repeated_ids(unsigned ndumps, unsigned n, unsigned copies, unsigned char **bytes)
{
	profdata_profile *p, *back = NULL;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	profdata_events ev = *profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	m.id_size = 8;
	ck_assert_int_eq(ev.begin(p, &m), 0);
	for (unsigned d = 0; d < ndumps; d++) {
		profdata_dump dump = { 0, 0 };
		ck_assert_int_eq(ev.dump_begin(p, &dump), 0);
		for (unsigned i = n; i > 0; i--)
			for (unsigned c = 0; c < copies; c++) {
				profdata_object o;
				memset(&o, 0, sizeof(o));
				o.id = i;
				o.kind = PROFDATA_OBJECT_PRIM_ARRAY;
				o.elem_type = PROFDATA_TYPE_BYTE;
				ck_assert_int_eq(ev.object(p, &o), 0);
			}
		ck_assert_int_eq(ev.dump_end(p), 0);
	}
	ck_assert_int_eq(ev.end(p), 0);
	size_t len;
	*bytes = test_write(p, "hprof", NULL, &len);
	profdata_reader *r = NULL;
	ck_assert_int_eq(profdata_reader_open_memory(&r, *bytes, len, "repeated.hprof"), 0);
	ck_assert_int_eq(profdata_read(&back, r, NULL), 0);
	ck_assert_uint_eq(profdata_profile_count(back, PROFDATA_TABLE_OBJECTS), (size_t)ndumps * n * copies);
	profdata_profile_free(back);
	profdata_profile_free(p);
	return r;
}

START_TEST(an_id_repeated_in_a_later_dump_is_no_problem)
{
	unsigned char *bytes;
	profdata_reader *r = read_repeated_ids(2, 300, 1, &bytes);
	ck_assert_uint_eq(profdata_reader_warning_count(r), 0);
	profdata_reader_free(r);
	free(bytes);
}
END_TEST

/* Every column the library lists is found by its table and name, and fills as the row getters read. */
static const profdata_column *column(profdata_table t, const char *name)
{
	const profdata_column *c = NULL;
	ck_assert_int_eq(profdata_column_find(&c, t, name), 0);
	ck_assert_str_eq(c->name, name);
	return c;
}

START_TEST(columns_are_listed_and_found_by_name)
{
	const profdata_column *c = NULL;
	ck_assert_uint_gt(profdata_column_count(), 0);
	for (size_t i = 0; i < profdata_column_count(); i++) {
		const profdata_column *a = profdata_column_at(i);
		ck_assert_ptr_eq(column(a->table, a->name), a);
		ck_assert(a->type >= PROFDATA_COLUMN_U8 && a->type <= PROFDATA_COLUMN_I64);
		ck_assert_ptr_nonnull(a->description);
	}
	ck_assert_ptr_null(profdata_column_at(profdata_column_count()));
	ck_assert_int_eq(profdata_column_find(&c, PROFDATA_TABLE_CLASSES, "size"), PROFDATA_ENOTFOUND);
	ck_assert_int_eq(profdata_column_find(&c, PROFDATA_TABLE_OBJECTS, NULL), PROFDATA_ENOTFOUND);
	ck_assert_ptr_null(c);
}
END_TEST

START_TEST(object_columns_hold_what_the_getters_give)
{
	profdata_profile *p = synthetic(8);
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_OBJECTS), count;
	uint64_t ids[16], sizes[16];
	int32_t classes[16];
	int64_t dumps[16];
	ck_assert_int_eq(profdata_profile_column(ids, 16, &count, PROFDATA_COLUMN_U64, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "id"), 0, 99), 0);
	ck_assert_uint_eq(count, n);
	ck_assert_int_eq(profdata_profile_column(sizes, 16, &count, PROFDATA_COLUMN_U64, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "size"), 0, n), 0);
	ck_assert_int_eq(profdata_profile_column(classes, 16, &count, PROFDATA_COLUMN_I32, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "class_index"), 0, n), 0);
	/* a U32 column into I64: widened */
	ck_assert_int_eq(profdata_profile_column(dumps, 16, &count, PROFDATA_COLUMN_I64, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "dump"), 0, n), 0);
	for (size_t i = 0; i < n; i++) {
		profdata_object o;
		uint32_t dump;
		size_t heap, ci;
		ck_assert_int_eq(profdata_profile_object(p, i, &o), 0);
		ck_assert_uint_eq(ids[i], o.id);
		ck_assert_uint_eq(sizes[i], profdata_profile_object_size(p, i));
		ck_assert_int_eq(profdata_profile_object_place(p, i, &dump, &heap), 0);
		ck_assert_int_eq(dumps[i], dump);
		if (o.class_id && profdata_profile_find_class(p, o.class_id, &ci) == 0)
			ck_assert_int_eq(classes[i], (int32_t)ci);
		else
			ck_assert_int_eq(classes[i], -1);
	}
	ck_assert_int_eq(classes[3], -1); /* a char[] has no class row */
	ck_assert_int_eq(dumps[6], 1);
	profdata_profile_free(p);
}
END_TEST

START_TEST(references_come_as_offsets_and_targets_of_a_slice)
{
	profdata_profile *p = synthetic(8);
	uint64_t off[8], refs[8], want[8];
	size_t count, nrefs;
	const profdata_column *offsets = column(PROFDATA_TABLE_OBJECTS, "references_offsets");
	ck_assert_int_eq(offsets->shape, PROFDATA_COLUMN_OFFSETS);
	ck_assert_int_eq(profdata_profile_column(off, 8, &count, PROFDATA_COLUMN_U64, p, offsets, 2, 5), 0);
	ck_assert_uint_eq(count, 6); /* rows 2 .. 6 and the total */
	ck_assert_uint_eq(off[0], 0);
	ck_assert_int_eq(profdata_profile_column(NULL, 0, &nrefs, PROFDATA_COLUMN_U64, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "references"), 2, 5), 0);
	ck_assert_uint_eq(nrefs, off[5]);
	ck_assert_int_eq(profdata_profile_column(refs, 8, &count, PROFDATA_COLUMN_U64, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "references"), 2, 5), 0);
	for (size_t r = 0; r < 5; r++) {
		long k = profdata_profile_object_refs(p, 2 + r, 0, want, 8);
		ck_assert_int_eq(k, (long)(off[r + 1] - off[r]));
		for (long j = 0; j < k; j++)
			ck_assert_uint_eq(refs[off[r] + (size_t)j], want[j]);
	}
	ck_assert_uint_eq(off[5], 3); /* the array's one, and the second dump's two */
	profdata_profile_free(p);
}
END_TEST

START_TEST(a_small_array_gets_what_fits_and_the_count_of_all)
{
	profdata_profile *p = synthetic(8);
	uint64_t ids[3] = { 0, 0, 7 };
	size_t count;
	ck_assert_int_eq(profdata_profile_column(ids, 2, &count, PROFDATA_COLUMN_U64, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "id"), 0, 7), 0);
	ck_assert_uint_eq(count, 7);
	ck_assert_uint_eq(ids[1], 0x3010);
	ck_assert_uint_eq(ids[2], 7); /* untouched */
	/* start past the end: nothing; a type that cannot hold the column: EINVAL */
	ck_assert_int_eq(profdata_profile_column(ids, 2, &count, PROFDATA_COLUMN_U64, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "id"), 99, 7), 0);
	ck_assert_uint_eq(count, 0);
	ck_assert_int_eq(profdata_profile_column(ids, 2, &count, PROFDATA_COLUMN_I64, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "id"), 0, 7), PROFDATA_EINVAL);
	ck_assert_int_eq(profdata_profile_column(ids, 2, &count, PROFDATA_COLUMN_U32, p,
	                                         column(PROFDATA_TABLE_OBJECTS, "size"), 0, 7), PROFDATA_EINVAL);
	profdata_profile_free(p);
}
END_TEST

START_TEST(samples_stacks_and_frames_have_columns)
{
	profdata_profile *p = synthetic(8);
	size_t ns = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), count;
	uint64_t off[8], frames[16];
	int64_t values[16];
	uint32_t stacks[8];
	profdata_sample s;
	profdata_stack st;
	ck_assert_uint_gt(ns, 0);
	ck_assert_int_eq(profdata_profile_column(stacks, 8, &count, PROFDATA_COLUMN_U32, p,
	                                         column(PROFDATA_TABLE_SAMPLES, "stack"), 0, 1), 0);
	ck_assert_int_eq(profdata_profile_column(values, 16, &count, PROFDATA_COLUMN_I64, p,
	                                         column(PROFDATA_TABLE_SAMPLES, "values"), 0, 1), 0);
	ck_assert_int_eq(profdata_profile_sample(p, 0, &s), 0);
	ck_assert_uint_eq(stacks[0], s.stack_serial);
	ck_assert_uint_eq(count, s.nvalues);
	for (size_t k = 0; k < s.nvalues; k++)
		ck_assert_int_eq(values[k], s.values[k]);
	ck_assert_int_eq(profdata_profile_column(off, 8, &count, PROFDATA_COLUMN_U64, p,
	                                         column(PROFDATA_TABLE_STACKS, "frames_offsets"), 0, 1), 0);
	ck_assert_int_eq(profdata_profile_column(frames, 16, &count, PROFDATA_COLUMN_U64, p,
	                                         column(PROFDATA_TABLE_STACKS, "frames"), 0, 1), 0);
	ck_assert_int_eq(profdata_profile_stack(p, 0, &st), 0);
	ck_assert_uint_eq(off[1], st.nframes);
	ck_assert_uint_eq(frames[0], st.frame_ids[0]);
	ck_assert_int_eq(profdata_profile_column(values, 16, &count, PROFDATA_COLUMN_I64, p,
	                                         column(PROFDATA_TABLE_FRAMES, "function_index"), 0, 16), 0);
	ck_assert_uint_eq(count, profdata_profile_count(p, PROFDATA_TABLE_FRAMES));
	profdata_profile_free(p);
}
END_TEST

START_TEST(an_id_repeated_in_one_dump_is_said_and_counted_past_the_kept)
{
	unsigned char *bytes;
	profdata_reader *r = read_repeated_ids(2, 1500, 2, &bytes);
	ck_assert_uint_eq(profdata_reader_warning_count(r), 3000);
	ck_assert_ptr_nonnull(profdata_reader_warning(r, 999));
	ck_assert_ptr_null(profdata_reader_warning(r, 1000));
	ck_assert_str_eq(profdata_reader_warning(r, 0)->message, "object id 0x5dc appears twice in dump 0; lookups find the first");
	profdata_reader_free(r);
	free(bytes);
}
END_TEST

START_TEST(a_sample_s_frames_come_with_their_names)
{
	profdata_profile *p = synthetic(8);
	profdata_named_frame f[2];
	size_t n;
	ck_assert_int_eq(profdata_profile_sample_frames(f, 1, &n, p, 0), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(profdata_profile_sample_frames(f, 2, &n, p, 0), 0);
	ck_assert_uint_eq(f[0].frame_id, 8);
	ck_assert_ptr_null(f[0].function);
	ck_assert(f[0].has_address && f[0].address == 0x401000);
	ck_assert_uint_eq(f[1].frame_id, 7);
	ck_assert_str_eq(f[1].function, "run");
	ck_assert_str_eq(f[1].class_name, "Foo");
	ck_assert_str_eq(f[1].signature, "()V");
	ck_assert_str_eq(f[1].file, "Foo.java");
	ck_assert_int_eq(f[1].line, 12);
	ck_assert_int_eq(profdata_profile_sample_frames(f, 2, &n, p, 99), PROFDATA_ENOTFOUND);
	ck_assert_uint_eq(n, 0);
	profdata_profile_free(p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, every_table_is_filled);
	tcase_add_test(tc, replay_rebuilds_an_equal_model);
	tcase_add_test(tc, equality_sees_a_changed_payload_byte);
	tcase_add_test(tc, lookups_by_format_ids);
	tcase_add_test(tc, references_derive_from_payloads_and_lists);
	tcase_add_test(tc, objects_keep_their_dump_and_heap);
	tcase_add_test(tc, builder_rejects_objects_outside_a_dump);
	tcase_add_test(tc, an_id_repeated_in_a_later_dump_is_no_problem);
	tcase_add_test(tc, a_sample_s_frames_come_with_their_names);
	tcase_add_test(tc, columns_are_listed_and_found_by_name);
	tcase_add_test(tc, object_columns_hold_what_the_getters_give);
	tcase_add_test(tc, references_come_as_offsets_and_targets_of_a_slice);
	tcase_add_test(tc, a_small_array_gets_what_fits_and_the_count_of_all);
	tcase_add_test(tc, samples_stacks_and_frames_have_columns);
	tcase_add_test(tc, an_id_repeated_in_one_dump_is_said_and_counted_past_the_kept);
	tcase_add_test(tc, unsorted_ids_are_found_through_the_hash_index);
	suite_add_tcase(s, tc);
	return s;
}
