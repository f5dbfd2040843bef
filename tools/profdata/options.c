/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The option table and the parser it drives. Options may come anywhere after
 * the command; before it, only the ones every command takes make sense,
 * but the parser does not care: commands.c checks what was given.
 */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "formats.h"
#include "report.h"

#define FIELD(name) offsetof(tool_args, name)

static const tool_option option_table[OPT_COUNT_] = {
	[OPT_HELP] = { .name = "--help", .short_name = 'h', .kind = VALUE_NONE, .field = FIELD(help),
	               .everywhere = 1, .help = "what the command (or profdata) takes, and exit" },
	[OPT_VERSION] = { .name = "--version", .kind = VALUE_NONE, .field = FIELD(version), .everywhere = 1,
	                  .help = "the tool's and the library's versions, and exit" },
	[OPT_QUIET] = { .name = "--quiet", .kind = VALUE_NONE, .field = FIELD(quiet), .everywhere = 1,
	                .help = "no warnings and no progress on stderr" },
	[OPT_JSON] = { .name = "--json", .kind = VALUE_NONE, .field = FIELD(json),
	               .help = "one JSON object on stdout instead of the text" },
	[OPT_STRICT] = { .name = "--strict", .kind = VALUE_NONE, .field = FIELD(strict),
	                 .help = "stop at the first problem instead of repairing it with a warning" },
	[OPT_FROM] = { .name = "--from", .value = "FORMAT", .wants = VALUE_REQUIRED, .kind = VALUE_READ_FORMAT,
	               .field = FIELD(from), .help = "read the input as FORMAT instead of sniffing its first bytes" },
	[OPT_TO] = { .name = "--to", .value = "FORMAT", .wants = VALUE_REQUIRED, .kind = VALUE_WRITE_FORMAT,
	             .field = FIELD(to), .help = "the output format (without it: from OUT's ending)" },
	[OPT_READ_OPTION] = { .name = "--read-option", .value = "K=V", .wants = VALUE_REQUIRED, .kind = VALUE_LIST,
	                      .field = FIELD(read_options), .help = "a decoder option (repeatable; doc/formats.md)" },
	[OPT_OPTION] = { .name = "--option", .value = "K=V", .wants = VALUE_REQUIRED, .kind = VALUE_LIST,
	                 .field = FIELD(write_options), .help = "an encoder option (repeatable; doc/formats.md)" },
	[OPT_GZIP] = { .name = "--gzip", .value = "LEVEL", .wants = VALUE_OPTIONAL, .kind = VALUE_NUMBER,
	               .field = FIELD(gzip), .min = 1, .max = 9, .implied = 6,
	               .help = "gzip the output, at LEVEL 1 to 9 (default 6)" },
	[OPT_VIA_MODEL] = { .name = "--via-model", .kind = VALUE_NONE, .field = FIELD(via_model),
	                    .help = "convert through the in-memory model instead of streaming" },
	[OPT_FORCE] = { .name = "--force", .kind = VALUE_NONE, .field = FIELD(force),
	                .help = "replace an OUT that is read-only (its mode is kept)" },
	[OPT_LIMIT] = { .name = "--limit", .short_name = 'n', .value = "N", .wants = VALUE_REQUIRED,
	                .kind = VALUE_NUMBER, .field = FIELD(limit), .min = 0, .max = LONG_MAX, .initial = -1,
	                .help = "show the first N rows only: classes (histo, default all), objects or functions "
	                        "(top, default 20), classes and new dominators (diff of heap dumps, default 20 "
	                        "and 10); the totals count them all" },
	[OPT_DUMP] = { .name = "--dump", .value = "N", .wants = VALUE_REQUIRED, .kind = VALUE_NUMBER,
	               .field = FIELD(dump), .min = 0, .max = LONG_MAX, .words = "all",
	               .word_value = PROFDATA_HISTOGRAM_ALL_DUMPS,
	               .help = "which heap dump of the file, from 0 (default 0; histo: or all)" },
	[OPT_RETAINED] = { .name = "--retained", .kind = VALUE_NONE, .field = FIELD(retained),
	                   .help = "build the model and add the bytes each class retains" },
	[OPT_LINES] = { .name = "--lines", .kind = VALUE_NONE, .field = FIELD(lines),
	                .help = "a profile of samples: a row per source line, as pprof -lines" },
	[OPT_FILES] = { .name = "--files", .kind = VALUE_NONE, .field = FIELD(files),
	                .help = "a profile of samples: a row per source file, as pprof -files" },
	[OPT_SAMPLE_TYPE] = { .name = "--sample-type", .value = "NAME", .wants = VALUE_REQUIRED, .kind = VALUE_TEXT,
	                      .field = FIELD(sample_type),
	                      .help = "a profile of samples: the one value to keep or sum, by name (\"samples\", "
	                              "\"cpu\", ...) or index from 0, as pprof -sample_index (default: every value, or "
	                              "for one-value outputs and top the default type, else the last)" },
	[OPT_SYMBOLIZE] = { .name = "--symbolize", .value = "WHEN", .wants = VALUE_REQUIRED, .kind = VALUE_CHOICE,
	                    .field = FIELD(symbolize), .words = "auto yes none",
	                    .help = "name native frames from the binaries a profile's maps list: auto (the "
	                            "default, unless OUT is in IN's own format), yes, or none" },
	[OPT_SYSROOT] = { .name = "--sysroot", .value = "DIR", .wants = VALUE_REQUIRED, .kind = VALUE_TEXT,
	                  .field = FIELD(sysroot), .complete = COMPLETE_DIR,
	                  .help = "look for those binaries under DIR" },
	[OPT_DEBUG_DIR] = { .name = "--debug-dir", .value = "DIR", .wants = VALUE_REQUIRED, .kind = VALUE_TEXT,
	                    .field = FIELD(debug_dir), .complete = COMPLETE_DIR,
	                    .help = "look for separate debug files in DIR first" },
	[OPT_OUTPUT] = { .name = "--output", .short_name = 'o', .value = "OUT", .wants = VALUE_REQUIRED,
	                 .kind = VALUE_TEXT, .field = FIELD(output), .complete = COMPLETE_FILE,
	                 .help = "the output file ('-' standard output); its ending names the format unless --to does" },
	[OPT_NORMALIZE] = { .name = "--normalize", .kind = VALUE_NONE, .field = FIELD(normalize),
	                    .help = "diff: scale NEW to BASE's total first, per sample type, as pprof -normalize" },
	[OPT_FOCUS] = { .name = "--focus", .value = "RE", .wants = VALUE_REQUIRED, .kind = VALUE_TEXT, .field = FIELD(focus),
	                .help = "keep only the samples with a frame matching RE (function, file or mapping; as pprof)" },
	[OPT_IGNORE] = { .name = "--ignore", .value = "RE", .wants = VALUE_REQUIRED, .kind = VALUE_TEXT,
	                 .field = FIELD(ignore), .help = "drop the samples with a frame matching RE (as pprof)" },
	[OPT_HIDE] = { .name = "--hide", .value = "RE", .wants = VALUE_REQUIRED, .kind = VALUE_TEXT, .field = FIELD(hide),
	               .help = "take the frames matching RE out of every stack (as pprof)" },
	[OPT_PRUNE_FROM] = { .name = "--prune-from", .value = "RE", .wants = VALUE_REQUIRED, .kind = VALUE_TEXT,
	                     .field = FIELD(prune_from),
	                     .help = "drop what the innermost frame whose function matches RE calls (as pprof)" },
	[OPT_THRESHOLD] = { .name = "--threshold", .value = "PERCENT", .wants = VALUE_REQUIRED, .kind = VALUE_NUMBER,
	                    .field = FIELD(threshold), .min = 1, .max = 100, .initial = 10,
	                    .help = "suspects: the share of the reachable heap a suspect retains at least (default 10)" },
	[OPT_TOP_STACKS] = { .name = "--top-stacks", .value = "N", .wants = VALUE_REQUIRED, .kind = VALUE_NUMBER,
	                     .field = FIELD(top_stacks), .min = 1, .max = 2147483647L, .initial = -1,
	                     .help = "keep the N stacks of largest value (of --sample-type's type, else pprof's "
	                             "default), after the filters; the other samples go" },
	[OPT_SORT] = { .name = "--sort", .value = "KEY", .wants = VALUE_REQUIRED, .kind = VALUE_CHOICE,
	               .field = FIELD(sort), .words = "bytes retained instances",
	               .help = "diff of heap dumps: order the classes by the growth of their shallow bytes (the "
	                       "default), retained bytes or instances" },
	[OPT_BASELINE] = { .name = "--baseline", .value = "OLD", .wants = VALUE_REQUIRED, .kind = VALUE_TEXT,
	                   .field = FIELD(baseline), .complete = COMPLETE_FILE,
	                   .help = "report: an earlier heap dump of the same program, to add what grew since" },
};

