/* SPDX-License-Identifier: Apache-2.0 */
#include "output.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

/*
 * The temporary file convert is filling, for the signal handler to remove: an
 * interrupted conversion of a large dump must not leave hundreds of MB behind.
 * The tool's one piece of global state; the library keeps none.
 */
static char *volatile temporary_output;

static void remove_temporary_and_die(int sig)
{
	char *path = temporary_output;
	if (path)
		unlink(path);
	signal(sig, SIG_DFL);
	raise(sig);
}

void output_forget(void)
{
	char *path = temporary_output;
	temporary_output = NULL;
	free(path);
}

static void remove_temporary_on_signals(const profdata_writer *w)
{
	const char *tmp = profdata_writer_temp_path(w);
	char *copy = tmp ? strdup(tmp) : NULL;
	if (!copy)
		return;
	temporary_output = copy;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_temporary_and_die;
	sigemptyset(&sa.sa_mask);
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int output_open(profdata_writer **w, const char *in, const char *out, int force)
{
	unsigned mode = 0666;
	struct stat st;
	if (strcmp(in, "-") != 0 && stat(in, &st) == 0 && S_ISREG(st.st_mode))
		mode = ((unsigned)st.st_mode & 0444) | 0200; /* IN's readers, and its owner may write it again */
	int e = profdata_writer_open_file(w, out, force ? PROFDATA_WRITER_FORCE : 0, mode);
	if (e == 0) {
		remove_temporary_on_signals(*w);
		return 0;
	}
	const profdata_error *err = *w ? profdata_writer_error(*w) : NULL;
	if (err && !force && strstr(err->message, "read-only"))
		fprintf(stderr, "profdata: %s: %s (--force replaces it)\n", out, err->message);
	else
		report(out, err, e);
	return e;
}
