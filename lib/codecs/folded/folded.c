/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Folded stacks, the input of flamegraph.pl and speedscope:
 *
 *   root;caller;leaf COUNT
 *
 * one line per distinct call chain, the counts of identical chains summed,
 * lines in order of the chain's first sample. A frame is named by its
 * function (Java frames as package.Class.method), else by its PC in hex as
 * stored ("0x4005d0"), else "[unknown]". See doc/formats-folded.md.
 *
 * Read by decode.c. Written from a built profile: its stacks and samples say everything, and
 * a conversion gets here through the model encoder (core/model_encoder.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/folded/folded.h"
#include "analysis/samples.h"
#include "analysis/stacks.h"
#include "transform/transform.h"
#include "util/hashmap.h"

extern const struct profdata_format pd_format_folded;

/*
 * Stacks are merged by the text of their lines, found by its hash: a line
 * keeps only its first stack (whose text it is) and its count, so a profile
 * with 60,000 distinct stacks 20 frames deep holds a few hundred kilobytes
 * rather than its 18 MB of lines, and no frame's name is looked up in a
 * table: names are rendered once per frame and copied. Names never contain
 * ';' (pd_frame_names_render), so equal texts are equal chains of names.
 */
typedef struct folded_line {
	uint32_t stack;            /* stack index whose text the line is */
	uint32_t next_same_hash;   /* another line with the same hash: index + 1; 0 none */
	int64_t count;
} folded_line;

typedef struct folded_writer {
	const profdata_profile *p;
	profdata_writer *w;
	pd_frame_names names;      /* every frame's name, rendered once */
	pd_stack_sums sums;        /* the count summed per stack, in order of first sample */
	pd_map line_of_hash;       /* a line's text hash -> the last line added with it, index + 1 */
	uint64_t seed;
	folded_line *lines;
	size_t nlines, lines_cap;
} folded_writer;

static void folded_writer_free(folded_writer *fw)
{
	pd_frame_names_free(&fw->names);
	pd_stack_sums_free(&fw->sums);
	pd_map_free(&fw->line_of_hash);
	free(fw->lines);
}

/* Append stack si's line, frames root first joined by ';', to `out`. */
static int chain_text(const folded_writer *fw, size_t si, pd_strbuf *out)
{
	profdata_stack st;
	profdata_profile_stack(fw->p, si, &st);
	if (st.nframes == 0)
		return pd_strbuf_add(out, "[empty]", 7);
	for (size_t j = st.nframes; j-- > 0;) {
		size_t fi, len = 9;
		const char *name = profdata_profile_find_frame(fw->p, st.frame_ids[j], &fi) == 0
		                           ? pd_frame_name(&fw->names, fi, &len) : "[unknown]";
		/* Room for the name, its ';' and 16 bytes to spare: most names are short and go in one fixed-size copy. */
		if (pd_grow((void **)&out->p, &out->cap, out->n + len + 18, 1))
			return PROFDATA_ENOMEM;
		if (j + 1 < st.nframes)
			out->p[out->n++] = ';';
		if (len <= 16 && (size_t)(name - fw->names.text.p) + 16 <= fw->names.text.n)
			memcpy(out->p + out->n, name, 16);
		else
			memcpy(out->p + out->n, name, len);
		out->n += len;
	}
	out->p[out->n] = '\0';
	return 0;
}

/* The line (index + 1) among those from `k` on whose text is `text` into *line, 0 none: 0 or PROFDATA_ENOMEM. */
static int find_line(const folded_writer *fw, uint32_t k, const pd_strbuf *text, pd_strbuf *scratch, uint32_t *line)
{
	for (*line = 0; k; k = fw->lines[k - 1].next_same_hash) {
		scratch->n = 0;
		if (chain_text(fw, fw->lines[k - 1].stack, scratch) != 0)
			return PROFDATA_ENOMEM;
		if (scratch->n == text->n && memcmp(scratch->p, text->p, text->n) == 0) {
			*line = k;
			break;
		}
	}
	return 0;
}

static int add_line(folded_writer *fw, uint32_t si, uint64_t h, uint32_t head)
{
	if (fw->nlines >= UINT32_MAX - 1 ||
	    pd_grow((void **)&fw->lines, &fw->lines_cap, fw->nlines + 1, sizeof *fw->lines))
		return PROFDATA_ENOMEM;
	folded_line *l = &fw->lines[fw->nlines++];
	l->stack = si;
	l->next_same_hash = head;
	l->count = fw->sums.value[si];
	return pd_map_put(&fw->line_of_hash, h, (uint32_t)fw->nlines);
}

/* Stacks that read the same (different frames, one function) become one line. */
static int merge_chains(folded_writer *fw)
{
	pd_strbuf text = { 0, 0, 0 }, scratch = { 0, 0, 0 };
	int rc = 0;
	fw->seed = pd_hash_seed(fw);
	for (size_t k = 0; k < fw->sums.nordered && rc == 0; k++) {
		uint32_t si = fw->sums.order[k];
		text.n = 0;
		if ((rc = chain_text(fw, si, &text)) != 0)
			break;
		uint64_t h = pd_hash_bytes(text.p, text.n, fw->seed);
		uint32_t head = pd_map_get(&fw->line_of_hash, h), line;
		if ((rc = find_line(fw, head, &text, &scratch, &line)) != 0)
			break;
		if (line)
			fw->lines[line - 1].count = pd_wrapping_add(fw->lines[line - 1].count, fw->sums.value[si]);
		else
			rc = add_line(fw, si, h, head);
	}
	free(text.p);
	free(scratch.p);
	return rc;
}

static int write_lines(folded_writer *fw)
{
	pd_strbuf out = { 0, 0, 0 };
	int rc = 0;
	for (size_t i = 0; i < fw->nlines && rc == 0; i++) {
		char num[32];
		int n = snprintf(num, sizeof num, " %" PRId64 "\n", fw->lines[i].count);
		rc = chain_text(fw, fw->lines[i].stack, &out);
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
	rc = pd_stack_sums_compute(p, pd_sample_count_index(p), &fw.sums, pd_out_diag(w), "folded");
	if (rc == 0 && (pd_frame_names_render(p, &fw.names) || merge_chains(&fw)))
		rc = pd_out_error(w, PROFDATA_ENOMEM, "folded: out of memory");
	if (rc == 0)
		rc = write_lines(&fw);
	folded_writer_free(&fw);
	return rc;
}

const struct profdata_format pd_format_folded = {
	.name = "folded",
	.description = "folded stacks (flamegraph.pl, speedscope)",
	.extensions = (const char *const[]){ ".folded", ".collapsed", NULL },
	.bid = pd_folded_bid,
	.decode = pd_folded_decode,
	.write_model = folded_write_model,
	.write_transforms = pd_transforms_samples,
};
