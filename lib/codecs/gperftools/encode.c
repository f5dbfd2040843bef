/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing gperftools CPU profiles from a built profile (a conversion gets
 * here through the model encoder, core/model_encoder.c). One record per
 * sample, in sample order. Frames without an address (JVM frames) get
 * made-up PCs 1, 2, ... and the file becomes the Java variant, whose symbol
 * lines name them; a native profile gets its maps text back, or maps lines
 * made from its mappings.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/gperftools/gperftools.h"
#include "analysis/samples.h"

typedef struct gperftools_writer {
	const profdata_profile *p;
	profdata_writer *w;
	unsigned ws;
	int be;
	uint64_t period_us;
	int java;                 /* write the Java variant (version 1) */
	uint64_t *header_extra;   /* header slots after version and period */
	size_t nheader_extra, header_extra_cap;
	uint64_t *frame_pc;       /* frame index -> PC written */
	size_t *stack_pcs_off;    /* stack index -> offset in stack_pcs; nstacks + 1 entries */
	uint64_t *stack_pcs;
	int warned_empty;
} gperftools_writer;

static int writer_error(gperftools_writer *gw, int code, const char *what)
{
	return pd_out_error(gw->w, code, "gperftools: %s", what);
}

/* The period in microseconds, saying when it had to be assumed or was not a time. */
static void read_period(gperftools_writer *gw, const profdata_meta *m)
{
	uint64_t period = m->period;
	const char *unit = m->period_unit;
	if (period && unit && strcmp(unit, "nanoseconds") == 0)
		period = (period + 500) / 1000;
	else if (period && unit && strcmp(unit, "milliseconds") == 0)
		period = period * 1000;
	else if (period && unit && strcmp(unit, "seconds") == 0)
		period = period * 1000000;
	else if (period && unit && strcmp(unit, "microseconds") != 0)
		pd_out_warn(gw->w, "gperftools: sampling period unit \"%s\" is not a time: wrote %" PRIu64
		            " as microseconds", unit, period);
	if (!period) {
		period = 10000;
		pd_out_warn(gw->w, "gperftools: the input has no sampling period: wrote 10000 us (100 Hz)");
	}
	gw->period_us = period;
}

/* Header slots a gperftools source kept in a comment (the last such comment wins). */
static int read_header_extra(gperftools_writer *gw, const profdata_meta *m)
{
	for (size_t i = 0; i < m->ncomments; i++) {
		const char *v = m->comments[i].value;
		if (!m->comments[i].key || strcmp(m->comments[i].key, GPERFTOOLS_HEADER_KEY) != 0 || !v)
			continue;
		gw->nheader_extra = 0;
		while (*v) {
			char *end;
			unsigned long long x;
			while (*v == ' ')
				v++;
			if (!*v)
				break;
			x = strtoull(v, &end, 0);
			if (end == v)
				break;
			if (pd_grow((void **)&gw->header_extra, &gw->header_extra_cap, gw->nheader_extra + 1,
			            sizeof *gw->header_extra))
				return writer_error(gw, PROFDATA_ENOMEM, "out of memory");
			gw->header_extra[gw->nheader_extra++] = x;
			v = end;
		}
	}
	return 0;
}

/*
 * Every frame's PC (made up when it has none), and every stack's PCs. A frame
 * without an address but with a mapping is a call inlined at the frame
 * below it (the symbolize transform's): it has no PC of its own and is left
 * out, so that a symbolized profile writes the PCs it was read with.
 */
