/* SPDX-License-Identifier: Apache-2.0 */
/* The core's side of the event list (events.c): counting what encoders drop. */
#ifndef PD_CORE_EVENTS_H
#define PD_CORE_EVENTS_H

#include "internal.h"

/* Point the members of `drops` (PD_EVENT_BIT()s) at handlers that count into the payload's pd_dropped. */
void pd_events_set_drops(profdata_events *ev, uint64_t drops);
/* One warning on `w` per kind of event of `drops` that was dropped: "FORMAT: N mappings dropped: ...". */
void pd_events_report_drops(const pd_dropped *dropped, uint64_t drops, const char *format, profdata_writer *w);

#endif
