/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profdata_profile_reference_count(): not kept while building, since counting
 * reads every payload again, which a model load should not pay for when
 * nobody asks. The walk is in object order, which is file order for a mapped
 * input: a sequential pass. A big mapped file is read for it with pread() on
 * a helper thread (io/readahead.h) rather than through the mapping: its page
 * faults and the unmapping behind them cost more than the copy, several
 * times more on some VMs. Payloads the window cannot hold (behind it, or
 * wider than its headroom) are read through the mapping.
 */
#include "model/model_impl.h"
#include "io/pager.h"
#include "io/readahead.h"

#define WINDOW_MIN_BLOB ((uint64_t)64 << 20)
#define WINDOW_CHUNK ((size_t)4 << 20)
#define WINDOW_HEADROOM ((size_t)1 << 20)

/* The file bytes [from, to) at data, moving forward through the file. */
typedef struct window {
	pd_readahead *ra;
	unsigned char *data;
	uint64_t from, to;
	int done;              /* the end of the file, or a failed read: nothing more comes */
} window;

/* The bytes [pos, pos + len) of the file, or NULL when the window cannot give them. */
static const unsigned char *window_bytes(window *w, uint64_t pos, uint64_t len)
{
	if (pos < w->from)
		return NULL;
	while (pos + len > w->to && !w->done) {
		uint64_t keep_from = pos < w->to ? pos : w->to;
		size_t keep = (size_t)(w->to - keep_from);
		if (keep > WINDOW_HEADROOM)
			return NULL;
		unsigned char *d;
		long n = pd_readahead_next(w->ra, keep ? w->data + (keep_from - w->from) : NULL, keep, &d);
		if (n < 0 || (size_t)n == keep)
			w->done = 1;
		if (n < 0)
			return NULL;
		w->data = d;
		w->from = keep_from;
		w->to = keep_from + (uint64_t)n;
	}
	return pos + len <= w->to ? w->data + (pos - w->from) : NULL;
}

/* The references of object i, its payload from the window when it can, else from where the model has it. */
static uint64_t count_object(const profdata_profile *p, size_t i, window *w, pd_pager *pass)
{
	if (p->obj_refs_start) {
		long n = profdata_profile_object_refs(p, i, 0, NULL, 0);
		return n > 0 ? (uint64_t)n : 0;
	}
	uint64_t len, pos = pd_obj_payload(p, i);
	int kind = pd_obj_kind(p, i) & 3;
	if (pos == UINT64_MAX || (kind != PROFDATA_OBJECT_INSTANCE && kind != PROFDATA_OBJECT_ARRAY))
		return 0; /* (primitive arrays hold none: their bytes are not read) */
	const unsigned char *d = pd_object_data(p, i, &len);
	const unsigned char *near = w->ra && pos < p->arena_base ? window_bytes(w, pos, len) : NULL;
	pd_jvm_refs sink = { NULL, 0, 0, 0, 0 };
	if (pd_object_refs_in(p, i, near ? near : d, len, &sink) < 0)
		return 0;
	if (!near && pos < p->arena_base) {
		if (w->ra) /* read through the mapping: leave no pages of it behind */
			pd_blob_done(p->blob, pos, pos + len);
		else if (pass)
			pd_pager_advance(pass, pos);
	}
	return sink.n;
}

uint64_t profdata_profile_reference_count(const profdata_profile *p)
{
	window w = { NULL, NULL, 0, 0, 0 };
	pd_pager *pass = NULL;
	int fd = p->blob && pd_blob_mapped(p->blob) ? pd_blob_fd(p->blob) : -1;
	if (fd >= 0 && pd_blob_size(p->blob) >= WINDOW_MIN_BLOB && pd_blob_check(p->blob) == 0)
		w.ra = pd_readahead_start(fd, 0, WINDOW_CHUNK, WINDOW_HEADROOM);
	if (!w.ra)
		pass = pd_pager_start(p->blob);
	uint64_t total = 0;
	for (size_t i = 0; i < p->nobjects; i++)
		total += count_object(p, i, &w, pass);
	pd_readahead_stop(w.ra);
	pd_pager_stop(pass);
	return total;
}
