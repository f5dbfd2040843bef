/* SPDX-License-Identifier: Apache-2.0 */
/* Readers and writers: every source and sink, gzip, and the window contract codecs rely on. */
#define _XOPEN_SOURCE 700 /* mknod, for the device case */
#include "support.h"
#include "internal.h"
#include "io/pager.h"
#include "io/readahead.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#define N (3u << 20) /* larger than one buffer chunk */

static unsigned char *pattern(void)
{
	unsigned char *b = malloc(N);
	ck_assert_ptr_nonnull(b);
	for (unsigned i = 0; i < N; i++)
		b[i] = (unsigned char)(i * 7 + (i >> 11));
	return b;
}

/* gzip `len` bytes as `members` concatenated members, like jcmd -gz. */
static unsigned char *gzip_members(const unsigned char *src, size_t len, int members, size_t *out_len)
{
	size_t cap = len + 1024 * (size_t)members + 1024, n = 0;
	unsigned char *out = malloc(cap);
	size_t step = len / (size_t)members + 1;
	for (size_t off = 0; off < len; off += step) {
		z_stream z;
		memset(&z, 0, sizeof(z));
		ck_assert_int_eq(deflateInit2(&z, 1, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (unsigned char *)src + off;
		z.avail_in = (uInt)(len - off < step ? len - off : step);
		z.next_out = out + n;
		z.avail_out = (uInt)(cap - n);
		ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
		n = cap - z.avail_out;
		deflateEnd(&z);
	}
	*out_len = n;
	return out;
}

/* Read everything through windows of varying size and compare. */
static void read_all(profdata_reader *r, const unsigned char *expect, size_t len)
{
	size_t pos = 0, want = 1;
	while (pos < len) {
		const unsigned char *p;
		int64_t n = pd_in_fill(r, want, &p);
		ck_assert_msg(n >= 0, "fill failed: %s", profdata_reader_error(r) ? profdata_reader_error(r)->message : "");
		ck_assert_msg((size_t)n >= (want < len - pos ? want : len - pos), "short window at %zu", pos);
		size_t take = (size_t)n < want ? (size_t)n : want;
		ck_assert_msg(memcmp(p, expect + pos, take) == 0, "bytes differ at %zu", pos);
		ck_assert_uint_eq(pd_in_offset(r), pos);
		pd_in_skip(r, take);
		pos += take;
		want = want * 3 % 200003 + 1;
		if (pos + 1000 < len && (pos & 1)) {
			ck_assert_int_eq(pd_in_discard(r, 1000), 1000);
			pos += 1000;
		}
	}
	const unsigned char *p;
	ck_assert_int_eq(pd_in_fill(r, 1, &p), 0);
}

static long cb_read(void *payload, void *buf, size_t len)
{
	FILE *f = payload;
	return (long)fread(buf, 1, len < 4096 ? len : 4096, f);
}

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
	static char buf[256];
	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/pd-io-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	}
	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

START_TEST(memory_is_stable_and_whole)
{
	unsigned char *b = pattern();
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, b, N, "mem"), 0);
	ck_assert_ptr_nonnull(pd_in_blob(r));
	const unsigned char *p;
	ck_assert_int_eq(pd_in_fill(r, 1, &p), N);
	ck_assert_ptr_eq(p, b);
	read_all(r, b, N);
	profdata_reader_free(r);
	free(b);
}
END_TEST

START_TEST(path_is_mapped)
{
	unsigned char *b = pattern();
	const char *path = tmp_path("plain.bin");
	write_file(path, b, N);
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_ptr_nonnull(pd_in_blob(r));
	read_all(r, b, N);
	ck_assert_str_eq(profdata_reader_name(r), path);
	profdata_reader_free(r);
	unlink(path);
	free(b);
}
END_TEST

/*
 * A file of `size` bytes repeating a pattern whose period (1 MiB + 7) is not
 * a page multiple, written from one small buffer: cheap enough under
 * valgrind. Byte i of the file is period_bytes[i % PERIOD].
 */