static int assign_pcs(gperftools_writer *gw)
{
	size_t nframes = profdata_profile_count(gw->p, PROFDATA_TABLE_FRAMES);
	size_t nstacks = profdata_profile_count(gw->p, PROFDATA_TABLE_STACKS), npcs = 0;
	uint64_t made_up = 0;
	unsigned char *inlined = calloc(nframes + 1, 1);
	gw->frame_pc = malloc((nframes + 1) * sizeof *gw->frame_pc);
	gw->stack_pcs_off = malloc((nstacks + 1) * sizeof *gw->stack_pcs_off);
	if (!inlined || !gw->frame_pc || !gw->stack_pcs_off) {
		free(inlined);
		return writer_error(gw, PROFDATA_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nframes; i++) {
		profdata_frame fr;
		profdata_profile_frame(gw->p, i, &fr);
		inlined[i] = !fr.has_address && fr.mapping != 0;
		gw->frame_pc[i] = fr.has_address ? fr.address : inlined[i] ? 0 : ++made_up;
	}
	gw->java = made_up > 0;
	for (size_t i = 0; i < nstacks; i++) {
		profdata_stack st;
		profdata_profile_stack(gw->p, i, &st);
		gw->stack_pcs_off[i] = npcs;
		npcs += st.nframes;
	}
	gw->stack_pcs_off[nstacks] = npcs;
	if (!(gw->stack_pcs = malloc((npcs + 1) * sizeof *gw->stack_pcs))) {
		free(inlined);
		return writer_error(gw, PROFDATA_ENOMEM, "out of memory");
	}
	npcs = 0;
	for (size_t i = 0; i < nstacks; i++) {
		profdata_stack st;
		profdata_profile_stack(gw->p, i, &st);
		gw->stack_pcs_off[i] = npcs;
		for (size_t j = 0; j < st.nframes; j++) {
			size_t fi;
			if (profdata_profile_find_frame(gw->p, st.frame_ids[j], &fi) < 0) {
				free(inlined);
				return pd_out_error(gw->w, PROFDATA_EINVAL, "gperftools: stack %" PRIu32 " lists frame %" PRIu64
				                    " that no frame event defined", st.serial, st.frame_ids[j]);
			}
			if (!inlined[fi])
				gw->stack_pcs[npcs++] = gw->frame_pc[fi];
		}
	}
	gw->stack_pcs_off[nstacks] = npcs;
	free(inlined);
	return 0;
}

static int write_slots(gperftools_writer *gw, const uint64_t *v, size_t n)
{
	unsigned char *p = pd_out_reserve(gw->w, n * gw->ws);
	if (!p)
		return PROFDATA_EIO;
	for (size_t i = 0; i < n; i++)
		pd_gperftools_store(p + i * gw->ws, v[i], gw->ws, gw->be);
	pd_out_commit(gw->w, n * gw->ws);
	return 0;
}

static int write_header(gperftools_writer *gw)
{
	uint64_t h[5];
	size_t n = 0;
	int rc;
	h[n++] = 0;
	h[n++] = 2 + (gw->nheader_extra ? gw->nheader_extra : 1);
	h[n++] = gw->java ? 1 : 0;
	h[n++] = gw->period_us;
	if (!gw->nheader_extra)
		h[n++] = 0;
	if (gw->ws == 4 && gw->period_us > UINT32_MAX)
		return writer_error(gw, PROFDATA_ERANGE, "the sampling period does not fit 32 bits");
	rc = write_slots(gw, h, n);
	for (size_t i = 0; i < gw->nheader_extra && rc == 0; i++) {
		if (gw->ws == 4 && gw->header_extra[i] > UINT32_MAX)
			return writer_error(gw, PROFDATA_ERANGE, "a header slot does not fit 32 bits");
		rc = write_slots(gw, &gw->header_extra[i], 1);
	}
	return rc;
}

/* One record: count, n, then the PCs, each layout spelled out so the stores inline. */
GPERFTOOLS_INLINE void put_record(unsigned char *p, uint64_t count, const uint64_t *pcs, size_t n, unsigned ws,
                                  int be)
{
	pd_gperftools_store(p, count, ws, be);
	pd_gperftools_store(p + ws, n, ws, be);
	for (size_t i = 0; i < n; i++)
		pd_gperftools_store(p + (2 + i) * ws, pcs[i], ws, be);
}

static int check_record(gperftools_writer *gw, uint64_t count, const uint64_t *pcs, size_t n)
{
	if (n == 0 && !gw->warned_empty) {
		gw->warned_empty = 1;
		pd_out_warn(gw->w, "gperftools: wrote records with no PCs (the format asks for at least one)");
	}
	if (gw->ws == 4) {
		if (count > UINT32_MAX)
			return writer_error(gw, PROFDATA_ERANGE, "a sample count does not fit 32 bits");
		for (size_t i = 0; i < n; i++)
			if (pcs[i] > UINT32_MAX)
				return pd_out_error(gw->w, PROFDATA_ERANGE,
				                    "gperftools: PC 0x%" PRIx64 " does not fit a 32-bit profile", pcs[i]);
	}
	if (n > SIZE_MAX / 8 - 2)
		return writer_error(gw, PROFDATA_ERANGE, "stack too deep");
	return 0;
}

static int write_record(gperftools_writer *gw, uint64_t count, const uint64_t *pcs, size_t n)
{
	unsigned char *p;
	int rc;
	if (count == 0 && n == 1 && pcs[0] == 0) {
		pd_out_warn(gw->w, "gperftools: left out a sample of count 0 at the single PC 0 (it would read as the trailer)");
		return 0;
	}
	if ((rc = check_record(gw, count, pcs, n)) != 0)
		return rc;
	if (!(p = pd_out_reserve(gw->w, (n + 2) * gw->ws)))
		return PROFDATA_EIO;
	if (gw->ws == 8 && !gw->be)
		put_record(p, count, pcs, n, 8, 0);
	else if (gw->ws == 8)
		put_record(p, count, pcs, n, 8, 1);
	else if (!gw->be)
		put_record(p, count, pcs, n, 4, 0);
	else
		put_record(p, count, pcs, n, 4, 1);
	pd_out_commit(gw->w, (n + 2) * gw->ws);
	return 0;
}

static int write_records(gperftools_writer *gw)
{
	size_t count_index = pd_sample_count_index(gw->p);
	pd_sample_walk walk;
	profdata_sample s;
	size_t si;
	int rc = pd_sample_walk_init(&walk, gw->p, pd_out_diag(gw->w), "gperftools");
	while (rc == 0 && (rc = pd_sample_walk_next(&walk, &s, &si)) > 0)
		rc = write_record(gw, (uint64_t)pd_sample_count(&s, count_index), gw->stack_pcs + gw->stack_pcs_off[si],
		                  gw->stack_pcs_off[si + 1] - gw->stack_pcs_off[si]);
	pd_sample_walk_free(&walk);
	return rc;
}

/* One symbol line: PC, name (Java style when it has a class), and "(file:line)" when known. */
static int add_symbol_line(gperftools_writer *gw, uint64_t pc, const profdata_function *f, int32_t line,
                           pd_strbuf *b)
{
	char num[48];
	size_t len, flen;
	const char *name = pd_profile_text(gw->p, f->name_id, &len);
	const char *file = pd_profile_text(gw->p, f->source_file_id, &flen);
	int n = snprintf(num, sizeof num, "0x%016" PRIx64 " ", pc);
	if (pd_strbuf_add(b, num, (size_t)n) || pd_class_prefix(b, gw->p, f->class_serial, 1) ||
	    (name ? pd_strbuf_add(b, name, len) : pd_strbuf_add(b, "?", 1)))
		return PROFDATA_ENOMEM;
	if (file && flen) {
		if (pd_strbuf_add(b, " (", 2) || pd_strbuf_add(b, file, flen))
			return PROFDATA_ENOMEM;
		n = line > 0 ? snprintf(num, sizeof num, ":%" PRId32, line) : 0;
		if (pd_strbuf_add(b, num, (size_t)n) || pd_strbuf_add(b, ")", 1))
			return PROFDATA_ENOMEM;
	}
	return pd_strbuf_add(b, "\n", 1);
}

/* Symbol lines for every frame with a function (the Java variant). */
static int write_symbols(gperftools_writer *gw)
{
	size_t nframes = profdata_profile_count(gw->p, PROFDATA_TABLE_FRAMES);
	pd_strbuf b = { 0, 0, 0 };
	int rc = 0;
	for (size_t i = 0; i < nframes && rc == 0; i++) {
		profdata_frame fr;
		profdata_function f;
		size_t fi;
		profdata_profile_frame(gw->p, i, &fr);
		if (!fr.function_id || profdata_profile_find_function(gw->p, fr.function_id, &fi) < 0)
			continue;
		profdata_profile_function(gw->p, fi, &f);
		rc = add_symbol_line(gw, gw->frame_pc[i], &f, fr.line, &b);
	}
	if (rc == 0 && b.n)
		rc = pd_out_write(gw->w, b.p, b.n);
	free(b.p);
	return rc == PROFDATA_ENOMEM ? writer_error(gw, rc, "out of memory") : rc;
}

/* /proc/self/maps lines (or the short form) for the profile's mappings. */
static int write_maps(gperftools_writer *gw)
{
	size_t n = profdata_profile_count(gw->p, PROFDATA_TABLE_MAPPINGS);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		profdata_mapping m;
		size_t plen;
		const char *path;
		profdata_profile_mapping(gw->p, i, &m);
		path = pd_profile_text(gw->p, m.path_id, &plen);
		if (!path)
			path = "";
		if (!m.perms[0])
			rc = pd_out_printf(gw->w, "%" PRIx64 "-%" PRIx64 " %.*s\n", m.start, m.limit, (int)plen, path);
		else
			rc = pd_out_printf(gw->w, "%08" PRIx64 "-%08" PRIx64 " %.4s %08" PRIx64 " %s %" PRIu64 "%s%.*s\n",
			                   m.start, m.limit, m.perms, m.offset, m.device[0] ? m.device : "00:00", m.inode,
			                   plen ? " " : "", (int)plen, path);
	}
	return rc;
}

