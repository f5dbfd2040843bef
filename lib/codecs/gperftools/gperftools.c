/*
 * Google CPU profiles: the binary format gperftools' profiler writes
 * (src/profiledata.cc), read and written.
 *
 *   header   0, n >= 3, version (0, or 1 for the Java variant), period (us),
 *            then n - 2 more slots (one padding 0 in every real file)
 *   records  count, npcs, pc[npcs] (leaf first), repeated
 *   trailer  0, 1, 0
 *   text     /proc/self/maps as the profiled process saw it (version 0), or
 *            "0xADDR name" symbol lines (version 1)
 *
 * Slots are 4 or 8 bytes in the writer's byte order. See
 * doc/formats-gperftools.md for what the model receives.
 *
 * The decoder works from the input window: one hash table maps PCs to
 * frames, another maps call chains to stacks; nothing is allocated per
 * record. Version 0 streams (frames and the stack of a new chain are emitted
 * just before its first sample); version 1 learns function names only from
 * the text after the records, so it keeps the records and emits them then.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util/hashmap.h"

extern const struct profdata_format pd_format_gperftools;

#if defined(__GNUC__)
#define GP_INLINE static inline __attribute__((always_inline))
#define GP_PREFETCH(p) __builtin_prefetch(p)
#else
#define GP_INLINE static inline
#define GP_PREFETCH(p) ((void)(p))
#endif

/* Meta comment carrying header slots beyond version and period (the padding
 * slot and any extra ones), when they differ from the usual single 0. */
#define GP_HEADER_KEY "gperftools-header-extra"
/* At most this many header slots after slot 1: real files have 3. */
#define GP_MAX_HEADER 4096

/* ---- slots ---- */

GP_INLINE uint64_t gp_load(const unsigned char *p, unsigned ws, int be)
{
	if (ws == 8) {
		if (be)
			return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40) |
			       ((uint64_t)p[3] << 32) | ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) |
			       ((uint64_t)p[6] << 8) | (uint64_t)p[7];
		return ((uint64_t)p[7] << 56) | ((uint64_t)p[6] << 48) | ((uint64_t)p[5] << 40) |
		       ((uint64_t)p[4] << 32) | ((uint64_t)p[3] << 24) | ((uint64_t)p[2] << 16) |
		       ((uint64_t)p[1] << 8) | (uint64_t)p[0];
	}
	if (be)
		return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
	return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | (uint32_t)p[0];
}

GP_INLINE void gp_store(unsigned char *p, uint64_t v, unsigned ws, int be)
{
	if (ws == 8 && be) {
		p[0] = (unsigned char)(v >> 56); p[1] = (unsigned char)(v >> 48);
		p[2] = (unsigned char)(v >> 40); p[3] = (unsigned char)(v >> 32);
		p[4] = (unsigned char)(v >> 24); p[5] = (unsigned char)(v >> 16);
		p[6] = (unsigned char)(v >> 8); p[7] = (unsigned char)v;
	} else if (ws == 8) {
		p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8);
		p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
		p[4] = (unsigned char)(v >> 32); p[5] = (unsigned char)(v >> 40);
		p[6] = (unsigned char)(v >> 48); p[7] = (unsigned char)(v >> 56);
	} else if (be) {
		p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16);
		p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
	} else {
		p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8);
		p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
	}
}

/* One record: count, n, then the PCs. */
GP_INLINE void gp_put_record(unsigned char *p, uint64_t count, const uint64_t *pcs, size_t n, unsigned ws, int be)
{
	size_t i;
	gp_store(p, count, ws, be);
	gp_store(p + ws, n, ws, be);
	for (i = 0; i < n; i++)
		gp_store(p + (2 + i) * ws, pcs[i], ws, be);
}

/* The four layouts in the order google/pprof tries them. */
static const struct gp_layout {
	unsigned ws;
	int be;
} gp_layouts[4] = { { 4, 0 }, { 4, 1 }, { 8, 0 }, { 8, 1 } };

/*
 * How well `buf` matches a header of layout l: 2 full match with 3 header
 * slots and padding 0, 1 a valid but unusual header, -1 consistent so far
 * but cut short, 0 no.
 */
static int gp_header_match(const unsigned char *buf, size_t len, const struct gp_layout *l)
{
	uint64_t s[5];
	size_t have = len / l->ws, i;
	for (i = 0; i < 5 && i < have; i++)
		s[i] = gp_load(buf + i * l->ws, l->ws, l->be);
	if (have >= 1 && s[0] != 0)
		return 0;
	if (have >= 2 && (s[1] < 3 || s[1] > GP_MAX_HEADER))
		return 0;
	if (have >= 3 && s[2] > 1)
		return 0;
	if (have >= 4 && s[3] == 0)
		return 0;
	if (have < 5)
		return -1;
	return (s[1] == 3 && s[4] == 0) ? 2 : 1;
}

static int gp_bid(const unsigned char *buf, size_t len)
{
	size_t i;
	int best = 0;
	for (i = 0; i < 4; i++) {
		int m = gp_header_match(buf, len, &gp_layouts[i]);
		if (m == 2)
			return 90;
		if (m == 1 && best < 60)
			best = 60;
	}
	return best;
}

static uint64_t gp_mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 29);
}


/* ---- decoder ---- */

typedef struct gp_chain {
	uint64_t hash;
	size_t off;      /* into d->chain_pcs */
	uint32_t n;
} gp_chain;

/* A chain table slot: what a lookup needs, in one cache line. */
typedef struct gp_slot {
	uint64_t hash;
	size_t off;      /* into d->chain_pcs */
	uint32_t n;
	uint32_t serial; /* chain index + 1; 0 = empty */
} gp_slot;

typedef struct gp_rec {
	uint64_t count;
	uint32_t serial;
} gp_rec;

typedef struct gp_str {
	uint64_t hash;
	uint64_t id;
	size_t off, len; /* in str_arena */
} gp_str;

typedef struct gp_dec {
	const pd_decode_args *a;
	profdata_reader *in;
	unsigned ws;
	int be;
	int version;
	uint64_t period;
	int stopped;                 /* a callback said stop */

	/* PC -> frame id (1-based, order of first appearance) */
	uint64_t *pc_keys;
	uint32_t *pc_ids;            /* 0 = empty slot */
	size_t pc_cap, npcs;
	uint64_t pc_seed;     /* PCs come from the input: seeded against crafted collisions */

	/* call chain -> stack serial (= index + 1) */
	gp_slot *ch_slots;           /* open addressing; serial 0 = empty */
	size_t ch_cap;
	gp_chain *chains;
	size_t nchains, chains_cap;
	uint64_t *chain_pcs;
	size_t chain_pcs_n, chain_pcs_cap;

	uint64_t *scratch;           /* frame ids for a stack event */
	size_t scratch_cap;

	gp_rec *recs;                /* version 1: records kept until the symbols are known */
	size_t nrecs, recs_cap;

	uint64_t next_string;
	gp_str *strs;                /* dedup of mapping paths and function names */
	size_t nstrs, strs_cap;
	uint32_t *str_slots;         /* hash slots: index into strs + 1 */
	size_t str_slots_cap;
	pd_strbuf str_arena;
	uint64_t nrecords;
	uint64_t nsamples;
} gp_dec;

/* A callback returned non-zero: stop (its error, if any, is kept by the consumer). */
#define GP_STOP(d, rc) ((void)(rc), (d)->stopped = 1, PROFDATA_STOPPED)

