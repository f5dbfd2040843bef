/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: definitions shared by every public header.
 *
 * This header is included by all others; including <profdata/profdata.h> is
 * the usual way to get everything.
 */
#ifndef PROFDATA_COMMON_H
#define PROFDATA_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols are hidden by default; only what carries PROFDATA_API is exported. */
#if defined(_WIN32) && defined(PROFDATA_BUILDING)
#define PROFDATA_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define PROFDATA_API __attribute__((visibility("default")))
#else
#define PROFDATA_API
#endif

/*
 * Declarations kept only for existing callers carry
 * PROFDATA_DEPRECATED("use ... instead"): gcc and clang warn where they are
 * used and name the replacement. They keep working as their release
 * documented them (doc/conventions.md, "Deprecation"). Define
 * PROFDATA_NO_DEPRECATION_WARNINGS before including to silence the warnings.
 */
#if defined(PROFDATA_NO_DEPRECATION_WARNINGS)
#define PROFDATA_DEPRECATED(msg)
#elif defined(__clang__) || (defined(__GNUC__) && (__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 5)))
#define PROFDATA_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define PROFDATA_DEPRECATED(msg)
#endif

/*
 * The experimental tier: calls that may still change, or go, in a minor
 * release (doc/api-policy.md). Their declarations are visible only to a
 * caller that defines PROFDATA_EXPERIMENTAL before including, and carry
 * PROFDATA_EXPERIMENTAL_API instead of PROFDATA_API; an experimental call
 * that changes also changes its name, so that a program built against the
 * old shape fails to link rather than call it wrongly.
 */
#define PROFDATA_EXPERIMENTAL_API PROFDATA_API
#if defined(PROFDATA_BUILDING) && !defined(PROFDATA_EXPERIMENTAL)
#define PROFDATA_EXPERIMENTAL 1 /* the library sees its own declarations */
#endif

/*
 * Return codes. Functions that can fail return an int: 0 on success, a
 * negative PROFDATA_E* code on failure. PROFDATA_STOPPED (positive) means a
 * callback asked to stop; it is not an error.
 *
 * Codes from PROFDATA_EUSER down are the caller's: the library never
 * produces one, and when a callback returns one (event tables, progress) it
 * stops the work and the call returns that very code; a message of the
 * library's, where there is one, says only where the work stopped (the
 * callback knows why). So a callback can say why it stopped without
 * colliding with any code of this library, present or to come: the
 * library's own stay above PROFDATA_EUSER.
 *
 * Where the message of a failure lives (the reader, the writer, the heap,
 * ...) is said by each call, and summed up in doc/conventions.md.
 */
enum {
	PROFDATA_OK = 0,
	PROFDATA_STOPPED = 1,       /* a callback returned non-zero */
	PROFDATA_ERROR = -1,        /* unspecified failure */
	PROFDATA_ENOMEM = -2,       /* out of memory */
	PROFDATA_EIO = -3,          /* the operating system failed a read or write */
	PROFDATA_EFORMAT = -4,      /* the input is not valid for its format */
	PROFDATA_ETRUNCATED = -5,   /* the input ends before a record does */
	PROFDATA_EUNSUPPORTED = -6, /* valid, but a variant this library does not handle */
	PROFDATA_EINVAL = -7,       /* a bad argument or option from the caller */
	PROFDATA_ENOTFOUND = -8,    /* no such format, id or entry */
	PROFDATA_ERANGE = -9,       /* a value does not fit the target format */
	PROFDATA_ELIMIT = -10,      /* the input asks for more than it can justify */
	PROFDATA_EUSER = -1000      /* (0.3) this code and every one below it are callbacks' own */
};

/*
 * Java basic types, numbered as HPROF numbers them. Every codec uses these
 * codes for field, element and value types.
 */
typedef enum profdata_basic_type {
	PROFDATA_TYPE_NONE = 0,
	PROFDATA_TYPE_OBJECT = 2,
	PROFDATA_TYPE_BOOLEAN = 4,
	PROFDATA_TYPE_CHAR = 5,
	PROFDATA_TYPE_FLOAT = 6,
	PROFDATA_TYPE_DOUBLE = 7,
	PROFDATA_TYPE_BYTE = 8,
	PROFDATA_TYPE_SHORT = 9,
	PROFDATA_TYPE_INT = 10,
	PROFDATA_TYPE_LONG = 11
} profdata_basic_type;

/*
 * Size in bytes of a value of basic type `type`; PROFDATA_TYPE_OBJECT takes
 * `id_size`. Returns 0 for a code that is not a basic type.
 */
PROFDATA_API unsigned profdata_basic_type_size(int type, unsigned id_size);

/* "int", "java.lang.Object" style name of a basic type; "?" when unknown. Static string. */
PROFDATA_API const char *profdata_basic_type_name(int type);

/*
 * A diagnostic: an error or a warning, with where in the input it happened.
 * All pointers are borrowed from the handle that reported it and stay valid
 * until that handle is freed or reports the next error.
 */
typedef struct profdata_error {
	int code;            /* PROFDATA_E* (warnings carry the code of what they repaired) */
	const char *message; /* human-readable, never NULL */
	const char *name;    /* the file or stream name given when the handle was opened */
	uint64_t offset;     /* byte offset in the (decompressed) input; UINT64_MAX if none */
	uint64_t line;       /* 1-based line for text formats; 0 if none */
} profdata_error;

/*
 * A static English description of a return code ("a callback's own error"
 * for codes from PROFDATA_EUSER down). Threads: any.
 */
PROFDATA_API const char *profdata_strerror(int code);

/*
 * (0.3) The one progress callback of the library, for reading
 * (profdata_reader_set_progress_cb()) and heap analysis (profdata/heap.h).
 * `phase` names the step (a static string: "read", "graph", "dominators",
 * ...; each call lists its own), `done` of `total` units are done (`total`
 * is 0 when unknown). It returns as every callback does: 0 to go on; a
 * positive value stops the work, which then returns PROFDATA_STOPPED; a
 * negative value (PROFDATA_EUSER and below for reasons of the caller's own)
 * stops it and is returned unchanged. Either way the handle's error says
 * where the work stopped. It is called on the thread that made the call;
 * `phase` is borrowed for the call.
 */
typedef int (*profdata_progress_cb)(void *payload, const char *phase, uint64_t done, uint64_t total);

/*
 * (0.3) What this build of the library has, as PROFDATA_FEATURE_* bits: for
 * a program that adapts to the library it runs with (a format the build
 * left out is also absent from the registry; these answer for the rest).
 * Threads: any.
 */
PROFDATA_API unsigned profdata_features(void);

#define PROFDATA_FEATURE_GZIP 0x01u      /* gzip input and output (zlib) */
#define PROFDATA_FEATURE_SYMBOLIZE 0x02u /* gperftools' "symbolize=1": native frames named through libdw */
#define PROFDATA_FEATURE_EXPAT 0x04u     /* the tracexml codec (expat) */
#define PROFDATA_FEATURE_PPROF 0x08u     /* pprof export (protobuf-c) */
#define PROFDATA_FEATURE_ZIP 0x10u       /* tracexml's .trcxml (ZIP) archives (libarchive) */

#ifdef __cplusplus
}
#endif

#endif
