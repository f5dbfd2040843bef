/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib/util/json.c's scanner of integer arrays: pd_json_ints_take (eight
 * bytes and whole windows at a time) reads every array exactly as
 * pd_json_ints_next reads it one value at a time: the same values, the
 * same stop, the cursor at the same byte, for every batch size.
 */
#include "support.h"
#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reading {
	int64_t v[4096];
	size_t n;
	int stop;                 /* 1 end, -1 bad */
	size_t at;                /* the cursor's offset when it stopped */
} reading;

static void read_one_by_one(const char *text, size_t len, reading *r)
{
	pd_json_ints c = { (const unsigned char *)text, (const unsigned char *)text + len, 0 };
	int k;
	r->n = 0;
	while ((k = pd_json_ints_next(&c, &r->v[r->n])) > 0)
		r->n++;
	r->stop = k == 0 ? 1 : -1;
	r->at = (size_t)(c.p - (const unsigned char *)text);
}

static void read_in_batches(const char *text, size_t len, size_t batch, reading *r)
{
	pd_json_ints c = { (const unsigned char *)text, (const unsigned char *)text + len, 0 };
	int stop = 0;
	r->n = 0;
	while (stop == 0) {
		size_t got = pd_json_ints_take(&c, r->v + r->n, batch, &stop);
		ck_assert_uint_le(got, batch);
		ck_assert_msg(got == batch || stop != 0, "a short batch without a stop");
		r->n += got;
	}
	r->stop = stop;
	r->at = (size_t)(c.p - (const unsigned char *)text);
}

static void assert_same_reading(const char *text, size_t len)
{
	static const size_t batches[] = { 1, 2, 3, 7, 64, 4096 };
	reading *want = malloc(sizeof *want), *got = malloc(sizeof *got);
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	read_one_by_one(text, len, want);
	for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
		read_in_batches(text, len, batches[b], got);
		ck_assert_msg(got->n == want->n && got->stop == want->stop && got->at == want->at,
		              "batches of %zu: %zu values, stop %d at %zu; one by one: %zu, %d at %zu, in %.*s", batches[b],
		              got->n, got->stop, got->at, want->n, want->stop, want->at, (int)(len < 200 ? len : 200), text);
		for (size_t i = 0; i < want->n; i++)
			ck_assert_msg(got->v[i] == want->v[i], "value %zu", i);
	}
	free(want);
	free(got);
}

static uint64_t next_random(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 17;
}

/* A number of 1 to 20 digits (a few of them past int64), sometimes negative. */
static size_t put_number(char *b, uint64_t *x)
{
	size_t n = 0, digits = 1 + next_random(x) % (next_random(x) % 8 == 0 ? 20 : 9);
	if (next_random(x) % 16 == 0)
		b[n++] = '-';
	for (size_t i = 0; i < digits; i++)
		b[n++] = (char)('0' + next_random(x) % 10);
	return n;
}

/* Arrays of many shapes: compact, spaced, long numbers, negatives, and one fault planted near the end. */
START_TEST(batches_read_as_one_by_one)
{
	static const char *const faults[] = { "", ",,", "1.5", "2e3", "x", "-", ",]", "[", "99999999999999999999" };
	char *text = malloc(1 << 16);
	ck_assert_ptr_nonnull(text);
	uint64_t x = 42;
	for (int round = 0; round < 400; round++) {
		size_t n = 0, values = next_random(&x) % 300;
		int spaced = round % 5 == 0;
		const char *fault = faults[round % (sizeof faults / sizeof faults[0])];
		text[n++] = '[';
		for (size_t i = 0; i < values; i++) {
			if (i)
				text[n++] = ',';
			if (spaced && next_random(&x) % 3 == 0)
				text[n++] = next_random(&x) % 2 ? ' ' : '\n';
			n += put_number(text + n, &x);
			if (i + 3 == values && *fault) {
				text[n++] = ',';
				memcpy(text + n, fault, strlen(fault));
				n += strlen(fault);
			}
		}
		text[n++] = ']';
		assert_same_reading(text, n);
		/* the same bytes in a span that does not end at its ']' */
		assert_same_reading(text, n - 1);
	}
	free(text);
}
END_TEST

START_TEST(edges_of_the_window)
{
	static const char *const arrays[] = { "[]", "[ ]", "[0]", "[-0]", "[12345678,1]", "[123456789,1]",
		                              "[9223372036854775807]", "[-9223372036854775808]", "[9223372036854775808]",
		                              "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27]",
		                              "[1 ,2, 3 , 4]", "[1,\t2,\r\n3]", "[1,2,3,,4]", "[007,08]", "[1,2]3]" };
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		assert_same_reading(arrays[i], strlen(arrays[i]));
	/* every number of every length from 1 to 10 digits, each at every offset in the window */
	char text[4096];
	for (size_t len = 1; len <= 10; len++) {
		size_t n = 0;
		text[n++] = '[';
		for (size_t i = 0; n + len + 2 < sizeof text; i++) {
			if (i)
				text[n++] = ',';
			for (size_t k = 0; k < len; k++)
				text[n++] = (char)('1' + (i + k) % 9);
		}
		text[n++] = ']';
		assert_same_reading(text, n);
	}
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("util-json");
	TCase *tc = tcase_create("ints");
	tcase_add_test(tc, batches_read_as_one_by_one);
	tcase_add_test(tc, edges_of_the_window);
	suite_add_tcase(s, tc);
	return s;
}
