/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What is generated from the one list of events and tables (event_list.h):
 * the checks that the list matches the public structs, events tables of a
 * caller's size, and the counting of events an encoder drops. The tables'
 * names, which the model's comparison uses too, are model/tables.c.
 */
#include "core/events.h"

#include <string.h>

/* Every member of profdata_events after `version` is in the list, in the struct's order. */
#define PD_EVENT_SLOT(member) (offsetof(profdata_events, begin) + PD_EVENT_INDEX_##member * sizeof(void (*)(void)))
#define PD_EVENT_CHECK(a, shape, member, ...) \
	typedef char pd_event_listed_in_order_##member[offsetof(profdata_events, member) == PD_EVENT_SLOT(member) ? 1 : -1];
PD_EVENT_LIST(PD_EVENT_CHECK, ~)
#undef PD_EVENT_CHECK
typedef char pd_event_list_complete[sizeof(profdata_events) ==
                                    offsetof(profdata_events, begin) + PD_EVENT_COUNT * sizeof(void (*)(void)) ? 1 : -1];
/* A set of events fits a uint64_t (pd_encoder_ops.drops). */
typedef char pd_event_bits_fit[PD_EVENT_COUNT <= 64 ? 1 : -1];

/* Every profdata_table is in the table list, in the enum's order. */
#define PD_TABLE_INDEX(T, name) PD_TABLE_INDEX_##T,
enum { PD_TABLE_LIST(PD_TABLE_INDEX) PD_TABLE_INDEX_COUNT };
#undef PD_TABLE_INDEX
#define PD_TABLE_CHECK(T, name) typedef char pd_table_listed_in_order_##T[(int)PROFDATA_TABLE_##T == (int)PD_TABLE_INDEX_##T ? 1 : -1];
PD_TABLE_LIST(PD_TABLE_CHECK)
#undef PD_TABLE_CHECK
typedef char pd_table_list_complete[(int)PD_TABLE_INDEX_COUNT == (int)PROFDATA_TABLE_COUNT_ ? 1 : -1];

int profdata_events_init(profdata_events *ev, size_t size)
{
	if (!ev || size < PD_EVENTS_SIZE_V1)
		return PROFDATA_EINVAL;
	memset(ev, 0, size);
	unsigned version = 1;
	while (version < PROFDATA_EVENTS_VERSION && pd_events_size(version + 1) <= size)
		version++;
	ev->version = version;
	return 0;
}

/* Takes an event's arguments to do nothing with them: the counters below need none. */
static void ignore_arguments(int none, ...) { (void)none; }

/* The handlers of dropped events: their payload is an encoder's state, which begins with its pd_dropped. */
#define PD_EVENT_BODY_drop_(payload, member, tail) \
	ignore_arguments(0 PD_EVENT_UNPAREN tail); \
	((pd_dropped *)payload)->n[PD_EVENT_INDEX_##member]++; \
	return 0;
PD_EVENT_LIST(PD_EVENT_HANDLER, drop_)
#undef PD_EVENT_BODY_drop_

void pd_events_set_drops(profdata_events *ev, uint64_t drops)
{
	static const profdata_events droppers = { PD_EVERY_EVENT(drop_) };
#define PD_EVENT_DROP(a, shape, member, ...) \
	if (drops & PD_EVENT_BIT(member)) \
		ev->member = droppers.member;
	PD_EVENT_LIST(PD_EVENT_DROP, ~)
#undef PD_EVENT_DROP
}

static const char *const event_names[] = {
#define PD_EVENT_NAME(a, shape, member, type, version, group, name) name,
	PD_EVENT_LIST(PD_EVENT_NAME, ~)
#undef PD_EVENT_NAME
};

void pd_events_report_drops(const pd_dropped *dropped, uint64_t drops, const char *format, profdata_writer *w)
{
	for (size_t i = 0; i < PD_EVENT_COUNT; i++)
		if ((drops >> i & 1) && dropped->n[i])
			pd_out_warn(w, "%s: %llu %s dropped: the format has no place for them", format,
			            (unsigned long long)dropped->n[i], event_names[i]);
}
