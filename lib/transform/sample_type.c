/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One value per sample, behind any decoder: read option sample=NAME (a
 * sample type's name, or its index from 0, as pprof's -sample_index takes
 * either), sample=default (pprof's choice: the type the input's
 * pprof.default_sample_type names, else the last) or sample=all (every
 * value, as without the option). The chosen type alone is passed on, and
 * of every sample its value of that type.
 *
 * The choice (pd_sample_choice) is shared with top_stacks, which ranks
 * stacks by the value pprof would show. Sample types are held until the
 * first sample, sample group or end: "default" and "the last" are known
 * only once all of them have come.
 */
#include <stdlib.h>
#include <string.h>

#include "transform/transform.h"

/* The read options every format takes for sample values, as pd_filter_options. */
const char *const pd_sample_options[] = { "sample", "top_stacks", NULL };

enum { NAMES_WANTED = 1, NAMES_DEFAULT = 2 };

/* Whether `s` (len bytes) is the decimal index of a sample type: 1 and *out, else 0. */
static int index_text(const char *s, size_t len, size_t *out)
{
	size_t v = 0;
	if (len == 0 || len > 9)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (size_t)(s[i] - '0');
	}
	*out = v;
	return 1;
}

void pd_sample_choice_init(pd_sample_choice *c, const char *want)
{
	memset(c, 0, sizeof *c);
	c->want = want && *want ? want : "default";
}

void pd_sample_choice_free(pd_sample_choice *c)
{
	pd_map_free(&c->names);
	free(c->types);
	free(c->default_name);
}

int pd_sample_choice_begin(pd_sample_choice *c, const profdata_meta *m)
{
	for (size_t i = 0; i < m->ncomments; i++)
		if (m->comments[i].key && m->comments[i].value &&
		    strcmp(m->comments[i].key, "pprof.default_sample_type") == 0) {
			free(c->default_name);
			if (!(c->default_name = strdup(m->comments[i].value)))
				return PROFDATA_ENOMEM;
		}
	return 0;
}

int pd_sample_choice_string(pd_sample_choice *c, uint64_t id, const char *utf8, size_t len)
{
	uint32_t bits = 0;
	if (strlen(c->want) == len && memcmp(c->want, utf8, len) == 0)
		bits |= NAMES_WANTED;
	if (c->default_name && strlen(c->default_name) == len && memcmp(c->default_name, utf8, len) == 0)
		bits |= NAMES_DEFAULT;
	return bits ? pd_map_put(&c->names, id, bits) : 0;
}

int pd_sample_choice_type(pd_sample_choice *c, const profdata_sample_type *t)
{
	if (pd_grow((void **)&c->types, &c->types_cap, c->ntypes + 1, sizeof *c->types) < 0)
		return PROFDATA_ENOMEM;
	c->types[c->ntypes++] = *t;
	return 0;
}

/* The last held type whose name has `bit`: 1 and *index, else 0. */
static int named(const pd_sample_choice *c, uint32_t bit, size_t *index)
{
	for (size_t i = c->ntypes; i-- > 0;)
		if (pd_map_get(&c->names, c->types[i].type_id) & bit) {
			*index = i;
			return 1;
		}
	return 0;
}

int pd_sample_choice_resolve(const pd_sample_choice *c, size_t *index, pd_diag *diag)
{
	size_t i;
	if (c->ntypes == 0) {
		*index = 0;
		return 0;
	}
	if (strcmp(c->want, "default") == 0) {
		if (!named(c, NAMES_DEFAULT, index))
			*index = c->ntypes - 1;
		return 0;
	}
	if (named(c, NAMES_WANTED, index))
		return 0;
	if (index_text(c->want, strlen(c->want), &i) && i < c->ntypes) {
		*index = i;
		return 0;
	}
	return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
	                     "sample=%s: the profile has no such sample type (it has %zu, from 0)", c->want, c->ntypes);
}

typedef struct sample_type {
	pd_transform_base base; /* first: the pass-through events find it there */
	pd_sample_choice choice;
	int resolved;
	size_t index;
} sample_type;

static int sample_wanted(const pd_options *opts, pd_diag *diag)
{
	(void)diag;
	const char *want = pd_options_get(opts, "sample");
	return want && strcmp(want, "all") != 0;
}

static int sample_init(void *state, pd_diag *diag, const pd_options *opts)
{
	(void)diag;
	pd_sample_choice_init(&((sample_type *)state)->choice, pd_options_get(opts, "sample"));
	return 0;
}

static void sample_free(void *state)
{
	pd_sample_choice_free(&((sample_type *)state)->choice);
}

/* Choose, once all sample types have come, and pass the chosen one on. */
static int resolve(sample_type *s)
{
	if (s->resolved)
		return 0;
	s->resolved = 1;
	int rc = pd_sample_choice_resolve(&s->choice, &s->index, s->base.diag);
	if (rc == 0 && s->choice.ntypes)
		rc = PD_DOWN(s, sample_type, &s->choice.types[s->index]);
	return rc;
}

static int on_begin(void *payload, const profdata_meta *m)
{
	sample_type *s = payload;
	if (pd_sample_choice_begin(&s->choice, m) < 0)
		return pd_diag_error(s->base.diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "sample: out of memory");
	return PD_DOWN(s, begin, m);
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	sample_type *s = payload;
	if (pd_sample_choice_string(&s->choice, id, utf8, len) < 0)
		return pd_diag_error(s->base.diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "sample: out of memory");
	return PD_DOWN(s, string, id, utf8, len);
}

static int on_sample_type(void *payload, const profdata_sample_type *t)
{
	sample_type *s = payload;
	if (s->resolved)
		return pd_diag_error(s->base.diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "sample=%s: a sample type after the samples", s->choice.want);
	if (pd_sample_choice_type(&s->choice, t) < 0)
		return pd_diag_error(s->base.diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "sample: out of memory");
	return 0;
}

static int on_sample_group(void *payload, const profdata_sample_group *g)
{
	sample_type *s = payload;
	int rc = resolve(s);
	return rc ? rc : PD_DOWN(s, sample_group, g);
}

static int on_sample(void *payload, const profdata_sample *smp)
{
	sample_type *s = payload;
	int rc = resolve(s);
	if (rc)
		return rc;
	profdata_sample one = *smp;
	one.nvalues = s->index < smp->nvalues && s->choice.ntypes ? 1 : 0;
	one.values = one.nvalues ? smp->values + s->index : smp->values;
	return PD_DOWN(s, sample, &one);
}

static int on_end(void *payload)
{
	sample_type *s = payload;
	int rc = resolve(s);
	return rc ? rc : PD_DOWN0(s, end);
}

static int sample_finish(void *state)
{
	return resolve(state);
}

static const profdata_events sample_events = {
	.version = PROFDATA_EVENTS_VERSION, .begin = on_begin, .string = on_string, .sample_type = on_sample_type,
	.sample_group = on_sample_group, .sample = on_sample, .end = on_end,
};

const pd_transform_desc pd_transform_sample_type = {
	.name = "sample",
	.state_size = sizeof(sample_type),
	.events = &sample_events,
	.init = sample_init,
	.finish = sample_finish,
	.free = sample_free,
	.wanted = sample_wanted,
};
