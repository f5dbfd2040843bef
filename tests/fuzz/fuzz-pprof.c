/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pprof reader, and what it reads against the writer: permissively and
 * strictly from memory (which must agree where both read), strictly from a
 * stream of small reads (the reader's window path), and whatever reads must
 * write as pprof and read back to an equal model.
 */
#include <stdio.h>

#include "fuzz-common.h"

static void fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz-pprof: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	abort();
}

/* p written as pprof (uncompressed: faster, the same message) reads back equal. */
static void round_trip(const profdata_profile *p)
{
	profdata_writer *w;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	const void *bytes;
	size_t len;
	char why[256];
	if (profdata_writer_open_memory(&w) != 0)
		return;
	o.format = "pprof";
	o.options = "gzip=0";
	if (profdata_write(p, w, &o) != 0 || profdata_writer_close(w) != 0)
		fail("a profile that reads does not write", profdata_writer_error(w)->message);
	profdata_writer_memory(w, &bytes, &len);
	profdata_profile *q = fuzz_read(bytes, len, "pprof", PROFDATA_MODE_STRICT, NULL);
	if (!q)
		fail("what we wrote does not read", NULL);
	if (!profdata_profile_equal(p, q, why, sizeof why))
		fail("read -> write -> read differs", why);
	profdata_profile_free(q);
	profdata_writer_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, "pprof", PROFDATA_MODE_PERMISSIVE, NULL);
	profdata_profile *ps = fuzz_read(data, size, "pprof", PROFDATA_MODE_STRICT, NULL);
	char why[256];
	if (ps && !p)
		fail("strict read succeeded where permissive failed", NULL);
	if (ps && !profdata_profile_equal(p, ps, why, sizeof why))
		fail("strict and permissive reads differ", why);
	if (ps)
		round_trip(ps);
	profdata_profile_free(ps);
	profdata_profile_free(p);
	fuzz_decode_stream(data, size, "pprof", 29);
	return 0;
}
