/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A folded line's parts, as pure functions of its text: the reader
 * (decode.c) and the thread that splits lines ahead of it (ahead.c) take
 * them from here, so the two agree on every line by construction.
 */
#ifndef PD_CODECS_FOLDED_CHAIN_H
#define PD_CODECS_FOLDED_CHAIN_H

#include <stddef.h>
#include <stdint.h>

/*
 * The count that ends [s, *end) after a space or tab: 1 and *v, *end moved
 * to the blank before it; 0 when the line does not end so.
 */
int pd_folded_last_count(const unsigned char *s, const unsigned char **end, int64_t *v);

/*
 * Chain [s, end) (below 4 GiB) split at its ';': where each frame's name
 * ends (an offset from s) into (*ends)[first ..], grown as needed (*cap
 * entries), their count into *n. 0 when it names every frame, 1 when a
 * name is empty (before, between or after the ';': *bad where), or
 * PROFDATA_ENOMEM.
 */
int pd_folded_split(const unsigned char *s, const unsigned char *end, uint32_t **ends, size_t *cap, size_t first,
                    size_t *n, const unsigned char **bad);

/* The hash of a chain of n frames from its names' hashes (root first), seeded: the key of its stack. */
uint64_t pd_folded_chain_hash(uint64_t seed, const uint64_t *hashes, size_t n);

#endif
