/* SPDX-License-Identifier: Apache-2.0 */
/* The folded reader (fuzz-text.h says what runs per input). */
#define FUZZ_FORMAT "folded"
#include "fuzz-text.h"
