/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The floors bench_model.sh sets the device model's numbers against, measured in the run
 * that measures the model: the one-way time of a cache line bounced between two threads
 * pinned to CPUs 0 and 1 (the cross-core hand-off a doorbell and a completion need at
 * least), and memcpy's bandwidth for 64 KiB copies between two buffers (the copy a 64 KiB
 * RDMA WRITE on the in-process wire does at least once). Prints "key value" lines; never
 * fails on timing.
 *   bench_model_floor [--quick]
 */

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_model_clock.h"

#define TRIALS		7
#define COPY_LEN	(64u << 10)

static struct {
	uint64_t v;
	uint8_t pad[56];
} line __attribute__((aligned(64)));

static uint32_t rounds = 200000;

static void
pin(unsigned int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (pthread_setaffinity_np(pthread_self(), sizeof(s), &s) != 0)
		printf("# cannot pin to CPU %u: the ping-pong is not cross-core for sure\n", cpu);
}

/* The second thread: answers every odd value with the next even one. */
static void *
ponger(void *arg)
{
	uint64_t i;

	(void)arg;
	pin(1);
	for (i = 1; i < 2 * (uint64_t)rounds; i += 2) {
		while (__atomic_load_n(&line.v, __ATOMIC_ACQUIRE) != i)
			;
		__atomic_store_n(&line.v, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* One trial: ns one way (a round trip is two hand-offs of the line). */
static double
pingpong(void)
{
	pthread_t t;
	uint64_t i;
	double t0, t1;

	__atomic_store_n(&line.v, 0, __ATOMIC_RELEASE);
	if (pthread_create(&t, NULL, ponger, NULL) != 0)
		return 0;
	t0 = bench_now_ns();
	for (i = 0; i < 2 * (uint64_t)rounds; i += 2) {
		__atomic_store_n(&line.v, i + 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&line.v, __ATOMIC_ACQUIRE) != i + 2)
			;
	}
	t1 = bench_now_ns();
	pthread_join(t, NULL);
	return (t1 - t0) / (2.0 * rounds);
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	double pp[TRIALS], bw[TRIALS];
	uint8_t *src, *dst;
	uint32_t copies = 20000, i, k;

	if (argc > 1 && strcmp(argv[1], "--quick") == 0) {
		rounds = 2000;
		copies = 200;
	}
	pin(0);
	for (k = 0; k < TRIALS; k++)
		pp[k] = pingpong();
	qsort(pp, TRIALS, sizeof(pp[0]), cmp);
	/* the median: the machine may be shared; the fastest trial as well */
	printf("pingpong_oneway_ns %.1f\n", pp[TRIALS / 2]);
	printf("pingpong_oneway_ns_min %.1f\n", pp[0]);

	src = aligned_alloc(64, COPY_LEN);
	dst = aligned_alloc(64, COPY_LEN);
	if (src == NULL || dst == NULL)
		return 1;
	memset(src, 0x5a, COPY_LEN);
	memset(dst, 0, COPY_LEN);
	for (k = 0; k < TRIALS; k++) {
		double t0 = bench_now_ns();

		for (i = 0; i < copies; i++) {
			memcpy(dst, src, COPY_LEN);
			__asm__ volatile("" : : "r"(dst) : "memory");
			src[i % COPY_LEN] ^= 1;
		}
		/* bytes/ns = GB/s */
		bw[k] = (double)copies * COPY_LEN / (bench_now_ns() - t0);
	}
	qsort(bw, TRIALS, sizeof(bw[0]), cmp);
	printf("memcpy_64k_GBps %.2f\n", bw[TRIALS / 2]);
	free(src);
	free(dst);
	return 0;
}
