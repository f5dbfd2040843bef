/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HPROF decoder alone (fast: no encoder; fuzz-hprof-roundtrip has the
 * encoder): the streaming histogram, strictly, from a stream of small reads
 * (windows, arrays read past), and permissively from memory into the model
 * with its reference pass. Two passes per input: every pass more multiplies
 * the features libFuzzer books per run, which is where its time goes.
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p;
	fuzz_histogram_stream(data, size, "hprof", PROFDATA_MODE_STRICT, 61);
	p = fuzz_read(data, size, "hprof", PROFDATA_MODE_PERMISSIVE, NULL);
	if (p) {
		profdata_profile_reference_count(p);
		profdata_profile_free(p);
	}
	return 0;
}
