/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the fuzz targets share: a source that hands the input over in small,
 * uneven reads (a stream without a stable span: the decoders' window paths),
 * reads into the model, and writes into memory.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <profdata/profdata.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fuzz_feed {
	const uint8_t *p;
	size_t len, pos, step;
} fuzz_feed;

/* Reads of 1..step bytes, varying with the position. */
static inline long fuzz_feed_read(void *payload, void *buf, size_t len)
{
	fuzz_feed *f = payload;
	size_t n = f->len - f->pos;
	size_t step = f->step ? 1 + f->pos % f->step : n;
	if (n > step)
		n = step;
	if (n > len)
		n = len;
	memcpy(buf, f->p + f->pos, n);
	f->pos += n;
	return (long)n;
}

static inline int fuzz_count_object(void *payload, const profdata_object *o)
{
	(void)o;
	++*(size_t *)payload;
	return 0;
}

/* Read data as `format` (NULL: sniff) into a profile; NULL when it does not read. */
static inline profdata_profile *fuzz_read(const void *data, size_t size, const char *format, int mode,
                                          const char *options)
{
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_profile *p = NULL;
	if (profdata_reader_open_memory(&r, data, size, "fuzz") != 0)
		return NULL;
	o.format = format;
	o.mode = mode;
	o.options = options;
	if (profdata_read(&p, r, &o) != 0)
		p = NULL;
	profdata_reader_free(r);
	return p;
}

/* Decode data as `format`, strictly, from a stream of small reads, into a consumer that counts objects. */
static inline int fuzz_decode_stream(const void *data, size_t size, const char *format, size_t step)
{
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_events ev;
	fuzz_feed f = { data, size, 0, step };
	size_t n = 0;
	int e;
	if (profdata_reader_open_callbacks(&r, fuzz_feed_read, &f, "fuzz-stream") != 0)
		return -1;
	o.format = format;
	o.mode = PROFDATA_MODE_STRICT;
	profdata_events_init(&ev, sizeof ev);
	ev.object = fuzz_count_object;
	e = profdata_decode(r, &o, &ev, &n);
	profdata_reader_free(r);
	return e;
}

/*
 * The streaming histogram from a stream of small reads, in `mode` (arrays
 * larger than the window are read past).
 */
static inline void fuzz_histogram_stream(const void *data, size_t size, const char *format, int mode, size_t step)
{
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_histogram *h = NULL;
	fuzz_feed f = { data, size, 0, step };
	if (profdata_reader_open_callbacks(&r, fuzz_feed_read, &f, "fuzz-histo") != 0)
		return;
	o.format = format;
	o.mode = mode;
	if (profdata_histogram_read(&h, r, &o, PROFDATA_HISTOGRAM_ALL_DUMPS) == 0)
		profdata_histogram_free(h);
	profdata_reader_free(r);
}

/*
 * The streaming conversion `profdata convert` does: data read as `from`
 * (NULL: sniffed), from a stream of `step`-byte reads (0: from memory),
 * written as `to` with `options` into memory. 0 when it converted.
 */
static inline int fuzz_convert_stream(const void *data, size_t size, const char *from, const char *to,
                                      const char *options, size_t step)
{
	profdata_reader *r;
	profdata_writer *w;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	fuzz_feed f = { data, size, 0, step };
	int e = -1;
	o.format = from;
	wo.format = to;
	wo.options = options;
	if ((step ? profdata_reader_open_callbacks(&r, fuzz_feed_read, &f, "fuzz-convert")
	          : profdata_reader_open_memory(&r, data, size, "fuzz")) != 0)
		return -1;
	if (profdata_writer_open_memory(&w) == 0) {
		e = profdata_convert(r, &o, w, &wo);
		if (e == 0)
			e = profdata_writer_close(w);
		profdata_writer_free(w);
	}
	profdata_reader_free(r);
	return e;
}

/* Write p as `format` with options into a malloc'd copy; NULL when the writer refuses. */
static inline unsigned char *fuzz_write(const profdata_profile *p, const char *format, const char *options,
                                        size_t *len)
{
	profdata_writer *w;
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	const void *out;
	unsigned char *copy = NULL;
	wo.format = format;
	wo.options = options;
	if (profdata_writer_open_memory(&w) != 0)
		return NULL;
	if (profdata_write(p, w, &wo) == 0 && profdata_writer_close(w) == 0 &&
	    profdata_writer_memory(w, &out, len) == 0 && (copy = malloc(*len ? *len : 1)) != NULL && *len)
		memcpy(copy, out, *len);
	profdata_writer_free(w);
	return copy;
}

#endif
