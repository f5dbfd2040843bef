/* SPDX-License-Identifier: Apache-2.0 */
#ifndef PROFDATA_TOOL_JSON_H
#define PROFDATA_TOOL_JSON_H

/* `s` as a JSON string on stdout: valid UTF-8 whatever the bytes (a file name may be any); others become U+FFFD. */
void json_string(const char *s);

#endif