const tool_option *option_at(option_id id)
{
	return id < OPT_COUNT_ ? &option_table[id] : NULL;
}

void option_spelling(const tool_option *o, char *buf, size_t cap)
{
	char names[32];
	if (o->name && o->short_name)
		snprintf(names, sizeof names, "-%c, %s", o->short_name, o->name);
	else if (o->name)
		snprintf(names, sizeof names, "%s", o->name);
	else
		snprintf(names, sizeof names, "-%c", o->short_name);
	int word = o->kind == VALUE_NUMBER && o->words;
	if (o->wants == VALUE_OPTIONAL)
		snprintf(buf, cap, "%s[=%s]", names, o->value);
	else if (o->wants == VALUE_REQUIRED)
		snprintf(buf, cap, "%s %s%s%s", names, o->value, word ? "|" : "", word ? o->words : "");
	else
		snprintf(buf, cap, "%s", names);
}

int option_list_append(char *list, const char *text)
{
	size_t n = strlen(list);
	int w = snprintf(list + n, OPTION_LIST_SIZE - n, "%s%s", n ? "," : "", text);
	if (w < 0 || (size_t)w >= OPTION_LIST_SIZE - n) {
		list[n] = '\0';
		return -1;
	}
	return 0;
}

/* Whether `word` is one of the space-separated `words`. */
static int among_words(const char *words, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = words; p && *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		p += len + (p[len] == ' ');
	}
	return 0;
}

