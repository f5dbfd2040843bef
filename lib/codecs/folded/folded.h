/* SPDX-License-Identifier: Apache-2.0 */
/* Folded stacks: what folded.c (the descriptor, the writer) and decode.c (the reader) share. */
#ifndef PD_CODECS_FOLDED_H
#define PD_CODECS_FOLDED_H

#include <stddef.h>

#include "internal.h"

/* How sure the bytes are folded stacks: every whole line a chain and a count, no other format's header. */
int pd_folded_bid(const unsigned char *buf, size_t len);
int pd_folded_decode(const pd_decode_args *a);

#endif
