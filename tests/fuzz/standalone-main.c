/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A main for fuzz targets in ordinary builds: runs LLVMFuzzerTestOneInput
 * over each file named on the command line (the seed corpus), so the corpus
 * is a regression test under gcc, valgrind and the sanitizers too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		size_t cap = 1 << 16, n = 0, k;
		uint8_t *buf = malloc(cap);
		while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0)
			if ((n += k) == cap) {
				uint8_t *nb = realloc(buf, cap *= 2);
				if (!nb)
					free(buf);
				buf = nb;
			}
		fclose(f);
		if (!buf)
			return 1;
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	printf("%d inputs ran\n", argc - 1);
	return 0;
}