/* "a number from 1 to 9", "none, auto or yes": what a value must be, for the refusal. */
static void describe_value(const tool_option *o, char *buf, size_t cap)
{
	if (o->kind == VALUE_CHOICE) {
		size_t n = 0;
		for (const char *p = o->words; *p && n + 1 < cap;) {
			size_t len = strcspn(p, " ");
			const char *after = p[len] ? p + len + 1 : p + len;
			const char *sep = !*after ? "" : strchr(after, ' ') ? ", " : " or ";
			n += (size_t)snprintf(buf + n, cap - n, "%.*s%s", (int)len, p, sep);
			p = after;
		}
	} else if (o->max != LONG_MAX) {
		snprintf(buf, cap, "a number from %ld to %ld", o->min, o->max);
	} else {
		snprintf(buf, cap, "a number%s%s%s", o->words ? " or '" : "", o->words ? o->words : "",
		         o->words ? "'" : "");
	}
}

static int bad_value(const tool_args *a, const char *typed, const tool_option *o)
{
	char want[128];
	describe_value(o, want, sizeof want);
	return usage_error(a->command, "%s takes %s", typed, want);
}

static int store_number(tool_args *a, const char *typed, const tool_option *o, const char *value)
{
	long *slot = (long *)(void *)((char *)a + o->field);
	char *end;
	if (!value) {
		*slot = o->implied;
		return 0;
	}
	if (o->words && strcmp(value, o->words) == 0) {
		*slot = o->word_value;
		return 0;
	}
	errno = 0;
	long n = strtol(value, &end, 10);
	if (errno || end == value || *end || n < o->min || n > o->max)
		return bad_value(a, typed, o);
	*slot = n;
	return 0;
}

/* Check an option's value (NULL: none given) and put it where the table says. */
static int store(tool_args *a, const char *typed, const tool_option *o, const char *value)
{
	void *slot = (char *)a + o->field;
	switch (o->kind) {
	case VALUE_NONE:
		*(int *)slot = 1;
		return 0;
	case VALUE_NUMBER:
		return store_number(a, typed, o, value);
	case VALUE_CHOICE:
		if (!among_words(o->words, value))
			return bad_value(a, typed, o);
		break;
	case VALUE_LIST:
		if (option_list_append(slot, value) < 0)
			return usage_error(a->command, "%s: too many options", typed);
		return 0;
	case VALUE_READ_FORMAT:
	case VALUE_WRITE_FORMAT:
		if (!format_usable(value, o->kind == VALUE_WRITE_FORMAT))
			return EXIT_USAGE;
		break;
	case VALUE_TEXT:
		break;
	}
	*(const char **)slot = value;
	return 0;
}

