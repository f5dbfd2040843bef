/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HPROF agent's text output: the writer. What the agent would have
 * written for the model's data, in its layout (the reader's grammar,
 * doc/formats-hprof-text.md, in reverse): the first line and header,
 * THREAD START/END, TRACEs, the heap dump and SITES (encode_heap.c), CPU
 * SAMPLES or CPU TIME, and MONITOR sections kept verbatim. Dates come from
 * the model, never the clock, so that a rewrite is byte-identical.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "hprof_text.h"
#include "util/text.h"


#define HTW_FIRST_TRACE 300001u /* the agent's first trace after its empty trace 300000 */

/* The library's output buffer, with its sticky code returned for the writer's early exits. */
int pd_htw_add(ht_writer *hw, const char *s, size_t n)
{
	pd_outbuf_add(&hw->out, s, n);
	return hw->out.rc;
}

int pd_htw_printf(ht_writer *hw, const char *fmt, ...)
{
	char small[512], *heap = NULL;
	size_t len;
	va_list ap;
	va_start(ap, fmt);
	const char *s = pd_vformat(small, sizeof small, &heap, &len, fmt, ap);
	va_end(ap);
	int rc = s ? pd_htw_add(hw, s, len) : PROFDATA_ENOMEM;
	free(heap);
	return rc;
}

uint32_t pd_htw_trace(const ht_writer *hw, uint32_t stack_serial)
{
	size_t si;
	if (!hw->renumber || profdata_profile_find_stack(hw->p, stack_serial, &si) < 0)
		return stack_serial;
	return hw->serial_of[si];
}

/* The class name without pd_class_prefix's '.', NUL-ended in hw->name. */
int pd_htw_class_name(ht_writer *hw, uint32_t serial)
{
	hw->name.n = 0;
	if (pd_class_prefix(&hw->name, hw->p, serial, 1) < 0)
		return PROFDATA_ENOMEM;
	if (!hw->name.n)
		return 0;
	hw->name.p[--hw->name.n] = '\0';
	return 1;
}

int pd_htw_class_name_of_id(ht_writer *hw, uint64_t id)
{
	size_t ci;
	profdata_class_info info;
	if (profdata_profile_find_class(hw->p, id, &ci) < 0 || profdata_profile_class(hw->p, ci, &info) < 0)
		return 0;
	return pd_htw_class_name(hw, info.load.serial);
}

/* ---- the first line and the header ---- */

/* "Fri Jun 14 01:16:23 2013" (ctime's layout, UTC) for milliseconds since 1970. */
static void ctime_utc(uint64_t ms, char *buf, size_t cap)
{
	static const char days[] = "ThuFriSatSunMonTueWed", months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	int64_t z = (int64_t)(ms / 86400000u), secs = (int64_t)(ms / 1000u % 86400u);
	int wd = (int)(z % 7);
	/* days to a civil date: eras of 400 years starting in March */
	z += 719468;
	int64_t era = z / 146097, doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	int d = (int)(doy - (153 * mp + 2) / 5 + 1), m = (int)(mp < 10 ? mp + 3 : mp - 9);
	int64_t y = yoe + era * 400 + (m <= 2);
	snprintf(buf, cap, "%.3s %.3s %2d %02d:%02d:%02d %" PRId64, days + 3 * wd, months + 3 * (m - 1), d,
	         (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60), y);
}

static void pick_date(ht_writer *hw)
{
	const profdata_meta *m = profdata_profile_meta(hw->p);
	for (size_t i = 0; i < m->ncomments; i++)
		if (strcmp(m->comments[i].key, "hprof-text.created") == 0 && m->comments[i].value &&
		    strlen(m->comments[i].value) < sizeof hw->date && !strpbrk(m->comments[i].value, "\r\n")) {
			strcpy(hw->date, m->comments[i].value);
			return;
		}
	ctime_utc(m->timestamp_ms, hw->date, sizeof hw->date);
}

