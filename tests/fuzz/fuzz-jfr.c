/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JFR reader: permissively and strictly from memory (which must agree
 * where both read), and strictly from a stream of small reads (the
 * reader's window path). What reads strictly is written as JFR (its kept
 * chunks laid out again, write_kept.c) and must read back.
 */
#include <stdio.h>

#include "fuzz-common.h"

static void fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz-jfr: %s%s%s\n", what, why ? ": " : "", why ? why : "");
	abort();
}

static void write_and_read_back(const profdata_profile *p)
{
	size_t len;
	unsigned char *bytes = fuzz_write(p, "jfr", NULL, &len);
	if (!bytes)
		return; /* refused with an error: more events than it writes, say */
	profdata_profile *back = fuzz_read(bytes, len, "jfr", PROFDATA_MODE_STRICT, NULL);
	if (!back)
		fail("what we wrote does not read back", NULL);
	profdata_profile_free(back);
	free(bytes);
}

/*
 * Read with no other event kept (what a conversion to another format
 * asks), the reader goes to a chunk's checkpoints where its first pass
 * found them instead of walking every event again: it must read where the
 * full read does, into the same stacks.
 */
static void read_without_other_events(const uint8_t *data, size_t size, const profdata_profile *full)
{
	profdata_profile *p = fuzz_read(data, size, "jfr", PROFDATA_MODE_STRICT, "other_events=0");
	size_t len, full_len;
	if (!p != !full)
		fail(p ? "other_events=0 reads where the full read fails" : "other_events=0 fails where the full read reads",
		     NULL);
	if (p) {
		unsigned char *got = fuzz_write(p, "folded", NULL, &len), *want = fuzz_write(full, "folded", NULL, &full_len);
		if (!got != !want || (got && (len != full_len || memcmp(got, want, len) != 0)))
			fail("other_events=0 reads other stacks", NULL);
		free(got);
		free(want);
	}
	profdata_profile_free(p);
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
	read_without_other_events(data, size, ps);
	if (ps)
		write_and_read_back(ps);
	profdata_profile_free(ps);
	profdata_profile_free(p);
	fuzz_decode_stream(data, size, "jfr", 29);
	return 0;
}
