/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The decoder of the HPROF agent's text output: permissively from memory
 * into the model with a histogram of it, its conversion to binary HPROF
 * (the refs_to_payloads transform: the sizes and indices the text states)
 * and back to text (the writer),
 * and strictly from a stream of small reads (window growth).
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, "hprof-text", PROFDATA_MODE_PERMISSIVE, NULL);
	if (p) {
		profdata_histogram *h;
		profdata_writer *w;
		profdata_histogram_new(&h, p, PROFDATA_HISTOGRAM_ALL_DUMPS); /* a failed one holds its message */
		profdata_histogram_free(h);
		for (int k = 0; k < 2; k++) {
			if (profdata_writer_open_memory(&w) == 0) {
				profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
				o.format = k ? "hprof-text" : "hprof";
				profdata_write(p, w, &o);
			}
			profdata_writer_free(w);
		}
		profdata_profile_free(p);
	}
	fuzz_decode_stream(data, size, "hprof-text", size % 13 + 1);
	return 0;
}
