/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Diagnostics (diag.c): one error and a bounded list of warnings, on the
 * handle that failed (reader, writer, profile builder). internal.h includes it.
 */
#ifndef PD_UTIL_DIAG_H
#define PD_UTIL_DIAG_H

#include <stdarg.h>
#include <stdint.h>

#include "profdata/common.h"
#include "util/base.h"

#define PD_NO_OFFSET UINT64_MAX

typedef struct pd_diag {
	profdata_error err;
	int has_err;
	char *err_msg;
	char *name;
	profdata_error *warnings;
	char **warning_msgs;
	size_t nwarnings, kept, cap;
} pd_diag;

#define PD_MAX_WARNINGS 1000

void pd_diag_init(pd_diag *d, const char *name);
void pd_diag_free(pd_diag *d);
/* Record an error; returns `code` so that callers can `return pd_diag_error(...)`. */
int pd_diag_error(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, ...) PD_PRINTF(5, 6);
int pd_diag_verror(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, va_list ap) PD_PRINTF(5, 0);
void pd_diag_warn(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, ...) PD_PRINTF(5, 6);
void pd_diag_vwarn(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, va_list ap) PD_PRINTF(5, 0);
const profdata_error *pd_diag_last(const pd_diag *d);
/* Count `n` warnings made elsewhere and not kept (past PD_MAX_WARNINGS there). */
void pd_diag_count_unkept(pd_diag *d, size_t n);
const profdata_error *pd_diag_warning(const pd_diag *d, size_t i);

#endif
