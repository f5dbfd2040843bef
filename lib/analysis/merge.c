/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Profiles merged as pprof merges them (profdata/merge.h). Every table of
 * the result is an interner keyed by the row's bytes with the merge's own
 * ids inside (a function by its names' ids, a frame by its function's, a
 * stack by its frames'), so equal rows of different inputs meet in one
 * entry and the row's index is its id in the result (index + 1: 0 is
 * "none"). Per input, maps from the input's ids to those entries, emptied
 * at each begin: what one input costs is gone once it ends.
 *
 * Frame kinds and cut-short stacks come after the frames and stacks they
 * are of (after the samples, from a model's replay), when those rows are
 * merged already; so they are not part of a row's key but kept beside it:
 * a merged frame has the kind its inputs agree on (unknown where they
 * disagree), and a merged stack is cut short when every input's stack of
 * those frames was.
 */
#define PROFDATA_EXPERIMENTAL
#include <profdata/merge.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/merge_impl.h"
#include "internal.h"
#include "util/hashmap.h"
#include "util/text.h"

/* The input being added: its ids -> the merge's (index + 1). */
typedef struct merge_input {
	pd_map strings, classes, functions, frames, stacks;
	uint32_t *mappings;          /* the input's mapping index - 1 -> merge mapping + 1 */
	size_t nmappings, mappings_cap;
	uint32_t *types;             /* (type, unit) string + 1 pairs of its sample types */
	size_t ntypes, types_cap;
	int32_t *to_merged;          /* its sample type -> the merge's, -1 dropped */
	int settled;                 /* the sample types have been matched */
	uint32_t labels;             /* label set + 1 of the next sample, 0 none */
	uint64_t *ids;               /* a stack's frames, as the merge's */
	size_t ids_cap;
	profdata_label *labels_scratch;
	size_t labels_cap;
	int tables_fed;              /* its mappings and class loads are in (feed_tables): later events of them are not */
	pd_map cut;                  /* its stack serials sent as cut short (stack_truncated) -> 1 */
} merge_input;

/* merge.frame_kind's value once two inputs gave a frame different kinds. */
#define KINDS_DISAGREE 0xff
/* merge.stack_cut's bits. */
enum { STACK_SEEN_CUT = 1, STACK_SEEN_WHOLE = 2 };

struct profdata_merge {
	pd_diag diag;
	pd_intern strings;           /* string i has id i + 1 */
	pd_intern classes;           /* key: the name's string id */
	pd_intern functions;         /* key: profdata_function, ids the merge's, id 0 */
	pd_intern mappings;          /* key: profdata_mapping, ids the merge's */
	pd_intern frames;            /* key: profdata_frame, ids the merge's */
	pd_intern stacks;            /* key: frame ids (uint64, leaf first) */
	pd_intern label_sets;        /* key: profdata_label array, ids the merge's */
	uint8_t *frame_kind;         /* per merged frame: its kind, 0 none yet, KINDS_DISAGREE */
	size_t frame_kind_cap;
	uint8_t *stack_cut;          /* per merged stack: STACK_SEEN_* of the inputs' stacks of its frames */
	size_t stack_cut_cap;
	pd_intern samples;           /* key: (stack + 1, label set + 1) */
	int64_t *values;             /* sample i's values at i * ntypes */
	size_t values_cap;
	uint32_t *types;             /* (type, unit) string + 1 pairs */
	size_t ntypes;
	int has_types;
	uint64_t period;
	uint32_t period_type, period_unit;
	pd_intern comments;          /* "key\0value", first seen order */
	uint64_t time_nanos, duration_nanos;
	int has_time, has_duration;
	size_t ninputs;
	double *scale;               /* profdata_merge_set_scale(): per input sample type */
	size_t nscale;
	const profdata_profile *adding; /* profdata_merge_add()'s profile, until feed_tables() */
	merge_input in;
};

int profdata_merge_new(profdata_merge **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return PROFDATA_ENOMEM;
	pd_diag_init(&(*out)->diag, "merge");
	return 0;
}

static void input_free(merge_input *in)
{
	pd_map_free(&in->strings);
	pd_map_free(&in->classes);
	pd_map_free(&in->functions);
	pd_map_free(&in->frames);
	pd_map_free(&in->stacks);
	pd_map_free(&in->cut);
	free(in->mappings);
	free(in->types);
	free(in->to_merged);
	free(in->ids);
	free(in->labels_scratch);
	memset(in, 0, sizeof(*in));
}

void profdata_merge_free(profdata_merge *m)
{
	if (!m)
		return;
	input_free(&m->in);
	pd_intern *tables[] = { &m->strings, &m->classes, &m->functions, &m->mappings, &m->frames,
		                &m->stacks, &m->label_sets, &m->samples, &m->comments };
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
		pd_intern_free(tables[i]);
	free(m->values);
	free(m->types);
	free(m->scale);
	free(m->frame_kind);
	free(m->stack_cut);
	pd_diag_free(&m->diag);
	free(m);
}

const profdata_error *profdata_merge_error(const profdata_merge *m) { return pd_diag_last(&m->diag); }
size_t profdata_merge_warning_count(const profdata_merge *m) { return m->diag.nwarnings; }
const profdata_error *profdata_merge_warning(const profdata_merge *m, size_t i)
{
	return pd_diag_warning(&m->diag, i);
}
size_t profdata_merge_inputs(const profdata_merge *m) { return m->ninputs; }

static int oom(profdata_merge *m)
{
	return pd_diag_error(&m->diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "merge: out of memory");
}

/* Intern `key` in `t`: its index + 1 in *id, or PROFDATA_ENOMEM said on the merge. */
static int put_key(profdata_merge *m, pd_intern *t, const void *key, size_t len, uint32_t *id)
{
	uint32_t ix = 0;
	if (pd_intern_put(t, key, len, &ix) < 0)
		return oom(m);
	*id = ix + 1;
	return 0;
}

/* Intern the row `key` of an input in `t`, and map the input's `id` for it to the merge's. 0 or PROFDATA_ENOMEM. */
static int put_row(profdata_merge *m, pd_intern *t, const void *key, size_t len, pd_map *ids, uint64_t id)
{
	uint32_t ix = 0;
	if (put_key(m, t, key, len, &ix) < 0 || pd_map_put(ids, id, ix) < 0)
		return oom(m);
	return 0;
}

/* The merge's id of the input's string `id` (0 stays 0). */
static uint64_t in_string(const profdata_merge *m, uint64_t id)
{
	return id ? pd_map_get(&m->in.strings, id) : 0;
}

/* Merge time units are those pprof periods are given in: factors to nanoseconds, 0 for other units. */
static uint64_t unit_ns(const char *unit)
{
	return pd_time_unit_ns(unit, unit ? strlen(unit) : 0);
}

/* The input's period in the merge's unit: the largest is kept, as pprof keeps it. */
static int merge_period(profdata_merge *m, const profdata_meta *meta)
{
	uint32_t unit = 0, type = 0;
	if (meta->period_unit && put_key(m, &m->strings, meta->period_unit, strlen(meta->period_unit), &unit) < 0)
		return PROFDATA_ENOMEM;
	if (meta->period_type && put_key(m, &m->strings, meta->period_type, strlen(meta->period_type), &type) < 0)
		return PROFDATA_ENOMEM;
	if (!m->period_unit && !m->period_type) {
		m->period_unit = unit;
		m->period_type = type;
	}
	uint64_t period = meta->period;
	if (unit != m->period_unit && m->period_unit) {
		uint64_t from = unit_ns(meta->period_unit);
		uint64_t to = unit_ns(pd_intern_str(&m->strings, m->period_unit - 1, NULL));
		if (from && to)
			period = period * from / to;
		else if (period)
			pd_diag_warn(&m->diag, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0,
			             "merge: input %zu's period is in %s, the merge's in %s: left out", m->ninputs + 1,
			             meta->period_unit ? meta->period_unit : "no unit",
			             pd_intern_str(&m->strings, m->period_unit - 1, NULL));
		if (!(from && to))
			period = 0;
	}
	if (period > m->period)
		m->period = period;
	return 0;
}

/* A comment: pprof's time the earliest, its duration the sum, the others once each. */
static int merge_comment(profdata_merge *m, const profdata_kv *kv)
{
	if (strcmp(kv->key, "pprof.time_nanos") == 0 || strcmp(kv->key, "pprof.duration_nanos") == 0) {
		uint64_t v = strtoull(kv->value, NULL, 10);
		if (kv->key[6] == 't') {
			if (!m->has_time || v < m->time_nanos)
				m->time_nanos = v;
			m->has_time = 1;
		} else {
			m->duration_nanos += v;
			m->has_duration = 1;
		}
		return 0;
	}
	pd_strbuf b = { NULL, 0, 0 };
	uint32_t id;
	int rc = pd_strbuf_add(&b, kv->key, strlen(kv->key) + 1);
	if (rc == 0)
		rc = pd_strbuf_add(&b, kv->value ? kv->value : "", kv->value ? strlen(kv->value) : 0);
	rc = rc < 0 ? oom(m) : put_key(m, &m->comments, b.p, b.n, &id);
	free(b.p);
	return rc;
}

static int on_begin(void *payload, const profdata_meta *meta)
{
	profdata_merge *m = payload;
	input_free(&m->in);
	int rc = merge_period(m, meta);
	for (size_t i = 0; rc == 0 && i < meta->ncomments; i++)
		rc = merge_comment(m, &meta->comments[i]);
	return rc;
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	profdata_merge *m = payload;
	return put_row(m, &m->strings, utf8, len, &m->in.strings, id);
}

static int feed_tables(profdata_merge *m);

static int add_class_load(profdata_merge *m, const profdata_class_load *c)
{
	uint64_t name = in_string(m, c->name_id);
	if (!c->serial)
		return 0;
	return put_row(m, &m->classes, &name, sizeof name, &m->in.classes, c->serial);
}

static int on_class_load(void *payload, const profdata_class_load *c)
{
	profdata_merge *m = payload;
	return m->in.tables_fed ? 0 : add_class_load(m, c);
}

static int on_function(void *payload, const profdata_function *f)
{
	profdata_merge *m = payload;
	profdata_function key;
	int fed = feed_tables(m);
	if (fed < 0)
		return fed;
	memset(&key, 0, sizeof key);
	key.name_id = in_string(m, f->name_id);
	key.signature_id = in_string(m, f->signature_id);
	key.source_file_id = in_string(m, f->source_file_id);
	key.class_serial = f->class_serial ? pd_map_get(&m->in.classes, f->class_serial) : 0;
	key.start_line = f->start_line;
	key.end_line = f->end_line;
	return put_row(m, &m->functions, &key, sizeof key, &m->in.functions, f->id);
}

static int add_mapping(profdata_merge *m, const profdata_mapping *mp)
{
	profdata_mapping key;
	uint32_t ix = 0;
	memset(&key, 0, sizeof key);
	key.start = mp->start;
	key.limit = mp->limit;
	key.offset = mp->offset;
	key.inode = mp->inode;
	key.path_id = in_string(m, mp->path_id);
	key.build_id = in_string(m, mp->build_id);
	memcpy(key.perms, mp->perms, sizeof key.perms);
	memcpy(key.device, mp->device, sizeof key.device);
	if (put_key(m, &m->mappings, &key, sizeof key, &ix) < 0 ||
	    pd_grow((void **)&m->in.mappings, &m->in.mappings_cap, m->in.nmappings + 1, sizeof(uint32_t)) < 0)
		return oom(m);
	m->in.mappings[m->in.nmappings++] = ix;
	return 0;
}

static int on_mapping(void *payload, const profdata_mapping *mp)
{
	profdata_merge *m = payload;
	return m->in.tables_fed ? 0 : add_mapping(m, mp);
}

/*
 * A model replays its mappings and class loads after the frames and
 * functions that name them (model/replay.c), where a decoder sends them
 * first. So profdata_merge_add() puts the profile's in before its first
 * function, frame or stack (its strings are in by then), and a profile
 * added merges as the file it came from would: frames keep their mapping,
 * functions their class, and a merge's own profile adds to another merge
 * as its inputs would have.
 */
static int feed_tables(profdata_merge *m)
{
	const profdata_profile *p = m->adding;
	int rc = 0;
	if (!p)
		return 0; /* a decoder's input, or fed already */
	m->adding = NULL;
	m->in.tables_fed = 1;
	for (size_t i = 0; rc == 0 && i < profdata_profile_count(p, PROFDATA_TABLE_MAPPINGS); i++) {
		profdata_mapping mp;
		profdata_profile_mapping(p, i, &mp);
		rc = add_mapping(m, &mp);
	}
	for (size_t i = 0; rc == 0 && i < profdata_profile_count(p, PROFDATA_TABLE_CLASS_LOADS); i++) {
		profdata_class_load c;
		profdata_profile_class_load(p, i, &c);
		rc = add_class_load(m, &c);
	}
	return rc;
}

static int on_frame(void *payload, const profdata_frame *f)
{
	profdata_merge *m = payload;
	profdata_frame key;
	int fed = feed_tables(m);
	if (fed < 0)
		return fed;
	memset(&key, 0, sizeof key);
	key.function_id = f->function_id ? pd_map_get(&m->in.functions, f->function_id) : 0;
	key.line = f->line;
	key.has_address = f->has_address;
	key.address = f->has_address ? f->address : 0;
	key.mapping = f->mapping && f->mapping <= m->in.nmappings ? m->in.mappings[f->mapping - 1] : 0;
	return put_row(m, &m->frames, &key, sizeof key, &m->in.frames, f->id);
}

static int on_stack(void *payload, const profdata_stack *st)
{
	profdata_merge *m = payload;
	int fed = feed_tables(m);
	if (fed < 0)
		return fed;
	if (pd_grow((void **)&m->in.ids, &m->in.ids_cap, st->nframes + 1, sizeof(uint64_t)) < 0)
		return oom(m);
	for (size_t i = 0; i < st->nframes; i++)
		m->in.ids[i] = pd_map_get(&m->in.frames, st->frame_ids[i]);
	return put_row(m, &m->stacks, m->in.ids, st->nframes * sizeof(uint64_t), &m->in.stacks, st->serial);
}

/* Grow a per-row byte array to `n` rows, the new ones 0. 0 or PROFDATA_ENOMEM said on the merge. */
static int grow_bytes(profdata_merge *m, uint8_t **v, size_t *cap, size_t n)
{
	size_t old = *cap;
	if (n <= old)
		return 0;
	if (pd_grow((void **)v, cap, n, 1) < 0)
		return oom(m);
	memset(*v + old, 0, *cap - old);
	return 0;
}

static int on_frame_kind(void *payload, const profdata_frame_kind *k)
{
	profdata_merge *m = payload;
	uint32_t f = pd_map_get(&m->in.frames, k->frame_id);
	if (!f || k->kind == PROFDATA_FRAME_KIND_UNKNOWN || k->kind >= KINDS_DISAGREE)
		return 0;
	if (grow_bytes(m, &m->frame_kind, &m->frame_kind_cap, m->frames.n) < 0)
		return PROFDATA_ENOMEM;
	uint8_t *have = &m->frame_kind[f - 1];
	*have = *have == 0 || *have == k->kind ? (uint8_t)k->kind : KINDS_DISAGREE;
	return 0;
}

static int on_stack_truncated(void *payload, const profdata_stack_truncated *t)
{
	profdata_merge *m = payload;
	return pd_map_put(&m->in.cut, t->stack_serial, 1) < 0 ? oom(m) : 0;
}

/* At an input's end: each merged stack learns whether this input's stack of its frames was cut short. */
static int settle_cut_stacks(profdata_merge *m)
{
	const pd_map *st = &m->in.stacks;
	if (grow_bytes(m, &m->stack_cut, &m->stack_cut_cap, m->stacks.n) < 0)
		return PROFDATA_ENOMEM;
	for (size_t j = 0; j < st->cap; j++)
		if (st->vals[j])
			m->stack_cut[st->vals[j] - 1] |= pd_map_get(&m->in.cut, st->keys[j]) ? STACK_SEEN_CUT : STACK_SEEN_WHOLE;
	return 0;
}

/* A (type, unit) pair of merge string ids + 1 appended to the input's sample types. */
static int add_input_type(profdata_merge *m, uint32_t type, uint32_t unit)
{
	merge_input *in = &m->in;
	if (pd_grow((void **)&in->types, &in->types_cap, 2 * (in->ntypes + 1), sizeof(uint32_t)) < 0)
		return oom(m);
	in->types[2 * in->ntypes] = type;
	in->types[2 * in->ntypes + 1] = unit;
	in->ntypes++;
	return 0;
}

static int on_sample_type(void *payload, const profdata_sample_type *t)
{
	profdata_merge *m = payload;
	return add_input_type(m, (uint32_t)in_string(m, t->type_id), (uint32_t)in_string(m, t->unit_id));
}

/* Index of the (type, unit) pair at `pair` among `n` pairs of `types`, or -1. */
static long find_type(const uint32_t *types, size_t n, const uint32_t *pair)
{
	for (size_t i = 0; i < n; i++)
		if (types[2 * i] == pair[0] && types[2 * i + 1] == pair[1])
			return (long)i;
	return -1;
}

/* Keep the merge's sample types that the input has too, their values with them (CompatibilizeSampleTypes). */
static int drop_missing_types(profdata_merge *m)
{
	size_t kept = 0, n = m->ntypes, nsamples = m->samples.n;
	unsigned char keep[256];
	for (size_t j = 0; j < n; j++) {
		keep[j] = find_type(m->in.types, m->in.ntypes, &m->types[2 * j]) >= 0;
		if (!keep[j])
			pd_diag_warn(&m->diag, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0,
			             "merge: sample type %s left out: input %zu does not have it",
			             pd_intern_str(&m->strings, m->types[2 * j] - 1, NULL), m->ninputs + 1);
		else
			memcpy(&m->types[2 * kept++], &m->types[2 * j], 2 * sizeof(uint32_t));
	}
	if (kept == 0)
		return pd_diag_error(&m->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "merge: input %zu has no sample type in common with the ones before it",
		                     m->ninputs + 1);
	for (size_t i = 0, o = 0; kept < n && i < nsamples; i++)
		for (size_t j = 0; j < n; j++)
			if (keep[j])
				m->values[o++] = m->values[i * n + j];
	m->ntypes = kept;
	return 0;
}

/* Match the input's sample types with the merge's, once, before its first sample or at its end. */
static int settle_types(profdata_merge *m)
{
	merge_input *in = &m->in;
	uint32_t type = 0, unit = 0; /* set by put_key; gcc -O3 cannot tell that oom() is negative */
	int rc = 0;
	in->settled = 1;
	if (in->ntypes == 0 && (put_key(m, &m->strings, "samples", 7, &type) < 0 ||
	                        put_key(m, &m->strings, "count", 5, &unit) < 0 || add_input_type(m, type, unit) < 0))
		return PROFDATA_ENOMEM;
	if (in->ntypes > 256)
		return pd_diag_error(&m->diag, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0,
		                     "merge: input %zu has %zu sample types, more than 256", m->ninputs + 1, in->ntypes);
	if (!m->has_types) {
		if (!(m->types = malloc(2 * in->ntypes * sizeof(uint32_t))))
			return oom(m);
		memcpy(m->types, in->types, 2 * in->ntypes * sizeof(uint32_t));
		m->ntypes = in->ntypes;
		m->has_types = 1;
	} else {
		rc = drop_missing_types(m);
	}
	if (rc == 0 && !(in->to_merged = malloc(in->ntypes * sizeof(int32_t))))
		return oom(m);
	for (size_t k = 0; rc == 0 && k < in->ntypes; k++)
		if ((in->to_merged[k] = (int32_t)find_type(m->types, m->ntypes, &in->types[2 * k])) < 0)
			pd_diag_warn(&m->diag, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0,
			             "merge: sample type %s of input %zu left out: an input before it does not have it",
			             pd_intern_str(&m->strings, in->types[2 * k] - 1, NULL), m->ninputs + 1);
	return rc;
}

static int on_sample_labels(void *payload, const profdata_sample_labels *l)
{
	profdata_merge *m = payload;
	merge_input *in = &m->in;
	if (pd_grow((void **)&in->labels_scratch, &in->labels_cap, l->nlabels + 1, sizeof(profdata_label)) < 0)
		return oom(m);
	memset(in->labels_scratch, 0, l->nlabels * sizeof(profdata_label));
	for (size_t i = 0; i < l->nlabels; i++) {
		in->labels_scratch[i].key_id = in_string(m, l->labels[i].key_id);
		in->labels_scratch[i].str_id = in_string(m, l->labels[i].str_id);
		in->labels_scratch[i].num = l->labels[i].num;
		in->labels_scratch[i].num_unit_id = in_string(m, l->labels[i].num_unit_id);
	}
	if (l->nlabels == 0) {
		in->labels = 0;
		return 0;
	}
	return put_key(m, &m->label_sets, in->labels_scratch, l->nlabels * sizeof(profdata_label), &in->labels);
}

int profdata_merge_set_scale(profdata_merge *m, const double *factors, size_t n)
{
	double *copy = n ? malloc(n * sizeof(double)) : NULL;
	if (n && !copy)
		return oom(m);
	if (n)
		memcpy(copy, factors, n * sizeof(double));
	free(m->scale);
	m->scale = copy;
	m->nscale = n;
	return 0;
}

/* Value `k` of an input's sample, scaled. */
static int64_t scaled(const profdata_merge *m, size_t k, int64_t v)
{
	if (k >= m->nscale || m->scale[k] == 1.0)
		return v;
	double x = (double)v * m->scale[k];
	return (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
}

static int on_sample(void *payload, const profdata_sample *s)
{
	profdata_merge *m = payload;
	merge_input *in = &m->in;
	uint32_t key[2], ix = 0;
	if (!in->settled && settle_types(m) < 0)
		return m->diag.err.code;
	key[0] = pd_map_get(&in->stacks, s->stack_serial);
	key[1] = in->labels;
	in->labels = 0;
	if (key[0] == 0 && put_key(m, &m->stacks, "", 0, &key[0]) < 0) /* a stack nobody listed: empty */
		return PROFDATA_ENOMEM;
	size_t before = m->samples.n;
	if (put_key(m, &m->samples, key, sizeof key, &ix) < 0)
		return PROFDATA_ENOMEM;
	if (m->samples.n > before) {
		if (pd_grow((void **)&m->values, &m->values_cap, m->samples.n * m->ntypes, sizeof(int64_t)) < 0)
			return oom(m);
		memset(&m->values[(ix - 1) * m->ntypes], 0, m->ntypes * sizeof(int64_t));
	}
	int64_t *sum = &m->values[(ix - 1) * m->ntypes];
	for (size_t k = 0; k < in->ntypes; k++)
		if (in->to_merged[k] >= 0)
			sum[in->to_merged[k]] += scaled(m, k, k < s->nvalues ? s->values[k] : s->nvalues == 0);
	return 0;
}

static int on_end(void *payload)
{
	profdata_merge *m = payload;
	if (!m->in.settled && settle_types(m) < 0)
		return m->diag.err.code;
	if (settle_cut_stacks(m) < 0)
		return PROFDATA_ENOMEM;
	m->ninputs++;
	input_free(&m->in);
	return 0;
}

const profdata_events *profdata_merge_events(void)
{
	static const profdata_events events = {
		.version = PROFDATA_EVENTS_VERSION, .begin = on_begin, .string = on_string,
		.class_load = on_class_load, .function = on_function, .frame = on_frame, .stack = on_stack,
		.sample_type = on_sample_type, .sample = on_sample, .mapping = on_mapping, .end = on_end,
		.sample_labels = on_sample_labels, .frame_kind = on_frame_kind, .stack_truncated = on_stack_truncated,
	};
	return &events;
}

int pd_merge_failed(profdata_merge *m, int rc, const char *what)
{
	if (rc < 0 && !m->diag.has_err)
		pd_diag_error(&m->diag, rc, PD_NO_OFFSET, 0, "merge: %s", what ? what : profdata_strerror(rc));
	return rc;
}

int pd_merge_replay(profdata_merge *m, const profdata_profile *p, const profdata_events *events, void *payload)
{
	m->adding = p;
	int rc = profdata_profile_replay(p, events, payload);
	m->adding = NULL;
	return rc;
}

int profdata_merge_add(profdata_merge *m, const profdata_profile *p)
{
	return pd_merge_failed(m, pd_merge_replay(m, p, profdata_merge_events(), m), NULL);
}

#define EMIT(ev, pl, member, ...) ((ev)->member ? (ev)->member((pl), __VA_ARGS__) : 0)

/* The meta comments: those kept once each, then pprof's time and duration. */
static int replay_begin(const profdata_merge *m, const profdata_events *ev, void *payload)
{
	size_t n = m->comments.n;
	profdata_kv *kv = calloc(n + 2, sizeof(*kv));
	char time_text[24], duration_text[24];
	if (!kv)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t len;
		kv[i].key = pd_intern_str(&m->comments, (uint32_t)i, &len);
		kv[i].value = kv[i].key + strlen(kv[i].key) + 1;
	}
	snprintf(time_text, sizeof time_text, "%llu", (unsigned long long)m->time_nanos);
	snprintf(duration_text, sizeof duration_text, "%llu", (unsigned long long)m->duration_nanos);
	if (m->has_time)
		kv[n++] = (profdata_kv){ "pprof.time_nanos", time_text };
	if (m->has_duration)
		kv[n++] = (profdata_kv){ "pprof.duration_nanos", duration_text };
	profdata_meta meta;
	memset(&meta, 0, sizeof meta);
	meta.format = "merge";
	meta.period = m->period;
	meta.period_type = m->period_type ? pd_intern_str(&m->strings, m->period_type - 1, NULL) : NULL;
	meta.period_unit = m->period_unit ? pd_intern_str(&m->strings, m->period_unit - 1, NULL) : NULL;
	meta.comments = kv;
	meta.ncomments = n;
	int rc = EMIT(ev, payload, begin, &meta);
	free(kv);
	return rc;
}

/* Strings, classes, functions and mappings: each row's id (and serial) its index + 1. */
static int replay_names(const profdata_merge *m, const profdata_events *ev, void *payload)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < m->strings.n; i++) {
		size_t len;
		const char *s = pd_intern_str(&m->strings, (uint32_t)i, &len);
		rc = EMIT(ev, payload, string, i + 1, s, len);
	}
	for (size_t i = 0; rc == 0 && i < m->classes.n; i++) {
		profdata_class_load c;
		memset(&c, 0, sizeof c);
		memcpy(&c.name_id, pd_intern_str(&m->classes, (uint32_t)i, NULL), sizeof c.name_id);
		c.serial = (uint32_t)i + 1;
		c.id = i + 1;
		rc = EMIT(ev, payload, class_load, &c);
	}
	for (size_t i = 0; rc == 0 && i < m->functions.n; i++) {
		profdata_function f;
		memcpy(&f, pd_intern_str(&m->functions, (uint32_t)i, NULL), sizeof f);
		f.id = i + 1;
		rc = EMIT(ev, payload, function, &f);
	}
	for (size_t i = 0; rc == 0 && i < m->mappings.n; i++) {
		profdata_mapping mp;
		memcpy(&mp, pd_intern_str(&m->mappings, (uint32_t)i, NULL), sizeof mp);
		rc = EMIT(ev, payload, mapping, &mp);
	}
	return rc;
}

