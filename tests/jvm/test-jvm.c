/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JVM module (lib/jvm): basic type sizes, the VisualVM size rule under
 * 4- and 8-byte ids, layouts flattened along a superclass chain and the
 * references found in payloads through them.
 */
#include "support.h"
#include "internal.h"
#include "jvm/jvm.h"

#include <string.h>

START_TEST(basic_type_sizes)
{
	static const struct { int type; unsigned size; } want[] = {
		{ PROFDATA_TYPE_BOOLEAN, 1 }, { PROFDATA_TYPE_BYTE, 1 }, { PROFDATA_TYPE_CHAR, 2 },
		{ PROFDATA_TYPE_SHORT, 2 },   { PROFDATA_TYPE_FLOAT, 4 }, { PROFDATA_TYPE_INT, 4 },
		{ PROFDATA_TYPE_DOUBLE, 8 },  { PROFDATA_TYPE_LONG, 8 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		ck_assert_uint_eq(pd_jvm_type_size(want[i].type, 4), want[i].size);
		ck_assert_uint_eq(pd_jvm_type_size(want[i].type, 8), want[i].size);
		ck_assert_uint_eq(profdata_basic_type_size(want[i].type, 8), want[i].size);
	}
	ck_assert_uint_eq(pd_jvm_type_size(PROFDATA_TYPE_OBJECT, 4), 4);
	ck_assert_uint_eq(pd_jvm_type_size(PROFDATA_TYPE_OBJECT, 8), 8);
	ck_assert_uint_eq(pd_jvm_type_size(PROFDATA_TYPE_NONE, 8), 0);
	ck_assert_uint_eq(pd_jvm_type_size(3, 8), 0);
	ck_assert_uint_eq(pd_jvm_type_size(12, 8), 0);
	ck_assert_uint_eq(pd_jvm_type_size(-1, 8), 0);
}
END_TEST

static const char *no_names(const void *table, uint64_t id)
{
	(void)table;
	(void)id;
	return NULL;
}

START_TEST(size_rule_with_4_byte_ids)
{
	pd_jvm_hints h;
	pd_jvm_sizes s;
	memset(&h, 0, sizeof h);
	pd_jvm_decide(4, &h, &s);
	ck_assert_uint_eq(s.ref, 4);
	ck_assert_uint_eq(s.header, 8);
	ck_assert_int_eq(s.stated_instances, 0);
	/* an instance with an int and two references: 8 + 4 + 2 * 4 = 20 -> 24 */
	ck_assert_uint_eq(pd_jvm_instance_size(&s, 1, 4, 2, 0, 0), 24);
	/* object array of 3: 8 + 4 + 12 = 24; char[5]: 8 + 4 + 10 = 22 -> 24 */
	ck_assert_uint_eq(pd_jvm_array_size(&s, PROFDATA_OBJECT_ARRAY, 0, 3), 24);
	ck_assert_uint_eq(pd_jvm_array_size(&s, PROFDATA_OBJECT_PRIM_ARRAY, PROFDATA_TYPE_CHAR, 5), 24);
	ck_assert_uint_eq(pd_jvm_array_length(&s, PROFDATA_OBJECT_PRIM_ARRAY, PROFDATA_TYPE_CHAR, 24), 6);
	/* without a layout, the payload stands for the fields */
	ck_assert_uint_eq(pd_jvm_instance_size(&s, 0, 0, 0, 0, 13), 24);
}
END_TEST

START_TEST(size_rule_with_8_byte_ids)
{
	pd_jvm_hints h;
	pd_jvm_sizes s;
	profdata_field statics[2] = { { 1, PROFDATA_TYPE_LONG, 20 }, { 2, PROFDATA_TYPE_LONG, 16 } };
	memset(&h, 0, sizeof h);
	pd_jvm_decide(8, &h, &s);
	ck_assert_uint_eq(s.ref, 8);
	ck_assert_uint_eq(s.header, 16);
	ck_assert_uint_eq(pd_jvm_instance_size(&s, 1, 4, 2, 0, 0), 40); /* 16 + 4 + 16 = 36 -> 40 */
	ck_assert_uint_eq(pd_jvm_array_size(&s, PROFDATA_OBJECT_ARRAY, 0, 3), 48); /* 16 + 4 + 24 = 44 -> 48 */

	/* Class$Atomic's static offsets without their names teach nothing */
	memset(&h, 0, sizeof h);
	pd_jvm_note_class(&h, "java/lang/Class$Atomic", 1, 0, statics, 2, no_names, NULL);
	ck_assert_int_eq(h.pairs[0].seen, 0); /* names unknown: nothing learnt */
}
END_TEST

static const char *atomic_names(const void *table, uint64_t id)
{
	(void)table;
	return id == 1 ? "annotationTypeOffset" : id == 2 ? "annotationDataOffset" : NULL;
}

START_TEST(size_rule_reads_compressed_references)
{
	pd_jvm_hints h;
	pd_jvm_sizes s;
	profdata_field statics[2] = { { 1, PROFDATA_TYPE_LONG, 20 }, { 2, PROFDATA_TYPE_LONG, 16 } };
	memset(&h, 0, sizeof h);
	pd_jvm_note_class(&h, "java.lang.Class$Atomic", 1, 0, statics, 2, atomic_names, NULL);
	pd_jvm_decide(8, &h, &s);
	ck_assert_uint_eq(s.ref, 4);
	ck_assert_uint_eq(s.header, 12);
	ck_assert_uint_eq(pd_jvm_instance_size(&s, 1, 4, 2, 0, 0), 24); /* 12 + 4 + 8 */
	ck_assert_uint_eq(pd_jvm_shape_index(&s), 1);
	ck_assert_uint_eq(pd_jvm_shape(1).header, 12);
	/* a class object: header, 8 bytes of primitives and one reference */
	ck_assert_uint_eq(pd_jvm_class_size(&s, 8, 1), 24);
}
END_TEST

static const char *future_names(const void *table, uint64_t id)
{
	(void)table;
	return id == 3 ? "waitersOffset" : id == 4 ? "runnerOffset" : NULL;
}

/* Class$Atomic's offsets tell nothing (12 apart): FutureTask's are tried next. */
START_TEST(size_rule_falls_back_to_future_task)
{
	pd_jvm_hints h;
	pd_jvm_sizes s;
	profdata_field atomic[2] = { { 1, PROFDATA_TYPE_LONG, 28 }, { 2, PROFDATA_TYPE_LONG, 16 } };
	profdata_field future[3] = { { 3, PROFDATA_TYPE_INT, 24 }, { 4, PROFDATA_TYPE_INT, 20 },
		                     { 5, PROFDATA_TYPE_OBJECT, 7 } };
	memset(&h, 0, sizeof h);
	pd_jvm_note_class(&h, "java/lang/Class$Atomic", 1, 0, atomic, 2, atomic_names, NULL);
	pd_jvm_note_class(&h, "java/util/concurrent/FutureTask", 1, 0, future, 3, future_names, NULL);
	pd_jvm_decide(8, &h, &s);
	ck_assert_uint_eq(s.ref, 4);
	/* only one of FutureTask's two: references stay 8 bytes */
	memset(&h, 0, sizeof h);
	pd_jvm_note_class(&h, "java.util.concurrent.FutureTask", 1, 0, future, 1, future_names, NULL);
	pd_jvm_decide(8, &h, &s);
	ck_assert_uint_eq(s.ref, 8);
}
END_TEST

/* Instances sized without a layout, summed before the header is known, match one by one. */
START_TEST(payload_sums_match_instance_sizes)
{
	static const uint64_t lens[] = { 0, 1, 3, 4, 5, 8, 12, 13, 100 };
	for (unsigned shape = 0; shape < PD_JVM_SHAPES; shape++) {
		pd_jvm_sizes s = pd_jvm_shape(shape);
		pd_jvm_payload_sums sums;
		uint64_t one_by_one = 0;
		memset(&sums, 0, sizeof sums);
		for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
			pd_jvm_payload_sums_add(&sums, lens[i]);
			one_by_one += pd_jvm_instance_size(&s, 0, 0, 0, 0, lens[i]);
		}
		ck_assert_uint_eq(pd_jvm_payload_sums_size(&s, &sums), one_by_one);
	}
}
END_TEST