static uint64_t gp_hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* Emit a string once, deduplicated; *id gets its id. */
static int gp_emit_string(gp_dec *d, uint64_t *id, const char *s, size_t len)
{
	uint64_t h = gp_hash_bytes(s, len);
	size_t j;
	int rc;
	if ((d->nstrs + 1) * 2 > d->str_slots_cap) {
		size_t ncap = d->str_slots_cap ? d->str_slots_cap * 2 : 64, i;
		uint32_t *slots = calloc(ncap, sizeof *slots);
		if (!slots)
			return PROFDATA_ENOMEM;
		for (i = 0; i < d->nstrs; i++) {
			j = (size_t)d->strs[i].hash & (ncap - 1);
			while (slots[j])
				j = (j + 1) & (ncap - 1);
			slots[j] = (uint32_t)(i + 1);
		}
		free(d->str_slots);
		d->str_slots = slots;
		d->str_slots_cap = ncap;
	}
	j = (size_t)h & (d->str_slots_cap - 1);
	while (d->str_slots[j]) {
		const gp_str *t = &d->strs[d->str_slots[j] - 1];
		if (t->hash == h && t->len == len && memcmp(d->str_arena.p + t->off, s, len) == 0) {
			*id = t->id;
			return 0;
		}
		j = (j + 1) & (d->str_slots_cap - 1);
	}
	if (d->nstrs >= UINT32_MAX - 1)
		return PROFDATA_ELIMIT;
	if (pd_grow((void **)&d->strs, &d->strs_cap, d->nstrs + 1, sizeof *d->strs))
		return PROFDATA_ENOMEM;
	d->strs[d->nstrs].off = d->str_arena.n;
	if (pd_strbuf_add(&d->str_arena, s, len))
		return PROFDATA_ENOMEM;
	d->strs[d->nstrs].len = len;
	d->strs[d->nstrs].hash = h;
	d->strs[d->nstrs].id = *id = d->next_string++;
	d->nstrs++;
	d->str_slots[j] = (uint32_t)d->nstrs;
	rc = PD_EMIT(d->a, string, *id, s, len);
	return rc ? GP_STOP(d, rc) : 0;
}

static int gp_pc_grow(gp_dec *d)
{
	size_t ncap = d->pc_cap ? d->pc_cap * 2 : 1024, i;
	uint64_t *keys = malloc(ncap * sizeof *keys);
	uint32_t *ids = calloc(ncap, sizeof *ids);
	if (!keys || !ids) {
		free(keys);
		free(ids);
		return PROFDATA_ENOMEM;
	}
	if (!d->pc_cap)
		d->pc_seed = pd_hash_seed(d);
	for (i = 0; i < d->pc_cap; i++) {
		if (d->pc_ids[i]) {
			size_t j = (size_t)pd_hash64(d->pc_keys[i] ^ d->pc_seed) & (ncap - 1);
			while (ids[j])
				j = (j + 1) & (ncap - 1);
			keys[j] = d->pc_keys[i];
			ids[j] = d->pc_ids[i];
		}
	}
	free(d->pc_keys);
	free(d->pc_ids);
	d->pc_keys = keys;
	d->pc_ids = ids;
	d->pc_cap = ncap;
	return 0;
}

/* Frame id of `pc`, adding it; *added says whether it is new. */
static int gp_pc_id(gp_dec *d, uint64_t pc, uint32_t *id, int *added)
{
	size_t j;
	if ((d->npcs + 1) * 2 > d->pc_cap) {
		int rc = gp_pc_grow(d);
		if (rc)
			return rc;
	}
	j = (size_t)pd_hash64(pc ^ d->pc_seed) & (d->pc_cap - 1);
	while (d->pc_ids[j]) {
		if (d->pc_keys[j] == pc) {
			*id = d->pc_ids[j];
			*added = 0;
			return 0;
		}
		j = (j + 1) & (d->pc_cap - 1);
	}
	if (d->npcs >= UINT32_MAX - 1)
		return PROFDATA_ELIMIT;
	d->pc_keys[j] = pc;
	d->pc_ids[j] = *id = (uint32_t)++d->npcs;
	*added = 1;
	return 0;
}

static int gp_ch_grow(gp_dec *d)
{
	size_t ncap = d->ch_cap ? d->ch_cap * 2 : 1024, i;
	gp_slot *slots = calloc(ncap, sizeof *slots);
	if (!slots)
		return PROFDATA_ENOMEM;
	for (i = 0; i < d->nchains; i++) {
		size_t j = (size_t)d->chains[i].hash & (ncap - 1);
		while (slots[j].serial)
			j = (j + 1) & (ncap - 1);
		slots[j].hash = d->chains[i].hash;
		slots[j].off = d->chains[i].off;
		slots[j].n = d->chains[i].n;
		slots[j].serial = (uint32_t)(i + 1);
	}
	free(d->ch_slots);
	d->ch_slots = slots;
	d->ch_cap = ncap;
	return 0;
}

static int gp_emit_frame(gp_dec *d, uint64_t id, uint64_t pc, uint64_t function_id, int32_t line)
{
	profdata_frame f;
	int rc;
	memset(&f, 0, sizeof f);
	f.id = id;
	f.function_id = function_id;
	f.line = line;
	f.address = pc;
	f.has_address = 1;
	rc = PD_EMIT(d->a, frame, &f);
	return rc ? GP_STOP(d, rc) : 0;
}

static int gp_emit_stack(gp_dec *d, uint32_t serial, const uint64_t *pcs, size_t n)
{
	profdata_stack s;
	size_t i;
	int rc;
	if (pd_grow((void **)&d->scratch, &d->scratch_cap, n ? n : 1, sizeof *d->scratch))
		return PROFDATA_ENOMEM;
	for (i = 0; i < n; i++) {
		uint32_t id;
		int added;
		rc = gp_pc_id(d, pcs[i], &id, &added);
		if (rc)
			return rc;
		if (added && d->version == 0) {
			rc = gp_emit_frame(d, id, pcs[i], 0, 0);
			if (rc)
				return rc;
		}
		d->scratch[i] = id;
	}
	if (d->version != 0)
		return 0;
	memset(&s, 0, sizeof s);
	s.serial = serial;
	s.frame_ids = d->scratch;
	s.nframes = n;
	rc = PD_EMIT(d->a, stack, &s);
	return rc ? GP_STOP(d, rc) : 0;
}

static int gp_emit_sample(gp_dec *d, uint32_t serial, uint64_t count)
{
	profdata_sample s;
	int64_t v[2];
	int rc;
	v[0] = (int64_t)count;
	v[1] = (int64_t)(count * d->period * 1000u);
	memset(&s, 0, sizeof s);
	s.stack_serial = serial;
	s.values = v;
	s.nvalues = 2;
	d->nsamples += count;
	rc = PD_EMIT(d->a, sample, &s);
	return rc ? GP_STOP(d, rc) : 0;
}

/*
 * One record whose PCs are at p (n slots). Finds or adds its chain and emits
 * (version 0) or keeps (version 1) its sample.
 */
GP_INLINE uint64_t gp_chain_hash(const unsigned char *p, size_t n, unsigned ws, int be)
{
	uint64_t h = gp_mix(0x243F6A8885A308D3ull, n);
	size_t i;
	for (i = 0; i < n; i++)
		h = gp_mix(h, gp_load(p + i * ws, ws, be));
	return h;
}

GP_INLINE int gp_record(gp_dec *d, const unsigned char *p, uint64_t count, size_t n, uint64_t h, unsigned ws,
                        int be)
{
	size_t i, j;
	uint32_t serial = 0;
	int rc;

	if (PD_UNLIKELY((d->nchains + 1) * 2 > d->ch_cap)) {
		rc = gp_ch_grow(d);
		if (rc)
			return rc;
	}
	j = (size_t)h & (d->ch_cap - 1);
	while (d->ch_slots[j].serial) {
		const gp_slot *c = &d->ch_slots[j];
		if (c->hash == h && c->n == n) {
			const uint64_t *q = d->chain_pcs + c->off;
			for (i = 0; i < n; i++)
				if (q[i] != gp_load(p + i * ws, ws, be))
					break;
			if (i == n) {
				serial = c->serial;
				break;
			}
		}
		j = (j + 1) & (d->ch_cap - 1);
	}
	if (!serial) {
		gp_chain *c;
		gp_slot *sl = &d->ch_slots[j];
		if (d->nchains >= UINT32_MAX - 1 || n > UINT32_MAX)
			return PROFDATA_ELIMIT;
		if (pd_grow((void **)&d->chains, &d->chains_cap, d->nchains + 1, sizeof *d->chains) ||
		    pd_grow((void **)&d->chain_pcs, &d->chain_pcs_cap, d->chain_pcs_n + n + 1, sizeof *d->chain_pcs))
			return PROFDATA_ENOMEM;
		c = &d->chains[d->nchains];
		c->hash = h;
		c->off = d->chain_pcs_n;
		c->n = (uint32_t)n;
		for (i = 0; i < n; i++)
			d->chain_pcs[c->off + i] = gp_load(p + i * ws, ws, be);
		d->chain_pcs_n += n;
		serial = (uint32_t)++d->nchains;
		sl->hash = h;
		sl->off = c->off;
		sl->n = c->n;
		sl->serial = serial;
		rc = gp_emit_stack(d, serial, d->chain_pcs + c->off, n);
		if (rc)
			return rc;
	}
	d->nrecords++;
	if (d->version == 0)
		return gp_emit_sample(d, serial, count);
	if (pd_grow((void **)&d->recs, &d->recs_cap, d->nrecs + 1, sizeof *d->recs))
		return PROFDATA_ENOMEM;
	d->recs[d->nrecs].count = count;
	d->recs[d->nrecs].serial = serial;
	d->nrecs++;
	return 0;
}

