/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: the event vocabulary every codec speaks.
 *
 * A decoder turns bytes into a sequence of calls on a profdata_events table;
 * an encoder is driven by the same calls; the model (profdata_profile) is
 * built by one consumer of them and replays itself as them. So
 *
 *   read    = decoder -> model builder
 *   write   = model replay -> encoder
 *   convert = decoder -> encoder, with bounded memory
 *
 * Conventions:
 * - Every callback receives the caller's `payload` first and returns 0 to go
 *   on. A positive return stops the pass without an error: the driver
 *   (profdata_decode(), profdata_profile_replay()) returns PROFDATA_STOPPED.
 *   A negative return stops it with that error: the driver returns that very
 *   code (so a callback may return any PROFDATA_E* code, or its own negative
 *   ones), and profdata_read() and profdata_convert() return their
 *   consumer's code the same way.
 * - NULL callbacks are skipped.
 * - Every pointer inside an event is borrowed for the duration of the call.
 * - Strings are referred to by id. Formats that have string ids (HPROF) pass
 *   theirs; others emit a string event with an id of their own choosing
 *   (from 1) before the first use. Id 0 means "no string".
 * - Objects, classes and frames are identified by the format's own ids
 *   (HPROF identifiers, classic-dump addresses, ...). Stacks and threads by
 *   serial numbers. 0 means "none" for all of them.
 * - Times are in the unit the struct says; absent values are 0.
 *
 * Order: begin first and end last; a string before its first use; a frame
 * before a stack that lists it; objects and roots only between dump_begin and
 * dump_end. Consumers must not depend on anything else.
 *
 * Adding a callback appends a member and raises PROFDATA_EVENTS_VERSION; a
 * driver never calls (nor reads) members beyond the `version` a table
 * declares, so a table built against older headers stays valid.
 */
#ifndef PROFDATA_EVENTS_H
#define PROFDATA_EVENTS_H

#include <profdata/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROFDATA_EVENTS_VERSION 5

/* A key/value pair of UTF-8 strings. */
typedef struct profdata_kv {
	const char *key;
	const char *value;
} profdata_kv;

/* What the input says about itself. */
typedef struct profdata_meta {
	const char *format;       /* registry name of the source: "hprof", "gperftools", ... */
	const char *version;      /* the format's own version text, e.g. "JAVA PROFILE 1.0.2"; may be NULL */
	uint32_t id_size;         /* bytes per identifier (HPROF 4 or 8); 0 if the format has none */
	uint32_t word_size;       /* bytes per address / slot (gperftools 4 or 8; classic 4 or 8); 0 unknown */
	int big_endian;           /* byte order of the source words (gperftools) */
	uint64_t timestamp_ms;    /* milliseconds since 1970 (HPROF header); 0 unknown */
	uint64_t period;          /* sampling period, in period_unit; 0 none */
	const char *period_type;  /* e.g. "cpu"; NULL none */
	const char *period_unit;  /* e.g. "microseconds"; NULL none */
	const profdata_kv *comments; /* free key/value pairs the format carries */
	size_t ncomments;
} profdata_meta;

/* Field and constant types use profdata_basic_type codes. Values are raw bits, zero-extended. */
typedef struct profdata_field {
	uint64_t name_id; /* string id */
	uint8_t type;     /* profdata_basic_type */
	uint64_t value;   /* static fields and constants only; object ids for PROFDATA_TYPE_OBJECT */
} profdata_field;

typedef struct profdata_constant {
	uint16_t index;
	uint8_t type;
	uint64_t value;
} profdata_constant;

/* HPROF LOAD CLASS, and a class's first appearance in formats without one. */
typedef struct profdata_class_load {
	uint64_t time_us;      /* microseconds after the header time stamp (HPROF record time) */
	uint32_t serial;       /* class serial number; 0 if the format has none */
	uint64_t id;           /* class object id */
	uint32_t trace_serial; /* stack trace at load time */
	uint64_t name_id;      /* string id of the name, JVM internal form: java/lang/String, [I */
} profdata_class_load;

