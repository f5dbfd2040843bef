/* SPDX-License-Identifier: Apache-2.0 */
#ifndef PROFDATA_TOOL_JSON_H
#define PROFDATA_TOOL_JSON_H

#include <stdio.h>

/* `s` as a JSON string on `out`: valid UTF-8 whatever the bytes (a file name may be any); others become U+FFFD. */
void json_string(FILE *out, const char *s);

#endif
