/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The inputs of a differential flame graph (profdata_merge_add_side()):
 * NEW and BASE added to one merge as two sets of columns, so that each
 * stack has both values. NEW keeps its sample types and gives its values
 * there (and 0 in the others); BASE gives its values under the same types
 * renamed "base TYPE". The merge then sums stacks as it always does, and
 * the flame graph writer draws value 0 with base=N (the first of BASE's).
 * A transform between the profile's replay and the merge's events.
 */
#include "analysis/merge_impl.h"

#include <stdio.h>
#include <string.h>

#define MAX_TYPES 128

typedef struct side {
	const profdata_profile *p;  /* the profile replayed */
	profdata_merge *m;
	const profdata_events *down; /* profdata_merge_events() */
	int is_base;
	uint64_t next_string;        /* above every string id of p: the "base TYPE" names' ids */
	profdata_sample_type types[MAX_TYPES];
	size_t ntypes;
	int types_sent;
	const char *refused;         /* why a sample type was refused, or NULL */
	int64_t values[2 * MAX_TYPES];
} side;

/* Events the merge takes as they come. */
#define FORWARD(member, type) \
	static int fwd_##member(void *payload, const type *x) \
	{ \
		side *s = payload; \
		return s->down->member ? s->down->member(s->m, x) : 0; \
	}
FORWARD(begin, profdata_meta)
FORWARD(class_load, profdata_class_load)
FORWARD(function, profdata_function)
FORWARD(frame, profdata_frame)
FORWARD(stack, profdata_stack)
FORWARD(thread_start, profdata_thread_start)
FORWARD(sample_group, profdata_sample_group)
FORWARD(mapping, profdata_mapping)
FORWARD(sample_labels, profdata_sample_labels)
FORWARD(frame_kind, profdata_frame_kind)
FORWARD(stack_truncated, profdata_stack_truncated)
#undef FORWARD

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	side *s = payload;
	if (id >= s->next_string)
		s->next_string = id + 1;
	return s->down->string(s->m, id, utf8, len);
}

static int on_sample_type(void *payload, const profdata_sample_type *t)
{
	side *s = payload;
	if (s->types_sent)
		s->refused = "a sample type after the first sample";
	else if (s->ntypes == MAX_TYPES)
		s->refused = "a differential flame graph takes at most 128 sample types";
	if (s->refused)
		return PROFDATA_EINVAL;
	s->types[s->ntypes++] = *t;
	return 0;
}

/* The types twice, the second time named "base TYPE": once, before the first sample. */
static int send_types(side *s)
{
	int rc = 0;
	if (s->types_sent)
		return 0;
	s->types_sent = 1;
	for (size_t i = 0; i < s->ntypes && rc == 0; i++)
		rc = s->down->sample_type(s->m, &s->types[i]);
	for (size_t i = 0; i < s->ntypes && rc == 0; i++) {
		size_t len;
		const char *name = profdata_profile_string(s->p, s->types[i].type_id, &len);
		char text[256];
		int n = snprintf(text, sizeof text, "base %.*s", name ? (int)len : 0, name ? name : "");
		profdata_sample_type t = { s->next_string, s->types[i].unit_id };
		rc = s->down->string(s->m, s->next_string++, text, n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
		if (rc == 0)
			rc = s->down->sample_type(s->m, &t);
	}
	return rc;
}

static int on_sample(void *payload, const profdata_sample *smp)
{
	side *s = payload;
	int rc = send_types(s);
	size_t n = s->ntypes;
	if (rc)
		return rc;
	memset(s->values, 0, 2 * n * sizeof *s->values);
	for (size_t i = 0; i < n && i < smp->nvalues; i++)
		s->values[s->is_base ? n + i : i] = smp->values[i];
	profdata_sample wide = *smp;
	wide.values = s->values;
	wide.nvalues = 2 * n;
	return s->down->sample(s->m, &wide);
}

static int on_end(void *payload)
{
	side *s = payload;
	int rc = send_types(s);
	return rc ? rc : s->down->end(s->m);
}

int profdata_merge_add_side(profdata_merge *m, const profdata_profile *p, int is_base)
{
	static const profdata_events side_events = {
		.version = PROFDATA_EVENTS_VERSION, .begin = fwd_begin, .string = on_string,
		.class_load = fwd_class_load, .function = fwd_function, .frame = fwd_frame, .stack = fwd_stack,
		.thread_start = fwd_thread_start, .sample_type = on_sample_type, .sample_group = fwd_sample_group,
		.sample = on_sample, .mapping = fwd_mapping, .end = on_end, .sample_labels = fwd_sample_labels,
		.frame_kind = fwd_frame_kind, .stack_truncated = fwd_stack_truncated,
	};
	side s;
	memset(&s, 0, sizeof s);
	s.p = p;
	s.m = m;
	s.down = profdata_merge_events();
	s.is_base = is_base != 0;
	int rc = pd_merge_replay(m, p, &side_events, &s);
	return pd_merge_failed(m, rc, s.refused);
}