/* The trailer, then the text the source had (its first "symbols" or "maps" attachment) or one made here. */
static int write_trailer_and_text(gperftools_writer *gw)
{
	static const uint64_t trailer[3] = { 0, 1, 0 };
	profdata_attachment at;
	int rc = write_slots(gw, trailer, 3);
	if (rc)
		return rc;
	if (profdata_profile_find_attachment(gw->p, gw->java ? "symbols" : "maps", &at) == 0)
		return at.len ? pd_out_write(gw->w, at.data, (size_t)at.len) : 0;
	return gw->java ? write_symbols(gw) : write_maps(gw);
}

static int write_profile(gperftools_writer *gw)
{
	const profdata_meta *m = profdata_profile_meta(gw->p);
	int rc;
	read_period(gw, m);
	if ((rc = read_header_extra(gw, m)) != 0 || (rc = assign_pcs(gw)) != 0)
		return rc;
	gw->java = gw->java || (m->format && strcmp(m->format, "gperftools") == 0 && m->version &&
	                        strcmp(m->version, "1") == 0);
	if ((rc = write_header(gw)) != 0 || (rc = write_records(gw)) != 0)
		return rc;
	return write_trailer_and_text(gw);
}

int pd_gperftools_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts)
{
	gperftools_writer gw;
	unsigned ws;
	int be, rc = pd_gperftools_layout_options(opts, pd_out_diag(w), &ws, &be);
	if (rc || (rc = pd_need_samples(p, w, "gperftools")) < 0)
		return rc;
	memset(&gw, 0, sizeof gw);
	gw.p = p;
	gw.w = w;
	gw.ws = ws ? ws : 8;
	gw.be = be > 0;
	rc = write_profile(&gw);
	free(gw.header_extra);
	free(gw.frame_pc);
	free(gw.stack_pcs_off);
	free(gw.stack_pcs);
	return rc;
}
