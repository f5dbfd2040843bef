/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IBM classic heapdump round trips (fuzz-classic has the decoder alone, and is
 * the fast one): the decoder in both modes, from a
 * stable span and from a stream (the two take different paths: the CLS scan
 * from the end, window growth), and the encoder in every style on what was
 * read. Beyond the sanitizers it checks that what we write reads back
 * strictly, and that a rewrite of our own output is byte-identical.
 */
#include "fuzz-common.h"

static void *write_classic(const profdata_profile *p, const char *opts, size_t *len)
{
	return fuzz_write(p, "ibm-classic", opts, len);
}

static profdata_profile *read_classic(const void *data, size_t len, int mode, const char *opts)
{
	return fuzz_read(data, len, "ibm-classic", mode, opts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const styles[] = { NULL, "style=jdmpview", "style=classblock,word_size=4",
	                                      "layout=single-line,line_end=crlf" };
	/* The class-block variant is recognised by heuristics that a small dump may not
	 * meet (doc/formats-classic.md); its output is read back saying what it is. */
	static const char *const read_back[] = { NULL, NULL, "variant=classblock", NULL };
	profdata_profile *p = read_classic(data, size, PROFDATA_MODE_PERMISSIVE, NULL);
	if (p) {
		profdata_histogram *h;
		profdata_histogram_new(&h, p, PROFDATA_HISTOGRAM_ALL_DUMPS); /* a failed one holds its message */
		profdata_histogram_free(h);
		for (size_t s = 0; s < sizeof styles / sizeof styles[0]; s++) {
			size_t len, len2;
			void *out = write_classic(p, styles[s], &len);
			if (!out)
				abort(); /* everything read can be written */
			profdata_profile *q = read_classic(out, len, PROFDATA_MODE_STRICT, read_back[s]);
			if (!q)
				abort(); /* our output is valid */
			void *out2 = write_classic(q, styles[s], &len2);
			if (!out2)
				abort();
			profdata_profile *q2 = read_classic(out2, len2, PROFDATA_MODE_STRICT, read_back[s]);
			void *out3 = NULL;
			size_t len3 = 0;
			if (!q2 || !(out3 = write_classic(q2, styles[s], &len3)))
				abort();
			if (len3 != len2 || memcmp(out2, out3, len2) != 0)
				abort(); /* our own output rewrites byte-identically */
			if (!styles[s] && (profdata_profile_count(q, PROFDATA_TABLE_OBJECTS) !=
			                   profdata_profile_count(p, PROFDATA_TABLE_OBJECTS)))
				abort(); /* no object is lost */
			profdata_profile_free(q2);
			profdata_profile_free(q);
			free(out);
			free(out2);
			free(out3);
		}
		{
			/* to HPROF (synthetic reference fields): what is written reads back strictly */
			size_t len;
			void *hp = fuzz_write(p, "hprof", "max_synthesized=1048576", &len);
			if (hp) {
				profdata_profile *q = fuzz_read(hp, len, "hprof", PROFDATA_MODE_STRICT, NULL);
				if (!q)
					abort();
				if (profdata_profile_count(q, PROFDATA_TABLE_OBJECTS) != profdata_profile_count(p, PROFDATA_TABLE_OBJECTS))
					abort();
				profdata_profile_free(q);
				free(hp);
			}
		}
		profdata_profile_free(p);
	}

	/* strict, streaming, from a source without a stable span */
	fuzz_decode_stream(data, size, "ibm-classic", size % 13 + 1);

	/* streaming conversion into the encoder */
	fuzz_convert_stream(data, size, "ibm-classic", "ibm-classic", NULL, size % 7 + 1);
	return 0;
}