enum { GP_MORE = 0, GP_TRAILER = 1 };

/*
 * Parse the complete records of the window [p, p + avail). *used gets the
 * bytes consumed; *need the bytes the next (incomplete) record needs from
 * there, 0 when even its count and length are not there. Returns GP_MORE,
 * GP_TRAILER, or an error.
 */
GP_INLINE int gp_run(gp_dec *d, const unsigned char *p, size_t avail, size_t *used, uint64_t *need,
                     unsigned ws, int be)
{
	/* Records go in batches: find and hash a batch, prefetch the chain
	 * table slots, then the stored chains, then process. The lookups of a
	 * batch then wait for memory together instead of one after another. */
	enum { BATCH = 32 };
	struct {
		size_t pos, n;
		uint64_t count, h;
	} b[BATCH];
	size_t pos = 0, nb, k;
	int stop = GP_MORE, rc;
	*need = 0;
	for (;;) {
		nb = 0;
		while (nb < BATCH && avail - pos >= 2 * (size_t)ws) {
			uint64_t count = gp_load(p + pos, ws, be);
			uint64_t n = gp_load(p + pos + ws, ws, be);
			size_t room = (avail - pos) / ws - 2;
			if (n > room) {
				*need = n > (UINT64_MAX / ws) - 2 ? UINT64_MAX : (n + 2) * ws;
				stop = -1;
				break;
			}
			if (count == 0 && n == 1 && gp_load(p + pos + 2 * (size_t)ws, ws, be) == 0) {
				stop = GP_TRAILER;
				break;
			}
			b[nb].pos = pos;
			b[nb].n = (size_t)n;
			b[nb].count = count;
			b[nb].h = gp_chain_hash(p + pos + 2 * (size_t)ws, (size_t)n, ws, be);
			if (d->ch_cap)
				GP_PREFETCH(&d->ch_slots[(size_t)b[nb].h & (d->ch_cap - 1)]);
			pos += (2 + (size_t)n) * ws;
			nb++;
		}
		if (d->ch_cap) {
			for (k = 0; k < nb; k++) {
				const gp_slot *sl = &d->ch_slots[(size_t)b[k].h & (d->ch_cap - 1)];
				if (sl->serial && sl->hash == b[k].h)
					GP_PREFETCH(d->chain_pcs + sl->off);
			}
		}
		for (k = 0; k < nb; k++) {
			rc = gp_record(d, p + b[k].pos + 2 * (size_t)ws, b[k].count, b[k].n, b[k].h, ws, be);
			if (rc) {
				*used = b[k].pos;
				return rc;
			}
		}
		if (stop == GP_TRAILER) {
			*used = pos + 3 * (size_t)ws;
			return GP_TRAILER;
		}
		if (stop != GP_MORE || avail - pos < 2 * (size_t)ws)
			break;
	}
	*used = pos;
	return GP_MORE;
}

static int gp_run_layout(gp_dec *d, const unsigned char *p, size_t avail, size_t *used, uint64_t *need)
{
	if (d->ws == 8 && !d->be)
		return gp_run(d, p, avail, used, need, 8, 0);
	if (d->ws == 8)
		return gp_run(d, p, avail, used, need, 8, 1);
	if (!d->be)
		return gp_run(d, p, avail, used, need, 4, 0);
	return gp_run(d, p, avail, used, need, 4, 1);
}

/* The error a callback or allocation failure turns into on the reader. */
static int gp_fail(gp_dec *d, int rc, uint64_t off)
{
	if (d->stopped || rc == PROFDATA_STOPPED)
		return rc;
	if (rc == PROFDATA_ENOMEM)
		return pd_in_error(d->in, rc, off, "out of memory");
	if (rc == PROFDATA_ELIMIT)
		return pd_in_error(d->in, rc, off, "more than 2^32 distinct PCs or call chains");
	return rc;
}

enum { GP_END_NONE = 0, GP_END_TRAILER = 1, GP_END_CUT = 2 };

/* Records up to and including the trailer. *how gets GP_END_*; returns 0,
 * PROFDATA_STOPPED or an error. */
static int gp_records(gp_dec *d, int *how)
{
	const size_t chunk = (size_t)1 << 20;
	for (;;) {
		const unsigned char *p;
		uint64_t base = pd_in_offset(d->in), need = 0;
		size_t used = 0, want = chunk;
		int64_t avail = pd_in_fill(d->in, want, &p);
		int rc;
		if (avail < 0)
			return (int)avail;
		if (avail == 0) {
			*how = GP_END_NONE;
			return 0;
		}
		rc = gp_run_layout(d, p, (size_t)avail, &used, &need);
		pd_in_skip(d->in, used);
		if (rc == GP_TRAILER) {
			*how = GP_END_TRAILER;
			return 0;
		}
		if (rc < 0 || rc == PROFDATA_STOPPED)
			return gp_fail(d, rc, base + used);
		if (used > 0)
			continue;
		/* Not even one record in the window: make room for it. A length no
		 * input could satisfy is treated as a record cut short. */
		if (need == 0)
			need = 2 * (uint64_t)d->ws;
		if (need <= (uint64_t)(SIZE_MAX / 4)) {
			avail = pd_in_fill(d->in, (size_t)need, &p);
			if (avail < 0)
				return (int)avail;
		}
		if ((uint64_t)avail < need) {
			/* Cut inside a record. */
			if (d->a->mode == PROFDATA_MODE_STRICT)
				return pd_in_error(d->in, PROFDATA_ETRUNCATED, base,
				                   "profile cut inside the record at offset %" PRIu64
				                   " (%" PRId64 " of %" PRIu64 " bytes)",
				                   base, avail, need);
			pd_in_warn(d->in, PROFDATA_ETRUNCATED, base,
			           "profile cut inside the record at offset %" PRIu64 " (%" PRId64 " of %" PRIu64
			           " bytes): kept the %" PRIu64 " complete records before it",
			           base, avail, need, d->nrecords);
			pd_in_skip(d->in, (size_t)avail);
			*how = GP_END_CUT;
			return 0;
		}
		/* The record now fits: loop. */
	}
}

/* Everything left in the input, as one window. */
static int gp_rest(gp_dec *d, const unsigned char **text, size_t *len)
{
	size_t want = 4096;
	for (;;) {
		int64_t n = pd_in_fill(d->in, want, text);
		if (n < 0)
			return (int)n;
		if ((size_t)n < want) {
			*len = (size_t)n;
			return 0;
		}
		if ((size_t)n > SIZE_MAX / 2)
			return pd_in_error(d->in, PROFDATA_ELIMIT, pd_in_offset(d->in), "text section too large");
		want = (size_t)n * 2;
	}
}

static int gp_is_word(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int gp_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse hex digits at s[*i] (at least one, at most 16). */
static int gp_parse_hex(const char *s, size_t len, size_t *i, uint64_t *v)
{
	size_t start = *i;
	uint64_t x = 0;
	while (*i < len && gp_hexval((unsigned char)s[*i]) >= 0) {
		if (*i - start >= 16)
			return 0;
		x = (x << 4) | (uint64_t)gp_hexval((unsigned char)s[*i]);
		(*i)++;
	}
	*v = x;
	return *i > start;
}

static int gp_parse_dec(const char *s, size_t len, size_t *i, uint64_t *v)
{
	size_t start = *i;
	uint64_t x = 0;
	while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		unsigned dgt = (unsigned)(s[*i] - '0');
		if (x > (UINT64_MAX - dgt) / 10)
			return 0;
		x = x * 10 + dgt;
		(*i)++;
	}
	*v = x;
	return *i > start;
}

