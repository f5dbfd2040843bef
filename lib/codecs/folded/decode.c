/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Folded stacks read: "root;caller;leaf COUNT" a line, or two counts (a
 * differential file: before and after). Blank lines and lines starting
 * with '#' are passed over. A frame's name is everything between its ';'
 * (spaces included), kept as written, flamegraph.pl's annotations
 * (`_[j]`, `_[k]`, `_[i]`, `_[w]`) with it: that is what the writer writes
 * back, so our own output reads and rewrites byte for byte.
 *
 * Each distinct name is a string, a function and a frame of one id (its
 * index in the interner, plus one); each distinct chain of frame ids a
 * stack, numbered the same way. Every line is a sample of its stack. See doc/formats-folded.md.
 */
#include <stdlib.h>
#include <string.h>

#include "codecs/folded/folded.h"
#include "codecs/folded/ahead.h"
#include "codecs/folded/chain.h"

/* The size of stable input from which lines are split ahead on a second thread (start_ahead). */
#define FOLDED_AHEAD_MIN (1u << 20)

typedef struct folded_decoder {
	const pd_decode_args *a;
	pd_lines in;
	pd_intern names;      /* strings: frame names and sample types' words; id = index + 1 */
	unsigned char *framed; /* per name: its function and frame were sent */
	size_t framed_cap;
	uint64_t *frame_ids;  /* the chain being sent, leaf first */
	size_t frame_ids_cap;
	uint32_t *chain_key;  /* streamed input: the same ids in 32 bits, as kept_ids keeps them */
	size_t chain_key_cap;
	/*
	 * The stacks: per stack (row = serial - 1) its chain's hash, the key of
	 * the index `stacks`, and where its chain can be compared when a hash
	 * matches: at chain_at, a stable input's text (`base` is the input's
	 * first byte; the mapping stays valid), else its frame ids, kept in
	 * `kept_ids`. Most files hold each chain once: a stack then costs about
	 * 24 bytes here, not a copy of its chain.
	 */
	pd_index stacks;
	uint64_t *stack_hash, *chain_at;
	uint32_t *chain_len;  /* bytes at base + chain_at */
	size_t stack_hash_cap, chain_at_cap, chain_len_cap;
	uint32_t nstacks;
	const unsigned char *base;
	uint32_t *kept_ids;   /* streamed input: every stack's frame ids, leaf first */
	size_t nkept_ids, kept_ids_cap;
	uint64_t hash_seed;
	uint64_t chain_hash;  /* of the chain being read (chain_hash()) */
	/* The last chain read: its text (in a stable input where it stands, else
	 * copied into prev_copy) and per frame (root first) its id. Sorted files
	 * (flamegraph.pl's stackcollapse scripts sort) share most of a chain
	 * with the line before; those frames are taken from here, not looked up
	 * again. */
	const unsigned char *prev_text;
	size_t prev_len;
	unsigned char *prev_copy;
	size_t prev_copy_cap;
	uint64_t *prev_ids;
	size_t prev_n, prev_ids_cap;
	/* The chain being read, per frame (root first): where its name ends and
	 * its name's hash; in own_ends and own_hashes, or where the thread ahead
	 * split it (`hashed`: the hashes and chain_hash are its). */
	const uint32_t *ends;
	const uint64_t *hashes;
	const uint32_t *numbers; /* `hashed`: per frame, its name's number in the thread's table */
	int hashed, prev_hashed;
	uint32_t *id_of_number;  /* a name's number in the thread's table -> its frame id; 0 not yet met */
	size_t id_of_number_cap;
	uint32_t *own_ends;
	uint64_t *own_hashes;
	size_t own_ends_cap, own_hashes_cap;
	pd_folded_ahead ahead;
	int ncounts;          /* 1 or 2, from the first line with a count; 0 before */
} folded_decoder;

static int fail(folded_decoder *d, uint64_t off, const char *what)
{
	return pd_in_damage(d->in.r, d->a->mode, PROFDATA_EFORMAT, off, d->in.lineno, "folded: %s", what);
}

