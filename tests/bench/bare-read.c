/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The floor for a reader: read() a whole file into one reused buffer and
 * touch nothing, as run.sh's "bare read" beside `cat`. Prints the bytes read.
 *   bare-read FILE [BUFFER_KIB]   (default 1024 KiB)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bare-read FILE [BUFFER_KIB]\n");
		return 2;
	}
	size_t size = (argc > 2 ? strtoul(argv[2], NULL, 10) : 1024) << 10;
	char *buf = size ? malloc(size) : NULL;
	int fd = open(argv[1], O_RDONLY);
	if (!buf || fd < 0) {
		perror(argv[1]);
		return 1;
	}
	unsigned long long total = 0;
	ssize_t got;
	while ((got = read(fd, buf, size)) > 0)
		total += (unsigned long long)got;
	if (got < 0)
		perror(argv[1]);
	printf("%llu\n", total);
	close(fd);
	free(buf);
	return got < 0;
}
