/*
 * pprof protobuf export (profile.proto, gzip-compressed on disk), built with
 * protobuf-c's generated code. See doc/formats-pprof.md.
 *
 * Everything is collected from the events and the message built at finish:
 * class loads may follow the stacks that use them, and a profile message
 * lists its functions and locations once. Samples with the same stack are
 * added up into one pprof sample (values summed per sample type), in order
 * of the stack's first sample; locations (one per frame used), functions
 * (one per function used) and mappings (the executable ones) get ids 1, 2,
 * ... in order of first use.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util/hashmap.h"
#include "pd_config.h"
#include "codecs/pprof/profile.pb-c.h"

extern const struct profdata_format pd_format_pprof;


/* ---- collected events ---- */

typedef struct pp_fn {
	uint64_t name_id, signature_id, file_id;
	uint32_t class_serial;
	int32_t start_line;
	uint32_t out_id;     /* pprof function id once used; 0 unused */
} pp_fn;

typedef struct pp_frame {
	uint64_t function_id;
	uint64_t address;
	int has_address;
	int32_t line;
	uint32_t out_id;     /* pprof location id once used */
} pp_frame;

typedef struct pp_stack {
	size_t off, n;       /* frame index + 1 (0 unknown) in stack_frames */
	uint32_t sample;     /* pprof sample index + 1 once it has samples */
} pp_stack;

typedef struct pp_enc {
	profdata_writer *w;
	pd_map str_map;
	struct { size_t off, len; } *strs;
	size_t nstr, str_cap;
	pd_strbuf arena;        /* strings, each followed by a NUL */

	pd_map class_map;
	uint64_t *class_names;
	size_t nclasses, classes_cap;
	pd_map fn_map;
	pp_fn *fns;
	size_t nfns, fns_cap;
	pd_map frame_map;
	pp_frame *frames;
	size_t nframes, frames_cap;
	pd_map stack_map;
	pp_stack *stacks;
	size_t nstacks, stacks_cap;
	uint32_t *stack_frames;
	size_t stack_frames_n, stack_frames_cap;
	uint64_t *type_ids;  /* pairs: type, unit */
	size_t ntypes, types_cap;
	int types_frozen;    /* the first sample fixed the number of values */
	size_t nvalues;      /* values per pprof sample */

	uint32_t *sample_stacks;   /* pprof samples: stack index */
	size_t nsamples, samples_cap;
	int64_t *values;           /* nsamples * nvalues */
	size_t values_cap;

	profdata_mapping *maps;
	size_t nmaps, maps_cap;

	/* meta */
	char *period_type, *period_unit;
	uint64_t period;
	uint64_t timestamp_ms;
	char **comments;
	size_t ncomments;

	int failed, finished;
} pp_enc;

static int pp_oom(pp_enc *e)
{
	e->failed = PROFDATA_ENOMEM;
	return pd_out_error(e->w, PROFDATA_ENOMEM, "pprof: out of memory");
}

static const char *pp_str(const pp_enc *e, uint64_t id, size_t *len)
{
	uint32_t k = id ? pd_map_get(&e->str_map, id) : 0;
	if (!k) {
		*len = 0;
		return NULL;
	}
	*len = e->strs[k - 1].len;
	return e->arena.p + e->strs[k - 1].off;
}

static char *pp_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *t = malloc(n);
	if (t)
		memcpy(t, s, n);
	return t;
}

static int pp_begin(void *payload, const profdata_meta *m)
{
	pp_enc *e = payload;
	size_t i;
	e->period = m->period;
	e->timestamp_ms = m->timestamp_ms;
	if (m->period_type && !(e->period_type = pp_strdup(m->period_type)))
		return pp_oom(e);
	if (m->period_unit && !(e->period_unit = pp_strdup(m->period_unit)))
		return pp_oom(e);
	if (m->ncomments) {
		e->comments = calloc(m->ncomments, sizeof *e->comments);
		if (!e->comments)
			return pp_oom(e);
		for (i = 0; i < m->ncomments; i++) {
			const char *k = m->comments[i].key ? m->comments[i].key : "";
			const char *v = m->comments[i].value ? m->comments[i].value : "";
			size_t n = strlen(k) + strlen(v) + 2;
			e->comments[i] = malloc(n);
			if (!e->comments[i])
				return pp_oom(e);
			snprintf(e->comments[i], n, "%s=%s", k, v);
			e->ncomments++;
		}
	}
	return 0;
}

