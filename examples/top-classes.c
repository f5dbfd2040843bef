/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Print the ten classes holding the most shallow bytes in a heap dump,
 * through the model (so lookups and references are available too):
 *   example-top-classes DUMP
 */
#include <stdio.h>

#include <profdata/profdata.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DUMP\n", argv[0]);
		return 2;
	}
	profdata_reader *in;
	profdata_profile *p = NULL;
	if (profdata_reader_open_path(&in, argv[1]) < 0 || profdata_read(&p, in, NULL) < 0) {
		const profdata_error *e = in ? profdata_reader_error(in) : NULL;
		fprintf(stderr, "%s: %s\n", argv[1], e ? e->message : "cannot read");
		profdata_reader_free(in);
		return 1;
	}
	profdata_histogram *h;
	int rc = profdata_histogram_new(&h, p, 0);
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", argv[1], h ? profdata_histogram_error(h)->message : profdata_strerror(rc));
	else {
		for (size_t i = 0; i < profdata_histogram_count(h) && i < 10; i++) {
			const profdata_histogram_entry *e = profdata_histogram_entry_at(h, i);
			printf("%12llu %10llu  %s\n", (unsigned long long)e->bytes, (unsigned long long)e->instances,
			       e->name);
		}
		printf("%llu references\n", (unsigned long long)profdata_profile_reference_count(p));
	}
	profdata_histogram_free(h);
	profdata_profile_free(p);
	profdata_reader_free(in);
	return 0;
}
