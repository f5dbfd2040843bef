/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pprof protobuf export (profile.proto, gzip-compressed on disk), built with
 * protobuf-c's generated code. See doc/formats-pprof.md.
 *
 * Written from a built profile (a conversion gets here through the model
 * encoder, core/model_encoder.c). Samples with the same stack are added up
 * into one pprof sample (values summed per sample type), in order of the
 * stack's first sample; locations (one per frame used), functions (one per
 * function used) and mappings (the executable ones) get ids 1, 2, ... in
 * order of first use. The string table is numbered in the order the message
 * is built: sample types, period, functions, mappings, comments.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/pprof/pprof.h"
#include "analysis/samples.h"
#include "util/hashmap.h"
#include "pd_config.h"
#include "codecs/pprof/profile.pb-c.h"

typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Label pb_label;

/* The message under construction and what numbering it needs. */
typedef struct pprof_writer {
	const profdata_profile *p;
	profdata_writer *w;
	int from_pprof;                /* read from pprof: its samples, strings and fields kept as they were */
	Perftools__Profiles__Profile prof;
	pd_intern strings;             /* the output's distinct strings; index 0 is "" */
	uint32_t *out_index;           /* distinct string -> its index in the output's table */
	size_t out_index_cap, nout;    /* nout: entries in the output's table */
	uint32_t *kept;                /* a pprof source's table: entry -> distinct string (repeats allowed) */
	size_t nkept;

	size_t ntypes, nvalues;        /* model sample types; values per pprof sample */
	pb_value_type *value_types;    /* sample types, then the period type */
	pb_value_type **value_type_ptrs;

	pd_intern sample_keys;         /* stack index and labels (sample_key) -> pprof sample index */
	uint64_t *key;                 /* the key being made */
	size_t key_cap;
	uint32_t *sample_stack;        /* pprof sample -> stack index */
	size_t *sample_first;          /* pprof sample -> the model's first sample of it (its labels) */
	size_t nsamples, sample_stack_cap, sample_first_cap;
	pb_label *labels;
	pb_label **label_ptrs;
	int64_t *values;               /* nsamples * nvalues */
	size_t values_cap;
	pb_sample *samples;
	pb_sample **sample_ptrs;
	uint64_t *location_ids;        /* each stack's location ids once: the samples of one stack share them */
	size_t *stack_sample;          /* stack index -> its first pprof sample + 1, whose ids it shares; 0 none yet */

	uint32_t *owner;               /* frame index -> the frame holding its location's address (find_owners) */
	pd_intern location_keys;       /* a location's frame indexes -> its id - 1 (group_location) */
	uint32_t *location_owner;      /* location i -> its owner frame: its address and mapping */
	uint32_t *function_out;        /* function index -> pprof function id; 0 unused */
	uint32_t *used_frames;         /* frame indexes by location, each location's innermost call first */
	uint32_t *location_start;      /* location i's frames: used_frames[location_start[i] ..[i + 1]) */
	size_t nused_frames;
	uint32_t *used_functions;      /* function indexes in function order */
	size_t nlocations, nfunctions;

	pb_function *functions;
	pb_function **function_ptrs;
	pb_mapping *mappings;
	pb_mapping **mapping_ptrs;
	pb_mapping **mappings_by_start;
	size_t nmappings;
	pb_location *locations;
	pb_location **location_ptrs;
	pb_line *lines;
	pb_line **line_ptrs;
	int64_t *comments;
	char **string_ptrs;
	void *blocks[32];              /* the arrays above, freed together */
	size_t nblocks;
} pprof_writer;

static void pprof_writer_free(pprof_writer *pw)
{
	pd_intern_free(&pw->strings);
	free(pw->out_index);
	free(pw->kept);
	pd_intern_free(&pw->sample_keys);
	pd_intern_free(&pw->location_keys);
	free(pw->stack_sample);
	free(pw->key);
	free(pw->sample_first);
	free(pw->sample_stack);
	free(pw->values);
	while (pw->nblocks)
		free(pw->blocks[--pw->nblocks]);
}

/* A zeroed array of n (at least one) elements, freed with the writer; NULL when out of memory. */
static void *message_array(pprof_writer *pw, size_t n, size_t size)
{
	void *block = pw->nblocks < sizeof pw->blocks / sizeof pw->blocks[0] ? calloc(n ? n : 1, size) : NULL;
	if (block)
		pw->blocks[pw->nblocks++] = block;
	return block;
}

/* Index of s in the output's table, adding it; *distinct its distinct string; -1 when out of memory. */
static int64_t intern_distinct(pprof_writer *pw, const char *s, size_t len, uint32_t *distinct)
{
	const char *nul = len ? memchr(s, 0, len) : NULL;
	uint32_t index;
	if (nul)
		len = (size_t)(nul - s);
	int rc = pw->strings.n >= UINT32_MAX - 1 ? -1 : pd_intern_put(&pw->strings, s ? s : "", len, &index);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (pd_grow((void **)&pw->out_index, &pw->out_index_cap, index + 1, sizeof *pw->out_index))
			return -1;
		pw->out_index[index] = (uint32_t)pw->nout++;
	}
	*distinct = index;
	return pw->out_index[index];
}