static int pp_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	pp_enc *e = payload;
	if (pd_grow((void **)&e->strs, &e->str_cap, e->nstr + 1, sizeof *e->strs))
		return pp_oom(e);
	e->strs[e->nstr].off = e->arena.n;
	e->strs[e->nstr].len = len;
	if (pd_strbuf_add(&e->arena, utf8, len) || pd_strbuf_add(&e->arena, "", 1) ||
	    pd_map_put(&e->str_map, id, (uint32_t)(e->nstr + 1)))
		return pp_oom(e);
	e->nstr++;
	return 0;
}

static int pp_class_load(void *payload, const profdata_class_load *c)
{
	pp_enc *e = payload;
	if (!c->serial || pd_map_get(&e->class_map, c->serial))
		return 0;
	if (pd_grow((void **)&e->class_names, &e->classes_cap, e->nclasses + 1, sizeof *e->class_names))
		return pp_oom(e);
	e->class_names[e->nclasses++] = c->name_id;
	return pd_map_put(&e->class_map, c->serial, (uint32_t)e->nclasses) ? pp_oom(e) : 0;
}

static int pp_function(void *payload, const profdata_function *f)
{
	pp_enc *e = payload;
	pp_fn *fn;
	if (pd_grow((void **)&e->fns, &e->fns_cap, e->nfns + 1, sizeof *e->fns))
		return pp_oom(e);
	fn = &e->fns[e->nfns++];
	fn->name_id = f->name_id;
	fn->signature_id = f->signature_id;
	fn->file_id = f->source_file_id;
	fn->class_serial = f->class_serial;
	fn->start_line = f->start_line;
	fn->out_id = 0;
	return pd_map_put(&e->fn_map, f->id, (uint32_t)e->nfns) ? pp_oom(e) : 0;
}

static int pp_frame_ev(void *payload, const profdata_frame *f)
{
	pp_enc *e = payload;
	pp_frame *fr;
	if (pd_grow((void **)&e->frames, &e->frames_cap, e->nframes + 1, sizeof *e->frames))
		return pp_oom(e);
	fr = &e->frames[e->nframes++];
	fr->function_id = f->function_id;
	fr->address = f->address;
	fr->has_address = f->has_address;
	fr->line = f->line;
	fr->out_id = 0;
	return pd_map_put(&e->frame_map, f->id, (uint32_t)e->nframes) ? pp_oom(e) : 0;
}

static int pp_stack_ev(void *payload, const profdata_stack *s)
{
	pp_enc *e = payload;
	size_t i;
	pp_stack *st;
	if (pd_grow((void **)&e->stacks, &e->stacks_cap, e->nstacks + 1, sizeof *e->stacks) ||
	    pd_grow((void **)&e->stack_frames, &e->stack_frames_cap, e->stack_frames_n + s->nframes + 1,
	            sizeof *e->stack_frames))
		return pp_oom(e);
	for (i = 0; i < s->nframes; i++)
		e->stack_frames[e->stack_frames_n + i] = pd_map_get(&e->frame_map, s->frame_ids[i]);
	st = &e->stacks[e->nstacks++];
	st->off = e->stack_frames_n;
	st->n = s->nframes;
	st->sample = 0;
	e->stack_frames_n += s->nframes;
	return pd_map_put(&e->stack_map, s->serial, (uint32_t)e->nstacks) ? pp_oom(e) : 0;
}

