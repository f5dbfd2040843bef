/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command table, and the one rule every command follows: an option
 * (options.c) or an operand it does not take is refused (exit 2), never
 * ignored.
 */
#include "commands.h"

#include <stdio.h>
#include <string.h>

#include "report.h"

#define READING (OPTION_BIT(OPT_STRICT) | OPTION_BIT(OPT_FROM) | OPTION_BIT(OPT_READ_OPTION))
#define INPUT_HELP "the input, any format this build reads, gzip'd or not ('-' standard input)"
#define FILE_OPERAND { "FILE", INPUT_HELP, COMPLETE_FILE }

static const tool_command command_table[] = {
	{ "info", cmd_info, READING | OPTION_BIT(OPT_JSON), { FILE_OPERAND }, 1,
	  "format, version and the model's counts",
	  "Reads FILE into the model and shows its format, the format's version and the rows of every table, "
	  "and the number of object references. With --json: one object (doc/guide.md); a trace adds "
	  "\"traces\" and \"elements\", every element name read, counted." },
	{ "histo", cmd_histo, READING | OPTION_BIT(OPT_JSON) | OPTION_BIT(OPT_LIMIT) | OPTION_BIT(OPT_DUMP) |
	                      OPTION_BIT(OPT_RETAINED), { FILE_OPERAND }, 1,
	  "instances and shallow bytes per class",
	  "Counts instances and shallow bytes per class, largest first, in one streaming pass, as VisualVM "
	  "counts them. Of a file with several heap dumps, the first (as VisualVM shows it), unless --dump "
	  "names another or all. With --retained: from the model, with the bytes the instances of each class "
	  "keep alive together." },
	{ "top", cmd_top, READING | FILTERS | OPTION_BIT(OPT_JSON) | OPTION_BIT(OPT_DUMP) | OPTION_BIT(OPT_LIMIT) |
	                  OPTION_BIT(OPT_LINES) | OPTION_BIT(OPT_FILES) |
	                  OPTION_BIT(OPT_SYMBOLIZE) | OPTION_BIT(OPT_SYSROOT) | OPTION_BIT(OPT_DEBUG_DIR),
	  { FILE_OPERAND }, 1,
	  "the busiest functions of a profile, or the biggest objects of a heap dump",
	  "A profile of samples (a CPU profile): each function's flat value (samples it was running in) and "
	  "cumulative value (samples it was anywhere on the stack in), busiest first, as pprof -top shows "
	  "them; native frames are named as convert names them. A heap dump: the model and the dump's "
	  "dominator tree, and the N objects of largest retained size: id, class, shallow and retained "
	  "bytes. On a terminal a progress line shows each phase." },
	{ "path", cmd_path, READING | OPTION_BIT(OPT_JSON) | OPTION_BIT(OPT_DUMP),
	  { FILE_OPERAND, { "OBJECT-ID", "an object's or a class's id: decimal, or hexadecimal with 0x", COMPLETE_NOTHING } },
	  2, "the shortest path from a GC root to an object",
	  "Shows how a GC root reaches the object: the root's kind, then each field, static field or array "
	  "index on the way." },
	{ "suspects", cmd_suspects, READING | OPTION_BIT(OPT_JSON) | OPTION_BIT(OPT_DUMP) | OPTION_BIT(OPT_THRESHOLD) |
	                            OPTION_BIT(OPT_LIMIT), { FILE_OPERAND }, 1,
	  "leak suspects: what retains a large share of a heap dump, and where it gathers",
	  "Builds the model and the dump's dominator tree, then lists what retains at least --threshold percent "
	  "of the reachable heap: single objects that only GC roots hold (a class object holding a static "
	  "field among them), and classes whose such instances do together. For each: the accumulation point "
	  "(down the dominator tree while one child holds 80% of its parent), the classes of what it holds "
	  "(--limit of them, default 10) and the shortest path from a GC root." },
	{ "waste", cmd_waste, READING | OPTION_BIT(OPT_JSON) | OPTION_BIT(OPT_DUMP) | OPTION_BIT(OPT_LIMIT),
	  { FILE_OPERAND }, 1,
	  "what a heap dump wastes: duplicate strings and arrays, empty collections, boxes",
	  "Builds the model and the dump's graph (no dominator tree), then reads the objects a GC root "
	  "reaches: java.lang.String instances of equal contents (any JDK's layout), primitive arrays of "
	  "equal type, length and contents, empty and sparse collections (HashMap, ArrayList, ... read from "
	  "their fields; sparse: elements under a quarter of the slots) and boxed primitives with repeated "
	  "values. Wasted bytes: all copies but one, by VisualVM's shallow sizes; a collection's empty slots "
	  "times the reference size. --limit rows per list (default 20)." },
	{ "report", cmd_report, READING | OPTION_BIT(OPT_OUTPUT) | OPTION_BIT(OPT_BASELINE) | OPTION_BIT(OPT_DUMP) |
	                        OPTION_BIT(OPT_THRESHOLD) | OPTION_BIT(OPT_LIMIT) | OPTION_BIT(OPT_FORCE),
	  { FILE_OPERAND }, 1,
	  "a heap dump's answers as one HTML page to open in a browser",
	  "Writes to --output one self-contained HTML file (nothing fetched): the dump's sizes and GC roots, "
	  "a treemap of the top of the dominator tree (click to zoom), the classes with their retained bytes "
	  "(sortable, filterable), the leak suspects with their paths, the waste and, with --baseline OLD (an "
	  "earlier dump of the same program), what grew since. Its data is what suspects, waste, histo "
	  "--retained and diff print with --json (--threshold and --limit as there). OUT is written as "
	  "convert writes it: whole or not at all." },
	{ "convert", cmd_convert, READING | FILTERS | OPTION_BIT(OPT_TO) | OPTION_BIT(OPT_OPTION) | OPTION_BIT(OPT_GZIP) |
	                          OPTION_BIT(OPT_VIA_MODEL) | OPTION_BIT(OPT_FORCE) | OPTION_BIT(OPT_SYMBOLIZE) |
	                          OPTION_BIT(OPT_SYSROOT) | OPTION_BIT(OPT_DEBUG_DIR),
	  { { "IN", INPUT_HELP, COMPLETE_FILE },
	    { "OUT", "the output ('-' standard output, written as it goes)", COMPLETE_FILE } },
	  2, "convert from one format to another",
	  "Converts, streaming; what the output format cannot hold is said in warnings. OUT is written to a "
	  "temporary file beside it and renamed when whole: an interrupted or failed conversion leaves OUT as "
	  "it was. A file replaced keeps its mode; a new one is no more readable than IN; a read-only OUT "
	  "needs --force; a link is followed; a device or FIFO is written through." },
	{ "merge", cmd_merge, READING | FILTERS | OPTION_BIT(OPT_OUTPUT) | OPTION_BIT(OPT_TO) | OPTION_BIT(OPT_OPTION) |
	                      OPTION_BIT(OPT_GZIP) | OPTION_BIT(OPT_FORCE) | OPTION_BIT(OPT_SYMBOLIZE) |
	                      OPTION_BIT(OPT_SYSROOT) | OPTION_BIT(OPT_DEBUG_DIR),
	  { { "IN", "a profile of samples, any format this build reads; give as many as you merge", COMPLETE_FILE } },
	  1, "merge profiles of samples into one, as pprof merges them",
	  "Adds the samples of every IN, one input at a time, into one profile written to --output (its format "
	  "from --to or OUT's ending): samples with equal stacks and labels summed, functions, frames and "
	  "mappings kept once, the sample types every input has, the largest period. Memory grows with the "
	  "distinct stacks, not with the number or size of the inputs. Inputs of different formats mix "
	  "(pprof, gperftools, HPROF CPU samples). With two processors to run on, the inputs are read in two "
	  "halves at once, each into its own merge, and the halves merged: the same bytes as one at a time "
	  "(taskset -c 0 keeps it to one).", 0, 0, 1 },
	{ "diff", cmd_diff, READING | PROFILE_DIFF_OPTIONS | HEAP_DIFF_OPTIONS,
	  { { "BASE", "the profile or heap dump before", COMPLETE_FILE },
	    { "NEW", "the profile or heap dump after", COMPLETE_FILE } },
	  2, "a profile of NEW minus BASE, as go tool pprof -diff_base shows it, or what grew between two heap dumps",
	  "Two profiles of samples: writes to --output a profile whose values are NEW's minus BASE's, stack by "
	  "stack (what go tool pprof -diff_base=BASE NEW shows; a stack BASE has alone is negative). With "
	  "--normalize, NEW is first scaled to BASE's total, per sample type, as pprof -normalize scales it. "
	  "Two heap dumps: per class the change in instances, shallow and retained bytes, largest growth "
	  "first (--sort), the objects present in both by id, and the new objects' biggest dominators, on "
	  "standard output (--json: doc/guide.md). A heap dump and a profile are refused." },
	{ "check", cmd_check, READING, { FILE_OPERAND }, 1,
	  "validate strictly: exit 0 valid, 1 invalid",
	  "Reads FILE strictly and builds the model: exit 0 when it is valid, 1 with the file, the byte (and "
	  "the line of a text format) and the problem on stderr." },
	{ "formats", cmd_formats, 0, { { NULL, NULL, COMPLETE_NOTHING } }, 0,
	  "list the formats this build reads and writes", NULL },
	{ "help", cmd_help, 0, { { "COMMAND", "the command to describe", COMPLETE_COMMAND } }, 0,
	  "the commands, or what one command takes", NULL },
	{ "__complete", cmd_complete, 0, { { NULL, NULL, COMPLETE_NOTHING } }, 0,
	  "the completions of a command line's last word, one a line (for the bash completion script)", NULL, 1, 1 },
};