START_TEST(size_rule_with_stated_sizes)
{
	pd_jvm_hints h;
	pd_jvm_sizes s;
	memset(&h, 0, sizeof h);
	pd_jvm_note_class(&h, "java/lang/Object", 0, 16, NULL, 0, no_names, NULL);
	pd_jvm_decide(8, &h, &s);
	ck_assert_int_eq(s.stated_instances, 1);
	ck_assert_uint_eq(s.header, 16);
	ck_assert_uint_eq(s.ref, 8);
	ck_assert_uint_eq(pd_jvm_instance_size(&s, 1, 4, 2, 52, 0), 52);
	/* java/lang/Object with a superclass is not the root: no hint */
	memset(&h, 0, sizeof h);
	pd_jvm_note_class(&h, "java/lang/Object", 7, 16, NULL, 0, no_names, NULL);
	ck_assert_uint_eq(h.object_instance_size, 0);
}
END_TEST

/* A class table: 30 extends 20 extends 10; 40 extends 50, which has no dump; 60 and 70 extend each other. */
typedef struct test_class {
	uint64_t id, super_id;
	uint8_t types[3];
	size_t n;
} test_class;

static const test_class classes[] = {
	{ 10, 0, { PROFDATA_TYPE_INT, PROFDATA_TYPE_OBJECT }, 2 },
	{ 20, 10, { PROFDATA_TYPE_LONG }, 1 },
	{ 30, 20, { PROFDATA_TYPE_OBJECT, PROFDATA_TYPE_BYTE, PROFDATA_TYPE_OBJECT }, 3 },
	{ 40, 50, { PROFDATA_TYPE_INT }, 1 },
	{ 60, 70, { PROFDATA_TYPE_INT }, 1 },
	{ 70, 60, { PROFDATA_TYPE_INT }, 1 },
	{ 80, 0, { PROFDATA_TYPE_INT, 3, PROFDATA_TYPE_OBJECT }, 3 },
};

