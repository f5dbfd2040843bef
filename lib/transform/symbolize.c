/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The symbolize transform: native frames get functions, source files, lines
 * and the frames of inlined calls, from the binaries the profile's mappings
 * name (lib/symbolize/).
 *
 * A gperftools profile gives its maps only after the records, so frames,
 * stacks and samples are held until `end`, then passed on named: mappings
 * (with the build ids found), strings and functions, frames (each inlined
 * call an extra frame without an address, innermost first, in front of the
 * frame with the PC), stacks listing those extra frames, samples. PCs stay as
 * read; callers' PCs, which are return addresses, are looked up at PC - 1,
 * as pprof does. A mapping whose binary cannot be used gets one warning and
 * its frames stay addresses.
 *
 * When the mappings come first (the gperftools decoder reads a whole file's
 * maps before its records), each file is first checked against what the
 * profile recorded of it (pd_symbolize_recorded_file: stat() only); when
 * none can be the recorded one (a profile from another machine), nothing
 * is held: events pass straight on, and symbolizing costs nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util/text.h"
#include "symbolize/symbolize.h"
#include "transform/transform.h"
#include "util/hashmap.h"

typedef struct held_frame {
	profdata_frame f;
	int caller;            /* listed below the leaf of some stack: its PC is a return address */
	uint64_t first_extra;  /* id of its first inlined-call frame */
	uint32_t nextra;
} held_frame;

typedef struct held_stack {
	profdata_stack s;
	size_t off;            /* into frame_ids */
} held_stack;

/* Small: a profile has a sample per record, hundreds of thousands of them. */
typedef struct held_sample {
	uint32_t stack_serial, thread_serial;
	uint64_t time_ns;
	uint32_t nvalues;
	size_t off;            /* into values */
} held_sample;

typedef struct held_mapping {
	profdata_mapping m;
	int used;              /* some frame's PC is in it */
	int usable;            /* its binary is open in the symbolizer */
	char why[160];         /* passing on: why its file is not the recorded one ("" a mapping of no file) */
} held_mapping;

typedef struct symbolize_state {
	pd_transform_base base; /* first: the pass-through events find it there */
	char *sysroot, *debug_dir;

	pd_intern texts;        /* strings seen, for mapping paths and build ids */
	pd_map text_of_id;      /* string id -> texts index + 1 */
	uint64_t max_string_id, max_function_id, max_frame_id;

	held_frame *frames;
	size_t nframes, frames_cap;
	pd_map frame_of_id;     /* frame id -> index + 1 */
	held_stack *stacks;
	size_t nstacks, stacks_cap;
	uint64_t *frame_ids;
	size_t nframe_ids, frame_ids_cap;
	held_sample *samples;
	size_t nsamples, samples_cap;
	int64_t *values;
	size_t nvalues, values_cap;
	held_mapping *mappings;
	size_t nmappings, mappings_cap;

	pd_intern names;        /* names and files passed on: string id = max_string_id + index + 1 */
	size_t names_emitted;
	pd_intern functions;    /* "name\0system\0file": function id = max_function_id + index + 1 */
	size_t functions_emitted;
	uint64_t next_extra_id;
	int decided;            /* the first frame, stack or sample came */
	int passing;            /* no mapping's file is the recorded one: events pass straight on */
	uint32_t *by_start;     /* passing on: mappings of files (index) by start address */
	size_t nby_start;
} symbolize_state;

/* Whether events can pass straight on, asked at the first frame, stack or sample (below). */
static int decide(symbolize_state *st);
static uint32_t mark_used(symbolize_state *st, uint64_t addr);

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	symbolize_state *st = payload;
	uint32_t index;
	int rc = pd_intern_put(&st->texts, utf8, len, &index);
	if (rc < 0 || (rc = pd_map_put(&st->text_of_id, id, index + 1)) < 0)
		return rc;
	if (id > st->max_string_id)
		st->max_string_id = id;
	return PD_DOWN(st, string, id, utf8, len);
}

static int on_function(void *payload, const profdata_function *f)
{
	symbolize_state *st = payload;
	if (f->id > st->max_function_id)
		st->max_function_id = f->id;
	return PD_DOWN(st, function, f);
}

