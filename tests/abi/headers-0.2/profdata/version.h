/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: version of the headers, and of the library at run time.
 *
 * The macros say which headers a program was compiled against; the functions
 * say which library it runs with. They differ when a program built against
 * one release runs with a newer shared library of the same major version.
 */
#ifndef PROFDATA_VERSION_H
#define PROFDATA_VERSION_H

#include <profdata/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROFDATA_VERSION_MAJOR 0
#define PROFDATA_VERSION_MINOR 2
#define PROFDATA_VERSION_PATCH 0
#define PROFDATA_VERSION_STRING "0.2.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for compile-time comparisons. */
#define PROFDATA_VERSION_NUMBER \
	(PROFDATA_VERSION_MAJOR * 10000 + PROFDATA_VERSION_MINOR * 100 + PROFDATA_VERSION_PATCH)

/* The running library's PROFDATA_VERSION_NUMBER. */
PROFDATA_API unsigned profdata_version_number(void);

/* The running library's version as "MAJOR.MINOR.PATCH". Static string. */
PROFDATA_API const char *profdata_version_string(void);

#ifdef __cplusplus
}
#endif

#endif