static int write_header(ht_writer *hw)
{
	static const char own[] =
	        "This file was written by profdata in the layout of the HPROF agent's text output.\n"
	        "THREAD START/END name threads, TRACE the stacks the other records point at by serial;\n"
	        "HEAP DUMP lists roots, classes, objects and arrays with their references, SITES the\n"
	        "allocation sites, CPU SAMPLES or CPU TIME the traces ranked by their share.\n\n--------\n";
	profdata_attachment at;
	int rc = pd_htw_printf(hw, "JAVA PROFILE 1.0.1, created %s\n", hw->date);
	if (rc)
		return rc;
	if (profdata_profile_find_attachment(hw->p, "hprof-text.header", &at) < 0 || !at.len)
		return pd_htw_add(hw, own, sizeof own - 1) ? PROFDATA_ENOMEM : pd_htw_add(hw, "\n", 1);
	if ((rc = pd_htw_add(hw, at.data, at.len)) != 0)
		return rc;
	if (((const char *)at.data)[at.len - 1] != '\n' && (rc = pd_htw_add(hw, "\n", 1)) != 0)
		return rc;
	if ((at.len < 9 || memcmp((const char *)at.data + at.len - 9, "--------\n", 9) != 0) &&
	    (rc = pd_htw_add(hw, "--------\n", 9)) != 0)
		return rc;
	return pd_htw_add(hw, "\n", 1);
}

/* ---- threads ---- */

static int write_threads(ht_writer *hw)
{
	size_t n = profdata_profile_count(hw->p, PROFDATA_TABLE_THREADS);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		profdata_thread_info t;
		size_t nl, gl;
		if (profdata_profile_thread(hw->p, i, &t) < 0 || !t.has_start)
			continue;
		const char *name = pd_profile_text(hw->p, t.start.name_id, &nl);
		const char *group = pd_profile_text(hw->p, t.start.group_name_id, &gl);
		rc = pd_htw_printf(hw, "THREAD START (obj=%" PRIx64 ", id = %" PRIu32 ", name=\"%.*s\", group=\"%.*s\")\n",
		                   t.start.object_id, t.start.serial, (int)nl, name ? name : "", (int)gl,
		                   group ? group : "");
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		profdata_thread_info t;
		if (profdata_profile_thread(hw->p, i, &t) == 0 && t.has_end)
			rc = pd_htw_printf(hw, "THREAD END (id = %" PRIu32 ")\n", t.end.serial);
	}
	return rc;
}

/* ---- the CPU table ---- */

typedef struct cpu_row {
	uint32_t stack;            /* stack index */
	uint32_t key;              /* ties rank by it: the source's serial, or the stack index when renumbered */
	int64_t self, count;
} cpu_row;

typedef struct cpu_table {
	int kind;                  /* 'S' CPU SAMPLES, 'T' CPU TIME; 0 no samples */
	size_t self_ix, count_ix;  /* the sample values of the self column and the count column */
	cpu_row *rows;
	size_t nrows;
	uint64_t total;
	size_t ncut;               /* rows under the agent's cutoff, left out */
} cpu_table;

static int type_is(const profdata_profile *p, size_t i, const char *type, const char *unit)
{
	profdata_sample_type t;
	size_t tl, ul;
	if (profdata_profile_sample_type(p, i, &t) < 0)
		return 0;
	const char *ts = pd_profile_text(p, t.type_id, &tl), *us = pd_profile_text(p, t.unit_id, &ul);
	return ts && tl == strlen(type) && memcmp(ts, type, tl) == 0 &&
	       (!unit || (us && ul == strlen(unit) && memcmp(us, unit, ul) == 0));
}

/* CPU TIME when the model has milliseconds of CPU and calls (what the reader makes of one), else CPU SAMPLES. */
static void cpu_kind(const profdata_profile *p, cpu_table *t)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), ms = n, calls = n;
	for (size_t i = 0; i < n; i++) {
		if (ms == n && type_is(p, i, "cpu", "milliseconds"))
			ms = i;
		if (calls == n && type_is(p, i, "calls", NULL))
			calls = i;
	}
	t->kind = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) ? 'S' : 0;
	t->self_ix = t->count_ix = pd_sample_count_index(p);
	if (t->kind && ms < n && calls < n) {
		t->kind = 'T';
		t->self_ix = ms;
		t->count_ix = calls;
	}
}

