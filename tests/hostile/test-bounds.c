/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hostile input: what a conversion may cost is bounded by its input.
 *
 * Each case runs in a child process, whose peak RSS (ru_maxrss) the parent
 * checks against MAX_RSS_KB:
 *
 * - amplification: classic heapdumps whose stated sizes or reference lists
 *   ask the HPROF encoder for gigabytes of zeros (the 27-byte
 *   `0x1000 [4294967000] OBJ [B`, three such lines, one instance listing
 *   65,535 references with 20,000 more of its class) fail fast, streaming,
 *   as version=1.0.1, as version=source and through the model;
 * - within-bound: a 150 MB array, allowed by max_synthesized, written as a
 *   1.0.1 HEAP DUMP (one record whose length comes first) in bounded memory;
 * - stream-histogram: a gzip stream of an HPROF holding one 512 MiB byte
 *   array, made and compressed on the fly, histograms without holding it;
 * - stream-check: the same stream sniffed and read strictly into the model
 *   as `profdata check` reads it (primitive_data=0), without holding it.
 * - shrinking-input: a mapped file truncated by someone else between the
 *   read and the reference count, or between opening and reading, takes the
 *   host down with no SIGBUS (include/profdata/io.h: the guard).
 *
 * Usage: test-bounds CASE...   (CASE: a name from `cases` below, or "all")
 */
#define _DEFAULT_SOURCE /* wait4 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <profdata/profdata.h>

#if PD_TEST_ZLIB
#include <zlib.h>
#endif

#define MAX_RSS_KB (100L * 1024)

/* ---- a growing text buffer ---- */

typedef struct text {
	char *p;
	size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		if (t->p && (size_t)n < t->cap - t->n) {
			t->n += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 1 << 16;
		while (cap < t->n + (size_t)n + 1)
			cap *= 2;
		if (!(t->p = realloc(t->p, cap))) {
			fprintf(stderr, "out of memory\n");
			exit(2);
		}
		t->cap = cap;
	}
}

/* ---- conversions ---- */

typedef enum way { STREAM, VERSION_101, VERSION_SOURCE, VIA_MODEL } way;
static const char *const way_names[] = { "streaming", "version=1.0.1", "version=source", "via the model" };

/* Convert classic text to HPROF in `out`; the library's result code, its message in msg. */
static int convert(const text *in, way how, const char *extra, const char *out, char *msg, size_t msg_len)
{
	profdata_reader *r;
	profdata_writer *w;
	profdata_read_options ro = PROFDATA_READ_OPTIONS_INIT;
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	char options[256];
	int e;

	snprintf(options, sizeof options, "%s%s%s", how == VERSION_101 ? "version=1.0.1" : how == VERSION_SOURCE ? "version=source" : "",
	         extra && *extra && (how == VERSION_101 || how == VERSION_SOURCE) ? "," : "", extra ? extra : "");
	wo.format = "hprof";
	wo.options = options;
	if (profdata_reader_open_memory(&r, in->p, in->n, "input") != 0 || profdata_writer_open_path(&w, out) != 0)
		return -1000;
	if (how == VIA_MODEL) {
		profdata_profile *p = NULL;
		e = profdata_read(&p, r, &ro);
		if (e == 0)
			e = profdata_write(p, w, &wo);
		profdata_profile_free(p);
	} else {
		e = profdata_convert(r, &ro, w, &wo);
	}
	if (e == 0)
		e = profdata_writer_close(w);
	const profdata_error *err = profdata_writer_error(w);
	if (!err)
		err = profdata_reader_error(r);
	snprintf(msg, msg_len, "%s", err && err->message ? err->message : "");
	profdata_writer_free(w);
	profdata_reader_free(r);
	return e;
}

/* ---- running a case in a child ---- */

/* A case returns 1 (passed), 0 (failed) or CASE_SKIPPED (this build cannot run it; said why). */
typedef int (*case_fn)(const char *dir);
#define CASE_SKIPPED 77

