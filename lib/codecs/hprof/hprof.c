/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HPROF: the codec descriptor, record names and the bid.
 */
#include <string.h>

#include "hprof.h"
#include "transform/transform.h"

const char *pd_hprof_record_name(unsigned tag)
{
	switch (tag) {
	case HPROF_STRING: return "STRING";
	case HPROF_LOAD_CLASS: return "LOAD CLASS";
	case HPROF_UNLOAD_CLASS: return "UNLOAD CLASS";
	case HPROF_STACK_FRAME: return "STACK FRAME";
	case HPROF_STACK_TRACE: return "STACK TRACE";
	case HPROF_ALLOC_SITES: return "ALLOC SITES";
	case HPROF_HEAP_SUMMARY: return "HEAP SUMMARY";
	case HPROF_START_THREAD: return "START THREAD";
	case HPROF_END_THREAD: return "END THREAD";
	case HPROF_HEAP_DUMP: return "HEAP DUMP";
	case HPROF_CPU_SAMPLES: return "CPU SAMPLES";
	case HPROF_CONTROL_SETTINGS: return "CONTROL SETTINGS";
	case HPROF_HEAP_DUMP_SEGMENT: return "HEAP DUMP SEGMENT";
	case HPROF_HEAP_DUMP_END: return "HEAP DUMP END";
	default: return "unknown";
	}
}

const char *pd_hprof_subrecord_name(unsigned tag)
{
	switch (tag) {
	case PROFDATA_ROOT_UNKNOWN: return "ROOT UNKNOWN";
	case PROFDATA_ROOT_JNI_GLOBAL: return "ROOT JNI GLOBAL";
	case PROFDATA_ROOT_JNI_LOCAL: return "ROOT JNI LOCAL";
	case PROFDATA_ROOT_JAVA_FRAME: return "ROOT JAVA FRAME";
	case PROFDATA_ROOT_NATIVE_STACK: return "ROOT NATIVE STACK";
	case PROFDATA_ROOT_STICKY_CLASS: return "ROOT STICKY CLASS";
	case PROFDATA_ROOT_THREAD_BLOCK: return "ROOT THREAD BLOCK";
	case PROFDATA_ROOT_MONITOR_USED: return "ROOT MONITOR USED";
	case PROFDATA_ROOT_THREAD_OBJECT: return "ROOT THREAD OBJECT";
	case PROFDATA_ROOT_INTERNED_STRING: return "ROOT INTERNED STRING";
	case PROFDATA_ROOT_FINALIZING: return "ROOT FINALIZING";
	case PROFDATA_ROOT_DEBUGGER: return "ROOT DEBUGGER";
	case PROFDATA_ROOT_REFERENCE_CLEANUP: return "ROOT REFERENCE CLEANUP";
	case PROFDATA_ROOT_VM_INTERNAL: return "ROOT VM INTERNAL";
	case PROFDATA_ROOT_JNI_MONITOR: return "ROOT JNI MONITOR";
	case PROFDATA_ROOT_UNREACHABLE: return "UNREACHABLE";
	case HPROF_GC_CLASS_DUMP: return "CLASS DUMP";
	case HPROF_GC_INSTANCE_DUMP: return "INSTANCE DUMP";
	case HPROF_GC_OBJ_ARRAY_DUMP: return "OBJECT ARRAY DUMP";
	case HPROF_GC_PRIM_ARRAY_DUMP: return "PRIMITIVE ARRAY DUMP";
	case HPROF_GC_PRIM_ARRAY_NODATA: return "PRIMITIVE ARRAY NODATA";
	case HPROF_GC_HEAP_DUMP_INFO: return "HEAP DUMP INFO";
	default: return "unknown";
	}
}

/*
 * The three versions anyone writes get a sure bid; another "JAVA PROFILE "
 * text is most likely a future or odd writer, which the decoder reads with a
 * warning (permissive) or refuses (strict).
 */
int pd_hprof_bid(const unsigned char *buf, size_t len)
{
	static const char prefix[] = "JAVA PROFILE ";
	static const char *const known[] = { "JAVA PROFILE 1.0.1", "JAVA PROFILE 1.0.2",
		                             "JAVA PROFILE 1.0.3" };
	size_t i;

	if (len < sizeof prefix - 1 || memcmp(buf, prefix, sizeof prefix - 1) != 0)
		return 0;
	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		size_t n = strlen(known[i]);
		if (len > n && memcmp(buf, known[i], n) == 0 && buf[n] == '\0')
			return 100;
	}
	return 40;
}

static const char *const hprof_read_options[] = {
	"primitive_data",         /* 0: in a stream, read past primitive arrays' elements (type and length kept) */
	NULL
};

/* HPROF objects carry payloads: objects listing references get them made up. */
static const pd_transform_desc *const hprof_transforms[] = { &pd_transform_refs_to_payloads,
                                                             &pd_transform_trace_stacks, NULL };

static const char *const hprof_write_options[] = {
	"version",                /* 1.0.1 | 1.0.2 (default) | 1.0.3 | source */
	"id_size",                /* 4 | 8; default: the source's */
	"strip_primitive_arrays", /* 1: write every primitive array empty */
	"android_to_hotspot",     /* 1: what Android's hprof-conv does */
	"max_synthesized",        /* bytes the payloads made from reference lists may take (refs_to_payloads) */
	NULL
};

const struct profdata_format pd_format_hprof = {
	.name = "hprof",
	.description = "HPROF binary heap dumps and profiles (JAVA PROFILE 1.0.1, 1.0.2, 1.0.3)",
	.extensions = (const char *const[]){ ".hprof", NULL },
	.bid = pd_hprof_bid,
	.decode = pd_hprof_decode,
	.encoder_new = pd_hprof_encoder_new,
	.read_options = hprof_read_options,
	.write_options = hprof_write_options,
	.write_transforms = hprof_transforms,
};
