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
#include "util/beside.h"
#include "util/hashmap.h"

extern const struct profdata_format pd_format_folded;

/*
 * Stacks are merged by their chains of names: a line keeps only its first
 * stack (whose text it is) and its count, so a profile with 60,000 distinct
 * stacks 20 frames deep holds a few hundred kilobytes rather than its 18 MB
 * of lines. A chain is found by a hash of its names' hashes, each name
 * hashed once: the text of a line is made only when it is written, so the
 * 300 MB of a profile of 500,000 deep stacks is copied once, not twice.
 * Names never contain ';' (pd_frame_names_render), so equal chains of names
 * are equal texts; an empty stack's line is "[empty]", the same text as a
 * stack of one frame of that name, and is merged with it.
 *
 * The chains' hashes and the lines' text are made on two threads
 * (util/beside.h), each taking its share of a split fixed by the data: half
 * the stacks, and blocks of lines two at a time, written in order. The
 * output is the same bytes however the threads run.
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
	uint64_t *name_hash;       /* per frame index, then "[unknown]" and "[empty]": its name's hash */
	pd_stack_sums sums;        /* the count summed per stack, in order of first sample */
	pd_map line_of_hash;       /* a chain's hash -> the last line added with it, index + 1 */
	uint64_t seed;
	folded_line *lines;
	size_t nlines, lines_cap;
} folded_writer;

static const char unknown_name[] = "[unknown]", empty_name[] = "[empty]";

static void folded_writer_free(folded_writer *fw)
{
	pd_frame_names_free(&fw->names);
	free(fw->name_hash);
	pd_stack_sums_free(&fw->sums);
	pd_map_free(&fw->line_of_hash);
	free(fw->lines);
}

/* The names of one stack, root first: frame indexes, the last two standing for "[unknown]" and "[empty]". */
typedef struct folded_chain {
	profdata_stack st;
	size_t n;                  /* names: the frames, or 1 for an empty stack */
} folded_chain;

static void chain_of(const folded_writer *fw, size_t si, folded_chain *c)
{
	profdata_profile_stack(fw->p, si, &c->st);
	c->n = c->st.nframes ? c->st.nframes : 1;
}

/* The index of name k (root first) of chain c: a frame index, or nframes ("[unknown]"), nframes + 1 ("[empty]"). */
static size_t chain_name_index(const folded_writer *fw, const folded_chain *c, size_t k)
{
	size_t fi;
	if (c->st.nframes == 0)
		return fw->names.nframes + 1;
	return profdata_profile_find_frame(fw->p, c->st.frame_ids[c->st.nframes - 1 - k], &fi) == 0 ? fi
	                                                                                          : fw->names.nframes;
}

static const char *name_text(const folded_writer *fw, size_t ni, size_t *len)
{
	if (ni < fw->names.nframes)
		return pd_frame_name(&fw->names, ni, len);
	const char *s = ni == fw->names.nframes ? unknown_name : empty_name;
	*len = strlen(s);
	return s;
}

/* Hash every frame's name, and the two names of no frame. */
static int hash_names(folded_writer *fw)
{
	size_t n = fw->names.nframes, len;
	if (!(fw->name_hash = malloc((n + 2) * sizeof *fw->name_hash)))
		return PROFDATA_ENOMEM;
	for (size_t i = 0; i < n + 2; i++) {
		const char *s = name_text(fw, i, &len);
		fw->name_hash[i] = pd_hash_bytes(s, len, fw->seed);
	}
	return 0;
}

static uint64_t chain_hash(const folded_writer *fw, const folded_chain *c)
{
	uint64_t h = fw->seed;
	for (size_t k = 0; k < c->n; k++)
		h = pd_hash64(h ^ fw->name_hash[chain_name_index(fw, c, k)]);
	return h;
}