#define PERIOD (((size_t)1 << 20) + 7)
static unsigned char *write_periodic_file(const char *path, size_t size)
{
	unsigned char *twice = malloc(2 * PERIOD);
	ck_assert_ptr_nonnull(twice);
	for (size_t i = 0; i < PERIOD; i++)
		twice[i] = twice[PERIOD + i] = (unsigned char)(i * 13 + (i >> 9));
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	for (size_t off = 0; off < size; off += PERIOD) {
		size_t n = size - off < PERIOD ? size - off : PERIOD;
		ck_assert_uint_eq(fwrite(twice, 1, n, f), n);
	}
	fclose(f);
	return twice;
}

static void check_periodic(const unsigned char *p, size_t pos, size_t n, const unsigned char *twice)
{
	ck_assert_msg(memcmp(p, twice + pos % PERIOD, n) == 0, "bytes differ near %zu", pos);
}

/* A reader over a new periodic file of `size` bytes in the test folder (*path, *twice: write_periodic_file). */
static profdata_reader *open_periodic(const char *name, size_t size, const char **path, unsigned char **twice)
{
	*path = tmp_path(name);
	*twice = write_periodic_file(*path, size);
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, *path), 0);
	return r;
}

START_TEST(large_mapped_file_reads_through_the_pager)
{
	/* Past 128 MiB a helper thread faults pages ahead and releases them behind. */
	const size_t big = (size_t)160 << 20;
	const char *path;
	unsigned char *twice;
	profdata_reader *r = open_periodic("big.bin", big, &path, &twice);
	size_t pos = 0;
	while (pos < big) {
		const unsigned char *p;
		int64_t n = pd_in_fill(r, 1, &p);
		ck_assert_int_eq(n, (int64_t)(big - pos));
		size_t take = big - pos < 100003 ? big - pos : 100003;
		check_periodic(p, pos, take < 4096 ? take : 4096, twice);
		/* Bytes far behind the cursor may have been released; they must still read right. */
		if (pos > ((size_t)64 << 20))
			check_periodic(p - ((size_t)60 << 20), pos - ((size_t)60 << 20), 64, twice);
		pd_in_skip(r, take);
		pos += take;
	}
	profdata_reader_free(r);
	unlink(path);
	free(twice);
}
END_TEST

START_TEST(a_pass_rewound_reads_right_again)
{
	/* A decoder that walks a mapped file twice (JFR) rewinds the reader: the pager's thread
	 * faults from there again and releases behind the second walk too; every byte reads right. */
	const size_t big = (size_t)160 << 20, step = (size_t)3 << 20;
	const char *path;
	unsigned char *twice;
	profdata_reader *r = open_periodic("rewound.bin", big, &path, &twice);
	const unsigned char *base;
	size_t len;
	ck_assert_int_eq(pd_in_fill_all(r, &base, &len), 0);
	ck_assert_uint_eq(len, big);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t pos = 0; pos < big; pos += step) {
			check_periodic(base + pos, pos, 4096, twice);
			if (pos >= step) { /* a short step back, as a chunk's second walk takes */
				pd_in_rewind(r, pos - step / 2);
				check_periodic(base + pos - step / 2, pos - step / 2, 4096, twice);
				pd_in_skip(r, step / 2);
			}
			pd_in_skip(r, step);
		}
		ck_assert_uint_eq(pd_in_offset(r), big);
		pd_in_rewind(r, 0);
		ck_assert_uint_eq(pd_in_offset(r), 0);
	}
	pd_in_rewind(r, big); /* not behind: nothing */
	ck_assert_uint_eq(pd_in_offset(r), 0);
	profdata_reader_free(r);
	unlink(path);
	free(twice);
}
END_TEST

