/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: formats, and reading and writing them.
 *
 * Each format is a codec registered by name:
 *
 *   read and write
 *   hprof         HPROF binary heap dumps and profiles ("JAVA PROFILE 1.0.x")
 *   gperftools    Google CPU profiles (gperftools' binary format)
 *   ibm-classic   IBM classic text heapdumps (OpenJ9, jdmpview)
 *   tracexml      XML trace elements (Eclipse Hyades/TPTP traces, .trcxml
 *                 archives); only in builds with expat
 *   write only
 *   folded        folded stacks, as flamegraph.pl reads them
 *   flamegraph    an interactive SVG flame graph
 *   speedscope    speedscope's JSON file format
 *   chrome-trace  Trace Event Format JSON (chrome://tracing, Perfetto)
 *   pprof         pprof protobuf (gzip-compressed profile.proto); only in
 *                 builds with protobuf-c
 *
 * The registry lists what this build has (profdata_format_count());
 * profdata_features() says what it was built with.
 *
 * Reading chooses the format by sniffing the first bytes (every decoder bids;
 * the highest bid wins) unless the options name one.
 *
 * Errors and warnings are kept on the reader (for reading) and the writer
 * (for writing): see io.h.
 */
#ifndef PROFDATA_FORMAT_H
#define PROFDATA_FORMAT_H

#include <profdata/common.h>
#include <profdata/events.h>
#include <profdata/io.h>
#include <profdata/model.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct profdata_format profdata_format;

/* Registered formats, in a fixed order. The descriptors are static. */
PROFDATA_API size_t profdata_format_count(void);
PROFDATA_API const profdata_format *profdata_format_at(size_t i);
/* The format called `name`, or NULL. */
PROFDATA_API const profdata_format *profdata_format_find(const char *name);
PROFDATA_API const char *profdata_format_name(const profdata_format *f);
PROFDATA_API const char *profdata_format_description(const profdata_format *f);
PROFDATA_API int profdata_format_can_read(const profdata_format *f);
PROFDATA_API int profdata_format_can_write(const profdata_format *f);

/*
 * (0.3) What a format's descriptor says, as static NULL-terminated lists
 * (never NULL; empty when it has none): the endings of its file names
 * (".hprof", ".pb.gz", ".speedscope.json"), and the option keys its reader
 * and its writer take (profdata_read_options.options,
 * profdata_write_options.options), those of the transforms it chains when
 * reading included ("symbolize", "sysroot", "debug_dir" for gperftools).
 * Threads: any.
 */
PROFDATA_API const char *const *profdata_format_extensions(const profdata_format *f);
PROFDATA_API const char *const *profdata_format_read_options(const profdata_format *f);
PROFDATA_API const char *const *profdata_format_write_options(const profdata_format *f);

/*
 * (0.3) The format a file name's ending names, the longest ending any format
 * claims winning ("x.speedscope.json" is speedscope's, not any ".json"); a
 * name that ends in ".gz" after no format's own ending is looked up without
 * it ("dump.hprof.gz": hprof, read through gzip). 0 and *out;
 * PROFDATA_ENOTFOUND, *out NULL, when no format claims the name's ending
 * (".txt", ".json"); PROFDATA_EINVAL, *out the first in registry order,
 * when several claim the same one. Only the name is looked at, never the
 * file. Threads: any.
 */
PROFDATA_API int profdata_format_for_filename(const profdata_format **out, const char *name);

/*
 * (0.3) For the name of a format this build left out (pprof without
 * protobuf-c, tracexml without expat): a static text saying what it needs.
 * NULL when the build has the format, or no format has that name. Threads:
 * any.
 */
PROFDATA_API const char *profdata_format_missing(const char *name);

/*
 * The format whose decoder bids highest on the first `len` bytes of an input
 * (give at least 4096 when the input has them; gzip is recognised and looked
 * through). NULL when none recognises them.
 */
PROFDATA_API const profdata_format *profdata_format_sniff(const void *buf, size_t len);

/*
 * The format profdata_read() would choose for `in` (through gzip), from its
 * first bytes, which stay for the read that follows: a pipe or a FIFO
 * loses nothing. 0 and *out on success; PROFDATA_EFORMAT when no format
 * recognises them, or the reader's error, said on the reader (with *out
 * NULL). Threads: as every call on `in`.
 */
PROFDATA_API int profdata_reader_sniff(profdata_reader *in, const profdata_format **out);

/* Decoder strictness. */
typedef enum profdata_mode {
	/* Keep everything complete before a problem, repair what the tools repair,
	 * and report each repair as a warning. */
	PROFDATA_MODE_PERMISSIVE = 0,
	/* Stop at the first problem with its offset. */
	PROFDATA_MODE_STRICT = 1
} profdata_mode;

typedef struct profdata_read_options {
	unsigned int version;
	const char *format;   /* a registered name, or NULL to sniff */
	int mode;             /* profdata_mode */
	const char *options;  /* codec options "key=value,key=value" (see doc/formats.md); NULL none */
} profdata_read_options;

/*
 * Naming native frames (gperftools read options, doc/formats-gperftools.md):
 * "symbolize=1" gives each PC of a binary the profile's maps list a function,
 * a line and a frame per inlined call, read from the binary's ELF symbols and
 * DWARF (and separate debug files); "sysroot=DIR" and "debug_dir=DIR" say
 * where the binaries and debug files are. "symbolize=auto" does it when the
 * library was built with it (elfutils' libdw), "symbolize=none" not at all.
 * The default is none: the library opens no file an input names unless its
 * caller asks (an input's maps may name any path, and a program reading
 * untrusted profiles must choose that). The profdata tool asks for auto,
 * and says so in its help (--symbolize). Works in profdata_read(), profdata_decode() and
 * profdata_convert(). Errors: PROFDATA_EUNSUPPORTED for symbolize=1 in a
 * build without it, PROFDATA_EINVAL for another value. A binary that is
 * missing or unusable is one warning on the reader (its path and why), never
 * an error; its frames keep their addresses. The option strings are copied;
 * the binaries are opened during the call and closed before it returns.
 * Threads: calls on different readers may run at once (each has its own
 * libdwfl session).
 */

#define PROFDATA_READ_OPTIONS_VERSION 1
#define PROFDATA_READ_OPTIONS_INIT { PROFDATA_READ_OPTIONS_VERSION, NULL, PROFDATA_MODE_PERMISSIVE, NULL }
/*
 * (0.3) Zero `size` bytes of *opts (pass sizeof *opts) and set the newest
 * version that fits: the defaults. PROFDATA_EINVAL when `size` is below the
 * first version's. Threads: any.
 */
PROFDATA_API int profdata_read_options_init(profdata_read_options *opts, size_t size);

typedef struct profdata_write_options {
	unsigned int version;
	const char *format;   /* a registered name; required */
	const char *options;  /* codec options "key=value,..."; NULL none */
} profdata_write_options;

#define PROFDATA_WRITE_OPTIONS_VERSION 1
#define PROFDATA_WRITE_OPTIONS_INIT { PROFDATA_WRITE_OPTIONS_VERSION, NULL, NULL }
/* (0.3) As profdata_read_options_init(); `format` is still to be set. */
PROFDATA_API int profdata_write_options_init(profdata_write_options *opts, size_t size);

/*
 * Read all of `in` into a new profile. On success *out is the caller's (free
 * with profdata_profile_free()); warnings are on `in`. On failure *out is
 * NULL and the error is on `in`. `opts` may be NULL for the defaults.
 * Threads: with more than one processor the call may run helper threads of
 * its own besides the reader's (io.h): splitting text lines ahead, faulting
 * in the model's next pages. They never call the caller's code and are
 * joined before it returns.
 */
PROFDATA_API int profdata_read(profdata_profile **out, profdata_reader *in,
                               const profdata_read_options *opts);

/*
 * Decode `in` as events to `events` with `payload`, keeping nothing: memory
 * stays bounded by the largest single record. Only the members `events`
 * declares by its version are called. Returns 0; PROFDATA_STOPPED when a
 * callback returned a positive value; the negative value a callback
 * returned, unchanged; or the decoder's error code (kept on `in`).
 * Callbacks run on the calling thread; helper threads as profdata_read()'s.
 */
PROFDATA_API int profdata_decode(profdata_reader *in, const profdata_read_options *opts,
                                 const profdata_events *events, void *payload);

/*
 * Write `p` to `out` in the format `opts->format`. Does not close `out`.
 * What the format cannot hold is reported as warnings on `out`.
 */
PROFDATA_API int profdata_write(const profdata_profile *p, profdata_writer *out,
                                const profdata_write_options *opts);

/*
 * An encoder driven by events: for streaming conversion, decode into it.
 * Formats whose layout needs all the data first (e.g. all objects before all
 * classes) collect what they need and write at profdata_encoder_finish().
 */
typedef struct profdata_encoder profdata_encoder;

/* *out is the caller's; free with profdata_encoder_free(). `out_writer` is borrowed. */
PROFDATA_API int profdata_encoder_new(profdata_encoder **out, profdata_writer *out_writer,
                                      const profdata_write_options *opts);
/* The callbacks to drive it; pass profdata_encoder_payload() as their payload. */
PROFDATA_API const profdata_events *profdata_encoder_events(const profdata_encoder *e);
PROFDATA_API void *profdata_encoder_payload(profdata_encoder *e);
/* Write anything still held. The writer is not closed. */
PROFDATA_API int profdata_encoder_finish(profdata_encoder *e);
PROFDATA_API void profdata_encoder_free(profdata_encoder *e);

/*
 * Convert in one pass: decode `in` into an encoder for `wopts` on `out`.
 * Errors are on `in` (input) or `out` (output); the return code is the
 * first failure's own code, the decoder's or the encoder's.
 * profdata_convert_error() gives the one to show.
 */
PROFDATA_API int profdata_convert(profdata_reader *in, const profdata_read_options *ropts,
                                  profdata_writer *out, const profdata_write_options *wopts);

/*
 * (0.3) The failure of a profdata_convert() on `in` and `out`, in one
 * place: the writer's error when the output side failed (an encoder's
 * refusal, a failed write), else the reader's; NULL when neither has one.
 * Borrowed from the handle it comes from. Threads: as calls on `in` and
 * `out`.
 */
PROFDATA_API const profdata_error *profdata_convert_error(const profdata_reader *in, const profdata_writer *out);

#ifdef __cplusplus
}
#endif

#endif
