/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `profdata help [COMMAND]`, `profdata --help` and `profdata COMMAND --help`:
 * every line is printed from the command and option tables.
 */
#include "help.h"

#include <stdio.h>
#include <string.h>

#include <profdata/profdata.h>

#include "report.h"

#define LEFT_COLUMN 22
#define LINE_WIDTH 80

/* `text` from column `indent` (where the line already is), broken between words before LINE_WIDTH. */
static void print_wrapped(const char *text, int indent)
{
	int column = indent;
	while (*text) {
		size_t word = strcspn(text, " ");
		if (column > indent && column + 1 + (int)word > LINE_WIDTH) {
			printf("\n%*s", indent, "");
			column = indent;
		} else if (column > indent) {
			putchar(' ');
			column++;
		}
		printf("%.*s", (int)word, text);
		column += (int)word;
		text += word;
		text += strspn(text, " ");
	}
	putchar('\n');
}

/* "  NAME   text", the text on a line of its own when the name is too wide. */
static void print_row(const char *left, const char *text)
{
	if (strlen(left) > LEFT_COLUMN)
		printf("  %s\n%*s", left, LEFT_COLUMN + 3, "");
	else
		printf("  %-*s ", LEFT_COLUMN, left);
	print_wrapped(text, LEFT_COLUMN + 3);
}

/* "FILE OBJECT-ID", "[COMMAND]". */
static void operand_synopsis(const tool_command *c, char *buf, size_t cap)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < command_operand_count(c) && n < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, i < c->required ? "%s%s" : "%s[%s]", i ? " " : "",
		                      c->operand[i].name);
	if (c->variadic && n < cap)
		snprintf(buf + n, cap - n, "...");
}

/* The options `c` takes of its own, or (c NULL) those every command takes. */
static void print_options(const tool_command *c)
{
	char spelling[64];
	for (int id = 0; id < OPT_COUNT_; id++) {
		const tool_option *o = option_at((option_id)id);
		if (c ? o->everywhere || !command_takes(c, (option_id)id) : !o->everywhere)
			continue;
		option_spelling(o, spelling, sizeof spelling);
		print_row(spelling, o->help);
	}
}

void help_global(void)
{
	char left[64], operands[48];
	printf("usage: profdata [--version] [--help] COMMAND [OPERANDS] [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < command_count(); i++) {
		const tool_command *c = command_at(i);
		if (c->hidden)
			continue;
		operand_synopsis(c, operands, sizeof operands);
		snprintf(left, sizeof left, "%s%s%s", c->name, operands[0] ? " " : "", operands);
		print_row(left, c->summary);
	}
	printf("\noptions every command takes:\n");
	print_options(NULL);
	printf("\n'profdata help COMMAND' (or 'profdata COMMAND --help') says what a command takes.\n"
	       "Exit status: 0 success, 1 invalid input or a failed operation, 2 usage.\n");
}

void help_command(const tool_command *c)
{
	char operands[48];
	operand_synopsis(c, operands, sizeof operands);
	printf("usage: profdata %s [OPTIONS]%s%s\n\n%s\n", c->name, operands[0] ? " " : "", operands, c->summary);
	if (c->help) {
		putchar('\n');
		print_wrapped(c->help, 0);
	}
	if (command_operand_count(c))
		printf("\noperands:\n");
	for (int i = 0; i < command_operand_count(c); i++)
		print_row(c->operand[i].name, c->operand[i].help);
	if (c->options)
		printf("\noptions:\n");
	print_options(c);
	printf("\noptions every command takes:\n");
	print_options(NULL);
}

int cmd_help(const tool_args *a)
{
	const tool_command *c = NULL;
	if (a->operands && !(c = command_find(a->operand[0])))
		return usage_error(a->command, "unknown command '%s'", a->operand[0]);
	if (c)
		help_command(c);
	else
		help_global();
	return finish_stdout(0);
}
