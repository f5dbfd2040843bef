/* SPDX-License-Identifier: Apache-2.0 */
/* The perf-script reader (fuzz-text.h says what runs per input). */
#define FUZZ_FORMAT "perf-script"
#include "fuzz-text.h"
