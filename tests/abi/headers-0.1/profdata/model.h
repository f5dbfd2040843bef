/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: the shared in-memory model.
 *
 * A profdata_profile holds everything any supported format can say: strings,
 * classes, objects, roots, heap dumps, threads, functions, frames, stacks,
 * samples, allocation sites, mappings, trace events and the records nobody
 * understood. Every codec reads into it and writes from it.
 *
 * Tables are addressed by a 0-based index and keep each format's own ids
 * (HPROF identifiers and serial numbers, classic-dump addresses), so a round
 * trip loses nothing; profdata_profile_find_*() maps ids to indexes.
 * A row is read by filling the same struct its event carries (events.h);
 * pointers inside it are borrowed from the profile and stay valid until the
 * profile is freed or changed.
 *
 * Storage is struct-of-arrays with nothing allocated per object; object
 * payloads may point into the memory-mapped input, which the profile then
 * keeps mapped. doc/design.md gives the bytes per object.
 *
 * Building: a profile is built only through events. profdata_profile_builder()
 * returns the callbacks that append to it; profdata_read() drives a decoder
 * into them, tests and generators call them directly.
 *
 * A profile may be read from several threads at once when nobody changes it.
 */
#ifndef PROFDATA_MODEL_H
#define PROFDATA_MODEL_H

#include <profdata/common.h>
#include <profdata/events.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct profdata_profile profdata_profile;

/* A new, empty profile. *out is the caller's; free with profdata_profile_free(). */
PROFDATA_API int profdata_profile_new(profdata_profile **out);

/* Free a profile and everything borrowed from it. NULL is a no-op. */
PROFDATA_API void profdata_profile_free(profdata_profile *p);

/*
 * The events that append to `p`. Fills *events (a table owned by the caller,
 * typically on its stack); pass `p` itself as the payload. Events out of
 * order (an object outside a dump, a second begin, anything after end) stop
 * the builder with PROFDATA_EINVAL and an error kept on the profile
 * (profdata_profile_error()). A repeated id (string, function, frame, stack,
 * object, class serial) keeps the first definition, as HPROF readers do, and
 * leaves a warning. Accessors are valid once the `end` event has been given.
 */
PROFDATA_API void profdata_profile_builder(profdata_events *events);

/*
 * Replay `p` as events to `events` with `payload`, in an order any encoder
 * accepts: begin, strings, functions, frames, stacks, threads, class loads,
 * sample types, groups and samples, alloc sites, heap summaries, control
 * settings, mappings, attachments, unknown top-level records, then each dump
 * (its heap infos, class dumps, roots and objects), trace events, end.
 * Returns 0, PROFDATA_STOPPED, or the first callback's error.
 */
PROFDATA_API int profdata_profile_replay(const profdata_profile *p, const profdata_events *events,
                                         void *payload);

/*
 * 1 when `a` and `b` hold the same data, else 0; `why` (may be NULL)
 * receives a description of the first difference. Warnings and the
 * source-format name in meta are not compared.
 */
PROFDATA_API int profdata_profile_equal(const profdata_profile *a, const profdata_profile *b,
                                        char *why, size_t why_len);

/* The builder's last error, or NULL. Borrowed. */
PROFDATA_API const profdata_error *profdata_profile_error(const profdata_profile *p);

/* Metadata; pointers borrowed. */
PROFDATA_API const profdata_meta *profdata_profile_meta(const profdata_profile *p);

/* Table sizes. */
typedef enum profdata_table {
	PROFDATA_TABLE_STRINGS,
	PROFDATA_TABLE_CLASSES,
	PROFDATA_TABLE_OBJECTS,
	PROFDATA_TABLE_ROOTS,
	PROFDATA_TABLE_DUMPS,
	PROFDATA_TABLE_HEAP_INFOS,
	PROFDATA_TABLE_THREADS,
	PROFDATA_TABLE_FUNCTIONS,
	PROFDATA_TABLE_FRAMES,
	PROFDATA_TABLE_STACKS,
	PROFDATA_TABLE_SAMPLE_TYPES,
	PROFDATA_TABLE_SAMPLE_GROUPS,
	PROFDATA_TABLE_SAMPLES,
	PROFDATA_TABLE_ALLOC_SITES,
	PROFDATA_TABLE_HEAP_SUMMARIES,
	PROFDATA_TABLE_CONTROL_SETTINGS,
	PROFDATA_TABLE_MAPPINGS,
	PROFDATA_TABLE_TRACE_EVENTS,
	PROFDATA_TABLE_UNKNOWN,
	PROFDATA_TABLE_ATTACHMENTS,
	PROFDATA_TABLE_UNLOADS,
	PROFDATA_TABLE_CLASS_LOADS,
	PROFDATA_TABLE_CLASS_DUMPS,
	PROFDATA_TABLE_COUNT_
} profdata_table;

