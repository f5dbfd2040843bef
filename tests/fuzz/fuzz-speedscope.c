/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The speedscope reader: permissive, strict and from a stream of small
 * reads; what reads writes as speedscope, and that reads back and writes
 * again byte for byte.
 */
#include "fuzz-common.h"

static void round_trip(const profdata_profile *p)
{
	size_t len, len2;
	unsigned char *out = fuzz_write(p, "speedscope", NULL, &len);
	if (!out)
		abort(); /* everything read can be written */
	profdata_profile *q = fuzz_read(out, len, "speedscope", PROFDATA_MODE_STRICT, NULL);
	if (!q)
		abort(); /* our output reads back */
	unsigned char *out2 = fuzz_write(q, "speedscope", NULL, &len2);
	profdata_profile *r = out2 ? fuzz_read(out2, len2, "speedscope", PROFDATA_MODE_STRICT, NULL) : NULL;
	unsigned char *out3 = NULL;
	size_t len3 = 0;
	if (r)
		out3 = fuzz_write(r, "speedscope", NULL, &len3);
	/* from our own output on, a rewrite is byte for byte */
	if (!out3 || len3 != len2 || memcmp(out2, out3, len2) != 0)
		abort();
	profdata_profile_free(r);
	profdata_profile_free(q);
	free(out);
	free(out2);
	free(out3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, "speedscope", PROFDATA_MODE_PERMISSIVE, NULL);
	if (p) {
		round_trip(p);
		profdata_profile_free(p);
	}
	profdata_profile_free(fuzz_read(data, size, "speedscope", PROFDATA_MODE_STRICT, NULL));
	fuzz_decode_stream(data, size, "speedscope", size % 29 + 1);
	return 0;
}
