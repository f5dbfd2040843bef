/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The symbolize transform (lib/transform/symbolize.c, naming native frames
 * through lib/symbolize) without a profiler: a gperftools profile is made
 * here whose PCs are in this test program's own functions and whose maps
 * are this process's /proc/self/maps, so the binary to read is the one
 * running. The comparison with google-pprof on profiles libprofiler
 * records is tests/symbolize/pprof-compare.sh.
 */
#include "support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_config.h"

/* The functions the made-up profile's PCs are in; their bodies differ so that no linker folds them. */
__attribute__((noinline)) int symbolize_test_leaf(int x);
__attribute__((noinline)) int symbolize_test_caller(int x);
__attribute__((noinline)) int symbolize_test_leaf(int x) { return x * 7 + (x >> 3); }
__attribute__((noinline)) int symbolize_test_caller(int x) { return symbolize_test_leaf(x + 1) - 5; }

typedef struct bytes {
	unsigned char *p;
	size_t n, cap;
} bytes;

static void put(bytes *b, const void *data, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		ck_assert_ptr_nonnull(b->p);
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

static void put_slots(bytes *b, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put(b, &v[i], 8); /* the host's order: the profile says which by its header */
}

#define GONE_START 0x7f0000000000ull

/*
 * Records: leaf + 4 called from caller + 9 (a return address), 3 times; a PC
 * in a library that is not on disk; then this process's maps and one more
 * line naming that library.
 */
static bytes make_profile(void)
{
	bytes b = { 0, 0, 0 };
	uint64_t leaf = (uint64_t)(uintptr_t)&symbolize_test_leaf, caller = (uint64_t)(uintptr_t)&symbolize_test_caller;
	uint64_t head[] = { 0, 3, 0, 10000, 0 }, rec[] = { 3, 2, leaf + 4, caller + 9 },
	         gone[] = { 1, 2, GONE_START + 0x100, caller + 9 }, trailer[] = { 0, 1, 0 };
	put_slots(&b, head, 5);
	put_slots(&b, rec, 4);
	put_slots(&b, gone, 4);
	put_slots(&b, trailer, 3);
	FILE *f = fopen("/proc/self/maps", "r");
	ck_assert_ptr_nonnull(f);
	char line[4096];
	while (fgets(line, sizeof line, f))
		put(&b, line, strlen(line));
	fclose(f);
	const char *extra = "7f0000000000-7f0000010000 r-xp 00000000 08:01 12345      /nonexistent/libgone.so\n";
	put(&b, extra, strlen(extra));
	return b;
}

static int read_with(const bytes *b, const char *options, profdata_profile **p, profdata_reader **r)
{
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.options = options;
	ck_assert_int_eq(profdata_reader_open_memory(r, b->p, b->n, "made-up.prof"), 0);
	return profdata_read(p, *r, &o);
}

START_TEST(names_and_rewrite)
{
	bytes b = make_profile();
	profdata_profile *p;
	profdata_reader *r;
	int rc = read_with(&b, "symbolize=1", &p, &r);
	if (!PD_HAVE_SYMBOLIZE) {
		ck_assert_int_eq(rc, PROFDATA_EUNSUPPORTED);
		ck_assert_ptr_nonnull(strstr(profdata_reader_error(r)->message, "libdw"));
		profdata_reader_free(r);
		ck_assert_int_eq(read_with(&b, "symbolize=auto", &p, &r), 0);
		profdata_profile_free(p);
		profdata_reader_free(r);
		free(b.p);
		return;
	}
	ck_assert_int_eq(rc, 0);
	char *folded = test_folded(p, NULL);
	ck_assert_msg(strstr(folded, "symbolize_test_caller;symbolize_test_leaf 3\n") != NULL, "folded: %s", folded);
	/* The library that is not there: its frame stays an address, with one warning naming it. */
	ck_assert_msg(strstr(folded, ";0x7f0000000100 1\n") != NULL, "folded: %s", folded);
	size_t warned = 0;
	for (size_t i = 0; i < profdata_reader_warning_count(r); i++)
		warned += strstr(profdata_reader_warning(r, i)->message, "/nonexistent/libgone.so") != NULL;
	ck_assert_uint_eq(warned, 1);
	free(folded);
	/* The PCs stay as read: written back as gperftools, the same bytes. */
	size_t len;
	unsigned char *again = test_write(p, "gperftools", NULL, &len);
	ck_assert_uint_eq(len, b.n);
	ck_assert_int_eq(memcmp(again, b.p, len), 0);
	free(again);
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(b.p);
}
END_TEST

START_TEST(option_values)
{
	bytes b = make_profile();
	profdata_profile *p;
	profdata_reader *r;
	ck_assert_int_eq(read_with(&b, "symbolize=sometimes", &p, &r), PROFDATA_EINVAL);
	profdata_reader_free(r);
	ck_assert_int_eq(read_with(&b, "symbolize=none", &p, &r), 0);
	char *folded = test_folded(p, NULL);
	ck_assert_ptr_null(strstr(folded, "symbolize_test_leaf"));
	free(folded);
	profdata_profile_free(p);
	profdata_reader_free(r);
	/* A sysroot where nothing is: every binary is missing, nothing is named, no error. */
	ck_assert_int_eq(read_with(&b, "symbolize=auto,sysroot=/nonexistent-root", &p, &r), 0);
	folded = test_folded(p, NULL);
	ck_assert_ptr_null(strstr(folded, "symbolize_test_leaf"));
	free(folded);
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(b.p);
}
END_TEST

/*
 * The test program's own code, but a maps line recording another inode for
 * it (the file of another machine, or one replaced since): told from
 * stat() before any ELF is read, said once naming the file and the inodes,
 * and the frames stay addresses, as with symbolization off.
 */
START_TEST(another_inode_is_not_the_recorded_file)
{
	bytes b = { 0, 0, 0 };
	uint64_t leaf = (uint64_t)(uintptr_t)&symbolize_test_leaf, caller = (uint64_t)(uintptr_t)&symbolize_test_caller;
	uint64_t head[] = { 0, 3, 0, 10000, 0 }, rec[] = { 3, 2, leaf + 4, caller + 9 }, trailer[] = { 0, 1, 0 };
	put_slots(&b, head, 5);
	put_slots(&b, rec, 4);
	put_slots(&b, trailer, 3);
	FILE *f = fopen("/proc/self/maps", "r");
	ck_assert_ptr_nonnull(f);
	char line[4096], path[4096] = "";
	while (fgets(line, sizeof line, f)) {
		unsigned long long start, limit, off, inode;
		char perms[8], dev[16];
		int n = sscanf(line, "%llx-%llx %7s %llx %15s %llu %4095s", &start, &limit, perms, &off, dev, &inode, path);
		if (n == 7 && start <= leaf && leaf < limit) {
			snprintf(line, sizeof line, "%llx-%llx %s %llx %s %llu %s\n", start, limit, perms, off, dev, inode + 1, path);
			put(&b, line, strlen(line));
			break;
		}
	}
	fclose(f);
	ck_assert_msg(path[0] == '/', "no mapping of this program's code in /proc/self/maps");
	profdata_profile *p;
	profdata_reader *r;
	ck_assert_int_eq(read_with(&b, "symbolize=auto", &p, &r), 0);
	char *folded = test_folded(p, NULL), want[64];
	snprintf(want, sizeof want, "0x%llx;0x%llx 3\n", (unsigned long long)caller + 9, (unsigned long long)leaf + 4);
	ck_assert_msg(strcmp(folded, want) == 0, "folded: %s", folded);
	size_t warned = 0;
	for (size_t i = 0; i < profdata_reader_warning_count(r); i++) {
		const char *m = profdata_reader_warning(r, i)->message;
		warned += strstr(m, path) && strstr(m, "the profile recorded") && strstr(m, "inode");
	}
	ck_assert_uint_eq(warned, 1);
	ck_assert_uint_eq(profdata_reader_warning_count(r), 1);
	free(folded);
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(b.p);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("symbolize");
	TCase *tc = tcase_create("symbolize");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, names_and_rewrite);
	tcase_add_test(tc, option_values);
	if (PD_HAVE_SYMBOLIZE)
		tcase_add_test(tc, another_inode_is_not_the_recorded_file);
	suite_add_tcase(s, tc);
	return s;
}