PROFDATA_API size_t profdata_profile_count(const profdata_profile *p, profdata_table table);

/* Total references held by objects (non-null, explicit or derived from payloads). */
PROFDATA_API uint64_t profdata_profile_reference_count(const profdata_profile *p);

/* ---- strings ---- */

/* The string with HPROF-style id `id`, or NULL; *len gets its byte length (may be NULL). */
PROFDATA_API const char *profdata_profile_string(const profdata_profile *p, uint64_t id, size_t *len);

/* The i-th string in input order: its id, bytes and length. */
PROFDATA_API int profdata_profile_string_at(const profdata_profile *p, size_t i, uint64_t *id,
                                            const char **utf8, size_t *len);

/* ---- classes ---- */

/* A class: what its load record and its dump said. */
typedef struct profdata_class_info {
	profdata_class_load load;   /* its first load record; zero when it had none */
	profdata_class_dump dump;   /* its first class dump; zero when it had none */
	int has_load, has_dump;
	int unloaded;               /* an UNLOAD CLASS named its serial */
	uint32_t dump_index;        /* which dump held its class dump */
	const char *name;           /* resolved name (internal form), or NULL */
} profdata_class_info;

PROFDATA_API int profdata_profile_class(const profdata_profile *p, size_t i, profdata_class_info *out);
PROFDATA_API int profdata_profile_find_class(const profdata_profile *p, uint64_t id, size_t *index);
PROFDATA_API int profdata_profile_find_class_serial(const profdata_profile *p, uint32_t serial,
                                                    size_t *index);

/*
 * The class's instance fields in payload order: its own, then its
 * superclass's, up to the root. Writes up to `cap` into out (may be NULL
 * with cap 0) and returns how many there are, or a negative error when the
 * superclass chain is broken or cyclic.
 */
PROFDATA_API long profdata_profile_class_layout(const profdata_profile *p, size_t class_index,
                                                profdata_field *out, size_t cap);

/* ---- objects ---- */

PROFDATA_API int profdata_profile_object(const profdata_profile *p, size_t i, profdata_object *out);
PROFDATA_API int profdata_profile_find_object(const profdata_profile *p, uint64_t id, size_t *index);

/* Dump index (0-based) and heap index (into heap infos; SIZE_MAX none) of object i. */
PROFDATA_API int profdata_profile_object_place(const profdata_profile *p, size_t i, uint32_t *dump,
                                               size_t *heap_info);

/*
 * The references of object i in payload order: the explicit list, or the
 * ids decoded from its payload through the class layout (instances) or its
 * elements (object arrays). With include_null 0, null references are left
 * out. Writes up to `cap` ids to out and returns the total count, or a
 * negative error (a broken class layout).
 */
PROFDATA_API long profdata_profile_object_refs(const profdata_profile *p, size_t i, int include_null,
                                               uint64_t *out, size_t cap);

/*
 * Shallow size of object i the way VisualVM's heap library counts it (see
 * doc/formats.md): the stated size when the format gives one.
 */
PROFDATA_API uint64_t profdata_profile_object_size(const profdata_profile *p, size_t i);

/* ---- the other tables ---- */

PROFDATA_API int profdata_profile_root(const profdata_profile *p, size_t i, profdata_root *out,
                                       uint32_t *dump);
PROFDATA_API int profdata_profile_dump(const profdata_profile *p, size_t i, profdata_dump *out);
PROFDATA_API int profdata_profile_heap_info(const profdata_profile *p, size_t i, profdata_heap_info *out);

