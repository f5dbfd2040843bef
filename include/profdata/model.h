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
 * profile is freed or changed. The row getters below are macros that pass
 * sizeof(*out) to a profdata_profile_<row>_sized() function: the library
 * writes no more than the caller's struct holds and zeroes what it holds
 * beyond the library's, so row structs can grow at their end without
 * breaking programs built against older headers (doc/api-policy.md).
 * Bindings that cannot expand macros call the _sized functions with the
 * size of their struct.
 *
 * Return values: a row getter returns 0, or PROFDATA_ENOTFOUND when the index
 * is not below profdata_profile_count() of its table (*out is then left
 * alone). A profdata_profile_find_*() returns 0 and the row's index in
 * *index, or PROFDATA_ENOTFOUND when no row has that id (*index unchanged).
 * Getters that return a pointer (profdata_profile_string()) return NULL for
 * an unknown id.
 *
 * Names: class names are kept as the input spells them, which for JVM
 * formats is the internal form ("java/lang/String", "[I",
 * "[Ljava/lang/Object;"); profdata_java_name() turns them into the source
 * form ("java.lang.String", "int[]") that histograms and tools show. An
 * HPROF primitive array has no class object: its class_id is 0 and its
 * elem_type (profdata_basic_type) names it: "[" plus the type's letter
 * (Z C F D B S I J) is its internal name, e.g. "[I" for PROFDATA_TYPE_INT.
 *
 * Mapped inputs: a profile read from a memory-mapped file (any regular file
 * given to profdata_reader_open_path()) may point into that mapping, so the
 * file should not be truncated or rewritten while the profile is in use; see
 * include/profdata/io.h for how a truncation is caught and what is not.
 *
 * Storage is struct-of-arrays with nothing allocated per object; object
 * payloads may point into the memory-mapped input, which the profile then
 * keeps mapped. doc/design.md gives the bytes per object.
 *
 * Building: a profile is built only through events.
 * profdata_profile_builder_events() returns the callbacks that append to it; profdata_read() drives a decoder
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
 * The events that append to a profile: a table the library owns (static,
 * never freed); pass the profile itself as the payload. Events out of order
 * (an object outside a dump, a second begin, anything after end) stop the
 * builder with PROFDATA_EINVAL and an error kept on the profile
 * (profdata_profile_error()). A repeated id (string, function, frame, stack,
 * object, class serial) keeps the first definition, as HPROF readers do, and
 * leaves a warning. Accessors are valid once the `end` event has been given.
 */
PROFDATA_API const profdata_events *profdata_profile_builder_events(void);

/*
 * The 0.1 way to get the same callbacks: copies them into the caller's
 * table, writing the members of version 1 only (never more, whatever the
 * library's table has grown to). New code calls
 * profdata_profile_builder_events().
 */
PROFDATA_API void profdata_profile_builder(profdata_events *events);

/*
 * Replay `p` as events to `events` with `payload` (members beyond the
 * table's version are not called), in an order any encoder
 * accepts: begin, strings, functions, frames, stacks, threads, class loads,
 * sample types, groups and samples, alloc sites, heap summaries, control
 * settings, mappings, attachments, unknown top-level records, then each dump
 * (its heap infos, class dumps, roots and objects), trace events, end.
 * Returns 0, PROFDATA_STOPPED (a callback returned a positive value), or the
 * first negative value a callback returned.
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
	PROFDATA_TABLE_TRACE_CONTEXTS, /* 0.2 */
	PROFDATA_TABLE_LABEL_SETS,     /* 0.3: distinct label sets of samples */
	PROFDATA_TABLE_FRAME_KINDS,    /* 0.3, events version 4: frames of a known kind */
	PROFDATA_TABLE_TRUNCATED_STACKS, /* 0.3, events version 4: stacks cut short */
	PROFDATA_TABLE_OBJECT_SAMPLES, /* 0.3, events version 5: objects the source sampled while they lived */
	PROFDATA_TABLE_COUNT_
} profdata_table;