/* Index of s in the output's table, adding it; -1 when out of memory. Strings stop at an embedded NUL. */
static int64_t intern_bytes(pprof_writer *pw, const char *s, size_t len)
{
	uint32_t distinct;
	return intern_distinct(pw, s, len, &distinct);
}

static int64_t intern_text(pprof_writer *pw, const char *s) { return intern_bytes(pw, s, strlen(s)); }

/* The model string `id`, interned; 0 ("") when the profile has no such string. */
static int64_t intern_string_id(pprof_writer *pw, uint64_t id)
{
	size_t len;
	/* a kept table's entry is its own, even when an earlier one holds the same text */
	if (id < pw->nkept)
		return (int64_t)id;
	const char *s = pd_profile_text(pw->p, id, &len);
	return s ? intern_bytes(pw, s, len) : 0;
}

#define CHECK(x) do { if ((x) < 0) return PROFDATA_ENOMEM; } while (0)

static int add_sample_types(pprof_writer *pw)
{
	static const pb_value_type init_vt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	pw->value_types = message_array(pw, pw->nvalues + 1, sizeof *pw->value_types);
	pw->value_type_ptrs = message_array(pw, pw->nvalues + 1, sizeof *pw->value_type_ptrs);
	if (!pw->value_types || !pw->value_type_ptrs)
		return PROFDATA_ENOMEM;
	/* none for a profile without samples or types: their names would be strings nothing uses */
	size_t written = pw->nsamples || pw->ntypes ? pw->nvalues : 0;
	for (size_t i = 0; i < written; i++) {
		pb_value_type *vt = &pw->value_types[i];
		*vt = init_vt;
		if (pw->ntypes) {
			profdata_sample_type t;
			profdata_profile_sample_type(pw->p, i, &t);
			CHECK(vt->type = intern_string_id(pw, t.type_id));
			CHECK(vt->unit = intern_string_id(pw, t.unit_id));
		} else {
			CHECK(vt->type = intern_text(pw, "samples"));
			CHECK(vt->unit = intern_text(pw, "count"));
		}
		pw->value_type_ptrs[i] = vt;
	}
	pw->prof.n_sample_type = written;
	pw->prof.sample_type = pw->value_type_ptrs;
	return 0;
}

/* The period, in nanoseconds when its unit is a coarser time unit. */
static int add_period(pprof_writer *pw)
{
	static const pb_value_type init_vt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	const profdata_meta *m = profdata_profile_meta(pw->p);
	const char *unit = m->period_unit;
	uint64_t mul = 1;
	if (unit && strcmp(unit, "microseconds") == 0)
		mul = 1000;
	else if (unit && strcmp(unit, "milliseconds") == 0)
		mul = 1000000;
	else if (unit && strcmp(unit, "seconds") == 0)
		mul = 1000000000;
	if (mul != 1)
		unit = "nanoseconds";
	/* a pprof source with a period and no period type is written so (it reads back without one) */
	if (m->period_type || (m->period && !(pw->from_pprof && !m->period_unit))) {
		pb_value_type *pt = &pw->value_types[pw->nvalues];
		*pt = init_vt;
		CHECK(pt->type = intern_text(pw, m->period_type ? m->period_type : ""));
		CHECK(pt->unit = intern_text(pw, unit ? unit : ""));
		pw->prof.period_type = pt;
	}
	pw->prof.period = (int64_t)(m->period * mul);
	pw->prof.time_nanos = (int64_t)(m->timestamp_ms * 1000000u);
	return 0;
}

/*
 * The pprof sample of model sample `sample` (stack index si): samples with
 * the same stack and the same labels are one, as pprof merges them (a
 * profile read from pprof keeps its samples as they were). 1 when it was
 * there, 0 when added, or PROFDATA_ENOMEM.
 */
static int sample_key(pprof_writer *pw, size_t si, size_t sample, uint32_t *index)
{
	const profdata_label *l;
	size_t nl;
	profdata_profile_sample_labels(&l, &nl, pw->p, sample);
	if (pd_grow((void **)&pw->key, &pw->key_cap, 1 + 4 * nl, sizeof *pw->key))
		return PROFDATA_ENOMEM;
	pw->key[0] = si;
	for (size_t i = 0; i < nl; i++) {
		pw->key[1 + 4 * i] = l[i].key_id;
		pw->key[2 + 4 * i] = l[i].str_id;
		pw->key[3 + 4 * i] = (uint64_t)l[i].num;
		pw->key[4 + 4 * i] = l[i].num_unit_id;
	}
	if (pw->sample_keys.n >= UINT32_MAX - 1)
		return PROFDATA_ENOMEM;
	return pd_intern_put(&pw->sample_keys, (const char *)pw->key, (1 + 4 * nl) * sizeof *pw->key, index);
}

