/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The chain pass on a second thread (gperftools.h: pd_gperftools_ahead).
 *
 * Why: on a profile of many distinct stacks, finding each record's chain
 * and giving a new chain's PCs frame ids (a hash lookup a PC, mostly cache
 * misses) took half of the decoder's time, and emitting the frames, stacks
 * and samples (into the model, for most callers) the other half; neither
 * needs the other's tables. The pass fills batches in the order of the
 * records, and the emitter takes them in that order, so the events are
 * the same, one by one, with or without the thread.
 *
 * Only for a whole input (a mapped file or memory): the pass reads the
 * records where they are, and the emitter reads a new frame's PC there too.
 */
#include <stdlib.h>

#include "codecs/gperftools/gperftools.h"
#include "util/relay.h"

#define AHEAD_SLOTS 8      /* a power of two (relay.h) */

typedef struct ahead {
	pd_gperftools_decoder *d;
	const unsigned char *data;
	size_t size;
	pd_gperftools_pass pass; /* the thread's until it is stopped */
	pd_gperftools_batch batch[AHEAD_SLOTS];
	pd_relay relay;
} ahead;

/* The next batch of records; the last once the trailer, an error or an incomplete record is met. */
static int fill_slot(void *arg, unsigned slot)
{
	ahead *a = arg;
	pd_gperftools_batch *b = &a->batch[slot];
	size_t used = 0;
	uint64_t need;
	b->n = b->nids = 0;
	int rc = pd_gperftools_run_records(a->d, b, a->data + a->pass.end, a->size - a->pass.end,
	                                   PD_GPERFTOOLS_BATCH_RECORDS, &used, &need);
	a->pass.end += used;
	b->end = a->pass.end;
	if (rc == PD_GPERFTOOLS_RECORDS_MORE && used > 0)
		return 0;
	if (rc == PD_GPERFTOOLS_RECORDS_TRAILER)
		a->pass.trailer = 1;
	else if (rc < 0)
		a->pass.rc = rc;
	return 1;
}

int pd_gperftools_ahead(pd_gperftools_decoder *d, const unsigned char *data, size_t size, size_t pos,
                        int (*emit)(pd_gperftools_decoder *d, const pd_gperftools_batch *b),
                        pd_gperftools_pass *pass, int *emit_rc)
{
	ahead *a = calloc(1, sizeof *a);
	unsigned slot;
	int rc = 0;
	if (!a)
		return 0;
	a->d = d;
	a->data = data;
	a->size = size;
	a->pass.end = pos;
	if (!pd_relay_start(&a->relay, AHEAD_SLOTS, fill_slot, a)) {
		free(a);
		return 0;
	}
	while (rc == 0 && pd_relay_next(&a->relay, &slot))
		rc = emit(d, &a->batch[slot]);
	pd_relay_stop(&a->relay);
	*pass = a->pass;
	*emit_rc = rc;
	for (slot = 0; slot < AHEAD_SLOTS; slot++)
		pd_gperftools_batch_free(&a->batch[slot]);
	free(a);
	return 1;
}
