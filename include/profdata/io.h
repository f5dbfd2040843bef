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
 * profdata_writer_close(), so nothing is ever left half-written; devices and
 * FIFOs are written through), a file descriptor, a growing memory buffer, or
 * caller callbacks. Output may be gzip-compressed.
 *
 * A reader or writer is used by one thread at a time; separate handles are
 * independent. A reader over a mapped file of 128 MiB or more runs a helper
 * thread that reads ahead of the decoder; profdata_reader_free() joins it
 * (so does every call that starts one, such as
 * profdata_profile_reference_count(), before it returns).
 *
 * Mapped files and other processes: regular files are mapped read-only, and
 * a profile read from one keeps pointing into the mapping. If another
 * process truncates the file, the library notices before its next pass over
 * the mapping and fails that pass cleanly instead of letting the host take
 * SIGBUS (see profdata_reader_open_path() for the rule and its limit: a cut
 * made *during* a pass). The library installs no signal handler (a host's
 * own would be overridden); where inputs may change underneath at any
 * moment, read them through profdata_reader_open_fd() on a pipe, which
 * buffers instead of mapping. Rewriting a file in place changes what a
 * profile reads; replacing it (a new file renamed over the path, as
 * profdata_writer_close() does) is safe: the mapping keeps the old file.
 *
 * Open failures: profdata_reader_open_path() and profdata_writer_open_path()
 * still return a handle when the path cannot be opened, holding the error
 * (profdata_reader_error(), profdata_writer_error()); free it after reading
 * that. profdata_*_free(NULL) is a no-op, so one cleanup path serves all.
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
 * memory-mapped, and a profile read from one points into the mapping.
 *
 * A mapped file that shrinks: the library installs no signal handler, so
 * it cannot catch the SIGBUS that touching a page past a file's end raises.
 * Instead, before each pass over a mapping (reading it, counting a
 * profile's references), it compares the file's size with the mapping;
 * when the file shrank it puts zero pages in place of what was cut off, so
 * no later access faults, and a read then fails with PROFDATA_EIO (a
 * reference count counts what is left). A file truncated *during* a pass is
 * outside this guard: callers that cannot keep other processes from
 * truncating a file while it is read read it as a stream
 * (profdata_reader_open_fd on a pipe, or profdata_reader_open_callbacks),
 * which copies what it reads.
 *
 * On success *out is the caller's, to free with
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
 * (0.3) Call `cb(payload, "read", consumed, total)` as reading advances,
 * about every `every` bytes (0: every 64 MiB). `consumed` counts raw input
 * bytes (before gunzip, so that it compares with `total`,
 * profdata_reader_size(); 0 when unknown). A NULL `cb` turns it off.
 * `payload` is borrowed until the reader is freed or the callback replaced.
 *
 * When the callback returns non-zero, reading stops at the next record:
 * the call reading (profdata_read(), profdata_decode(), profdata_convert(),
 * profdata_histogram_read()) returns PROFDATA_STOPPED for a positive
 * value, the value itself for a negative one, and profdata_reader_error()
 * holds that code and the byte where reading stopped. The reader reads no
 * further; free it. The callback runs on the thread reading, never on the
 * reader's read-ahead thread.
 */
PROFDATA_API void profdata_reader_set_progress_cb(profdata_reader *r, profdata_progress_cb cb, void *payload,
                                                  uint64_t every);

/*
 * Deprecated (0.3): profdata_reader_set_progress_cb(), whose callback can
 * stop reading and is the heap analysis' too. Calls `fn(payload, consumed,
 * total)` as the new call would, and cannot stop.
 */
typedef void (*profdata_progress_fn)(void *payload, uint64_t consumed, uint64_t total)
	PROFDATA_DEPRECATED("use profdata_progress_cb");
PROFDATA_DEPRECATED("use profdata_reader_set_progress_cb")
PROFDATA_API void profdata_reader_set_progress(profdata_reader *r,
                                               void (*fn)(void *payload, uint64_t consumed, uint64_t total),
                                               void *payload, uint64_t every);

/* 1 when the input was gzip-compressed, else 0 (known once reading has started). */
PROFDATA_API int profdata_reader_is_gzip(const profdata_reader *r);

/*
 * The most bytes the reader held at once to hand records over: a stream
 * (gzip, pipe, callbacks) is read through a window that grows to the
 * largest record a consumer needed whole; 0 for a mapped file or memory,
 * read in place. Since 0.2.
 */
PROFDATA_API size_t profdata_reader_window_peak(const profdata_reader *r);

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
 * Write to `path` ("-" is standard output, written directly); the same as
 * profdata_writer_open_file(out, path, 0, 0666).
 */
PROFDATA_API int profdata_writer_open_path(profdata_writer **out, const char *path);

/* Replace a file that nobody may write (mode without any w bit, or not writable by us). */
#define PROFDATA_WRITER_FORCE 1u

/*
 * Write to `path`, never harming what is there until the output is whole:
 * - A regular file (or none) is written to a temporary file beside it, which
 *   profdata_writer_close() renames over it; freeing the writer without a
 *   successful close removes the temporary file
 *   (profdata_writer_temp_path() names it for a program that must remove it
 *   from a signal handler).
 * - A symbolic link is followed: the file it names is replaced, in that
 *   file's folder, and the link stays.
 * - A device or FIFO is opened and written through (no temporary file).
 * - A file being replaced keeps its permission bits (and its owner where the
 *   system lets us give it). A read-only one (no w bit, or not writable by
 *   this process) is refused unless `flags` has PROFDATA_WRITER_FORCE.
 * - A new file gets `new_mode & 0666`, less the umask: pass the input's
 *   permissions so that an output is never more readable than its source.
 * When the path cannot be written the result is PROFDATA_EIO and *out is
 * still a writer whose profdata_writer_error() explains: free it after
 * reading that. On other failures *out is NULL.
 */
PROFDATA_API int profdata_writer_open_file(profdata_writer **out, const char *path, unsigned flags,
                                           unsigned new_mode);

/*
 * The temporary file a path writer is filling, or NULL (not a path writer, a
 * device or FIFO, or closed). Borrowed: valid until profdata_writer_close()
 * or profdata_writer_free(); copy it to use it from a signal handler.
 */
PROFDATA_API const char *profdata_writer_temp_path(const profdata_writer *w);

/* Write to descriptor `fd`; the caller keeps owning it. `name` is copied. */
PROFDATA_API int profdata_writer_open_fd(profdata_writer **out, int fd, const char *name);

/* Write into a growing memory buffer; see profdata_writer_memory(). */
PROFDATA_API int profdata_writer_open_memory(profdata_writer **out);

/* Write through `fn(payload, ...)`. `payload` is borrowed. */
PROFDATA_API int profdata_writer_open_callbacks(profdata_writer **out, profdata_write_fn fn,
                                                void *payload, const char *name);

/*
 * Compress what is written from now on with gzip at `level` (1-9; 0 turns it
 * off). Call before anything is written; PROFDATA_EINVAL otherwise. The
 * output is one gzip member, compressed in 1 MiB blocks two at a time (the
 * second on a helper thread, joined before each write returns when there
 * are two processors): the same bytes for the same input however it is
 * written.
 */
PROFDATA_API int profdata_writer_set_gzip(profdata_writer *w, int level);

/*
 * (0.3) Write `len` bytes of the caller's own (a report, a header before an
 * encoder's output) as they are, through the writer's compression and its
 * temporary file. Returns 0, or an error code kept on the writer, after
 * which the writer only closes (which fails) and frees.
 */
PROFDATA_API int profdata_writer_write(profdata_writer *w, const void *data, size_t len);

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
