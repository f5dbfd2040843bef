/*
 * Folded stacks, the input of flamegraph.pl and speedscope (export only):
 *
 *   root;caller;leaf COUNT
 *
 * one line per distinct call chain, the counts of identical chains summed,
 * lines in order of the chain's first sample. A frame is named by its
 * function (Java frames as package.Class.method), else by its PC in hex as
 * stored ("0x4005d0"), else "[unknown]". See doc/formats-folded.md.
 *
 * Written from a built profile: its stacks and samples say everything, and
 * a conversion gets here through the model encoder (core/model_encoder.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "core/model_encoder.h"
#include "util/hashmap.h"

extern const struct profdata_format pd_format_folded;

typedef struct folded_writer {
	const profdata_profile *p;
	profdata_writer *w;
	size_t nframes, nstacks;
	pd_strbuf frame_names;     /* every frame's name, rendered once */
	size_t *frame_name_off;    /* frame index -> offset in frame_names; nframes + 1 entries */
	int64_t *stack_count;      /* stack index -> summed count */
	unsigned char *stack_seen;
	uint32_t *stack_order;     /* stack indexes in order of first sample */
	size_t nordered;
	pd_intern chains;          /* line text: identical chains by name are one line */
	int64_t *chain_count;      /* chain index -> summed count */
	size_t chain_count_cap;
} folded_writer;

static void folded_writer_free(folded_writer *fw)
{
	free(fw->frame_names.p);
	free(fw->frame_name_off);
	free(fw->stack_count);
	free(fw->stack_seen);
	free(fw->stack_order);
	pd_intern_free(&fw->chains);
	free(fw->chain_count);
}

/* Replace the characters that would break the format in b from `start` on. */
static void clean_from(pd_strbuf *b, size_t start)
{
	for (size_t i = start; i < b->n; i++)
		if (b->p[i] == ';' || b->p[i] == '\n' || b->p[i] == '\r')
			b->p[i] = '_';
}

static int render_frame_name(const profdata_profile *p, const profdata_frame *fr, pd_strbuf *names)
{
	profdata_function fn;
	size_t fi, len = 0;
	const char *name = NULL;
	if (fr->function_id && profdata_profile_find_function(p, fr->function_id, &fi) == 0 &&
	    profdata_profile_function(p, fi, &fn) == 0)
		name = pd_profile_text(p, fn.name_id, &len);
	if (name && len) {
		size_t start = names->n;
		if (pd_class_prefix(names, p, fn.class_serial, 1) || pd_strbuf_add(names, name, len))
			return PROFDATA_ENOMEM;
		clean_from(names, start);
		return 0;
	}
	if (fr->has_address) {
		char num[32];
		int n = snprintf(num, sizeof num, "0x%" PRIx64, fr->address);
		return pd_strbuf_add(names, num, (size_t)n);
	}
	return pd_strbuf_add(names, "[unknown]", 9);
}

static int render_frame_names(folded_writer *fw)
{
	fw->frame_name_off = malloc((fw->nframes + 1) * sizeof *fw->frame_name_off);
	if (!fw->frame_name_off)
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < fw->nframes; i++) {
		profdata_frame fr;
		fw->frame_name_off[i] = fw->frame_names.n;
		profdata_profile_frame(fw->p, i, &fr);
		if (render_frame_name(fw->p, &fr, &fw->frame_names))
			return PROFDATA_ENOMEM;
	}
	fw->frame_name_off[fw->nframes] = fw->frame_names.n;
	return 0;
}

/* Sum the samples per stack, noting the order of each stack's first sample. */
static int sum_samples(folded_writer *fw)
{
	size_t nsamples = profdata_profile_count(fw->p, PROFDATA_TABLE_SAMPLES);
	size_t count_index = pd_sample_count_index(fw->p);
	fw->stack_count = calloc(fw->nstacks + 1, sizeof *fw->stack_count);
	fw->stack_seen = calloc(fw->nstacks + 1, 1);
	fw->stack_order = malloc((fw->nstacks + 1) * sizeof *fw->stack_order);
	if (!fw->stack_count || !fw->stack_seen || !fw->stack_order)
		return pd_out_error(fw->w, PROFDATA_ENOMEM, "folded: out of memory");
	for (size_t i = 0; i < nsamples; i++) {
		profdata_sample s;
		size_t si;
		if (pd_sample_with_stack(fw->p, i, &s, &si, fw->w, "folded"))
			return PROFDATA_EINVAL;
		if (!fw->stack_seen[si]) {
			fw->stack_seen[si] = 1;
			fw->stack_order[fw->nordered++] = (uint32_t)si;
		}
		fw->stack_count[si] = (int64_t)((uint64_t)fw->stack_count[si] + (uint64_t)pd_sample_count(&s, count_index));
	}
	return 0;
}

