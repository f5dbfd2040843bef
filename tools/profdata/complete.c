/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `profdata __complete WORD... CURRENT`: what CURRENT may become, one
 * candidate a line, read from the command and option tables and the
 * library's formats. The bash completion script (profdata.bash) asks this and
 * lists nothing itself. A line "@file" or "@dir" asks the shell for file or
 * folder names, which only it knows how to list.
 */
#include <stdio.h>
#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "report.h"

/* prefix + the first `len` bytes of `candidate`, when that starts with `cur`. */
static void offer(const char *prefix, const char *candidate, size_t len, const char *cur)
{
	char line[256];
	snprintf(line, sizeof line, "%s%.*s", prefix, (int)len, candidate);
	if (strncmp(line, cur, strlen(cur)) == 0)
		puts(line);
}

static void offer_commands(const char *cur)
{
	for (size_t i = 0; i < command_count(); i++)
		if (!command_at(i)->hidden)
			offer("", command_at(i)->name, strlen(command_at(i)->name), cur);
}

/* The options `c` takes; without a command, those every command takes. */
static void offer_options(const tool_command *c, const char *cur)
{
	for (int id = 0; id < OPT_COUNT_; id++) {
		const tool_option *o = option_at((option_id)id);
		char shrt[3] = { '-', o->short_name, '\0' };
		if (c ? !command_takes(c, (option_id)id) : !o->everywhere)
			continue;
		offer("", o->name ? o->name : shrt, strlen(o->name ? o->name : shrt), cur);
	}
}

static void offer_formats(int writing, const char *prefix, const char *cur)
{
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		if (writing ? profdata_format_can_write(f) : profdata_format_can_read(f))
			offer(prefix, profdata_format_name(f), strlen(profdata_format_name(f)), cur);
	}
}

static void offer_kind(complete_kind kind, const char *cur)
{
	if (kind == COMPLETE_FILE)
		puts("@file");
	else if (kind == COMPLETE_DIR)
		puts("@dir");
	else if (kind == COMPLETE_COMMAND)
		offer_commands(cur);
}

/* The values of option `o`; `prefix` is "--name=" when the value is in the same word. */
static void offer_value(const tool_option *o, const char *prefix, const char *cur)
{
	if (o->kind == VALUE_READ_FORMAT || o->kind == VALUE_WRITE_FORMAT) {
		offer_formats(o->kind == VALUE_WRITE_FORMAT, prefix, cur);
		return;
	}
	for (const char *w = o->words; w && *w;) {
		size_t len = strcspn(w, " ");
		offer(prefix, w, len, cur);
		w += len + (w[len] == ' ');
	}
	offer_kind(o->complete, cur);
}

/* Which of the command's operands the last word is: the words before it that are neither options nor their values. */
static int operand_index(char **words, int n)
{
	int k = 0;
	for (int i = 1; i < n - 1; i++) {
		size_t len;
		const tool_option *o = words[i][0] == '-' && words[i][1] ? option_find(words[i], &len) : NULL;
		if (!o)
			k++;
		else if (o->wants == VALUE_REQUIRED && words[i][len] != '=')
			i++;
	}
	return k;
}

/* words[0] is the command, words[n - 1] the word being completed. */
static void complete_after_command(const tool_command *c, char **words, int n)
{
	const char *cur = words[n - 1], *prev = words[n - 2];
	size_t len;
	const tool_option *o;
	if (cur[0] == '-' && strchr(cur, '=') && (o = option_find(cur, &len)) != NULL && o->wants) {
		char prefix[64];
		snprintf(prefix, sizeof prefix, "%.*s", (int)len + 1, cur);
		offer_value(o, prefix, cur);
	} else if (n > 2 && prev[0] == '-' && (o = option_find(prev, &len)) != NULL && o->wants == VALUE_REQUIRED &&
	           !prev[len]) {
		offer_value(o, "", cur);
	} else if (cur[0] == '-') {
		offer_options(c, cur);
	} else {
		int k = operand_index(words, n);
		if (c->variadic && k >= command_operand_count(c))
			k = command_operand_count(c) - 1;
		if (k >= 0 && k < command_operand_count(c))
			offer_kind(c->operand[k].complete, cur);
	}
}

int cmd_complete(const tool_args *a)
{
	char **words = a->rest;
	int n = a->rest_count, first = 0;
	const char *cur = n ? words[n - 1] : "";
	while (first < n - 1 && words[first][0] == '-')
		first++; /* options before the command */
	if (first >= n - 1) {
		if (cur[0] == '-')
			offer_options(NULL, cur);
		else
			offer_commands(cur);
	} else if (command_find(words[first])) {
		complete_after_command(command_find(words[first]), words + first, n - first);
	}
	return finish_stdout(0);
}
