/* SPDX-License-Identifier: Apache-2.0 */
/* pprof -top's sums of a profile of samples (top.c); core/top.c is profdata_top_new(). */
#ifndef PD_ANALYSIS_TOP_H
#define PD_ANALYSIS_TOP_H

#include "internal.h"
#include "profdata/top.h"

/* profdata_top_new() of a profile that holds its samples. */
int pd_top_new(profdata_top **out, const profdata_profile *p, const profdata_top_options *opts);
/* A handle holding `code` and `message` only, as a failed profdata_top_new() hands over: returns code. */
int pd_top_fail(profdata_top **out, int code, const char *message);

#endif