START_TEST(readahead_keeps_the_tail_and_ends_cleanly)
{
	/* Odd chunk and headroom sizes: every boundary falls inside a kept tail somewhere. */
	const size_t size = 100000;
	const char *path = tmp_path("ra.bin");
	unsigned char *twice = write_periodic_file(path, size);
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	pd_readahead *ra = pd_readahead_start(fd, 5, 777, 100);
	ck_assert_ptr_nonnull(ra);
	size_t pos = 5, keep = 0;
	unsigned char *data = NULL;
	for (;;) {
		long n = pd_readahead_next(ra, keep ? data : NULL, keep, &data);
		ck_assert_int_ge(n, (long)keep);
		check_periodic(data, pos, (size_t)n, twice);
		if ((size_t)n == keep)
			break;
		/* consume all but up to 99 bytes, which come again in front of the next buffer */
		size_t left = (size_t)n % 100;
		pos += (size_t)n - left;
		memmove(data, data + (size_t)n - left, left); /* (any place the caller likes) */
		keep = left;
	}
	ck_assert_uint_eq(pos + keep, size);
	ck_assert_uint_eq(pd_readahead_offset(ra), size);
	unsigned char *again;
	ck_assert_int_eq(pd_readahead_next(ra, NULL, 0, &again), 0); /* the end stays the end */
	pd_readahead_stop(ra);
	close(fd);
	unlink(path);
	free(twice);
}
END_TEST

START_TEST(streamed_file_reads_like_the_mapped_one)
{
	/* From 64 MiB pd_in_stream() reads on a thread: fills, skips, discards, a window wider than its headroom. */
	const size_t big = (size_t)70 << 20;
	const char *path;
	unsigned char *twice;
	profdata_reader *r = open_periodic("stream.bin", big, &path, &twice);
	const unsigned char *p;
	ck_assert_int_ge(pd_in_peek(r, 16, &p), 16); /* a sniff, as the core makes before decoding */
	pd_in_stream(r);
	ck_assert_ptr_null(pd_in_blob(r));
	ck_assert_uint_eq(profdata_reader_size(r), big);
	size_t pos = 0, step = 0;
	while (pos < ((size_t)60 << 20)) {
		size_t want = step % 7 == 0 ? 4093 : 17;
		int64_t n = pd_in_fill(r, want, &p);
		ck_assert_int_ge(n, (int64_t)want);
		check_periodic(p, pos, want, twice);
		size_t take = step % 5 == 0 ? 999983 : 12345;
		if (step % 3 == 0)
			ck_assert_int_eq(pd_in_discard(r, take), (int64_t)take);
		else {
			take = take < (size_t)n ? take : (size_t)n;
			pd_in_skip(r, take);
		}
		pos += take;
		step++;
		ck_assert_uint_eq(pd_in_offset(r), pos);
	}
	int64_t n = pd_in_fill(r, (size_t)3 << 20, &p); /* wider than the headroom: read on this thread */
	ck_assert_int_ge(n, (int64_t)3 << 20);
	for (size_t k = 0; k < ((size_t)3 << 20); k += (size_t)1 << 20)
		check_periodic(p + k, pos + k, (size_t)1 << 20, twice);
	ck_assert_int_eq(pd_in_discard(r, big), (int64_t)(big - pos));
	ck_assert_int_eq(pd_in_fill(r, 1, &p), 0);
	profdata_reader_free(r);
	unlink(path);
	free(twice);
}
END_TEST

START_TEST(pager_releases_behind_a_pass_without_a_thread)
{
	/* Below 128 MiB no thread: the pass's own advance releases what lies behind it, and reads back behind it
	 * (pd_pager_looked_back) are released again. */
	ck_assert_ptr_null(pd_pager_start(NULL));
	pd_pager_stop(NULL);
	pd_blob *memory = pd_blob_of_memory("abc", 3);
	ck_assert_ptr_nonnull(memory);
	ck_assert_ptr_null(pd_pager_start(memory)); /* nothing to release in the caller's memory */
	pd_blob_release(memory);

	const size_t size = (size_t)40 << 20;
	const char *path = tmp_path("pass.bin");
	unsigned char *twice = write_periodic_file(path, size);
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	int out_of_memory = 1;
	pd_blob *blob = pd_blob_map(fd, size, &out_of_memory);
	close(fd);
	ck_assert_ptr_nonnull(blob);
	ck_assert_int_eq(out_of_memory, 0);
	ck_assert(pd_blob_mapped(blob));
	pd_pager *pass = pd_pager_start(blob);
	ck_assert_ptr_nonnull(pass);
	const unsigned char *data = pd_blob_data(blob);
	for (size_t pos = 0; pos < size; pos += (size_t)1 << 20) {
		check_periodic(data + pos, pos, 4096, twice);
		pd_pager_advance(pass, pos);
	}
	/* Reads far behind the pass, each told: every so many, all behind is released again, and still reads. */
	for (size_t k = 0; k < 600; k++) {
		size_t at = (k * ((size_t)1 << 20) / 17) % (size / 2) / 4096 * 4096;
		check_periodic(data + at, at, 4096, twice);
		pd_pager_looked_back(pass);
	}
	pd_pager_looked_back(NULL);
	/* A second pass: rewound, it releases behind itself again and reads right. */
	pd_pager_rewind(NULL, 0);
	pd_pager_rewind(pass, 0);
	for (size_t pos = 0; pos < size; pos += (size_t)1 << 20) {
		check_periodic(data + pos, pos, 4096, twice);
		pd_pager_advance(pass, pos);
	}
	pd_pager_stop(pass);
	check_periodic(data, 0, 4096, twice); /* released pages map again */
	pd_blob_release(blob);
	unlink(path);
	free(twice);
}
END_TEST

