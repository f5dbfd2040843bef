/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Java variant (version 1): "0xADDR name" symbol lines after the
 * records name the PCs, so functions come from the text and frames, stacks
 * and samples are emitted once it is read.
 */
#include <stdlib.h>
#include <string.h>

#include "codecs/gperftools/gperftools.h"

typedef struct java_symbol {
	uint64_t pc;
	uint64_t function_id;
	size_t order;    /* line order: the first line naming a PC wins */
	int32_t line;
} java_symbol;

static int by_pc_then_order(const void *a, const void *b)
{
	const java_symbol *x = a, *y = b;
	return x->pc != y->pc ? pd_order_u64(x->pc, y->pc) : pd_order_u64(x->order, y->order);
}

static const java_symbol *symbol_of_pc(const java_symbol *syms, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (syms[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && syms[lo].pc == pc ? &syms[lo] : NULL;
}

/*
 * Split a symbol description the way google/pprof does: "name (file:line)",
 * "name (path)" (a shared library: the file is its base name), or all of it
 * as the name. A line that is not a positive number counts as none.
 */
static void split_symbol(const char *s, size_t len, size_t *name_len, const char **file, size_t *file_len,
                            int32_t *line)
{
	size_t open, k, colon;
	*name_len = len;
	*file = NULL;
	*file_len = 0;
	*line = 0;
	if (len < 4 || s[len - 1] != ')')
		return;
	for (open = len - 1; open > 0 && s[open] != '('; open--)
		;
	/* "name (x)": a space before the parenthesis, something inside */
	if (open == 0 || !pd_gperftools_is_space((unsigned char)s[open - 1]) || open + 1 >= len - 1)
		return;
	k = len - 1; /* the ')' */
	while (k > open + 1 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	colon = k;
	if (k < len - 1 && k > open + 1 && s[k - 1] == '-')
		colon = k - 1;
	if (colon < len - 1 && colon > open + 2 && s[colon - 1] == ':') {
		/* (file:line) */
		long long ln = 0;
		size_t t;
		for (t = k; t < len - 1 && ln < 1000000000; t++)
			ln = ln * 10 + (s[t] - '0');
		*file = s + open + 1;
		*file_len = colon - 1 - (open + 1);
		*line = (colon != k || ln >= 1000000000) ? 0 : (int32_t)ln;
	} else {
		/* (path): keep its base name */
		*file = s + open + 1;
		*file_len = len - 1 - (open + 1);
		for (k = *file_len; k > 0; k--) {
			if ((*file)[k - 1] == '/') {
				*file += k;
				*file_len -= k;
				break;
			}
		}
	}
	k = open;
	while (k > 0 && pd_gperftools_is_space((unsigned char)s[k - 1]))
		k--;
	*name_len = k;
}

/* Parse the symbol lines into functions (emitted now) and a PC -> function table. */
static int read_symbols(pd_gperftools_decoder *d, const char *s, size_t len, java_symbol **out, size_t *nout)
{
	java_symbol *syms = NULL;
	size_t nsyms = 0, syms_cap = 0, i = 0, k;
	pd_map fns; /* name id << 32 | file id -> function id */
	uint32_t nfns = 0;
	int rc = 0;

	memset(&fns, 0, sizeof fns);
	while (i < len && rc == 0) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len, j = pd_gperftools_skip_space(s, e, i), name_len, file_len, t;
		uint64_t pc, name_id = 0, file_id = 0, key;
		uint32_t fid;
		const char *file;
		int32_t line;

		i = e + 1;
		while (e > j && pd_gperftools_is_space((unsigned char)s[e - 1]))
			e--;
		if (e - j < 4 || s[j] != '0' || (s[j + 1] != 'x' && s[j + 1] != 'X'))
			continue;
		t = j + 2;
		if (!pd_gperftools_parse_hex(s, e, &t, &pc) || t >= e || !pd_gperftools_is_space((unsigned char)s[t]))
			continue;
		t = pd_gperftools_skip_space(s, e, t);
		split_symbol(s + t, e - t, &name_len, &file, &file_len, &line);
		if ((rc = pd_gperftools_emit_string(d, &name_id, s + t, name_len)) != 0)
			break;
		if (file_len && (rc = pd_gperftools_emit_string(d, &file_id, file, file_len)) != 0)
			break;
		key = (name_id << 32) | file_id;
		fid = pd_map_get(&fns, key);
		if (!fid) {
			profdata_function f;
			fid = ++nfns;
			if ((rc = pd_map_put(&fns, key, fid)) != 0)
				break;
			memset(&f, 0, sizeof f);
			f.id = fid;
			f.name_id = name_id;
			f.source_file_id = file_id;
			rc = PD_EMIT(d->a, function, &f);
			if (rc) {
				rc = PD_GPERFTOOLS_STOP(d, rc);
				break;
			}
		}
		if (pd_grow((void **)&syms, &syms_cap, nsyms + 1, sizeof *syms)) {
			rc = PROFDATA_ENOMEM;
			break;
		}
		syms[nsyms].pc = pc;
		syms[nsyms].function_id = fid;
		syms[nsyms].line = line;
		syms[nsyms].order = nsyms;
		nsyms++;
	}
	pd_map_free(&fns);
	if (rc) {
		free(syms);
		return rc;
	}
	if (nsyms > 1) {
		size_t w = 1;
		qsort(syms, nsyms, sizeof *syms, by_pc_then_order);
		for (k = 1; k < nsyms; k++)
			if (syms[k].pc != syms[w - 1].pc)
				syms[w++] = syms[k];
		nsyms = w;
	}
	*out = syms;
	*nout = nsyms;
	return 0;
}

/*
 * The Java variant, once the records are read: functions from the symbol
 * text, then frames in order of first appearance, stacks, samples.
 */
int pd_gperftools_java(pd_gperftools_decoder *d, const unsigned char *text, size_t len)
{
	java_symbol *syms = NULL;
	size_t nsyms = 0, k;
	const uint64_t *pcs = d->pc_of_frame;
	int rc = read_symbols(d, (const char *)text, len, &syms, &nsyms);
	if (rc)
		return rc;
	for (k = 0; k < d->npcs && rc == 0; k++) {
		const java_symbol *sy = symbol_of_pc(syms, nsyms, pcs[k]);
		rc = pd_gperftools_emit_frame(d, k + 1, pcs[k], sy ? sy->function_id : 0, sy ? sy->line : 0);
	}
	free(syms);
	for (k = 0; k < d->nchains && rc == 0; k++) {
		profdata_stack st;
		const pd_gperftools_chain *c = &d->chains[k];
		size_t f;
		if (pd_grow((void **)&d->frame_ids, &d->frame_ids_cap, c->n ? c->n : 1, sizeof *d->frame_ids)) {
			rc = PROFDATA_ENOMEM;
			break;
		}
		for (f = 0; f < c->n; f++) {
			uint32_t id;
			rc = pd_gperftools_frame_id(d, d->chain_pcs[c->off + f], &id);
			if (rc)
				break;
			d->frame_ids[f] = id;
		}
		if (rc)
			break;
		memset(&st, 0, sizeof st);
		st.serial = (uint32_t)(k + 1);
		st.frame_ids = d->frame_ids;
		st.nframes = c->n;
		rc = PD_EMIT(d->a, stack, &st);
		if (rc)
			rc = PD_GPERFTOOLS_STOP(d, rc);
	}
	for (k = 0; k < d->nrecords_kept && rc == 0; k++)
		rc = pd_gperftools_emit_sample(d, d->records[k].serial, d->records[k].count);
	return rc;
}
