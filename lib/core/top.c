/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profdata_top_new(): a profile of samples goes straight to the sums
 * (analysis/top.c); a trace has no samples of its own, so its call stacks
 * are derived first, by the trace_stacks transform every writer of samples
 * puts in front of it, into a model of their own.
 */
#include <stdlib.h>

#include "analysis/top.h"
#include "transform/transform.h"

/* The samples of trace `p`, as folded and pprof see them, in a new model *out: 0 or an error said in diag. */
static int derive_samples(profdata_profile **out, const profdata_profile *p, pd_diag *diag)
{
	static const pd_options no_options = { NULL, 0 };
	pd_transform_chain *chain = NULL;
	int rc = profdata_profile_new(out);
	if (rc == 0)
		rc = pd_transform_chain_new(&chain, pd_transforms_samples, profdata_profile_builder_events(), *out, diag,
		                            &no_options);
	if (rc == 0)
		rc = profdata_profile_replay(p, pd_transform_chain_events(chain), pd_transform_chain_payload(chain));
	if (rc == 0)
		rc = pd_transform_chain_finish(chain);
	pd_transform_chain_free(chain);
	if (rc != 0 && !diag->has_err) {
		const profdata_error *e = *out ? profdata_profile_error(*out) : NULL;
		pd_diag_error(diag, rc < 0 ? rc : PROFDATA_ERROR, PD_NO_OFFSET, 0, "top: the trace's call stacks: %s",
		              e ? e->message : profdata_strerror(rc));
	}
	return rc;
}

int profdata_top_new(profdata_top **out, const profdata_profile *p, const profdata_top_options *opts)
{
	if (profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) > 0 ||
	    profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS) == 0)
		return pd_top_new(out, p, opts);
	profdata_profile *derived = NULL;
	pd_diag diag;
	pd_diag_init(&diag, "top");
	int rc = derive_samples(&derived, p, &diag);
	rc = rc == 0 ? pd_top_new(out, derived, opts) : pd_top_fail(out, diag.err.code, diag.err.message);
	pd_diag_free(&diag);
	profdata_profile_free(derived);
	return rc;
}