/* The kind flamegraph.pl's annotation at the end of name [s, s + len) gives: `_[j]`, `_[i]`, `_[k]`; else unknown. */
static uint32_t annotated_kind(const unsigned char *s, size_t len)
{
	static const char marks[] = "jik";
	static const uint32_t kinds[] = { PROFDATA_FRAME_KIND_JIT, PROFDATA_FRAME_KIND_INLINED, PROFDATA_FRAME_KIND_KERNEL };
	if (len < 5 || memcmp(s + len - 4, "_[", 2) != 0 || s[len - 1] != ']')
		return PROFDATA_FRAME_KIND_UNKNOWN;
	const char *m = memchr(marks, s[len - 2], 3);
	return m ? kinds[m - marks] : PROFDATA_FRAME_KIND_UNKNOWN;
}

/*
 * The frame id of name [s, s + len) of hash `hash` (pd_intern_hash), sending
 * its function and frame when new, and its kind when annotated (the name
 * keeps its annotation: that is what the writer writes back).
 */
static int frame_id(folded_decoder *d, const unsigned char *s, size_t len, uint64_t hash, uint64_t *id)
{
	uint32_t found;
	int rc = 0;
	if (pd_intern_find_hashed(&d->names, (const char *)s, len, hash, &found))
		*id = (uint64_t)found + 1;
	else if ((rc = pd_emit_interned_string(d->a, &d->names, (const char *)s, len, id)) != 0)
		return rc;
	size_t ix = (size_t)(*id - 1);
	if (ix >= d->framed_cap) {
		size_t old = d->framed_cap;
		if (pd_grow((void **)&d->framed, &d->framed_cap, ix + 1, 1))
			return PROFDATA_ENOMEM;
		memset(d->framed + old, 0, d->framed_cap - old);
	}
	if (d->framed[ix])
		return 0;
	d->framed[ix] = 1;
	profdata_function fn = { .id = *id, .name_id = *id };
	profdata_frame fr = { .id = *id, .function_id = *id };
	profdata_frame_kind k = { .frame_id = *id, .kind = annotated_kind(s, len) };
	if ((rc = PD_EMIT(d->a, function, &fn)) != 0 || (rc = PD_EMIT(d->a, frame, &fr)) != 0)
		return rc;
	return k.kind ? PD_EMIT(d->a, frame_kind, &k) : 0;
}

/* The next line's stack slot asked of memory ahead, when the thread ahead has split that line. */
static void prefetch_next_line(const folded_decoder *d)
{
	const pd_folded_ahead_line *l;
	if (pd_folded_ahead_peek(&d->ahead, 1, &l))
		pd_index_prefetch(&d->stacks, l->chain_hash);
}

/*
 * Chain [s, end) split (n frames): as the thread ahead split it, its
 * names' hashes and numbers then with it (d->hashed; read where the thread
 * left them, valid until the next line), else here. 0, 1 when a name is
 * empty (*bad where), or PROFDATA_ENOMEM.
 */
static int split_line(folded_decoder *d, const unsigned char *s, const unsigned char *end, size_t *n,
                      const unsigned char **bad)
{
	const pd_folded_ahead_line *l;
	const pd_folded_batch *b;
	d->prev_hashed = d->hashed;
	d->hashed = d->base && pd_folded_ahead_take(&d->ahead, (uint64_t)(s - d->base), (size_t)(end - s), &l, &b);
	if (d->hashed) {
		d->ends = b->ends + l->first;
		d->hashes = b->hashes + l->first;
		d->numbers = b->numbers + l->first;
		d->chain_hash = l->chain_hash;
		*n = l->nframes;
		prefetch_next_line(d);
		return 0;
	}
	int rc = pd_folded_split(s, end, &d->own_ends, &d->own_ends_cap, 0, n, bad);
	if (rc == 0 && pd_grow((void **)&d->own_hashes, &d->own_hashes_cap, *n, sizeof *d->own_hashes))
		rc = PROFDATA_ENOMEM;
	d->ends = d->own_ends;
	d->hashes = d->own_hashes;
	return rc;
}

/* How many bytes a and b (n each) begin with alike: word by word, then byte by byte. */
static size_t common_prefix(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i = 0;
	while (i + 8 <= n && pd_hash_load(a + i, 8) == pd_hash_load(b + i, 8))
		i += 8;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * How many of the last chain's frames chain [s, s + len) (split into
 * ends: n frames) begins with, name for name: those that end before the
 * first byte the two texts differ in, and one that ends there in both.
 * The last line's text is at hand in the cache, where its names as
 * interned are not.
 */
