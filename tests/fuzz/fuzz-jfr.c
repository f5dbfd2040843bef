/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JFR reader: permissively and strictly from memory (which must agree
 * where both read), and strictly from a stream of small reads (the
 * reader's window path). Nothing is written back: the library does not
 * write JFR yet.
 */
#include <stdio.h>

#include "fuzz-common.h"

static void fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz-jfr: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	abort();
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
	profdata_profile_free(ps);
	profdata_profile_free(p);
	fuzz_decode_stream(data, size, "jfr", 29);
	return 0;
}