static int lookup(const void *table, uint64_t id, pd_jvm_class_view *v)
{
	const test_class *t = table;
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
		if (t[i].id == id) {
			v->fields = NULL;
			v->types = t[i].types;
			v->nfields = t[i].n;
			v->super_id = t[i].super_id;
			return 1;
		}
	return 0;
}

START_TEST(flattening_along_the_superclass_chain)
{
	pd_jvm_layout l;
	memset(&l, 0, sizeof l);
	l.want_offsets = l.want_types = 1;
	ck_assert_int_eq(pd_jvm_flatten(&l, 30, 8, 7, lookup, classes), 1);
	/* 30's own fields, then 20's, then 10's: ref@0 byte@8 ref@9 long@17 int@25 ref@29 */
	ck_assert_uint_eq(l.nfields, 6);
	ck_assert_uint_eq(l.bytes, 37);
	ck_assert_uint_eq(l.prim_bytes, 13);
	ck_assert_uint_eq(l.nrefs, 3);
	ck_assert_uint_eq(l.ref_offsets[0], 0);
	ck_assert_uint_eq(l.ref_offsets[1], 9);
	ck_assert_uint_eq(l.ref_offsets[2], 29);
	ck_assert_uint_eq(l.types[3], PROFDATA_TYPE_LONG);
	ck_assert_int_eq(l.bad_type, 0);
	/* the same chain under 4-byte ids */
	ck_assert_int_eq(pd_jvm_flatten(&l, 30, 4, 7, lookup, classes), 1);
	ck_assert_uint_eq(l.bytes, 25);
	ck_assert_uint_eq(l.ref_offsets[2], 21);
	/* a superclass without a dump: not known (yet) */
	ck_assert_int_eq(pd_jvm_flatten(&l, 40, 8, 7, lookup, classes), 0);
	ck_assert_int_eq(pd_jvm_flatten(&l, 99, 8, 7, lookup, classes), 0);
	/* a cycle */
	ck_assert_int_eq(pd_jvm_flatten(&l, 60, 8, 7, lookup, classes), PROFDATA_EFORMAT);
	/* a field of no basic type: whole, but its offsets are unknown past it */
	ck_assert_int_eq(pd_jvm_flatten(&l, 80, 8, 7, lookup, classes), 1);
	ck_assert_int_eq(l.bad_type, 1);
	pd_jvm_layout_free(&l);
}
END_TEST