/* Add model sample `sample` (stack index si) to its pprof sample, opening one at the first. */
static int sum_sample(pprof_writer *pw, size_t si, size_t sample, const profdata_sample *s)
{
	int64_t *v;
	uint32_t index;
	int rc = pw->from_pprof ? 0 : sample_key(pw, si, sample, &index);
	if (pw->from_pprof)
		index = (uint32_t)pw->nsamples;
	if (rc < 0)
		return rc;
	if (rc == 0) {
		if (pd_grow((void **)&pw->sample_stack, &pw->sample_stack_cap, pw->nsamples + 1, sizeof *pw->sample_stack) ||
		    pd_grow((void **)&pw->sample_first, &pw->sample_first_cap, pw->nsamples + 1, sizeof *pw->sample_first) ||
		    pd_grow((void **)&pw->values, &pw->values_cap, (pw->nsamples + 1) * pw->nvalues + 1, sizeof *pw->values))
			return PROFDATA_ENOMEM;
		pw->sample_stack[pw->nsamples] = (uint32_t)si;
		pw->sample_first[pw->nsamples] = sample;
		memset(pw->values + pw->nsamples * pw->nvalues, 0, pw->nvalues * sizeof *pw->values);
		pw->nsamples++;
	}
	v = pw->values + (size_t)index * pw->nvalues;
	if (!pw->ntypes) {
		/* No sample types: one count, the first value or 1 (none for a pprof source without types). */
		if (pw->nvalues)
			v[0] = pd_wrapping_add(v[0], s->nvalues ? s->values[0] : 1);
		return 0;
	}
	for (size_t i = 0; i < pw->nvalues && i < s->nvalues; i++)
		v[i] = pd_wrapping_add(v[i], s->values[i]);
	return 0;
}

static int sum_samples(pprof_writer *pw)
{
	pd_sample_walk walk;
	profdata_sample s;
	size_t si;
	int rc = pd_sample_walk_init(&walk, pw->p, pd_out_diag(pw->w), "pprof");
	while (rc == 0 && (rc = pd_sample_walk_next(&walk, &s, &si)) > 0)
		rc = sum_sample(pw, si, walk.next - 1, &s) ? PROFDATA_ENOMEM : 0;
	pd_sample_walk_free(&walk);
	return rc;
}

static void use_function(pprof_writer *pw, size_t fi)
{
	profdata_frame fr;
	size_t fn;
	profdata_profile_frame(pw->p, fi, &fr);
	if (fr.function_id && profdata_profile_find_function(pw->p, fr.function_id, &fn) == 0 && !pw->function_out[fn]) {
		pw->function_out[fn] = (uint32_t)++pw->nfunctions;
		pw->used_functions[pw->nfunctions - 1] = (uint32_t)fn;
	}
}

/* An inlined call's frame (lib/transform/symbolize.c, or a pprof location's inner lines): no address, a mapping. */
static int is_inlined_call(const profdata_profile *p, size_t fi)
{
	profdata_frame fr;
	profdata_profile_frame(p, fi, &fr);
	return !fr.has_address && fr.mapping;
}

/*
 * Each frame's owner: the frame that holds its location's address. Readers
 * define a location's inlined calls just before the frame they are inlined
 * into (pprof's lines, the symbolizer's inlined frames), so an inlined
 * call's owner is the next frame that is not one; any other frame owns
 * itself.
 */
static void find_owners(pprof_writer *pw, size_t nframes)
{
	uint32_t next = UINT32_MAX;
	for (size_t fi = nframes; fi-- > 0;) {
		if (!is_inlined_call(pw->p, fi) || next == UINT32_MAX)
			next = (uint32_t)fi;
		pw->owner[fi] = next;
	}
}

/*
 * The location of `n` frames of one owner, innermost call first, as a
 * stack has them: numbered (with its functions) at first use, so that a
 * stack a filter took some inlined calls out of, or the frame they were
 * inlined into, gets a location of the lines it kept.
 */
static int group_location(pprof_writer *pw, const uint32_t *frames, size_t n, uint64_t *id)
{
	uint32_t ix;
	int e = pd_intern_put(&pw->location_keys, (const char *)frames, n * sizeof *frames, &ix);
	if (e < 0)
		return PROFDATA_ENOMEM;
	*id = (uint64_t)ix + 1;
	if (e == 1)
		return 0;
	pw->location_owner[pw->nlocations++] = pw->owner[frames[n - 1]];
	for (size_t k = 0; k < n; k++) {
		pw->used_frames[pw->nused_frames++] = frames[k];
		use_function(pw, frames[k]);
	}
	pw->location_start[pw->nlocations] = (uint32_t)pw->nused_frames;
	return 0;
}