static int gp_is_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static size_t gp_skip_space(const char *s, size_t len, size_t i)
{
	while (i < len && gp_is_space((unsigned char)s[i]))
		i++;
	return i;
}


/*
 * One line of the maps text (without its newline). Emits a mapping for
 * /proc/self/maps lines and the short "start-end path" form; remembers
 * build= lines; ignores anything else.
 */
static int gp_maps_line(gp_dec *d, const char *s, size_t len, pd_strbuf *build, int *have_build, pd_strbuf *path)
{
	profdata_mapping m;
	size_t i = 0, j, k, plen;
	uint64_t v;
	int rc;

	while (len > 0 && gp_is_space((unsigned char)s[len - 1]))
		len--;
	j = gp_skip_space(s, len, 0);
	if (len - j >= 6 && memcmp(s + j, "build=", 6) == 0) {
		build->n = 0;
		*have_build = 1;
		return pd_strbuf_add(build, s + j + 6, len - j - 6);
	}
	memset(&m, 0, sizeof m);
	if (!gp_parse_hex(s, len, &i, &m.start) || i >= len || s[i] != '-')
		return 0;
	i++;
	if (!gp_parse_hex(s, len, &i, &m.limit))
		return 0;
	if (i < len && !gp_is_space((unsigned char)s[i]))
		return 0;
	i = gp_skip_space(s, len, i);
	/* The full form: perms offset dev inode [path]. */
	j = i;
	for (k = 0; k < 4 && j < len && s[j] && strchr("rwxsp-", s[j]); k++)
		j++;
	if (k == 4 && j < len && gp_is_space((unsigned char)s[j])) {
		size_t t = gp_skip_space(s, len, j), d0;
		uint64_t off, inode;
		if (gp_parse_hex(s, len, &t, &off) && t < len && gp_is_space((unsigned char)s[t])) {
			t = gp_skip_space(s, len, t);
			d0 = t;
			if (gp_parse_hex(s, len, &t, &v) && t < len && s[t] == ':') {
				t++;
				if (gp_parse_hex(s, len, &t, &v) && t - d0 < sizeof m.device &&
				    (t == len || gp_is_space((unsigned char)s[t]))) {
					size_t d1 = t;
					t = gp_skip_space(s, len, t);
					if (gp_parse_dec(s, len, &t, &inode) && (t == len || gp_is_space((unsigned char)s[t]))) {
						memcpy(m.perms, s + i, 4);
						m.perms[4] = 0;
						memcpy(m.device, s + d0, d1 - d0);
						m.device[d1 - d0] = 0;
						m.offset = off;
						m.inode = inode;
						i = gp_skip_space(s, len, t);
					}
				}
			}
		}
	}
	/* The rest is the path, with $build substituted. */
	path->n = 0;
	for (j = i; j < len; j++) {
		if (*have_build && s[j] == '$' && len - j >= 6 && memcmp(s + j + 1, "build", 5) == 0 &&
		    (j + 6 == len || !gp_is_word((unsigned char)s[j + 6]))) {
			rc = pd_strbuf_add(path, build->p ? build->p : "", build->n);
			j += 5;
		} else {
			rc = pd_strbuf_add(path, s + j, 1);
		}
		if (rc)
			return rc;
	}
	plen = path->n;
	if (plen > 0) {
		rc = gp_emit_string(d, &m.path_id, path->p, plen);
		if (rc)
			return rc;
	}
	rc = PD_EMIT(d->a, mapping, &m);
	return rc ? GP_STOP(d, rc) : 0;
}

static int gp_maps(gp_dec *d, const unsigned char *text, size_t len)
{
	const char *s = (const char *)text;
	pd_strbuf build = { 0, 0, 0 }, path = { 0, 0, 0 };
	int have_build = 0, rc = 0;
	size_t i = 0;
	while (i < len && rc == 0) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len;
		rc = gp_maps_line(d, s + i, e - i, &build, &have_build, &path);
		i = e + 1;
	}
	free(build.p);
	free(path.p);
	return rc;
}

/* ---- the Java variant: "0xADDR name" symbol lines ---- */

typedef struct gp_sym {
	uint64_t pc;
	uint64_t function_id;
	size_t order;    /* line order: the first line naming a PC wins */
	int32_t line;
} gp_sym;

