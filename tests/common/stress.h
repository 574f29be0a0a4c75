/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_TEST_STRESS_H
#define IRDMA_TEST_STRESS_H

/* Shared pieces of the multi-threaded stress tests: arguments, a PRNG, a barrier. */

#include <pthread.h>
#include <stdint.h>

struct stress_args {
	uint64_t ops;		/* operations in total, over all threads */
	unsigned int threads;	/* worker threads */
	uint64_t seed;		/* PRNG seed; printed so a failure can be replayed */
};

/* Parse --ops N, --threads N and --seed N (defaults given in *args). Returns 0 or -1. */
int stress_parse(int argc, char **argv, struct stress_args *args);

/* xorshift64*: fast, good enough to mix operations; never returns the same stream for two
 * different non-zero seeds. */
static inline uint64_t
stress_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* Run fn(arg_i) on n threads (args spaced by stride bytes) and join them. Returns 0 or -1. */
int stress_run_threads(unsigned int n, void *(*fn)(void *), void *args, size_t stride);

#endif /* IRDMA_TEST_STRESS_H */
