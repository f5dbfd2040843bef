/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The chain pass over gperftools records: each record's call chain found
 * among those seen (or added, its PCs given frame ids), written to a batch
 * for decode.c to emit. It emits nothing and touches only the decoder's
 * chain and PC tables, so it can run ahead of the emitter on a second
 * thread (ahead.c) as well as in turn with it.
 */
#include <stdint.h>

#include "codecs/gperftools/gperftools.h"

void pd_gperftools_batch_free(pd_gperftools_batch *b)
{
	PD_FREE_ALL(b->found, b->ids);
	b->found = NULL;
	b->ids = NULL;
	b->n = b->cap = b->nids = b->ids_cap = 0;
}

int pd_gperftools_frame_id(pd_gperftools_decoder *d, uint64_t pc, uint32_t *id)
{
	uint32_t row;
	if (d->npcs >= UINT32_MAX - 1)
		return PROFDATA_ELIMIT;
	if (pd_grow((void **)&d->pc_of_frame, &d->pcs_cap, d->npcs + 1, sizeof *d->pc_of_frame))
		return PROFDATA_ENOMEM;
	d->pc_of_frame[d->npcs] = pc;
	int rc = pd_index_add(&d->frame_of_pc, d->pc_of_frame, (uint32_t)d->npcs, &row);
	if (rc < 0)
		return rc;
	*id = rc == 1 ? row + 1 : (uint32_t)++d->npcs;
	return 0;
}

/* The frame ids of a new chain's n PCs, appended to the batch's ids from *off. */
static int chain_frame_ids(pd_gperftools_decoder *d, pd_gperftools_batch *b, const uint64_t *pcs, size_t n,
                           size_t *off)
{
	size_t i;
	if (pd_grow((void **)&b->ids, &b->ids_cap, b->nids + n + 1, sizeof *b->ids))
		return PROFDATA_ENOMEM;
	/* A new chain's PCs are often new too: their lookups wait for memory
	 * together, first the slots, then the keys those slots name. */
	for (i = 0; i < n; i++)
		pd_index_prefetch(&d->frame_of_pc, pcs[i]);
	for (i = 0; i < n; i++)
		pd_index_prefetch_key(&d->frame_of_pc, d->pc_of_frame, pcs[i]);
	*off = b->nids;
	for (i = 0; i < n; i++) {
		uint32_t id;
		int rc = pd_gperftools_frame_id(d, pcs[i], &id);
		if (rc)
			return rc;
		b->ids[b->nids++] = id;
	}
	return 0;
}

/* The chain of the record whose PCs are at p (n slots) among those with its hash (from chain `k` on); 0 none. */
GPERFTOOLS_INLINE uint32_t find_chain(const pd_gperftools_decoder *d, uint32_t k, const unsigned char *p, size_t n,
                                      unsigned ws, int be)
{
	for (; k; k = d->chains[k - 1].next_same_hash) {
		const pd_gperftools_chain *c = &d->chains[k - 1];
		const uint64_t *q = d->chain_pcs + c->off;
		size_t i;
		if (c->n != n)
			continue;
		for (i = 0; i < n; i++)
			if (q[i] != pd_gperftools_load(p + i * ws, ws, be))
				break;
		if (i == n)
			return k;
	}
	return 0;
}

/* A new chain (stack serial = its index + 1) at the head of those with hash h; its frame ids go to the batch. */
static int add_chain(pd_gperftools_decoder *d, pd_gperftools_batch *b, const unsigned char *p, size_t n, uint64_t h,
                     uint32_t head, unsigned ws, int be, uint32_t *serial, size_t *ids)
{
	pd_gperftools_chain *c;
	if (d->nchains >= UINT32_MAX - 1 || n > UINT32_MAX)
		return PROFDATA_ELIMIT;
	if (pd_grow((void **)&d->chains, &d->chains_cap, d->nchains + 1, sizeof *d->chains) ||
	    pd_grow((void **)&d->chain_pcs, &d->chain_pcs_cap, d->chain_pcs_n + n + 1, sizeof *d->chain_pcs))
		return PROFDATA_ENOMEM;
	c = &d->chains[d->nchains];
	c->off = d->chain_pcs_n;
	c->n = (uint32_t)n;
	c->next_same_hash = head;
	for (size_t i = 0; i < n; i++)
		d->chain_pcs[c->off + i] = pd_gperftools_load(p + i * ws, ws, be);
	d->chain_pcs_n += n;
	*serial = (uint32_t)++d->nchains;
	if (pd_map_put(&d->chain_of_hash, h, *serial))
		return PROFDATA_ENOMEM;
	return chain_frame_ids(d, b, d->chain_pcs + c->off, n, ids);
}

/* One record whose PCs are at p (n slots), h their chain hash and head the
 * first chain with that hash: its chain found or added, into the batch. */
