/* SPDX-License-Identifier: Apache-2.0 */
/* The main of every Check test program; the suite comes from suite_main(). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	/* A case run apart (see test_case_requested) skips visibly when its need is missing. */
	const char *only = getenv("CK_RUN_CASE");
	const char *unmet = only ? test_unmet_need(only) : NULL;
	if (unmet) {
		printf("skipped %s: %s\n", only, unmet);
		return 77;
	}
	SRunner *sr = srunner_create(suite_main());
	srunner_run_all(sr, CK_NORMAL);
	int ran = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	/* Running nothing must not pass: a misspelt case name would otherwise look green. */
	if (ran == 0) {
		printf("no test ran%s%s\n", only ? " for CK_RUN_CASE=" : "", only ? only : "");
		return EXIT_FAILURE;
	}
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
