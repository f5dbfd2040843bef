/*
 * libFuzzer target for the HPROF decoder (and, on what it accepts, the
 * encoder): decode from memory into the model in permissive mode, decode
 * strictly as a stream of small reads with no consumer, and write back what
 * was read: reading that again must give the same model.
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

/*
 * The model replays top-level unknown records before the dumps, and compares
 * all unknown records as one sequence: a model with both kinds, interleaved,
 * does not come back in the same order.
 */
static int has_unknown_in_dump(const profdata_profile *p)
{
	size_t i;
	for (i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN); i++) {
		profdata_unknown u;
		if (profdata_profile_unknown(p, i, &u) == 0 && u.in_dump)
			return 1;
	}
	return 0;
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_events none = PROFDATA_EVENTS_INIT;
	profdata_profile *p;
	feed f = { data, size, 0 };

	if (profdata_reader_open_callbacks(&r, feed_read, &f, "fuzz-stream") == 0) {
		o.format = "hprof";
		o.mode = PROFDATA_MODE_STRICT;
		profdata_decode(r, &o, &none, NULL);
		profdata_reader_free(r);
	}

	p = read_memory(data, size);
	/* Only the versions the encoder writes can come back unchanged. */
	if (p && profdata_profile_meta(p)->version &&
	    strncmp(profdata_profile_meta(p)->version, "JAVA PROFILE 1.0.", 17) == 0 &&
	    profdata_profile_meta(p)->version[17] >= '1' && profdata_profile_meta(p)->version[17] <= '3' && profdata_profile_meta(p)->version[18] == '\0' &&
	    !has_unknown_in_dump(p)) {
		profdata_writer *w;
		profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
		const void *out;
		size_t out_len;
		wo.format = "hprof";
		wo.options = "version=source";
		if (profdata_writer_open_memory(&w) == 0) {
			if (profdata_write(p, w, &wo) == 0 && profdata_writer_close(w) == 0 &&
			    profdata_writer_memory(w, &out, &out_len) == 0 && !has_zero_length_heap_record(out, out_len)) {
				profdata_profile *q = read_memory(out, out_len);
				if (!q || !profdata_profile_equal(p, q, NULL, 0))
					abort();
				profdata_profile_free(q);
			}
			profdata_writer_free(w);
		}
	}
	profdata_profile_free(p);
	return 0;
}