START_TEST(empty_file_is_an_empty_blob)
{
	const char *path = tmp_path("empty.bin");
	write_file(path, "", 0);
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_ptr_nonnull(pd_in_blob(r));
	ck_assert_uint_eq(profdata_reader_size(r), 0);
	const unsigned char *p;
	ck_assert_int_eq(pd_in_fill(r, 1, &p), 0);
	profdata_reader_free(r);
	unlink(path);
}
END_TEST

START_TEST(missing_path_names_the_file)
{
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, "/nonexistent/x.hprof"), PROFDATA_EIO);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(profdata_reader_error(r)->name, "/nonexistent/x.hprof");
	ck_assert_ptr_nonnull(strstr(profdata_reader_error(r)->message, "cannot open"));
	profdata_reader_free(r);
}
END_TEST

START_TEST(pipe_streams_through_a_window)
{
	unsigned char *b = pattern();
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		size_t off = 0;
		while (off < N) {
			ssize_t k = write(fds[1], b + off, N - off < 7777 ? N - off : 7777);
			if (k <= 0)
				_exit(1);
			off += (size_t)k;
		}
		_exit(0);
	}
	close(fds[1]);
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_fd(&r, fds[0], "pipe"), 0);
	ck_assert_ptr_null(pd_in_blob(r));
	read_all(r, b, N);
	profdata_reader_free(r);
	close(fds[0]);
	free(b);
}
END_TEST

START_TEST(gzip_multi_member_from_path_pipe_and_callbacks)
{
	unsigned char *b = pattern();
	size_t zlen;
	unsigned char *z = gzip_members(b, N, 3, &zlen);
	const char *path = tmp_path("multi.gz");
	write_file(path, z, zlen);
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_path(&r, path), 0);
	ck_assert_ptr_null(pd_in_blob(r)); /* decompressed bytes are not stable */
	ck_assert(profdata_reader_is_gzip(r));
	read_all(r, b, N);
	profdata_reader_free(r);

	FILE *f = fopen(path, "rb");
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, cb_read, f, "cb"), 0);
	read_all(r, b, N);
	ck_assert(profdata_reader_is_gzip(r));
	profdata_reader_free(r);
	fclose(f);

	int fd = open(path, O_RDONLY);
	ck_assert_int_eq(profdata_reader_open_fd(&r, fd, "fd"), 0);
	read_all(r, b, N);
	profdata_reader_free(r);
	close(fd);
	unlink(path);
	free(z);
	free(b);
}
END_TEST

