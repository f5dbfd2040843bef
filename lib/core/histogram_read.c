/* SPDX-License-Identifier: Apache-2.0 */
/* The streaming histogram's pipeline: decoder -> histogram (analysis/histogram.h). */
#include "analysis/histogram.h"
#include "internal.h"

int profdata_histogram_read(profdata_histogram **out, profdata_reader *in, const profdata_read_options *opts,
                            long dump)
{
	*out = NULL;
	profdata_histogram *h = pd_histogram_new(dump);
	if (!h)
		return PROFDATA_ENOMEM;
	/* It keeps nothing of the input: a big file is read on a second thread rather than mapped (io/readahead.h). */
	pd_in_stream(in);
	/* Sizes come from lengths: a stream need not hold a primitive array's bytes. */
	int e = pd_decode_with_flags(in, opts, &pd_histogram_events, h, PD_DECODE_NO_PRIMITIVE_DATA);
	e = pd_histogram_conclude(h, e, out);
	/* A consumer's own failure (memory) stops the decoder without a message: give it one. */
	if (e < 0 && !profdata_reader_error(in))
		pd_in_error(in, e, pd_in_offset(in), "histogram: %s", profdata_strerror(e));
	return e;
}
