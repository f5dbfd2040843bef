/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: where bytes come from and go to.
 *
 * A profdata_reader is an input: a path, a file descriptor, a memory buffer
 * or caller callbacks. Regular files are memory-mapped; gzip input (single or
 * multi-member, as `jcmd GC.heap_dump -gz=N` writes) is recognised from its
 * first bytes and decompressed transparently. Nothing requires seeking, so
 * pipes and sockets work. Errors and warnings met while reading are kept on
 * the reader.
 *
 * A profdata_writer is an output: a path (written to a temporary file in the
 * same directory and renamed over the target only by a successful
 * profdata_writer_close(), so nothing is ever left half-written), a file
 * descriptor, a growing memory buffer, or caller callbacks. Output may be
 * gzip-compressed.
 *
 * A reader or writer is used by one thread at a time; separate handles are
 * independent.
 */
#ifndef PROFDATA_IO_H
#define PROFDATA_IO_H

#include <profdata/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct profdata_reader profdata_reader;
typedef struct profdata_writer profdata_writer;

/*
 * Read callback: copy up to `len` bytes into `buf`; return the count, 0 at
 * the end of input, or a negative value on failure.
 */
typedef long (*profdata_read_fn)(void *payload, void *buf, size_t len);

/* Write callback: take all `len` bytes; return 0, or non-zero on failure. */
typedef int (*profdata_write_fn)(void *payload, const void *buf, size_t len);

/*
 * Open `path` for reading ("-" is standard input). Regular files are
 * memory-mapped. On success *out is the caller's, to free with
 * profdata_reader_free(). When the file cannot be opened the result is
 * PROFDATA_EIO and *out is still a reader, whose profdata_reader_error()
 * names the path and the system's reason: free it after reading that. On
 * other failures *out is NULL.
 */
PROFDATA_API int profdata_reader_open_path(profdata_reader **out, const char *path);

/*
 * Read from descriptor `fd`, which the caller keeps owning (it is not
 * closed). `name` (copied; may be NULL) names it in messages.
 */
PROFDATA_API int profdata_reader_open_fd(profdata_reader **out, int fd, const char *name);

/*
 * Read `len` bytes at `buf`. The buffer is borrowed: it must stay valid and
 * unchanged until the reader, and any profile read from it, are freed.
 */
PROFDATA_API int profdata_reader_open_memory(profdata_reader **out, const void *buf, size_t len,
                                             const char *name);

/* Read through `fn(payload, ...)`. `payload` is borrowed. */
PROFDATA_API int profdata_reader_open_callbacks(profdata_reader **out, profdata_read_fn fn,
                                                void *payload, const char *name);

/*
 * Free a reader. Profiles read from it stay valid: they keep the mapped or
 * buffered input alive themselves. NULL is a no-op.
 */
PROFDATA_API void profdata_reader_free(profdata_reader *r);

/* The name given at open time (the path for files). Borrowed. */
PROFDATA_API const char *profdata_reader_name(const profdata_reader *r);

/* Bytes consumed so far, in the decompressed stream. */
PROFDATA_API uint64_t profdata_reader_offset(const profdata_reader *r);

/* Size of the input when it is a regular file or memory (compressed size for gzip); 0 when unknown. */
PROFDATA_API uint64_t profdata_reader_size(const profdata_reader *r);

/*
 * Call `fn(payload, consumed, total)` as reading advances, about every
 * `every` bytes (consumed counts raw input bytes for gzip input, so that it
 * compares with profdata_reader_size()). For progress displays. NULL turns it off.
 */
typedef void (*profdata_progress_fn)(void *payload, uint64_t consumed, uint64_t total);
PROFDATA_API void profdata_reader_set_progress(profdata_reader *r, profdata_progress_fn fn, void *payload,
                                               uint64_t every);

/* 1 when the input was gzip-compressed, else 0 (known once reading has started). */
PROFDATA_API int profdata_reader_is_gzip(const profdata_reader *r);

/*
 * The last error, or NULL when none happened. Borrowed from the reader.
 * Its offset is in the decompressed stream.
 */
PROFDATA_API const profdata_error *profdata_reader_error(const profdata_reader *r);

/*
 * Warnings: repairs made in permissive mode, and data a conversion could not
 * keep. The count includes warnings beyond those kept (the reader keeps the
 * first 1000); profdata_reader_warning() returns NULL past those.
 */
PROFDATA_API size_t profdata_reader_warning_count(const profdata_reader *r);
PROFDATA_API const profdata_error *profdata_reader_warning(const profdata_reader *r, size_t i);

/*
 * Write to `path` ("-" is standard output, written directly). The data goes
 * to a temporary file beside `path` that profdata_writer_close() renames over
 * it; freeing the writer without a successful close removes the temporary
 * file. When the temporary file cannot be created the result is PROFDATA_EIO
 * and *out is still a writer whose profdata_writer_error() explains: free it
 * after reading that. On other failures *out is NULL.
 */
PROFDATA_API int profdata_writer_open_path(profdata_writer **out, const char *path);

/* Write to descriptor `fd`; the caller keeps owning it. `name` is copied. */
PROFDATA_API int profdata_writer_open_fd(profdata_writer **out, int fd, const char *name);

/* Write into a growing memory buffer; see profdata_writer_memory(). */
PROFDATA_API int profdata_writer_open_memory(profdata_writer **out);

/* Write through `fn(payload, ...)`. `payload` is borrowed. */
PROFDATA_API int profdata_writer_open_callbacks(profdata_writer **out, profdata_write_fn fn,
                                                void *payload, const char *name);

/*
 * Compress what is written from now on with gzip at `level` (1-9; 0 turns it
 * off). Call before anything is written; PROFDATA_EINVAL otherwise.
 */
PROFDATA_API int profdata_writer_set_gzip(profdata_writer *w, int level);

/*
 * Flush everything, finish compression, and for a path rename the temporary
 * file over the target. Returns 0 or an error code (the error is kept on the
 * writer). The writer cannot be written after this; free it still.
 */
PROFDATA_API int profdata_writer_close(profdata_writer *w);

/*
 * For a memory writer after profdata_writer_close(): the bytes written.
 * *data is borrowed from the writer (valid until it is freed).
 */
PROFDATA_API int profdata_writer_memory(const profdata_writer *w, const void **data, size_t *len);

/* Free a writer; an unclosed path writer removes its temporary file. NULL is a no-op. */
PROFDATA_API void profdata_writer_free(profdata_writer *w);

/* Bytes accepted so far (before compression). */
PROFDATA_API uint64_t profdata_writer_offset(const profdata_writer *w);

/* The last error, or NULL. Borrowed from the writer. */
PROFDATA_API const profdata_error *profdata_writer_error(const profdata_writer *w);

/* Warnings (lossy conversions) reported while writing; as for readers. */
PROFDATA_API size_t profdata_writer_warning_count(const profdata_writer *w);
PROFDATA_API const profdata_error *profdata_writer_warning(const profdata_writer *w, size_t i);

#ifdef __cplusplus
}
#endif

#endif