GPERFTOOLS_INLINE int note_record(pd_gperftools_decoder *d, pd_gperftools_batch *b, const unsigned char *p,
                                  uint64_t count, size_t n, uint64_t h, uint32_t head, unsigned ws, int be)
{
	uint32_t serial = find_chain(d, head, p, n, ws, be);
	size_t ids = PD_GPERFTOOLS_SEEN;
	int rc;
	if (!serial && (rc = add_chain(d, b, p, n, h, head, ws, be, &serial, &ids)) != 0)
		return rc;
	if (pd_grow((void **)&b->found, &b->cap, b->n + 1, sizeof *b->found))
		return PROFDATA_ENOMEM;
	b->found[b->n++] = (pd_gperftools_found){ .pcs = p, .count = count, .ids = ids, .serial = serial, .n = (uint32_t)n };
	return 0;
}

/* The stored PCs of chain k (up to four cache lines), which find_chain compares next. */
GPERFTOOLS_INLINE void prefetch_chain(const pd_gperftools_decoder *d, uint32_t k)
{
	const pd_gperftools_chain *c = &d->chains[k - 1];
	const uint64_t *q = d->chain_pcs + c->off;
	size_t n = c->n < 32 ? c->n : 32;
	for (size_t i = 0; i < n; i += 8)
		PD_PREFETCH(q + i);
	PD_PREFETCH(q + n - (n > 0));
}

/* pd_gperftools_run_records() in one slot layout. */
GPERFTOOLS_INLINE int run_records(pd_gperftools_decoder *d, pd_gperftools_batch *fb, const unsigned char *p,
                                  size_t avail, size_t limit, size_t *used, uint64_t *need, unsigned ws, int be)
{
	/* Records go in groups: find and hash a group, look up their chains
	 * and prefetch the stored PCs, then note them. The lookups of a group
	 * then wait for memory together instead of one after another. */
	enum { GROUP = 32 };
	struct {
		size_t pos, n;
		uint64_t count, h;
		uint32_t head;
	} b[GROUP];
	size_t pos = 0, nb, k, nchains;
	int stop = PD_GPERFTOOLS_RECORDS_MORE, rc;
	*need = 0;
	for (;;) {
		nb = 0;
		while (nb < GROUP && avail - pos >= 2 * (size_t)ws) {
			uint64_t count = pd_gperftools_load(p + pos, ws, be);
			uint64_t n = pd_gperftools_load(p + pos + ws, ws, be);
			size_t room = (avail - pos) / ws - 2;
			if (n > room) {
				*need = n > (UINT64_MAX / ws) - 2 ? UINT64_MAX : (n + 2) * ws;
				stop = -1;
				break;
			}
			if (count == 0 && n == 1 && pd_gperftools_load(p + pos + 2 * (size_t)ws, ws, be) == 0) {
				stop = PD_GPERFTOOLS_RECORDS_TRAILER;
				break;
			}
			b[nb].pos = pos;
			b[nb].n = (size_t)n;
			b[nb].count = count;
			/* equal PCs are equal bytes in one layout: hash the bytes as read */
			b[nb].h = pd_hash_bytes(p + pos + 2 * (size_t)ws, (size_t)n * ws, d->chain_seed);
			pd_map_prefetch(&d->chain_of_hash, b[nb].h);
			pos += (2 + (size_t)n) * ws;
			nb++;
		}
		for (k = 0; k < nb; k++) {
			b[k].head = pd_map_get(&d->chain_of_hash, b[k].h);
			if (b[k].head)
				PD_PREFETCH(&d->chains[b[k].head - 1]);
		}
		for (k = 0; k < nb; k++)
			if (b[k].head)
				prefetch_chain(d, b[k].head);
		nchains = d->nchains;
		for (k = 0; k < nb; k++) {
			/* a chain added earlier in this group may be this record's */
			if (d->nchains != nchains)
				b[k].head = pd_map_get(&d->chain_of_hash, b[k].h);
			rc = note_record(d, fb, p + b[k].pos + 2 * (size_t)ws, b[k].count, b[k].n, b[k].h, b[k].head, ws,
			                 be);
			if (rc) {
				*used = b[k].pos;
				return rc;
			}
		}
		if (stop == PD_GPERFTOOLS_RECORDS_TRAILER) {
			*used = pos + 3 * (size_t)ws;
			return PD_GPERFTOOLS_RECORDS_TRAILER;
		}
		if (stop != PD_GPERFTOOLS_RECORDS_MORE || avail - pos < 2 * (size_t)ws || fb->n >= limit)
			break;
	}
	*used = pos;
	return PD_GPERFTOOLS_RECORDS_MORE;
}

int pd_gperftools_run_records(pd_gperftools_decoder *d, pd_gperftools_batch *b, const unsigned char *p, size_t avail,
                              size_t limit, size_t *used, uint64_t *need)
{
	if (d->ws == 8 && !d->be)
		return run_records(d, b, p, avail, limit, used, need, 8, 0);
	if (d->ws == 8)
		return run_records(d, b, p, avail, limit, used, need, 8, 1);
	if (!d->be)
		return run_records(d, b, p, avail, limit, used, need, 4, 0);
	return run_records(d, b, p, avail, limit, used, need, 4, 1);
}
