/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace contexts (events version 2): what an XML trace says about itself
 * (node, process, agent, trace start and end, options, filters) and where
 * each trace of a file begins. Kept apart from the trace events because a
 * context row is about the trace, not about the program, and because a
 * file may hold several traces: rows carry their trace number and the
 * number of trace events before them, so replay puts them back in place.
 */
#include "model/model_impl.h"

#include <stdlib.h>
#include <string.h>

#define NO_TEXT SIZE_MAX

static int put_opt_text(profdata_profile *p, const char *s, size_t *off)
{
	if (!s) {
		*off = NO_TEXT;
		return 0;
	}
	return pd_arena_put_str(&p->text, s, off);
}

int pd_model_on_trace_context(void *payload, const profdata_trace_context *c)
{
	profdata_profile *p = payload;
	if (!p->began || p->ended)
		return pd_diag_error(&p->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "event 'trace_context' outside begin/end");
	pd_context_row r;
	memset(&r, 0, sizeof(r));
	r.c = *c;
	r.c.id = r.c.ref = NULL;
	r.c.attrs = NULL;
	r.c.position = p->traces.n; /* where it stands among the trace events the model holds */
	r.attrs_off = p->kvs.n;
	int e = put_opt_text(p, c->id, &r.id_off);
	if (e == 0)
		e = put_opt_text(p, c->ref, &r.ref_off);
	for (size_t i = 0; e == 0 && i < c->nattrs; i++) {
		pd_kv_row kv;
		e = pd_arena_put_str(&p->text, c->attrs[i].key ? c->attrs[i].key : "", &kv.key_off);
		if (e == 0)
			e = pd_arena_put_str(&p->text, c->attrs[i].value ? c->attrs[i].value : "", &kv.value_off);
		if (e == 0)
			e = PD_VEC_PUSH(p->kvs, kv);
	}
	if (e == 0)
		e = PD_VEC_PUSH(p->contexts, r);
	if (e < 0)
		return pd_diag_error(&p->diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "out of memory building the model");
	return 0;
}

int profdata_profile_trace_context_sized(const profdata_profile *p, size_t i, profdata_trace_context *out,
                                         size_t out_size)
{
	if (!out)
		return PROFDATA_EINVAL;
	if (i >= p->contexts.n)
		return PROFDATA_ENOTFOUND;
	const pd_context_row *r = &p->contexts.v[i];
	profdata_trace_context row = r->c;
	row.id = r->id_off == NO_TEXT ? NULL : pd_text(p, r->id_off);
	row.ref = r->ref_off == NO_TEXT ? NULL : pd_text(p, r->ref_off);
	row.attrs = row.nattrs && p->kv_view ? p->kv_view + r->attrs_off : NULL;
	memcpy(out, &row, out_size < sizeof(row) ? out_size : sizeof(row));
	if (out_size > sizeof(row))
		memset((char *)out + sizeof(row), 0, out_size - sizeof(row));
	return 0;
}

int pd_model_replay_contexts(const profdata_profile *p, size_t *next, uint64_t before, const profdata_events *ev,
                             void *payload)
{
	if (!ev->trace_context)
		return 0;
	for (; *next < p->contexts.n && p->contexts.v[*next].c.position <= before; (*next)++) {
		profdata_trace_context c;
		profdata_profile_trace_context(p, *next, &c);
		int r = ev->trace_context(payload, &c);
		if (r)
			return r < 0 ? r : PROFDATA_STOPPED;
	}
	return 0;
}

static int text_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int pd_model_contexts_equal(const profdata_profile *a, const profdata_profile *b, size_t *differs_at)
{
	if (a->contexts.n != b->contexts.n) {
		*differs_at = a->contexts.n < b->contexts.n ? a->contexts.n : b->contexts.n;
		return 0;
	}
	for (size_t i = 0; i < a->contexts.n; i++) {
		profdata_trace_context x, y;
		profdata_profile_trace_context(a, i, &x);
		profdata_profile_trace_context(b, i, &y);
		int same = x.kind == y.kind && x.trace == y.trace && x.position == y.position &&
		           x.time_ns == y.time_ns && x.nattrs == y.nattrs && text_eq(x.id, y.id) && text_eq(x.ref, y.ref);
		for (size_t k = 0; same && k < x.nattrs; k++)
			same = text_eq(x.attrs[k].key, y.attrs[k].key) && text_eq(x.attrs[k].value, y.attrs[k].value);
		if (!same) {
			*differs_at = i;
			return 0;
		}
	}
	return 1;
}
