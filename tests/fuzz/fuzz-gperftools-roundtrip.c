/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gperftools round trips (fuzz-gperftools has the decoder alone, and is the
 * fast one): the decoder from memory, permissive and strict, and what it reads
 * against the encoder: whatever reads must write, read back
 * to an equal model, and rewrite byte for byte. Also exports folded and
 * pprof from it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profdata/profdata.h>

static profdata_profile *read_mem(const void *data, size_t size, int mode)
{
	profdata_reader *r;
	profdata_profile *p = NULL;
	if (profdata_reader_open_memory(&r, data, size, "fuzz") < 0)
		return NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "gperftools";
	o.mode = mode;
	if (profdata_read(&p, r, &o) != 0)
		p = NULL;
	profdata_reader_free(r);
	return p;
}

/* Write p; returns malloc'd bytes or NULL when the write failed. */
static unsigned char *write_mem(const profdata_profile *p, const char *format, const char *options, size_t *len)
{
	profdata_writer *w;
	unsigned char *copy = NULL;
	if (profdata_writer_open_memory(&w) < 0)
		return NULL;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = format;
	o.options = options;
	if (profdata_write(p, w, &o) == 0 && profdata_writer_close(w) == 0) {
		const void *d;
		if (profdata_writer_memory(w, &d, len) == 0 && (copy = malloc(*len ? *len : 1)) != NULL && *len)
			memcpy(copy, d, *len);
	}
	profdata_writer_free(w);
	return copy;
}

static void fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz-gperftools: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = read_mem(data, size, PROFDATA_MODE_PERMISSIVE);
	profdata_profile *ps = read_mem(data, size, PROFDATA_MODE_STRICT);
	char why[256];
	if (ps && !p)
		fail("strict read succeeded where permissive failed", NULL);
	if (ps && !profdata_profile_equal(p, ps, why, sizeof(why)))
		fail("strict and permissive reads differ", why);
	profdata_profile_free(ps);
	if (!p)
		return 0;

	const profdata_meta *m = profdata_profile_meta(p);
	char opts[64];
	snprintf(opts, sizeof(opts), "word_size=%u,byte_order=%s", m->word_size, m->big_endian ? "big" : "little");
	size_t l1, l2;
	unsigned char *w1 = write_mem(p, "gperftools", opts, &l1);
	if (!w1)
		fail("a profile that reads does not write", NULL);
	profdata_profile *q = read_mem(w1, l1, PROFDATA_MODE_STRICT);
	if (!q)
		fail("our output does not read back strictly", NULL);
	if (!profdata_profile_equal(p, q, why, sizeof(why)))
		fail("read -> write -> read changed the model", why);
	unsigned char *w2 = write_mem(q, "gperftools", opts, &l2);
	if (!w2 || l1 != l2 || memcmp(w1, w2, l1) != 0)
		fail("our output does not rewrite byte for byte", NULL);
	free(w1);
	free(w2);
	profdata_profile_free(q);

	unsigned char *f = write_mem(p, "folded", NULL, &l1);
	if (!f)
		fail("folded export failed", NULL);
	free(f);
	f = write_mem(p, "pprof", "gzip=1", &l1);
	free(f);
	profdata_profile_free(p);
	return 0;
}