static int same_names(const folded_writer *fw, size_t a, size_t b)
{
	size_t la, lb;
	if (a == b)
		return 1;
	if (fw->name_hash[a] != fw->name_hash[b])
		return 0;
	const char *x = name_text(fw, a, &la), *y = name_text(fw, b, &lb);
	return la == lb && memcmp(x, y, la) == 0;
}

static int same_chain(const folded_writer *fw, const folded_chain *a, const folded_chain *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t k = 0; k < a->n; k++)
		if (!same_names(fw, chain_name_index(fw, a, k), chain_name_index(fw, b, k)))
			return 0;
	return 1;
}

/* Append stack si's line, names root first joined by ';', to `out`. */
static int chain_text(const folded_writer *fw, size_t si, pd_strbuf *out)
{
	folded_chain c;
	chain_of(fw, si, &c);
	for (size_t k = 0; k < c.n; k++) {
		size_t len, ni = chain_name_index(fw, &c, k);
		const char *name = name_text(fw, ni, &len);
		/* Room for the name, its ';' and 16 bytes to spare: most names are short and go in one fixed-size copy. */
		if (pd_grow((void **)&out->p, &out->cap, out->n + len + 18, 1))
			return PROFDATA_ENOMEM;
		if (k)
			out->p[out->n++] = ';';
		if (len <= 16 && ni < fw->names.nframes && fw->names.off[ni] + 16 <= fw->names.text.n)
			memcpy(out->p + out->n, name, 16);
		else
			memcpy(out->p + out->n, name, len);
		out->n += len;
	}
	out->p[out->n] = '\0';
	return 0;
}