static int on_frame(void *payload, const profdata_frame *f)
{
	symbolize_state *st = payload;
	int rc = st->decided ? 0 : decide(st);
	if (rc < 0)
		return rc;
	if (st->passing) {
		/* As when frames are held: an unnamed frame points at the mapping of its PC. */
		profdata_frame out = *f;
		if (f->has_address && !f->function_id)
			out.mapping = mark_used(st, f->address);
		return PD_DOWN(st, frame, &out);
	}
	if (pd_grow((void **)&st->frames, &st->frames_cap, st->nframes + 1, sizeof *st->frames) < 0 ||
	    st->nframes >= UINT32_MAX - 1 || pd_map_put(&st->frame_of_id, f->id, (uint32_t)st->nframes + 1) < 0)
		return PROFDATA_ENOMEM;
	memset(&st->frames[st->nframes], 0, sizeof *st->frames);
	st->frames[st->nframes++].f = *f;
	if (f->id > st->max_frame_id)
		st->max_frame_id = f->id;
	return 0;
}

static int on_stack(void *payload, const profdata_stack *s)
{
	symbolize_state *st = payload;
	int rc = st->decided ? 0 : decide(st);
	if (rc < 0 || st->passing)
		return rc < 0 ? rc : PD_DOWN(st, stack, s);
	if (pd_grow((void **)&st->stacks, &st->stacks_cap, st->nstacks + 1, sizeof *st->stacks) < 0 ||
	    pd_grow((void **)&st->frame_ids, &st->frame_ids_cap, st->nframe_ids + s->nframes, sizeof *st->frame_ids) < 0)
		return PROFDATA_ENOMEM;
	held_stack *h = &st->stacks[st->nstacks++];
	h->s = *s;
	h->off = st->nframe_ids;
	if (s->nframes)
		memcpy(st->frame_ids + st->nframe_ids, s->frame_ids, s->nframes * sizeof *s->frame_ids);
	st->nframe_ids += s->nframes;
	for (size_t i = 1; i < s->nframes; i++) {
		uint32_t k = pd_map_get(&st->frame_of_id, s->frame_ids[i]);
		if (k)
			st->frames[k - 1].caller = 1;
	}
	return 0;
}

static int on_sample(void *payload, const profdata_sample *s)
{
	symbolize_state *st = payload;
	int rc = st->decided ? 0 : decide(st);
	if (rc < 0 || st->passing)
		return rc < 0 ? rc : PD_DOWN(st, sample, s);
	if (pd_grow((void **)&st->samples, &st->samples_cap, st->nsamples + 1, sizeof *st->samples) < 0 ||
	    pd_grow((void **)&st->values, &st->values_cap, st->nvalues + s->nvalues, sizeof *st->values) < 0)
		return PROFDATA_ENOMEM;
	if (s->nvalues > UINT32_MAX)
		return PROFDATA_ELIMIT;
	held_sample *h = &st->samples[st->nsamples++];
	h->stack_serial = s->stack_serial;
	h->thread_serial = s->thread_serial;
	h->time_ns = s->time_ns;
	h->nvalues = (uint32_t)s->nvalues;
	h->off = st->nvalues;
	if (s->nvalues)
		memcpy(st->values + st->nvalues, s->values, s->nvalues * sizeof *s->values);
	st->nvalues += s->nvalues;
	return 0;
}

static int on_mapping(void *payload, const profdata_mapping *m)
{
	symbolize_state *st = payload;
	if (st->passing)
		return PD_DOWN(st, mapping, m);
	if (pd_grow((void **)&st->mappings, &st->mappings_cap, st->nmappings + 1, sizeof *st->mappings) < 0)
		return PROFDATA_ENOMEM;
	memset(&st->mappings[st->nmappings], 0, sizeof *st->mappings);
	st->mappings[st->nmappings++].m = *m;
	return 0;
}

static const char *text_of(const symbolize_state *st, uint64_t id)
{
	uint32_t k = id ? pd_map_get(&st->text_of_id, id) : 0;
	return k ? pd_intern_str(&st->texts, k - 1, NULL) : NULL;
}

/* The mapping (index + 1) holding addr: executable ones first, as a PC is code; 0 none. */
static uint32_t mapping_of(const symbolize_state *st, uint64_t addr)
{
	uint32_t any = 0;
	for (size_t i = 0; i < st->nmappings; i++) {
		const profdata_mapping *m = &st->mappings[i].m;
		if (addr < m->start || addr >= m->limit)
			continue;
		if (!m->perms[0] || strchr(m->perms, 'x'))
			return (uint32_t)i + 1;
		if (!any)
			any = (uint32_t)i + 1;
	}
	return any;
}

