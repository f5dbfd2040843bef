/* SPDX-License-Identifier: Apache-2.0 */
#include "internal.h"

#include <profdata/version.h>

unsigned profdata_version_number(void)
{
	return PROFDATA_VERSION_NUMBER;
}

const char *profdata_version_string(void)
{
	return PROFDATA_VERSION_STRING;
}