START_TEST(truncated_gzip_is_an_error_not_a_short_read)
{
	unsigned char *b = pattern();
	size_t zlen;
	unsigned char *z = gzip_members(b, N, 1, &zlen);
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, z, zlen / 2, "half.gz"), 0);
	const unsigned char *p;
	int64_t n;
	do {
		n = pd_in_fill(r, 1 << 16, &p);
		if (n > 0)
			pd_in_skip(r, (size_t)n);
	} while (n > 0);
	ck_assert_int_eq(n, PROFDATA_ETRUNCATED);
	ck_assert_ptr_nonnull(strstr(profdata_reader_error(r)->message, "gzip"));
	profdata_reader_free(r);
	/* For a permissive decoder it ends the input with a warning naming the offset. */
	ck_assert_int_eq(profdata_reader_open_memory(&r, z, zlen / 2, "half.gz"), 0);
	pd_in_set_mode(r, PROFDATA_MODE_PERMISSIVE);
	uint64_t got = 0;
	do {
		n = pd_in_fill(r, 1 << 16, &p);
		if (n > 0) {
			pd_in_skip(r, (size_t)n);
			got += (uint64_t)n;
		}
	} while (n > 0);
	ck_assert_int_eq(n, 0);
	ck_assert_uint_gt(got, 0);
	ck_assert_ptr_null(profdata_reader_error(r));
	ck_assert_uint_eq(profdata_reader_warning_count(r), 1);
	ck_assert_uint_eq(profdata_reader_warning(r, 0)->offset, got);
	ck_assert_ptr_nonnull(strstr(profdata_reader_warning(r, 0)->message, "truncated .gz"));
	profdata_reader_free(r);
	free(z);
	free(b);
}
END_TEST

START_TEST(window_grows_only_with_data)
{
	/* Asking for 1 GiB from a 10-byte stream must not allocate 1 GiB. */
	const unsigned char small[10] = "0123456789";
	profdata_reader *r;
	FILE *f = fmemopen((void *)small, sizeof(small), "rb");
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, cb_read, f, "small"), 0);
	const unsigned char *p;
	ck_assert_int_eq(pd_in_fill(r, (size_t)1 << 30, &p), 10);
	profdata_reader_free(r);
	fclose(f);
}
END_TEST

START_TEST(path_writer_renames_only_on_close)
{
	const char *path = tmp_path("out.bin");
	char target[256];
	snprintf(target, sizeof(target), "%s", path);
	write_file(target, "old", 3);
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_path(&w, target), 0);
	ck_assert_int_eq(pd_out_write(w, "new data", 8), 0);
	profdata_writer_free(w); /* no close: the old file stays, the temporary goes */
	size_t len;
	unsigned char *got = test_slurp(target, &len);
	ck_assert_uint_eq(len, 3);
	free(got);
	ck_assert_int_eq(profdata_writer_open_path(&w, target), 0);
	ck_assert_int_eq(pd_out_write(w, "new data", 8), 0);
	ck_assert_int_eq(pd_out_printf(w, " %d", 42), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	profdata_writer_free(w);
	got = test_slurp(target, &len);
	ck_assert_uint_eq(len, 11);
	ck_assert(memcmp(got, "new data 42", 11) == 0);
	free(got);
	unlink(target);
	ck_assert_int_eq(rmdir(tmpdir), 0); /* nothing else left behind */
	tmpdir[0] = '\0';
}
END_TEST

START_TEST(unwritable_path_explains)
{
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_path(&w, "/nonexistent/dir/out"), PROFDATA_EIO);
	/* The path is the error's name, once; the message says why. */
	ck_assert_str_eq(profdata_writer_error(w)->name, "/nonexistent/dir/out");
	ck_assert_ptr_null(strstr(profdata_writer_error(w)->message, "/nonexistent/dir/out"));
	ck_assert_ptr_nonnull(strstr(profdata_writer_error(w)->message, "folder does not exist"));
	profdata_writer_free(w);
}
END_TEST