/* The string id of s (emitted at first use); 0 for NULL. */
static int name_id(symbolize_state *st, const char *s, uint64_t *id)
{
	uint32_t index;
	*id = 0;
	if (!s || !*s)
		return 0;
	int rc = pd_intern_put(&st->names, s, strlen(s), &index);
	if (rc < 0)
		return rc;
	*id = st->max_string_id + index + 1;
	for (; st->names_emitted <= index; st->names_emitted++) {
		size_t len;
		const char *t = pd_intern_str(&st->names, (uint32_t)st->names_emitted, &len);
		if (st->base.down->string &&
		    (rc = st->base.down->string(st->base.down_payload, st->max_string_id + st->names_emitted + 1, t, len)) != 0)
			return rc;
	}
	return 0;
}

/* Whether mapping hm's file (under the sysroot) may be the one the profile recorded: 0, or 1 with `why`. */
static int recorded_mismatch(const symbolize_state *st, const held_mapping *hm, const char *path, char *why,
                             size_t cap)
{
	pd_strbuf full = { 0, 0, 0 };
	const char *build_id = text_of(st, hm->m.build_id);
	pd_recorded_file rec = { hm->m.offset, hm->m.inode, hm->m.device, !st->sysroot && !(build_id && *build_id) };
	if ((st->sysroot && pd_strbuf_add(&full, st->sysroot, strlen(st->sysroot))) ||
	    pd_strbuf_add(&full, path, strlen(path) + 1))
		return free(full.p), PROFDATA_ENOMEM;
	int rc = pd_symbolize_recorded_file(full.p, &rec, why, cap);
	free(full.p);
	return rc;
}

static void warn_unusable(const symbolize_state *st, const held_mapping *hm, const char *path, const char *why)
{
	pd_diag_warn(st->base.diag, PROFDATA_ENOTFOUND, PD_NO_OFFSET, 0, "symbolize: %s (0x%llx-0x%llx) left as addresses: %s",
	             path, (unsigned long long)hm->m.start, (unsigned long long)hm->m.limit, why);
}

/* Mapping i's file cannot be the recorded one: 1 (hm->why says why), 0 it may be, or an error. */
static int cannot_be_recorded(symbolize_state *st, held_mapping *hm)
{
	const char *path = text_of(st, hm->m.path_id);
	hm->why[0] = '\0';
	if (!path || path[0] != '/')
		return 1; /* no file: nothing to name it from, nothing to say */
	if (hm->m.perms[0] && !strchr(hm->m.perms, 'x')) {
		snprintf(hm->why, sizeof hm->why, "the mapping is not executable");
		return 1;
	}
	return recorded_mismatch(st, hm, path, hm->why, sizeof hm->why);
}

static int decide(symbolize_state *st)
{
	st->decided = 1;
	if (!st->nmappings || st->nframes || st->nstacks || st->nsamples)
		return 0;
	for (size_t i = 0; i < st->nmappings; i++) {
		int rc = cannot_be_recorded(st, &st->mappings[i]);
		if (rc <= 0)
			return rc;
	}
	st->by_start = malloc(st->nmappings * sizeof *st->by_start);
	if (!st->by_start)
		return PROFDATA_ENOMEM;
	/* Insertion by start: maps lists are short and nearly sorted already. */
	for (size_t i = 0; i < st->nmappings; i++) {
		size_t k = st->nby_start++;
		for (; k > 0 && st->mappings[st->by_start[k - 1]].m.start > st->mappings[i].m.start; k--)
			st->by_start[k] = st->by_start[k - 1];
		st->by_start[k] = (uint32_t)i;
	}
	st->passing = 1;
	int rc = 0;
	for (size_t i = 0; i < st->nmappings && rc == 0; i++)
		rc = PD_DOWN(st, mapping, &st->mappings[i].m);
	return rc;
}

/*
 * The mapping holding addr (index + 1, 0 none), marked used: mapping_of()'s
 * answer, found by binary search over the starts when the mapping there is
 * executable (mappings of code do not overlap), else by mapping_of().
 */
static uint32_t mark_used(symbolize_state *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nby_start;
	uint32_t k = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->mappings[st->by_start[mid]].m.start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		const profdata_mapping *m = &st->mappings[st->by_start[lo - 1]].m;
		if (addr < m->limit && (!m->perms[0] || strchr(m->perms, 'x')))
			k = st->by_start[lo - 1] + 1;
	}
	if (!k)
		k = mapping_of(st, addr);
	if (k)
		st->mappings[k - 1].used = 1;
	return k;
}

/* Passing on: each used mapping whose file is not the recorded one said once, then the end. */
static int end_passing(symbolize_state *st)
{
	for (size_t i = 0; i < st->nmappings; i++) {
		const held_mapping *hm = &st->mappings[i];
		if (hm->used && hm->why[0])
			warn_unusable(st, hm, text_of(st, hm->m.path_id), hm->why);
	}
	return PD_DOWN0(st, end);
}

