/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Concurrent control-path callers on one PBLE pool: each thread allocates runs of random
 * length, stamps every PBLE with its own tag, checks the tags are intact before freeing (an
 * overlapping run handed to another thread would overwrite them), and frees. At the end the
 * pool must be empty and consistent. Usage: test_pbl_pool_stress [--ops N] [--threads T]
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <pbl.h>
#include <rte_common.h>
#include <rte_log.h>

#include "test.h"
#include "test_pbl_common.h"

#define DEFAULT_OPS 200000
#define DEFAULT_THREADS 4
#define MAX_THREADS 64
#define REGION_SIZE (UINT64_C(3) << 20)
#define RUN_MAX 2048
#define LIVE_MAX 64

static struct pbl_pool *pool;
static unsigned long ops_per_thread;

struct worker {
	pthread_t tid;
	unsigned int id;
	unsigned long corrupt;
	unsigned long failed_frees;
	unsigned long enomem;
};

static bool
run_intact(const struct pbl_run *r, uint64_t tag)
{
	uint32_t i;

	for (i = 0; i < r->count; i++)
		if (r->va[i] != tag)
			return false;
	return true;
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct pbl_run live[LIVE_MAX];
	uint64_t tags[LIVE_MAX];
	uint64_t seed = 0x9e3779b97f4a7c15ull * (w->id + 1), tag;
	unsigned int nlive = 0;
	unsigned long op;

	for (op = 0; op < ops_per_thread; op++) {
		if (nlive < LIVE_MAX && (nlive == 0 || tpbl_rand(&seed) % 2 == 0)) {
			struct pbl_run *r = &live[nlive];
			uint32_t i;

			if (pbl_pool_alloc(pool, 1 + tpbl_rand(&seed) % RUN_MAX, r) != 0) {
				w->enomem++;
				continue;
			}
			tag = ((uint64_t)w->id << 48) | op;
			for (i = 0; i < r->count; i++)
				r->va[i] = tag;
			tags[nlive++] = tag;
		} else {
			unsigned int k = tpbl_rand(&seed) % nlive;

			if (!run_intact(&live[k], tags[k]))
				w->corrupt++;
			if (pbl_pool_free(pool, live[k].index, live[k].count) != 0)
				w->failed_frees++;
			live[k] = live[--nlive];
			tags[k] = tags[nlive];
		}
	}
	while (nlive > 0) {
		nlive--;
		if (!run_intact(&live[nlive], tags[nlive]))
			w->corrupt++;
		if (pbl_pool_free(pool, live[nlive].index, live[nlive].count) != 0)
			w->failed_frees++;
	}
	return NULL;
}

static unsigned long total_ops = DEFAULT_OPS;
static unsigned int nthreads = DEFAULT_THREADS;

static void
test_concurrent_alloc_free(void)
{
	struct worker w[MAX_THREADS];
	struct pbl_pool_stats st;
	void *region = aligned_alloc(PBL_GRANULE_SIZE, REGION_SIZE);
	struct pbl_pool_conf conf = { .base_va = region, .size = REGION_SIZE, .name = "stress" };
	unsigned long enomem = 0;
	unsigned int i;

	TEST_CHECK_EQ(pbl_pool_create(&conf, &pool), 0);
	ops_per_thread = total_ops / nthreads;
	memset(w, 0, sizeof(w));
	for (i = 0; i < nthreads; i++) {
		w[i].id = i;
		TEST_CHECK_EQ(pthread_create(&w[i].tid, NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(w[i].tid, NULL);
		TEST_CHECK_EQ(w[i].corrupt, 0);
		TEST_CHECK_EQ(w[i].failed_frees, 0);
		enomem += w[i].enomem;
	}
	pbl_pool_stats_get(pool, &st);
	printf("#   %u threads x %lu ops: %" PRIu64 " allocs, %lu refused, %u chunks\n", nthreads,
	       ops_per_thread, st.allocs, enomem, st.chunks);
	TEST_CHECK_EQ(st.used_pbles, 0);
	TEST_CHECK_EQ(st.runs, 0);
	TEST_CHECK_EQ(st.allocs, st.frees);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(pbl_pool_destroy(pool), 0);
	free(region);
}

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--ops") == 0)
			total_ops = strtoul(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "--threads") == 0)
			nthreads = (unsigned int)strtoul(argv[i + 1], NULL, 0);
	}
	if (nthreads == 0 || nthreads > MAX_THREADS || total_ops == 0) {
		printf("Bail out! bad --ops / --threads\n");
		return EXIT_FAILURE;
	}
	/* Exhaustion is expected under load and logged each time: keep it quiet. */
	rte_log_set_level_pattern("lib.pbl", RTE_LOG_CRIT);
	TEST_RUN(test_concurrent_alloc_free);
	return test_done();
}
