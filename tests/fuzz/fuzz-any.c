/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the whole reading path: gzip detection, sniffing, every registered
 * decoder (permissive into the model, strict streaming), and replaying what
 * was read.
 */
#include <stdint.h>
#include <stdlib.h>

#include <profdata/profdata.h>

static int count_object(void *payload, const profdata_object *o)
{
	(void)o;
	++*(size_t *)payload;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_reader *r;
	if (profdata_reader_open_memory(&r, data, size, "fuzz") < 0)
		return 0;
	profdata_profile *p = NULL;
	if (profdata_read(&p, r, NULL) == 0) {
		profdata_events ev;
		profdata_events_init(&ev, sizeof ev);
		size_t n = 0;
		ev.object = count_object;
		profdata_profile_replay(p, &ev, &n);
		profdata_profile_reference_count(p);
		profdata_histogram *h;
		profdata_histogram_new(&h, p, 0); /* a failed one holds its message */
		profdata_histogram_free(h);
		profdata_profile_free(p);
	}
	profdata_reader_free(r);
	if (profdata_reader_open_memory(&r, data, size, "fuzz") < 0)
		return 0;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.mode = PROFDATA_MODE_STRICT;
	profdata_events ev;
	profdata_events_init(&ev, sizeof ev);
	size_t n = 0;
	ev.object = count_object;
	profdata_decode(r, &o, &ev, &n);
	profdata_reader_free(r);
	return 0;
}
