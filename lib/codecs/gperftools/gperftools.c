/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Google CPU profiles: the binary format gperftools' profiler writes
 * (src/profiledata.cc), read and written.
 *
 *   header   0, n >= 3, version (0, or 1 for the Java variant), period (us),
 *            then n - 2 more slots (one padding 0 in every real file)
 *   records  count, npcs, pc[npcs] (leaf first), repeated
 *   trailer  0, 1, 0
 *   text     /proc/self/maps as the profiled process saw it (version 0), or
 *            "0xADDR name" symbol lines (version 1)
 *
 * Slots are 4 or 8 bytes in the writer's byte order. See
 * doc/formats-gperftools.md for what the model receives.
 *
 * This file: the descriptor, the bid and the options both sides take.
 * decode.c reads (maps.c and java.c parse the text after the trailer),
 * encode.c writes from a built profile.
 */
#include <string.h>

#include "codecs/gperftools/gperftools.h"
#include "transform/transform.h"

extern const struct profdata_format pd_format_gperftools;

const pd_gperftools_layout pd_gperftools_layouts[4] = { { 4, 0 }, { 4, 1 }, { 8, 0 }, { 8, 1 } };

int pd_gperftools_header_match(const unsigned char *buf, size_t len, const pd_gperftools_layout *l)
{
	uint64_t s[5] = { 0 };
	size_t have = len / l->ws, i;
	for (i = 0; i < 5 && i < have; i++)
		s[i] = pd_gperftools_load(buf + i * l->ws, l->ws, l->be);
	if (have >= 1 && s[0] != 0)
		return 0;
	if (have >= 2 && (s[1] < 3 || s[1] > GPERFTOOLS_MAX_HEADER))
		return 0;
	if (have >= 3 && s[2] > 1)
		return 0;
	if (have >= 4 && s[3] == 0)
		return 0;
	if (have < 5)
		return -1;
	return (s[1] == 3 && s[4] == 0) ? 2 : 1;
}

static int gperftools_bid(const unsigned char *buf, size_t len)
{
	int best = 0;
	for (size_t i = 0; i < 4; i++) {
		int m = pd_gperftools_header_match(buf, len, &pd_gperftools_layouts[i]);
		if (m == 2)
			return 90;
		if (m == 1 && best < 60)
			best = 60;
	}
	return best;
}

int pd_gperftools_layout_options(const pd_options *o, pd_diag *diag, unsigned *ws, int *be)
{
	const char *bo;
	long long v;
	int rc;
	*ws = 0;
	*be = -1;
	if (!o)
		return 0;
	if (pd_options_get(o, "word_size")) {
		rc = pd_options_int(o, "word_size", 8, 4, 8, &v, diag);
		if (rc)
			return rc;
		if (v != 4 && v != 8)
			return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "word_size must be 4 or 8, not %lld", v);
		*ws = (unsigned)v;
	}
	bo = pd_options_get(o, "byte_order");
	if (bo) {
		if (strcmp(bo, "little") == 0)
			*be = 0;
		else if (strcmp(bo, "big") == 0)
			*be = 1;
		else
			return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
			                     "byte_order must be little or big, not \"%s\"", bo);
	}
	return 0;
}

const struct profdata_format pd_format_gperftools = {
	.name = "gperftools",
	.description = "Google CPU profile (gperftools binary format)",
	.extensions = (const char *const[]){ ".prof", NULL },
	.bid = gperftools_bid,
	.decode = pd_gperftools_decode,
	.write_model = pd_gperftools_write_model,
	/* Reading also names native frames when symbolize=... asks (the symbolize transform's options). */
	.read_options = (const char *const[]){ "word_size", "byte_order", "symbolize", "sysroot", "debug_dir", NULL },
	.write_options = (const char *const[]){ "word_size", "byte_order", NULL },
	.read_transforms = pd_transforms_native,
	.write_transforms = pd_transforms_samples,
};
