/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the ABI consumers share: a CHECK that exits, a fixture opener, and
 * structs placed at the very end of a page whose next page is inaccessible,
 * so that a library reading or writing past what the consumer's headers
 * declared crashes the consumer. Uses nothing but the public API, so that it
 * compiles against any release's frozen headers. Everything is static inline:
 * each consumer uses what it needs.
 */
#ifndef PD_ABI_GUARD_H
#define PD_ABI_GUARD_H

#include <profdata/profdata.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
			exit(1); \
		} \
	} while (0)

/*
 * The source root from the command line, once the headers' version is
 * `release` (MAJOR * 10000 + MINOR * 100 + PATCH) and the running library is
 * at least as new. Exits with the usage otherwise.
 */
static inline const char *consumer_start(int argc, char **argv, unsigned release)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s SOURCE_ROOT\n", argv[0]);
		exit(2);
	}
	printf("built against libprofdata %s, running with %s\n", PROFDATA_VERSION_STRING,
	       profdata_version_string());
	CHECK(PROFDATA_VERSION_NUMBER == release);
	CHECK(profdata_version_number() >= PROFDATA_VERSION_NUMBER);
	return argv[1];
}

/* `size` bytes ending exactly where an inaccessible page begins. */
static inline void *at_page_end(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	CHECK(size <= page && size % sizeof(void *) == 0);
	unsigned char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED);
	CHECK(mprotect(m + page, page, PROT_NONE) == 0);
	return m + page - size;
}

static inline void release(void *p, size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	munmap((unsigned char *)p + size - page, 2 * page);
}

/* Rounded up so that the struct stays aligned at the page end. */
#define GUARDED(type) ((type *)at_page_end((sizeof(type) + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *)))
#define UNGUARD(p) release((p), (sizeof(*(p)) + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *))

static inline profdata_reader *open_fixture(const char *root, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/data/%s", root, rel);
	profdata_reader *r;
	CHECK(profdata_reader_open_path(&r, path) == 0);
	return r;
}

/* The whole of a fixture as a profile. */
static inline profdata_profile *read_fixture(const char *root, const char *rel)
{
	profdata_reader *r = open_fixture(root, rel);
	profdata_profile *p;
	CHECK(profdata_read(&p, r, NULL) == 0);
	profdata_reader_free(r);
	return p;
}

#endif
