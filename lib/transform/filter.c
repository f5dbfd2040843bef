/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pprof's filters of samples by frame name, behind any decoder (read
 * options focus=RE, ignore=RE, hide=RE, prune_from=RE; POSIX extended
 * regular expressions, matched anywhere in the name as pprof's are):
 *   focus       keep only the samples with a frame that matches;
 *   ignore      drop the samples with a frame that matches;
 *   hide        take the frames that match out of every stack;
 *   prune_from  cut every stack at its innermost frame whose function name
 *               matches: the frames it calls go, it and its callers stay.
 * In pprof's order: focus and ignore on the whole stack, then hide, then
 * prune_from. A frame matches by its function's name (with its class, as
 * folded writes Java frames), its source file, or its mapping's file.
 * Inlined calls are frames of their own here; the pprof writer makes a
 * location of the lines a stack kept (codecs/pprof/encode.c), so a
 * filtered input written as pprof reads as pprof's own filter shows it.
 * Frames are judged once, when they are defined; stacks as they come, so
 * memory grows with the frames, never with the samples.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "transform/transform.h"
#include "util/hashmap.h"

enum { FOCUS, IGNORE, HIDE, PRUNE, NFILTERS };
/* The read options, in that order; every format takes them (core/format.c). */
const char *const pd_filter_options[NFILTERS + 1] = { "focus", "ignore", "hide", "prune_from", NULL };

typedef struct filter_function {
	uint64_t name_id, file_id;
	uint32_t class_serial;
} filter_function;

typedef struct filter {
	pd_transform_base base; /* first: the pass-through events find it there */
	regex_t re[NFILTERS];
	unsigned char given[NFILTERS];
	pd_intern strings;      /* the input's strings, by pd_map below */
	pd_map string_ix;       /* string id -> index + 1 */
	pd_map function_ix;     /* function id -> index + 1 in functions */
	filter_function *functions;
	size_t nfunctions, functions_cap;
	pd_map class_name;      /* class serial -> name string id (as index + 1 of strings) */
	uint32_t *mapping_file; /* mapping index - 1 -> string index + 1 */
	size_t nmappings, mappings_cap;
	pd_map frame_bits;      /* frame id -> 0x100 | bit per filter it matches */
	pd_map dropped;         /* stack serial -> 1 for stacks whose samples go */
	uint64_t *frames;
	size_t frames_cap;
	profdata_label *labels; /* the labels of the next sample, held until it is known to stay */
	size_t nlabels, labels_cap;
	int has_labels;
	pd_strbuf name;
} filter;

static int filter_wanted(const pd_options *opts, pd_diag *diag)
{
	(void)diag;
	for (int i = 0; i < NFILTERS; i++)
		if (pd_options_get(opts, pd_filter_options[i]))
			return 1;
	return 0;
}

static int filter_init(void *state, pd_diag *diag, const pd_options *opts)
{
	filter *f = state;
	for (int i = 0; i < NFILTERS; i++) {
		const char *re = pd_options_get(opts, pd_filter_options[i]);
		if (!re)
			continue;
		int e = regcomp(&f->re[i], re, REG_EXTENDED | REG_NOSUB);
		if (e != 0) {
			char why[128];
			regerror(e, &f->re[i], why, sizeof why);
			return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "%s=%s: %s", pd_filter_options[i], re, why);
		}
		f->given[i] = 1;
	}
	return 0;
}

static void filter_free(void *state)
{
	filter *f = state;
	for (int i = 0; i < NFILTERS; i++)
		if (f->given[i])
			regfree(&f->re[i]);
	pd_intern_free(&f->strings);
	pd_map_free(&f->string_ix);
	pd_map_free(&f->function_ix);
	pd_map_free(&f->class_name);
	pd_map_free(&f->frame_bits);
	pd_map_free(&f->dropped);
	free(f->functions);
	free(f->labels);
	free(f->mapping_file);
	free(f->frames);
	free(f->name.p);
}

static int oom(filter *f)
{
	return pd_diag_error(f->base.diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "filter: out of memory");
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	filter *f = payload;
	uint32_t ix;
	if (pd_intern_put(&f->strings, utf8, len, &ix) < 0 || pd_map_put(&f->string_ix, id, ix + 1) < 0)
		return oom(f);
	return PD_DOWN(f, string, id, utf8, len);
}

/* The string `id` of the input (NUL-terminated), or NULL. */
static const char *text_of(const filter *f, uint64_t id)
{
	uint32_t ix = id ? pd_map_get(&f->string_ix, id) : 0;
	return ix ? pd_intern_str(&f->strings, ix - 1, NULL) : NULL;
}

static int on_class_load(void *payload, const profdata_class_load *c)
{
	filter *f = payload;
	uint32_t name = c->name_id ? pd_map_get(&f->string_ix, c->name_id) : 0;
	if (c->serial && name && pd_map_put(&f->class_name, c->serial, name) < 0)
		return oom(f);
	return PD_DOWN(f, class_load, c);
}

static int on_function(void *payload, const profdata_function *fn)
{
	filter *f = payload;
	if (pd_grow((void **)&f->functions, &f->functions_cap, f->nfunctions + 1, sizeof(*f->functions)) < 0)
		return oom(f);
	filter_function *row = &f->functions[f->nfunctions++];
	row->name_id = fn->name_id;
	row->file_id = fn->source_file_id;
	row->class_serial = fn->class_serial;
	if (pd_map_put(&f->function_ix, fn->id, (uint32_t)f->nfunctions) < 0)
		return oom(f);
	return PD_DOWN(f, function, fn);
}