static int gp_sym_cmp(const void *a, const void *b)
{
	const gp_sym *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static const gp_sym *gp_sym_find(const gp_sym *syms, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (syms[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && syms[lo].pc == pc ? &syms[lo] : NULL;
}

/*
 * Split a symbol description the way google/pprof does: "name (file:line)",
 * "name (path)" (a shared library: the file is its base name), or all of it
 * as the name. A line that is not a positive number counts as none.
 */
static void gp_split_symbol(const char *s, size_t len, size_t *name_len, const char **file, size_t *file_len,
                            int32_t *line)
{
	size_t open, k, colon;
	*name_len = len;
	*file = NULL;
	*file_len = 0;
	*line = 0;
	if (len < 4 || s[len - 1] != ')')
		return;
	for (open = len - 1; open > 0 && s[open] != '('; open--)
		;
	/* "name (x)": a space before the parenthesis, something inside */
	if (open == 0 || !gp_is_space((unsigned char)s[open - 1]) || open + 1 >= len - 1)
		return;
	k = len - 1; /* the ')' */
	while (k > open + 1 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	colon = k;
	if (k < len - 1 && k > open + 1 && s[k - 1] == '-')
		colon = k - 1;
	if (colon < len - 1 && colon > open + 2 && s[colon - 1] == ':') {
		/* (file:line) */
		long long ln = 0;
		size_t t;
		for (t = k; t < len - 1 && ln < 1000000000; t++)
			ln = ln * 10 + (s[t] - '0');
		*file = s + open + 1;
		*file_len = colon - 1 - (open + 1);
		*line = (colon != k || ln >= 1000000000) ? 0 : (int32_t)ln;
	} else {
		/* (path): keep its base name */
		*file = s + open + 1;
		*file_len = len - 1 - (open + 1);
		for (k = *file_len; k > 0; k--) {
			if ((*file)[k - 1] == '/') {
				*file += k;
				*file_len -= k;
				break;
			}
		}
	}
	k = open;
	while (k > 0 && gp_is_space((unsigned char)s[k - 1]))
		k--;
	*name_len = k;
}

/* Parse the symbol lines into functions (emitted now) and a PC -> function table. */
static int gp_java_symbols(gp_dec *d, const char *s, size_t len, gp_sym **out, size_t *nout)
{
	gp_sym *syms = NULL;
	size_t nsyms = 0, syms_cap = 0, i = 0, k;
	pd_map fns = { 0, 0, 0, 0 }; /* name id << 32 | file id -> function id */
	uint32_t nfns = 0;
	int rc = 0;

	while (i < len && rc == 0) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len, j = gp_skip_space(s, e, i), name_len, file_len, t;
		uint64_t pc, name_id = 0, file_id = 0, key;
		uint32_t fid;
		const char *file;
		int32_t line;

		i = e + 1;
		while (e > j && gp_is_space((unsigned char)s[e - 1]))
			e--;
		if (e - j < 4 || s[j] != '0' || (s[j + 1] != 'x' && s[j + 1] != 'X'))
			continue;
		t = j + 2;
		if (!gp_parse_hex(s, e, &t, &pc) || t >= e || !gp_is_space((unsigned char)s[t]))
			continue;
		t = gp_skip_space(s, e, t);
		gp_split_symbol(s + t, e - t, &name_len, &file, &file_len, &line);
		if ((rc = gp_emit_string(d, &name_id, s + t, name_len)) != 0)
			break;
		if (file_len && (rc = gp_emit_string(d, &file_id, file, file_len)) != 0)
			break;
		key = (name_id << 32) | file_id;
		fid = pd_map_get(&fns, key);
		if (!fid) {
			profdata_function f;
			fid = ++nfns;
			if ((rc = pd_map_put(&fns, key, fid)) != 0)
				break;
			memset(&f, 0, sizeof f);
			f.id = fid;
			f.name_id = name_id;
			f.source_file_id = file_id;
			rc = PD_EMIT(d->a, function, &f);
			if (rc) {
				rc = GP_STOP(d, rc);
				break;
			}
		}
		if (pd_grow((void **)&syms, &syms_cap, nsyms + 1, sizeof *syms)) {
			rc = PROFDATA_ENOMEM;
			break;
		}
		syms[nsyms].pc = pc;
		syms[nsyms].function_id = fid;
		syms[nsyms].line = line;
		syms[nsyms].order = nsyms;
		nsyms++;
	}
	pd_map_free(&fns);
	if (rc) {
		free(syms);
		return rc;
	}
	if (nsyms > 1) {
		size_t w = 1;
		qsort(syms, nsyms, sizeof *syms, gp_sym_cmp);
		for (k = 1; k < nsyms; k++)
			if (syms[k].pc != syms[w - 1].pc)
				syms[w++] = syms[k];
		nsyms = w;
	}
	*out = syms;
	*nout = nsyms;
	return 0;
}

/*
 * The Java variant, once the records are read: functions from the symbol
 * text, then frames in order of first appearance, stacks, samples.
 */
static int gp_java(gp_dec *d, const unsigned char *text, size_t len)
{
	gp_sym *syms = NULL;
	size_t nsyms = 0, k;
	uint64_t *pcs;
	int rc = gp_java_symbols(d, (const char *)text, len, &syms, &nsyms);
	if (rc)
		return rc;
	pcs = malloc((d->npcs ? d->npcs : 1) * sizeof *pcs);
	if (!pcs) {
		free(syms);
		return PROFDATA_ENOMEM;
	}
	for (k = 0; k < d->pc_cap; k++)
		if (d->pc_ids[k])
			pcs[d->pc_ids[k] - 1] = d->pc_keys[k];
	for (k = 0; k < d->npcs && rc == 0; k++) {
		const gp_sym *sy = gp_sym_find(syms, nsyms, pcs[k]);
		rc = gp_emit_frame(d, k + 1, pcs[k], sy ? sy->function_id : 0, sy ? sy->line : 0);
	}
	free(pcs);
	free(syms);
	for (k = 0; k < d->nchains && rc == 0; k++) {
		profdata_stack st;
		const gp_chain *c = &d->chains[k];
		size_t f;
		for (f = 0; f < c->n; f++) {
			uint32_t id;
			int added;
			rc = gp_pc_id(d, d->chain_pcs[c->off + f], &id, &added);
			if (rc)
				break;
			d->scratch[f] = id;
		}
		if (rc)
			break;
		memset(&st, 0, sizeof st);
		st.serial = (uint32_t)(k + 1);
		st.frame_ids = d->scratch;
		st.nframes = c->n;
		rc = PD_EMIT(d->a, stack, &st);
		if (rc)
			rc = GP_STOP(d, rc);
	}
	for (k = 0; k < d->nrecs && rc == 0; k++)
		rc = gp_emit_sample(d, d->recs[k].serial, d->recs[k].count);
	return rc;
}

static void gp_dec_free(gp_dec *d)
{
	free(d->pc_keys);
	free(d->pc_ids);
	free(d->ch_slots);
	free(d->chains);
	free(d->chain_pcs);
	free(d->scratch);
	free(d->recs);
	free(d->strs);
	free(d->str_slots);
	free(d->str_arena.p);
}

static const char *const gp_read_options[] = { "word_size", "byte_order", NULL };
static const char *const gp_write_options[] = { "word_size", "byte_order", NULL };

/* word_size and byte_order options: *ws 0 and *be -1 when not given. */
static int gp_layout_options(const pd_options *o, pd_diag *diag, unsigned *ws, int *be)
{
	const char *bo;
	long long v;
	int rc;
	*ws = 0;
	*be = -1;
	if (!o)
		return 0;
	if (pd_options_get(o, "word_size")) {
		rc = pd_options_int(o, "word_size", 8, 4, 8, &v, diag);
		if (rc)
			return rc;
		if (v != 4 && v != 8)
			return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "word_size must be 4 or 8, not %lld", v);
		*ws = (unsigned)v;
	}
	bo = pd_options_get(o, "byte_order");
	if (bo) {
		if (strcmp(bo, "little") == 0)
			*be = 0;
		else if (strcmp(bo, "big") == 0)
			*be = 1;
		else
			return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
			                     "byte_order must be little or big, not \"%s\"", bo);
	}
	return 0;
}

static int gp_header(gp_dec *d, profdata_meta *meta, char **extra_text)
{
	const unsigned char *p;
	unsigned want_ws;
	int want_be, rc, found = -1, partial = 0, m;
	int64_t avail;
	size_t i, nhdr;
	uint64_t off = pd_in_offset(d->in);

	rc = gp_layout_options(d->a->opts, pd_in_diag(d->in), &want_ws, &want_be);
	if (rc)
		return rc;
	avail = pd_in_fill(d->in, 40, &p);
	if (avail < 0)
		return (int)avail;
	for (i = 0; i < 4 && found < 0; i++) {
		if ((want_ws && gp_layouts[i].ws != want_ws) || (want_be >= 0 && gp_layouts[i].be != want_be))
			continue;
		m = gp_header_match(p, (size_t)avail, &gp_layouts[i]);
		if (m > 0)
			found = (int)i;
		else if (m < 0)
			partial = 1;
	}
	if (found < 0) {
		if (avail == 0)
			return pd_in_error(d->in, PROFDATA_ETRUNCATED, off, "empty input: no gperftools profile header");
		if (partial)
			return pd_in_error(d->in, PROFDATA_ETRUNCATED, off,
			                   "gperftools profile header cut short (%" PRId64 " bytes)", avail);
		return pd_in_error(d->in, PROFDATA_EFORMAT, off,
		                   "not a gperftools CPU profile: the header does not read 0, >=3, 0|1, period > 0%s",
		                   (want_ws || want_be >= 0) ? " in the requested word size and byte order" : "");
	}
	d->ws = gp_layouts[found].ws;
	d->be = gp_layouts[found].be;
	nhdr = (size_t)gp_load(p + d->ws, d->ws, d->be);
	d->version = (int)gp_load(p + 2 * d->ws, d->ws, d->be);
	d->period = gp_load(p + 3 * d->ws, d->ws, d->be);
	avail = pd_in_fill(d->in, (2 + nhdr) * d->ws, &p);
	if (avail < 0)
		return (int)avail;
	if ((size_t)avail < (2 + nhdr) * d->ws)
		return pd_in_error(d->in, PROFDATA_ETRUNCATED, off,
		                   "gperftools profile header of %zu slots cut short (%" PRId64 " bytes)", nhdr + 2,
		                   avail);
	/* Slots after version and period: kept unless they are the usual single 0. */
	if (!(nhdr == 3 && gp_load(p + 4 * d->ws, d->ws, d->be) == 0)) {
		size_t cap = (nhdr - 2) * 19 + 1, n = 0;
		char *t = malloc(cap);
		if (!t)
			return pd_in_error(d->in, PROFDATA_ENOMEM, off, "out of memory");
		t[0] = 0;
		for (i = 4; i < nhdr + 2; i++)
			n += (size_t)snprintf(t + n, cap - n, "%s0x%" PRIx64, i > 4 ? " " : "",
			                      gp_load(p + i * d->ws, d->ws, d->be));
		*extra_text = t;
	}
	pd_in_skip(d->in, (2 + nhdr) * d->ws);
	memset(meta, 0, sizeof *meta);
	meta->format = "gperftools";
	meta->version = d->version ? "1" : "0";
	meta->word_size = d->ws;
	meta->big_endian = d->be;
	meta->period = d->period;
	meta->period_type = "cpu";
	meta->period_unit = "microseconds";
	return 0;
}

static int gp_decode(const pd_decode_args *a)
{
	gp_dec d;
	profdata_meta meta;
	profdata_kv kv;
	char *extra = NULL;
	int rc, ended = GP_END_NONE;
	uint64_t ids[4];
	static const char *const names[4] = { "samples", "count", "cpu", "nanoseconds" };
	size_t i;

	memset(&d, 0, sizeof d);
	d.a = a;
	d.in = a->in;
	d.next_string = 1;
	rc = gp_header(&d, &meta, &extra);
	if (rc)
		return rc;
	if (extra) {
		kv.key = GP_HEADER_KEY;
		kv.value = extra;
		meta.comments = &kv;
		meta.ncomments = 1;
	}
	rc = PD_EMIT(a, begin, &meta);
	free(extra);
	if (rc)
		return PROFDATA_STOPPED;
	for (i = 0; i < 4 && rc == 0; i++)
		rc = gp_emit_string(&d, &ids[i], names[i], strlen(names[i]));
	if (rc == 0) {
		profdata_sample_type t;
		profdata_sample_group g;
		t.type_id = ids[0];
		t.unit_id = ids[1];
		rc = PD_EMIT(a, sample_type, &t);
		if (rc == 0) {
			t.type_id = ids[2];
			t.unit_id = ids[3];
			rc = PD_EMIT(a, sample_type, &t);
		}
		if (rc == 0) {
			memset(&g, 0, sizeof g);
			rc = PD_EMIT(a, sample_group, &g);
		}
		if (rc)
			rc = GP_STOP(&d, rc);
	}
	if (rc) {
		rc = gp_fail(&d, rc, pd_in_offset(d.in));
		goto out;
	}

	rc = gp_records(&d, &ended);
	if (rc)
		goto out;
	if (ended == GP_END_NONE) {
		uint64_t off = pd_in_offset(d.in);
		if (a->mode == PROFDATA_MODE_STRICT) {
			rc = pd_in_error(d.in, PROFDATA_ETRUNCATED, off,
			                 "no trailer: the profile ends after %" PRIu64 " records (was the process killed?)",
			                 d.nrecords);
			goto out;
		}
		pd_in_warn(d.in, PROFDATA_ETRUNCATED, off,
		           "no trailer: the profile ends after %" PRIu64 " records (was the process killed?)",
		           d.nrecords);
	}
	if (ended == GP_END_TRAILER) {
		const unsigned char *text = NULL;
		size_t len = 0;
		uint64_t toff = pd_in_offset(d.in);
		rc = gp_rest(&d, &text, &len);
		if (rc)
			goto out;
		if (d.version == 0)
			rc = gp_maps(&d, text, len);
		else
			rc = gp_java(&d, text, len);
		if (rc == 0 && len > 0) {
			profdata_attachment at;
			at.name = d.version == 0 ? "maps" : "symbols";
			at.data = text;
			at.len = len;
			rc = PD_EMIT(a, attachment, &at);
			if (rc)
				rc = GP_STOP(&d, rc);
		}
		if (rc) {
			rc = gp_fail(&d, rc, toff);
			goto out;
		}
		pd_in_skip(d.in, len);
	} else if (d.version != 0) {
		rc = gp_java(&d, NULL, 0);
		if (rc) {
			rc = gp_fail(&d, rc, pd_in_offset(d.in));
			goto out;
		}
	}
	rc = PD_EMIT0(a, end);
	if (rc)
		rc = PROFDATA_STOPPED;
out:
	gp_dec_free(&d);
	return rc;
}

/* ---- encoder ---- */


typedef struct gp_efn {
	uint64_t name_id, signature_id, file_id;
	uint32_t class_serial;
} gp_efn;

typedef struct gp_eframe {
	uint64_t id;
	uint64_t pc;
	uint64_t function_id;
	int32_t line;
	int synthesized;  /* pc made up: the frame had no address */
} gp_eframe;

typedef struct gp_estack {
	size_t off;
	size_t n;
} gp_estack;

typedef struct gp_emapping {
	profdata_mapping m;
} gp_emapping;

typedef struct gp_enc {
	profdata_writer *w;
	unsigned ws;
	int be;

	/* strings: id -> (offset, length) in the arena */
	pd_map str_map;
	struct { size_t off, len; } *strs;
	size_t nstr, str_cap;
	pd_strbuf arena;

	pd_map fn_map;
	gp_efn *fns;
	size_t nfns, fns_cap;
	pd_map class_map;   /* class serial -> name string id + 1 ... stored in class_names */
	uint64_t *class_names;
	size_t nclasses, classes_cap;
	pd_map frame_map;
	gp_eframe *frames;
	size_t nframes, frames_cap;
	pd_map stack_map;
	gp_estack *stacks;
	size_t nstacks, stacks_cap;
	uint64_t *stack_pcs;
	size_t stack_pcs_n, stack_pcs_cap;
	uint64_t *type_ids;   /* sample types: type and unit string ids, pairs */
	size_t ntypes, types_cap;
	profdata_mapping *maps;
	size_t nmaps, maps_cap;
	pd_strbuf maps_text, symbols_text;
	int have_maps_text, have_symbols_text;

	uint64_t period_us;
	int have_meta;
	int java;             /* write the Java variant (version 1) */
	int meta_version1;    /* the source was a gperftools Java-variant profile */
	uint64_t *hdr_extra;  /* header slots after version and period */
	size_t nhdr_extra, hdr_extra_cap;
	uint64_t nsynth;
	int count_index;      /* value giving a sample's count; -1 not yet known */
	int header_written, finished, failed;
	int warned_late_synth, warned_empty;
} gp_enc;

static int gp_enc_err(gp_enc *e, int code, const char *what)
{
	e->failed = code;
	return pd_out_error(e->w, code, "gperftools: %s", what);
}

static const char *gp_enc_str(const gp_enc *e, uint64_t id, size_t *len)
{
	uint32_t k = id ? pd_map_get(&e->str_map, id) : 0;
	if (!k) {
		*len = 0;
		return NULL;
	}
	*len = e->strs[k - 1].len;
	return e->arena.p + e->strs[k - 1].off;
}

static int gp_enc_str_is(const gp_enc *e, uint64_t id, const char *s)
{
	size_t len;
	const char *t = gp_enc_str(e, id, &len);
	return t && len == strlen(s) && memcmp(t, s, len) == 0;
}

static int gp_enc_begin(void *payload, const profdata_meta *m)
{
	gp_enc *e = payload;
	size_t i;
	uint64_t period = m->period;
	const char *unit = m->period_unit;

	if (period && unit && strcmp(unit, "nanoseconds") == 0)
		period = (period + 500) / 1000;
	else if (period && unit && strcmp(unit, "milliseconds") == 0)
		period = period * 1000;
	else if (period && unit && strcmp(unit, "seconds") == 0)
		period = period * 1000000;
	else if (period && unit && strcmp(unit, "microseconds") != 0)
		pd_out_warn(e->w, "gperftools: sampling period unit \"%s\" is not a time: wrote %" PRIu64
		            " as microseconds", unit, period);
	if (!period) {
		period = 10000;
		pd_out_warn(e->w, "gperftools: the input has no sampling period: wrote 10000 us (100 Hz)");
	}
	e->period_us = period;
	e->meta_version1 = m->format && strcmp(m->format, "gperftools") == 0 && m->version &&
	                   strcmp(m->version, "1") == 0;
	for (i = 0; i < m->ncomments; i++) {
		const char *v = m->comments[i].value;
		if (!m->comments[i].key || strcmp(m->comments[i].key, GP_HEADER_KEY) != 0 || !v)
			continue;
		e->nhdr_extra = 0;
		while (*v) {
			char *end;
			unsigned long long x;
			while (*v == ' ')
				v++;
			if (!*v)
				break;
			x = strtoull(v, &end, 0);
			if (end == v)
				break;
			if (pd_grow((void **)&e->hdr_extra, &e->hdr_extra_cap, e->nhdr_extra + 1, sizeof *e->hdr_extra))
				return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
			e->hdr_extra[e->nhdr_extra++] = x;
			v = end;
		}
	}
	e->have_meta = 1;
	return 0;
}

static int gp_enc_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	gp_enc *e = payload;
	if (pd_grow((void **)&e->strs, &e->str_cap, e->nstr + 1, sizeof *e->strs))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	e->strs[e->nstr].off = e->arena.n;
	e->strs[e->nstr].len = len;
	if (pd_strbuf_add(&e->arena, utf8, len) || pd_map_put(&e->str_map, id, (uint32_t)(e->nstr + 1)))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	e->nstr++;
	return 0;
}

