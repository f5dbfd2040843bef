/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Convert any readable profile into another format, streaming:
 *   example-convert IN OUT FORMAT
 * The input format is sniffed; the output appears only when complete.
 */
#include <stdio.h>

#include <profdata/profdata.h>

static int fail(const char *what, const profdata_error *e)
{
	if (e)
		fprintf(stderr, "%s: %s (byte %llu)\n", e->name, e->message, (unsigned long long)e->offset);
	else
		fprintf(stderr, "%s failed\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s IN OUT FORMAT\n", argv[0]);
		return 2;
	}
	profdata_reader *in;
	profdata_writer *out;
	if (profdata_reader_open_path(&in, argv[1]) < 0)
		return fail("open", in ? profdata_reader_error(in) : NULL);
	if (profdata_writer_open_path(&out, argv[2]) < 0) {
		profdata_reader_free(in);
		return fail("create", out ? profdata_writer_error(out) : NULL);
	}
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	wo.format = argv[3];
	int status = 0;
	if (profdata_convert(in, NULL, out, &wo) < 0 || profdata_writer_close(out) < 0)
		status = fail("convert", profdata_reader_error(in) ? profdata_reader_error(in) : profdata_writer_error(out));
	profdata_writer_free(out);
	profdata_reader_free(in);
	return status;
}
