/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hostile input: ids crafted to collide under the fixed hashes six tables
 * used before they were seeded (release 0.1.0) must not
 * make their path quadratic. For each path the generator inverts the old
 * hash to put every key in one probe chain, runs that input and a random one
 * of the same size through the public API, and fails when the crafted one
 * takes more than 3x the CPU time of the random one. With the old tables the
 * crafted inputs take seconds (tens of times the random ones); with seeded
 * tables the two are alike.
 *
 * Usage: test-collisions PATH...   (PATH: a name from `paths` below, or "all")
 * A timing test: Meson runs it in its own suite, "hostile", apart from unit tests.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <profdata/profdata.h>

/* Records per input: about a second in all when linear, minutes when quadratic. */
#define RECORDS 60000
/* Crafted may take this many times the random input's time, which is taken as at least FLOOR_S. */
#define MAX_RATIO 3.0
#define FLOOR_S 0.05

/* ---- a growing byte buffer ---- */

typedef struct buf {
	unsigned char *p;
	size_t n, cap;
} buf;

static void put(buf *b, const void *s, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1 << 16;
		while (cap < b->n + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void put_text(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put_text(buf *b, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	put(b, line, (size_t)n);
}

static void put_be(buf *b, uint64_t v, unsigned bytes)
{
	unsigned char x[8];
	for (unsigned i = 0; i < bytes; i++)
		x[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
	put(b, x, bytes);
}

static void put_le64(buf *b, uint64_t v)
{
	unsigned char x[8];
	for (unsigned i = 0; i < 8; i++)
		x[i] = (unsigned char)(v >> (8 * i));
	put(b, x, 8);
}

/* ---- inverting the old hashes ---- */

static uint64_t random_u64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* The inverse of an odd multiplier modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t c)
{
	uint64_t x = c;
	for (int i = 0; i < 6; i++)
		x *= 2 - c * x;
	return x;
}

/* x ^ (x >> s) undone. */
static uint64_t unxorshift(uint64_t y, unsigned s)
{
	uint64_t x = y;
	for (unsigned k = s; k < 64; k += s)
		x = y ^ (x >> s);
	return x;
}

/*
 * ibm-classic/classic.c map_slot (classic CLS addresses and class-id sets in
 * the decoder, the classic encoder's class and string indexes):
 * ((k ^ k >> 33) * 0xff51afd7ed558ccd) ^ ... >> 33, masked. Key i makes
 * (i + 1) << 32: slot 0 in every table below 2^32 slots.
 */
static uint64_t classic_map_key(size_t i)
{
	uint64_t y = (uint64_t)(i + 1) << 32;
	uint64_t x = unxorshift(y, 33) * inverse(0xff51afd7ed558ccdULL);
	return unxorshift(x, 33);
}

/*
 * hprof/encode.c hm_slot and hprof/synth.c slot (HPROF encoder function and
 * class maps, the classic -> HPROF class map): (k * golden) >> 17, masked.
 */
static uint64_t golden_key(size_t i)
{
	return ((uint64_t)(i + 1) << 40) * inverse(0x9E3779B97F4A7C15ULL);
}

/*
 * ibm-classic/decode.c hash_bytes over a 16-byte type name: two words, each
 * h = (h ^ w) * C, h ^= h >> 32. The first word numbers the name; the second
 * brings the state to one value, so every name gets the same 32-bit hash.
 * 0 when that second word would hold a byte that ends a type name.
 */
static int crafted_type_name(size_t i, char name[17])
{
	const uint64_t C = 0xff51afd7ed558ccdULL, target = 0x0123456789ABCDEFULL;
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ 16, w1, w2;
	snprintf(name, 9, "T%07zx", i);
	memcpy(&w1, name, 8);
	h = (h ^ w1) * C;
	h ^= h >> 32;
	w2 = (unxorshift(target, 32) * inverse(C)) ^ h;
	memcpy(name + 8, &w2, 8);
	name[16] = 0;
	for (int k = 8; k < 16; k++)
		if (strchr(" \t\r\n", name[k]) || name[k] == 0)
			return 0;
	return 1;
}

/*
 * gperftools.c gp_chain_hash over a two-PC chain: gp_mix(h, v) = ((h ^ v) *
 * golden) ^ >> 29, from gp_mix(0x243F6A8885A308D3, n). The second PC brings
 * every chain to one hash.
 */
static uint64_t gperftools_mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9E3779B97F4A7C15ULL;
	return h ^ (h >> 29);
}

static uint64_t crafted_second_pc(uint64_t pc1)
{
	uint64_t h = gperftools_mix(gperftools_mix(0x243F6A8885A308D3ULL, 2), pc1);
	return (unxorshift(0x0123456789ABCDEFULL, 29) * inverse(0x9E3779B97F4A7C15ULL)) ^ h;
}

/* ---- inputs ---- */

typedef uint64_t (*key_fn)(size_t i);

/* Class ids: crafted by `key`, or random (even, as addresses are). */
static uint64_t class_id(key_fn key, size_t i, uint64_t *rng)
{
	uint64_t v = 0;
	if (key)
		return key(i);
	while (v == 0)
		v = random_u64(rng) & ~(uint64_t)7;
	return v;
}

/* An IBM classic heapdump of RECORDS CLS records. */
static void classic_classes(buf *b, key_fn key, uint64_t *rng)
{
	put_text(b, "// Version: JRE 1.8.0 Linux amd64-64-Bit Compressed References (test-collisions)\n");
	for (size_t i = 0; i < RECORDS; i++)
		put_text(b, "0x%016llX [16] CLS C%zu\n\t\n", (unsigned long long)class_id(key, i, rng), i);
	put_text(b, "// Breakdown - Classes: %d, Objects: 0, ObjectArrays: 0, PrimitiveArrays: 0\n", RECORDS);
	put_text(b, "// EOF:  Total 'Objects',Refs(null) : %d,0(0)\n", RECORDS);
}

static void classic_cls_crafted(buf *b, uint64_t *rng)
{
	classic_classes(b, classic_map_key, rng);
}

static void classic_cls_golden(buf *b, uint64_t *rng)
{
	classic_classes(b, golden_key, rng);
}

static void classic_cls_random(buf *b, uint64_t *rng)
{
	classic_classes(b, NULL, rng);
}

/* An IBM classic heapdump of RECORDS objects, each of its own 16-byte type. */
static void classic_types(buf *b, int crafted, uint64_t *rng)
{
	put_text(b, "// Version: JRE 1.8.0 Linux amd64-64-Bit Compressed References (test-collisions)\n");
	size_t made = 0;
	for (size_t i = 0; made < RECORDS; i++) {
		char name[17];
		if (crafted) {
			if (!crafted_type_name(i, name))
				continue;
		} else {
			for (int k = 0; k < 16; k++)
				name[k] = (char)('a' + random_u64(rng) % 26);
			name[16] = 0;
		}
		put_text(b, "0x%016llX [16] OBJ ", (unsigned long long)(0x10000000ULL + 16 * made));
		put(b, name, 16);
		put_text(b, "\n\t\n");
		made++;
	}
	put_text(b, "// Breakdown - Classes: 0, Objects: %d, ObjectArrays: 0, PrimitiveArrays: 0\n", RECORDS);
	put_text(b, "// EOF:  Total 'Objects',Refs(null) : %d,0(0)\n", RECORDS);
}

static void classic_types_crafted(buf *b, uint64_t *rng)
{
	classic_types(b, 1, rng);
}

static void classic_types_random(buf *b, uint64_t *rng)
{
	classic_types(b, 0, rng);
}

/* A 64-bit little-endian gperftools CPU profile of RECORDS distinct two-PC chains. */
static void gperftools_chains(buf *b, int crafted, uint64_t *rng)
{
	static const uint64_t header[] = { 0, 3, 0, 10000, 0 };
	for (size_t i = 0; i < 5; i++)
		put_le64(b, header[i]);
	for (size_t i = 0; i < RECORDS; i++) {
		uint64_t pc1 = 0x400000 + 16 * (uint64_t)i;
		put_le64(b, 1);
		put_le64(b, 2);
		put_le64(b, pc1);
		put_le64(b, crafted ? crafted_second_pc(pc1) : random_u64(rng));
	}
	put_le64(b, 0);
	put_le64(b, 1);
	put_le64(b, 0);
}

static void gperftools_crafted(buf *b, uint64_t *rng)
{
	gperftools_chains(b, 1, rng);
}

static void gperftools_random(buf *b, uint64_t *rng)
{
	gperftools_chains(b, 0, rng);
}

static void hprof_header(buf *b)
{
	put(b, "JAVA PROFILE 1.0.2", 19);
	put_be(b, 8, 4);
	put_be(b, 0, 8);
}

static void hprof_record(buf *b, unsigned tag, uint32_t len)
{
	put_be(b, tag, 1);
	put_be(b, 0, 4);
	put_be(b, len, 4);
}

/* An HPROF file of RECORDS STACK FRAMEs, their ids crafted by `key` or random. */
static void hprof_frames(buf *b, key_fn key, uint64_t *rng)
{
	hprof_header(b);
	hprof_record(b, 0x01, 8 + 4);
	put_be(b, 1, 8);
	put(b, "main", 4);
	for (size_t i = 0; i < RECORDS; i++) {
		hprof_record(b, 0x04, 4 * 8 + 8);
		put_be(b, class_id(key, i, rng), 8);
		put_be(b, 1, 8); /* name */
		put_be(b, 0, 8);
		put_be(b, 0, 8);
		put_be(b, 0, 4);
		put_be(b, (uint32_t)i, 4);
	}
}

static void hprof_frames_crafted(buf *b, uint64_t *rng)
{
	hprof_frames(b, golden_key, rng);
}

static void hprof_frames_random(buf *b, uint64_t *rng)
{
	hprof_frames(b, NULL, rng);
}

/* An HPROF heap dump of RECORDS classes (names, LOAD CLASS, CLASS DUMP), ids crafted by `key` or random. */
static void hprof_classes(buf *b, key_fn key, uint64_t *rng)
{
	uint64_t *ids = malloc(RECORDS * sizeof *ids);
	const uint32_t class_dump_len = 1 + 8 + 4 + 6 * 8 + 4 + 3 * 2;
	hprof_header(b);
	for (size_t i = 0; i < RECORDS; i++) {
		char name[32];
		int n = snprintf(name, sizeof name, "C%zu", i);
		ids[i] = class_id(key, i, rng);
		hprof_record(b, 0x01, 8 + (uint32_t)n);
		put_be(b, 0x100000 + i, 8);
		put(b, name, (size_t)n);
		hprof_record(b, 0x02, 4 + 8 + 4 + 8);
		put_be(b, i + 1, 4);
		put_be(b, ids[i], 8);
		put_be(b, 0, 4);
		put_be(b, 0x100000 + i, 8);
	}
	hprof_record(b, 0x1C, RECORDS * class_dump_len);
	for (size_t i = 0; i < RECORDS; i++) {
		put_be(b, 0x20, 1);
		put_be(b, ids[i], 8);
		put_be(b, 0, 4);
		for (int k = 0; k < 6; k++)
			put_be(b, 0, 8);
		put_be(b, 0, 4);
		put_be(b, 0, 6);
	}
	hprof_record(b, 0x2C, 0);
	free(ids);
}

static void hprof_classes_crafted(buf *b, uint64_t *rng)
{
	hprof_classes(b, classic_map_key, rng);
}

static void hprof_classes_random(buf *b, uint64_t *rng)
{
	hprof_classes(b, NULL, rng);
}

/* ---- the paths ---- */

typedef struct path {
	const char *name;
	const char *what;
	void (*crafted)(buf *b, uint64_t *rng);
	void (*random)(buf *b, uint64_t *rng);
	const char *to;       /* convert into this format; NULL: read into a model */
	profdata_table table; /* reading: the table that must hold a row per record */
} path;

/*
 * gperftools-call-chains, hprof-encoder-frame-ids and classic-hprof-class-map
 * pass once the gperftools decoder, the HPROF encoder and hprof/synth.c use
 * the seeded maps (other branches); tests/meson.build lists them apart until then.
 */
static const path paths[] = {
	{ "classic-cls-addresses", "IBM classic decoder, CLS addresses", classic_cls_crafted, classic_cls_random,
	  NULL, PROFDATA_TABLE_CLASSES },
	{ "classic-type-names", "IBM classic decoder, type names", classic_types_crafted, classic_types_random, NULL,
	  PROFDATA_TABLE_CLASSES },
	{ "gperftools-call-chains", "gperftools decoder, call chains", gperftools_crafted, gperftools_random, NULL,
	  PROFDATA_TABLE_STACKS },
	{ "hprof-encoder-frame-ids", "HPROF -> HPROF, the encoder's frame ids", hprof_frames_crafted,
	  hprof_frames_random, "hprof", PROFDATA_TABLE_COUNT_ },
	{ "classic-encoder-class-ids", "HPROF -> IBM classic, the encoder's class ids", hprof_classes_crafted,
	  hprof_classes_random, "ibm-classic", PROFDATA_TABLE_COUNT_ },
	{ "classic-hprof-class-map", "IBM classic -> HPROF, the class map", classic_cls_golden, classic_cls_random,
	  "hprof", PROFDATA_TABLE_COUNT_ },
};

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * CPU seconds to read (or convert) `in`; negative when it fails. *rows gets
 * the rows of p->table (or the bytes written), which must be what a random
 * input gives: a crafted input dropped as damaged would be fast for nothing.
 */
static double run_once(const path *p, const buf *in, size_t *rows)
{
	profdata_reader *r = NULL;
	profdata_writer *w = NULL;
	profdata_read_options ro = PROFDATA_READ_OPTIONS_INIT;
	int rc;
	double t0;

	if (profdata_reader_open_memory(&r, in->p, in->n, p->name) != 0)
		return -1;
	t0 = cpu_seconds();
	if (p->to) {
		profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
		wo.format = p->to;
		rc = profdata_writer_open_memory(&w);
		if (rc == 0)
			rc = profdata_convert(r, &ro, w, &wo);
		if (rc == 0)
			rc = profdata_writer_close(w);
		const void *data;
		if (rc == 0 && profdata_writer_memory(w, &data, rows) != 0)
			*rows = 0;
	} else {
		profdata_profile *model = NULL;
		rc = profdata_read(&model, r, &ro);
		*rows = model ? profdata_profile_count(model, p->table) : 0;
		profdata_profile_free(model);
	}
	t0 = cpu_seconds() - t0;
	if (rc != 0) {
		const profdata_error *e = profdata_reader_error(r);
		if (!e && w)
			e = profdata_writer_error(w);
		fprintf(stderr, "%s: %s\n", p->name, e ? e->message : profdata_strerror(rc));
		t0 = -1;
	}
	if (w)
		profdata_writer_free(w);
	profdata_reader_free(r);
	return t0;
}

/* The faster of two runs: a loaded machine slows runs down, never speeds them up. */
static double run_best(const path *p, const buf *in, size_t *rows)
{
	double a = run_once(p, in, rows), b;
	if (a < 0)
		return a;
	b = run_once(p, in, rows);
	return b >= 0 && b < a ? b : a;
}

static int check_path(const path *p)
{
	buf crafted = { 0 }, random = { 0 };
	uint64_t rng = 0x5EED;
	double tr, tc, limit;
	size_t rows_random = 0, rows_crafted = 0;
	int ok;

	p->crafted(&crafted, &rng);
	p->random(&random, &rng);
	tr = run_best(p, &random, &rows_random);
	tc = tr < 0 ? -1 : run_once(p, &crafted, &rows_crafted);
	limit = MAX_RATIO * (tr > FLOOR_S ? tr : FLOOR_S);
	if (tc > limit) /* once more before failing: the machine may have been busy */
		tc = run_once(p, &crafted, &rows_crafted);
	ok = tr >= 0 && tc >= 0 && tc <= limit && rows_crafted == rows_random && rows_random > 0;
	printf("%-26s %-46s random %.3f s, crafted %.3f s (%zu and %zu %s): %s\n", p->name, p->what, tr, tc,
	       rows_random, rows_crafted, p->to ? "bytes out" : "rows", ok ? "ok" : "FAIL");
	free(crafted.p);
	free(random.p);
	return ok;
}

int main(int argc, char **argv)
{
	size_t npaths = sizeof paths / sizeof paths[0];
	int failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s all|PATH...\npaths:", argv[0]);
		for (size_t i = 0; i < npaths; i++)
			fprintf(stderr, " %s", paths[i].name);
		fprintf(stderr, "\n");
		return 2;
	}
	for (int a = 1; a < argc; a++) {
		int found = 0;
		for (size_t i = 0; i < npaths; i++) {
			if (strcmp(argv[a], "all") != 0 && strcmp(argv[a], paths[i].name) != 0)
				continue;
			found = 1;
			failed += !check_path(&paths[i]);
		}
		if (!found) {
			fprintf(stderr, "%s: no such path\n", argv[a]);
			return 2;
		}
	}
	return failed ? 1 : 0;
}
