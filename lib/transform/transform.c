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
	void *down_payload;
};

/* The pass-through events: their payload is a transform's state, which begins with its pd_transform_base. */
#define PASS(member, type) \
	static int pass_##member(void *payload, const type *x) \
	{ \
		pd_transform_base *base = payload; \
		return base->down->member ? base->down->member(base->down_payload, x) : 0; \
	}
PASS(begin, profdata_meta)
PD_EACH_RECORD_EVENT(PASS)
PASS(dump_begin, profdata_dump)
PASS(heap_info, profdata_heap_info)
PASS(class_dump, profdata_class_dump)
PASS(root, profdata_root)
PASS(object, profdata_object)
#undef PASS

static int pass_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	pd_transform_base *base = payload;
	return base->down->string ? base->down->string(base->down_payload, id, utf8, len) : 0;
}

static int pass_dump_end(void *payload)
{
	pd_transform_base *base = payload;
	return base->down->dump_end ? base->down->dump_end(base->down_payload) : 0;
}

static int pass_end(void *payload)
{
	pd_transform_base *base = payload;
	return base->down->end ? base->down->end(base->down_payload) : 0;
}

static void base_init(pd_transform_base *base, const profdata_events *own, const profdata_events *down,
                      void *down_payload)
{
	static const profdata_events pass_all = { PD_EVERY_EVENT(pass_) };
	base->down = down;
	base->down_payload = down_payload;
	base->events = pass_all;
#define OWN(member, type) \
	if (own->member) \
		base->events.member = own->member;
	OWN(begin, profdata_meta)
	OWN(string, char)
	PD_EACH_RECORD_EVENT(OWN)
	OWN(dump_begin, profdata_dump)
	OWN(heap_info, profdata_heap_info)
	OWN(class_dump, profdata_class_dump)
	OWN(root, profdata_root)
	OWN(object, profdata_object)
	OWN(dump_end, void)
	OWN(end, void)
#undef OWN
}

static size_t count_descs(const pd_transform_desc *const *descs)
{
	size_t n = 0;
	while (descs && descs[n])
		n++;
	return n;
}

int pd_transform_chain_new(pd_transform_chain **out, const pd_transform_desc *const *descs,
                           const profdata_events *down, void *down_payload, pd_diag *diag, const pd_options *opts)
{
	size_t n = count_descs(descs);
	pd_transform_chain *c = calloc(1, sizeof(*c));
	*out = NULL;
	if (!c || (n && !(c->links = calloc(n, sizeof(*c->links))))) {
		free(c);
		return PROFDATA_ENOMEM;
	}
	c->n = n;
	c->down = down;
	c->down_payload = down_payload;
	/* Built from the consumer back, each transform in front of the one built before it. */
	for (size_t i = n; i-- > 0;) {
		const profdata_events *next = i + 1 < n ? c->links[i + 1].events : down;
		void *next_payload = i + 1 < n ? c->links[i + 1].state : down_payload;
		chain_link *l = &c->links[i];
		pd_transform_base *base = calloc(1, descs[i]->state_size);
		if (!base) {
			pd_transform_chain_free(c);
			return pd_diag_error(diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "%s: out of memory", descs[i]->name);
		}
		base_init(base, descs[i]->events, next, next_payload);
		base->diag = diag;
		l->desc = descs[i];
		l->state = base;
		l->events = &base->events;
		int e = descs[i]->init ? descs[i]->init(base, diag, opts) : 0;
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