/* Sample s's locations from stack st: runs of frames of one owner, ending at the owner, are one location each. */
static int sample_locations(pprof_writer *pw, pb_sample *s, const profdata_stack *st, uint32_t *group, size_t cap)
{
	size_t ng = 0;
	int rc = 0;
	for (size_t j = 0; j < st->nframes && rc == 0; j++) {
		size_t fi;
		/* an unknown frame id: nothing to point at */
		if (profdata_profile_find_frame(pw->p, st->frame_ids[j], &fi) < 0)
			continue;
		if (ng && (pw->owner[group[ng - 1]] != pw->owner[fi] || ng == cap))
			rc = group_location(pw, group, ng, &s->location_id[s->n_location_id++]), ng = 0;
		group[ng++] = (uint32_t)fi;
		if (rc == 0 && pw->owner[fi] == fi)
			rc = group_location(pw, group, ng, &s->location_id[s->n_location_id++]), ng = 0;
	}
	if (rc == 0 && ng)
		rc = group_location(pw, group, ng, &s->location_id[s->n_location_id++]);
	return rc;
}

/*
 * A pprof source's functions and locations in the order read, used or not
 * (frames are in location order, each location's inlined calls first):
 * what the reader will read again.
 */
static int number_locations(pprof_writer *pw, uint32_t *group)
{
	size_t n = profdata_profile_count(pw->p, PROFDATA_TABLE_FRAMES), ng = 0;
	size_t nfunctions = profdata_profile_count(pw->p, PROFDATA_TABLE_FUNCTIONS);
	uint64_t id;
	int rc = 0;
	for (size_t fn = 0; fn < nfunctions; fn++) {
		pw->function_out[fn] = (uint32_t)++pw->nfunctions;
		pw->used_functions[pw->nfunctions - 1] = (uint32_t)fn;
	}
	for (size_t fi = 0; fi < n && rc == 0; fi++) {
		group[ng++] = (uint32_t)fi;
		if (pw->owner[fi] == fi)
			rc = group_location(pw, group, ng, &id), ng = 0;
	}
	return rc;
}

/* The arrays add_samples fills: locations are at most the frames, and one per frame of a written stack. */
static int location_arrays(pprof_writer *pw, size_t nids)
{
	size_t nframes = profdata_profile_count(pw->p, PROFDATA_TABLE_FRAMES);
	size_t nfunctions = profdata_profile_count(pw->p, PROFDATA_TABLE_FUNCTIONS);
	pw->samples = message_array(pw, pw->nsamples, sizeof *pw->samples);
	pw->sample_ptrs = message_array(pw, pw->nsamples, sizeof *pw->sample_ptrs);
	pw->location_ids = message_array(pw, nids, sizeof *pw->location_ids);
	pw->owner = message_array(pw, nframes, sizeof *pw->owner);
	pw->function_out = message_array(pw, nfunctions, sizeof *pw->function_out);
	pw->used_frames = message_array(pw, nframes + nids + 1, sizeof *pw->used_frames);
	pw->location_start = message_array(pw, nframes + nids + 2, sizeof *pw->location_start);
	pw->location_owner = message_array(pw, nframes + nids + 1, sizeof *pw->location_owner);
	pw->used_functions = message_array(pw, nfunctions, sizeof *pw->used_functions);
	if (!pw->samples || !pw->sample_ptrs || !pw->location_ids || !pw->owner || !pw->function_out ||
	    !pw->used_frames || !pw->location_start || !pw->location_owner || !pw->used_functions)
		return PROFDATA_ENOMEM;
	find_owners(pw, nframes);
	pw->location_start[0] = 0;
	return 0;
}

/* The frames of the stacks the samples have, each stack once: at least the location ids they take. */
static size_t count_stack_frames(pprof_writer *pw)
{
	size_t nids = 0;
	for (size_t i = 0; i < pw->nsamples; i++) {
		profdata_stack st;
		if (pw->stack_sample[pw->sample_stack[i]])
			continue;
		pw->stack_sample[pw->sample_stack[i]] = i + 1;
		profdata_profile_stack(pw->p, pw->sample_stack[i], &st);
		nids += st.nframes;
	}
	return nids;
}

/*
 * Sample i's location ids: made at the first sample of its stack (at
 * location_ids + *nids), shared by the others (a merged profile has a sample
 * per stack and label set: ten of them for one stack, one list of ids).
 */
static int stack_locations(pprof_writer *pw, size_t i, size_t *nids, uint32_t *group, size_t cap)
{
	pb_sample *s = &pw->samples[i];
	size_t first = pw->stack_sample[pw->sample_stack[i]] - 1;
	profdata_stack st;
	if (first < i) {
		s->location_id = pw->samples[first].location_id;
		s->n_location_id = pw->samples[first].n_location_id;
		return 0;
	}
	profdata_profile_stack(pw->p, pw->sample_stack[i], &st);
	s->location_id = pw->location_ids + *nids;
	int rc = sample_locations(pw, s, &st, group, cap);
	*nids += s->n_location_id;
	return rc;
}

