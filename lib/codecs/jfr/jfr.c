/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JDK Flight Recorder recordings (doc/formats-jfr.md): the descriptor and
 * the bid. chunk.c, metadata.c, pool.c, decode.c and typed.c read;
 * write.c and write_meta.c write.
 */
#include "codecs/jfr/jfr.h"
#include "codecs/jfr/write.h"
#include "transform/transform.h"

extern const struct profdata_format pd_format_jfr;

const char *const jfr_frame_type_names[JFR_FRAME_KINDS] = {
	[PROFDATA_FRAME_KIND_INTERPRETED] = "Interpreted", [PROFDATA_FRAME_KIND_JIT] = "JIT compiled",
	[PROFDATA_FRAME_KIND_INLINED] = "Inlined",         [PROFDATA_FRAME_KIND_NATIVE] = "Native",
	[PROFDATA_FRAME_KIND_CPP] = "C++",                 [PROFDATA_FRAME_KIND_KERNEL] = "Kernel",
	[PROFDATA_FRAME_KIND_C1] = "C1 compiled",
};

/* A chunk's magic, then a major version the reader knows. */
static int jfr_bid(const unsigned char *buf, size_t len)
{
	if (len < 4 || memcmp(buf, "FLR\0", 4) != 0)
		return 0;
	if (len < 6)
		return 60;
	return pd_be16(buf + 4) >= 1 && pd_be16(buf + 4) <= 2 ? 100 : 40;
}

const struct profdata_format pd_format_jfr = {
	.name = "jfr",
	.description = "JDK Flight Recorder recording (gzip'd or not when read)",
	.extensions = (const char *const[]){ ".jfr", ".jfr.gz", NULL },
	.bid = jfr_bid,
	.decode = pd_jfr_decode,
	.write_model = pd_jfr_write_model,
	.read_options = (const char *const[]){ "events", "other_events", NULL },
	.write_transforms = pd_transforms_samples,
};
