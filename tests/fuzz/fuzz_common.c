/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fuzz.h"

static int setup_rc = 1;	/* 1: not yet run */

int
fuzz_eal_init(const char *prog)
{
	static char prefix[64];
	char *argv[] = {
		(char *)(uintptr_t)prog, prefix, "--no-pci", "--no-huge", "-m", "256",
		"-l", "0", "--log-level=*:crit", NULL,
	};

	/* FUZZ_VERBOSE=1: the libraries' error lines too (why a set-up step failed) */
	if (getenv("FUZZ_VERBOSE") != NULL)
		argv[8] = "--log-level=*:error";

	snprintf(prefix, sizeof(prefix), "--file-prefix=%s-%d", prog, (int)getpid());
	return rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv);
}

static void
at_exit(void)
{
	fuzz_teardown();
	rte_eal_cleanup();
}

int
fuzz_setup_once(void)
{
	if (setup_rc == 1) {
		setup_rc = fuzz_setup();
		if (setup_rc == 0)
			atexit(at_exit);
	}
	return setup_rc;
}

void
fuzz_fail(const char *what)
{
	fprintf(stderr, "%s\n", what);
	fflush(stderr);
	_exit(1);
}
