/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The streaming class histogram as a consumer of events (histogram.c): the
 * core puts it behind a decoder for profdata_histogram_read()
 * (core/histogram_read.c), as it puts the model's builder behind one for
 * profdata_read().
 */
#ifndef PD_ANALYSIS_HISTOGRAM_H
#define PD_ANALYSIS_HISTOGRAM_H

#include "internal.h"

/* An empty histogram of dump number `dump` (or PROFDATA_HISTOGRAM_ALL_DUMPS); NULL when out of memory. */
profdata_histogram *pd_histogram_new(long dump);
/* The events that fill it, the histogram as payload. It reads no primitive array's data. */
extern const profdata_events pd_histogram_events;
/*
 * After the decoder returned `rc`: the counts summed up, and the histogram
 * in *out; or, on an error (rc's, or memory), the histogram freed and the
 * error returned.
 */
int pd_histogram_conclude(profdata_histogram *h, int rc, profdata_histogram **out);

#endif
