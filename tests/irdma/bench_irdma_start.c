/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Device start time on the inline model: rdmadev_open -> rdmadev_configure -> rdmadev_start
 * with the PF layer (PF reset, AdminQ, version, capabilities, MAC, link: pf/) and without it
 * (pf_init=0, the RDMA bring-up alone), alternating in the same run; prints the median of
 * each and their ratio. `--quick`: a few rounds (smoke).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include <rdmadev.h>

#include "test.h"

#define DEVARGS "irdma_model0,qps=64,cqs=64,mrs=64,mode=inline"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Cycles from open to started (stop and close untimed); 0 on failure. */
static uint64_t
one_start(const char *devargs)
{
	static const struct rdmadev_conf one = { .nb_comp_vectors = 1 };
	uint64_t t0, t1;
	int id;

	t0 = rte_rdtsc_precise();
	id = rdmadev_open(devargs);
	if (id < 0 || rdmadev_configure((int16_t)id, &one) != 0 ||
	    rdmadev_start((int16_t)id) != 0) {
		fprintf(stderr, "start of %s failed\n", devargs);
		if (id >= 0)
			rdmadev_close((int16_t)id);
		return 0;
	}
	t1 = rte_rdtsc_precise();
	if (rdmadev_stop((int16_t)id) != 0 || rdmadev_close((int16_t)id) != 0)
		return 0;
	return t1 - t0;
}

int
main(int argc, char **argv)
{
	unsigned int rounds = 30, i;
	uint64_t *pf, *nopf;
	double hz, m_pf, m_nopf;

	if (argc > 1 && strcmp(argv[1], "--quick") == 0)
		rounds = 3;
	else if (argc > 1) {
		fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
		return 2;
	}
	if (test_eal_init("bench_irdma_start", NULL) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	pf = calloc(rounds, sizeof(*pf));
	nopf = calloc(rounds, sizeof(*nopf));
	if (pf == NULL || nopf == NULL)
		return 1;
	/* one warm-up of each (first memzone reservations, page faults) */
	if (one_start(DEVARGS) == 0 || one_start(DEVARGS ",pf_init=0") == 0)
		return 1;
	for (i = 0; i < rounds; i++) {
		pf[i] = one_start(DEVARGS);
		nopf[i] = one_start(DEVARGS ",pf_init=0");
		if (pf[i] == 0 || nopf[i] == 0)
			return 1;
	}
	qsort(pf, rounds, sizeof(*pf), cmp_u64);
	qsort(nopf, rounds, sizeof(*nopf), cmp_u64);
	hz = (double)rte_get_tsc_hz();
	m_pf = (double)pf[rounds / 2] * 1e6 / hz;
	m_nopf = (double)nopf[rounds / 2] * 1e6 / hz;
	printf("rounds %u (median, open -> started, inline model)\n", rounds);
	printf("%-22s %10.1f us\n", "with PF layer", m_pf);
	printf("%-22s %10.1f us\n", "without (pf_init=0)", m_nopf);
	printf("%-22s %10.2f\n", "ratio", m_pf / m_nopf);
	free(pf);
	free(nopf);
	rte_eal_cleanup();
	return 0;
}