/* Open the binary of every mapping a frame's PC is in; one warning for each that cannot be used. */
static int open_binaries(symbolize_state *st, pd_symbolizer *sym)
{
	for (size_t i = 0; i < st->nframes; i++) {
		held_frame *h = &st->frames[i];
		if (h->f.has_address && !h->f.function_id && (h->f.mapping = mapping_of(st, h->f.address)) != 0)
			st->mappings[h->f.mapping - 1].used = 1;
	}
	for (size_t i = 0; i < st->nmappings; i++) {
		held_mapping *hm = &st->mappings[i];
		const char *path = text_of(st, hm->m.path_id), *why = NULL;
		char hex[130];
		if (!hm->used)
			continue;
		/* [vdso], [heap], anonymous memory (JIT code): no file to read, nothing to say. */
		if (!path || path[0] != '/')
			continue;
		if (hm->m.perms[0] && !strchr(hm->m.perms, 'x'))
			why = "the mapping is not executable";
		int rc = why ? 1 : recorded_mismatch(st, hm, path, hm->why, sizeof hm->why);
		if (rc > 0 && !why)
			why = hm->why;
		if (rc == 0)
			rc = pd_symbolizer_add(sym, path, hm->m.start, hm->m.limit, hm->m.offset, text_of(st, hm->m.build_id),
			                       &why, hex, sizeof hex);
		if (rc < 0)
			return rc;
		if (rc > 0) {
			warn_unusable(st, hm, path, why);
			continue;
		}
		hm->usable = 1;
		if (hex[0] && !hm->m.build_id && (rc = name_id(st, hex, &hm->m.build_id)) != 0)
			return rc;
	}
	return 0;
}

/* The function id of a symbolized frame (emitted at first use); 0 when it has no name. */
static int function_id(symbolize_state *st, const pd_symbol_frame *sf, uint64_t *id)
{
	profdata_function f;
	pd_strbuf key = { 0, 0, 0 };
	uint32_t index;
	int rc;
	*id = 0;
	if (!sf->name)
		return 0;
	memset(&f, 0, sizeof f);
	/* The system name is not the signature: in the model a signature follows the name (JVM descriptors). */
	if ((rc = name_id(st, sf->name, &f.name_id)) != 0 || (rc = name_id(st, sf->file, &f.source_file_id)) != 0)
		return rc;
	if (pd_strbuf_add(&key, sf->name, strlen(sf->name) + 1) ||
	    pd_strbuf_add(&key, sf->system_name, strlen(sf->system_name) + 1) ||
	    (sf->file && pd_strbuf_add(&key, sf->file, strlen(sf->file))))
		rc = PROFDATA_ENOMEM;
	else
		rc = pd_intern_put(&st->functions, key.p, key.n, &index);
	free(key.p);
	if (rc < 0)
		return rc;
	f.id = *id = st->max_function_id + index + 1;
	if (index < st->functions_emitted)
		return 0;
	st->functions_emitted = index + 1;
	return PD_DOWN(st, function, &f);
}

/* Name frame h: its own frame gets the outermost function, extra frames the inlined calls. */
static int name_frame(symbolize_state *st, pd_symbolizer *sym, held_frame *h)
{
	const pd_symbol_frame *sf;
	uint64_t addr = h->caller && h->f.address ? h->f.address - 1 : h->f.address;
	size_t n = pd_symbolizer_lookup(sym, addr, &sf);
	int rc;
	if (n == 0)
		return 0;
	if ((rc = function_id(st, &sf[n - 1], &h->f.function_id)) != 0)
		return rc;
	h->f.line = sf[n - 1].line;
	h->first_extra = st->next_extra_id;
	for (size_t i = 0; i + 1 < n; i++) {
		profdata_frame x;
		memset(&x, 0, sizeof x);
		/* No address (the PC is the frame's below), but the mapping: an inlined call, not a JVM frame. */
		x.id = st->next_extra_id++;
		x.mapping = h->f.mapping;
		x.line = sf[i].line;
		if ((rc = function_id(st, &sf[i], &x.function_id)) != 0 ||
		    (st->base.down->frame && (rc = st->base.down->frame(st->base.down_payload, &x)) != 0))
			return rc;
		h->nextra++;
	}
	return 0;
}

static int pass_frames(symbolize_state *st, pd_symbolizer *sym)
{
	int rc = 0;
	st->next_extra_id = st->max_frame_id + 1;
	for (size_t i = 0; i < st->nframes && rc == 0; i++) {
		held_frame *h = &st->frames[i];
		if (sym && h->f.mapping && st->mappings[h->f.mapping - 1].usable && (rc = name_frame(st, sym, h)) != 0)
			return rc;
		if (st->base.down->frame)
			rc = st->base.down->frame(st->base.down_payload, &h->f);
	}
	return rc;
}

