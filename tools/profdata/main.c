/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profdata: inspect, check and convert profiles and heap dumps. The command
 * line is parsed by the option table (options.c) and dispatched by the
 * command table (commands.c).
 *
 * Exit status: 0 success, 1 invalid input or a failed operation, 2 usage.
 */
#include <stdio.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "help.h"
#include "report.h"

/* The command line parsed: --version, --help, or the command. */
static int run(const tool_args *a)
{
	int status;
	if (a->version) {
		printf("profdata %s (libprofdata %s)\n", PROFDATA_VERSION_STRING, profdata_version_string());
		return finish_stdout(0);
	}
	if (a->help) {
		if (a->command)
			help_command(a->command);
		else
			help_global();
		return finish_stdout(0);
	}
	if (!a->command)
		return usage_error(NULL, "no command given");
	if ((status = command_check(a)) != 0)
		return status;
	return a->command->run(a);
}

int main(int argc, char **argv)
{
	tool_args a;
	int status = options_parse(&a, argc, argv);
	if (status == 0)
		status = run(&a);
	options_free(&a);
	return status;
}
