/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef BENCH_MODEL_CLOCK_H
#define BENCH_MODEL_CLOCK_H

/*
 * The clock of the model's benchmarks (bench_model_*.c): CLOCK_MONOTONIC, never set back,
 * in nanoseconds as a double so that a run's span divides into per-frame figures directly.
 */

#include <time.h>

static inline double
bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#endif /* BENCH_MODEL_CLOCK_H */