static int gp_enc_class_load(void *payload, const profdata_class_load *c)
{
	gp_enc *e = payload;
	if (!c->serial)
		return 0;
	if (pd_grow((void **)&e->class_names, &e->classes_cap, e->nclasses + 1, sizeof *e->class_names))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	e->class_names[e->nclasses++] = c->name_id;
	if (pd_map_put(&e->class_map, c->serial, (uint32_t)e->nclasses))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	return 0;
}

static int gp_enc_function(void *payload, const profdata_function *f)
{
	gp_enc *e = payload;
	if (pd_grow((void **)&e->fns, &e->fns_cap, e->nfns + 1, sizeof *e->fns))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	e->fns[e->nfns].name_id = f->name_id;
	e->fns[e->nfns].signature_id = f->signature_id;
	e->fns[e->nfns].file_id = f->source_file_id;
	e->fns[e->nfns].class_serial = f->class_serial;
	e->nfns++;
	if (pd_map_put(&e->fn_map, f->id, (uint32_t)e->nfns))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	return 0;
}

static int gp_enc_frame(void *payload, const profdata_frame *f)
{
	gp_enc *e = payload;
	gp_eframe *fr;
	if (pd_grow((void **)&e->frames, &e->frames_cap, e->nframes + 1, sizeof *e->frames))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	fr = &e->frames[e->nframes];
	fr->id = f->id;
	fr->function_id = f->function_id;
	fr->line = f->line;
	fr->synthesized = !f->has_address;
	if (f->has_address) {
		fr->pc = f->address;
	} else {
		/* A JVM frame: give it an address of its own (1, 2, ...) and name it
		 * in the symbol section of the Java variant. */
		fr->pc = ++e->nsynth;
		if (e->header_written && !e->java && !e->warned_late_synth) {
			e->warned_late_synth = 1;
			pd_out_warn(e->w, "gperftools: frames without addresses after the first sample: "
			            "they get made-up addresses and no names");
		}
	}
	e->nframes++;
	if (pd_map_put(&e->frame_map, f->id, (uint32_t)e->nframes))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	return 0;
}