START_TEST(flattening_copies_fields)
{
	profdata_field out[2];
	pd_jvm_layout l;
	memset(&l, 0, sizeof l);
	l.fields = out;
	l.fields_cap = 2;
	ck_assert_int_eq(pd_jvm_flatten(&l, 30, 8, 7, lookup, classes), 1);
	ck_assert_uint_eq(l.nfields, 6); /* counted past the caller's room */
	ck_assert_int_eq(out[0].type, PROFDATA_TYPE_OBJECT);
	ck_assert_int_eq(out[1].type, PROFDATA_TYPE_BYTE);
	ck_assert_ptr_null(l.ref_offsets);
	pd_jvm_layout_free(&l);
}
END_TEST

START_TEST(references_from_payloads)
{
	/* an instance of 30 under 4-byte ids: ref 0x11 at 0, ref 0 at 9, ref 0x33 at 21 */
	unsigned char d[25];
	uint64_t out[4];
	const uint32_t offs[3] = { 0, 9, 21 };
	memset(d, 0xEE, sizeof d);
	pd_put_be32(d, 0x11);
	pd_put_be32(d + 9, 0);
	pd_put_be32(d + 21, 0x33);
	pd_jvm_refs sink = { out, 4, 0, 0, 0 };
	pd_jvm_instance_refs(d, sizeof d, 4, offs, 3, &sink);
	ck_assert_uint_eq(sink.n, 2);
	ck_assert_uint_eq(sink.nulls, 1);
	ck_assert_uint_eq(out[0], 0x11);
	ck_assert_uint_eq(out[1], 0x33);
	/* nulls kept; a payload cut short stops at the last whole reference */
	pd_jvm_refs keep = { out, 4, 1, 0, 0 };
	pd_jvm_instance_refs(d, 24, 4, offs, 3, &keep);
	ck_assert_uint_eq(keep.n, 2);
	ck_assert_uint_eq(out[1], 0);
	/* an object array of 8-byte ids, counted past the room given */
	unsigned char a[24];
	pd_put_be64(a, 1);
	pd_put_be64(a + 8, 0);
	pd_put_be64(a + 16, 3);
	pd_jvm_refs one = { out, 1, 0, 0, 0 };
	pd_jvm_array_refs(a, sizeof a, 8, &one);
	ck_assert_uint_eq(one.n, 2);
	ck_assert_uint_eq(one.nulls, 1);
	ck_assert_uint_eq(out[0], 1);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("jvm");
	TCase *tc = tcase_create("jvm");
	tcase_add_test(tc, basic_type_sizes);
	tcase_add_test(tc, size_rule_with_4_byte_ids);
	tcase_add_test(tc, size_rule_with_8_byte_ids);
	tcase_add_test(tc, size_rule_reads_compressed_references);
	tcase_add_test(tc, size_rule_falls_back_to_future_task);
	tcase_add_test(tc, payload_sums_match_instance_sizes);
	tcase_add_test(tc, size_rule_with_stated_sizes);
	tcase_add_test(tc, flattening_along_the_superclass_chain);
	tcase_add_test(tc, flattening_copies_fields);
	tcase_add_test(tc, references_from_payloads);
	suite_add_tcase(s, tc);
	return s;
}
