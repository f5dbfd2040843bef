/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the tracexml codec: the decoder permissive and strict, from memory
 * and from a stream of small reads; what was read is written (plain, as
 * fragments, zipped) and must read back strictly, rewriting byte-identically;
 * and the streaming conversion to folded runs the trace -> stack derivation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <profdata/profdata.h>

typedef struct chunks {
	const uint8_t *p;
	size_t n, pos, step;
} chunks;

static long read_chunk(void *payload, void *buf, size_t len)
{
	chunks *c = payload;
	size_t k = c->n - c->pos < c->step ? c->n - c->pos : c->step;
	if (k > len)
		k = len;
	memcpy(buf, c->p + c->pos, k);
	c->pos += k;
	return (long)k;
}

static void *write_as(const profdata_profile *p, const char *format, const char *opts, size_t *len)
{
	profdata_writer *w;
	void *copy = NULL;
	const void *data;
	if (profdata_writer_open_memory(&w) < 0)
		return NULL;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = format;
	o.options = opts;
	if (profdata_write(p, w, &o) == 0 && profdata_writer_close(w) == 0 &&
	    profdata_writer_memory(w, &data, len) == 0 && (copy = malloc(*len ? *len : 1)) != NULL && *len)
		memcpy(copy, data, *len);
	profdata_writer_free(w);
	return copy;
}

static profdata_profile *read_as(const void *data, size_t len, int mode)
{
	profdata_reader *r;
	profdata_profile *p = NULL;
	if (profdata_reader_open_memory(&r, data, len, "fuzz") < 0)
		return NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "tracexml";
	o.mode = mode;
	profdata_read(&p, r, &o);
	profdata_reader_free(r);
	return p;
}

static void round_trip(const profdata_profile *p, const char *opts)
{
	size_t len, len2;
	void *out = write_as(p, "tracexml", opts, &len);
	if (!out && opts && strcmp(opts, "zip=1") == 0)
		return; /* a build without libarchive refuses zip=1 */
	if (!out)
		abort(); /* everything read can be written */
	profdata_profile *q = read_as(out, len, PROFDATA_MODE_PERMISSIVE);
	if (!q)
		abort(); /* our output reads back */
	void *out2 = write_as(q, "tracexml", opts, &len2);
	if (!out2 || len2 != len || memcmp(out, out2, len) != 0)
		abort(); /* and rewrites byte-identically */
	profdata_profile_free(q);
	free(out);
	free(out2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = read_as(data, size, PROFDATA_MODE_PERMISSIVE);
	if (p) {
		round_trip(p, NULL);
		round_trip(p, "fragments=1");
		if (size % 4 == 0)
			round_trip(p, "zip=1");
		size_t len;
		free(write_as(p, "folded", NULL, &len));
		profdata_profile_free(p);
	}
	profdata_profile_free(read_as(data, size, PROFDATA_MODE_STRICT));

	chunks c = { data, size, 0, size % 13 + 1 };
	profdata_reader *r;
	if (profdata_reader_open_callbacks(&r, read_chunk, &c, "fuzz") == 0) {
		profdata_writer *w;
		if (profdata_writer_open_memory(&w) == 0) {
			profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
			o.format = "tracexml";
			profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
			wo.format = "folded";
			profdata_convert(r, &o, w, &wo);
			profdata_writer_free(w);
		}
		profdata_reader_free(r);
	}
	return 0;
}
