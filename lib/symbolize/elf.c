/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The symbolizer (symbolize.h) on elfutils: libelf reads the program headers
 * and build id we check a mapping against, libdwfl places each binary at the
 * address the profiled process had it and finds separate debug files the
 * way gdb does, libdw walks the scopes for inlined calls.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"
#include "util/hashmap.h"
#include "util/text.h"
#include "symbolize/symbolize.h"

/* Deep enough for any real inlining chain; deeper ones keep their innermost frames. */
#define MAX_INLINE 64
/* Kernels map segments in pages of at most this size (arm64 and ppc64 use 64 KiB). */
#define MAX_PAGE 65536

struct pd_symbolizer {
	Dwfl *dwfl;
	Dwfl_Callbacks callbacks; /* libdwfl keeps a pointer to it */
	char *debuginfo_path;
	char *sysroot;
	int reported;             /* dwfl_report_end was called */
	pd_symbol_frame frames[MAX_INLINE];
	pd_intern symbols;        /* symbol names without their version, for frames to point into */
	const char *symbol;
	pd_map unit_of_cu;        /* a compile unit's DIE address -> units index + 1 */
	struct unit_functions *units;
	size_t nunits, units_cap;
};

/* Where a function's code is. */
typedef struct function_range {
	Dwarf_Addr low, high;
	Dwarf_Die die;
} function_range;

/* A compile unit's functions by address, made at its first lookup. */
typedef struct unit_functions {
	function_range *v;
	size_t n, cap;
} unit_functions;

int pd_symbolizer_new(pd_symbolizer **out, const char *sysroot, const char *debug_dir)
{
	pd_symbolizer *s = calloc(1, sizeof *s);
	size_t n = 64 + (sysroot ? strlen(sysroot) : 0) + (debug_dir ? strlen(debug_dir) : 0);
	*out = NULL;
	if (!s || !(s->debuginfo_path = malloc(n)) || (sysroot && !(s->sysroot = pd_strdup(sysroot)))) {
		pd_symbolizer_free(s);
		return PROFDATA_ENOMEM;
	}
	/* '-': a debug link's CRC is not checked, as gdb accepts a matching build id without one. */
	/* The binary's own directory (the empty entry), debug_dir, .debug/ beside it, then /usr/lib/debug. */
	snprintf(s->debuginfo_path, n, "-%s%s:.debug:%s/usr/lib/debug%s", debug_dir ? ":" : "", debug_dir ? debug_dir : "",
	         sysroot ? sysroot : "", sysroot ? ":/usr/lib/debug" : "");
	s->callbacks.find_elf = dwfl_build_id_find_elf;
	s->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
	s->callbacks.debuginfo_path = &s->debuginfo_path;
	s->dwfl = dwfl_begin(&s->callbacks);
	if (!s->dwfl) {
		pd_symbolizer_free(s);
		return PROFDATA_ENOMEM;
	}
	dwfl_report_begin(s->dwfl);
	*out = s;
	return 0;
}

void pd_symbolizer_free(pd_symbolizer *s)
{
	if (!s)
		return;
	if (s->dwfl)
		dwfl_end(s->dwfl);
	free(s->debuginfo_path);
	free(s->sysroot);
	pd_intern_free(&s->symbols);
	pd_map_free(&s->unit_of_cu);
	for (size_t i = 0; i < s->nunits; i++)
		free(s->units[i].v);
	free(s->units);
	free(s);
}

static void hex_of(const unsigned char *p, int n, char *out, size_t cap)
{
	size_t k = 0;
	for (int i = 0; i < n && k + 2 < cap; i++, k += 2)
		snprintf(out + k, 3, "%02x", p[i]);
	out[k] = '\0';
}

/*
 * The load bias that puts file offset `offset` at `start`, from the PT_LOAD
 * segment holding that offset, and whether [start, limit) is what that
 * segment would have been mapped as: a binary rebuilt since the profile
 * was taken rarely has a text segment of the same size.
 */
static const char *place(Elf *elf, uint64_t start, uint64_t limit, uint64_t offset, GElf_Addr *bias)
{
	size_t nph;
	if (elf_getphdrnum(elf, &nph) != 0)
		return "it has no program headers";
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		uint64_t page_off = ph.p_offset & ~(uint64_t)(MAX_PAGE - 1);
		if (offset < page_off || offset >= ph.p_offset + ph.p_filesz)
			continue;
		*bias = start - (ph.p_vaddr - ph.p_offset + offset);
		uint64_t end = *bias + ph.p_vaddr + ph.p_filesz;
		if (limit < end || limit - end >= MAX_PAGE)
			return "its executable segment is not the size mapped (was it rebuilt since the profile was taken?)";
		return NULL;
	}
	return "no executable segment of it is at the mapped file offset (was it rebuilt since the profile was taken?)";
}