static size_t shared_frames(const folded_decoder *d, const unsigned char *s, size_t len, size_t n)
{
	size_t cp = common_prefix(s, d->prev_text, len < d->prev_len ? len : d->prev_len), k = 0;
	if (n > d->prev_n)
		n = d->prev_n;
	while (k < n && d->ends[k] < cp)
		k++;
	if (k < n && d->ends[k] == cp && (cp == d->prev_len || d->prev_text[cp] == ';'))
		k++;
	return k;
}

/* Keep chain [s, s + len) as the last one: where it stands in a stable input, else a copy. */
static int keep_text(folded_decoder *d, const unsigned char *s, size_t len)
{
	if (!d->in.stable) {
		if (pd_grow((void **)&d->prev_copy, &d->prev_copy_cap, len ? len : 1, 1))
			return PROFDATA_ENOMEM;
		memcpy(d->prev_copy, s, len);
		s = d->prev_copy;
	}
	d->prev_text = s;
	d->prev_len = len;
	return 0;
}

/* Where frame k of the chain split into ends begins. */
static size_t frame_start(const folded_decoder *d, size_t k)
{
	return k ? d->ends[k - 1] + 1 : 0;
}

/*
 * Frames k .. n - 1 of chain s (split into ends), unless the thread ahead
 * split it: its name's hash into own_hashes (from the first frame when the
 * thread split the last line, whose shared frames' hashes are then not
 * there), and its name's slot and then string asked of memory ahead
 * (pd_intern_prefetch_slot): on files of many names each lookup is two
 * cache misses, and a line's frames then wait for theirs together rather
 * than one after another (a fifth less time on 77,000 names).
 */
static void hash_frames(folded_decoder *d, const unsigned char *s, size_t k, size_t n)
{
	if (d->hashed)
		return; /* nearly all its names are known by their numbers */
	for (size_t j = d->prev_hashed ? 0 : k; j < n; j++) {
		size_t at = frame_start(d, j);
		d->own_hashes[j] = pd_intern_hash(&d->names, (const char *)s + at, d->ends[j] - at);
	}
	for (size_t j = k; j < n; j++)
		pd_intern_prefetch_slot(&d->names, d->hashes[j]);
	for (size_t j = k; j < n; j++)
		pd_intern_prefetch_string(&d->names, d->hashes[j]);
}

/*
 * The frame id of frame k of chain s: by its name's number in the thread's
 * table when the reader has met that number (an array read where a lookup
 * among the names is a cache miss or two), else looked up (frame_id()) and
 * then kept by its number.
 */
static int frame_of(folded_decoder *d, const unsigned char *s, size_t k, uint64_t *id)
{
	uint32_t num = d->hashed ? d->numbers[k] : 0;
	if (num < d->id_of_number_cap && d->id_of_number[num]) {
		*id = d->id_of_number[num];
		return 0;
	}
	size_t at = frame_start(d, k);
	int rc = frame_id(d, s + at, d->ends[k] - at, d->hashes[k], id);
	if (rc != 0 || !num)
		return rc;
	if (num >= d->id_of_number_cap) {
		size_t old = d->id_of_number_cap;
		if (pd_grow((void **)&d->id_of_number, &d->id_of_number_cap, (size_t)num + 1, sizeof *d->id_of_number))
			return PROFDATA_ENOMEM;
		memset(d->id_of_number + old, 0, (d->id_of_number_cap - old) * sizeof *d->id_of_number);
	}
	d->id_of_number[num] = (uint32_t)*id; /* an interner's index + 1: below 2^32 */
	return 0;
}

/*
 * The frame ids of chain [s, end) (split_line: n frames), root first, into
 * prev_ids: those it shares with the last chain kept, the others looked up;
 * the chain is then the last one.
 */
