/* SPDX-License-Identifier: Apache-2.0 */
/* Class names between internal and source form. */
#include "support.h"

#include <string.h>

static void check_java(const char *internal, const char *java)
{
	char buf[128];
	size_t n = profdata_java_name(internal, strlen(internal), buf, sizeof(buf));
	ck_assert_str_eq(buf, java);
	ck_assert_uint_eq(n, strlen(java));
	n = profdata_internal_name(java, strlen(java), buf, sizeof(buf));
	ck_assert_str_eq(buf, internal);
}

START_TEST(both_directions)
{
	check_java("java/lang/String", "java.lang.String");
	check_java("[I", "int[]");
	check_java("[[Z", "boolean[][]");
	check_java("[Ljava/lang/Object;", "java.lang.Object[]");
	check_java("[[[Ljava/util/Map$Entry;", "java.util.Map$Entry[][][]");
	check_java("Foo", "Foo");
}
END_TEST

START_TEST(truncation_reports_the_full_length)
{
	char buf[4];
	size_t n = profdata_java_name("[Ljava/lang/Object;", 19, buf, sizeof(buf));
	ck_assert_uint_eq(n, strlen("java.lang.Object[]"));
	ck_assert_str_eq(buf, "jav");
}
END_TEST

START_TEST(source_form_arrays_of_the_old_agent)
{
	char buf[64];
	profdata_internal_name("char[]", 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "[C");
	profdata_java_name("char[]", 6, buf, sizeof(buf));
	ck_assert_str_eq(buf, "char[]");
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("names");
	tcase_add_test(tc, both_directions);
	tcase_add_test(tc, truncation_reports_the_full_length);
	tcase_add_test(tc, source_form_arrays_of_the_old_agent);
	suite_add_tcase(s, tc);
	return s;
}
