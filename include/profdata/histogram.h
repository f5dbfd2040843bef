/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: class histograms of heap dumps.
 *
 * Per class: how many objects and how many shallow bytes, with sizes counted
 * the way VisualVM's heap library counts them (so the numbers agree with
 * what users see there; doc/formats.md gives the rules). Formats that state
 * sizes (the IBM classic heapdump) use the stated sizes.
 *
 * A histogram is computed either in one streaming pass over an input
 * (bounded memory: no model is built) or from a model.
 */
#ifndef PROFDATA_HISTOGRAM_H
#define PROFDATA_HISTOGRAM_H

#include <profdata/common.h>
#include <profdata/format.h>
#include <profdata/model.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct profdata_histogram profdata_histogram;

typedef struct profdata_histogram_entry {
	const char *name;    /* Java source form: "java.lang.String", "int[]" */
	uint64_t class_id;   /* the format's class id; 0 for primitive arrays with no class record */
	uint64_t instances;
	uint64_t bytes;      /* shallow bytes */
} profdata_histogram_entry;

/* Count every dump of a file that holds several, instead of one. */
#define PROFDATA_HISTOGRAM_ALL_DUMPS (-1L)

/*
 * Stream `in` once and count the objects of dump number `dump` (0-based; 0
 * is what VisualVM and Eclipse MAT show for a file with several dumps), or
 * of all dumps with PROFDATA_HISTOGRAM_ALL_DUMPS. On success *out is the
 * caller's (free with profdata_histogram_free()); errors and warnings are on
 * `in`. A dump number past the last gives an empty histogram.
 */
PROFDATA_API int profdata_histogram_read(profdata_histogram **out, profdata_reader *in,
                                         const profdata_read_options *opts, long dump);

/*
 * (0.3) The histogram of dump `dump` (or all) of a model: 0 and *out, the
 * caller's (free with profdata_histogram_free()). A dump number past the
 * last gives an empty histogram. On failure (PROFDATA_ENOMEM) *out is still
 * the caller's histogram, holding the message
 * (profdata_histogram_error()); free it, it answers nothing else. Only
 * when the histogram itself cannot be allocated is *out NULL. `p` is read
 * during the call only. Threads: a read of `p`.
 */
PROFDATA_API int profdata_histogram_new(profdata_histogram **out, const profdata_profile *p, long dump);

/*
 * (0.3) Why profdata_histogram_new() failed, or NULL. Borrowed from the
 * histogram. (profdata_histogram_read() keeps its errors on the reader.)
 */
PROFDATA_API const profdata_error *profdata_histogram_error(const profdata_histogram *h);

/*
 * Deprecated (0.3): profdata_histogram_new(), which says why it failed.
 * On failure *out is NULL and no message is kept.
 */
PROFDATA_DEPRECATED("use profdata_histogram_new")
PROFDATA_API int profdata_histogram_from_profile(profdata_histogram **out, const profdata_profile *p,
                                                 long dump);

/* Entries with at least one instance, sorted by bytes (largest first), then name, then class id. */
PROFDATA_API size_t profdata_histogram_count(const profdata_histogram *h);
/* Entry i; borrowed from the histogram. NULL past the end. */
PROFDATA_API const profdata_histogram_entry *profdata_histogram_entry_at(const profdata_histogram *h, size_t i);
/* Totals over all entries. */
PROFDATA_API uint64_t profdata_histogram_total_instances(const profdata_histogram *h);
PROFDATA_API uint64_t profdata_histogram_total_bytes(const profdata_histogram *h);
/* NULL is a no-op. */
PROFDATA_API void profdata_histogram_free(profdata_histogram *h);

#ifdef __cplusplus
}
#endif

#endif
