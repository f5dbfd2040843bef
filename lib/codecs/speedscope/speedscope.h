/* SPDX-License-Identifier: Apache-2.0 */
/* The speedscope codec's parts: the reader (decode.c, built with yajl) for the descriptor (speedscope.c). */
#ifndef PD_CODECS_SPEEDSCOPE_H
#define PD_CODECS_SPEEDSCOPE_H

#include "internal.h"

int pd_speedscope_decode(const pd_decode_args *a);

#endif