PROFDATA_API size_t profdata_profile_count(const profdata_profile *p, profdata_table table);

/*
 * (0.3) A table's name, the one the tool's JSON and the bindings use:
 * "objects", "trace_contexts", ... (snake case). A static string; NULL for
 * a value out of range. Threads: any.
 */
PROFDATA_API const char *profdata_table_name(profdata_table table);
/*
 * (0.3) The table called `name`: 0 and *out; PROFDATA_ENOTFOUND (*out
 * unchanged) for NULL or any other text. Threads: any.
 */
PROFDATA_API int profdata_table_from_name(profdata_table *out, const char *name);

/*
 * Total references held by objects (non-null, explicit or derived from
 * payloads). Computed on each call, not kept: it reads every object's
 * payload (about a second for a 2 GB dump). On a mapped input of 128 MiB or
 * more the call runs a helper thread that reads payloads in ahead of it; the
 * thread is joined before the call returns.
 */
PROFDATA_API uint64_t profdata_profile_reference_count(const profdata_profile *p);

/* ---- strings ---- */

/* The string with HPROF-style id `id`, or NULL; *len gets its byte length (may be NULL). */
PROFDATA_API const char *profdata_profile_string(const profdata_profile *p, uint64_t id, size_t *len);

/* The i-th string in input order: its id, bytes and length. */
PROFDATA_API int profdata_profile_string_at(const profdata_profile *p, size_t i, uint64_t *id,
                                            const char **utf8, size_t *len);

/* ---- classes ---- */

/*
 * A class: what its load record and its dump said. This struct may grow at
 * its end; the event structs it embeds never grow (doc/api-policy.md).
 */
typedef struct profdata_class_info {
	profdata_class_load load;   /* its first load record; zero when it had none */
	profdata_class_dump dump;   /* its first class dump; zero when it had none */
	int has_load, has_dump;
	int unloaded;               /* an UNLOAD CLASS named its serial */
	uint32_t dump_index;        /* which dump held its class dump */
	const char *name;           /* resolved name, internal form ("java/lang/String"), or NULL */
} profdata_class_info;

PROFDATA_API int profdata_profile_class_sized(const profdata_profile *p, size_t i, profdata_class_info *out,
                                              size_t out_size);
#define profdata_profile_class(p, i, out) \
	profdata_profile_class_sized((p), (i), (out), sizeof(*(out)))
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

PROFDATA_API int profdata_profile_object_sized(const profdata_profile *p, size_t i, profdata_object *out,
                                               size_t out_size);
#define profdata_profile_object(p, i, out) \
	profdata_profile_object_sized((p), (i), (out), sizeof(*(out)))
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

PROFDATA_API int profdata_profile_root_sized(const profdata_profile *p, size_t i, profdata_root *out,
                                             size_t out_size, uint32_t *dump);
#define profdata_profile_root(p, i, out, dump) \
	profdata_profile_root_sized((p), (i), (out), sizeof(*(out)), (dump))
PROFDATA_API int profdata_profile_dump_sized(const profdata_profile *p, size_t i, profdata_dump *out,
                                             size_t out_size);
#define profdata_profile_dump(p, i, out) \
	profdata_profile_dump_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_heap_info_sized(const profdata_profile *p, size_t i,
                                                  profdata_heap_info *out, size_t out_size);
#define profdata_profile_heap_info(p, i, out) \
	profdata_profile_heap_info_sized((p), (i), (out), sizeof(*(out)))

/* A thread's start and end; may grow at its end, its embedded event structs never do. */
typedef struct profdata_thread_info {
	profdata_thread_start start;
	int has_start;
	profdata_thread_end end;
	int has_end;
} profdata_thread_info;

PROFDATA_API int profdata_profile_thread_sized(const profdata_profile *p, size_t i,
                                               profdata_thread_info *out, size_t out_size);
