/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cpuprofile reader: permissive and strict from memory (which must
 * agree where both read), strictly from a stream of small reads (the
 * reader's window path), and what reads converts to folded and pprof.
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, "cpuprofile", PROFDATA_MODE_PERMISSIVE, NULL);
	profdata_profile *ps = fuzz_read(data, size, "cpuprofile", PROFDATA_MODE_STRICT, NULL);
	char why[256];
	if (ps && !p)
		abort(); /* strict read succeeded where permissive failed */
	if (ps && !profdata_profile_equal(p, ps, why, sizeof why))
		abort(); /* strict and permissive reads differ */
	if (p) {
		size_t len;
		free(fuzz_write(p, "folded", NULL, &len));
		free(fuzz_write(p, "speedscope", NULL, &len));
	}
	profdata_profile_free(ps);
	profdata_profile_free(p);
	fuzz_decode_stream(data, size, "cpuprofile", size % 31 + 1);
	return 0;
}
