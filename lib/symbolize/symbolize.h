/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Naming native program counters from the binaries on disk: the ELF symbol
 * tables and, where present, DWARF line tables and inlined-call scopes.
 * Built on elfutils' libdwfl (doc/design.md says why); only compiled when
 * the `symbolize` feature found libdw (PD_HAVE_SYMBOLIZE).
 *
 * One symbolizer serves one profile: mappings are added first, then
 * addresses are looked up. Not thread-safe; separate symbolizers are
 * independent.
 */
#ifndef PD_SYMBOLIZE_H
#define PD_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

typedef struct pd_symbolizer pd_symbolizer;

/* What a profile recorded of a mapped file (recorded.c). */
typedef struct pd_recorded_file {
	uint64_t offset;     /* the mapping's file offset */
	uint64_t inode;      /* 0 unknown */
	const char *device;  /* "08:01" (hex major:minor); NULL or "" unknown */
	int same_machine;    /* compare inode and device: no sysroot, no build id to judge by */
} pd_recorded_file;

/*
 * Whether the file at `full_path` may be the one recorded, from stat()
 * alone: 0 when it may, 1 when it cannot (missing, not a regular file,
 * shorter than the offset, or, with same_machine, another inode or device),
 * `why` (at most `cap` bytes) then saying so in words. Reads no byte of it.
 */
int pd_symbolize_recorded_file(const char *full_path, const pd_recorded_file *rec, char *why, size_t cap);

/* One source-level frame of an address. Strings are borrowed from the symbolizer until its next lookup. */
typedef struct pd_symbol_frame {
	const char *name;        /* the source name (DWARF), else the ELF symbol */
	const char *system_name; /* the linkage name (ELF symbol, DW_AT_linkage_name), else `name` */
	const char *file;        /* source file; NULL unknown */
	int32_t line;            /* 0 unknown */
} pd_symbol_frame;

/*
 * `sysroot` (NULL none) is put in front of every mapping's path and of
 * /usr/lib/debug; `debug_dir` (NULL none) is searched for separate debug
 * files first (by build id, .build-id/xx/yyyy.debug, and by debug link).
 * 0 or PROFDATA_ENOMEM.
 */
int pd_symbolizer_new(pd_symbolizer **out, const char *sysroot, const char *debug_dir);
void pd_symbolizer_free(pd_symbolizer *s);

/*
 * Use the binary at `path` for the executable mapping [start, limit) of file
 * offset `offset`. `build_id` (hex, NULL unknown) is what the profile says
 * the file was. Returns 0 when the binary is used, 1 when it cannot be (*why
 * says why, a static string), or PROFDATA_ENOMEM. When used, *build_id_hex
 * (NUL-terminated, at most `hex_cap` bytes) gets the file's build id, or ""
 * when it has none.
 */
int pd_symbolizer_add(pd_symbolizer *s, const char *path, uint64_t start, uint64_t limit, uint64_t offset,
                      const char *build_id, const char **why, char *build_id_hex, size_t hex_cap);

/*
 * The frames at `addr` (the address to look up: a return address minus one
 * for callers), innermost inlined function first and the function the code
 * belongs to last. Returns how many (0 when nothing names it); *frames is
 * valid until the next call.
 */
size_t pd_symbolizer_lookup(pd_symbolizer *s, uint64_t addr, const pd_symbol_frame **frames);

#endif
