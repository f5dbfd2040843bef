/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cpuprofile reader's samples, a batch at a time: their node ids, then
 * their time deltas, then their nodes, each a short loop whose steps do not
 * wait on each other (the processor overlaps the table loads of many
 * samples, which parsing, looking up and emitting one sample at a time
 * left waiting in turn). With a second processor the batches are filled
 * on it, ahead of emit.c's events: the parse and the consumer's work then
 * overlap. Filling only reads the decoder (its nodes, tables and input),
 * and a batch holds its first fault rather than reporting it, so the
 * events and the messages are the same with the thread and without.
 */
#include <stdlib.h>
#include <string.h>

#include "codecs/cpuprofile/cpuprofile.h"

/* Node `id` of profile `pi`: its index + 1, 0 when the profile lacks it. */
static uint32_t node_of(const cpu_decoder *d, uint32_t pi, int64_t id)
{
	const js_profile *p = &d->profiles[pi];
	if (id < 0 || id >= (INT64_C(1) << 44))
		return 0;
	if (p->rows)
		return (uint64_t)id < p->nrows ? p->rows[id] : 0;
	return pd_map_get(&d->node_of, pd_cpuprofile_node_key(pi, (uint64_t)id));
}

uint64_t pd_cpuprofile_sample_at(const cpu_decoder *d, const cpu_batch *b, size_t index)
{
	pd_json_ints c = b->from;
	int64_t v;
	for (size_t i = 0; i <= index && pd_json_ints_next(&c, &v) > 0; i++)
		;
	return (uint64_t)(c.p - d->base);
}

/* Deltas for the batch's n samples, 0 past the list's end (counted missing): how many before a bad one. */
static size_t take_deltas(cpu_chunk_cursor *cc, cpu_batch *b, size_t n)
{
	size_t got = 0;
	while (got < n && cc->t_stop == 0)
		got += pd_json_ints_take(&cc->t, b->deltas + got, n - got, &cc->t_stop);
	if (got == n || cc->t_stop < 0)
		return got;
	memset(b->deltas + got, 0, (n - got) * sizeof *b->deltas);
	b->missing = n - got;
	return n;
}

/* The nodes of the batch's n ids: how many before the first the profile lacks. */
static size_t find_nodes(const cpu_decoder *d, uint32_t profile, cpu_batch *b, size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (!(b->nodes[j] = node_of(d, profile, b->ids[j])))
			return j;
	return n;
}

/* The next batch of the open chunk, up to its first fault (a missing node before a bad delta). */
static void fill_from_chunk(cpu_samples *s, cpu_batch *b)
{
	cpu_chunk_cursor *cc = &s->cc;
	b->chunk = s->chunk;
	b->from = cc->s;
	b->missing = 0;
	b->fault = CPU_FAULT_NONE;
	size_t n = pd_json_ints_take(&cc->s, b->ids, CPU_BATCH, &cc->s_stop);
	size_t timed = take_deltas(cc, b, n), found = find_nodes(s->d, s->d->chunks[s->chunk].profile, b, n);
	b->n = found < timed ? found : timed;
	if (found < n && found <= timed) {
		b->fault = CPU_FAULT_NODE;
		b->fault_id = b->ids[found];
	} else if (timed < n) {
		b->fault = CPU_FAULT_DELTA;
		b->fault_at = (uint64_t)(cc->t.p - s->d->base);
	} else if (cc->s_stop < 0) {
		b->fault = CPU_FAULT_SAMPLE;
		b->fault_at = (uint64_t)(cc->s.p - s->d->base);
	}
}

/* Fill b: 0 with more to come, 1 when b is the last (a fault), -1 when every chunk is read. */
static int fill(cpu_samples *s, cpu_batch *b)
{
	const cpu_decoder *d = s->d;
	while (s->chunk < d->nchunks) {
		const js_chunk *c = &d->chunks[s->chunk];
		if (!s->open) {
			cpu_chunk_cursor cc = { { c->samples, c->samples_end, 0 }, { c->deltas, c->deltas_end, 0 },
				                !c->samples, !c->deltas };
			s->cc = cc;
			s->open = 1;
		}
		if (s->cc.s_stop == 0) {
			fill_from_chunk(s, b);
			return b->fault != CPU_FAULT_NONE;
		}
		s->chunk++;
		s->open = 0;
	}
	return -1;
}

static int fill_slot(void *arg, unsigned slot)
{
	cpu_samples *s = arg;
	return fill(s, &s->batches[slot]);
}

int pd_cpuprofile_samples_start(cpu_samples *s, const cpu_decoder *d)
{
	memset(s, 0, sizeof *s);
	s->d = d;
	/* a short profile is read before a thread would have started */
	size_t bytes = 0;
	for (size_t i = 0; i < d->nchunks; i++)
		bytes += d->chunks[i].samples ? (size_t)(d->chunks[i].samples_end - d->chunks[i].samples) : 0;
	int ahead = bytes >= (size_t)1 << 20;
	if (!(s->batches = malloc((ahead ? CPU_BATCH_SLOTS : 1) * sizeof *s->batches)))
		return PROFDATA_ENOMEM;
	if (ahead)
		s->ahead = pd_relay_start(&s->relay, CPU_BATCH_SLOTS, fill_slot, s);
	return 0;
}

const cpu_batch *pd_cpuprofile_samples_next(cpu_samples *s)
{
	unsigned slot;
	if (s->ahead)
		return pd_relay_next(&s->relay, &slot) ? &s->batches[slot] : NULL;
	if (s->last || fill(s, &s->batches[0]) < 0)
		return NULL;
	s->last = s->batches[0].fault != CPU_FAULT_NONE;
	return &s->batches[0];
}

void pd_cpuprofile_samples_stop(cpu_samples *s)
{
	if (s->ahead)
		pd_relay_stop(&s->relay);
	free(s->batches);
	s->batches = NULL;
}
