/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the tracexml codec: the decoder permissive and strict, from memory
 * and from a stream of small reads; what was read is written (plain, as
 * fragments, zipped) and must read back strictly, rewriting byte-identically;
 * and the streaming conversion to folded runs the trace -> stack derivation.
 */
#include "fuzz-common.h"

static profdata_profile *read_as(const void *data, size_t len, int mode)
{
	return fuzz_read(data, len, "tracexml", mode, NULL);
}

static void round_trip(const profdata_profile *p, const char *opts)
{
	size_t len, len2;
	void *out = fuzz_write(p, "tracexml", opts, &len);
	if (!out && opts && strcmp(opts, "zip=1") == 0)
		return; /* a build without libarchive refuses zip=1 */
	if (!out)
		abort(); /* everything read can be written */
	profdata_profile *q = read_as(out, len, PROFDATA_MODE_PERMISSIVE);
	if (!q)
		abort(); /* our output reads back */
	void *out2 = fuzz_write(q, "tracexml", opts, &len2);
	if (!out2 || len2 != len || memcmp(out, out2, len) != 0)
		abort(); /* and rewrites byte-identically */
	profdata_profile_free(q);
	free(out);
	free(out2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = read_as(data, size, PROFDATA_MODE_PERMISSIVE);
	if (p) {
		round_trip(p, NULL);
		round_trip(p, "fragments=1");
		if (size % 4 == 0)
			round_trip(p, "zip=1");
		size_t len;
		free(fuzz_write(p, "folded", NULL, &len));
		profdata_profile_free(p);
	}
	profdata_profile_free(read_as(data, size, PROFDATA_MODE_STRICT));

	fuzz_convert_stream(data, size, "tracexml", "folded", NULL, size % 13 + 1);
	return 0;
}