static int add_samples(pprof_writer *pw)
{
	static const pb_sample init_sample = PERFTOOLS__PROFILES__SAMPLE__INIT;
	size_t nframes = profdata_profile_count(pw->p, PROFDATA_TABLE_FRAMES), nids;
	uint32_t *group = malloc((nframes + 1) * sizeof *group);
	pw->stack_sample = calloc(profdata_profile_count(pw->p, PROFDATA_TABLE_STACKS) + 1, sizeof *pw->stack_sample);
	if (!group || !pw->stack_sample) {
		free(group);
		return PROFDATA_ENOMEM;
	}
	nids = count_stack_frames(pw);
	int rc = location_arrays(pw, nids);
	if (rc == 0 && pw->from_pprof)
		rc = number_locations(pw, group);
	nids = 0;
	for (size_t i = 0; i < pw->nsamples && rc == 0; i++) {
		pb_sample *s = &pw->samples[i];
		*s = init_sample;
		rc = stack_locations(pw, i, &nids, group, nframes + 1);
		s->value = pw->values + i * pw->nvalues;
		s->n_value = pw->nvalues;
		pw->sample_ptrs[i] = s;
	}
	free(group);
	pw->prof.n_sample = pw->nsamples;
	pw->prof.sample = pw->sample_ptrs;
	return rc;
}

/* Each pprof sample's labels: those of the first model sample it sums. */
static int add_labels(pprof_writer *pw)
{
	static const pb_label init_label = PERFTOOLS__PROFILES__LABEL__INIT;
	size_t total = 0, used = 0;
	for (size_t i = 0; i < pw->nsamples; i++) {
		const profdata_label *l;
		size_t nl;
		profdata_profile_sample_labels(&l, &nl, pw->p, pw->sample_first[i]);
		total += nl;
	}
	if (!total)
		return 0;
	pw->labels = message_array(pw, total, sizeof *pw->labels);
	pw->label_ptrs = message_array(pw, total, sizeof *pw->label_ptrs);
	if (!pw->labels || !pw->label_ptrs)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < pw->nsamples; i++) {
		const profdata_label *l;
		size_t nl;
		profdata_profile_sample_labels(&l, &nl, pw->p, pw->sample_first[i]);
		pw->samples[i].label = pw->label_ptrs + used;
		pw->samples[i].n_label = nl;
		for (size_t k = 0; k < nl; k++, used++) {
			pb_label *o = &pw->labels[used];
			*o = init_label;
			CHECK(o->key = intern_string_id(pw, l[k].key_id));
			CHECK(o->str = intern_string_id(pw, l[k].str_id));
			CHECK(o->num_unit = intern_string_id(pw, l[k].num_unit_id));
			o->num = l[k].num;
			pw->label_ptrs[used] = o;
		}
	}
	return 0;
}

/*
 * Class prefix (Java source form, or as stored followed by the signature)
 * and name into b, interned; *has_class says whether there was a prefix.
 */
static int64_t intern_function_name(pprof_writer *pw, const profdata_function *f, int java_form, pd_strbuf *b,
                                    int *has_class)
{
	size_t nlen, slen;
	const char *name = pd_profile_text(pw->p, f->name_id, &nlen);
	const char *sig = java_form ? NULL : pd_profile_text(pw->p, f->signature_id, &slen);
	b->n = 0;
	if (pd_class_prefix(b, pw->p, f->class_serial, java_form))
		return -1;
	*has_class = b->n > 0;
	if (pd_strbuf_add(b, name ? name : "", nlen) || (sig && pd_strbuf_add(b, sig, slen)))
		return -1;
	return intern_bytes(pw, b->p ? b->p : "", b->n);
}

/*
 * Functions: name package.Class.method, system name pkg/Class.method(signature);
 * read from pprof, the system name is the one read (the reader keeps one
 * that differs from the name as the signature).
 */
static int add_functions(pprof_writer *pw)
{
	int pprof_source = pw->from_pprof;
	static const pb_function init_fn = PERFTOOLS__PROFILES__FUNCTION__INIT;
	pd_strbuf name = { 0, 0, 0 };
	int rc = 0;
	pw->functions = message_array(pw, pw->nfunctions, sizeof *pw->functions);
	pw->function_ptrs = message_array(pw, pw->nfunctions, sizeof *pw->function_ptrs);
	if (!pw->functions || !pw->function_ptrs)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < pw->nfunctions && rc == 0; i++) {
		profdata_function f;
		pb_function *o = &pw->functions[i];
		size_t sig_len;
		int has_class;
		profdata_profile_function(pw->p, pw->used_functions[i], &f);
		*o = init_fn;
		o->id = pw->from_pprof ? f.id : i + 1;
		if (pprof_source && !f.class_serial) {
			rc = (o->name = intern_string_id(pw, f.name_id)) < 0;
			has_class = 0;
		} else {
			rc = (o->name = intern_function_name(pw, &f, 1, &name, &has_class)) < 0;
		}
		if (rc == 0 && !has_class && f.signature_id && pprof_source)
			rc = (o->system_name = intern_string_id(pw, f.signature_id)) < 0;
		else if (rc == 0 && (has_class || pd_profile_text(pw->p, f.signature_id, &sig_len)))
			rc = (o->system_name = intern_function_name(pw, &f, 0, &name, &has_class)) < 0;
		else
			o->system_name = o->name;
		if (rc == 0)
			rc = (o->filename = intern_string_id(pw, f.source_file_id)) < 0;
		o->start_line = f.start_line > 0 ? f.start_line : 0;
		pw->function_ptrs[i] = o;
	}
	free(name.p);
	pw->prof.n_function = pw->nfunctions;
	pw->prof.function = pw->function_ptrs;
	return rc ? PROFDATA_ENOMEM : 0;
}