static int gp_enc_stack(void *payload, const profdata_stack *s)
{
	gp_enc *e = payload;
	size_t i;
	if (pd_grow((void **)&e->stacks, &e->stacks_cap, e->nstacks + 1, sizeof *e->stacks) ||
	    pd_grow((void **)&e->stack_pcs, &e->stack_pcs_cap, e->stack_pcs_n + s->nframes + 1, sizeof *e->stack_pcs))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	for (i = 0; i < s->nframes; i++) {
		uint32_t k = pd_map_get(&e->frame_map, s->frame_ids[i]);
		if (!k) {
			e->failed = PROFDATA_EINVAL;
			return pd_out_error(e->w, PROFDATA_EINVAL, "gperftools: stack %" PRIu32 " lists frame %" PRIu64
			                    " that no frame event defined", s->serial, s->frame_ids[i]);
		}
		e->stack_pcs[e->stack_pcs_n + i] = e->frames[k - 1].pc;
	}
	e->stacks[e->nstacks].off = e->stack_pcs_n;
	e->stacks[e->nstacks].n = s->nframes;
	e->stack_pcs_n += s->nframes;
	e->nstacks++;
	if (pd_map_put(&e->stack_map, s->serial, (uint32_t)e->nstacks))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	return 0;
}

static int gp_enc_sample_type(void *payload, const profdata_sample_type *t)
{
	gp_enc *e = payload;
	if (pd_grow((void **)&e->type_ids, &e->types_cap, 2 * (e->ntypes + 1), sizeof *e->type_ids))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	e->type_ids[2 * e->ntypes] = t->type_id;
	e->type_ids[2 * e->ntypes + 1] = t->unit_id;
	e->ntypes++;
	return 0;
}

static int gp_enc_slots(gp_enc *e, const uint64_t *v, size_t n)
{
	unsigned char *p = pd_out_reserve(e->w, n * e->ws);
	size_t i;
	if (!p) {
		e->failed = PROFDATA_EIO;
		return PROFDATA_EIO;
	}
	for (i = 0; i < n; i++)
		gp_store(p + i * e->ws, v[i], e->ws, e->be);
	pd_out_commit(e->w, n * e->ws);
	return 0;
}

static int gp_enc_header(gp_enc *e)
{
	uint64_t h[5 + 64];
	size_t i, n = 0;
	int rc;
	e->java = e->meta_version1 || e->nsynth > 0;
	h[n++] = 0;
	h[n++] = 2 + (e->nhdr_extra ? e->nhdr_extra : 1);
	h[n++] = e->java ? 1 : 0;
	h[n++] = e->period_us;
	if (!e->nhdr_extra)
		h[n++] = 0;
	if (e->ws == 4 && e->period_us > UINT32_MAX)
		return gp_enc_err(e, PROFDATA_ERANGE, "the sampling period does not fit 32 bits");
	rc = gp_enc_slots(e, h, n);
	for (i = 0; i < e->nhdr_extra && rc == 0; i++) {
		if (e->ws == 4 && e->hdr_extra[i] > UINT32_MAX)
			return gp_enc_err(e, PROFDATA_ERANGE, "a header slot does not fit 32 bits");
		rc = gp_enc_slots(e, &e->hdr_extra[i], 1);
	}
	e->header_written = 1;
	return rc;
}

static int gp_enc_sample(void *payload, const profdata_sample *s)
{
	gp_enc *e = payload;
	uint32_t k;
	const gp_estack *st;
	uint64_t count, *pcs;
	unsigned char *p;
	size_t i, n;
	int rc;

	if (e->failed)
		return e->failed;
	if (!e->header_written) {
		rc = gp_enc_header(e);
		if (rc)
			return rc;
	}
	if (e->count_index < 0) {
		e->count_index = 0;
		for (i = 0; i < e->ntypes; i++) {
			if (gp_enc_str_is(e, e->type_ids[2 * i], "samples") &&
			    gp_enc_str_is(e, e->type_ids[2 * i + 1], "count")) {
				e->count_index = (int)i;
				break;
			}
		}
	}
	k = pd_map_get(&e->stack_map, s->stack_serial);
	if (!k) {
		e->failed = PROFDATA_EINVAL;
		return pd_out_error(e->w, PROFDATA_EINVAL, "gperftools: a sample refers to stack %" PRIu32
		                    " that no stack event defined", s->stack_serial);
	}
	st = &e->stacks[k - 1];
	count = (size_t)e->count_index < s->nvalues ? (uint64_t)s->values[e->count_index] : (s->nvalues ? 0 : 1);
	n = st->n;
	pcs = e->stack_pcs + st->off;
	if (count == 0 && n == 1 && pcs[0] == 0) {
		pd_out_warn(e->w, "gperftools: left out a sample of count 0 at the single PC 0 (it would read as the trailer)");
		return 0;
	}
	if (n == 0 && !e->warned_empty) {
		e->warned_empty = 1;
		pd_out_warn(e->w, "gperftools: wrote records with no PCs (the format asks for at least one)");
	}
	if (e->ws == 4) {
		if (count > UINT32_MAX)
			return gp_enc_err(e, PROFDATA_ERANGE, "a sample count does not fit 32 bits");
		for (i = 0; i < n; i++) {
			if (pcs[i] > UINT32_MAX) {
				e->failed = PROFDATA_ERANGE;
				return pd_out_error(e->w, PROFDATA_ERANGE,
				                    "gperftools: PC 0x%" PRIx64 " does not fit a 32-bit profile", pcs[i]);
			}
		}
	}
	if (n > SIZE_MAX / 8 - 2)
		return gp_enc_err(e, PROFDATA_ERANGE, "stack too deep");
	p = pd_out_reserve(e->w, (n + 2) * e->ws);
	if (!p) {
		e->failed = PROFDATA_EIO;
		return PROFDATA_EIO;
	}
	if (e->ws == 8 && !e->be)
		gp_put_record(p, count, pcs, n, 8, 0);
	else if (e->ws == 8)
		gp_put_record(p, count, pcs, n, 8, 1);
	else if (!e->be)
		gp_put_record(p, count, pcs, n, 4, 0);
	else
		gp_put_record(p, count, pcs, n, 4, 1);
	pd_out_commit(e->w, (n + 2) * e->ws);
	return 0;
}

static int gp_enc_mapping(void *payload, const profdata_mapping *m)
{
	gp_enc *e = payload;
	if (pd_grow((void **)&e->maps, &e->maps_cap, e->nmaps + 1, sizeof *e->maps))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	e->maps[e->nmaps++] = *m;
	return 0;
}

