/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whether a read asks for the symbolize transform (symbolize.c), and the
 * read-side list native profiles name. Built whether or not libdw is there,
 * so that a build without it still refuses symbolize=1 in words.
 *
 *   symbolize=1|yes (or bare)  name frames; refused when built without libdw
 *   symbolize=auto             name frames when this build can
 *   symbolize=0|no|none        addresses only (the default)
 */
#include <string.h>

#include "pd_config.h"
#include "transform/transform.h"

int pd_symbolize_wanted(const pd_options *opts, pd_diag *diag)
{
	const char *v = pd_options_get(opts, "symbolize");
	if (!v || strcmp(v, "0") == 0 || strcmp(v, "none") == 0 || strcmp(v, "no") == 0)
		return 0;
	if (strcmp(v, "auto") == 0)
		return PD_HAVE_SYMBOLIZE;
	if (strcmp(v, "1") != 0 && strcmp(v, "yes") != 0 && strcmp(v, "") != 0)
		return pd_diag_error(diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "symbolize=%s: expected 1, auto or none", v);
	if (!PD_HAVE_SYMBOLIZE)
		return pd_diag_error(diag, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0,
		                     "symbolize: this libprofdata was built without symbolization "
		                     "(it needs elfutils' libdw: meson setup -Dsymbolize=enabled)");
	return 1;
}

#if !PD_HAVE_SYMBOLIZE
/* Only the gate: it never answers 1 here, so no state is ever made. */
const pd_transform_desc pd_transform_symbolize = {
	.name = "symbolize",
	.state_size = sizeof(pd_transform_base),
	.wanted = pd_symbolize_wanted,
};
#endif

const pd_transform_desc *const pd_transforms_native[] = { &pd_transform_symbolize, NULL };
