/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tool's conversions (profdata convert): whatever reads (format sniffed)
 * is converted into every format that writes, streaming (decoder ->
 * transforms -> encoder) and through the model (--via-model), and what an
 * HPROF, classic or JFR encoder wrote must read back. A conversion may refuse
 * (what the target cannot hold, the synthesis bound); it must not crash.
 * HPROF conversions take max_synthesized=1 MiB so that a stated size of
 * gigabytes costs the fuzzer an error, not gigabytes.
 */
#include <stdio.h>

#include "fuzz-common.h"

static const char *options_for(const char *format)
{
	return strcmp(format, "hprof") == 0 ? "max_synthesized=1048576" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, NULL, PROFDATA_MODE_PERMISSIVE, NULL);
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		const char *name = profdata_format_name(f);
		size_t len;
		if (!profdata_format_can_write(f))
			continue;
		fuzz_convert_stream(data, size, NULL, name, options_for(name), 0); /* as `profdata convert` does */
		if (!p)
			continue;
		unsigned char *out = fuzz_write(p, name, options_for(name), &len);
		if (out && (strcmp(name, "hprof") == 0 || strcmp(name, "ibm-classic") == 0 || strcmp(name, "jfr") == 0)) {
			profdata_profile *q = fuzz_read(out, len, name, PROFDATA_MODE_PERMISSIVE, NULL);
			if (!q) {
				fprintf(stderr, "fuzz-convert: what the %s encoder wrote does not read back\n", name);
				abort();
			}
			profdata_profile_free(q);
		}
		free(out);
	}
	profdata_profile_free(p);
	return 0;
}