static int pp_sample_type(void *payload, const profdata_sample_type *t)
{
	pp_enc *e = payload;
	if (e->types_frozen) {
		pd_out_warn(e->w, "pprof: a sample type after the first sample was left out");
		return 0;
	}
	if (pd_grow((void **)&e->type_ids, &e->types_cap, 2 * (e->ntypes + 1), sizeof *e->type_ids))
		return pp_oom(e);
	e->type_ids[2 * e->ntypes] = t->type_id;
	e->type_ids[2 * e->ntypes + 1] = t->unit_id;
	e->ntypes++;
	return 0;
}

static int pp_sample(void *payload, const profdata_sample *s)
{
	pp_enc *e = payload;
	uint32_t k = pd_map_get(&e->stack_map, s->stack_serial);
	pp_stack *st;
	int64_t *v;
	size_t i;
	if (!e->types_frozen) {
		e->types_frozen = 1;
		e->nvalues = e->ntypes ? e->ntypes : 1;
	}
	if (!k) {
		e->failed = PROFDATA_EINVAL;
		return pd_out_error(e->w, PROFDATA_EINVAL,
		                    "pprof: a sample refers to stack %" PRIu32 " that no stack event defined",
		                    s->stack_serial);
	}
	st = &e->stacks[k - 1];
	if (!st->sample) {
		if (pd_grow((void **)&e->sample_stacks, &e->samples_cap, e->nsamples + 1, sizeof *e->sample_stacks) ||
		    pd_grow((void **)&e->values, &e->values_cap, (e->nsamples + 1) * e->nvalues, sizeof *e->values))
			return pp_oom(e);
		e->sample_stacks[e->nsamples] = k - 1;
		memset(e->values + e->nsamples * e->nvalues, 0, e->nvalues * sizeof *e->values);
		st->sample = (uint32_t)++e->nsamples;
	}
	v = e->values + (size_t)(st->sample - 1) * e->nvalues;
	if (!e->ntypes) {
		/* No sample types: one count, the first value or 1. */
		v[0] = (int64_t)((uint64_t)v[0] + (uint64_t)(s->nvalues ? s->values[0] : 1));
		return 0;
	}
	for (i = 0; i < e->nvalues && i < s->nvalues; i++)
		v[i] = (int64_t)((uint64_t)v[i] + (uint64_t)s->values[i]);
	return 0;
}

static int pp_mapping(void *payload, const profdata_mapping *m)
{
	pp_enc *e = payload;
	if (pd_grow((void **)&e->maps, &e->maps_cap, e->nmaps + 1, sizeof *e->maps))
		return pp_oom(e);
	e->maps[e->nmaps++] = *m;
	return 0;
}

/* ---- building the message ---- */

/* The string table: interned copies, NUL-terminated, index 0 is "". */
typedef struct pp_strtab {
	pd_strbuf text;
	struct { size_t off; uint64_t hash; } *ent;
	size_t n, cap;
	uint32_t *slots;
	size_t slots_cap;
} pp_strtab;

static uint64_t pp_hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* Index of s in the table, adding it; -1 when out of memory. Strings stop at an embedded NUL. */
static int64_t pp_intern(pp_strtab *t, const char *s, size_t len)
{
	uint64_t h;
	size_t j;
	const char *nul = len ? memchr(s, 0, len) : NULL;
	if (nul)
		len = (size_t)(nul - s);
	h = pp_hash_bytes(s, len);
	if ((t->n + 1) * 2 > t->slots_cap) {
		size_t ncap = t->slots_cap ? t->slots_cap * 2 : 1024, i;
		uint32_t *slots = calloc(ncap, sizeof *slots);
		if (!slots)
			return -1;
		for (i = 0; i < t->n; i++) {
			j = (size_t)t->ent[i].hash & (ncap - 1);
			while (slots[j])
				j = (j + 1) & (ncap - 1);
			slots[j] = (uint32_t)(i + 1);
		}
		free(t->slots);
		t->slots = slots;
		t->slots_cap = ncap;
	}
	j = (size_t)h & (t->slots_cap - 1);
	while (t->slots[j]) {
		size_t k = t->slots[j] - 1;
		const char *have = t->text.p + t->ent[k].off;
		if (t->ent[k].hash == h && strlen(have) == len && memcmp(have, s, len) == 0)
			return (int64_t)k;
		j = (j + 1) & (t->slots_cap - 1);
	}
	if (t->n >= UINT32_MAX - 1)
		return -1;
	if (pd_grow((void **)&t->ent, &t->cap, t->n + 1, sizeof *t->ent))
		return -1;
	t->ent[t->n].off = t->text.n;
	t->ent[t->n].hash = h;
	if (pd_strbuf_add(&t->text, s, len) || pd_strbuf_add(&t->text, "", 1))
		return -1;
	t->slots[j] = (uint32_t)(t->n + 1);
	return (int64_t)t->n++;
}