/* The text of stack si, root first, into `text`. */
static int chain_text(const folded_writer *fw, size_t si, pd_strbuf *text)
{
	profdata_stack st;
	text->n = 0;
	profdata_profile_stack(fw->p, si, &st);
	if (st.nframes == 0)
		return pd_strbuf_add(text, "[empty]", 7);
	for (size_t j = st.nframes; j-- > 0;) {
		size_t fi;
		int rc = j + 1 < st.nframes ? pd_strbuf_add(text, ";", 1) : 0;
		if (rc == 0 && profdata_profile_find_frame(fw->p, st.frame_ids[j], &fi) == 0)
			rc = pd_strbuf_add(text, fw->frame_names.p + fw->frame_name_off[fi],
			                   fw->frame_name_off[fi + 1] - fw->frame_name_off[fi]);
		else if (rc == 0)
			rc = pd_strbuf_add(text, "[unknown]", 9);
		if (rc)
			return rc;
	}
	return 0;
}

/* Stacks that read the same (different frames, one function) become one line. */
static int merge_chains(folded_writer *fw)
{
	pd_strbuf text = { 0, 0, 0 };
	int rc = 0;
	for (size_t k = 0; k < fw->nordered && rc == 0; k++) {
		uint32_t si = fw->stack_order[k], line;
		rc = chain_text(fw, si, &text);
		if (rc == 0)
			rc = pd_intern_put(&fw->chains, text.p, text.n, &line);
		if (rc == 1) {
			fw->chain_count[line] = (int64_t)((uint64_t)fw->chain_count[line] + (uint64_t)fw->stack_count[si]);
			rc = 0;
		} else if (rc == 0) {
			rc = pd_grow((void **)&fw->chain_count, &fw->chain_count_cap, (size_t)line + 1,
			             sizeof *fw->chain_count);
			if (rc == 0)
				fw->chain_count[line] = fw->stack_count[si];
		}
	}
	free(text.p);
	return rc;
}

static int write_lines(folded_writer *fw)
{
	pd_strbuf out = { 0, 0, 0 };
	int rc = 0;
	for (size_t i = 0; i < fw->chains.n && rc == 0; i++) {
		char num[32];
		size_t len;
		const char *text = pd_intern_str(&fw->chains, (uint32_t)i, &len);
		int n = snprintf(num, sizeof num, " %" PRId64 "\n", fw->chain_count[i]);
		rc = pd_strbuf_add(&out, text, len);
		if (rc == 0)
			rc = pd_strbuf_add(&out, num, (size_t)n);
		if (rc == 0 && out.n >= (1u << 16)) {
			rc = pd_out_write(fw->w, out.p, out.n);
			out.n = 0;
		}
	}
	if (rc == 0 && out.n)
		rc = pd_out_write(fw->w, out.p, out.n);
	free(out.p);
	return rc;
}

static int folded_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts)
{
	folded_writer fw;
	int rc;
	(void)opts;
	if ((rc = pd_need_samples(p, w, "folded")) < 0)
		return rc;
	memset(&fw, 0, sizeof fw);
	fw.p = p;
	fw.w = w;
	fw.nframes = profdata_profile_count(p, PROFDATA_TABLE_FRAMES);
	fw.nstacks = profdata_profile_count(p, PROFDATA_TABLE_STACKS);
	rc = sum_samples(&fw);
	if (rc == 0 && (render_frame_names(&fw) || merge_chains(&fw)))
		rc = pd_out_error(w, PROFDATA_ENOMEM, "folded: out of memory");
	if (rc == 0)
		rc = write_lines(&fw);
	folded_writer_free(&fw);
	return rc;
}

const struct profdata_format pd_format_folded = {
	.name = "folded",
	.description = "folded stacks (flamegraph.pl, speedscope); export only",
	.write_model = folded_write_model,
};