/* Stacks with each named frame's inlined calls in front of it; then the samples. */
static int pass_stacks_and_samples(symbolize_state *st)
{
	uint64_t *ids = NULL;
	size_t cap = 0;
	int rc = 0;
	for (size_t i = 0; i < st->nstacks && rc == 0; i++) {
		held_stack *h = &st->stacks[i];
		size_t n = 0;
		for (size_t j = 0; j < h->s.nframes && rc == 0; j++) {
			uint64_t id = st->frame_ids[h->off + j];
			uint32_t k = pd_map_get(&st->frame_of_id, id);
			uint32_t extra = k ? st->frames[k - 1].nextra : 0;
			if (pd_grow((void **)&ids, &cap, n + extra + 1, sizeof *ids) < 0) {
				rc = PROFDATA_ENOMEM;
				break;
			}
			for (uint32_t e = 0; e < extra; e++)
				ids[n++] = st->frames[k - 1].first_extra + e;
			ids[n++] = id;
		}
		h->s.frame_ids = ids;
		h->s.nframes = n;
		if (rc == 0 && st->base.down->stack)
			rc = st->base.down->stack(st->base.down_payload, &h->s);
	}
	free(ids);
	for (size_t i = 0; i < st->nsamples && rc == 0 && st->base.down->sample; i++) {
		const held_sample *h = &st->samples[i];
		profdata_sample out;
		memset(&out, 0, sizeof out);
		out.stack_serial = h->stack_serial;
		out.thread_serial = h->thread_serial;
		out.time_ns = h->time_ns;
		out.values = st->values + h->off;
		out.nvalues = h->nvalues;
		rc = st->base.down->sample(st->base.down_payload, &out);
	}
	return rc;
}

static int on_end(void *payload)
{
	symbolize_state *st = payload;
	pd_symbolizer *sym = NULL;
	int rc = 0;
	if (st->passing)
		return end_passing(st);
	if (st->nframes && st->nmappings && (rc = pd_symbolizer_new(&sym, st->sysroot, st->debug_dir)) == 0)
		rc = open_binaries(st, sym);
	for (size_t i = 0; i < st->nmappings && rc == 0; i++)
		if (st->base.down->mapping)
			rc = st->base.down->mapping(st->base.down_payload, &st->mappings[i].m);
	if (rc == 0)
		rc = pass_frames(st, sym);
	pd_symbolizer_free(sym);
	if (rc == 0)
		rc = pass_stacks_and_samples(st);
	if (rc == 0 && st->base.down->end)
		rc = st->base.down->end(st->base.down_payload);
	return rc;
}

static void symbolize_free(void *state)
{
	symbolize_state *st = state;
	pd_intern_free(&st->texts);
	pd_map_free(&st->text_of_id);
	pd_map_free(&st->frame_of_id);
	pd_intern_free(&st->names);
	pd_intern_free(&st->functions);
	PD_FREE_ALL(st->frames, st->stacks, st->frame_ids, st->samples, st->values, st->mappings, st->sysroot,
	            st->debug_dir, st->by_start);
}

/* The events the transform changes; the others pass straight on. */
static const profdata_events symbolize_events = {
	.string = on_string, .function = on_function, .frame = on_frame, .stack = on_stack, .sample = on_sample,
	.mapping = on_mapping, .end = on_end,
};

static int copy_option(const pd_options *opts, const char *key, char **out)
{
	const char *v = pd_options_get(opts, key);
	*out = NULL;
	if (!v || !*v)
		return 0;
	return (*out = pd_strdup(v)) ? 0 : PROFDATA_ENOMEM;
}

/* Options: sysroot=DIR, debug_dir=DIR (what symbolize.h's pd_symbolizer_new takes). */
static int symbolize_init(void *state, pd_diag *diag, const pd_options *opts)
{
	symbolize_state *st = state;
	(void)diag;
	if (copy_option(opts, "sysroot", &st->sysroot) < 0 || copy_option(opts, "debug_dir", &st->debug_dir) < 0)
		return PROFDATA_ENOMEM;
	return 0;
}

const pd_transform_desc pd_transform_symbolize = {
	.name = "symbolize",
	.state_size = sizeof(symbolize_state),
	.events = &symbolize_events,
	.init = symbolize_init,
	.free = symbolize_free,
	.wanted = pd_symbolize_wanted,
};