/* HPROF CLASS DUMP, classic-dump CLS record: the class's layout and statics. */
typedef struct profdata_class_dump {
	uint64_t id;
	uint32_t trace_serial;
	uint64_t super_id;
	uint64_t loader_id;
	uint64_t signers_id;
	uint64_t protection_domain_id;
	uint64_t reserved1, reserved2;
	uint32_t instance_size;        /* bytes of instance field data, as the format states */
	uint64_t size;                 /* shallow size of the class object if the format gives it (classic); 0 unknown */
	const profdata_constant *constants;
	size_t nconstants;
	const profdata_field *statics;
	size_t nstatics;
	const profdata_field *fields;  /* instance fields of this class only, in record order */
	size_t nfields;
	const uint64_t *refs;          /* explicit references (classic CLS); NULL when derived from statics */
	size_t nrefs;
} profdata_class_dump;

typedef struct profdata_class_unload {
	uint64_t time_us;
	uint32_t serial;
} profdata_class_unload;

/*
 * A function (method): HPROF frames carry one each, XML methodDef defines
 * them, gperftools' Java variant names addresses with them.
 */
typedef struct profdata_function {
	uint64_t id;             /* the format's id; unique among functions */
	uint64_t name_id;        /* string ids ... */
	uint64_t signature_id;
	uint64_t source_file_id;
	uint32_t class_serial;   /* 0 none */
	int32_t start_line, end_line; /* 0 unknown */
} profdata_function;

/* HPROF STACK FRAME line values with special meaning. */
enum {
	PROFDATA_LINE_NONE = 0,       /* no line information */
	PROFDATA_LINE_UNKNOWN = -1,
	PROFDATA_LINE_COMPILED = -2,
	PROFDATA_LINE_NATIVE = -3
};

/* A location: a function and line (JVM), or an address (native), or both. */
typedef struct profdata_frame {
	uint64_t id;           /* unique among frames; HPROF frame id, or chosen by the decoder */
	uint64_t function_id;  /* 0 none */
	int32_t line;          /* a line number or a PROFDATA_LINE_* value */
	uint64_t address;      /* native PC; meaningful when has_address */
	int has_address;
	uint32_t mapping;      /* 1-based index into mappings; 0 none */
} profdata_frame;

/* HPROF STACK TRACE, a gperftools call chain, an XML call stack. */
typedef struct profdata_stack {
	uint32_t serial;          /* unique among stacks */
	uint32_t thread_serial;   /* 0 none */
	const uint64_t *frame_ids; /* leaf (most recent call) first */
	size_t nframes;
} profdata_stack;

typedef struct profdata_thread_start {
	uint64_t time_us;
	uint32_t serial;
	uint64_t object_id;
	uint32_t trace_serial;
	uint64_t name_id, group_name_id, parent_group_name_id; /* string ids */
} profdata_thread_start;

typedef struct profdata_thread_end {
	uint64_t time_us;
	uint32_t serial;
} profdata_thread_end;

/*
 * A sample type, e.g. ("samples", "count") or ("cpu", "nanoseconds"). The
 * n-th sample_type event defines the meaning of values[n] of every sample.
 */
typedef struct profdata_sample_type {
	uint64_t type_id; /* string ids */
	uint64_t unit_id;
} profdata_sample_type;

/*
 * A group of samples as the source groups them (an HPROF CPU SAMPLES
 * record); formats without groups emit one. Samples belong to the last
 * group begun.
 */
typedef struct profdata_sample_group {
	uint64_t time_us;
	uint64_t total;   /* the total the source states (HPROF "total number of samples") */
} profdata_sample_group;

typedef struct profdata_sample {
	uint32_t stack_serial;
	uint32_t thread_serial;   /* 0 none */
	uint64_t time_ns;         /* 0 none */
	const int64_t *values;    /* one per sample type */
	size_t nvalues;
} profdata_sample;

/* HPROF ALLOC SITES. */
typedef struct profdata_alloc_site {
	uint8_t array_type;       /* 0 not an array, else profdata_basic_type of elements */
	uint32_t class_serial;
	uint32_t trace_serial;
	uint32_t live_bytes, live_instances;
	uint32_t alloc_bytes, alloc_instances;
} profdata_alloc_site;