static int on_mapping(void *payload, const profdata_mapping *m)
{
	filter *f = payload;
	if (pd_grow((void **)&f->mapping_file, &f->mappings_cap, f->nmappings + 1, sizeof(uint32_t)) < 0)
		return oom(f);
	f->mapping_file[f->nmappings++] = m->path_id ? pd_map_get(&f->string_ix, m->path_id) : 0;
	return PD_DOWN(f, mapping, m);
}

/* Whether regex `re` matches `s` (NULL never matches). */
static int matches(const regex_t *re, const char *s)
{
	return s && regexec(re, s, 0, NULL, 0) == 0;
}

/* The frame's function name, with its class as "Class.method" when it has one; NULL without a name. */
static const char *function_text(filter *f, uint32_t fi)
{
	const char *name = text_of(f, f->functions[fi].name_id);
	uint32_t serial = f->functions[fi].class_serial, cls = serial ? pd_map_get(&f->class_name, serial) : 0;
	if (!name || !cls)
		return name;
	const char *cname = pd_intern_str(&f->strings, cls - 1, NULL);
	char buf[1024];
	size_t n = profdata_java_name(cname, strlen(cname), buf, sizeof buf);
	f->name.n = 0;
	if (pd_strbuf_add(&f->name, buf, n < sizeof buf ? n : sizeof buf - 1) < 0 || pd_strbuf_add(&f->name, ".", 1) < 0 ||
	    pd_strbuf_add(&f->name, name, strlen(name)) < 0)
		return name;
	return f->name.p;
}

static int on_frame(void *payload, const profdata_frame *fr)
{
	filter *f = payload;
	uint32_t fi = fr->function_id ? pd_map_get(&f->function_ix, fr->function_id) : 0;
	const char *name = fi ? function_text(f, fi - 1) : NULL;
	const char *file = fi ? text_of(f, f->functions[fi - 1].file_id) : NULL;
	uint32_t mf = fr->mapping && fr->mapping <= f->nmappings ? f->mapping_file[fr->mapping - 1] : 0;
	const char *mapping = mf ? pd_intern_str(&f->strings, mf - 1, NULL) : NULL;
	uint32_t bits = 0x100;
	for (int i = 0; i < NFILTERS; i++) /* prune_from looks at function names alone, as pprof's PruneFrom */
		if (f->given[i] && (matches(&f->re[i], name) ||
		                    (i != PRUNE && (matches(&f->re[i], file) || matches(&f->re[i], mapping)))))
			bits |= 1u << i;
	if (pd_map_put(&f->frame_bits, fr->id, bits) < 0)
		return oom(f);
	return PD_DOWN(f, frame, fr);
}

/* The stack's frames after hide and prune_from, into f->frames: how many. */
static size_t kept_frames(filter *f, const profdata_stack *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nframes; i++)
		if (!(pd_map_get(&f->frame_bits, s->frame_ids[i]) & 1u << HIDE))
			f->frames[n++] = s->frame_ids[i];
	if (!f->given[PRUNE])
		return n;
	/* leaf first: the innermost match is the first one; what it calls goes */
	for (size_t i = 0; i < n; i++)
		if (pd_map_get(&f->frame_bits, f->frames[i]) & 1u << PRUNE) {
			memmove(f->frames, f->frames + i, (n - i) * sizeof(uint64_t));
			return n - i;
		}
	return n;
}

static int on_stack(void *payload, const profdata_stack *s)
{
	filter *f = payload;
	uint32_t any = 0;
	for (size_t i = 0; i < s->nframes; i++)
		any |= pd_map_get(&f->frame_bits, s->frame_ids[i]);
	if ((f->given[FOCUS] && !(any & 1u << FOCUS)) || (any & 1u << IGNORE)) {
		if (pd_map_put(&f->dropped, s->serial, 1) < 0)
			return oom(f);
		return 0;
	}
	if (pd_grow((void **)&f->frames, &f->frames_cap, s->nframes + 1, sizeof(uint64_t)) < 0)
		return oom(f);
	profdata_stack kept = *s;
	kept.frame_ids = f->frames;
	kept.nframes = kept_frames(f, s);
	return PD_DOWN(f, stack, &kept);
}

static int on_sample(void *payload, const profdata_sample *s)
{
	filter *f = payload;
	int held = f->has_labels, rc = 0;
	f->has_labels = 0;
	if (pd_map_get(&f->dropped, s->stack_serial))
		return 0;
	if (held) {
		profdata_sample_labels l = { f->labels, f->nlabels };
		rc = PD_DOWN(f, sample_labels, &l);
	}
	return rc ? rc : PD_DOWN(f, sample, s);
}

/* Labels come before the sample they label: held, so that those of a dropped sample go with it. */
static int on_sample_labels(void *payload, const profdata_sample_labels *l)
{
	filter *f = payload;
	if (pd_grow((void **)&f->labels, &f->labels_cap, l->nlabels + 1, sizeof(profdata_label)) < 0)
		return oom(f);
	if (l->nlabels)
		memcpy(f->labels, l->labels, l->nlabels * sizeof(profdata_label));
	f->nlabels = l->nlabels;
	f->has_labels = 1;
	return 0;
}

static const profdata_events filter_events = {
	.version = PROFDATA_EVENTS_VERSION, .string = on_string, .class_load = on_class_load,
	.function = on_function, .mapping = on_mapping, .frame = on_frame, .stack = on_stack,
	.sample = on_sample, .sample_labels = on_sample_labels,
};

const pd_transform_desc pd_transform_filter = {
	.name = "filter",
	.state_size = sizeof(filter),
	.events = &filter_events,
	.init = filter_init,
	.free = filter_free,
	.wanted = filter_wanted,
};

