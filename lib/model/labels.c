/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sample labels (events version 3): the labels event says what the next
 * sample carries. A profile has few distinct label sets and many samples,
 * so each set is kept once (interned by its bytes) and a sample holds a
 * 4-byte set number, in a column that exists only once some sample has
 * labels: a profile without labels pays nothing.
 */
#include "model/model_impl.h"

#include <stdlib.h>
#include <string.h>

#define NOMEM(p) pd_diag_error(&(p)->diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "out of memory building the model")

/* A set's bytes for interning: each label's four fields, with no padding in between. */
static int set_key(const profdata_sample_labels *l, uint64_t **key)
{
	uint64_t *k = malloc(l->nlabels * 4 * sizeof *k + 1);
	if (!k)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < l->nlabels; i++) {
		k[4 * i] = l->labels[i].key_id;
		k[4 * i + 1] = l->labels[i].str_id;
		k[4 * i + 2] = (uint64_t)l->labels[i].num;
		k[4 * i + 3] = l->labels[i].num_unit_id;
	}
	*key = k;
	return 0;
}

int pd_model_on_sample_labels(void *payload, const profdata_sample_labels *l)
{
	profdata_profile *p = payload;
	uint64_t *key;
	uint32_t set;
	int rc;
	if (!p->began || p->ended)
		return pd_diag_error(&p->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "event 'sample_labels' outside begin/end");
	if (l->nlabels == 0) {
		p->pending_labels = 0;
		return 0;
	}
	if (l->nlabels > UINT32_MAX / 32 || p->label_keys.n >= UINT32_MAX - 1)
		return pd_diag_error(&p->diag, PROFDATA_ELIMIT, PD_NO_OFFSET, 0, "too many labels");
	if (set_key(l, &key))
		return NOMEM(p);
	rc = pd_intern_put(&p->label_keys, (const char *)key, l->nlabels * 4 * sizeof *key, &set);
	free(key);
	if (rc == 0 && (PD_VEC_PUSH(p->label_sets, p->labels.n) < 0 ||
	                pd_grow((void **)&p->labels.v, &p->labels.cap, p->labels.n + l->nlabels, sizeof *p->labels.v))) {
		rc = PROFDATA_ENOMEM;
	} else if (rc == 0) {
		memcpy(p->labels.v + p->labels.n, l->labels, l->nlabels * sizeof *l->labels);
		p->labels.n += l->nlabels;
	}
	if (rc < 0)
		return NOMEM(p);
	p->pending_labels = set + 1;
	return 0;
}

int pd_model_label_sample(profdata_profile *p)
{
	uint32_t set = p->pending_labels;
	p->pending_labels = 0;
	if (!set && p->sample_label.n == 0)
		return 0;
	/* the first labelled sample makes the column, with "none" for the samples before it */
	if (pd_grow((void **)&p->sample_label.v, &p->sample_label.cap, p->samples.n, sizeof *p->sample_label.v))
		return NOMEM(p);
	while (p->sample_label.n + 1 < p->samples.n)
		p->sample_label.v[p->sample_label.n++] = 0;
	p->sample_label.v[p->sample_label.n++] = set;
	return 0;
}

int profdata_profile_sample_labels(const profdata_label **out, size_t *n, const profdata_profile *p, size_t sample)
{
	if (!out || !n)
		return PROFDATA_EINVAL;
	*out = NULL;
	*n = 0;
	if (sample >= p->samples.n)
		return PROFDATA_ENOTFOUND;
	uint32_t set = sample < p->sample_label.n ? p->sample_label.v[sample] : 0;
	if (set) {
		size_t from = p->label_sets.v[set - 1];
		size_t to = set < p->label_sets.n ? p->label_sets.v[set] : p->labels.n;
		*out = p->labels.v + from;
		*n = to - from;
	}
	return 0;
}

int pd_model_replay_labels(const profdata_profile *p, size_t i, const profdata_events *ev, void *payload)
{
	profdata_sample_labels l;
	if (!ev->sample_labels || i >= p->sample_label.n || !p->sample_label.v[i])
		return 0;
	profdata_profile_sample_labels(&l.labels, &l.nlabels, p, i);
	int r = ev->sample_labels(payload, &l);
	return r < 0 ? r : r ? PROFDATA_STOPPED : 0;
}

void pd_model_labels_free(profdata_profile *p)
{
	pd_intern_free(&p->label_keys);
	PD_FREE_ALL(p->labels.v, p->label_sets.v, p->sample_label.v);
}

int pd_model_labels_equal(const profdata_profile *a, const profdata_profile *b, size_t *differs_at)
{
	size_t n = a->samples.n < b->samples.n ? a->samples.n : b->samples.n;
	for (size_t i = 0; i < n; i++) {
		const profdata_label *x, *y;
		size_t nx, ny;
		profdata_profile_sample_labels(&x, &nx, a, i);
		profdata_profile_sample_labels(&y, &ny, b, i);
		int same = nx == ny;
		for (size_t k = 0; same && k < nx; k++)
			same = x[k].key_id == y[k].key_id && x[k].str_id == y[k].str_id && x[k].num == y[k].num &&
			       x[k].num_unit_id == y[k].num_unit_id;
		if (!same) {
			*differs_at = i;
			return 0;
		}
	}
	return 1;
}