#define profdata_profile_thread(p, i, out) \
	profdata_profile_thread_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_find_thread(const profdata_profile *p, uint32_t serial, size_t *index);

PROFDATA_API int profdata_profile_function_sized(const profdata_profile *p, size_t i, profdata_function *out,
                                                 size_t out_size);
#define profdata_profile_function(p, i, out) \
	profdata_profile_function_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_find_function(const profdata_profile *p, uint64_t id, size_t *index);
PROFDATA_API int profdata_profile_frame_sized(const profdata_profile *p, size_t i, profdata_frame *out,
                                              size_t out_size);
#define profdata_profile_frame(p, i, out) \
	profdata_profile_frame_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_find_frame(const profdata_profile *p, uint64_t id, size_t *index);
PROFDATA_API int profdata_profile_stack_sized(const profdata_profile *p, size_t i, profdata_stack *out,
                                              size_t out_size);
#define profdata_profile_stack(p, i, out) \
	profdata_profile_stack_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_find_stack(const profdata_profile *p, uint32_t serial, size_t *index);

PROFDATA_API int profdata_profile_sample_type_sized(const profdata_profile *p, size_t i,
                                                    profdata_sample_type *out, size_t out_size);
#define profdata_profile_sample_type(p, i, out) \
	profdata_profile_sample_type_sized((p), (i), (out), sizeof(*(out)))
/* Group i, and the index range [*first, *first + *count) of its samples. */
PROFDATA_API int profdata_profile_sample_group_sized(const profdata_profile *p, size_t i,
                                                     profdata_sample_group *out, size_t out_size,
                                                     size_t *first, size_t *count);
#define profdata_profile_sample_group(p, i, out, first, count) \
	profdata_profile_sample_group_sized((p), (i), (out), sizeof(*(out)), (first), (count))
PROFDATA_API int profdata_profile_sample_sized(const profdata_profile *p, size_t i, profdata_sample *out,
                                               size_t out_size);
#define profdata_profile_sample(p, i, out) \
	profdata_profile_sample_sized((p), (i), (out), sizeof(*(out)))

PROFDATA_API int profdata_profile_alloc_sites_sized(const profdata_profile *p, size_t i,
                                                    profdata_alloc_sites *out, size_t out_size);
#define profdata_profile_alloc_sites(p, i, out) \
	profdata_profile_alloc_sites_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_heap_summary_sized(const profdata_profile *p, size_t i,
                                                     profdata_heap_summary *out, size_t out_size);
#define profdata_profile_heap_summary(p, i, out) \
	profdata_profile_heap_summary_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_control_settings_sized(const profdata_profile *p, size_t i,
                                                         profdata_control_settings *out, size_t out_size);
#define profdata_profile_control_settings(p, i, out) \
	profdata_profile_control_settings_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_mapping_sized(const profdata_profile *p, size_t i, profdata_mapping *out,
                                                size_t out_size);
#define profdata_profile_mapping(p, i, out) \
	profdata_profile_mapping_sized((p), (i), (out), sizeof(*(out)))
/*
 * (0.3) Frames' kinds and truncated stacks, in the source's order; a frame
 * not listed is of PROFDATA_FRAME_KIND_UNKNOWN, a stack not listed whole.
 */
PROFDATA_API int profdata_profile_frame_kind_sized(const profdata_profile *p, size_t i, profdata_frame_kind *out,
                                                   size_t out_size);
#define profdata_profile_frame_kind(p, i, out) \
	profdata_profile_frame_kind_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_stack_truncated_sized(const profdata_profile *p, size_t i,
                                                        profdata_stack_truncated *out, size_t out_size);
#define profdata_profile_stack_truncated(p, i, out) \
	profdata_profile_stack_truncated_sized((p), (i), (out), sizeof(*(out)))