static int64_t pp_intern_id(pp_strtab *t, const pp_enc *e, uint64_t id)
{
	size_t len;
	const char *s = pp_str(e, id, &len);
	return s ? pp_intern(t, s, len) : 0;
}

static int64_t pp_intern_c(pp_strtab *t, const char *s) { return pp_intern(t, s, strlen(s)); }

/* The name of class serial cs into b, Java source form or as stored (empty when unknown). */
static int pp_class_name(const pp_enc *e, uint32_t cs, int java_form, pd_strbuf *b)
{
	uint32_t ck = cs ? pd_map_get(&e->class_map, cs) : 0;
	size_t clen, need;
	const char *cname = ck ? pp_str(e, e->class_names[ck - 1], &clen) : NULL;
	char small[256], *big;
	int rc;
	b->n = 0;
	if (!cname || !clen)
		return pd_strbuf_add(b, "", 0);
	if (!java_form)
		return pd_strbuf_add(b, cname, clen);
	need = profdata_java_name(cname, clen, small, sizeof small);
	if (need < sizeof small)
		return pd_strbuf_add(b, small, need);
	big = malloc(need + 1);
	if (!big)
		return PROFDATA_ENOMEM;
	profdata_java_name(cname, clen, big, need + 1);
	rc = pd_strbuf_add(b, big, need);
	free(big);
	return rc;
}

