/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stream a heap dump and report its largest object, without building a
 * model (memory stays bounded by one record); stop early with --first N:
 *   example-largest-objects DUMP [--first N]
 * Shows the events API as it is meant to be used: a table initialised with
 * profdata_events_init() (so that it stays valid when later releases add
 * callbacks), a positive return to stop without an error, and a negative
 * return that profdata_decode() hands back unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profdata/profdata.h>

/* A code of our own, in the range the library leaves to callbacks (PROFDATA_EUSER and below). */
#define TOO_MANY_OBJECTS (PROFDATA_EUSER - 1)

typedef struct largest {
	uint64_t seen, limit; /* stop (no error) after `limit` objects; 0 never */
	uint64_t id, bytes;
} largest;

static int on_object(void *payload, const profdata_object *o)
{
	largest *l = payload;
	uint64_t bytes = o->size ? o->size : o->data_len;
	if (bytes > l->bytes) {
		l->bytes = bytes;
		l->id = o->id;
	}
	if (++l->seen == UINT64_MAX)
		return TOO_MANY_OBJECTS;
	return l->limit && l->seen == l->limit ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc != 2 && !(argc == 4 && strcmp(argv[2], "--first") == 0)) {
		fprintf(stderr, "usage: %s DUMP [--first N]\n", argv[0]);
		return 2;
	}
	profdata_events ev;
	profdata_events_init(&ev, sizeof ev);
	ev.object = on_object;
	largest l;
	memset(&l, 0, sizeof l);
	l.limit = argc == 4 ? strtoull(argv[3], NULL, 10) : 0;

	profdata_reader *in;
	int rc = profdata_reader_open_path(&in, argv[1]);
	if (rc == 0)
		rc = profdata_decode(in, NULL, &ev, &l);
	if (rc == TOO_MANY_OBJECTS) {
		fprintf(stderr, "%s: too many objects\n", argv[1]);
	} else if (rc < 0) {
		const profdata_error *e = in ? profdata_reader_error(in) : NULL;
		fprintf(stderr, "%s: %s\n", argv[1], e ? e->message : profdata_strerror(rc));
	} else {
		printf("%llu objects%s; the largest is 0x%llx, %llu bytes of payload\n", (unsigned long long)l.seen,
		       rc == PROFDATA_STOPPED ? " (stopped early)" : "", (unsigned long long)l.id,
		       (unsigned long long)l.bytes);
	}
	profdata_reader_free(in);
	return rc < 0 ? 1 : 0;
}