/* (0.3) Object samples (JFR's old objects: allocation time, age, root), in the source's order. */
PROFDATA_API int profdata_profile_object_sample_sized(const profdata_profile *p, size_t i,
                                                      profdata_object_sample *out, size_t out_size);
#define profdata_profile_object_sample(p, i, out) \
	profdata_profile_object_sample_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_trace_event_sized(const profdata_profile *p, size_t i,
                                                    profdata_trace_event *out, size_t out_size);
#define profdata_profile_trace_event(p, i, out) \
	profdata_profile_trace_event_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_unknown_sized(const profdata_profile *p, size_t i, profdata_unknown *out,
                                                size_t out_size);
#define profdata_profile_unknown(p, i, out) \
	profdata_profile_unknown_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_attachment_sized(const profdata_profile *p, size_t i,
                                                   profdata_attachment *out, size_t out_size);
#define profdata_profile_attachment(p, i, out) \
	profdata_profile_attachment_sized((p), (i), (out), sizeof(*(out)))
/* The first attachment called `name` into *out; PROFDATA_ENOTFOUND when there is none. */
PROFDATA_API int profdata_profile_find_attachment_sized(const profdata_profile *p, const char *name,
                                                        profdata_attachment *out, size_t out_size);
#define profdata_profile_find_attachment(p, name, out) \
	profdata_profile_find_attachment_sized((p), (name), (out), sizeof(*(out)))
/*
 * The i-th class dump record in input order, and the dump that held it: a
 * class may be dumped in each of several dumps (profdata_profile_class()
 * describes its first).
 */
PROFDATA_API int profdata_profile_class_dump_at_sized(const profdata_profile *p, size_t i,
                                                      profdata_class_dump *out, size_t out_size, uint32_t *dump);
#define profdata_profile_class_dump_at(p, i, out, dump) \
	profdata_profile_class_dump_at_sized((p), (i), (out), sizeof(*(out)), (dump))
/* The i-th class load record, in input order (a class may be loaded more than once). */
PROFDATA_API int profdata_profile_class_load_sized(const profdata_profile *p, size_t i,
                                                   profdata_class_load *out, size_t out_size);
#define profdata_profile_class_load(p, i, out) \
	profdata_profile_class_load_sized((p), (i), (out), sizeof(*(out)))
PROFDATA_API int profdata_profile_unload_sized(const profdata_profile *p, size_t i,
                                               profdata_class_unload *out, size_t out_size);
#define profdata_profile_unload(p, i, out) \
	profdata_profile_unload_sized((p), (i), (out), sizeof(*(out)))

/*
 * (0.2) The i-th trace context row (node, process, agent, trace start and
 * end, option, filter, the start of each trace) in input order; the number
 * of traces is the number of PROFDATA_TRACE_CONTEXT_BEGIN rows.
 */
PROFDATA_API int profdata_profile_trace_context_sized(const profdata_profile *p, size_t i,
                                                      profdata_trace_context *out, size_t out_size);
#define profdata_profile_trace_context(p, i, out) \
	profdata_profile_trace_context_sized((p), (i), (out), sizeof(*(out)))

/*
 * (0.3) The labels of sample `sample` (events version 3): *out the first of
 * *n, borrowed from the profile (NULL and 0 for a sample without labels).
 * PROFDATA_ENOTFOUND past the last sample.
 */
PROFDATA_API int profdata_profile_sample_labels(const profdata_label **out, size_t *n, const profdata_profile *p,
                                                size_t sample);

#ifdef PROFDATA_EXPERIMENTAL
/*
 * Experimental (0.3): a sample's frames with their names, in one call
 * instead of a lookup per sample, stack, frame, function and class.
 */
typedef struct profdata_named_frame {
	uint64_t frame_id;
	const char *function;  /* the function's name as the format gives it ("hashCode", "main"); NULL none */
	const char *class_name; /* its class, JVM internal form ("java/lang/String"); NULL none (native code) */
	const char *signature; /* JVM: "(I)V"; NULL none */
	const char *file;      /* its source file; NULL none */
	int32_t line;          /* a line number or a PROFDATA_LINE_* value */
	uint64_t address;      /* native PC, when has_address */
	int has_address;
} profdata_named_frame;