static int chain_frames(folded_decoder *d, const unsigned char *s, const unsigned char *end, size_t n)
{
	size_t k = shared_frames(d, s, (size_t)(end - s), n);
	int rc;
	if (pd_grow((void **)&d->prev_ids, &d->prev_ids_cap, n, sizeof *d->prev_ids))
		return PROFDATA_ENOMEM;
	hash_frames(d, s, k, n);
	/* The chain's hash is of its names' hashes, root first: taken before its
	 * frames are looked up, so that its stack's slot is asked of memory while
	 * they are. A shared frame's hash is the last line's: the names' seed
	 * was drawn before the first chain (read_line interns the sample types'
	 * words first). */
	if (!d->hashed)
		d->chain_hash = pd_folded_chain_hash(d->hash_seed, d->hashes, n);
	pd_index_prefetch(&d->stacks, d->chain_hash);
	for (; k < n; k++)
		if ((rc = frame_of(d, s, k, &d->prev_ids[k])) != 0)
			return rc;
	d->prev_n = n;
	return keep_text(d, s, (size_t)(end - s));
}

/*
 * Whether stack `row` has chain [s, end), whose ids (leaf first) are
 * chain_key[0, n): its text in a stable input, else its ids. Text the
 * lines have moved past is read from the mapping again, and the reader
 * told (pd_in_looked_back): a file that repeats its chains (two folded
 * files joined) would otherwise end resident whole.
 */
static int same_chain(const folded_decoder *d, uint32_t row, const unsigned char *s, const unsigned char *end,
                      size_t n)
{
	size_t len = d->in.stable ? (size_t)(end - s) : n * sizeof *d->chain_key;
	uint64_t at = d->chain_at[row];
	if (d->chain_len[row] != len)
		return 0;
	if (!d->in.stable)
		return memcmp((const unsigned char *)d->kept_ids + at, d->chain_key, len) == 0;
	if (at < d->in.win_off)
		pd_in_looked_back(d->in.r);
	return memcmp(d->base + at, s, len) == 0;
}

/* Note where new stack `row`'s chain can be compared later (same_chain). */
static int keep_chain(folded_decoder *d, uint32_t row, const unsigned char *s, const unsigned char *end, size_t n)
{
	if (pd_grow((void **)&d->chain_at, &d->chain_at_cap, (size_t)row + 1, sizeof *d->chain_at) ||
	    pd_grow((void **)&d->chain_len, &d->chain_len_cap, (size_t)row + 1, sizeof *d->chain_len))
		return PROFDATA_ENOMEM;
	if (d->in.stable) {
		d->chain_at[row] = (uint64_t)(s - d->base);
		d->chain_len[row] = (uint32_t)(end - s); /* below 4 GiB: stack_of */
		return 0;
	}
	if (pd_grow((void **)&d->kept_ids, &d->kept_ids_cap, d->nkept_ids + n, sizeof *d->kept_ids))
		return PROFDATA_ENOMEM;
	memcpy(d->kept_ids + d->nkept_ids, d->chain_key, n * sizeof *d->chain_key);
	d->chain_at[row] = (uint64_t)d->nkept_ids * sizeof *d->kept_ids;
	d->chain_len[row] = (uint32_t)(n * sizeof *d->kept_ids);
	d->nkept_ids += n;
	return 0;
}

/*
 * The row of the stack of chain [s, end) (ids in chain_key[0, n)) into
 * *row: 1 when it was there, 0 when new (row nstacks, its chain kept). The
 * index is keyed by the chain's hash; two chains of one hash (never seen
 * in practice: the hash is seeded) are told apart by the second trying
 * the hash of that hash, and so on, as a probe would.
 */
static int find_stack(folded_decoder *d, const unsigned char *s, const unsigned char *end, size_t n, uint32_t *row)
{
	uint32_t mine = d->nstacks;
	if (pd_grow((void **)&d->stack_hash, &d->stack_hash_cap, (size_t)mine + 1, sizeof *d->stack_hash))
		return PROFDATA_ENOMEM;
	uint64_t h = d->chain_hash;
	for (;;) {
		d->stack_hash[mine] = h;
		int rc = pd_index_add(&d->stacks, d->stack_hash, mine, row);
		if (rc == 0) {
			*row = mine;
			d->nstacks++;
			return keep_chain(d, mine, s, end, n);
		}
		if (rc < 0 || same_chain(d, *row, s, end, n))
			return rc;
		h = pd_hash64(h + 1);
	}
}