/* Run fn in a child; 1 when it passed within MAX_RSS_KB, CASE_SKIPPED, else 0. */
static int in_child(const char *name, case_fn fn, const char *dir)
{
	struct rusage ru;
	int status;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		int ok = fn(dir);
		fflush(NULL);
		_exit(ok == CASE_SKIPPED ? CASE_SKIPPED : ok ? 0 : 1);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (WIFEXITED(status) && WEXITSTATUS(status) == CASE_SKIPPED) {
		printf("%s: skipped\n", name);
		return CASE_SKIPPED;
	}
	int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	printf("%s: %s, %.2f s, peak RSS %ld KB (at most %ld)%s\n", name, ok ? "passed" : "FAILED", s, ru.ru_maxrss,
	       MAX_RSS_KB, WIFSIGNALED(status) ? " (killed by a signal)" : "");
	return ok && ru.ru_maxrss <= MAX_RSS_KB;
}

/* ---- amplification ---- */

static void one_line(text *t) { put(t, "0x1000 [4294967000] OBJ [B\n"); }

static void three_lines(text *t)
{
	put(t, "0x1000 [4294967000] OBJ [B\n0x2000 [4294967000] OBJ [B\n0x3000 [4294967000] OBJ [B\n");
}

/* One instance listing 65,535 references, 20,000 more of its class: every one gets 65,535 fields. */
static void wide_class(text *t)
{
	put(t, "// Version: JRE 1.8.0 Linux amd64-64 build\n0x10000 [24] OBJ Wide\n\t");
	for (int i = 0; i < 65535; i++)
		put(t, "0x10000 ");
	put(t, "\n");
	for (int i = 0; i < 20000; i++)
		put(t, "0x%x [24] OBJ Wide\n\t\n", 0x1000000 + 32 * i);
	put(t, "0x500 [100] CLS Wide\n\t\n");
}

static int amplification_fails(const char *dir)
{
	void (*inputs[])(text *) = { one_line, three_lines, wide_class };
	const char *input_names[] = { "27-byte line", "three lines", "wide class" };
	char out[4096], msg[1024];
	int ok = 1;
	snprintf(out, sizeof out, "%s/out.hprof", dir);
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		text t = { 0 };
		inputs[i](&t);
		for (way how = STREAM; how <= VIA_MODEL; how++) {
			int e = convert(&t, how, NULL, out, msg, sizeof msg);
			struct stat st;
			int left = stat(out, &st) == 0;
			if (e != PROFDATA_ERANGE || !strstr(msg, "max_synthesized") || left) {
				printf("  %s, %s: got %d (%s)%s, expected the bound's error\n", input_names[i], way_names[how], e, msg,
				       left ? ", and an output file" : "");
				ok = 0;
			}
		}
		free(t.p);
	}
	printf("  e.g.: %s\n", msg);
	return ok;
}

/* What the bound allows is written, and a 1.0.1 HEAP DUMP of it stays out of memory. */
static int within_bound(const char *dir)
{
	char out[4096], msg[1024];
	text t = { 0 };
	struct stat st;
	int ok = 1;
	snprintf(out, sizeof out, "%s/out.hprof", dir);
	put(&t, "0x1000 [150000000] OBJ [B\n");
	for (way how = STREAM; how <= VIA_MODEL; how++) {
		int e = convert(&t, how, "max_synthesized=200000000", out, msg, sizeof msg);
		if (e != 0 || stat(out, &st) != 0 || st.st_size < 150000000) {
			printf("  %s: got %d (%s)\n", way_names[how], e, msg);
			ok = 0;
		}
		unlink(out);
	}
	free(t.p);
	return ok;
}

/* ---- a gzip'd HPROF with one large byte array, made as it is read ---- */

#if PD_TEST_ZLIB
#define BIG_ARRAY (UINT32_C(512) << 20)

typedef struct big_stream {
	unsigned char head[64], tail[9];
	size_t head_len;
	uint64_t pos, total; /* of the uncompressed HPROF */
	z_stream z;
	int finished;
	unsigned char in[65536];
} big_stream;

static void be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16), p[2] = (unsigned char)(v >> 8),
	p[3] = (unsigned char)v;
}

