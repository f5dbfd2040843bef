/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The N heaviest stacks, behind any decoder (read option top_stacks=N):
 * stacks are ranked by the sum of their samples' values of the sample type
 * pprof would show (sample=NAME's when given, which comes first in the
 * chain, else the input's default sample type, else the last), largest
 * magnitude first as pprof orders a diff's nodes, ties in input order;
 * the samples of the others go, with their labels.
 *
 * Which stacks stay is known only at the end, so stacks, samples (with
 * their labels) and sample groups are held, in their order, and passed on
 * at the end; everything else passes at once. Memory grows with the
 * samples of the input, as the input itself.
 */
#include <stdlib.h>
#include <string.h>

#include "transform/transform.h"
#include "util/hashmap.h"

enum { HELD_STACK, HELD_GROUP, HELD_SAMPLE };

typedef struct held {
	unsigned char kind, has_labels;
	uint32_t serial, thread; /* a stack's serial, or a sample's stack; the thread */
	uint64_t time, total;    /* a sample's time_ns, a group's time_us; a group's total */
	size_t at, n;            /* a stack's frames in `frames`, a sample's values in `values` */
	size_t label_at, nlabels;
} held;

typedef struct top_stacks {
	pd_transform_base base; /* first: the pass-through events find it there */
	pd_sample_choice choice;
	long long limit;
	held *held;
	size_t nheld, held_cap;
	uint64_t *frames;
	size_t nframes, frames_cap;
	int64_t *values;
	size_t nvalues, values_cap;
	profdata_label *labels;
	size_t nlabels, labels_cap;
	int labels_next;       /* a sample_labels event came for the next sample */
	size_t labels_next_at, labels_next_n;
	pd_map stack_row;      /* stack serial -> its held index + 1 */
	int flushed;
} top_stacks;

static int top_wanted(const pd_options *opts, pd_diag *diag)
{
	(void)diag;
	return pd_options_get(opts, "top_stacks") != NULL;
}

static int top_init(void *state, pd_diag *diag, const pd_options *opts)
{
	top_stacks *t = state;
	pd_sample_choice_init(&t->choice, "default");
	return pd_options_int(opts, "top_stacks", 0, 1, 1LL << 31, &t->limit, diag);
}

static void top_free(void *state)
{
	top_stacks *t = state;
	pd_sample_choice_free(&t->choice);
	pd_map_free(&t->stack_row);
	free(t->held);
	free(t->frames);
	free(t->values);
	free(t->labels);
}

static int oom(top_stacks *t)
{
	return pd_diag_error(t->base.diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "top_stacks: out of memory");
}

/* A new held record of `kind`, or NULL (out of memory). */
static held *hold(top_stacks *t, unsigned char kind)
{
	if (pd_grow((void **)&t->held, &t->held_cap, t->nheld + 1, sizeof *t->held) < 0)
		return NULL;
	held *h = &t->held[t->nheld++];
	memset(h, 0, sizeof *h);
	h->kind = kind;
	return h;
}

static int on_begin(void *payload, const profdata_meta *m)
{
	top_stacks *t = payload;
	if (pd_sample_choice_begin(&t->choice, m) < 0)
		return oom(t);
	return PD_DOWN(t, begin, m);
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	top_stacks *t = payload;
	if (pd_sample_choice_string(&t->choice, id, utf8, len) < 0)
		return oom(t);
	return PD_DOWN(t, string, id, utf8, len);
}

static int on_sample_type(void *payload, const profdata_sample_type *st)
{
	top_stacks *t = payload;
	if (pd_sample_choice_type(&t->choice, st) < 0)
		return oom(t);
	return PD_DOWN(t, sample_type, st);
}

static int on_stack(void *payload, const profdata_stack *s)
{
	top_stacks *t = payload;
	held *h = hold(t, HELD_STACK);
	if (!h || pd_grow((void **)&t->frames, &t->frames_cap, t->nframes + s->nframes + 1, sizeof(uint64_t)) < 0 ||
	    pd_map_put(&t->stack_row, s->serial, (uint32_t)t->nheld) < 0)
		return oom(t);
	h->serial = s->serial;
	h->thread = s->thread_serial;
	h->at = t->nframes;
	h->n = s->nframes;
	if (s->nframes)
		memcpy(t->frames + t->nframes, s->frame_ids, s->nframes * sizeof(uint64_t));
	t->nframes += s->nframes;
	return 0;
}

static int on_sample_group(void *payload, const profdata_sample_group *g)
{
	top_stacks *t = payload;
	held *h = hold(t, HELD_GROUP);
	if (!h)
		return oom(t);
	h->time = g->time_us;
	h->total = g->total;
	return 0;
}

static int on_sample_labels(void *payload, const profdata_sample_labels *l)
{
	top_stacks *t = payload;
	if (pd_grow((void **)&t->labels, &t->labels_cap, t->nlabels + l->nlabels + 1, sizeof *t->labels) < 0)
		return oom(t);
	if (l->nlabels)
		memcpy(t->labels + t->nlabels, l->labels, l->nlabels * sizeof *t->labels);
	t->labels_next = 1;
	t->labels_next_at = t->nlabels;
	t->labels_next_n = l->nlabels;
	t->nlabels += l->nlabels;
	return 0;
}

static int on_sample(void *payload, const profdata_sample *s)
{
	top_stacks *t = payload;
	held *h = hold(t, HELD_SAMPLE);
	if (!h || pd_grow((void **)&t->values, &t->values_cap, t->nvalues + s->nvalues + 1, sizeof(int64_t)) < 0)
		return oom(t);
	h->serial = s->stack_serial;
	h->thread = s->thread_serial;
	h->time = s->time_ns;
	h->at = t->nvalues;
	h->n = s->nvalues;
	if (s->nvalues)
		memcpy(t->values + t->nvalues, s->values, s->nvalues * sizeof(int64_t));
	t->nvalues += s->nvalues;
	h->has_labels = (unsigned char)t->labels_next;
	h->label_at = t->labels_next_at;
	h->nlabels = t->labels_next_n;
	t->labels_next = 0;
	return 0;
}

/* A stack's rank key: its held index and the magnitude of its sum. */
typedef struct ranked {
	size_t row;
	uint64_t weight;
} ranked;

static int by_weight(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Each stack's sum of value `index`, into `sums` (per held row). */
static void sum_stacks(const top_stacks *t, size_t index, int64_t *sums)
{
	for (size_t i = 0; i < t->nheld; i++) {
		const held *h = &t->held[i];
		uint32_t row = h->kind == HELD_SAMPLE ? pd_map_get(&t->stack_row, h->serial) : 0;
		if (row && index < h->n)
			sums[row - 1] += t->values[h->at + index];
	}
}

/* Mark in `keep` (per held row) the `limit` heaviest stacks. */
static int rank_stacks(top_stacks *t, unsigned char *keep)
{
	size_t index, n = 0;
	int rc = pd_sample_choice_resolve(&t->choice, &index, t->base.diag);
	int64_t *sums = calloc(t->nheld + 1, sizeof *sums);
	ranked *r = malloc((t->nheld + 1) * sizeof *r);
	if (rc == 0 && (!sums || !r))
		rc = oom(t);
	if (rc == 0) {
		sum_stacks(t, index, sums);
		for (size_t i = 0; i < t->nheld; i++)
			if (t->held[i].kind == HELD_STACK)
				r[n++] = (ranked){ i, sums[i] < 0 ? 0 - (uint64_t)sums[i] : (uint64_t)sums[i] };
		qsort(r, n, sizeof *r, by_weight);
		for (size_t i = 0; i < n && i < (size_t)t->limit; i++)
			keep[r[i].row] = 1;
	}
	free(sums);
	free(r);
	return rc;
}

/* Pass one held record on, unless it is a stack or a sample of a stack not kept. */
static int pass_held(top_stacks *t, const held *h, const unsigned char *keep)
{
	uint32_t row = h->kind == HELD_GROUP ? 0 : pd_map_get(&t->stack_row, h->serial);
	if (h->kind == HELD_GROUP) {
		profdata_sample_group g = { h->time, h->total };
		return PD_DOWN(t, sample_group, &g);
	}
	if (row && !keep[row - 1])
		return 0;
	if (h->kind == HELD_STACK) {
		profdata_stack s = { h->serial, h->thread, t->frames + h->at, h->n };
		return PD_DOWN(t, stack, &s);
	}
	profdata_sample_labels l = { t->labels + h->label_at, h->nlabels };
	int rc = h->has_labels ? PD_DOWN(t, sample_labels, &l) : 0;
	profdata_sample s = { h->serial, h->thread, h->time, t->values + h->at, h->n };
	return rc ? rc : PD_DOWN(t, sample, &s);
}

static int flush(top_stacks *t)
{
	if (t->flushed)
		return 0;
	t->flushed = 1;
	unsigned char *keep = calloc(t->nheld + 1, 1);
	int rc = keep ? rank_stacks(t, keep) : oom(t);
	for (size_t i = 0; i < t->nheld && rc == 0; i++)
		rc = pass_held(t, &t->held[i], keep);
	free(keep);
	return rc;
}

static int on_end(void *payload)
{
	top_stacks *t = payload;
	int rc = flush(t);
	return rc ? rc : PD_DOWN0(t, end);
}

static int top_finish(void *state)
{
	return flush(state);
}

static const profdata_events top_events = {
	.version = PROFDATA_EVENTS_VERSION, .begin = on_begin, .string = on_string, .sample_type = on_sample_type,
	.stack = on_stack, .sample_group = on_sample_group, .sample_labels = on_sample_labels, .sample = on_sample,
	.end = on_end,
};

const pd_transform_desc pd_transform_top_stacks = {
	.name = "top_stacks",
	.state_size = sizeof(top_stacks),
	.events = &top_events,
	.init = top_init,
	.finish = top_finish,
	.free = top_free,
	.wanted = top_wanted,
};