/* A folder of its own per test, removed with what is in it. */
static void scratch_dir(char *dir, size_t cap)
{
	snprintf(dir, cap, "/tmp/pd-writer-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_scratch(const char *dir)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static int write_through(const char *path, unsigned flags, unsigned mode, const char *text)
{
	profdata_writer *w;
	int e = profdata_writer_open_file(&w, path, flags, mode);
	if (e == 0)
		e = pd_out_write(w, text, strlen(text));
	if (e == 0)
		e = profdata_writer_close(w);
	profdata_writer_free(w);
	return e;
}

static size_t entries_in(const char *dir)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

START_TEST(replaced_file_keeps_its_mode)
{
	char dir[64], path[128];
	scratch_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/secret.hprof", dir);
	write_file(path, "old", 3);
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(write_through(path, 0, 0666, "new"), 0);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0600);
	ck_assert_uint_eq(st.st_size, 3);
	/* A new file is no wider than the mode asked for (the umask may narrow it). */
	snprintf(path, sizeof(path), "%s/new.txt", dir);
	ck_assert_int_eq(write_through(path, 0, 0640, "x"), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0137, 0);
	remove_scratch(dir);
}
END_TEST

START_TEST(read_only_file_needs_force)
{
	char dir[64], path[128];
	scratch_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/ro.txt", dir);
	write_file(path, "keep", 4);
	ck_assert_int_eq(chmod(path, 0444), 0);
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_file(&w, path, 0, 0666), PROFDATA_EIO);
	ck_assert_ptr_nonnull(strstr(profdata_writer_error(w)->message, "read-only"));
	profdata_writer_free(w);
	size_t len;
	unsigned char *got = test_slurp(path, &len);
	ck_assert_uint_eq(len, 4);
	free(got);
	ck_assert_int_eq(write_through(path, PROFDATA_WRITER_FORCE, 0666, "replaced"), 0);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_size, 8);
	ck_assert_uint_eq(st.st_mode & 0777, 0444);
	ck_assert_uint_eq(entries_in(dir), 1);
	remove_scratch(dir);
}
END_TEST

START_TEST(symlink_is_followed_and_stays)
{
	char dir[64], sub[96], target[128], link[128];
	scratch_dir(dir, sizeof(dir));
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	snprintf(target, sizeof(target), "%s/sub/real.txt", dir);
	snprintf(link, sizeof(link), "%s/link.txt", dir);
	write_file(target, "old", 3);
	ck_assert_int_eq(symlink("sub/real.txt", link), 0);
	ck_assert_int_eq(write_through(link, 0, 0666, "through the link"), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(stat(target, &st), 0);
	ck_assert_uint_eq(st.st_size, 16);
	/* A dangling link: its target is created. */
	snprintf(link, sizeof(link), "%s/dangling", dir);
	ck_assert_int_eq(symlink("sub/made.txt", link), 0);
	ck_assert_int_eq(write_through(link, 0, 0666, "made"), 0);
	snprintf(target, sizeof(target), "%s/sub/made.txt", dir);
	ck_assert_int_eq(stat(target, &st), 0);
	ck_assert_uint_eq(st.st_size, 4);
	ck_assert_uint_eq(entries_in(sub), 2);
	remove_scratch(dir);
}
END_TEST

START_TEST(fifo_is_written_through)
{
	char dir[64], path[128];
	scratch_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		FILE *f = fopen(path, "rb");
		char buf[64] = { 0 };
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		_exit(n == 11 && strcmp(buf, "to the fifo") == 0 ? 0 : 1);
	}
	ck_assert_int_eq(write_through(path, 0, 0666, "to the fifo"), 0);
	int status;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_uint_eq(entries_in(dir), 1);
	remove_scratch(dir);
}
END_TEST

START_TEST(device_is_written_through)
{
	char dir[64], path[128];
	scratch_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/null", dir);
	struct stat null_dev;
	if (stat("/dev/null", &null_dev) != 0 || mknod(path, S_IFCHR | 0666, null_dev.st_rdev) != 0) {
		remove_scratch(dir);
		return; /* not root: the FIFO case covers writing through */
	}
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_file(&w, path, 0, 0666), 0);
	ck_assert_ptr_null(profdata_writer_temp_path(w));
	ck_assert_int_eq(pd_out_write(w, "gone", 4), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	profdata_writer_free(w);
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	remove_scratch(dir);
}
END_TEST

START_TEST(temp_path_is_named_until_close)
{
	char dir[64], path[128];
	scratch_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_file(&w, path, 0, 0666), 0);
	const char *tmp = profdata_writer_temp_path(w);
	ck_assert_ptr_nonnull(tmp);
	ck_assert_int_eq(strncmp(tmp, path, strlen(path)), 0);
	ck_assert_int_eq(access(tmp, F_OK), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	ck_assert_ptr_null(profdata_writer_temp_path(w));
	profdata_writer_free(w);
	ck_assert_uint_eq(entries_in(dir), 1);
	remove_scratch(dir);
}
END_TEST

