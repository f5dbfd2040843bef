/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing speed of the tracexml encoder alone: read a trace into the model
 * (not timed), then write it as tracexml to a memory writer, best of three,
 * and print the output's MB/s. Usage: bench-tracexml-write TRACE
 */
#include <stdio.h>
#include <time.h>

#include <profdata/profdata.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	profdata_reader *r;
	profdata_profile *p;
	if (argc != 2 || profdata_reader_open_path(&r, argv[1]) < 0 || profdata_read(&p, r, NULL) < 0) {
		fprintf(stderr, "usage: bench-tracexml-write TRACE (a trace libprofdata reads)\n");
		return 2;
	}
	double best = 0;
	size_t bytes = 0;
	for (int run = 0; run < 3; run++) {
		profdata_writer *w;
		const void *data;
		profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
		o.format = "tracexml";
		if (profdata_writer_open_memory(&w) < 0)
			return 1;
		double t0 = now();
		if (profdata_write(p, w, &o) < 0 || profdata_writer_close(w) < 0 ||
		    profdata_writer_memory(w, &data, &bytes) < 0)
			return 1;
		double t = now() - t0;
		if (run == 0 || t < best)
			best = t;
		profdata_writer_free(w);
	}
	printf("tracexml writing: %zu bytes in %.3f s, %.0f MB/s of output\n", bytes, best, (double)bytes / best / 1e6);
	profdata_profile_free(p);
	profdata_reader_free(r);
	return 0;
}