/*
 * The frames of sample `sample`'s stack, innermost first, into out[0 ..
 * cap): *count gets how many the stack has (more than cap: call again with
 * room for them). Strings are borrowed from the profile. 0, or
 * PROFDATA_ENOTFOUND when there is no such sample or its stack is not in
 * the profile (no message: a lookup, doc/conventions.md). A frame id the
 * profile does not hold gives a frame with no names. Threads: a read.
 */
PROFDATA_EXPERIMENTAL_API int profdata_profile_sample_frames(profdata_named_frame *out, size_t cap, size_t *count,
                                                            const profdata_profile *p, size_t sample);

/*
 * Experimental (0.3): one column of a table into the caller's array, so
 * that a binding (numpy, Arrow, R) gets a table's values at C speed
 * without a call per row. The library lists the columns it has
 * (profdata_column_count(), _at(), _find()): per table, a name and the
 * type of its elements.
 *
 * A column's shape says how many elements rows [start, start + n) give:
 * PLAIN one per row; OFFSETS n + 1, where element k is how many elements
 * rows start .. start + k - 1 hold in the RAGGED column it goes with (so
 * the first is 0 and the last the total); RAGGED the rows' lists
 * concatenated (an object's references, a stack's frames, a sample's
 * values). The RAGGED column of an OFFSETS column "x_offsets" is "x".
 */
typedef enum profdata_column_type {
	PROFDATA_COLUMN_U8 = 1,
	PROFDATA_COLUMN_U32,
	PROFDATA_COLUMN_I32,
	PROFDATA_COLUMN_U64,
	PROFDATA_COLUMN_I64
} profdata_column_type;

typedef enum profdata_column_shape {
	PROFDATA_COLUMN_PLAIN,
	PROFDATA_COLUMN_OFFSETS,
	PROFDATA_COLUMN_RAGGED
} profdata_column_shape;

typedef struct profdata_column {
	profdata_table table;
	const char *name;        /* "size", "class_index", "references", ... */
	int type;                /* profdata_column_type of its elements */
	int shape;               /* profdata_column_shape */
	const char *description; /* one line, for help texts and docstrings */
} profdata_column;

/* The columns the library has, in a fixed order (by table). Static data. Threads: any. */
PROFDATA_EXPERIMENTAL_API size_t profdata_column_count(void);
/* Column i, NULL past the last. */
PROFDATA_EXPERIMENTAL_API const profdata_column *profdata_column_at(size_t i);
/* Column `name` of `table`: 0 and *out; PROFDATA_ENOTFOUND (*out unchanged) for no such column. */
PROFDATA_EXPERIMENTAL_API int profdata_column_find(const profdata_column **out, profdata_table table,
                                                   const char *name);

/*
 * Rows [start, start + n) of `column` of `p` into out[0 .. cap), elements
 * of type `out_type`: the column's own type, or a 64-bit one that holds
 * every value of it (U64 for the unsigned types, I64 for any but U64).
 * *count gets how many elements the rows give (see the shapes above); when
 * that is more than cap, only cap are written: call again with room for
 * them (out may be NULL with cap 0, to ask). Rows past the table's end
 * are not there: n is cut to them. 0, or PROFDATA_EINVAL (an out_type
 * that cannot hold the column, or `column` not one of the library's), or a
 * negative code of reading an object's references (a broken class layout).
 * Threads: a read of `p`.
 */
PROFDATA_EXPERIMENTAL_API int profdata_profile_column(void *out, size_t cap, size_t *count, int out_type,
                                                      const profdata_profile *p, const profdata_column *column,
                                                      size_t start, size_t n);
#endif

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