typedef struct profdata_alloc_sites {
	uint64_t time_us;
	uint16_t flags;           /* 0x1 incremental, 0x2 sorted by allocation, 0x4 force GC */
	uint32_t cutoff_bits;     /* IEEE-754 float bits of the cutoff ratio */
	uint32_t total_live_bytes, total_live_instances;
	uint64_t total_alloc_bytes, total_alloc_instances;
	const profdata_alloc_site *sites;
	size_t nsites;
} profdata_alloc_sites;

/* HPROF HEAP SUMMARY. */
typedef struct profdata_heap_summary {
	uint64_t time_us;
	uint32_t live_bytes, live_instances;
	uint64_t alloc_bytes, alloc_instances;
} profdata_heap_summary;

/* HPROF CONTROL SETTINGS. */
typedef struct profdata_control_settings {
	uint64_t time_us;
	uint32_t flags;           /* 0x1 alloc traces, 0x2 cpu sampling */
	uint16_t stack_depth;
} profdata_control_settings;

/* A mapped object (gperftools maps text, /proc/self/maps). */
typedef struct profdata_mapping {
	uint64_t start, limit, offset;
	uint64_t inode;
	uint64_t path_id;     /* string ids */
	uint64_t build_id;
	char perms[5];        /* "r-xp" */
	char device[16];      /* "08:01" or "" */
} profdata_mapping;

/* A heap dump. Several may follow each other in one input. */
typedef enum profdata_dump_kind {
	PROFDATA_DUMP_HEAP = 0,      /* one HPROF HEAP DUMP record, or a format without segments */
	PROFDATA_DUMP_SEGMENTED = 1  /* HPROF HEAP DUMP SEGMENTs closed by HEAP DUMP END */
} profdata_dump_kind;

typedef struct profdata_dump {
	uint64_t time_us;
	int kind;                 /* profdata_dump_kind */
} profdata_dump;

/* Android HEAP DUMP INFO: objects that follow belong to this heap. */
typedef struct profdata_heap_info {
	uint32_t heap_id;         /* 0 default, 'A' app, 'Z' zygote, 'I' image */
	uint64_t name_id;
} profdata_heap_info;

/* GC roots, numbered as HPROF's heap sub-record tags (Android ones included). */
typedef enum profdata_root_kind {
	PROFDATA_ROOT_JNI_GLOBAL = 0x01,
	PROFDATA_ROOT_JNI_LOCAL = 0x02,
	PROFDATA_ROOT_JAVA_FRAME = 0x03,
	PROFDATA_ROOT_NATIVE_STACK = 0x04,
	PROFDATA_ROOT_STICKY_CLASS = 0x05,
	PROFDATA_ROOT_THREAD_BLOCK = 0x06,
	PROFDATA_ROOT_MONITOR_USED = 0x07,
	PROFDATA_ROOT_THREAD_OBJECT = 0x08,
	PROFDATA_ROOT_INTERNED_STRING = 0x89,
	PROFDATA_ROOT_FINALIZING = 0x8A,
	PROFDATA_ROOT_DEBUGGER = 0x8B,
	PROFDATA_ROOT_REFERENCE_CLEANUP = 0x8C,
	PROFDATA_ROOT_VM_INTERNAL = 0x8D,
	PROFDATA_ROOT_JNI_MONITOR = 0x8E,
	PROFDATA_ROOT_UNREACHABLE = 0x90,
	PROFDATA_ROOT_UNKNOWN = 0xFF
} profdata_root_kind;

typedef struct profdata_root {
	uint8_t kind;             /* profdata_root_kind */
	uint64_t object_id;
	uint32_t thread_serial;   /* JNI local, Java frame, native stack, thread block, thread object, JNI monitor */
	uint32_t frame;           /* frame number (JNI local, Java frame); depth (JNI monitor); stack serial (thread object) */
	uint64_t extra_id;        /* JNI global: the global ref id */
} profdata_root;

typedef enum profdata_object_kind {
	PROFDATA_OBJECT_INSTANCE = 0,
	PROFDATA_OBJECT_ARRAY = 1,     /* array of references */
	PROFDATA_OBJECT_PRIM_ARRAY = 2 /* array of a basic type */
} profdata_object_kind;

/* Object flags. */
enum {
	PROFDATA_OBJECT_NODATA = 0x1  /* primitive array whose elements were not recorded (Android 0xC3) */
};

