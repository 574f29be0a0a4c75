/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * MR registration time on the inline model: rdmadev_mr_reg + rdmadev_mr_dereg of EAL memory
 * (rte_malloc) and of malloc'd memory (the application memory table: mincore check, DMA map
 * at IOVA = VA, REG_MR; the unmap at dereg) at 4 KiB and 2 MiB, alternating in the same run,
 * and 1 GiB of malloc'd memory; prints the median of each and the ratios to the EAL case.
 * `--quick`: a few rounds (smoke); `--no-1g`: skip the 1 GiB case (it needs 1 GiB of
 * address space, not of memory: nothing is touched). The model maps without pinning: on VFIO
 * the pinning of VFIO_IOMMU_MAP_DMA comes on top (per page the kernel pins).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include <rdmadev.h>

#include "test.h"

#define DEVARGS "irdma_model0,qps=16,cqs=16,mrs=64,mode=inline"
#define SZ_4K (UINT64_C(4) << 10)
#define SZ_2M (UINT64_C(2) << 20)
#define SZ_1G (UINT64_C(1) << 30)

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Cycles of one register + deregister of [addr, addr + len); 0 on failure. */
static uint64_t
one_reg(struct rdmadev_pd *pd, void *addr, uint64_t len)
{
	const struct rdmadev_mr_attr a = {
		.addr = addr, .length = len, .iova = (uint64_t)(uintptr_t)addr,
		.access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
			  RDMADEV_ACCESS_REMOTE_READ,
	};
	struct rdmadev_mr *mr = NULL;
	uint64_t t0, t1;

	t0 = rte_rdtsc_precise();
	if (rdmadev_mr_reg(pd, &a, &mr) != 0) {
		fprintf(stderr, "mr_reg of %p+%" PRIu64 " failed\n", addr, len);
		return 0;
	}
	if (rdmadev_mr_dereg(mr) != 0) {
		fprintf(stderr, "mr_dereg failed\n");
		return 0;
	}
	t1 = rte_rdtsc_precise();
	return t1 - t0;
}

static double
median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return (double)v[n / 2];
}

int
main(int argc, char **argv)
{
	static const struct rdmadev_conf one = { .nb_comp_vectors = 1 };
	unsigned int rounds = 200, i, k;
	bool big = true;
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	uint8_t *eal4k, *eal2m, *m4k, *m2m, *m1g = NULL;
	uint64_t *t[5];
	double hz, med[5];
	int id, arg;

	for (arg = 1; arg < argc; arg++) {
		if (strcmp(argv[arg], "--quick") == 0) {
			rounds = 3;
		} else if (strcmp(argv[arg], "--no-1g") == 0) {
			big = false;
		} else {
			fprintf(stderr, "usage: %s [--quick] [--no-1g]\n", argv[0]);
			return 2;
		}
	}
	if (test_eal_init("bench_irdma_mr_reg", NULL) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	id = rdmadev_open(DEVARGS);
	if (id < 0 || rdmadev_configure((int16_t)id, &one) != 0 ||
	    rdmadev_start((int16_t)id) != 0 || rdmadev_ctx_alloc((int16_t)id, &ctx) != 0 ||
	    rdmadev_pd_alloc(ctx, &pd) != 0) {
		fprintf(stderr, "device setup failed\n");
		return 1;
	}
	eal4k = rte_malloc("bench", SZ_4K, SZ_4K);
	eal2m = rte_malloc("bench", SZ_2M, SZ_4K);
	m4k = aligned_alloc(SZ_4K, SZ_4K);
	m2m = aligned_alloc(SZ_4K, SZ_2M);
	if (big)
		m1g = malloc(SZ_1G);
	if (eal4k == NULL || eal2m == NULL || m4k == NULL || m2m == NULL || (big && m1g == NULL)) {
		fprintf(stderr, "no memory for the buffers\n");
		return 1;
	}
	for (k = 0; k < 5; k++) {
		t[k] = calloc(rounds, sizeof(uint64_t));
		if (t[k] == NULL)
			return 1;
	}
	/* warm-up (first PBLE chunk, page faults of the control path) */
	if (one_reg(pd, eal4k, SZ_4K) == 0 || one_reg(pd, m4k, SZ_4K) == 0)
		return 1;
	for (i = 0; i < rounds; i++) {
		t[0][i] = one_reg(pd, eal4k, SZ_4K);
		t[1][i] = one_reg(pd, m4k, SZ_4K);
		t[2][i] = one_reg(pd, eal2m, SZ_2M);
		t[3][i] = one_reg(pd, m2m, SZ_2M);
		t[4][i] = big ? one_reg(pd, m1g, SZ_1G) : 1;
		for (k = 0; k < 5; k++)
			if (t[k][i] == 0)
				return 1;
	}
	hz = (double)rte_get_tsc_hz();
	for (k = 0; k < 5; k++)
		med[k] = median(t[k], rounds) / hz * 1e6;
	printf("MR register + deregister on the inline model, median of %u rounds:\n", rounds);
	printf("  4 KiB  EAL memory     %9.2f us\n", med[0]);
	printf("  4 KiB  malloc'd       %9.2f us   (x%.2f of EAL)\n", med[1], med[1] / med[0]);
	printf("  2 MiB  EAL memory     %9.2f us\n", med[2]);
	printf("  2 MiB  malloc'd       %9.2f us   (x%.2f of EAL)\n", med[3], med[3] / med[2]);
	if (big)
		printf("  1 GiB  malloc'd       %9.2f us   (x%.2f of 2 MiB EAL)\n", med[4],
		       med[4] / med[2]);
	rte_free(eal4k);
	rte_free(eal2m);
	free(m4k);
	free(m2m);
	free(m1g);
	for (k = 0; k < 5; k++)
		free(t[k]);
	if (rdmadev_pd_free(pd) != 0 || rdmadev_ctx_free(ctx) != 0 ||
	    rdmadev_stop((int16_t)id) != 0 || rdmadev_close((int16_t)id) != 0)
		return 1;
	rte_eal_cleanup();
	return 0;
}