static int gp_enc_attachment(void *payload, const profdata_attachment *a)
{
	gp_enc *e = payload;
	pd_strbuf *b;
	if (!a->name)
		return 0;
	if (strcmp(a->name, "maps") == 0 && !e->have_maps_text) {
		b = &e->maps_text;
		e->have_maps_text = 1;
	} else if (strcmp(a->name, "symbols") == 0 && !e->have_symbols_text) {
		b = &e->symbols_text;
		e->have_symbols_text = 1;
	} else {
		return 0;
	}
	if (pd_strbuf_add(b, a->data, a->len))
		return gp_enc_err(e, PROFDATA_ENOMEM, "out of memory");
	return 0;
}

/* Append the name of function f (Java style when it has a class) to b. */
static int gp_enc_fn_name(const gp_enc *e, const gp_efn *f, pd_strbuf *b)
{
	size_t len, clen;
	const char *name = gp_enc_str(e, f->name_id, &len);
	uint32_t ck = f->class_serial ? pd_map_get(&e->class_map, f->class_serial) : 0;
	int rc = 0;
	if (ck) {
		const char *cname = gp_enc_str(e, e->class_names[ck - 1], &clen);
		if (cname) {
			char small[256];
			size_t need = profdata_java_name(cname, clen, small, sizeof small);
			if (need < sizeof small) {
				rc = pd_strbuf_add(b, small, need);
			} else {
				char *big = malloc(need + 1);
				if (!big)
					return PROFDATA_ENOMEM;
				profdata_java_name(cname, clen, big, need + 1);
				rc = pd_strbuf_add(b, big, need);
				free(big);
			}
			if (rc == 0)
				rc = pd_strbuf_add(b, ".", 1);
		}
	}
	if (rc == 0)
		rc = name ? pd_strbuf_add(b, name, len) : pd_strbuf_add(b, "?", 1);
	return rc;
}

/* Symbol lines for every frame with a function (the Java variant). */
static int gp_enc_symbols(gp_enc *e, pd_strbuf *b)
{
	size_t i;
	char num[48];
	int rc = 0;
	for (i = 0; i < e->nframes && rc == 0; i++) {
		const gp_eframe *fr = &e->frames[i];
		uint32_t k = fr->function_id ? pd_map_get(&e->fn_map, fr->function_id) : 0;
		const gp_efn *f;
		const char *file;
		size_t flen;
		if (!k)
			continue;
		f = &e->fns[k - 1];
		snprintf(num, sizeof num, "0x%016" PRIx64 " ", fr->pc);
		rc = pd_strbuf_add(b, num, strlen(num));
		if (rc == 0)
			rc = gp_enc_fn_name(e, f, b);
		file = gp_enc_str(e, f->file_id, &flen);
		if (rc == 0 && file && flen) {
			rc = pd_strbuf_add(b, " (", 2);
			if (rc == 0)
				rc = pd_strbuf_add(b, file, flen);
			if (rc == 0 && fr->line > 0) {
				snprintf(num, sizeof num, ":%" PRId32, fr->line);
				rc = pd_strbuf_add(b, num, strlen(num));
			}
			if (rc == 0)
				rc = pd_strbuf_add(b, ")", 1);
		}
		if (rc == 0)
			rc = pd_strbuf_add(b, "\n", 1);
	}
	return rc;
}

/* /proc/self/maps lines (or the short form) for the collected mappings. */
static int gp_enc_maps(gp_enc *e)
{
	size_t i;
	int rc = 0;
	for (i = 0; i < e->nmaps && rc == 0; i++) {
		const profdata_mapping *m = &e->maps[i];
		size_t plen;
		const char *path = gp_enc_str(e, m->path_id, &plen);
		char pbuf[1];
		if (!path) {
			pbuf[0] = 0;
			path = pbuf;
			plen = 0;
		}
		if (!m->perms[0])
			rc = pd_out_printf(e->w, "%" PRIx64 "-%" PRIx64 " %.*s\n", m->start, m->limit, (int)plen, path);
		else
			rc = pd_out_printf(e->w, "%08" PRIx64 "-%08" PRIx64 " %.4s %08" PRIx64 " %s %" PRIu64 "%s%.*s\n",
			                   m->start, m->limit, m->perms, m->offset, m->device[0] ? m->device : "00:00",
			                   m->inode, plen ? " " : "", (int)plen, path);
	}
	return rc;
}

static int gp_enc_finish(void *state)
{
	gp_enc *e = state;
	static const uint64_t trailer[3] = { 0, 1, 0 };
	int rc;
	if (e->failed)
		return e->failed;
	if (e->finished)
		return 0;
	e->finished = 1;
	if (!e->header_written) {
		rc = gp_enc_header(e);
		if (rc)
			return rc;
	}
	rc = gp_enc_slots(e, trailer, 3);
	if (rc)
		return rc;
	if (e->java) {
		if (e->have_symbols_text)
			return pd_out_write(e->w, e->symbols_text.p, e->symbols_text.n);
		else {
			pd_strbuf b = { 0, 0, 0 };
			rc = gp_enc_symbols(e, &b);
			if (rc == 0 && b.n)
				rc = pd_out_write(e->w, b.p, b.n);
			free(b.p);
			return rc == PROFDATA_ENOMEM ? gp_enc_err(e, rc, "out of memory") : rc;
		}
	}
	if (e->have_maps_text)
		return e->maps_text.n ? pd_out_write(e->w, e->maps_text.p, e->maps_text.n) : 0;
	return gp_enc_maps(e);
}

static void gp_enc_free(void *state)
{
	gp_enc *e = state;
	if (!e)
		return;
	pd_map_free(&e->str_map);
	free(e->strs);
	free(e->arena.p);
	pd_map_free(&e->fn_map);
	free(e->fns);
	pd_map_free(&e->class_map);
	free(e->class_names);
	pd_map_free(&e->frame_map);
	free(e->frames);
	pd_map_free(&e->stack_map);
	free(e->stacks);
	free(e->stack_pcs);
	free(e->type_ids);
	free(e->maps);
	free(e->maps_text.p);
	free(e->symbols_text.p);
	free(e->hdr_extra);
	free(e);
}

static const pd_encoder_ops gp_enc_ops = {
	{
		PROFDATA_EVENTS_VERSION,
		gp_enc_begin,       /* begin */
		gp_enc_string,      /* string */
		gp_enc_class_load,  /* class_load */
		NULL,               /* class_unload */
		gp_enc_function,    /* function */
		gp_enc_frame,       /* frame */
		gp_enc_stack,       /* stack */
		NULL,               /* thread_start */
		NULL,               /* thread_end */
		gp_enc_sample_type, /* sample_type */
		NULL,               /* sample_group */
		gp_enc_sample,      /* sample */
		NULL,               /* alloc_sites */
		NULL,               /* heap_summary */
		NULL,               /* control_settings */
		gp_enc_mapping,     /* mapping */
		NULL,               /* dump_begin */
		NULL,               /* heap_info */
		NULL,               /* class_dump */
		NULL,               /* root */
		NULL,               /* object */
		NULL,               /* dump_end */
		NULL,               /* unknown */
		gp_enc_attachment,  /* attachment */
		NULL,               /* trace_event */
		NULL,               /* end */
	},
	gp_enc_finish,
	gp_enc_free,
};

static int gp_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts)
{
	gp_enc *e;
	unsigned ws;
	int be, rc;
	rc = gp_layout_options(opts, pd_out_diag(w), &ws, &be);
	if (rc)
		return rc;
	e = calloc(1, sizeof *e);
	if (!e)
		return pd_out_error(w, PROFDATA_ENOMEM, "out of memory");
	e->w = w;
	e->ws = ws ? ws : 8;
	e->be = be > 0;
	e->count_index = -1;
	e->period_us = 10000;
	*state = e;
	*ops = &gp_enc_ops;
	return 0;
}

const struct profdata_format pd_format_gperftools = {
	"gperftools",
	"Google CPU profile (gperftools binary format)",
	gp_bid,
	gp_decode,
	gp_encoder_new,
	NULL,
	gp_read_options,
	gp_write_options,
};