static int by_rank(const void *a, const void *b)
{
	const cpu_row *x = a, *y = b;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return pd_order_u64(x->key, y->key);
}

/* The stated total: the sample groups' when they state more than the rows hold (CPU TIME's cutoff), else the rows' sum. */
static void cpu_total(const profdata_profile *p, cpu_table *t)
{
	uint64_t stated = 0, sum = 0;
	size_t first, count;
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_GROUPS); i++) {
		profdata_sample_group g;
		if (profdata_profile_sample_group(p, i, &g, &first, &count) == 0)
			stated += g.total;
	}
	for (size_t i = 0; i < t->nrows; i++)
		sum += t->rows[i].self > 0 ? (uint64_t)t->rows[i].self : 0;
	t->total = stated > sum ? stated : sum;
}

static int cpu_rows(ht_writer *hw, cpu_table *t)
{
	pd_stack_sums self, count;
	memset(&self, 0, sizeof self);
	memset(&count, 0, sizeof count);
	int rc = pd_stack_sums_compute(hw->p, t->self_ix, &self, pd_out_diag(hw->w), "hprof-text");
	if (rc == 0)
		rc = pd_stack_sums_compute(hw->p, t->count_ix, &count, pd_out_diag(hw->w), "hprof-text");
	if (rc == 0 && !(t->rows = calloc(self.nordered + 1, sizeof *t->rows)))
		rc = PROFDATA_ENOMEM;
	for (size_t k = 0; rc == 0 && k < self.nordered; k++) {
		uint32_t si = self.order[k];
		profdata_stack st;
		profdata_profile_stack(hw->p, si, &st);
		cpu_row *r = &t->rows[t->nrows++];
		r->stack = si;
		r->key = hw->renumber ? si : st.serial;
		r->self = self.value[si];
		r->count = count.value[si];
	}
	pd_stack_sums_free(&self);
	pd_stack_sums_free(&count);
	if (rc)
		return rc;
	qsort(t->rows, t->nrows, sizeof *t->rows, by_rank);
	cpu_total(hw->p, t);
	/*
	 * The agent stops at the first trace under its cutoff, 0.01 % of the
	 * total; a share read back from the text is only as exact as its print,
	 * so a row is kept while its share prints as at least 0.01 %.
	 */
	size_t keep = 0;
	while (keep < t->nrows && t->total && t->rows[keep].self > 0 &&
	       (double)t->rows[keep].self * 100.0 / (double)t->total >= 0.005)
		keep++;
	t->ncut = t->nrows - keep;
	t->nrows = keep;
	return 0;
}

/* ---- traces (the CPU table's first) ---- */

/* Frame id's name ("Class.method" as every writer names frames) into hw->name; its frame index or -1. */
static long leaf_name(ht_writer *hw, uint64_t frame_id)
{
	size_t fi, len;
	hw->name.n = 0;
	if (profdata_profile_find_frame(hw->p, frame_id, &fi) < 0)
		return pd_strbuf_add(&hw->name, "[unknown]", 9) < 0 ? PROFDATA_ENOMEM : -1;
	const char *name = pd_frame_name(&hw->names, fi, &len);
	return pd_strbuf_add(&hw->name, name, len) < 0 ? PROFDATA_ENOMEM : (long)fi;
}

/* "(Source:Line)" as the agent prints a frame's place: a number, "Unknown line", "Compiled method", "Native method". */
static int write_place(ht_writer *hw, long fi)
{
	profdata_frame fr;
	profdata_function fn;
	size_t fni, sl = 0;
	const char *src = NULL;
	memset(&fr, 0, sizeof fr);
	if (fi >= 0 && profdata_profile_frame(hw->p, (size_t)fi, &fr) == 0 &&
	    profdata_profile_find_function(hw->p, fr.function_id, &fni) == 0 &&
	    profdata_profile_function(hw->p, fni, &fn) == 0)
		src = pd_profile_text(hw->p, fn.source_file_id, &sl);
	if (!src || !sl || memchr(src, '(', sl) || memchr(src, '\n', sl)) {
		src = "<Unknown Source>";
		sl = 16;
	}
	if (fr.line > 0)
		return pd_htw_printf(hw, "(%.*s:%" PRId32 ")\n", (int)sl, src, fr.line);
	return pd_htw_printf(hw, "(%.*s:%s)\n", (int)sl, src,
	                     fr.line == PROFDATA_LINE_COMPILED ? "Compiled method"
	                     : fr.line == PROFDATA_LINE_NATIVE ? "Native method" : "Unknown line");
}

