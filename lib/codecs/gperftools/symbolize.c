/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading with symbolize=...: the decoder's events go through the symbolize
 * transform (lib/transform/symbolize.c) when asked, so that every reader of
 * a native profile, read or convert, gets named frames.
 *
 *   symbolize=0|none  addresses only (the default)
 *   symbolize=1       name frames; refused when built without libdw
 *   symbolize=auto    name frames when this build can
 *   sysroot=DIR, debug_dir=DIR  where the binaries and debug files are
 */
#include <string.h>

#include "codecs/gperftools/gperftools.h"
#include "pd_config.h"
#include "transform/transform.h"

/* 1 name frames, 0 not, -1 asked for but not built in; PROFDATA_EINVAL for a value that is none of these. */
static int wanted(const pd_decode_args *a)
{
	const char *v = pd_options_get(a->opts, "symbolize");
	if (!v || strcmp(v, "0") == 0 || strcmp(v, "none") == 0 || strcmp(v, "no") == 0)
		return 0;
	if (strcmp(v, "auto") == 0)
		return PD_HAVE_SYMBOLIZE ? 1 : 0;
	if (strcmp(v, "1") == 0 || strcmp(v, "yes") == 0 || strcmp(v, "") == 0)
		return PD_HAVE_SYMBOLIZE ? 1 : -1;
	return pd_diag_error(pd_in_diag(a->in), PROFDATA_EINVAL, PD_NO_OFFSET, 0,
	                     "symbolize=%s: expected 1, auto or none", v);
}

int pd_gperftools_read(const pd_decode_args *a)
{
	int rc = wanted(a);
	if (rc < -1)
		return rc;
	if (rc == -1)
		return pd_diag_error(pd_in_diag(a->in), PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0,
		                     "symbolize: this libprofdata was built without symbolization "
		                     "(it needs elfutils' libdw: meson setup -Dsymbolize=enabled)");
	if (rc == 0)
		return pd_gperftools_decode(a);
#if PD_HAVE_SYMBOLIZE
	static const pd_transform_desc *const symbolize_only[] = { &pd_transform_symbolize, NULL };
	pd_transform_chain *chain;
	if ((rc = pd_transform_chain_new(&chain, symbolize_only, a->ev, a->payload, pd_in_diag(a->in), a->opts)) < 0)
		return rc;
	pd_decode_args through = *a;
	through.ev = pd_transform_chain_events(chain);
	through.payload = pd_transform_chain_payload(chain);
	rc = pd_gperftools_decode(&through);
	pd_transform_chain_free(chain);
#endif
	return rc;
}