/* The kinds the inputs agree on, and the stacks every input cut short: events version 4. */
static int replay_kinds_and_cuts(const profdata_merge *m, const profdata_events *ev, void *payload)
{
	int rc = 0;
	if (ev->version < 4)
		return 0;
	for (size_t i = 0; rc == 0 && i < m->frame_kind_cap && i < m->frames.n; i++)
		if (m->frame_kind[i] && m->frame_kind[i] != KINDS_DISAGREE) {
			profdata_frame_kind k = { i + 1, m->frame_kind[i] };
			rc = EMIT(ev, payload, frame_kind, &k);
		}
	for (size_t i = 0; rc == 0 && i < m->stack_cut_cap && i < m->stacks.n; i++)
		if (m->stack_cut[i] == STACK_SEEN_CUT) {
			profdata_stack_truncated t = { (uint32_t)i + 1 };
			rc = EMIT(ev, payload, stack_truncated, &t);
		}
	return rc;
}

static int replay_stacks(const profdata_merge *m, const profdata_events *ev, void *payload)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < m->frames.n; i++) {
		profdata_frame f;
		memcpy(&f, pd_intern_str(&m->frames, (uint32_t)i, NULL), sizeof f);
		f.id = i + 1;
		rc = EMIT(ev, payload, frame, &f);
	}
	for (size_t i = 0; rc == 0 && i < m->stacks.n; i++) {
		size_t len;
		const char *key = pd_intern_str(&m->stacks, (uint32_t)i, &len);
		uint64_t *ids = malloc(len ? len : 1);
		if (!ids)
			return PROFDATA_ENOMEM;
		memcpy(ids, key, len); /* the interner's bytes need not be aligned for uint64_t */
		profdata_stack st = { (uint32_t)i + 1, 0, ids, len / sizeof(uint64_t) };
		rc = EMIT(ev, payload, stack, &st);
		free(ids);
	}
	return rc == 0 ? replay_kinds_and_cuts(m, ev, payload) : rc;
}