static int pp_map_cmp(const void *a, const void *b)
{
	const Perftools__Profiles__Mapping *x = *(Perftools__Profiles__Mapping *const *)a;
	const Perftools__Profiles__Mapping *y = *(Perftools__Profiles__Mapping *const *)b;
	if (x->memory_start != y->memory_start)
		return x->memory_start < y->memory_start ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The mapping id for addr: the mapping with the greatest start <= addr, if it contains addr. */
static uint64_t pp_find_mapping(Perftools__Profiles__Mapping *const *sorted, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sorted[mid]->memory_start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr < sorted[lo - 1]->memory_limit ? sorted[lo - 1]->id : 0;
}

typedef struct pp_msg {
	Perftools__Profiles__Profile prof;
	Perftools__Profiles__ValueType *vt;      /* sample types + period type */
	Perftools__Profiles__ValueType **vt_ptrs;
	Perftools__Profiles__Sample *samples;
	Perftools__Profiles__Sample **sample_ptrs;
	uint64_t *loc_ids;
	Perftools__Profiles__Location *locs;
	Perftools__Profiles__Location **loc_ptrs;
	Perftools__Profiles__Line *lines;
	Perftools__Profiles__Line **line_ptrs;
	Perftools__Profiles__Function *fns;
	Perftools__Profiles__Function **fn_ptrs;
	Perftools__Profiles__Mapping *maps;
	Perftools__Profiles__Mapping **map_ptrs;
	Perftools__Profiles__Mapping **map_sorted;
	int64_t *comments;
	char **strings;
	uint32_t *used_frames;   /* frame indexes in location order */
	uint32_t *used_fns;      /* function indexes in function order */
	pp_strtab st;
} pp_msg;

static void pp_msg_free(pp_msg *m)
{
	free(m->vt);
	free(m->vt_ptrs);
	free(m->samples);
	free(m->sample_ptrs);
	free(m->loc_ids);
	free(m->locs);
	free(m->loc_ptrs);
	free(m->lines);
	free(m->line_ptrs);
	free(m->fns);
	free(m->fn_ptrs);
	free(m->maps);
	free(m->map_ptrs);
	free(m->map_sorted);
	free(m->comments);
	free(m->strings);
	free(m->used_frames);
	free(m->used_fns);
	free(m->st.text.p);
	free(m->st.ent);
	free(m->st.slots);
}

/* Convert a period to nanoseconds when its unit is a coarser time unit. */
static void pp_period(const pp_enc *e, const char **unit, int64_t *period)
{
	uint64_t mul = 1;
	*unit = e->period_unit;
	if (e->period_unit) {
		if (strcmp(e->period_unit, "microseconds") == 0)
			mul = 1000;
		else if (strcmp(e->period_unit, "milliseconds") == 0)
			mul = 1000000;
		else if (strcmp(e->period_unit, "seconds") == 0)
			mul = 1000000000;
		if (mul != 1)
			*unit = "nanoseconds";
	}
	*period = (int64_t)(e->period * mul);
}

#define PP_CHECK(x) do { if ((x) < 0) goto oom; } while (0)

static int pp_build(pp_enc *e, pp_msg *m)
{
	Perftools__Profiles__Profile *p = &m->prof;
	size_t i, j, nlocs = 0, nfns = 0, nmaps = 0, nlocids = 0;
	int64_t si;
	pd_strbuf tmp = { 0, 0, 0 }, cls = { 0, 0, 0 };
	const char *unit;
	int64_t period;
	static const Perftools__Profiles__Profile init_prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	static const Perftools__Profiles__ValueType init_vt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	static const Perftools__Profiles__Sample init_sample = PERFTOOLS__PROFILES__SAMPLE__INIT;
	static const Perftools__Profiles__Location init_loc = PERFTOOLS__PROFILES__LOCATION__INIT;
	static const Perftools__Profiles__Line init_line = PERFTOOLS__PROFILES__LINE__INIT;
	static const Perftools__Profiles__Function init_fn = PERFTOOLS__PROFILES__FUNCTION__INIT;
	static const Perftools__Profiles__Mapping init_map = PERFTOOLS__PROFILES__MAPPING__INIT;

	*p = init_prof;
	PP_CHECK(pp_intern(&m->st, "", 0));

	/* sample types, and the period type after them */
	m->vt = malloc((e->nvalues + e->ntypes + 2) * sizeof *m->vt);
	m->vt_ptrs = malloc((e->nvalues + e->ntypes + 2) * sizeof *m->vt_ptrs);
	if (!m->vt || !m->vt_ptrs)
		goto oom;
	if (!e->types_frozen)
		e->nvalues = e->ntypes ? e->ntypes : 1;
	for (i = 0; i < e->nvalues; i++) {
		m->vt[i] = init_vt;
		if (e->ntypes) {
			PP_CHECK(si = pp_intern_id(&m->st, e, e->type_ids[2 * i]));
			m->vt[i].type = si;
			PP_CHECK(si = pp_intern_id(&m->st, e, e->type_ids[2 * i + 1]));
			m->vt[i].unit = si;
		} else {
			PP_CHECK(m->vt[i].type = pp_intern_c(&m->st, "samples"));
			PP_CHECK(m->vt[i].unit = pp_intern_c(&m->st, "count"));
		}
		m->vt_ptrs[i] = &m->vt[i];
	}
	p->n_sample_type = e->nsamples || e->ntypes ? e->nvalues : 0;
	p->sample_type = m->vt_ptrs;
	pp_period(e, &unit, &period);
	if (e->period_type || e->period) {
		Perftools__Profiles__ValueType *pt = &m->vt[e->nvalues];
		*pt = init_vt;
		PP_CHECK(pt->type = pp_intern_c(&m->st, e->period_type ? e->period_type : ""));
		PP_CHECK(pt->unit = pp_intern_c(&m->st, unit ? unit : ""));
		p->period_type = pt;
		p->period = period;
	}
	p->time_nanos = (int64_t)(e->timestamp_ms * 1000000u);

	/* locations and functions in order of first use */
	m->samples = malloc((e->nsamples ? e->nsamples : 1) * sizeof *m->samples);
	m->sample_ptrs = malloc((e->nsamples ? e->nsamples : 1) * sizeof *m->sample_ptrs);
	for (i = 0; i < e->nsamples; i++)
		nlocids += e->stacks[e->sample_stacks[i]].n;
	m->loc_ids = malloc((nlocids ? nlocids : 1) * sizeof *m->loc_ids);
	m->used_frames = malloc((e->nframes ? e->nframes : 1) * sizeof *m->used_frames);
	m->used_fns = malloc((e->nfns ? e->nfns : 1) * sizeof *m->used_fns);
	if (!m->samples || !m->sample_ptrs || !m->loc_ids || !m->used_frames || !m->used_fns)
		goto oom;
	nlocids = 0;
	for (i = 0; i < e->nsamples; i++) {
		const pp_stack *stk = &e->stacks[e->sample_stacks[i]];
		Perftools__Profiles__Sample *s = &m->samples[i];
		*s = init_sample;
		s->location_id = m->loc_ids + nlocids;
		for (j = 0; j < stk->n; j++) {
			uint32_t f = e->stack_frames[stk->off + j];
			pp_frame *fr;
			if (!f) {
				continue; /* an unknown frame id: nothing to point at */
			}
			fr = &e->frames[f - 1];
			if (!fr->out_id) {
				fr->out_id = (uint32_t)++nlocs;
				m->used_frames[nlocs - 1] = f - 1;
				if (fr->function_id) {
					uint32_t fk = pd_map_get(&e->fn_map, fr->function_id);
					if (fk && !e->fns[fk - 1].out_id) {
						e->fns[fk - 1].out_id = (uint32_t)++nfns;
						m->used_fns[nfns - 1] = fk - 1;
					}
				}
			}
			m->loc_ids[nlocids + s->n_location_id++] = fr->out_id;
		}
		nlocids += s->n_location_id;
		s->value = e->values + i * e->nvalues;
		s->n_value = e->nvalues;
		m->sample_ptrs[i] = s;
	}
	p->n_sample = e->nsamples;
	p->sample = m->sample_ptrs;

	/* functions */
	m->fns = malloc((nfns ? nfns : 1) * sizeof *m->fns);
	m->fn_ptrs = malloc((nfns ? nfns : 1) * sizeof *m->fn_ptrs);
	if (!m->fns || !m->fn_ptrs)
		goto oom;
	for (i = 0; i < nfns; i++) {
		const pp_fn *f = &e->fns[m->used_fns[i]];
		Perftools__Profiles__Function *o = &m->fns[i];
		size_t nlen, slen;
		const char *name = pp_str(e, f->name_id, &nlen);
		const char *sig = pp_str(e, f->signature_id, &slen);
		*o = init_fn;
		o->id = i + 1;
		/* name: package.Class.method; system name: pkg/Class.method(signature) */
		if (pp_class_name(e, f->class_serial, 1, &cls))
			goto oom;
		tmp.n = 0;
		if (cls.n && (pd_strbuf_add(&tmp, cls.p, cls.n) || pd_strbuf_add(&tmp, ".", 1)))
			goto oom;
		if (pd_strbuf_add(&tmp, name ? name : "", name ? nlen : 0))
			goto oom;
		PP_CHECK(o->name = pp_intern(&m->st, tmp.p, tmp.n));
		if (cls.n || sig) {
			if (pp_class_name(e, f->class_serial, 0, &cls))
				goto oom;
			tmp.n = 0;
			if (cls.n && (pd_strbuf_add(&tmp, cls.p, cls.n) || pd_strbuf_add(&tmp, ".", 1)))
				goto oom;
			if (pd_strbuf_add(&tmp, name ? name : "", name ? nlen : 0) || (sig && pd_strbuf_add(&tmp, sig, slen)))
				goto oom;
			PP_CHECK(o->system_name = pp_intern(&m->st, tmp.p, tmp.n));
		} else {
			o->system_name = o->name;
		}
		PP_CHECK(o->filename = pp_intern_id(&m->st, e, f->file_id));
		o->start_line = f->start_line > 0 ? f->start_line : 0;
		m->fn_ptrs[i] = o;
	}
	p->n_function = nfns;
	p->function = m->fn_ptrs;

	/* mappings: the executable ones (all when none says) */
	m->maps = malloc((e->nmaps ? e->nmaps : 1) * sizeof *m->maps);
	m->map_ptrs = malloc((e->nmaps ? e->nmaps : 1) * sizeof *m->map_ptrs);
	m->map_sorted = malloc((e->nmaps ? e->nmaps : 1) * sizeof *m->map_sorted);
	if (!m->maps || !m->map_ptrs || !m->map_sorted)
		goto oom;
	for (i = 0; i < e->nmaps; i++) {
		const profdata_mapping *mp = &e->maps[i];
		Perftools__Profiles__Mapping *o;
		if (mp->perms[0] && !strchr(mp->perms, 'x'))
			continue;
		if (mp->limit <= mp->start)
			continue;
		o = &m->maps[nmaps];
		*o = init_map;
		o->id = nmaps + 1;
		o->memory_start = mp->start;
		o->memory_limit = mp->limit;
		o->file_offset = mp->offset;
		PP_CHECK(o->filename = pp_intern_id(&m->st, e, mp->path_id));
		PP_CHECK(o->build_id = pp_intern_id(&m->st, e, mp->build_id));
		m->map_ptrs[nmaps] = o;
		m->map_sorted[nmaps] = o;
		nmaps++;
	}
	qsort(m->map_sorted, nmaps, sizeof *m->map_sorted, pp_map_cmp);
	p->n_mapping = nmaps;
	p->mapping = m->map_ptrs;

	/* locations */
	m->locs = malloc((nlocs ? nlocs : 1) * sizeof *m->locs);
	m->loc_ptrs = malloc((nlocs ? nlocs : 1) * sizeof *m->loc_ptrs);
	m->lines = malloc((nlocs ? nlocs : 1) * sizeof *m->lines);
	m->line_ptrs = malloc((nlocs ? nlocs : 1) * sizeof *m->line_ptrs);
	if (!m->locs || !m->loc_ptrs || !m->lines || !m->line_ptrs)
		goto oom;
	for (i = 0; i < nlocs; i++) {
		const pp_frame *fr = &e->frames[m->used_frames[i]];
		Perftools__Profiles__Location *o = &m->locs[i];
		uint32_t fk = fr->function_id ? pd_map_get(&e->fn_map, fr->function_id) : 0;
		*o = init_loc;
		o->id = i + 1;
		if (fr->has_address) {
			o->address = fr->address;
			o->mapping_id = pp_find_mapping(m->map_sorted, nmaps, fr->address);
		}
		if (fk) {
			m->lines[i] = init_line;
			m->lines[i].function_id = e->fns[fk - 1].out_id;
			m->lines[i].line = fr->line > 0 ? fr->line : 0;
			m->line_ptrs[i] = &m->lines[i];
			o->line = &m->line_ptrs[i];
			o->n_line = 1;
		}
		m->loc_ptrs[i] = o;
	}
	p->n_location = nlocs;
	p->location = m->loc_ptrs;

	/* comments */
	if (e->ncomments) {
		m->comments = malloc(e->ncomments * sizeof *m->comments);
		if (!m->comments)
			goto oom;
		for (i = 0; i < e->ncomments; i++)
			PP_CHECK(m->comments[i] = pp_intern_c(&m->st, e->comments[i]));
		p->n_comment = e->ncomments;
		p->comment = m->comments;
	}

	/* the string table */
	m->strings = malloc(m->st.n * sizeof *m->strings);
	if (!m->strings)
		goto oom;
	for (i = 0; i < m->st.n; i++)
		m->strings[i] = m->st.text.p + m->st.ent[i].off;
	p->n_string_table = m->st.n;
	p->string_table = m->strings;
	free(tmp.p);
	free(cls.p);
	return 0;
oom:
	free(tmp.p);
	free(cls.p);
	return PROFDATA_ENOMEM;
}

static int pp_finish(void *state)
{
	pp_enc *e = state;
	pp_msg m;
	size_t size;
	unsigned char *out;
	int rc;

	if (e->failed)
		return e->failed;
	if (e->finished)
		return 0;
	e->finished = 1;
	memset(&m, 0, sizeof m);
	rc = pp_build(e, &m);
	if (rc) {
		pp_msg_free(&m);
		return pp_oom(e);
	}
	size = protobuf_c_message_get_packed_size(&m.prof.base);
	out = pd_out_reserve(e->w, size ? size : 1);
	if (!out) {
		pp_msg_free(&m);
		e->failed = PROFDATA_EIO;
		return PROFDATA_EIO;
	}
	size = protobuf_c_message_pack(&m.prof.base, out);
	pd_out_commit(e->w, size);
	pp_msg_free(&m);
	return 0;
}

static void pp_free(void *state)
{
	pp_enc *e = state;
	size_t i;
	if (!e)
		return;
	pd_map_free(&e->str_map);
	free(e->strs);
	free(e->arena.p);
	pd_map_free(&e->class_map);
	free(e->class_names);
	pd_map_free(&e->fn_map);
	free(e->fns);
	pd_map_free(&e->frame_map);
	free(e->frames);
	pd_map_free(&e->stack_map);
	free(e->stacks);
	free(e->stack_frames);
	free(e->type_ids);
	free(e->sample_stacks);
	free(e->values);
	free(e->maps);
	free(e->period_type);
	free(e->period_unit);
	for (i = 0; i < e->ncomments; i++)
		free(e->comments[i]);
	free(e->comments);
	free(e);
}

static const pd_encoder_ops pp_ops = {
	{
		PROFDATA_EVENTS_VERSION,
		pp_begin,       /* begin */
		pp_string,      /* string */
		pp_class_load,  /* class_load */
		NULL,           /* class_unload */
		pp_function,    /* function */
		pp_frame_ev,    /* frame */
		pp_stack_ev,    /* stack */
		NULL,           /* thread_start */
		NULL,           /* thread_end */
		pp_sample_type, /* sample_type */
		NULL,           /* sample_group */
		pp_sample,      /* sample */
		NULL,           /* alloc_sites */
		NULL,           /* heap_summary */
		NULL,           /* control_settings */
		pp_mapping,     /* mapping */
		NULL,           /* dump_begin */
		NULL,           /* heap_info */
		NULL,           /* class_dump */
		NULL,           /* root */
		NULL,           /* object */
		NULL,           /* dump_end */
		NULL,           /* unknown */
		NULL,           /* attachment */
		NULL,           /* trace_event */
		NULL,           /* end */
	},
	pp_finish,
	pp_free,
};

static const char *const pp_write_options[] = { "gzip", NULL };

static int pp_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts)
{
	pp_enc *e;
	long long level = 6;
	int rc;
	if (opts) {
		rc = pd_options_int(opts, "gzip", 6, 0, 9, &level, pd_out_diag(w));
		if (rc)
			return rc;
	}
	if (level > 0) {
#if PD_HAVE_ZLIB
		rc = profdata_writer_set_gzip(w, (int)level);
		if (rc)
			return rc;
#else
		pd_out_warn(w, "pprof: built without zlib: the profile is written uncompressed");
#endif
	}
	e = calloc(1, sizeof *e);
	if (!e)
		return pd_out_error(w, PROFDATA_ENOMEM, "pprof: out of memory");
	e->w = w;
	*state = e;
	*ops = &pp_ops;
	return 0;
}

const struct profdata_format pd_format_pprof = {
	"pprof",
	"pprof protobuf (gzip-compressed profile.proto); export only",
	NULL,
	NULL,
	pp_encoder_new,
	NULL,
	NULL,
	pp_write_options,
};
