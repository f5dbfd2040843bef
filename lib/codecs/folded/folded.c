/* SPDX-License-Identifier: Apache-2.0 */
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
#include "analysis/samples.h"
#include "analysis/stacks.h"
#include "transform/transform.h"
#include "util/hashmap.h"

extern const struct profdata_format pd_format_folded;

/*
 * Chains are merged by the names of their frames, not by their text: a
 * chain is kept as its name ids (4 bytes a frame), so a trace with 78,000
 * distinct stacks 23 frames deep holds 7 MB rather than its 67 MB of lines.
 * Names never contain ';' (pd_frame_names_render), so equal ids are equal
 * text and the lines are the same.
 */
typedef struct folded_writer {
	const profdata_profile *p;
	profdata_writer *w;
	pd_frame_names names;      /* every frame's name, rendered once */
	pd_intern name_ids;        /* distinct names */
	pd_frame_name_ids ids;     /* frame index -> name id */
	pd_stack_sums sums;        /* the count summed per stack, in order of first sample */
	pd_intern chains;          /* a line's name ids, root first, as bytes */
	int64_t *chain_count;      /* chain index -> summed count */
	size_t chain_count_cap;
} folded_writer;

static void folded_writer_free(folded_writer *fw)
{
	pd_frame_names_free(&fw->names);
	pd_intern_free(&fw->name_ids);
	pd_frame_name_ids_free(&fw->ids);
	pd_stack_sums_free(&fw->sums);
	pd_intern_free(&fw->chains);
	free(fw->chain_count);
}

static int names_init(folded_writer *fw)
{
	int rc = pd_frame_names_render(fw->p, &fw->names);
	return rc ? rc : pd_frame_name_ids_init(&fw->ids, &fw->names, &fw->name_ids);
}

/* The name ids of stack si, root first, into `ids` (as bytes). */
static int chain_ids(const folded_writer *fw, size_t si, pd_strbuf *ids)
{
	profdata_stack st;
	ids->n = 0;
	profdata_profile_stack(fw->p, si, &st);
	if (st.nframes == 0)
		return pd_strbuf_add(ids, (const char *)&fw->ids.empty, sizeof fw->ids.empty);
	for (size_t j = st.nframes; j-- > 0;) {
		size_t fi;
		uint32_t id = profdata_profile_find_frame(fw->p, st.frame_ids[j], &fi) == 0 ? fw->ids.of_frame[fi]
		                                                                            : fw->ids.unknown;
		if (pd_strbuf_add(ids, (const char *)&id, sizeof id))
			return PROFDATA_ENOMEM;
	}
	return 0;
}

/* Stacks that read the same (different frames, one function) become one line. */
static int merge_chains(folded_writer *fw)
{
	pd_strbuf ids = { 0, 0, 0 };
	int rc = 0;
	for (size_t k = 0; k < fw->sums.nordered && rc == 0; k++) {
		uint32_t si = fw->sums.order[k], line;
		rc = chain_ids(fw, si, &ids);
		if (rc == 0)
			rc = pd_intern_put(&fw->chains, ids.p, ids.n, &line);
		if (rc == 1) {
			fw->chain_count[line] = pd_wrapping_add(fw->chain_count[line], fw->sums.value[si]);
			rc = 0;
		} else if (rc == 0) {
			rc = pd_grow((void **)&fw->chain_count, &fw->chain_count_cap, (size_t)line + 1,
			             sizeof *fw->chain_count);
			if (rc == 0)
				fw->chain_count[line] = fw->sums.value[si];
		}
	}
	free(ids.p);
	return rc;
}

/* Line i's text, frames joined by ';', into `out`. */
static int chain_text(const folded_writer *fw, uint32_t i, pd_strbuf *out)
{
	size_t len;
	const char *ids = pd_intern_str(&fw->chains, i, &len);
	for (size_t k = 0; k < len; k += sizeof(uint32_t)) {
		uint32_t id;
		size_t nlen;
		memcpy(&id, ids + k, sizeof id);
		const char *name = pd_intern_str(&fw->name_ids, id, &nlen);
		if ((k && pd_strbuf_add(out, ";", 1)) || pd_strbuf_add(out, name, nlen))
			return PROFDATA_ENOMEM;
	}
	return 0;
}

static int write_lines(folded_writer *fw)
{
	pd_strbuf out = { 0, 0, 0 };
	int rc = 0;
	for (size_t i = 0; i < fw->chains.n && rc == 0; i++) {
		char num[32];
		int n = snprintf(num, sizeof num, " %" PRId64 "\n", fw->chain_count[i]);
		rc = chain_text(fw, (uint32_t)i, &out);
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
	if (rc == 0 && (names_init(&fw) || merge_chains(&fw)))
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
	.write_model = folded_write_model,
	.write_transforms = pd_transforms_samples,
};
