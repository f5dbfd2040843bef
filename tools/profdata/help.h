/* SPDX-License-Identifier: Apache-2.0 */
#ifndef PROFDATA_TOOL_HELP_H
#define PROFDATA_TOOL_HELP_H

#include "commands.h"

/* The commands and the options every command takes, on stdout. */
void help_global(void);

/* What `c` does and takes: its usage line, operands and options, on stdout. */
void help_command(const tool_command *c);

#endif