/*
 * An object. The payload is in HPROF layout, big-endian, identifiers of
 * meta.id_size bytes: instance field values of the class then its
 * superclasses; object array element ids; primitive array elements. A
 * format without payloads (classic) gives data = NULL and lists the
 * object's references in refs instead.
 */
typedef struct profdata_object {
	uint64_t id;
	uint64_t class_id;        /* for primitive arrays 0 unless the format names the array class */
	uint32_t trace_serial;
	uint8_t kind;             /* profdata_object_kind */
	uint8_t elem_type;        /* primitive arrays: profdata_basic_type of the elements */
	uint8_t flags;            /* PROFDATA_OBJECT_* */
	uint64_t length;          /* arrays: elements; instances: bytes of field data */
	uint64_t size;            /* shallow size as the format states it (classic); 0 when not stated */
	const void *data;         /* payload, or NULL */
	uint64_t data_len;
	const uint64_t *refs;     /* explicit references in order, 0 for null; NULL when derived from data */
	size_t nrefs;
} profdata_object;

/* Any record a decoder keeps without understanding it, for a lossless rewrite. */
typedef struct profdata_unknown {
	uint32_t tag;             /* the format's record tag */
	uint64_t time_us;
	const void *data;
	uint64_t len;
	int in_dump;              /* 1 when it stood inside a heap dump */
} profdata_unknown;

/* A named section of bytes kept verbatim (gperftools maps text, Java symbols). */
typedef struct profdata_attachment {
	const char *name;
	const void *data;
	size_t len;
} profdata_attachment;

/* Trace events (the XML trace-element format). */
typedef enum profdata_trace_kind {
	PROFDATA_TRACE_METHOD_ENTRY = 1,
	PROFDATA_TRACE_METHOD_EXIT,
	PROFDATA_TRACE_METHOD_CALL,
	PROFDATA_TRACE_METHOD_RETURN,
	PROFDATA_TRACE_OBJ_ALLOC,
	PROFDATA_TRACE_OBJ_FREE,
	PROFDATA_TRACE_OBJ_MOVE,
	PROFDATA_TRACE_GC_START,
	PROFDATA_TRACE_GC_FINISH,
	PROFDATA_TRACE_THREAD_START,
	PROFDATA_TRACE_THREAD_END,
	PROFDATA_TRACE_CLASS_DEF,
	PROFDATA_TRACE_METHOD_DEF,
	PROFDATA_TRACE_OTHER,
	/*
	 * (0.2) An element nested in the trace element before it (a `value` in a
	 * methodEntry, methodDef's `return`/`parameter`/`exception`, anything
	 * unknown): name_id its name, `depth` its nesting level below the trace
	 * element (1 for a child), attributes verbatim; an attribute with the
	 * empty key holds its character data.
	 */
	PROFDATA_TRACE_NESTED
} profdata_trace_kind;

typedef struct profdata_trace_event {
	uint16_t kind;            /* profdata_trace_kind */
	uint64_t name_id;         /* element name for PROFDATA_TRACE_OTHER; 0 otherwise */
	uint64_t time_ns;
	uint32_t thread_serial;
	uint64_t method_id;       /* function id */
	uint64_t class_id;
	uint64_t object_id;
	uint64_t ticket;
	uint32_t depth;
	uint64_t cpu_time_ns;
	const profdata_kv *attrs; /* attributes with no field above, kept verbatim */
	size_t nattrs;
} profdata_trace_event;

/*
 * (events version 2) What a trace says about itself rather than about the
 * program: the trace-behaviour elements of the XML trace format (node,
 * processCreate, agentCreate/Destroy, traceStart/End, processSuspend/Resume,
 * option, filter) and where each trace of a file begins (one per archive
 * entry or document).
 */