static int by_start(const void *a, const void *b)
{
	const pb_mapping *x = *(pb_mapping *const *)a;
	const pb_mapping *y = *(pb_mapping *const *)b;
	return x->memory_start != y->memory_start ? pd_order_u64(x->memory_start, y->memory_start)
	                                          : pd_order_u64(x->id, y->id);
}

/* Mappings: the executable ones (all when none says). */
static int add_mappings(pprof_writer *pw)
{
	static const pb_mapping init_map = PERFTOOLS__PROFILES__MAPPING__INIT;
	size_t n = profdata_profile_count(pw->p, PROFDATA_TABLE_MAPPINGS);
	pw->mappings = message_array(pw, n, sizeof *pw->mappings);
	pw->mapping_ptrs = message_array(pw, n, sizeof *pw->mapping_ptrs);
	pw->mappings_by_start = message_array(pw, n, sizeof *pw->mappings_by_start);
	if (!pw->mappings || !pw->mapping_ptrs || !pw->mappings_by_start)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		profdata_mapping mp;
		pb_mapping *o = &pw->mappings[pw->nmappings];
		profdata_profile_mapping(pw->p, i, &mp);
		/* a pprof source's mappings are all written, in order: its frames name them by index */
		if (!pw->from_pprof && ((mp.perms[0] && !strchr(mp.perms, 'x')) || mp.limit <= mp.start))
			continue;
		*o = init_map;
		o->id = pw->nmappings + 1;
		o->memory_start = mp.start;
		o->memory_limit = mp.limit;
		o->file_offset = mp.offset;
		CHECK(o->filename = intern_string_id(pw, mp.path_id));
		CHECK(o->build_id = intern_string_id(pw, mp.build_id));
		pw->mapping_ptrs[pw->nmappings] = o;
		pw->mappings_by_start[pw->nmappings++] = o;
	}
	qsort(pw->mappings_by_start, pw->nmappings, sizeof *pw->mappings_by_start, by_start);
	pw->prof.n_mapping = pw->nmappings;
	pw->prof.mapping = pw->mapping_ptrs;
	return 0;
}

/* The mapping id for addr: the mapping with the greatest start <= addr, if it contains addr. */
static uint64_t mapping_of(const pprof_writer *pw, uint64_t addr)
{
	size_t lo = 0, hi = pw->nmappings;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pw->mappings_by_start[mid]->memory_start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr < pw->mappings_by_start[lo - 1]->memory_limit ? pw->mappings_by_start[lo - 1]->id : 0;
}

/*
 * A named frame with an address says what its mapping was symbolized with
 * (a symbolized native profile, lib/transform/symbolize.c): functions, files
 * and lines; inlined calls were looked for wherever lines were.
 */
static void mark_symbolized(pprof_writer *pw, uint64_t mapping_id, const profdata_frame *fr, size_t fn)
{
	profdata_function f;
	if (!mapping_id)
		return;
	pb_mapping *m = pw->mapping_ptrs[mapping_id - 1];
	profdata_profile_function(pw->p, fn, &f);
	m->has_functions = 1;
	m->has_filenames |= f.source_file_id != 0;
	m->has_line_numbers |= fr->line > 0;
	m->has_inline_frames |= fr->line > 0;
}

/* Location i's lines, innermost call first (the last is the frame the others were inlined into). */
static void location_lines(pprof_writer *pw, pb_location *o, size_t i)
{
	static const pb_line init_line = PERFTOOLS__PROFILES__LINE__INIT;
	size_t from = pw->location_start[i], to = pw->location_start[i + 1];
	o->line = &pw->line_ptrs[from];
	for (size_t k = from; k < to; k++) {
		profdata_frame fr;
		size_t fn;
		profdata_profile_frame(pw->p, pw->used_frames[k], &fr);
		int known = fr.function_id && profdata_profile_find_function(pw->p, fr.function_id, &fn) == 0;
		/* a pprof source's lines are written as read, a function id it lacks or 0 included: all but
		 * the empty frame of a location without lines */
		if (!known && !(pw->from_pprof && (fr.function_id || fr.line || to - from > 1)))
			continue;
		pb_line *l = &pw->lines[from + o->n_line];
		*l = init_line;
		l->function_id = pw->from_pprof ? fr.function_id : pw->function_out[fn];
		l->line = fr.line > 0 || pw->from_pprof ? fr.line : 0;
		pw->line_ptrs[from + o->n_line++] = l;
		if (known)
			mark_symbolized(pw, o->mapping_id, &fr, fn);
	}
	if (o->n_line == 0)
		o->line = NULL;
}

