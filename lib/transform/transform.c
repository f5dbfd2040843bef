/* SPDX-License-Identifier: Apache-2.0 */
/* Chains of transforms (transform.h). */
#include "transform/transform.h"

#include <stdlib.h>

typedef struct chain_link {
	const pd_transform_desc *desc;
	void *state;
	const profdata_events *events;
} chain_link;

struct pd_transform_chain {
	chain_link *links; /* links[0] receives the events; a link without desc was not built */
	size_t n;
	const profdata_events *down;
	profdata_events down_full; /* down made full size (pd_events_adopt): what the last link hands on to */
	void *down_payload;
};

/* The pass-through events: their payload is a transform's state, which begins with its pd_transform_base. */
#define PD_EVENT_BODY_pass_(payload, member, tail) \
	pd_transform_base *base = payload; \
	return base->down->member ? base->down->member(base->down_payload PD_EVENT_UNPAREN tail) : 0;
PD_EVENT_LIST(PD_EVENT_HANDLER, pass_)
#undef PD_EVENT_BODY_pass_

static void base_init(pd_transform_base *base, const pd_transform_desc *desc, const profdata_events *down,
                      void *down_payload)
{
	const profdata_events *own = desc->events;
	static const profdata_events pass_all = { PD_EVERY_EVENT(pass_) };
	base->down = down;
	base->down_payload = down_payload;
	base->events = pass_all;
	/* An event the transform takes out, or that nobody after it takes, is NULL here too: a decoder can
	 * tell that none wants it (jfr keeps its other events only for a consumer of unknown records). */
#define OWN(a, shape, member, ...) \
	base->events.member = (desc->swallows & PD_EVENT_BIT(member)) ? NULL \
	                      : own->member                            ? own->member \
	                      : down->member                           ? pass_all.member \
	                                                               : NULL;
	PD_EVENT_LIST(OWN, ~)
#undef OWN
}

/*
 * The transforms of `descs` that `opts` ask for, into `picked` (room for
 * all of them): how many, or the first gate's error.
 */
static long pick_descs(const pd_transform_desc **picked, const pd_transform_desc *const *descs, pd_diag *diag,
                       const pd_options *opts)
{
	long n = 0;
	for (size_t i = 0; descs && descs[i]; i++) {
		int want = descs[i]->wanted ? descs[i]->wanted(opts, diag) : 1;
		if (want < 0)
			return want;
		if (want)
			picked[n++] = descs[i];
	}
	return n;
}

/* Make link i of `c` in front of what follows it (link i + 1, or the consumer). */
static int build_link(pd_transform_chain *c, size_t i, const pd_transform_desc *desc, pd_diag *diag,
                      const pd_options *opts)
{
	const profdata_events *next = i + 1 < c->n ? c->links[i + 1].events : &c->down_full;
	void *next_payload = i + 1 < c->n ? c->links[i + 1].state : c->down_payload;
	chain_link *l = &c->links[i];
	pd_transform_base *base = calloc(1, desc->state_size);
	if (!base)
		return pd_diag_error(diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "%s: out of memory", desc->name);
	base_init(base, desc, next, next_payload);
	base->diag = diag;
	l->desc = desc;
	l->state = base;
	l->events = &base->events;
	return desc->init ? desc->init(base, diag, opts) : 0;
}

int pd_transform_chain_new(pd_transform_chain **out, const pd_transform_desc *const *descs,
                           const profdata_events *down, void *down_payload, pd_diag *diag, const pd_options *opts)
{
	const pd_transform_desc *picked[16];
	size_t most = 0;
	while (descs && descs[most])
		most++;
	*out = NULL;
	if (most > sizeof picked / sizeof picked[0])
		return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "more transforms than a chain holds");
	long n = pick_descs(picked, descs, diag, opts);
	if (n < 0)
		return (int)n;
	pd_transform_chain *c = calloc(1, sizeof(*c));
	if (!c || (n && !(c->links = calloc((size_t)n, sizeof(*c->links))))) {
		free(c);
		return PROFDATA_ENOMEM;
	}
	c->n = (size_t)n;
	c->down = down;
	c->down_payload = down_payload;
	/* the transforms hand on every event they know of: a consumer's older table must not be read past its end */
	if (pd_events_adopt(&c->down_full, down) < 0) {
		pd_transform_chain_free(c);
		return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "an events table without a version");
	}
	/* Built from the consumer back, each transform in front of the one built before it. */
	for (size_t i = c->n; i-- > 0;) {
		int e = build_link(c, i, picked[i], diag, opts);
		if (e < 0) {
			pd_transform_chain_free(c);
			return e;
		}
	}
	*out = c;
	return 0;
}

const profdata_events *pd_transform_chain_events(const pd_transform_chain *c)
{
	return c->n ? c->links[0].events : c->down;
}

void *pd_transform_chain_payload(const pd_transform_chain *c)
{
	return c->n ? c->links[0].state : c->down_payload;
}

int pd_transform_chain_finish(pd_transform_chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const pd_transform_desc *d = c->links[i].desc;
		int e = d->finish ? d->finish(c->links[i].state) : 0;
		if (e != 0)
			return e;
	}
	return 0;
}

void pd_transform_chain_free(pd_transform_chain *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		if (c->links[i].desc && c->links[i].desc->free)
			c->links[i].desc->free(c->links[i].state);
		free(c->links[i].state);
	}
	free(c->links);
	free(c);
}
