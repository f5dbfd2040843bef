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
};

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
	snprintf(s->debuginfo_path, n, "-%s%s:.debug:%s%s/usr/lib/debug", debug_dir ? ":" : "",
	         debug_dir ? debug_dir : "", sysroot ? sysroot : "", sysroot ? ":" : "");
	if (sysroot)
		strncat(s->debuginfo_path, ":/usr/lib/debug", n - strlen(s->debuginfo_path) - 1);
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
	int fd = open(full.p, O_RDONLY | O_CLOEXEC);
	*why = NULL;
	if (fd < 0) {
		free(full.p);
		*why = "it cannot be opened";
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
	else if (*why)
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

/* The innermost function scope at pc (an inlined call or a function), into *out; 0 when there is none. */
static int innermost_function(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, pc, &scopes), found = 0;
	for (int i = 0; i < n && !found; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram) {
			*out = scopes[i];
			found = 1;
		}
	}
	free(scopes);
	return found;
}

/*
 * The DWARF frames at addr: the innermost function at the line the line
 * table gives, then each function an inlined call sits in, at the call's
 * line. dwarf_getscopes follows an inlined call into its abstract
 * definition; the calls' callers are the DIEs around it, which
 * dwarf_getscopes_die gives.
 */
static size_t dwarf_frames(pd_symbolizer *s, Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias), *scopes = NULL, inner;
	int nscopes = cu && innermost_function(cu, addr - bias, &inner) ? dwarf_getscopes_die(&inner, &scopes) : 0;
	Dwfl_Line *src = dwfl_module_getsrc(mod, addr);
	int line = 0;
	const char *file = src ? dwfl_lineinfo(src, NULL, &line, NULL, NULL, NULL) : NULL;
	size_t n = 0;
	for (int i = 0; i < nscopes && n < MAX_INLINE; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		pd_symbol_frame *f = &s->frames[n++];
		f->name = die_text(&scopes[i], DW_AT_name);
		f->system_name = die_text(&scopes[i], DW_AT_linkage_name);
		f->file = file;
		f->line = line;
		if (tag == DW_TAG_subprogram)
			break;
		Dwarf_Attribute attr;
		Dwarf_Word call_line = 0;
		if (dwarf_attr(&scopes[i], DW_AT_call_line, &attr))
			dwarf_formudata(&attr, &call_line);
		line = (int)call_line;
		file = call_file(cu, &scopes[i]);
	}
	free(scopes);
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