/* One sample per distinct (stack, labels), its labels first. */
static int replay_samples(const profdata_merge *m, const profdata_events *ev, void *payload)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < m->ntypes; i++) {
		profdata_sample_type t = { m->types[2 * i], m->types[2 * i + 1] };
		rc = EMIT(ev, payload, sample_type, &t);
	}
	profdata_sample_group g = { 0, 0 };
	if (rc == 0 && m->samples.n)
		rc = EMIT(ev, payload, sample_group, &g);
	for (size_t i = 0; rc == 0 && i < m->samples.n; i++) {
		uint32_t key[2];
		memcpy(key, pd_intern_str(&m->samples, (uint32_t)i, NULL), sizeof key);
		if (key[1] && ev->version >= 3 && ev->sample_labels) {
			size_t len;
			const char *bytes = pd_intern_str(&m->label_sets, key[1] - 1, &len);
			profdata_label *labels = malloc(len);
			if (!labels)
				return PROFDATA_ENOMEM;
			memcpy(labels, bytes, len);
			profdata_sample_labels l = { labels, len / sizeof(profdata_label) };
			rc = ev->sample_labels(payload, &l);
			free(labels);
		}
		profdata_sample s = { key[0], 0, 0, &m->values[i * m->ntypes], m->ntypes };
		if (rc == 0)
			rc = EMIT(ev, payload, sample, &s);
	}
	return rc;
}

int profdata_merge_replay(const profdata_merge *m, const profdata_events *events, void *payload)
{
	int rc = replay_begin(m, events, payload);
	if (rc == 0)
		rc = replay_names(m, events, payload);
	if (rc == 0)
		rc = replay_stacks(m, events, payload);
	if (rc == 0)
		rc = replay_samples(m, events, payload);
	if (rc == 0 && events->end)
		rc = events->end(payload);
	return rc;
}

int profdata_merge_profile(profdata_profile **out, const profdata_merge *m)
{
	int rc = profdata_profile_new(out);
	if (rc == 0)
		rc = profdata_merge_replay(m, profdata_profile_builder_events(), *out);
	return rc;
}