static void big_stream_init(big_stream *b)
{
	unsigned char *p = b->head;
	memset(b, 0, sizeof *b);
	memcpy(p, "JAVA PROFILE 1.0.2", 19);
	p += 19;
	be32(p, 8), be32(p + 4, 0), be32(p + 8, 0);
	p += 12;
	/* HEAP DUMP SEGMENT holding one PRIMITIVE ARRAY DUMP of bytes */
	p[0] = 0x1C, be32(p + 1, 0), be32(p + 5, 1 + 8 + 4 + 4 + 1 + BIG_ARRAY);
	p += 9;
	p[0] = 0x23, memset(p + 1, 0, 8), p[8] = 0x10, be32(p + 9, 1), be32(p + 13, BIG_ARRAY), p[17] = 8;
	p += 18;
	b->head_len = (size_t)(p - b->head);
	b->tail[0] = 0x2C; /* HEAP DUMP END */
	b->total = b->head_len + BIG_ARRAY + sizeof b->tail;
	deflateInit2(&b->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/* The uncompressed bytes at b->pos: header, zeros, HEAP DUMP END. */
static size_t big_plain(big_stream *b)
{
	size_t n = 0;
	while (n < sizeof b->in && b->pos < b->total) {
		uint64_t at = b->pos;
		if (at < b->head_len)
			b->in[n] = b->head[at];
		else if (at < b->head_len + BIG_ARRAY)
			b->in[n] = 0;
		else
			b->in[n] = b->tail[at - b->head_len - BIG_ARRAY];
		n++, b->pos++;
	}
	return n;
}

static long big_read(void *payload, void *buf, size_t len)
{
	big_stream *b = payload;
	if (b->finished)
		return 0;
	b->z.next_out = buf;
	b->z.avail_out = (uInt)(len > (1u << 30) ? 1u << 30 : len);
	while (b->z.avail_out > 0 && !b->finished) {
		if (b->z.avail_in == 0) {
			b->z.avail_in = (uInt)big_plain(b);
			b->z.next_in = b->in;
		}
		int rc = deflate(&b->z, b->pos < b->total || b->z.avail_in ? Z_NO_FLUSH : Z_FINISH);
		if (rc == Z_STREAM_END)
			b->finished = 1;
		else if (rc != Z_OK && rc != Z_BUF_ERROR)
			return -1;
	}
	return (long)((unsigned char *)b->z.next_out - (unsigned char *)buf);
}

/* A reader of the big stream; NULL (and *b NULL) when it cannot be had. */
static profdata_reader *big_stream_open(big_stream **b)
{
	profdata_reader *r = NULL;
	*b = malloc(sizeof **b);
	if (!*b)
		return NULL;
	big_stream_init(*b);
	if (profdata_reader_open_callbacks(&r, big_read, *b, "big.hprof.gz") != 0) {
		deflateEnd(&(*b)->z);
		free(*b);
		*b = NULL;
		return NULL;
	}
	return r;
}

static void big_stream_close(profdata_reader *r, big_stream *b)
{
	profdata_reader_free(r);
	deflateEnd(&b->z);
	free(b);
}

static int stream_histogram(const char *dir)
{
	big_stream *b;
	profdata_reader *r = big_stream_open(&b);
	profdata_histogram *h = NULL;
	(void)dir;
	if (!r)
		return 0;
	int e = profdata_histogram_read(&h, r, NULL, PROFDATA_HISTOGRAM_ALL_DUMPS);
	int ok = e == 0 && profdata_reader_is_gzip(r) && profdata_histogram_total_instances(h) == 1 &&
	         profdata_histogram_total_bytes(h) >= BIG_ARRAY;
	if (!ok)
		printf("  got %d (%s), %llu instances, %llu bytes\n", e,
		       profdata_reader_error(r) ? profdata_reader_error(r)->message : "",
		       h ? (unsigned long long)profdata_histogram_total_instances(h) : 0ULL,
		       h ? (unsigned long long)profdata_histogram_total_bytes(h) : 0ULL);
	profdata_histogram_free(h);
	big_stream_close(r, b);
	return ok;
}

/* As `profdata check` reads a stream: the format sniffed from the reader, then the model, strictly. */
static int stream_check(const char *dir)
{
	big_stream *b;
	profdata_reader *r = big_stream_open(&b);
	profdata_profile *p = NULL;
	const profdata_format *f = NULL;
	(void)dir;
	if (!r)
		return 0;
	int e = profdata_reader_sniff(r, &f);
	int ok = e == 0 && strcmp(profdata_format_name(f), "hprof") == 0;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.mode = PROFDATA_MODE_STRICT;
	o.options = "primitive_data=0";
	if (ok)
		e = profdata_read(&p, r, &o);
	profdata_object obj;
	ok = ok && e == 0 && profdata_profile_count(p, PROFDATA_TABLE_OBJECTS) == 1 &&
	     profdata_profile_object(p, 0, &obj) == 0 && obj.length == BIG_ARRAY;
	if (!ok)
		printf("  got %d (%s)\n", e, profdata_reader_error(r) ? profdata_reader_error(r)->message : "");
	profdata_profile_free(p);
	big_stream_close(r, b);
	return ok;
}
#else
static int stream_histogram(const char *dir)
{
	(void)dir;
	printf("  built without zlib: no gzip stream to make\n");
	return CASE_SKIPPED;
}

static int stream_check(const char *dir)
{
	return stream_histogram(dir);
}
#endif

/* ---- a mapped input that shrinks ---- */

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	char b[65536];
	size_t n;
	int ok = in && out;
	while (ok && (n = fread(b, 1, sizeof b, in)) > 0)
		ok = fwrite(b, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = 0;
	return ok;
}

static int shrinking_input(const char *dir)
{
	char path[4096];
	profdata_reader *r;
	profdata_profile *p = NULL;
	int ok = 1;
	snprintf(path, sizeof path, "%s/shrinks.hprof", dir);
	if (!copy_file(PD_SOURCE_ROOT "/tests/data/hprof/jdk17-minimal.hprof", path))
		return 0;
	/* Read, then the file is cut to a page: the model's payloads past it are gone. */
	if (profdata_reader_open_path(&r, path) != 0 || profdata_read(&p, r, NULL) != 0)
		return 0;
	uint64_t before = profdata_profile_reference_count(p);
	if (truncate(path, 4096) != 0)
		return 0;
	uint64_t after = profdata_profile_reference_count(p);
	printf("  references: %llu before the cut, %llu after (what was cut reads as zeros)\n",
	       (unsigned long long)before, (unsigned long long)after);
	ok = before > 0 && after < before;
	profdata_profile_free(p);
	profdata_reader_free(r);
	/* Opened (mapped), then cut before reading: a clean error. */
	if (!copy_file(PD_SOURCE_ROOT "/tests/data/hprof/jdk17-minimal.hprof", path) ||
	    profdata_reader_open_path(&r, path) != 0 || truncate(path, 100) != 0)
		return 0;
	p = NULL;
	int e = profdata_read(&p, r, NULL);
	const profdata_error *err = profdata_reader_error(r);
	printf("  read after the cut: %d (%s)\n", e, err ? err->message : "");
	ok = ok && e == PROFDATA_EIO && !p;
	profdata_profile_free(p);
	profdata_reader_free(r);
	unlink(path);
	return ok;
}

/* ---- main ---- */

static const struct {
	const char *name;
	case_fn fn;
} cases[] = {
	{ "amplification", amplification_fails },
	{ "within-bound", within_bound },
	{ "stream-histogram", stream_histogram },
	{ "stream-check", stream_check },
	{ "shrinking-input", shrinking_input },
};

int main(int argc, char **argv)
{
	size_t ncases = sizeof cases / sizeof cases[0];
	char dir[] = "/tmp/test-bounds-XXXXXX";
	int failed = 0, ran = 0, skipped = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s all|CASE...\ncases:", argv[0]);
		for (size_t i = 0; i < ncases; i++)
			fprintf(stderr, " %s", cases[i].name);
		fprintf(stderr, "\n");
		return 2;
	}
	if (!mkdtemp(dir))
		return 2;
	for (int a = 1; a < argc; a++) {
		int found = 0;
		for (size_t i = 0; i < ncases; i++) {
			if (strcmp(argv[a], "all") != 0 && strcmp(argv[a], cases[i].name) != 0)
				continue;
			found = 1;
			int rc = in_child(cases[i].name, cases[i].fn, dir);
			ran++;
			skipped += rc == CASE_SKIPPED;
			failed += rc == 0;
		}
		if (!found) {
			fprintf(stderr, "%s: no such case\n", argv[a]);
			failed++;
		}
	}
	rmdir(dir);
	return failed ? 1 : ran > 0 && skipped == ran ? CASE_SKIPPED : 0;
}