/* The line (index + 1) among those from `k` on whose chain is c, 0 none. */
static uint32_t find_line(const folded_writer *fw, uint32_t k, const folded_chain *c)
{
	for (; k; k = fw->lines[k - 1].next_same_hash) {
		folded_chain other;
		chain_of(fw, fw->lines[k - 1].stack, &other);
		if (same_chain(fw, c, &other))
			return k;
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

/* A share of the chains' hashes: ordered stacks [from, to). */
typedef struct hash_share {
	const folded_writer *fw;
	uint64_t *hashes;
	size_t from, to;
} hash_share;

static void hash_chains(void *arg)
{
	hash_share *h = arg;
	for (size_t k = h->from; k < h->to; k++) {
		folded_chain c;
		chain_of(h->fw, h->fw->sums.order[k], &c);
		h->hashes[k] = chain_hash(h->fw, &c);
	}
}

/*
 * Stacks that read the same (different frames, one function) become one
 * line. The chains are hashed first, half of them on a second thread (the
 * model and the names are only read); lines are then found one by one.
 */
static int merge_chains(folded_writer *fw)
{
	size_t n = fw->sums.nordered;
	uint64_t *hashes = malloc((n ? n : 1) * sizeof *hashes);
	int rc = 0;
	fw->seed = pd_hash_seed(fw);
	if (!hashes || hash_names(fw)) {
		free(hashes);
		return PROFDATA_ENOMEM;
	}
	hash_share halves[2] = { { fw, hashes, 0, n / 2 }, { fw, hashes, n / 2, n } };
	pd_beside second;
	pd_beside_start(&second, hash_chains, &halves[1]);
	hash_chains(&halves[0]);
	pd_beside_wait(&second);
	for (size_t k = 0; k < n && rc == 0; k++) {
		uint32_t si = fw->sums.order[k], head = pd_map_get(&fw->line_of_hash, hashes[k]), line = 0;
		folded_chain c;
		if (head) {
			chain_of(fw, si, &c);
			line = find_line(fw, head, &c);
		}
		if (line)
			fw->lines[line - 1].count = pd_wrapping_add(fw->lines[line - 1].count, fw->sums.value[si]);
		else
			rc = add_line(fw, si, hashes[k], head);
	}
	free(hashes);
	return rc;
}

/* Lines [from, to) as text into `out`, made beside the caller's share (write_lines). */
typedef struct line_share {
	const folded_writer *fw;
	pd_strbuf out;
	size_t from, to;
	int rc;
} line_share;

static void render_lines(void *arg)
{
	line_share *l = arg;
	/* Worked on in locals: the two shares sit side by side, and a store to one
	 * would take the other's cache line from the processor filling it. */
	pd_strbuf out = l->out;
	int rc = 0;
	out.n = 0;
	for (size_t i = l->from; i < l->to && rc == 0; i++) {
		char num[32];
		int n = snprintf(num, sizeof num, " %" PRId64 "\n", l->fw->lines[i].count);
		rc = chain_text(l->fw, l->fw->lines[i].stack, &out);
		if (rc == 0)
			rc = pd_strbuf_add(&out, num, (size_t)n);
	}
	l->out = out;
	l->rc = rc;
}

/* Lines go out in blocks of this many, two at a time: the second made on a second thread. */
enum { LINES_PER_BLOCK = 4096 };

static int write_lines(folded_writer *fw)
{
	line_share share[2] = { { fw, { 0, 0, 0 }, 0, 0, 0 }, { fw, { 0, 0, 0 }, 0, 0, 0 } };
	int rc = 0;
	for (size_t i = 0; i < fw->nlines && rc == 0; i += 2 * LINES_PER_BLOCK) {
		pd_beside second;
		share[0].from = i;
		share[0].to = share[1].from = i + LINES_PER_BLOCK < fw->nlines ? i + LINES_PER_BLOCK : fw->nlines;
		share[1].to = share[1].from + LINES_PER_BLOCK < fw->nlines ? share[1].from + LINES_PER_BLOCK : fw->nlines;
		pd_beside_start(&second, render_lines, &share[1]);
		render_lines(&share[0]);
		pd_beside_wait(&second);
		for (int k = 0; k < 2 && rc == 0; k++)
			rc = share[k].rc ? share[k].rc : share[k].out.n ? pd_out_write(fw->w, share[k].out.p, share[k].out.n) : 0;
	}
	free(share[0].out.p);
	free(share[1].out.p);
	return rc;
}

/*
 * A name that ends in a number after a blank ("worker 3") would end its
 * line in two numbers, which readers (ours, flamegraph.pl) take for the two
 * counts of a differential file; one that ends in a blank loses it to the
 * blank before the count. Those blanks are written as '_': 1 when name s
 * had them.
 */
static int unblank_end(char *s, size_t len)
{
	char *p = s + len;
	while (p > s && (unsigned)(p[-1] - '0') < 10)
		p--;
	if (p == s || (p[-1] != ' ' && p[-1] != '\t'))
		return 0;
	while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
		*--p = '_';
	return 1;
}

/*
 * Names that would read back otherwise are changed in every frame that has
 * them, so that chains still merge by what is written: blanks at the end
 * (unblank_end), and a '#' that begins a name, which as a line's first frame
 * would make the line a comment. The writer says how many names it changed.
 */
static void unambiguous_names(folded_writer *fw)
{
	size_t blanks = 0, hashes = 0;
	for (size_t i = 0; i < fw->names.nframes; i++) {
		size_t len;
		char *s = (char *)pd_frame_name(&fw->names, i, &len);
		blanks += (size_t)unblank_end(s, len);
		if (len && s[0] == '#') {
			s[0] = '_';
			hashes++;
		}
	}
	if (blanks)
		pd_out_warn(fw->w, "folded: %zu frame names end in a blank or in a number after one, which readers take "
		            "for the blank before a count or for a second count: those blanks are written as '_'", blanks);
	if (hashes)
		pd_out_warn(fw->w, "folded: %zu frame names begin with '#', which at the start of a line makes it a "
		            "comment: that '#' is written as '_'", hashes);
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
	if (rc == 0 && pd_frame_names_render(p, &fw.names))
		rc = pd_out_error(w, PROFDATA_ENOMEM, "folded: out of memory");
	if (rc == 0)
		unambiguous_names(&fw);
	if (rc == 0 && merge_chains(&fw))
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
	.write_transforms = pd_transforms_stacks,
};
