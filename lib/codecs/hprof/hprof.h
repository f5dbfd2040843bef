/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HPROF codec: what the decoder and the encoder share. See README for the
 * choices this codec makes where the format leaves room.
 */
#ifndef PD_HPROF_H
#define PD_HPROF_H

#include "internal.h"
#include "jvm/jvm.h"

/* Top-level record tags. */
enum {
	HPROF_STRING = 0x01,
	HPROF_LOAD_CLASS = 0x02,
	HPROF_UNLOAD_CLASS = 0x03,
	HPROF_STACK_FRAME = 0x04,
	HPROF_STACK_TRACE = 0x05,
	HPROF_ALLOC_SITES = 0x06,
	HPROF_HEAP_SUMMARY = 0x07,
	HPROF_START_THREAD = 0x0A,
	HPROF_END_THREAD = 0x0B,
	HPROF_HEAP_DUMP = 0x0C,
	HPROF_CPU_SAMPLES = 0x0D,
	HPROF_CONTROL_SETTINGS = 0x0E,
	HPROF_HEAP_DUMP_SEGMENT = 0x1C,
	HPROF_HEAP_DUMP_END = 0x2C
};

/* Heap dump sub-record tags that are not roots (roots use profdata_root_kind). */
enum {
	HPROF_GC_CLASS_DUMP = 0x20,
	HPROF_GC_INSTANCE_DUMP = 0x21,
	HPROF_GC_OBJ_ARRAY_DUMP = 0x22,
	HPROF_GC_PRIM_ARRAY_DUMP = 0x23,
	HPROF_GC_PRIM_ARRAY_NODATA = 0xC3, /* Android */
	HPROF_GC_HEAP_DUMP_INFO = 0xFE     /* Android */
};

/* Record header: u1 tag, u4 time, u4 length. */
#define HPROF_RECORD_HEADER 9

/*
 * A HotSpot segment holds at most this many bytes of sub-records; the
 * encoder closes a segment before a sub-record would pass it.
 */
#define HPROF_SEGMENT_MAX ((size_t)1 << 20)

/*
 * The decoder reports CPU SAMPLES with the sample type ("samples", "count").
 * Those two strings are not in the file, so the decoder makes them up with
 * ids from the top 256 values of the id space, which no JVM uses for a
 * symbol address or a serial: a file STRING with such an id is refused
 * (strict) or dropped with a warning (permissive), and the encoder never
 * writes strings with these ids. Both sides know the rule, so reading,
 * writing and reading again gives the same strings.
 */
#define HPROF_SYNTH_ID_MIN PD_RESERVED_ID_MIN
#define HPROF_SYNTH_SAMPLES (HPROF_SYNTH_ID_MIN + 1)
#define HPROF_SYNTH_COUNT (HPROF_SYNTH_ID_MIN + 2)

/*
 * Bytes of a value of basic type `t`, identifiers taking `ids`; 0 for a code
 * that is not a basic type.
 */
static inline unsigned hprof_type_size(unsigned t, unsigned ids)
{
	return t <= PROFDATA_TYPE_LONG ? pd_jvm_type_size((int)t, ids) : 0;
}

/* Bytes after the tag of a root sub-record of kind `tag`; 0 when it is not a root. */
static inline unsigned hprof_root_size(unsigned tag, unsigned ids)
{
	switch (tag) {
	case PROFDATA_ROOT_UNKNOWN:
	case PROFDATA_ROOT_STICKY_CLASS:
	case PROFDATA_ROOT_MONITOR_USED:
	case PROFDATA_ROOT_INTERNED_STRING:
	case PROFDATA_ROOT_FINALIZING:
	case PROFDATA_ROOT_DEBUGGER:
	case PROFDATA_ROOT_REFERENCE_CLEANUP:
	case PROFDATA_ROOT_VM_INTERNAL:
	case PROFDATA_ROOT_UNREACHABLE:
		return ids;
	case PROFDATA_ROOT_JNI_GLOBAL:
		return 2 * ids;
	case PROFDATA_ROOT_NATIVE_STACK:
	case PROFDATA_ROOT_THREAD_BLOCK:
		return ids + 4;
	case PROFDATA_ROOT_JNI_LOCAL:
	case PROFDATA_ROOT_JAVA_FRAME:
	case PROFDATA_ROOT_THREAD_OBJECT:
	case PROFDATA_ROOT_JNI_MONITOR:
		return ids + 8;
	default:
		return 0;
	}
}

/* "STRING", "HEAP DUMP SEGMENT", ...; "unknown" for other tags. */
const char *pd_hprof_record_name(unsigned tag);
/* "INSTANCE DUMP", "ROOT JNI GLOBAL", ...; "unknown" for other tags. */
const char *pd_hprof_subrecord_name(unsigned tag);

int pd_hprof_bid(const unsigned char *buf, size_t len);
int pd_hprof_decode(const pd_decode_args *a);
/*
 * The encoder needs payloads: the descriptor asks the core for the
 * refs_to_payloads transform in front of it, for objects that list their
 * references instead (the IBM classic heapdump).
 */
int pd_hprof_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w,
                         const pd_options *opts);

#endif
