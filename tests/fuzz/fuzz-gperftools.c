/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gperftools decoder alone (fast: no encoder; fuzz-gperftools-roundtrip
 * has the encoders): permissively and strictly from memory, which must agree
 * where both read, and strictly from a stream of small reads.
 */
#include <stdio.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, "gperftools", PROFDATA_MODE_PERMISSIVE, NULL);
	profdata_profile *ps = fuzz_read(data, size, "gperftools", PROFDATA_MODE_STRICT, NULL);
	char why[256];
	if (ps && !p) {
		fprintf(stderr, "fuzz-gperftools: strict read succeeded where permissive failed\n");
		abort();
	}
	if (ps && !profdata_profile_equal(p, ps, why, sizeof why)) {
		fprintf(stderr, "fuzz-gperftools: strict and permissive reads differ: %s\n", why);
		abort();
	}
	profdata_profile_free(ps);
	profdata_profile_free(p);
	fuzz_decode_stream(data, size, "gperftools", 29);
	return 0;
}
