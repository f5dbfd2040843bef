/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Samples summed per stack, in front of the writers that use neither
 * their times, threads nor labels (folded stacks, flame graphs): a
 * recording of millions of events (JFR, perf script) reaches the model as
 * one sample per distinct stack, so that memory grows with the stacks, not
 * with the events. Samples pass on at the end, each stack's at its first
 * sample's place, its values summed (wrapping, as the writers add them),
 * with its first sample's thread and no time; labels go. A sample
 * without values (it counts 1) or with another count of values than the
 * first passes on as it came.
 */
#include <stdlib.h>
#include <string.h>

#include "transform/transform.h"

typedef struct sum_samples {
	pd_transform_base base; /* first: the pass-through events find it there */
	pd_map index;           /* stack serial -> summed sample + 1 */
	uint32_t *stack, *thread; /* per summed sample */
	int64_t *values;        /* per summed sample, `width` each */
	size_t n, cap, width;   /* width 0: no sample with values yet */
} sum_samples;

static int grow(sum_samples *s)
{
	size_t cap = s->cap;
	if (s->n < cap)
		return 0;
	cap = cap ? 2 * cap : 256;
	if (pd_regrow((void **)&s->stack, s->cap * sizeof *s->stack, cap * sizeof *s->stack) ||
	    pd_regrow((void **)&s->thread, s->cap * sizeof *s->thread, cap * sizeof *s->thread) ||
	    pd_regrow((void **)&s->values, s->cap * s->width * sizeof *s->values, cap * s->width * sizeof *s->values + 1))
		return PROFDATA_ENOMEM;
	s->cap = cap;
	return 0;
}

static int on_sample(void *payload, const profdata_sample *x)
{
	sum_samples *s = payload;
	if (!x->nvalues)
		return PD_DOWN(s, sample, x);
	if (!s->width)
		s->width = x->nvalues;
	if (x->nvalues != s->width)
		return PD_DOWN(s, sample, x);
	uint32_t k = pd_map_get(&s->index, x->stack_serial);
	if (!k) {
		if (grow(s) || pd_map_put(&s->index, x->stack_serial, (uint32_t)s->n + 1) < 0)
			return PROFDATA_ENOMEM;
		s->stack[s->n] = x->stack_serial;
		s->thread[s->n] = x->thread_serial;
		memset(s->values + s->n * s->width, 0, s->width * sizeof *s->values);
		k = (uint32_t)++s->n;
	}
	int64_t *sum = s->values + (size_t)(k - 1) * s->width;
	for (size_t i = 0; i < s->width; i++)
		sum[i] = pd_wrapping_add(sum[i], x->values[i]);
	return 0;
}

/* The sums, once: before the end event, or at the chain's finish when events come without one (an encoder's). */
static int pass_sums(void *state)
{
	sum_samples *s = state;
	int rc = 0;
	for (size_t i = 0; i < s->n && rc == 0; i++) {
		profdata_sample x = { s->stack[i], s->thread[i], 0, s->values + i * s->width, s->width };
		rc = PD_DOWN(s, sample, &x);
	}
	s->n = 0;
	return rc;
}

static int on_end(void *payload)
{
	sum_samples *s = payload;
	int rc = pass_sums(s);
	return rc ? rc : PD_DOWN0(s, end);
}

static const profdata_events sum_samples_events = {
	.sample = on_sample, .end = on_end,
};

static void sum_samples_free(void *state)
{
	sum_samples *s = state;
	pd_map_free(&s->index);
	PD_FREE_ALL(s->stack, s->thread, s->values);
}

const pd_transform_desc pd_transform_sum_samples = {
	.name = "sum_samples",
	.state_size = sizeof(sum_samples),
	.events = &sum_samples_events,
	.swallows = PD_EVENT_BIT(sample_labels), /* the writers this is for do not read labels */
	.finish = pass_sums,
	.free = sum_samples_free,
};

const pd_transform_desc *const pd_transforms_stacks[] = { &pd_transform_trace_stacks, &pd_transform_sum_samples,
	                                                  NULL };
