/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The heap handle (profdata/heap.h): its options, its error, the caller's
 * progress callback behind the analysis' own reports, and 0.2's
 * profdata_heap_analyze() kept beside profdata_heap_new().
 */
#include "analysis/heap_impl.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* What a heap of the graph only answers for the calls it refuses: constant, so that those reads write nothing. */
static const profdata_error graph_only_error = {
	PROFDATA_EINVAL,
	"the heap was made with graph_only (for paths from GC roots): it has no dominator tree and no retained sizes; "
	"make it without graph_only for them",
	"", PD_NO_OFFSET, 0
};

/* Every report of the analysis passes here: it keeps the phase for messages, then asks the caller. */
static int report(void *payload, const char *phase, uint64_t done, uint64_t total)
{
	profdata_heap *h = payload;
	h->phase = phase;
	int rc = h->progress ? h->progress(h->progress_payload, phase, done, total) : 0;
	if (rc < 0 && !h->legacy)
		h->callback_rc = rc;
	return rc != 0;
}

int pd_heap_failed(profdata_heap *h, int e)
{
	const pd_heap_graph *g = &h->g;
	if (e == PROFDATA_STOPPED && h->callback_rc < 0)
		e = h->callback_rc;
	if (e == PROFDATA_STOPPED || e == h->callback_rc)
		return pd_diag_error(&h->diag, e, PD_NO_OFFSET, 0, "heap analysis stopped by the progress callback in phase %s",
		                     h->phase);
	if (e == PROFDATA_ENOMEM)
		return pd_diag_error(&h->diag, e, PD_NO_OFFSET, 0,
		                     "out of memory in phase %s of the heap analysis (dump %u: %" PD_PRI_HNODE " objects and %" PD_PRI_HNODE " classes)",
		                     h->phase, g->dump, g->n, g->nclasses);
	return pd_diag_error(&h->diag, e, PD_NO_OFFSET, 0, "heap analysis, phase %s: %s", h->phase, profdata_strerror(e));
}

/* What the dump itself does not allow, said before any work starts. */
static int graph_failed(profdata_heap *h, int e, long dump)
{
	const profdata_profile *p = h->g.p;
	if (e == PROFDATA_ENOTFOUND)
		return pd_diag_error(&h->diag, e, PD_NO_OFFSET, 0, "no dump %ld: the profile has %zu", dump, p->dumps.n);
	if (e == PROFDATA_EINVAL)
		return pd_diag_error(&h->diag, e, PD_NO_OFFSET, 0,
		                     "dump %ld has %zu objects and the profile %zu classes: the heap analysis with "
		                     "%d-bit node numbers takes fewer than %" PD_PRI_HNODE " in all (node_bits 0 or 64 "
		                     "takes more)", dump, p->dumps.v[dump].nobjects, p->classes.n, PD_HEAP_WIDTH,
		                     (pd_hnode)PD_HEAP_MAX_NODES);
	return pd_heap_failed(h, e);
}

/* Analyse dump `dump` of p into the new heap h. */
static int build(profdata_heap *h, const profdata_profile *p, long dump)
{
	h->phase = "graph";
	int e = pd_heap_graph_init(&h->g, p, dump);
	h->g.progress = report;
	h->g.progress_user = h;
	if (e != 0)
		return graph_failed(h, e, dump);
	e = pd_heap_analyze(h);
	return e != 0 ? pd_heap_failed(h, e) : 0;
}

static profdata_heap *heap_alloc(profdata_progress_cb progress, void *payload)
{
	profdata_heap *h = calloc(1, sizeof(*h));
	if (h) {
		h->head.width = PD_HEAP_WIDTH;
		pd_diag_init(&h->diag, NULL);
		h->progress = progress;
		h->progress_payload = payload;
	}
	return h;
}

int profdata_heap_new(profdata_heap **out, const profdata_profile *p, const profdata_heap_options *opts)
{
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	int e = opts ? pd_heap_options_adopt(&o, opts) : 0;
	*out = heap_alloc(o.progress, o.payload);
	if (!*out)
		return PROFDATA_ENOMEM;
	(*out)->graph_only = o.graph_only != 0;
	if (e != 0)
		return pd_diag_error(&(*out)->diag, e, PD_NO_OFFSET, 0,
		                     "heap options of version %u: this library knows versions 1 to %u", opts->version,
		                     (unsigned)PROFDATA_HEAP_OPTIONS_VERSION);
	if (o.node_bits != 0 && o.node_bits != 32 && o.node_bits != 64)
		return pd_diag_error(&(*out)->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "heap options: node_bits %u (0, 32 or 64)", o.node_bits);
	return build(*out, p, o.dump);
}

int profdata_heap_analyze(profdata_heap **out, const profdata_profile *p, const profdata_heap_options_0_2 *opts)
{
	profdata_heap_options_0_2 o;
	memset(&o, 0, sizeof(o));
	if (opts)
		memcpy(&o, opts, opts->size && opts->size < sizeof(o) ? opts->size : sizeof(o));
	*out = heap_alloc(o.progress, o.progress_user);
	if (!*out)
		return PROFDATA_ENOMEM;
	(*out)->legacy = 1;
	int e = build(*out, p, o.dump);
	if (e != 0) {
		profdata_heap_free(*out);
		*out = NULL;
	}
	return e;
}

const profdata_error *profdata_heap_error(const profdata_heap *h)
{
	const profdata_error *e = pd_diag_last(&h->diag);
	return e || !h->graph_only ? e : &graph_only_error;
}

void profdata_heap_free(profdata_heap *h)
{
	if (!h)
		return;
	pd_heap_graph_free(&h->g);
	pd_diag_free(&h->diag);
	PD_FREE_ALL(h->num, h->idom, h->ret32, h->ret64, h->class_ret, h);
}