START_TEST(gzip_output_reads_back)
{
	unsigned char *b = pattern();
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_writer_set_gzip(w, 6), 0);
	ck_assert_int_eq(pd_out_write(w, b, N), 0);
	ck_assert_int_eq(profdata_writer_set_gzip(w, 1), PROFDATA_EINVAL);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	ck_assert_uint_eq(profdata_writer_offset(w), N);
	const void *data;
	size_t len;
	ck_assert_int_eq(profdata_writer_memory(w, &data, &len), 0);
	ck_assert_uint_lt(len, N);
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, data, len, "z"), 0);
	read_all(r, b, N);
	profdata_reader_free(r);
	profdata_writer_free(w);
	free(b);
}
END_TEST

/* `len` bytes of `src` gzip'd through a memory writer at level 1, in pieces of `piece` bytes (malloc'd). */
static unsigned char *gzip_written(const unsigned char *src, size_t len, size_t piece, size_t *out_len)
{
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_writer_set_gzip(w, 1), 0);
	for (size_t at = 0; at < len; at += piece)
		ck_assert_int_eq(pd_out_write(w, src + at, len - at < piece ? len - at : piece), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	const void *data;
	ck_assert_int_eq(profdata_writer_memory(w, &data, out_len), 0);
	unsigned char *copy = malloc(*out_len);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, data, *out_len);
	profdata_writer_free(w);
	return copy;
}

/*
 * gzip output is compressed in blocks of 1 MiB, two at a time on two
 * threads (io/gzip_out.c): around every cut (none, one block, two, two and
 * a byte, more), what comes out is one member that zlib inflates to the
 * input with nothing after it, and the same bytes however the input was cut
 * into writes.
 */
START_TEST(gzip_output_is_one_member_however_written)
{
	static const size_t sizes[] = { 0, 1, 32767, (1u << 20) + 5, (2u << 20) - 1, 2u << 20, (2u << 20) + 1, N };
	unsigned char *b = pattern(), *back = malloc(N + 1);
	ck_assert_ptr_nonnull(back);
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		size_t whole_len, pieces_len;
		unsigned char *whole = gzip_written(b, sizes[i], N, &whole_len);
		unsigned char *pieces = gzip_written(b, sizes[i], 7777, &pieces_len);
		ck_assert_uint_eq(whole_len, pieces_len);
		ck_assert(memcmp(whole, pieces, whole_len) == 0);
		z_stream z;
		memset(&z, 0, sizeof z);
		ck_assert_int_eq(inflateInit2(&z, 15 + 16), Z_OK);
		z.next_in = whole;
		z.avail_in = (uInt)whole_len;
		z.next_out = back;
		z.avail_out = N + 1;
		ck_assert_int_eq(inflate(&z, Z_FINISH), Z_STREAM_END);
		ck_assert_uint_eq(z.avail_in, 0); /* one member, nothing after it */
		ck_assert_uint_eq(z.total_out, sizes[i]);
		ck_assert(memcmp(back, b, sizes[i]) == 0);
		inflateEnd(&z);
		free(whole);
		free(pieces);
	}
	free(back);
	free(b);
}
END_TEST

/* A caller's own bytes, as they are, through the public writer; nothing after close. */
START_TEST(a_callers_bytes_are_written_as_they_are)
{
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_writer_write(w, "<html>", 6), 0);
	ck_assert_int_eq(profdata_writer_write(w, "", 0), 0);
	ck_assert_int_eq(profdata_writer_write(w, "</html>\n", 8), 0);
	ck_assert_int_eq(profdata_writer_close(w), 0);
	const void *data;
	size_t len;
	ck_assert_int_eq(profdata_writer_memory(w, &data, &len), 0);
	ck_assert_uint_eq(len, 14);
	ck_assert_int_eq(memcmp(data, "<html></html>\n", 14), 0);
	ck_assert_int_eq(profdata_writer_write(w, "x", 1), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_writer_error(w)->message, "after"));
	profdata_writer_free(w);
}
END_TEST

static int cb_fail(void *payload, const void *buf, size_t len)
{
	(void)payload;
	(void)buf;
	(void)len;
	return -1;
}

