/* SPDX-License-Identifier: Apache-2.0 */
/* What this build has (profdata_features()), from the configuration meson wrote. */
#include "internal.h"
#include "pd_config.h"

unsigned profdata_features(void)
{
	unsigned f = 0;
	if (PD_HAVE_ZLIB)
		f |= PROFDATA_FEATURE_GZIP;
	if (PD_HAVE_SYMBOLIZE)
		f |= PROFDATA_FEATURE_SYMBOLIZE;
	if (PD_HAVE_EXPAT)
		f |= PROFDATA_FEATURE_EXPAT;
	if (PD_HAVE_PPROF)
		f |= PROFDATA_FEATURE_PPROF;
	/* Archives are a way into the tracexml codec, which needs expat. */
	if (PD_HAVE_LIBARCHIVE && PD_HAVE_EXPAT)
		f |= PROFDATA_FEATURE_ZIP;
	return f;
}
