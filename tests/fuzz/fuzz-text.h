/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text readers of samples, folded stacks and `perf script` output
 * (FUZZ_FORMAT names which): permissively and strictly from memory (a
 * strict read that succeeds must agree with the permissive one), strictly
 * from a stream of small reads (the line reader's window path), and what
 * reads written as folded stacks, which must read back and rewrite byte
 * for byte. Included by fuzz-folded.c and fuzz-perf-script.c, which define
 * FUZZ_FORMAT first.
 */
#ifndef FUZZ_TEXT_H
#define FUZZ_TEXT_H

#include <stdio.h>

#include "fuzz-common.h"

static void fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz-%s: %s%s%s\n", FUZZ_FORMAT, what, why ? ": " : "", why ? why : "");
	abort();
}

/* p as folded stacks, read back and written again: the same bytes. */
static void folded_fixed_point(const profdata_profile *p)
{
	size_t n1, n2;
	unsigned char *a = fuzz_write(p, "folded", NULL, &n1);
	if (!a)
		return; /* a profile without samples has no folded form */
	profdata_profile *q = fuzz_read(a, n1, "folded", PROFDATA_MODE_STRICT, NULL);
	if (!q && n1)
		fail("our folded output does not read", NULL);
	unsigned char *b = q ? fuzz_write(q, "folded", NULL, &n2) : NULL;
	if (q && (!b || n1 != n2 || memcmp(a, b, n1) != 0))
		fail("folded -> read -> folded differs", NULL);
	free(a);
	free(b);
	profdata_profile_free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, FUZZ_FORMAT, PROFDATA_MODE_PERMISSIVE, NULL);
	profdata_profile *ps = fuzz_read(data, size, FUZZ_FORMAT, PROFDATA_MODE_STRICT, NULL);
	char why[256];
	if (ps && !p)
		fail("strict read succeeded where permissive failed", NULL);
	if (ps && !profdata_profile_equal(p, ps, why, sizeof why))
		fail("strict and permissive reads differ", why);
	if (p)
		folded_fixed_point(p);
	profdata_profile_free(ps);
	profdata_profile_free(p);
	if (fuzz_decode_stream(data, size, FUZZ_FORMAT, 7) == 0 && !ps)
		fail("a stream reads strictly where memory does not", NULL);
	return 0;
}

#endif
