/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_TEST_H
#define IRDMA_TEST_H

/*
 * A minimal TAP producer for the project's test programs (meson runs them with protocol 'tap').
 * A test case is a function; TEST_CHECK records a failed expectation with its location and
 * lets the case continue, so one run shows every broken expectation.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int test_case_failures;

#define TEST_CHECK(cond)                                                                  \
	do {                                                                              \
		if (!(cond)) {                                                            \
			test_case_failures++;                                             \
			printf("#   %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);  \
		}                                                                         \
	} while (0)

#define TEST_CHECK_EQ(a, b)                                                               \
	do {                                                                              \
		long long test_a_ = (long long)(a), test_b_ = (long long)(b);             \
		if (test_a_ != test_b_) {                                                 \
			test_case_failures++;                                             \
			printf("#   %s:%d: %s == %s failed: %lld != %lld\n", __FILE__,        \
			       __LINE__, #a, #b, test_a_, test_b_);                       \
		}                                                                         \
	} while (0)

/* Run one case and print its TAP line. */
void test_run(const char *name, void (*fn)(void));
#define TEST_RUN(fn) test_run(#fn, fn)

/* Print the plan and return the process exit code. */
int test_done(void);

/*
 * From now on, a case that runs longer than @p seconds ends the process with a TAP
 * "Bail out! watchdog: case NAME hung" (a hang, e.g. a delete waiting for a reference that was
 * leaked, then names its case instead of stalling the suite).
 */
void test_set_watchdog(unsigned int seconds);

/* Sleep @p ms milliseconds, through signals. */
void test_sleep_ms(unsigned int ms);

/*
 * Wait until the counter *@p n (another thread's, read with acquire loads) reaches @p want,
 * for @p ms milliseconds at the most (a liveness bound, not a timing check). Returns whether
 * it did.
 */
int test_wait_count(const uint32_t *n, uint32_t want, unsigned int ms);

/*
 * Initialise EAL for a test process: hugepages when the machine has them mounted and free
 * (and IRDMA_TEST_NO_HUGE is unset), --no-huge otherwise; a file prefix unique to the
 * process; no PCI scan. extra_args (NULL-terminated, may be NULL) are appended, then the
 * space-separated words of the environment variable IRDMA_TEST_EAL_ARGS.
 * Returns what rte_eal_init returns.
 */
int test_eal_init(const char *prog, const char *const *extra_args);

/*
 * For main when the EAL did not come up: print the TAP "Bail out!" line that says so and
 * return the process exit code (1).
 */
int test_eal_bail(void);

/* True when test_eal_init chose hugepages. */
int test_eal_uses_hugepages(void);

#endif /* IRDMA_TEST_H */