static int add_locations(pprof_writer *pw)
{
	static const pb_location init_loc = PERFTOOLS__PROFILES__LOCATION__INIT;
	size_t n = pw->nlocations, nlines = pw->nused_frames;
	pw->locations = message_array(pw, n, sizeof *pw->locations);
	pw->location_ptrs = message_array(pw, n, sizeof *pw->location_ptrs);
	pw->lines = message_array(pw, nlines, sizeof *pw->lines);
	pw->line_ptrs = message_array(pw, nlines, sizeof *pw->line_ptrs);
	if (!pw->locations || !pw->location_ptrs || !pw->lines || !pw->line_ptrs)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		profdata_frame fr;
		pb_location *o = &pw->locations[i];
		/* the address is the owner's: the call the others were inlined into, even where a filter took it out */
		profdata_profile_frame(pw->p, pw->location_owner[i], &fr);
		*o = init_loc;
		o->id = i + 1;
		if (fr.has_address) {
			o->address = fr.address;
			o->mapping_id = pw->from_pprof ? fr.mapping : mapping_of(pw, fr.address);
		}
		location_lines(pw, o, i);
		pw->location_ptrs[i] = o;
	}
	pw->prof.n_location = n;
	pw->prof.location = pw->location_ptrs;
	return 0;
}

/* A written sample type named `name`: what default_sample_type may name. */
static int is_written_type(const pprof_writer *pw, const char *name)
{
	for (size_t i = 0; i < pw->prof.n_sample_type && i < pw->ntypes; i++) {
		profdata_sample_type t;
		size_t len;
		profdata_profile_sample_type(pw->p, i, &t);
		const char *s = pd_profile_text(pw->p, t.type_id, &len);
		if (s && strlen(name) == len && memcmp(s, name, len) == 0)
			return 1;
	}
	return 0;
}

/*
 * A meta comment that holds a Profile field (pprof.h: what the reader made
 * of one): into its field. 1 when it was one, 0 when not, -1 out of memory.
 */
static int put_pprof_field(pprof_writer *pw, const char *k, const char *v)
{
	int64_t index;
	if (strcmp(k, PPROF_KEY_TIME) == 0) {
		pw->prof.time_nanos = strtoll(v, NULL, 10);
		return 1;
	}
	if (strcmp(k, PPROF_KEY_DURATION) == 0) {
		pw->prof.duration_nanos = strtoll(v, NULL, 10);
		return 1;
	}
	if (strcmp(k, PPROF_KEY_DROP) != 0 && strcmp(k, PPROF_KEY_KEEP) != 0 && strcmp(k, PPROF_KEY_DEFAULT_TYPE) != 0 &&
	    strcmp(k, PPROF_KEY_DOC_URL) != 0)
		return 0;
	if ((index = intern_text(pw, v)) < 0)
		return -1;
	if (strcmp(k, PPROF_KEY_DROP) == 0)
		pw->prof.drop_frames = index;
	else if (strcmp(k, PPROF_KEY_KEEP) == 0)
		pw->prof.keep_frames = index;
	else if (strcmp(k, PPROF_KEY_DOC_URL) == 0)
		pw->prof.doc_url = index;
	else if (is_written_type(pw, v))
		pw->prof.default_sample_type = index;
	return 1;
}

/* Comments: a pprof comment as it was, a Profile field into its field, any other "key=value". */
static int add_comments(pprof_writer *pw)
{
	const profdata_meta *m = profdata_profile_meta(pw->p);
	pd_strbuf kv = { 0, 0, 0 };
	int rc = 0;
	if (!m->ncomments)
		return 0;
	if (!(pw->comments = message_array(pw, m->ncomments, sizeof *pw->comments)))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < m->ncomments && rc == 0; i++) {
		const char *k = m->comments[i].key ? m->comments[i].key : "";
		const char *v = m->comments[i].value ? m->comments[i].value : "";
		if (strcmp(k, PPROF_KEY_COMMENT) == 0) {
			rc = (pw->comments[pw->prof.n_comment++] = intern_text(pw, v)) < 0;
			continue;
		}
		if ((rc = put_pprof_field(pw, k, v)) != 0) {
			rc = rc < 0;
			continue;
		}
		kv.n = 0;
		rc = pd_strbuf_add(&kv, k, strlen(k)) || pd_strbuf_add(&kv, "=", 1) || pd_strbuf_add(&kv, v, strlen(v)) ||
		     (pw->comments[pw->prof.n_comment++] = intern_text(pw, kv.p)) < 0;
	}
	free(kv.p);
	pw->prof.comment = pw->comments;
	return rc ? PROFDATA_ENOMEM : 0;
}

/* The string table. */
static int add_strings(pprof_writer *pw)
{
	int rc = add_comments(pw);
	if (rc || !(pw->string_ptrs = message_array(pw, pw->nout, sizeof *pw->string_ptrs)))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < pw->nkept; i++)
		pw->string_ptrs[i] = (char *)pd_intern_str(&pw->strings, pw->kept[i], NULL);
	for (size_t i = 0; i < pw->strings.n; i++)
		if (pw->out_index[i] >= pw->nkept)
			pw->string_ptrs[pw->out_index[i]] = (char *)pd_intern_str(&pw->strings, (uint32_t)i, NULL);
	pw->prof.n_string_table = pw->nout;
	pw->prof.string_table = pw->string_ptrs;
	return 0;
}