const tool_option *option_find(const char *word, size_t *name_len)
{
	*name_len = strcspn(word, "=");
	for (int id = 0; id < OPT_COUNT_; id++) {
		const tool_option *o = &option_table[id];
		if (word[1] != '-' ? o->short_name == word[1] && *name_len == 2
		                   : o->name && strlen(o->name) == *name_len && strncmp(o->name, word, *name_len) == 0)
			return o;
	}
	return NULL;
}

static int refuse_option(const tool_args *a, const tool_option *o)
{
	char shrt[3] = { '-', o->short_name, '\0' };
	return usage_error(a->command, "%s does not take %s", command_name(a->command), o->name ? o->name : shrt);
}

/* The option at argv[*i], and its value: the text after "=", or the next word. */
static int parse_option(tool_args *a, int argc, char **argv, int *i)
{
	const char *word = argv[*i];
	size_t len;
	const tool_option *o = option_find(word, &len);
	if (!o)
		return a->command ? usage_error(a->command, "%s: unknown option %.*s", command_name(a->command), (int)len, word)
		                  : usage_error(NULL, "unknown option %.*s", (int)len, word);
	char typed[64];
	snprintf(typed, sizeof typed, "%.*s", (int)len, word);
	if (a->command && !command_takes(a->command, (option_id)(o - option_table)))
		return refuse_option(a, o);
	const char *value = word[len] == '=' ? word + len + 1 : NULL;
	if (value && !o->wants)
		return usage_error(a->command, "%s takes no value", typed);
	if (!value && o->wants == VALUE_REQUIRED) {
		if (*i + 1 >= argc)
			return usage_error(a->command, "%s needs a value", typed);
		value = argv[++*i];
	}
	a->given |= OPTION_BIT(o - option_table);
	return store(a, typed, o, value);
}

static void set_initial_values(tool_args *a)
{
	memset(a, 0, sizeof(*a));
	for (int id = 0; id < OPT_COUNT_; id++)
		if (option_table[id].kind == VALUE_NUMBER)
			*(long *)(void *)((char *)a + option_table[id].field) = option_table[id].initial;
}

/* An operand: the command's name first, then what the command reads. */
static int take_operand(tool_args *a, const char *word)
{
	if (a->command) {
		a->operand_all[a->operands] = word;
		if (a->operands < OPERANDS_KEPT)
			a->operand[a->operands] = word;
		a->operands++;
		return 0;
	}
	a->command = command_find(word);
	if (!a->command)
		return usage_error(NULL, "unknown command '%s'", word);
	for (int id = 0; id < OPT_COUNT_; id++) /* options given before the command */
		if ((a->given & OPTION_BIT(id)) && !command_takes(a->command, (option_id)id))
			return refuse_option(a, &option_table[id]);
	return 0;
}

int options_parse(tool_args *a, int argc, char **argv)
{
	int only_operands = 0;
	set_initial_values(a);
	if (!(a->operand_all = calloc((size_t)argc + 1, sizeof(*a->operand_all)))) {
		fprintf(stderr, "profdata: out of memory\n");
		return EXIT_INVALID;
	}
	for (int i = 1; i < argc; i++) {
		const char *word = argv[i];
		int e = 0;
		if (!only_operands && strcmp(word, "--") == 0)
			only_operands = 1;
		else if (!only_operands && word[0] == '-' && word[1])
			e = parse_option(a, argc, argv, &i);
		else
			e = take_operand(a, word);
		if (e)
			return e;
		if (a->command && a->command->raw) {
			a->rest = argv + i + 1;
			a->rest_count = argc - i - 1;
			break;
		}
	}
	return 0;
}

void options_free(tool_args *a)
{
	free(a->operand_all);
	a->operand_all = NULL;
}