typedef enum profdata_trace_context_kind {
	PROFDATA_TRACE_CONTEXT_BEGIN = 1,   /* a trace begins (a document, an archive entry) */
	PROFDATA_TRACE_CONTEXT_NODE,        /* id: nodeId */
	PROFDATA_TRACE_CONTEXT_PROCESS,     /* processCreate; id: processId, ref: nodeIdRef */
	PROFDATA_TRACE_CONTEXT_AGENT,       /* agentCreate; id: agentId, ref: processIdRef */
	PROFDATA_TRACE_CONTEXT_AGENT_END,   /* agentDestroy; ref: agentIdRef */
	PROFDATA_TRACE_CONTEXT_TRACE_START, /* id: traceId, ref: agentIdRef */
	PROFDATA_TRACE_CONTEXT_TRACE_END,   /* ref: traceIdRef */
	PROFDATA_TRACE_CONTEXT_SUSPEND,     /* processSuspend */
	PROFDATA_TRACE_CONTEXT_RESUME,      /* processResume */
	PROFDATA_TRACE_CONTEXT_OPTION,      /* id: key, ref: value */
	PROFDATA_TRACE_CONTEXT_FILTER       /* attributes verbatim */
} profdata_trace_context_kind;

typedef struct profdata_trace_context {
	uint16_t kind;            /* profdata_trace_context_kind */
	uint32_t trace;           /* 1-based: which trace of the input it belongs to */
	uint64_t position;        /* trace events of the whole input before it (where it stood among them) */
	const char *id;           /* its own id (or option key); NULL none */
	const char *ref;          /* the id it refers to (or option value); NULL none */
	uint64_t time_ns;         /* nanoseconds since 1970; 0 none */
	const profdata_kv *attrs; /* every other attribute, verbatim and in order */
	size_t nattrs;
} profdata_trace_context;

/*
 * (events version 3, 0.3) A label of a sample: a key and either a string
 * or a number with its unit (pprof's Label). String ids; 0 none.
 */
typedef struct profdata_label {
	uint64_t key_id;
	uint64_t str_id;          /* the value, for a string label; 0 for a numeric one */
	int64_t num;              /* the value, for a numeric label */
	uint64_t num_unit_id;     /* its unit ("bytes"); 0 none */
} profdata_label;

/*
 * (events version 3, 0.3) The labels of the sample event that follows, in
 * the source's order (pprof: pprof.Do's labels, a thread's name, a request
 * id). A sample without this event before it has no labels.
 */
typedef struct profdata_sample_labels {
	const profdata_label *labels;
	size_t nlabels;
} profdata_sample_labels;

/*
 * (events version 4, 0.3) What kind of code a frame ran in, as JDK Flight
 * Recorder's frame types and perf's kernel frames say: a JIT-compiled
 * frame and an interpreted one of the same method and line are two frames,
 * each with its kind. A frame without this event has PROFDATA_FRAME_KIND_UNKNOWN.
 */
typedef enum profdata_frame_kind_value {
	PROFDATA_FRAME_KIND_UNKNOWN = 0,
	PROFDATA_FRAME_KIND_INTERPRETED = 1, /* JFR "Interpreted" */
	PROFDATA_FRAME_KIND_JIT = 2,         /* JFR "JIT compiled" (C2, or a JIT the source does not name) */
	PROFDATA_FRAME_KIND_INLINED = 3,     /* JFR "Inlined": compiled into its caller's frame */
	PROFDATA_FRAME_KIND_NATIVE = 4,      /* JFR "Native": a JNI method, or machine code of a native library */
	PROFDATA_FRAME_KIND_CPP = 5,         /* async-profiler's "C++": the JVM's own code */
	PROFDATA_FRAME_KIND_KERNEL = 6,      /* the kernel's code (async-profiler's "Kernel", perf's [kernel.kallsyms]) */
	PROFDATA_FRAME_KIND_C1 = 7           /* async-profiler's "C1 compiled" */
} profdata_frame_kind_value;

typedef struct profdata_frame_kind {
	uint64_t frame_id;  /* a frame event before it */
	uint32_t kind;      /* a profdata_frame_kind_value */
} profdata_frame_kind;

/*
 * (events version 4, 0.3) A stack whose source cut it short: its callers
 * beyond the frames it lists were not recorded (JFR's `truncated`, at the
 * recorder's stack depth). Comes after the stack event.
 */
typedef struct profdata_stack_truncated {
	uint32_t stack_serial;
} profdata_stack_truncated;

/*
 * (events version 5, 0.3) An object the source sampled while it lived, as
 * JDK Flight Recorder's old object samples (jdk.OldObjectSample: the
 * objects its leak search keeps). The object itself is an object event of
 * a heap dump, with its class, its allocation stack as trace_serial, and
 * the objects on its path from a GC root holding references to it; this
 * event adds when it was allocated, its age and the root its path starts
 * at. A decoder sends it after the dump that holds the object; a model's
 * replay sends it before its dumps (with the other plain lists), so a
 * consumer finds the object by its id, not by order.
 */
