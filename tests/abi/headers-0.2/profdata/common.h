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
 * Return codes. Functions that can fail return an int: 0 on success, a
 * negative PROFDATA_E* code on failure. PROFDATA_STOPPED (positive) means an
 * event callback asked to stop; it is not an error.
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
	PROFDATA_ELIMIT = -10       /* the input asks for more than it can justify */
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

/* A static English description of a return code. */
PROFDATA_API const char *profdata_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