/* TRACE 301000: (thread=200001) and its frames, leaf first, tab-indented. */
static int write_trace(ht_writer *hw, size_t si)
{
	profdata_stack st;
	long fi;
	int rc;
	profdata_profile_stack(hw->p, si, &st);
	rc = st.thread_serial ? pd_htw_printf(hw, "TRACE %" PRIu32 ": (thread=%" PRIu32 ")\n", hw->serial_of[si],
	                                      st.thread_serial)
	                      : pd_htw_printf(hw, "TRACE %" PRIu32 ":\n", hw->serial_of[si]);
	if (rc == 0 && !st.nframes)
		rc = pd_htw_add(hw, "\t<empty>\n", 9);
	for (size_t j = 0; j < st.nframes && rc == 0; j++) {
		if ((fi = leaf_name(hw, st.frame_ids[j])) == PROFDATA_ENOMEM)
			return PROFDATA_ENOMEM;
		if ((rc = pd_htw_add(hw, "\t", 1)) == 0 && (rc = pd_htw_add(hw, hw->name.p, hw->name.n)) == 0)
			rc = write_place(hw, fi);
	}
	return rc;
}

/*
 * Every stack's TRACE in model order: a file read keeps the order it had
 * (the agent's: the CPU table's traces in rank order), so a rewrite reads
 * back into an equal model. Renumbered from 300001 in that order when the
 * source has no serials.
 */
static int write_traces(ht_writer *hw)
{
	size_t n = profdata_profile_count(hw->p, PROFDATA_TABLE_STACKS);
	uint32_t next = HTW_FIRST_TRACE;
	int rc = 0;
	if (!(hw->serial_of = calloc(n + 1, sizeof *hw->serial_of)))
		return PROFDATA_ENOMEM;
	for (size_t si = 0; si < n; si++) {
		profdata_stack st;
		profdata_profile_stack(hw->p, si, &st);
		hw->serial_of[si] = st.serial;
	}
	for (size_t si = 0; si < n && rc == 0; si++) {
		if (hw->renumber)
			hw->serial_of[si] = next++;
		rc = write_trace(hw, si);
	}
	return rc;
}

static int write_cpu(ht_writer *hw, const cpu_table *t)
{
	static const char *const begin[] = { "CPU SAMPLES BEGIN", "CPU TIME (ms) BEGIN" };
	double accum = 0;
	int rc = 0;
	if (!t->kind)
		return 0;
	rc = pd_htw_printf(hw, "%s (total = %" PRIu64 ") %s\nrank   self  accum   count trace method\n",
	                   begin[t->kind == 'T'], t->total, hw->date);
	for (size_t i = 0; i < t->nrows && rc == 0; i++) {
		const cpu_row *r = &t->rows[i];
		profdata_stack st;
		double percent = 100.0 * (double)r->self / (double)t->total;
		accum += percent;
		profdata_profile_stack(hw->p, r->stack, &st);
		rc = pd_htw_printf(hw, "%4zu %5.2f%% %5.2f%% %7" PRId64 " %5" PRIu32 " ", i + 1, percent, accum,
		                   r->count, pd_htw_trace(hw, st.serial));
		hw->name.n = 0;
		if (rc == 0 && st.nframes && leaf_name(hw, st.frame_ids[0]) < 0)
			rc = PROFDATA_ENOMEM;
		if (rc == 0)
			rc = st.nframes ? pd_htw_add(hw, hw->name.p, hw->name.n) : pd_htw_add(hw, "<empty>", 7);
		if (rc == 0)
			rc = pd_htw_add(hw, "\n", 1);
	}
	return rc ? rc : pd_htw_printf(hw, "%s END\n", t->kind == 'T' ? "CPU TIME (ms)" : "CPU SAMPLES");
}