/*
 * The stack of chain [s, end) (split_line: n frames): its frames' ids,
 * leaf first, sent as a new stack when the chain is new.
 */
static int stack_of(folded_decoder *d, const unsigned char *s, const unsigned char *end, size_t n, uint32_t *serial)
{
	uint32_t row;
	int rc;
	if (pd_grow((void **)&d->frame_ids, &d->frame_ids_cap, n, sizeof *d->frame_ids) ||
	    pd_grow((void **)&d->chain_key, &d->chain_key_cap, n, sizeof *d->chain_key))
		return PROFDATA_ENOMEM;
	if ((rc = chain_frames(d, s, end, n)) != 0)
		return rc;
	for (size_t k = 0; k < n; k++)
		d->frame_ids[n - 1 - k] = d->prev_ids[k];
	for (size_t k = 0; k < n && !d->in.stable; k++)
		d->chain_key[n - 1 - k] = (uint32_t)d->prev_ids[k];
	if (d->nstacks >= UINT32_MAX - 1)
		return pd_in_error_line(d->in.r, PROFDATA_ELIMIT, d->in.loff, d->in.lineno, "folded: too many stacks");
	if ((rc = find_stack(d, s, end, n, &row)) < 0)
		return rc;
	*serial = row + 1;
	profdata_stack st = { .serial = *serial, .frame_ids = d->frame_ids, .nframes = n };
	return rc == 1 ? 0 : PD_EMIT(d->a, stack, &st);
}

/* The sample types, once the first line has said how many counts a line has. */
static int send_sample_types(folded_decoder *d)
{
	static const char *const one[] = { "samples" }, *const two[] = { "before", "after" };
	uint64_t count, type;
	int rc = pd_emit_interned_string(d->a, &d->names, "count", 5, &count);
	for (int i = 0; i < d->ncounts && rc == 0; i++) {
		const char *w = d->ncounts == 1 ? one[i] : two[i];
		if ((rc = pd_emit_interned_string(d->a, &d->names, w, strlen(w), &type)) == 0) {
			profdata_sample_type t = { .type_id = type, .unit_id = count };
			rc = PD_EMIT(d->a, sample_type, &t);
		}
	}
	return rc;
}

/*
 * The counts at the end of the line: *end moved before them, *n how many
 * (the file's, or this line's when it is the first kept: it decides).
 * 0 (*n 0 when the line is passed over), or a stop or error code.
 */
static int line_counts(folded_decoder *d, const unsigned char **end, int64_t v[2], int *n)
{
	const unsigned char *s = d->in.ls, *e = *end;
	*n = 0;
	if (!pd_folded_last_count(s, &e, &v[1]))
		return fail(d, d->in.loff + d->in.ll, "the line does not end in a count after a space; passed over");
	const unsigned char *e2 = e;
	int two = pd_folded_last_count(s, &e2, &v[0]), counts = d->ncounts ? d->ncounts : two ? 2 : 1;
	if (counts == 2 && !two)
		return fail(d, d->in.loff + (uint64_t)(e - s), "one count on a line of a file of two (a differential "
		            "file's before and after); passed over");
	if (counts == 1)
		v[0] = v[1];
	*end = counts == 2 ? e2 : e;
	*n = counts;
	return 0;
}

/*
 * Lines from s on split ahead on a second thread, in stable input big
 * enough for it to pay: splitting here costs about 0.7 ms a megabyte
 * (0.16 s of 230 MB of distinct chains), so on less the thread's start and
 * hand-overs would take much of what it saves.
 */
static void start_ahead(folded_decoder *d, const unsigned char *s)
{
	uint64_t size = d->base ? pd_blob_size(pd_in_blob(d->a->in)) : 0;
	if (size >= FOLDED_AHEAD_MIN)
		pd_folded_ahead_start(&d->ahead, d->base, size, (uint64_t)(s - d->base), d->ncounts, &d->names,
		                      d->hash_seed);
}