START_TEST(failing_callback_is_an_error)
{
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_callbacks(&w, cb_fail, NULL, "cb"), 0);
	ck_assert_int_eq(pd_out_write(w, "x", 1), 0); /* buffered */
	ck_assert_int_eq(profdata_writer_close(w), PROFDATA_EIO);
	ck_assert_ptr_nonnull(profdata_writer_error(w));
	profdata_writer_free(w);
}
END_TEST

START_TEST(sniffing_unknown_bytes_fails_clearly)
{
	profdata_reader *r;
	ck_assert_int_eq(profdata_reader_open_memory(&r, "PK\3\4zipzipzip", 14, "a.zip"), 0);
	profdata_profile *p;
	ck_assert_int_lt(profdata_read(&p, r, NULL), 0);
	ck_assert_ptr_null(p);
	ck_assert_ptr_nonnull(strstr(profdata_reader_error(r)->message, "zip"));
	profdata_reader_free(r);
	ck_assert_int_eq(profdata_reader_open_memory(&r, "", 0, "empty"), 0);
	ck_assert_int_lt(profdata_read(&p, r, NULL), 0);
	ck_assert_ptr_nonnull(strstr(profdata_reader_error(r)->message, "empty"));
	profdata_reader_free(r);
}
END_TEST

START_TEST(options_are_checked)
{
	static const char *const known[] = { "id_size", "gzip", NULL };
	pd_diag d;
	pd_diag_init(&d, "t");
	pd_options o;
	ck_assert_int_eq(pd_options_parse(&o, "id_size=4,gzip", known, &d), 0);
	long long v;
	ck_assert_int_eq(pd_options_int(&o, "id_size", 8, 4, 8, &v, &d), 0);
	ck_assert_int_eq(v, 4);
	ck_assert_str_eq(pd_options_get(&o, "gzip"), "");
	pd_options_free(&o);
	ck_assert_int_eq(pd_options_parse(&o, "idsize=4", known, &d), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(pd_diag_last(&d)->message, "idsize"));
	pd_diag_free(&d);
}
END_TEST

START_TEST(version_agrees_with_the_header)
{
	ck_assert_uint_eq(profdata_version_number(), PROFDATA_VERSION_NUMBER);
	ck_assert_str_eq(profdata_version_string(), PROFDATA_VERSION_STRING);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("io");
	TCase *tc = tcase_create("io");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, memory_is_stable_and_whole);
	tcase_add_test(tc, path_is_mapped);
	tcase_add_test(tc, large_mapped_file_reads_through_the_pager);
	tcase_add_test(tc, a_pass_rewound_reads_right_again);
	tcase_add_test(tc, readahead_keeps_the_tail_and_ends_cleanly);
	tcase_add_test(tc, streamed_file_reads_like_the_mapped_one);
	tcase_add_test(tc, pager_releases_behind_a_pass_without_a_thread);
	tcase_add_test(tc, empty_file_is_an_empty_blob);
	tcase_add_test(tc, missing_path_names_the_file);
	tcase_add_test(tc, pipe_streams_through_a_window);
	tcase_add_test(tc, gzip_multi_member_from_path_pipe_and_callbacks);
	tcase_add_test(tc, truncated_gzip_is_an_error_not_a_short_read);
	tcase_add_test(tc, window_grows_only_with_data);
	tcase_add_test(tc, path_writer_renames_only_on_close);
	tcase_add_test(tc, unwritable_path_explains);
	tcase_add_test(tc, replaced_file_keeps_its_mode);
	tcase_add_test(tc, read_only_file_needs_force);
	tcase_add_test(tc, symlink_is_followed_and_stays);
	tcase_add_test(tc, fifo_is_written_through);
	tcase_add_test(tc, device_is_written_through);
	tcase_add_test(tc, temp_path_is_named_until_close);
	tcase_add_test(tc, gzip_output_reads_back);
	tcase_add_test(tc, gzip_output_is_one_member_however_written);
	tcase_add_test(tc, failing_callback_is_an_error);
	tcase_add_test(tc, sniffing_unknown_bytes_fails_clearly);
	tcase_add_test(tc, options_are_checked);
	tcase_add_test(tc, version_agrees_with_the_header);
	tcase_add_test(tc, a_callers_bytes_are_written_as_they_are);
	suite_add_tcase(s, tc);
	return s;
}
