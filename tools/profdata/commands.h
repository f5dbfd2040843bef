/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command table (commands.c): each command's name, handler, the options
 * it takes, its operands and its help. Dispatch, the check of what was
 * given, `profdata help` and the completion read it; nothing else lists
 * the commands.
 */
#ifndef PROFDATA_TOOL_COMMANDS_H
#define PROFDATA_TOOL_COMMANDS_H

#include <profdata/profdata.h>

#include "options.h"

#define OPERANDS_MAX 2

#define FILTERS                                                                                               \
	(OPTION_BIT(OPT_FOCUS) | OPTION_BIT(OPT_IGNORE) | OPTION_BIT(OPT_HIDE) | OPTION_BIT(OPT_PRUNE_FROM) | \
	 OPTION_BIT(OPT_SAMPLE_TYPE) | OPTION_BIT(OPT_TOP_STACKS))
/* diff takes both; each kind of input refuses the other's (command_refuse). */
#define PROFILE_DIFF_OPTIONS                                                                                 \
	(FILTERS | OPTION_BIT(OPT_OUTPUT) | OPTION_BIT(OPT_TO) | OPTION_BIT(OPT_OPTION) | OPTION_BIT(OPT_GZIP) | \
	 OPTION_BIT(OPT_FORCE) | OPTION_BIT(OPT_NORMALIZE))
#define HEAP_DIFF_OPTIONS (OPTION_BIT(OPT_JSON) | OPTION_BIT(OPT_LIMIT) | OPTION_BIT(OPT_DUMP) | OPTION_BIT(OPT_SORT))

typedef struct tool_operand {
	const char *name;       /* "FILE" */
	const char *help;
	complete_kind complete;
} tool_operand;

typedef struct tool_command {
	const char *name;
	int (*run)(const tool_args *a);
	unsigned long options;  /* OPTION_BIT() of each option it takes, besides those every command takes */
	tool_operand operand[OPERANDS_MAX];
	int required;           /* operands it needs; the others are optional */
	const char *summary;    /* one line, for the list of commands */
	const char *help;       /* what `profdata help COMMAND` adds */
	int hidden;             /* for the completion script, not for people */
	int raw;                /* takes the rest of the command line as it is, options or not */
	int variadic;           /* its last operand may be given any number of times (a->operand_all) */
} tool_command;

size_t command_count(void);
const tool_command *command_at(size_t i);
/* The command called `name`, or NULL. */
const tool_command *command_find(const char *name);
const char *command_name(const tool_command *c);
/* How many operands it names (required and optional). */
int command_operand_count(const tool_command *c);
/* Whether it takes option `id` (every command takes some). */
int command_takes(const tool_command *c, option_id id);
/* 0 when `a` gives none of `options` (OPTION_BIT()s); else EXIT_USAGE after saying "--NAME why". */
int command_refuse(const tool_args *a, unsigned long options, const char *why);
/* 0 when `a` gives the command the operands it takes; else EXIT_USAGE after saying what is wrong. */
int command_check(const tool_args *a);

/* Handlers: profile_commands.c, heap_commands.c, convert.c, help.c, complete.c. */
int cmd_info(const tool_args *a);
int cmd_histo(const tool_args *a);
int cmd_check(const tool_args *a);
int cmd_formats(const tool_args *a);
int cmd_top(const tool_args *a);
/* Rows top shows without --limit, of a profile or of a heap dump. */
#define TOP_DEFAULT_ROWS 20
/* top of a profile of samples (sample_top.c): the exit status. */
int show_sample_top(const tool_args *a, const profdata_profile *p);
int cmd_path(const tool_args *a);
int cmd_suspects(const tool_args *a);
int cmd_waste(const tool_args *a);
int cmd_report(const tool_args *a);
int cmd_histo_retained(const tool_args *a);
int cmd_convert(const tool_args *a);
int cmd_merge(const tool_args *a);
int cmd_diff(const tool_args *a);
/* diff of two heap dumps (heap_diff.c), whose models it takes and frees: the exit status. */
int heap_diff(const tool_args *a, profdata_profile *old, profdata_profile *now);
int cmd_help(const tool_args *a);
int cmd_complete(const tool_args *a);

#endif