/*
 * A profile read from pprof keeps its string table: its strings, ids 1, 2,
 * ..., are the table's entries (a repeated one included), so a rewrite
 * refers to them by the same indexes and reads back as the same model.
 * What the message needs besides is appended. Not when the ids are not
 * 1, 2, ... in order.
 */
static int keep_string_table(pprof_writer *pw)
{
	size_t n = profdata_profile_count(pw->p, PROFDATA_TABLE_STRINGS);
	if (!pw->from_pprof)
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t id;
		profdata_profile_string_at(pw->p, i, &id, NULL, NULL);
		if (id != i + 1)
			return 0;
	}
	if (!(pw->kept = malloc((n + 1) * sizeof *pw->kept)))
		return -1;
	pw->kept[0] = 0;
	for (size_t i = 0; i < n; i++) {
		const char *s;
		size_t len;
		profdata_profile_string_at(pw->p, i, NULL, &s, &len);
		/* a repeat keeps its place: nout counts it whether or not it was new */
		if (intern_distinct(pw, s, len, &pw->kept[i + 1]) < 0)
			return -1;
		pw->nout = i + 2;
	}
	pw->nkept = n + 1;
	return 0;
}

/* Profile fields profile.proto does not name, read from pprof (unknown records): as they were. */
static int add_unknown_fields(pprof_writer *pw)
{
	size_t n = profdata_profile_count(pw->p, PROFDATA_TABLE_UNKNOWN);
	ProtobufCMessageUnknownField *u;
	if (!n || !pw->from_pprof)
		return 0;
	if (!(u = message_array(pw, n, sizeof *u)))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		profdata_unknown r;
		profdata_profile_unknown(pw->p, i, &r);
		u[pw->prof.base.n_unknown_fields].tag = r.tag >> 3;
		u[pw->prof.base.n_unknown_fields].wire_type = (ProtobufCWireType)(r.tag & 7);
		u[pw->prof.base.n_unknown_fields].len = (size_t)r.len;
		u[pw->prof.base.n_unknown_fields++].data = (uint8_t *)(uintptr_t)r.data;
	}
	pw->prof.base.unknown_fields = u;
	return 0;
}

static int build_message(pprof_writer *pw)
{
	static const Perftools__Profiles__Profile init_prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	int rc;
	const char *format = profdata_profile_meta(pw->p)->format;
	pw->from_pprof = format && strcmp(format, "pprof") == 0;
	pw->prof = init_prof;
	pw->ntypes = profdata_profile_count(pw->p, PROFDATA_TABLE_SAMPLE_TYPES);
	/* a pprof source without sample types has samples without values, and is written so */
	pw->nvalues = pw->ntypes ? pw->ntypes : !pw->from_pprof;
	if ((rc = sum_samples(pw)) != 0)
		return rc;
	if (intern_bytes(pw, "", 0) < 0 || keep_string_table(pw) || add_sample_types(pw) || add_period(pw) || add_samples(pw) || add_labels(pw) ||
	    add_functions(pw) || add_mappings(pw) || add_locations(pw) || add_strings(pw) ||
	    add_unknown_fields(pw))
		return PROFDATA_ENOMEM;
	return 0;
}

/*
 * gzip as the Go runtime writes its profiles: at level 1 (BestSpeed). A
 * profile is mostly varints, which a higher level hardly shrinks: a merged
 * 52 MB message took 0.9 s to 44 MB at 1, 1.4 s to 43 MB at 6. The write
 * option gzip=N chooses; else a level the caller set on the writer stands.
 */
static int set_compression(profdata_writer *w, const pd_options *opts)
{
	long long level = pd_out_gzip_level(w) ? pd_out_gzip_level(w) : 1;
	if (opts) {
		int rc = pd_options_int(opts, "gzip", level, 0, 9, &level, pd_out_diag(w));
		if (rc)
			return rc;
	}
	if (level == 0)
		return profdata_writer_set_gzip(w, 0);
#if PD_HAVE_ZLIB
	return profdata_writer_set_gzip(w, (int)level);
#else
	pd_out_warn(w, "pprof: built without zlib: the profile is written uncompressed");
	return 0;
#endif
}

int pd_pprof_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts)
{
	pprof_writer pw;
	int rc = set_compression(w, opts);
	if (rc)
		return rc;
	if ((rc = pd_need_samples(p, w, "pprof")) < 0)
		return rc;
	memset(&pw, 0, sizeof pw);
	pw.p = p;
	pw.w = w;
	rc = build_message(&pw);
	if (rc == PROFDATA_ENOMEM)
		rc = pd_out_error(w, rc, "pprof: out of memory");
	if (rc == 0) {
		size_t size = protobuf_c_message_get_packed_size(&pw.prof.base);
		unsigned char *out = pd_out_reserve(w, size ? size : 1);
		if (out)
			pd_out_commit(w, protobuf_c_message_pack(&pw.prof.base, out));
		else
			rc = PROFDATA_EIO;
	}
	pprof_writer_free(&pw);
	return rc;
}
