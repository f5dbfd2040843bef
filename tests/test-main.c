/* The main of every Check test program; the suite comes from suite_main(). */
#include "test-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *test_data_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/tests/data/%s", PD_SOURCE_ROOT, rel);
	return buf;
}

const char *test_corpus_dir(void)
{
	static const char dir[] = PD_SOURCE_ROOT "/../shared/corpus";
	struct stat st;
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}

unsigned char *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	size_t k;
	while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			unsigned char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

profdata_profile *test_read(const char *path, const char *format, int mode)
{
	profdata_reader *r;
	int e = profdata_reader_open_path(&r, path);
	ck_assert_msg(e == 0, "open %s: %s", path, r ? profdata_reader_error(r)->message : profdata_strerror(e));
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = format;
	o.mode = mode;
	profdata_profile *p = NULL;
	e = profdata_read(&p, r, &o);
	ck_assert_msg(e == 0, "read %s: %s", path,
	              profdata_reader_error(r) ? profdata_reader_error(r)->message : profdata_strerror(e));
	profdata_reader_free(r);
	return p;
}

profdata_profile *test_read_memory(const void *buf, size_t len, const char *format, int mode, char *msg,
                                   size_t msg_len)
{
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, buf, len, "<test>"), 0);
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = format;
	o.mode = mode;
	profdata_profile *p = NULL;
	int e = profdata_read(&p, r, &o);
	if (e != 0 && msg && msg_len)
		snprintf(msg, msg_len, "%s", profdata_reader_error(r) ? profdata_reader_error(r)->message : "?");
	profdata_reader_free(r);
	return p;
}

unsigned char *test_write(const profdata_profile *p, const char *format, const char *options, size_t *len)
{
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = format;
	o.options = options;
	int e = profdata_write(p, w, &o);
	ck_assert_msg(e == 0, "write %s: %s", format,
	              profdata_writer_error(w) ? profdata_writer_error(w)->message : profdata_strerror(e));
	ck_assert_int_eq(profdata_writer_close(w), 0);
	const void *data;
	ck_assert_int_eq(profdata_writer_memory(w, &data, len), 0);
	unsigned char *copy = malloc(*len ? *len : 1);
	ck_assert_ptr_nonnull(copy);
	if (*len)
		memcpy(copy, data, *len);
	profdata_writer_free(w);
	return copy;
}

int main(void)
{
	if (getenv("PD_REQUIRE_CORPUS") && !test_corpus_dir()) {
		printf("skipped: ../shared/corpus is absent\n");
		return 77;
	}
	SRunner *sr = srunner_create(suite_main());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
