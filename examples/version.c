/* SPDX-License-Identifier: Apache-2.0 */
/* The smallest program using libprofdata: built only through pkg-config (see tests/check-consumer.sh). */
#include <stdio.h>

#include <profdata/profdata.h>

int main(void)
{
	printf("libprofdata %s (headers %s)\n", profdata_version_string(), PROFDATA_VERSION_STRING);
	return profdata_version_number() / 10000 == PROFDATA_VERSION_MAJOR ? 0 : 1;
}
