/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pprof's profile.proto (google/pprof's proto/profile.proto), gzip'd on
 * disk, read and written. See doc/formats-pprof.md.
 *
 * This file: the descriptor and the bid. decode.c reads (wire.h walks the
 * protobuf wire format), encode.c writes from a built profile through
 * protobuf-c's generated code.
 */
#include <string.h>

#include "codecs/pprof/pprof.h"
#include "codecs/pprof/wire.h"
#include "transform/transform.h"

extern const struct profdata_format pd_format_pprof;

/*
 * Profile's fields 1-15 each have one wire type (comments: packed or not);
 * 1 for one of them, 0 for a wrong wire type, -1 for a later field (one
 * profile.proto does not name yet, which a reader passes over).
 */
static int is_profile_field(const pb_field *f)
{
	if (f->number > 15)
		return -1;
	if (f->number <= 6 || f->number == 11)
		return f->wire == PB_BYTES;
	if (f->number == 13)
		return f->wire == PB_BYTES || f->wire == PB_VARINT;
	return f->wire == PB_VARINT;
}

/*
 * A Profile's first fields: every field that begins in the bytes seen is
 * one of Profile's with its wire type (a length may run past them). Raw
 * protobuf has no magic, so this is what tells it: HPROF's "JAVA" reads as
 * field 9 with the wrong wire type, text as fields with no wire type.
 */
static int pprof_bid(const unsigned char *buf, size_t len)
{
	pb_span s = { buf, buf + len };
	pb_field f;
	int n = 0, e;
	while (n < 64) {
		if ((e = pb_next(&s, &f)) == 0)
			break;
		/* the field runs past the bytes seen: its key was read */
		if (e == -PB_PAST_END)
			return is_profile_field(&f) > 0 ? (n > 0 ? 70 : 50) : 0;
		if (e == -PB_TRUNCATED)
			return n > 0 ? 60 : 0;
		if (e < 0 || !is_profile_field(&f))
			return 0;
		n += is_profile_field(&f) > 0;
	}
	return n >= 2 ? 70 : n == 1 ? 40 : 0;
}

int pd_pprof_is_thread_label(const char *key, size_t len)
{
	static const char *const keys[] = { "thread", "thread_id", "thread_name", "tid" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strlen(keys[i]) == len && memcmp(keys[i], key, len) == 0)
			return 1;
	return 0;
}

const struct profdata_format pd_format_pprof = {
	.name = "pprof",
	.description = "pprof protobuf (profile.proto, gzip'd or not)",
	.extensions = (const char *const[]){ ".pb.gz", ".pprof", ".pb", NULL },
	.bid = pprof_bid,
	.decode = pd_pprof_decode,
	.write_model = pd_pprof_write_model,
	.write_options = (const char *const[]){ "gzip", NULL },
	.write_transforms = pd_transforms_samples,
};