size_t command_count(void)
{
	return sizeof command_table / sizeof command_table[0];
}

const tool_command *command_at(size_t i)
{
	return i < command_count() ? &command_table[i] : NULL;
}

const tool_command *command_find(const char *name)
{
	for (size_t i = 0; i < command_count(); i++)
		if (strcmp(command_table[i].name, name) == 0)
			return &command_table[i];
	return NULL;
}

const char *command_name(const tool_command *c)
{
	return c ? c->name : "profdata";
}

int command_operand_count(const tool_command *c)
{
	int n = 0;
	while (n < OPERANDS_MAX && c->operand[n].name)
		n++;
	return n;
}

int command_takes(const tool_command *c, option_id id)
{
	return option_at(id)->everywhere || (c->options & OPTION_BIT(id)) != 0;
}

int command_refuse(const tool_args *a, unsigned long options, const char *why)
{
	for (int id = 0; id < OPT_COUNT_; id++)
		if (a->given & options & OPTION_BIT(id))
			return usage_error(a->command, "%s %s", option_at((option_id)id)->name, why);
	return 0;
}

/* "FILE", "IN and OUT", "no operand". */
static void operand_names(const tool_command *c, char *buf, size_t cap)
{
	int n = command_operand_count(c);
	if (n == 0)
		snprintf(buf, cap, "no operand");
	else if (n == 1)
		snprintf(buf, cap, "%s", c->operand[0].name);
	else
		snprintf(buf, cap, "%s and %s", c->operand[0].name, c->operand[1].name);
}

int command_check(const tool_args *a)
{
	const tool_command *c = a->command;
	char names[64];
	operand_names(c, names, sizeof names);
	if (a->operands > command_operand_count(c) && !c->variadic)
		return usage_error(c, "%s takes %s; '%s' is one too many", c->name, names,
		                   a->operand[command_operand_count(c)]);
	if (a->operands < c->required)
		return usage_error(c, "%s needs %s", c->name, names);
	return 0;
}
