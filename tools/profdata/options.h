/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tool's options: one table (options.c) says each option's spelling,
 * value, help text and where its value goes; the parser, the legality
 * check, the help and the completion all read it. Adding an option: an id
 * here, a field in tool_args for its value, a row in the table, and its bit
 * in the rows of the commands that take it (commands.c).
 */
#ifndef PROFDATA_TOOL_OPTIONS_H
#define PROFDATA_TOOL_OPTIONS_H

#include <stddef.h>

#define EXIT_INVALID 1
#define EXIT_USAGE 2

typedef enum option_id {
	OPT_HELP,
	OPT_VERSION,
	OPT_QUIET,
	OPT_JSON,
	OPT_STRICT,
	OPT_FROM,
	OPT_TO,
	OPT_READ_OPTION,
	OPT_OPTION,
	OPT_GZIP,
	OPT_VIA_MODEL,
	OPT_FORCE,
	OPT_LIMIT,
	OPT_DUMP,
	OPT_RETAINED,
	OPT_LINES,
	OPT_FILES,
	OPT_SAMPLE_TYPE,
	OPT_SYMBOLIZE,
	OPT_SYSROOT,
	OPT_DEBUG_DIR,
	OPT_OUTPUT,
	OPT_NORMALIZE,
	OPT_FOCUS,
	OPT_IGNORE,
	OPT_HIDE,
	OPT_PRUNE_FROM,
	OPT_THRESHOLD,
	OPT_TOP_STACKS,
	OPT_SORT,
	OPT_BASELINE,
	OPT_COUNT_
} option_id;

#define OPTION_BIT(id) (1UL << (id))

/* What an option's value is, which says how it is checked and stored. */
typedef enum option_value {
	VALUE_NONE,        /* a flag: the int field becomes 1 */
	VALUE_TEXT,        /* any text, kept as a pointer into argv */
	VALUE_NUMBER,      /* a long from min to max, or the row's word */
	VALUE_CHOICE,      /* one of the row's words, kept as a pointer into argv */
	VALUE_LIST,        /* K=V, appended to a comma-separated list */
	VALUE_READ_FORMAT, /* a format this build reads */
	VALUE_WRITE_FORMAT /* a format this build writes */
} option_value;

/* Where an option's value is wanted when it has one: after "=" only (--gzip[=LEVEL]), or "=" or the next word. */
enum { VALUE_OPTIONAL = 1, VALUE_REQUIRED = 2 };

/* What completion offers for a value or an operand. */
typedef enum complete_kind { COMPLETE_NOTHING, COMPLETE_FILE, COMPLETE_DIR, COMPLETE_COMMAND } complete_kind;

typedef struct tool_option {
	const char *name;    /* "--json"; NULL when the option has only its short name */
	char short_name;     /* 'n' for -n, or 0 */
	const char *value;   /* the value's name in help ("N", "FORMAT"), NULL for a flag */
	int wants;           /* 0 for a flag, VALUE_OPTIONAL or VALUE_REQUIRED */
	option_value kind;
	size_t field;        /* offsetof(tool_args, where the value goes) */
	long min, max;       /* VALUE_NUMBER: the range */
	long initial;        /* VALUE_NUMBER: before the option is given */
	long implied;        /* VALUE_NUMBER with VALUE_OPTIONAL: given without a value */
	const char *words;   /* VALUE_CHOICE: the choices; VALUE_NUMBER: a word standing for word_value */
	long word_value;
	complete_kind complete;
	int everywhere;      /* every command takes it */
	const char *help;
} tool_option;

#define OPTION_LIST_SIZE 1024
#define OPERANDS_KEPT 4

struct tool_command;

/* A command line, parsed. */
typedef struct tool_args {
	const struct tool_command *command; /* NULL when none was given */
	const char *operand[OPERANDS_KEPT];
	int operands;          /* how many were given (those past OPERANDS_KEPT are counted only) */
	const char **operand_all; /* every operand, for a command that takes any number (options_free) */
	char **rest;           /* a raw command's words, after its name */
	int rest_count;
	unsigned long given;   /* OPTION_BIT(id) of every option given */
	int help, version, quiet, json, strict, via_model, force, retained, lines, files, normalize;
	const char *from, *to, *symbolize, *sysroot, *debug_dir, *sample_type, *output, *sort, *baseline;
	const char *focus, *ignore, *hide, *prune_from; /* pprof's filters, as read options */
	long gzip, limit, dump, threshold, top_stacks;
	char read_options[OPTION_LIST_SIZE];  /* "k=v,k=v" from --read-option */
	char write_options[OPTION_LIST_SIZE]; /* from --option */
	int no_progress;       /* not an option: a command reading on a second thread shows no progress there */
} tool_args;

const tool_option *option_at(option_id id);

/* The row of an option as typed ("--limit", "--gzip=9", "-n"), or NULL; *name_len: the length of its name. */
const tool_option *option_find(const char *word, size_t *name_len);

/* Parse argv into *a: 0, or EXIT_USAGE after saying what is wrong. */
int options_parse(tool_args *a, int argc, char **argv);

/* Free what options_parse() allocated. */
void options_free(tool_args *a);

/* The option as help shows it: "--limit N", "--gzip[=LEVEL]", "-n N", "-h, --help". */
void option_spelling(const tool_option *o, char *buf, size_t cap);

/* Append "text" to a comma-separated list of OPTION_LIST_SIZE bytes: 0, or -1 when it is full. */
int option_list_append(char *list, const char *text);

#endif
