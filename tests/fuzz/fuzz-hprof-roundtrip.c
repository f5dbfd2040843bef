/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HPROF round trips (fuzz-hprof has the decoder alone, and is the fast
 * one): decode strictly as a stream of small reads with no consumer, decode
 * from memory into the model in permissive mode, and write back what was
 * read: that must read back and write again unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <profdata/profdata.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct feed {
	const uint8_t *p;
	size_t len, pos;
} feed;

static long feed_read(void *payload, void *buf, size_t len)
{
	feed *f = payload;
	size_t n = f->len - f->pos;
	if (n > len)
		n = len;
	if (n > 7)
		n = 7 + f->pos % 61;
	if (n > f->len - f->pos)
		n = f->len - f->pos;
	memcpy(buf, f->p + f->pos, n);
	f->pos += n;
	return (long)n;
}

/* A zero-length HEAP DUMP or SEGMENT is ambiguous when read permissively (see lib/codecs/hprof/README). */
static int has_zero_length_heap_record(const unsigned char *p, size_t n)
{
	size_t pos = 0;
	while (pos < n && p[pos])
		pos++;
	pos += 13;
	while (pos + 9 <= n) {
		uint32_t len = ((uint32_t)p[pos + 5] << 24) | ((uint32_t)p[pos + 6] << 16) | ((uint32_t)p[pos + 7] << 8) |
		               p[pos + 8];
		if ((p[pos] == 0x0C || p[pos] == 0x1C) && len == 0)
			return 1;
		pos += 9 + (size_t)len;
	}
	return 0;
}

static profdata_profile *read_memory(const void *data, size_t size)
{
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	if (profdata_reader_open_memory(&r, data, size, "fuzz") != 0)
		return NULL;
	o.format = "hprof";
	o.mode = PROFDATA_MODE_PERMISSIVE;
	profdata_read(&p, r, &o);
	profdata_reader_free(r);
	return p;
}

/* Write p as HPROF (version=source) into a malloc'd buffer; NULL when the writer refuses. */
static unsigned char *write_hprof(const profdata_profile *p, size_t *len)
{
	profdata_writer *w;
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	const void *out;
	unsigned char *copy = NULL;
	wo.format = "hprof";
	wo.options = "version=source";
	if (profdata_writer_open_memory(&w) != 0)
		return NULL;
	if (profdata_write(p, w, &wo) == 0 && profdata_writer_close(w) == 0 &&
	    profdata_writer_memory(w, &out, len) == 0) {
		copy = malloc(*len ? *len : 1);
		if (copy)
			memcpy(copy, out, *len);
	}
	profdata_writer_free(w);
	return copy;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_events none;
	profdata_events_init(&none, sizeof none);
	profdata_profile *p, *q, *q2;
	unsigned char *b1, *b2;
	size_t l1, l2;
	feed f = { data, size, 0 };

	if (profdata_reader_open_callbacks(&r, feed_read, &f, "fuzz-stream") == 0) {
		o.format = "hprof";
		o.mode = PROFDATA_MODE_STRICT;
		profdata_decode(r, &o, &none, NULL);
		profdata_reader_free(r);
	}

	/*
	 * What profdata writes, it reads back to the same model and writes
	 * again to the same bytes. The first rewrite may reorder: the model
	 * replays in its own order (loads before dumps, class dumps in class
	 * order), so the check starts from the second generation.
	 */
	p = read_memory(data, size);
	b1 = p ? write_hprof(p, &l1) : NULL;
	q = b1 && !has_zero_length_heap_record(b1, l1) ? read_memory(b1, l1) : NULL;
	b2 = q ? write_hprof(q, &l2) : NULL;
	if (b2 && !has_zero_length_heap_record(b2, l2)) {
		unsigned char *b3;
		size_t l3;
		q2 = read_memory(b2, l2);
		if (!q2 || !profdata_profile_equal(q, q2, NULL, 0))
			abort();
		b3 = write_hprof(q2, &l3);
		if (!b3 || l3 != l2 || memcmp(b2, b3, l2) != 0)
			abort();
		free(b3);
		profdata_profile_free(q2);
	}
	free(b2);
	profdata_profile_free(q);
	free(b1);
	profdata_profile_free(p);
	return 0;
}
