/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JFR reader: permissively and strictly from memory (which must agree
 * where both read), and strictly from a stream of small reads (the
 * reader's window path). What reads strictly is written as JFR (its kept
 * chunks laid out again, write_kept.c) and must read back.
 */
#include <stdio.h>

#include "fuzz-common.h"

static void fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz-jfr: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	abort();
}

static void write_and_read_back(const profdata_profile *p)
{
	size_t len;
	unsigned char *bytes = fuzz_write(p, "jfr", NULL, &len);
	if (!bytes)
		return; /* refused with an error: more events than it writes, say */
	profdata_profile *back = fuzz_read(bytes, len, "jfr", PROFDATA_MODE_STRICT, NULL);
	if (!back)
		fail("what we wrote does not read back", NULL);
	profdata_profile_free(back);
	free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, "jfr", PROFDATA_MODE_PERMISSIVE, NULL);
	profdata_profile *ps = fuzz_read(data, size, "jfr", PROFDATA_MODE_STRICT, NULL);
	char why[256];
	if (ps && !p)
		fail("strict read succeeded where permissive failed", NULL);
	if (ps && !profdata_profile_equal(p, ps, why, sizeof why))
		fail("strict and permissive reads differ", why);
	if (ps)
		write_and_read_back(ps);
	profdata_profile_free(ps);
	profdata_profile_free(p);
	fuzz_decode_stream(data, size, "jfr", 29);
	return 0;
}
