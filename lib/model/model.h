/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the core (profdata_read()) asks of a profile beyond the public API.
 * The core includes this, not model_impl.h: the storage layout is for the
 * model's own units and the few that read its columns directly.
 */
#ifndef PD_MODEL_MODEL_H
#define PD_MODEL_MODEL_H

#include "internal.h"

/* The profile keeps payloads that lie inside `blob` by reference (and holds the blob). */
void pd_profile_set_source(profdata_profile *p, pd_blob *blob, const char *format_name);
/* Whether the builder received the end event: a decoder that returns 0 without it did not finish. */
int pd_profile_ended(const profdata_profile *p);
/* The builder's kept warnings, which profdata_read() passes on to the reader, and how many it had in all. */
size_t pd_profile_warning_count(const profdata_profile *p);
size_t pd_profile_warning_total(const profdata_profile *p);
const profdata_error *pd_profile_warning(const profdata_profile *p, size_t i);

#endif