/* ---- MONITOR TIME, MONITOR DUMP: kept verbatim by the reader ---- */

static int write_verbatim(ht_writer *hw, const char *name)
{
	profdata_attachment at;
	if (profdata_profile_find_attachment(hw->p, name, &at) < 0 || !at.len)
		return 0;
	int rc = pd_htw_add(hw, at.data, at.len);
	return rc == 0 && ((const char *)at.data)[at.len - 1] != '\n' ? pd_htw_add(hw, "\n", 1) : rc;
}

/* ---- what the text cannot hold ---- */

static void warn_losses(ht_writer *hw, const cpu_table *t)
{
	const profdata_profile *p = hw->p;
	size_t ntypes = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES);
	size_t written = t->kind == 'T' ? 2 : t->kind ? 1 : 0;
	if (ntypes > written)
		pd_out_warn(hw->w, "hprof-text: %zu sample types not written (the text holds CPU samples, or CPU "
		            "milliseconds and calls)", ntypes - written);
	if (t->ncut)
		pd_out_warn(hw->w, "hprof-text: %zu traces under the agent's cutoff (0.01%% of the total) left out of "
		            "the CPU table", t->ncut);
	if (profdata_profile_count(p, PROFDATA_TABLE_LABEL_SETS))
		pd_out_warn(hw->w, "hprof-text: the samples' labels are not written (the text has no place for them)");
	if (profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS))
		pd_out_warn(hw->w, "hprof-text: %zu trace events not written",
		            profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS));
	if (profdata_profile_meta(p)->id_size && profdata_profile_count(p, PROFDATA_TABLE_OBJECTS))
		pd_out_warn(hw->w, "hprof-text: primitive field values, primitive array elements and null references "
		            "are not written (the agent's text lists non-null references only)");
	if (profdata_profile_count(p, PROFDATA_TABLE_MAPPINGS))
		pd_out_warn(hw->w, "hprof-text: %zu mappings not written (frames are named by function only)",
		            profdata_profile_count(p, PROFDATA_TABLE_MAPPINGS));
}

/* Sources whose stacks carry the agent's own serials keep them; others are numbered as the agent numbers. */
static int has_own_serials(const profdata_profile *p)
{
	const char *f = profdata_profile_meta(p)->format;
	return f && (strcmp(f, "hprof") == 0 || strcmp(f, "hprof-text") == 0);
}

static int write_all(ht_writer *hw, cpu_table *t)
{
	int rc;
	cpu_kind(hw->p, t);
	if ((t->kind && (rc = cpu_rows(hw, t)) != 0) || (rc = write_header(hw)) != 0 || (rc = write_threads(hw)) != 0 ||
	    (rc = write_traces(hw)) != 0 || (rc = pd_htw_heap(hw)) != 0 || (rc = pd_htw_sites(hw)) != 0 ||
	    (rc = write_cpu(hw, t)) != 0 || (rc = write_verbatim(hw, "hprof-text.monitor-time")) != 0 ||
	    (rc = write_verbatim(hw, "hprof-text.monitor-dump")) != 0)
		return rc;
	warn_losses(hw, t);
	return pd_outbuf_finish(&hw->out);
}

int pd_hprof_text_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts)
{
	ht_writer hw;
	cpu_table t;
	int rc;
	(void)opts;
	memset(&hw, 0, sizeof hw);
	memset(&t, 0, sizeof t);
	hw.p = p;
	hw.w = w;
	hw.out.w = w;
	hw.renumber = !has_own_serials(p);
	pick_date(&hw);
	rc = pd_frame_names_render(p, &hw.names) ? PROFDATA_ENOMEM : write_all(&hw, &t);
	if (rc == PROFDATA_ENOMEM)
		rc = pd_out_error(w, PROFDATA_ENOMEM, "hprof-text: out of memory");
	pd_frame_names_free(&hw.names);
	PD_FREE_ALL(hw.out.buf.p, hw.name.p, hw.serial_of, t.rows); /* (the buffer when write_all stopped early) */
	return rc;
}