/* Check the file against the mapping; NULL and *bias when it fits, else why not. */
static const char *check_file(Elf *elf, uint64_t start, uint64_t limit, uint64_t offset, const char *build_id,
                              char *hex, size_t hex_cap, GElf_Addr *bias)
{
	GElf_Ehdr eh;
	const void *id;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return "it is not an ELF file";
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return "it is neither an executable nor a shared object";
	int n = dwelf_elf_gnu_build_id(elf, &id);
	hex[0] = '\0';
	if (n > 0)
		hex_of(id, n, hex, hex_cap);
	if (build_id && build_id[0] && strcasecmp(build_id, hex) != 0)
		return "its build id is not the one the profile names (it was replaced since)";
	const char *why = place(elf, start, limit, offset, bias);
	if (!why && eh.e_type == ET_EXEC && *bias != 0)
		return "it is a fixed-address executable mapped elsewhere (was it rebuilt since the profile was taken?)";
	return why;
}

int pd_symbolizer_add(pd_symbolizer *s, const char *path, uint64_t start, uint64_t limit, uint64_t offset,
                      const char *build_id, const char **why, char *build_id_hex, size_t hex_cap)
{
	pd_strbuf full = { 0, 0, 0 };
	if ((s->sysroot && pd_strbuf_add(&full, s->sysroot, strlen(s->sysroot))) || pd_strbuf_add(&full, path, strlen(path)))
		return free(full.p), PROFDATA_ENOMEM;
	/* Non-blocking: a profile's maps may name a FIFO or a device, which is no binary and must not hang us. */
	int fd = open(full.p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat sb;
	*why = NULL;
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		if (fd >= 0)
			close(fd);
		free(full.p);
		*why = fd < 0 ? "it cannot be opened" : "it is not a regular file";
		return 1;
	}
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Addr bias = 0;
	GElf_Ehdr eh;
	*why = elf ? check_file(elf, start, limit, offset, build_id, build_id_hex, hex_cap, &bias) : "it is not an ELF file";
	int dyn = elf && gelf_getehdr(elf, &eh) && eh.e_type == ET_DYN;
	if (elf)
		elf_end(elf);
	/* libdwfl takes the descriptor over, and keeps it open for DWARF it reads lazily. */
	if (!*why && !dwfl_report_elf(s->dwfl, path, full.p, fd, dyn ? bias : 0, dyn != 0))
		*why = "libdwfl refused it (does it overlap another mapping?)";
	else if (!*why)
		fd = -1;
	if (fd >= 0)
		close(fd);
	free(full.p);
	return *why ? 1 : 0;
}

static const char *die_text(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute attr;
	return dwarf_attr_integrate(die, name, &attr) ? dwarf_formstring(&attr) : NULL;
}

static const char *call_file(Dwarf_Die *cu, Dwarf_Die *inlined)
{
	Dwarf_Attribute attr;
	Dwarf_Word index;
	Dwarf_Files *files;
	size_t n;
	if (!dwarf_attr(inlined, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &index) != 0 ||
	    dwarf_getsrcfiles(cu, &files, &n) != 0 || index >= n)
		return NULL;
	return dwarf_filesrc(files, index, NULL, NULL);
}

/*
 * The function scopes holding pc below `parent`, outermost first, into
 * path[depth...]: the function, then each inlined call down to the
 * innermost. Lexical blocks are gone through; C++ namespaces and classes
 * are searched for the functions they define. One walk down the tree: what
 * dwarf_getscopes does for this visits every DIE of the unit, several times
 * over for inlined code, and was most of the time symbolization took.
 */
static int scope_path(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *path, int depth)
{
	Dwarf_Die child;
	if (dwarf_child(parent, &child) != 0)
		return depth;
	do {
		int tag = dwarf_tag(&child), found;
		switch (tag) {
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_module:
			if (depth == 0 && (found = scope_path(&child, pc, path, 0)) > 0)
				return found;
			break;
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, pc) != 1)
				break;
			if (tag != DW_TAG_lexical_block && depth < MAX_INLINE)
				path[depth++] = child;
			return scope_path(&child, pc, path, depth);
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return depth;
}

