/* SPDX-License-Identifier: Apache-2.0 */
/* The model as events: what every encoder is driven by when writing a profile. */
#include "model/model_impl.h"

#include <stdlib.h>
#include <string.h>

#define EMIT(member, ...) \
	do { \
		if (ev->member) { \
			int r_ = ev->member(payload, __VA_ARGS__); \
			if (r_) \
				return r_ < 0 ? r_ : PROFDATA_STOPPED; \
		} \
	} while (0)
#define EMIT0(member) \
	do { \
		if (ev->member) { \
			int r_ = ev->member(payload); \
			if (r_) \
				return r_ < 0 ? r_ : PROFDATA_STOPPED; \
		} \
	} while (0)

/* Every row of a table stored as the event carries it. */
#define EMIT_STORED(member, vec) \
	do { \
		for (size_t i_ = 0; i_ < (vec).n; i_++) \
			EMIT(member, &(vec).v[i_]); \
	} while (0)
/* Every row of a table, as its getter puts it together. */
#define EMIT_VIA_GETTER(member, type, count, getter) \
	do { \
		type row_; \
		for (size_t i_ = 0; i_ < (count); i_++) { \
			getter(p, i_, &row_); \
			EMIT(member, &row_); \
		} \
	} while (0)

/*
 * Class dumps, roots, heap infos and in-dump unknown records are appended
 * while their dump is open, so each table is in dump order: one cursor per
 * table walks it across all dumps (a scan per dump would be quadratic in
 * files with thousands of dumps).
 */
typedef struct cursors {
	size_t cdump, root, heap, unknown;
} cursors;

static int replay_dump(const profdata_profile *p, uint32_t d, cursors *c, const profdata_events *ev, void *payload)
{
	const pd_dump_row *dr = &p->dumps.v[d];
	EMIT(dump_begin, &dr->d);
	profdata_class_dump cd;
	for (; c->cdump < p->cdumps.n && p->cdumps.v[c->cdump].dump == d; c->cdump++) {
		profdata_profile_class_dump_at(p, c->cdump, &cd, NULL);
		EMIT(class_dump, &cd);
	}
	for (; c->root < p->roots.n && p->roots.v[c->root].dump == d; c->root++)
		EMIT(root, &p->roots.v[c->root].r);
	/* Heap infos go where they stood among the objects. */
	profdata_object o;
	for (size_t i = dr->first_object; i < dr->first_object + dr->nobjects; i++) {
		for (; c->heap < p->heaps.n && p->heaps.v[c->heap].dump == d && p->heaps.v[c->heap].obj_pos <= i; c->heap++)
			EMIT(heap_info, &p->heaps.v[c->heap].h);
		profdata_profile_object(p, i, &o);
		EMIT(object, &o);
	}
	for (; c->heap < p->heaps.n && p->heaps.v[c->heap].dump == d; c->heap++)
		EMIT(heap_info, &p->heaps.v[c->heap].h);
	profdata_unknown u;
	for (; c->unknown < p->unknowns.n; c->unknown++) {
		const pd_blobref_row *r = &p->unknowns.v[c->unknown];
		if (r->in_dump && r->dump != d)
			break;
		if (!r->in_dump)
			continue; /* top-level: replayed before the dumps */
		profdata_profile_unknown(p, c->unknown, &u);
		EMIT(unknown, &u);
	}
	EMIT0(dump_end);
	return 0;
}

static int replay_all(const profdata_profile *p, const profdata_events *ev, void *payload)
{
	EMIT(begin, &p->meta);
	for (size_t i = 0; i < p->str_ids.n; i++)
		EMIT(string, p->str_ids.v[i], (const char *)p->str_bytes.p + p->str_off.v[i], p->str_len.v[i]);
	EMIT_STORED(function, p->functions);
	EMIT_STORED(frame, p->frames);
	EMIT_VIA_GETTER(stack, profdata_stack, p->stacks.n, profdata_profile_stack);
	for (size_t i = 0; i < p->threads.n; i++)
		if (p->threads.v[i].has_start)
			EMIT(thread_start, &p->threads.v[i].start);
	EMIT_STORED(class_load, p->loads);
	EMIT_STORED(sample_type, p->sample_types);
	profdata_sample s;
	for (size_t g = 0; g < p->groups.n; g++) {
		EMIT(sample_group, &p->groups.v[g].g);
		for (size_t i = p->groups.v[g].first; i < p->groups.v[g].first + p->groups.v[g].count; i++) {
			int r = pd_model_replay_labels(p, i, ev, payload);
			if (r)
				return r;
			profdata_profile_sample(p, i, &s);
			EMIT(sample, &s);
		}
	}
	EMIT_VIA_GETTER(alloc_sites, profdata_alloc_sites, p->sites.n, profdata_profile_alloc_sites);
#define REPLAY_PLAIN(member, type, vec, table) EMIT_STORED(member, p->vec);
	PD_MODEL_PLAIN_LIST(REPLAY_PLAIN)
#undef REPLAY_PLAIN
	EMIT_VIA_GETTER(attachment, profdata_attachment, p->attachments.n, profdata_profile_attachment);
	profdata_unknown u;
	for (size_t i = 0; i < p->unknowns.n; i++) {
		if (p->unknowns.v[i].in_dump)
			continue;
		profdata_profile_unknown(p, i, &u);
		EMIT(unknown, &u);
	}
	cursors c = { 0, 0, 0, 0 };
	for (uint32_t d = 0; d < p->dumps.n; d++) {
		int r = replay_dump(p, d, &c, ev, payload);
		if (r)
			return r;
	}
	EMIT_STORED(class_unload, p->unloads);
	for (size_t i = 0; i < p->threads.n; i++)
		if (p->threads.v[i].has_end)
			EMIT(thread_end, &p->threads.v[i].end);
	profdata_trace_event t;
	size_t next_context = 0;
	for (size_t i = 0; i < p->traces.n; i++) {
		int r = pd_model_replay_contexts(p, &next_context, i, ev, payload);
		if (r)
			return r;
		profdata_profile_trace_event(p, i, &t);
		EMIT(trace_event, &t);
	}
	int rc = pd_model_replay_contexts(p, &next_context, UINT64_MAX, ev, payload);
	if (rc)
		return rc;
	EMIT0(end);
	return 0;
}

/* The caller's table may be of an older version: replay calls only what it declares. */
int profdata_profile_replay(const profdata_profile *p, const profdata_events *ev, void *payload)
{
	profdata_events full;
	if (pd_events_adopt(&full, ev) < 0)
		return PROFDATA_EINVAL;
	return replay_all(p, &full, payload);
}