static int read_line(folded_decoder *d)
{
	const unsigned char *s = d->in.ls, *end = s + d->in.ll, *bad;
	int64_t v[2];
	uint32_t serial = 0;
	size_t n = 0;
	int counts;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == s || s[0] == '#')
		return 0;
	int rc = line_counts(d, &end, v, &counts);
	if (rc != 0 || !counts)
		return rc;
	if (end == s)
		return fail(d, d->in.loff, "a count without a chain of frames; passed over");
	if ((uint64_t)(end - s) > UINT32_MAX) /* the width of chain_len and ends */
		return pd_in_error_line(d->in.r, PROFDATA_ELIMIT, d->in.loff, d->in.lineno,
		                        "folded: a chain of 4 GiB or more");
	if ((rc = split_line(d, s, end, &n, &bad)) == 1)
		return fail(d, d->in.loff + (uint64_t)(bad - s), "an empty frame name; line passed over");
	if (rc == 0 && !d->ncounts) { /* the first line kept says how many counts the file has */
		d->ncounts = counts;
		if ((rc = send_sample_types(d)) == 0)
			start_ahead(d, end);
	}
	if (rc != 0 || (rc = stack_of(d, s, end, n, &serial)) != 0)
		return rc;
	profdata_sample smp = { .stack_serial = serial, .values = v, .nvalues = (size_t)d->ncounts };
	return PD_EMIT(d->a, sample, &smp);
}

static int read_lines(folded_decoder *d)
{
	profdata_meta m = { .format = "folded" };
	int rc = PD_EMIT(d->a, begin, &m);
	while (rc == 0 && (rc = pd_lines_next(&d->in)) == 1)
		rc = read_line(d);
	pd_lines_finish(&d->in);
	pd_folded_ahead_stop(&d->ahead);
	if (rc == 0 && d->ncounts == 0) {
		d->ncounts = 1;
		rc = send_sample_types(d);
	}
	return rc == 0 ? PD_EMIT0(d->a, end) : rc;
}

int pd_folded_decode(const pd_decode_args *a)
{
	folded_decoder d;
	memset(&d, 0, sizeof d);
	d.a = a;
	d.hash_seed = pd_hash_seed(&d);
	int rc = pd_lines_start(&d.in, a->in, "folded", 0);
	if (rc == 0 && d.in.stable)
		d.base = pd_blob_data(pd_in_blob(a->in));
	if (rc == 0)
		rc = read_lines(&d);
	if (rc == PROFDATA_ENOMEM && !pd_in_diag(a->in)->has_err)
		rc = pd_in_error(a->in, rc, PD_NO_OFFSET, "folded: out of memory");
	pd_folded_ahead_stop(&d.ahead);
	pd_intern_free(&d.names);
	pd_index_free(&d.stacks);
	PD_FREE_ALL(d.framed, d.frame_ids, d.chain_key, d.stack_hash, d.chain_at, d.chain_len, d.kept_ids, d.prev_copy,
	            d.prev_ids, d.own_ends, d.own_hashes, d.id_of_number);
	return rc;
}

/* A line of the sniffed bytes: 1 a chain and a count, 0 a comment or blank, -1 neither. */
static int bid_line(const unsigned char *s, const unsigned char *end)
{
	int64_t v;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	if (end == s || s[0] == '#')
		return 0;
	for (const unsigned char *p = s; p < end; p++)
		if (*p < 0x20 && *p != '\t')
			return -1;
	if (!pd_folded_last_count(s, &end, &v) || end == s)
		return -1;
	pd_folded_last_count(s, &end, &v);
	return end > s && *s != ';' && end[-1] != ';' ? 1 : -1;
}

int pd_folded_bid(const unsigned char *buf, size_t len)
{
	static const char *const headers[] = { "JAVA PROFILE ", "heap profile:", "--- ", "%", NULL };
	const unsigned char *p = buf, *end = buf + len;
	int lines = 0;
	for (size_t i = 0; headers[i]; i++)
		if (len >= strlen(headers[i]) && memcmp(buf, headers[i], strlen(headers[i])) == 0)
			return 0;
	while (p < end) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break; /* the last line may be cut off by the sniff's window */
		int b = bid_line(p, nl);
		if (b < 0)
			return 0;
		lines += b;
		p = nl + 1;
	}
	if (lines == 0 && p == buf && len > 0 && memchr(buf, ';', len))
		return bid_line(buf, end) > 0 ? 20 : 0; /* one line, maybe longer than the window */
	return lines ? 30 : 0;
}