typedef struct profdata_thread_info {
	profdata_thread_start start;
	int has_start;
	profdata_thread_end end;
	int has_end;
} profdata_thread_info;

PROFDATA_API int profdata_profile_thread(const profdata_profile *p, size_t i, profdata_thread_info *out);
PROFDATA_API int profdata_profile_find_thread(const profdata_profile *p, uint32_t serial, size_t *index);

PROFDATA_API int profdata_profile_function(const profdata_profile *p, size_t i, profdata_function *out);
PROFDATA_API int profdata_profile_find_function(const profdata_profile *p, uint64_t id, size_t *index);
PROFDATA_API int profdata_profile_frame(const profdata_profile *p, size_t i, profdata_frame *out);
PROFDATA_API int profdata_profile_find_frame(const profdata_profile *p, uint64_t id, size_t *index);
PROFDATA_API int profdata_profile_stack(const profdata_profile *p, size_t i, profdata_stack *out);
PROFDATA_API int profdata_profile_find_stack(const profdata_profile *p, uint32_t serial, size_t *index);

PROFDATA_API int profdata_profile_sample_type(const profdata_profile *p, size_t i, profdata_sample_type *out);
/* Group i, and the index range [*first, *first + *count) of its samples. */
PROFDATA_API int profdata_profile_sample_group(const profdata_profile *p, size_t i,
                                               profdata_sample_group *out, size_t *first, size_t *count);
PROFDATA_API int profdata_profile_sample(const profdata_profile *p, size_t i, profdata_sample *out);

PROFDATA_API int profdata_profile_alloc_sites(const profdata_profile *p, size_t i, profdata_alloc_sites *out);
PROFDATA_API int profdata_profile_heap_summary(const profdata_profile *p, size_t i, profdata_heap_summary *out);
PROFDATA_API int profdata_profile_control_settings(const profdata_profile *p, size_t i,
                                                   profdata_control_settings *out);
PROFDATA_API int profdata_profile_mapping(const profdata_profile *p, size_t i, profdata_mapping *out);
PROFDATA_API int profdata_profile_trace_event(const profdata_profile *p, size_t i, profdata_trace_event *out);
PROFDATA_API int profdata_profile_unknown(const profdata_profile *p, size_t i, profdata_unknown *out);
PROFDATA_API int profdata_profile_attachment(const profdata_profile *p, size_t i, profdata_attachment *out);
/* The first attachment called `name` into *out; PROFDATA_ENOTFOUND when there is none. */
PROFDATA_API int profdata_profile_find_attachment(const profdata_profile *p, const char *name,
                                                  profdata_attachment *out);
/*
 * The i-th class dump record in input order, and the dump that held it: a
 * class may be dumped in each of several dumps (profdata_profile_class()
 * describes its first).
 */
PROFDATA_API int profdata_profile_class_dump_at(const profdata_profile *p, size_t i, profdata_class_dump *out,
                                                uint32_t *dump);
/* The i-th class load record, in input order (a class may be loaded more than once). */
PROFDATA_API int profdata_profile_class_load(const profdata_profile *p, size_t i, profdata_class_load *out);
PROFDATA_API int profdata_profile_unload(const profdata_profile *p, size_t i, profdata_class_unload *out);

/* ---- names ---- */

/*
 * Write the Java source form of internal class name `name` ("java/lang/String"
 * -> "java.lang.String", "[I" -> "int[]", "[[Ljava/lang/Object;" ->
 * "java.lang.Object[][]") into buf (NUL-terminated, truncated to buf_len).
 * Returns the length of the full result. Names already in source form are
 * copied.
 */
PROFDATA_API size_t profdata_java_name(const char *name, size_t name_len, char *buf, size_t buf_len);

/*
 * The reverse: source form ("int[]", "java.lang.String", "char[][]") to
 * internal form ("[I", "java/lang/String", "[[C"). Internal names are copied
 * unchanged. Returns the length of the full result.
 */
PROFDATA_API size_t profdata_internal_name(const char *name, size_t name_len, char *buf, size_t buf_len);

#ifdef __cplusplus
}
#endif

#endif
