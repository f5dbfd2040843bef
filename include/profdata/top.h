/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: the summary of a profile of samples that `pprof -top`
 * prints: per function (or source line, or file) its flat value, the
 * samples whose innermost frame it is, and its cumulative value, the
 * samples in whose stack it stands at all (once per sample, however deep
 * the recursion), sorted as pprof sorts them.
 *
 * Experimental (0.3): declared only when PROFDATA_EXPERIMENTAL is defined
 * before including (doc/conventions.md, "The experimental tier").
 *
 * Threads: a profdata_top is the caller's to use from one thread at a time;
 * a finished one may be read from several at once. It borrows nothing: the
 * profile may be freed once profdata_top_new() returned.
 */
#ifndef PROFDATA_TOP_H
#define PROFDATA_TOP_H

#include <profdata/common.h>
#include <profdata/model.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef PROFDATA_EXPERIMENTAL

typedef struct profdata_top profdata_top;

/* What the rows are. */
typedef enum profdata_top_group {
	PROFDATA_TOP_FUNCTIONS = 0, /* frames' names as folded stacks write them ("java.lang.String.hashCode", "main", "0x4011e6") */
	PROFDATA_TOP_LINES = 1,     /* "name file:line", "name file" without a line, the name without either */
	PROFDATA_TOP_FILES = 2      /* the function's source file, else the name */
} profdata_top_group;

typedef struct profdata_top_options {
	unsigned int version;
	int group;                  /* profdata_top_group */
	/*
	 * The sample type to sum, by its type's name ("samples", "cpu",
	 * "alloc_space"); NULL: the last one the profile has, as pprof takes
	 * when a profile names no default. Copied.
	 */
	const char *sample_type;
} profdata_top_options;

#define PROFDATA_TOP_OPTIONS_VERSION 1
#define PROFDATA_TOP_OPTIONS_INIT { PROFDATA_TOP_OPTIONS_VERSION, PROFDATA_TOP_FUNCTIONS, NULL }

/*
 * Zero `size` bytes of *opts and set the newest version that fits (pass
 * sizeof *opts): 0, or PROFDATA_EINVAL when `size` is below version 1's.
 */
PROFDATA_EXPERIMENTAL_API int profdata_top_options_init(profdata_top_options *opts, size_t size);

/* How a row is called, as pprof's -top marks it: every call into it an inlined call ("(inline)"), some. */
enum { PROFDATA_TOP_INLINED = 1, PROFDATA_TOP_PARTLY_INLINED = 2 };

/* One row: a function (line, file), its flat and cumulative sums. */
typedef struct profdata_top_entry {
	const char *name;           /* borrowed from the profdata_top */
	int64_t flat;
	int64_t cum;
	/* PROFDATA_TOP_INLINED, PROFDATA_TOP_PARTLY_INLINED ("(partial-inline)"), or 0 */
	int inlined;
} profdata_top_entry;

/*
 * Sum the samples of `p` per function (opts may be NULL: per function, the
 * last sample type). 0 and *out the caller's (free with profdata_top_free).
 * On failure the code, and *out, when not NULL, holds the message
 * (profdata_top_error): PROFDATA_EUNSUPPORTED for a profile without
 * samples (a heap dump: the message says so), PROFDATA_ENOTFOUND for a
 * sample type the profile does not have (the message lists those it has),
 * PROFDATA_EINVAL for options of an unknown version or group, a sample
 * naming no stack; PROFDATA_ENOMEM (*out NULL when the handle itself could
 * not be had).
 */
PROFDATA_EXPERIMENTAL_API int profdata_top_new(profdata_top **out, const profdata_profile *p,
                                               const profdata_top_options *opts);

/* The failure a profdata_top_new() left on its handle; NULL after success. Borrowed. */
PROFDATA_EXPERIMENTAL_API const profdata_error *profdata_top_error(const profdata_top *t);

/* Rows with a non-zero flat or cumulative value: by flat (largest magnitude first), then name, then cum. */
PROFDATA_EXPERIMENTAL_API size_t profdata_top_count(const profdata_top *t);
/* Row i, borrowed; NULL past the end. */
PROFDATA_EXPERIMENTAL_API const profdata_top_entry *profdata_top_entry_at(const profdata_top *t, size_t i);
/* The sum over every sample (what percentages are of). */
PROFDATA_EXPERIMENTAL_API int64_t profdata_top_total(const profdata_top *t);
/* The sample type summed: its name and unit ("cpu", "nanoseconds"); borrowed; "" when the profile names none. */
PROFDATA_EXPERIMENTAL_API const char *profdata_top_sample_type(const profdata_top *t);
PROFDATA_EXPERIMENTAL_API const char *profdata_top_unit(const profdata_top *t);
/* NULL is a no-op. */
PROFDATA_EXPERIMENTAL_API void profdata_top_free(profdata_top *t);

#endif /* PROFDATA_EXPERIMENTAL */

#ifdef __cplusplus
}
#endif

#endif