typedef struct profdata_object_sample {
	uint64_t object_id;       /* an object of a heap dump */
	uint64_t time_ns;         /* when the source sampled it, nanoseconds since 1970; 0 unknown */
	uint64_t allocation_ns;   /* when it was allocated, nanoseconds since 1970; 0 unknown */
	uint64_t age_ns;          /* its age when sampled, as the source measured it; 0 unknown */
	uint64_t heap_used;       /* bytes of heap in use when last known (JFR's lastKnownHeapUsage); 0 unknown */
	uint32_t thread_serial;   /* the thread that allocated it; 0 unknown */
	uint64_t root_name_id;    /* string id: the GC root of its path as the source names it; 0 none */
} profdata_object_sample;

/*
 * The callbacks. A consumer allocates the table: initialise it with
 * profdata_events_init(&ev, sizeof ev) (or PROFDATA_EVENTS_INIT), then set
 * what it consumes; members left NULL are skipped. `version` says which
 * members the table has; the library reads nothing past them.
 */
typedef struct profdata_events {
	unsigned int version;
	int (*begin)(void *payload, const profdata_meta *meta);
	int (*string)(void *payload, uint64_t id, const char *utf8, size_t len);
	int (*class_load)(void *payload, const profdata_class_load *c);
	int (*class_unload)(void *payload, const profdata_class_unload *c);
	int (*function)(void *payload, const profdata_function *f);
	int (*frame)(void *payload, const profdata_frame *f);
	int (*stack)(void *payload, const profdata_stack *s);
	int (*thread_start)(void *payload, const profdata_thread_start *t);
	int (*thread_end)(void *payload, const profdata_thread_end *t);
	int (*sample_type)(void *payload, const profdata_sample_type *t);
	int (*sample_group)(void *payload, const profdata_sample_group *g);
	int (*sample)(void *payload, const profdata_sample *s);
	int (*alloc_sites)(void *payload, const profdata_alloc_sites *a);
	int (*heap_summary)(void *payload, const profdata_heap_summary *h);
	int (*control_settings)(void *payload, const profdata_control_settings *c);
	int (*mapping)(void *payload, const profdata_mapping *m);
	int (*dump_begin)(void *payload, const profdata_dump *d);
	int (*heap_info)(void *payload, const profdata_heap_info *h);
	int (*class_dump)(void *payload, const profdata_class_dump *c);
	int (*root)(void *payload, const profdata_root *r);
	int (*object)(void *payload, const profdata_object *o);
	int (*dump_end)(void *payload);
	int (*unknown)(void *payload, const profdata_unknown *u);
	int (*attachment)(void *payload, const profdata_attachment *a);
	int (*trace_event)(void *payload, const profdata_trace_event *e);
	int (*end)(void *payload);
	/* version 2 (0.2) */
	int (*trace_context)(void *payload, const profdata_trace_context *c);
	/* version 3 (0.3) */
	int (*sample_labels)(void *payload, const profdata_sample_labels *l);
	/* version 4 (0.3) */
	int (*frame_kind)(void *payload, const profdata_frame_kind *k);
	int (*stack_truncated)(void *payload, const profdata_stack_truncated *t);
	/* version 5 (0.3) */
	int (*object_sample)(void *payload, const profdata_object_sample *s);
} profdata_events;

/*
 * Zero `size` bytes of *events and set `version` to the newest version whose
 * table fits in `size` (pass sizeof of your table: the library then writes
 * only what your headers declared). Returns 0, or PROFDATA_EINVAL when
 * `size` is smaller than the first version's table.
 */
PROFDATA_API int profdata_events_init(profdata_events *events, size_t size);

/*
 * An initialiser that sets only `version` (every other member is NULL by the
 * rules of C and C++). Kept for existing code; compilers warn about it under
 * -Wmissing-field-initializers, which profdata_events_init() avoids.
 */
#define PROFDATA_EVENTS_INIT { PROFDATA_EVENTS_VERSION }

#ifdef __cplusplus
}
#endif

#endif