/* Every range of every function defined below `parent` (through namespaces and classes). */
static int collect_functions(Dwarf_Die *parent, unit_functions *u)
{
	Dwarf_Die child;
	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
		    tag == DW_TAG_union_type || tag == DW_TAG_module) {
			if (collect_functions(&child, u) < 0)
				return PROFDATA_ENOMEM;
			continue;
		}
		if (tag != DW_TAG_subprogram)
			continue;
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;
		while ((off = dwarf_ranges(&child, off, &base, &start, &end)) > 0) {
			if (pd_grow((void **)&u->v, &u->cap, u->n + 1, sizeof *u->v) < 0)
				return PROFDATA_ENOMEM;
			u->v[u->n].low = start;
			u->v[u->n].high = end;
			u->v[u->n++].die = child;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int by_low(const void *a, const void *b)
{
	const function_range *x = a, *y = b;
	return x->low < y->low ? -1 : x->low > y->low;
}

/* The functions of compile unit `cu`, listed at the first call; NULL when out of memory. */
static const unit_functions *unit_of(pd_symbolizer *s, Dwarf_Die *cu)
{
	uint64_t key = (uint64_t)(uintptr_t)cu->addr;
	uint32_t k = pd_map_get(&s->unit_of_cu, key);
	if (k)
		return &s->units[k - 1];
	if (s->nunits >= UINT32_MAX - 1 || pd_grow((void **)&s->units, &s->units_cap, s->nunits + 1, sizeof *s->units) < 0)
		return NULL;
	unit_functions *u = &s->units[s->nunits];
	memset(u, 0, sizeof *u);
	if (collect_functions(cu, u) < 0 || pd_map_put(&s->unit_of_cu, key, (uint32_t)s->nunits + 1) < 0) {
		free(u->v);
		return NULL;
	}
	s->nunits++;
	qsort(u->v, u->n, sizeof *u->v, by_low);
	return u;
}

/* The scopes at pc in cu (scope_path), starting from the function found by address. */
static int scopes_at(pd_symbolizer *s, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *path)
{
	const unit_functions *u = unit_of(s, cu);
	size_t lo = 0, hi = u ? u->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (u->v[mid].low <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && pc < u->v[lo - 1].high) {
		path[0] = u->v[lo - 1].die;
		return scope_path(&path[0], pc, path, 1);
	}
	return scope_path(cu, pc, path, 0);
}

/*
 * The DWARF frames at addr: the innermost function at the line the line
 * table gives, then each function an inlined call sits in, at the call's
 * line.
 */
static size_t dwarf_frames(pd_symbolizer *s, Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias), path[MAX_INLINE];
	int depth = cu ? scopes_at(s, cu, addr - bias, path) : 0;
	Dwfl_Line *src = dwfl_module_getsrc(mod, addr);
	int line = 0;
	const char *file = src ? dwfl_lineinfo(src, NULL, &line, NULL, NULL, NULL) : NULL;
	size_t n = 0;
	for (int i = depth - 1; i >= 0; i--) {
		pd_symbol_frame *f = &s->frames[n++];
		f->name = die_text(&path[i], DW_AT_name);
		f->system_name = die_text(&path[i], DW_AT_linkage_name);
		f->file = file;
		f->line = line;
		if (dwarf_tag(&path[i]) != DW_TAG_inlined_subroutine)
			break;
		Dwarf_Attribute attr;
		Dwarf_Word call_line = 0;
		if (dwarf_attr(&path[i], DW_AT_call_line, &attr))
			dwarf_formudata(&attr, &call_line);
		line = (int)call_line;
		file = call_file(cu, &path[i]);
	}
	if (n == 0 && file) {
		s->frames[0].name = s->frames[0].system_name = NULL;
		s->frames[0].file = file;
		s->frames[0].line = line;
		n = 1;
	}
	return n;
}

/* `symbol` without "@VERSION" or "@@VERSION"; NULL when out of memory. */
static const char *unversioned(pd_symbolizer *s, const char *symbol)
{
	const char *at = strchr(symbol, '@');
	uint32_t index;
	if (!at || at == symbol)
		return symbol;
	if (pd_intern_put(&s->symbols, symbol, (size_t)(at - symbol), &index) < 0)
		return NULL;
	return pd_intern_str(&s->symbols, index, NULL);
}

size_t pd_symbolizer_lookup(pd_symbolizer *s, uint64_t addr, const pd_symbol_frame **frames)
{
	if (!s->reported) {
		dwfl_report_end(s->dwfl, NULL, NULL);
		s->reported = 1;
	}
	*frames = s->frames;
	Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, addr);
	if (!mod)
		return 0;
	GElf_Off off;
	GElf_Sym sym;
	const char *symbol = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	size_t n = dwarf_frames(s, mod, addr);
	if (n == 0 && !symbol)
		return 0;
	if (n == 0) {
		s->frames[0].name = NULL;
		s->frames[0].file = NULL;
		s->frames[0].line = 0;
		n = 1;
	}
	/*
	 * The function the code belongs to: its DWARF name, or the symbol's when
	 * that is a clone of it (sum.constprop.0, f.cold), as google-pprof shows
	 * them; a symbol's version (memcpy@@GLIBC_2.14) is not part of a name.
	 */
	pd_symbol_frame *outer = &s->frames[n - 1];
	if (symbol && (s->symbol = unversioned(s, symbol)) != NULL) {
		size_t len = outer->name ? strlen(outer->name) : 0;
		if (!outer->name || (strncmp(s->symbol, outer->name, len) == 0 && s->symbol[len] == '.'))
			outer->name = s->symbol;
		outer->system_name = s->symbol;
	}
	for (size_t i = 0; i < n; i++) {
		pd_symbol_frame *f = &s->frames[i];
		if (!f->name)
			f->name = f->system_name;
		if (!f->system_name)
			f->system_name = f->name;
	}
	return n;
}
