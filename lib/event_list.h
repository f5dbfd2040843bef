/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one list of events and of the model's tables. Everything the library
 * does per event or per table (the events table's size per version, the
 * pass-through of transforms, the model encoder's forwarders, the counting
 * of events an encoder drops, the tables' names) is generated from these two
 * lists, so adding an event is one line here (doc/design.md, "Adding an
 * event").
 *
 * PD_EVENT_LIST(X, a) calls X(a, shape, member, type, version, group, name)
 * for every member of profdata_events, in the struct's order (checked at
 * compile time in core/events.c):
 *   a       passed through untouched, for the caller's own use (a prefix)
 *   shape   how the callback is called:
 *           META    (payload, const profdata_meta *): begin
 *           STRING  (payload, id, utf8, len): string
 *           RECORD  (payload, const type *)
 *           VOID    (payload): dump_end, end
 *   version the PROFDATA_EVENTS_VERSION that added it
 *   group   PROFILE, or DUMP for the contents of a heap dump (dump_begin ..
 *           dump_end), which whole-profile writers do not take
 *   name    what a message calls a number of them ("trace contexts")
 */
#ifndef PD_EVENT_LIST_H
#define PD_EVENT_LIST_H

#define PD_EVENT_LIST(X, a) \
	X(a, META, begin, profdata_meta, 1, PROFILE, "begin events") \
	X(a, STRING, string, char, 1, PROFILE, "strings") \
	X(a, RECORD, class_load, profdata_class_load, 1, PROFILE, "class loads") \
	X(a, RECORD, class_unload, profdata_class_unload, 1, PROFILE, "class unloads") \
	X(a, RECORD, function, profdata_function, 1, PROFILE, "functions") \
	X(a, RECORD, frame, profdata_frame, 1, PROFILE, "frames") \
	X(a, RECORD, stack, profdata_stack, 1, PROFILE, "stacks") \
	X(a, RECORD, thread_start, profdata_thread_start, 1, PROFILE, "thread starts") \
	X(a, RECORD, thread_end, profdata_thread_end, 1, PROFILE, "thread ends") \
	X(a, RECORD, sample_type, profdata_sample_type, 1, PROFILE, "sample types") \
	X(a, RECORD, sample_group, profdata_sample_group, 1, PROFILE, "sample groups") \
	X(a, RECORD, sample, profdata_sample, 1, PROFILE, "samples") \
	X(a, RECORD, alloc_sites, profdata_alloc_sites, 1, PROFILE, "allocation site records") \
	X(a, RECORD, heap_summary, profdata_heap_summary, 1, PROFILE, "heap summaries") \
	X(a, RECORD, control_settings, profdata_control_settings, 1, PROFILE, "control settings") \
	X(a, RECORD, mapping, profdata_mapping, 1, PROFILE, "mappings") \
	X(a, RECORD, dump_begin, profdata_dump, 1, DUMP, "heap dumps") \
	X(a, RECORD, heap_info, profdata_heap_info, 1, DUMP, "heap infos") \
	X(a, RECORD, class_dump, profdata_class_dump, 1, DUMP, "class dumps") \
	X(a, RECORD, root, profdata_root, 1, DUMP, "GC roots") \
	X(a, RECORD, object, profdata_object, 1, DUMP, "objects") \
	X(a, VOID, dump_end, void, 1, DUMP, "heap dump ends") \
	X(a, RECORD, unknown, profdata_unknown, 1, PROFILE, "unknown records") \
	X(a, RECORD, attachment, profdata_attachment, 1, PROFILE, "attachments") \
	X(a, RECORD, trace_event, profdata_trace_event, 1, PROFILE, "trace events") \
	X(a, VOID, end, void, 1, PROFILE, "end events") \
	X(a, RECORD, trace_context, profdata_trace_context, 2, PROFILE, "trace contexts") \
	X(a, RECORD, sample_labels, profdata_sample_labels, 3, PROFILE, "sample label sets") \
	X(a, RECORD, frame_kind, profdata_frame_kind, 4, PROFILE, "frame kinds") \
	X(a, RECORD, stack_truncated, profdata_stack_truncated, 4, PROFILE, "truncated stacks") \
	X(a, RECORD, object_sample, profdata_object_sample, 5, PROFILE, "object samples")

/*
 * PD_TABLE_LIST(T) calls T(TABLE, name) for every profdata_table, in the
 * enum's order (checked in core/events.c): the names profdata_table_name()
 * gives, which the tool's JSON and the bindings use.
 */
#define PD_TABLE_LIST(T) \
	T(STRINGS, "strings") T(CLASSES, "classes") T(OBJECTS, "objects") T(ROOTS, "roots") T(DUMPS, "dumps") \
	T(HEAP_INFOS, "heap_infos") T(THREADS, "threads") T(FUNCTIONS, "functions") T(FRAMES, "frames") \
	T(STACKS, "stacks") T(SAMPLE_TYPES, "sample_types") T(SAMPLE_GROUPS, "sample_groups") \
	T(SAMPLES, "samples") T(ALLOC_SITES, "alloc_sites") T(HEAP_SUMMARIES, "heap_summaries") \
	T(CONTROL_SETTINGS, "control_settings") T(MAPPINGS, "mappings") T(TRACE_EVENTS, "trace_events") \
	T(UNKNOWN, "unknown_records") T(ATTACHMENTS, "attachments") T(UNLOADS, "class_unloads") \
	T(CLASS_LOADS, "class_loads") T(CLASS_DUMPS, "class_dumps") T(TRACE_CONTEXTS, "trace_contexts") \
	T(LABEL_SETS, "label_sets") T(FRAME_KINDS, "frame_kinds") T(TRUNCATED_STACKS, "truncated_stacks") \
	T(OBJECT_SAMPLES, "object_samples")

/*
 * PD_MODEL_PLAIN_LIST(X) calls X(member, type, vec, TABLE) for the events
 * the model keeps as they come: a struct of numbers and fixed arrays (no
 * pointers to own), in vector `vec` of the profile. From it come the
 * vector, the builder's handler, the count of PROFDATA_TABLE_<TABLE>, the
 * getter profdata_profile_<member>_sized(), the replay (in this order,
 * between the allocation sites and the attachments) and the comparison
 * through eq_<member>() in model/equal.c.
 */
#define PD_MODEL_PLAIN_LIST(X) \
	X(heap_summary, profdata_heap_summary, summaries, HEAP_SUMMARIES) \
	X(control_settings, profdata_control_settings, controls, CONTROL_SETTINGS) \
	X(mapping, profdata_mapping, mappings, MAPPINGS) \
	X(frame_kind, profdata_frame_kind, frame_kinds, FRAME_KINDS) \
	X(stack_truncated, profdata_stack_truncated, truncated_stacks, TRUNCATED_STACKS) \
	X(object_sample, profdata_object_sample, object_samples, OBJECT_SAMPLES)

/* The position of each event in profdata_events after `version`: PD_EVENT_INDEX_begin is 0. */
#define PD_EVENT_INDEX_ENUM(a, shape, member, ...) PD_EVENT_INDEX_##member,
enum { PD_EVENT_LIST(PD_EVENT_INDEX_ENUM, ~) PD_EVENT_COUNT };
#undef PD_EVENT_INDEX_ENUM

/* A set of events, as a bit per event: what an encoder drops (pd_encoder_ops.drops). */
#define PD_EVENT_BIT(member) (UINT64_C(1) << PD_EVENT_INDEX_##member)

/*
 * Initialisers of an events table whose handlers are named <p><member>
 * (on_begin, on_string, ...), for consumers and transforms that take every
 * event: `.events = { PD_EVERY_EVENT(on_) }`. PD_PROFILE_EVENTS leaves out
 * the contents of heap dumps (group DUMP).
 */
#define PD_EVENT_INIT_EVERY(p, shape, member, type, version, group, name) , .member = p##member
#define PD_EVENT_INIT_PROFILE(p, shape, member, type, version, group, name) \
	PD_EVENT_IF_##group(, .member = p##member)
#define PD_EVENT_IF_PROFILE(...) __VA_ARGS__
#define PD_EVENT_IF_DUMP(...)
#define PD_EVERY_EVENT(p) .version = PROFDATA_EVENTS_VERSION PD_EVENT_LIST(PD_EVENT_INIT_EVERY, p)
#define PD_PROFILE_EVENTS(p) .version = PROFDATA_EVENTS_VERSION PD_EVENT_LIST(PD_EVENT_INIT_PROFILE, p)

/*
 * A handler of each shape, for code that generates one per event: with
 * PD_EVENT_BODY_<p>(payload, member, tail) defined, PD_EVENT_LIST(
 * PD_EVENT_HANDLER, <p>) defines static int <p><member>(...) for every
 * event, whose body is that macro. `tail` is the event's arguments after
 * the payload in parentheses, with a leading comma ("(, arg)", "(, id,
 * utf8, len)", "()"): PD_EVENT_UNPAREN tail splices them into a call that
 * hands the same event on.
 */
#define PD_EVENT_UNPAREN(...) __VA_ARGS__
#define PD_EVENT_HANDLER_META(p, member, type) \
	static int p##member(void *payload, const profdata_meta *arg) { PD_EVENT_BODY_##p(payload, member, (, arg)) }
#define PD_EVENT_HANDLER_STRING(p, member, type) \
	static int p##member(void *payload, uint64_t id, const char *utf8, size_t len) \
	{ PD_EVENT_BODY_##p(payload, member, (, id, utf8, len)) }
#define PD_EVENT_HANDLER_RECORD(p, member, type) \
	static int p##member(void *payload, const type *arg) { PD_EVENT_BODY_##p(payload, member, (, arg)) }
#define PD_EVENT_HANDLER_VOID(p, member, type) \
	static int p##member(void *payload) { PD_EVENT_BODY_##p(payload, member, ()) }
#define PD_EVENT_HANDLER(p, shape, member, type, version, group, name) PD_EVENT_HANDLER_##shape(p, member, type)

#endif
