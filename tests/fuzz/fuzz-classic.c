/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The IBM classic heapdump decoder alone (fast: no encoder;
 * fuzz-classic-roundtrip has the encoders): permissively from memory into
 * the model (the CLS scan from the end of a stable span) with a histogram of
 * it, and strictly from a stream of small reads (window growth).
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, "ibm-classic", PROFDATA_MODE_PERMISSIVE, NULL);
	if (p) {
		profdata_histogram *h;
		profdata_histogram_new(&h, p, PROFDATA_HISTOGRAM_ALL_DUMPS); /* a failed one holds its message */
		profdata_histogram_free(h);
		profdata_profile_free(p);
	}
	fuzz_decode_stream(data, size, "ibm-classic", size % 13 + 1);
	return 0;
}
