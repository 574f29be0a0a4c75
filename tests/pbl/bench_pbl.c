/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Build and walk PBLs for 1 GiB registered as 512 pages of 2 MB and as 262144 pages of 4 KB
 * (level 1 and level 2), and compare with resolving the same pages one by one through
 * rte_mem_virt2iova (and, for reference, rte_mem_virt2memseg) in the same run. Also one row
 * for real EAL memory. Prints a table; never fails on timing. Exits non-zero only when a
 * walked IOVA is wrong or a call fails.
 *
 * The 1 GiB area is ordinary memory (touched once, so every page is present) registered with
 * a synthetic, scattered IOVA table: real hugepages that many are rarely free on a test box,
 * and the cost measured is that of the tables, not of the memory behind them.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "test.h"
#include "test_pbl_common.h"

#define GIB (UINT64_C(1) << 30)
#define MIB (UINT64_C(1) << 20)
#define POOL_SIZE (8 * MIB)
#define REPEATS 5
#define EAL_ROW_LEN (64 * MIB)
#define TARGET_RATIO 50.0
#define NS_PER_MS 1e6

struct row {
	const char *name;
	uint64_t pages;
	uint64_t pgsz;
	unsigned int level;
	double reg_ms;
	double build_ms;	/* best of REPEATS */
	double walk_ms;		/* best of REPEATS */
	double virt2iova_ms;
	double memseg_ms;
	uint64_t pble_bytes;
	uint64_t bytes;
};

static struct pbl_pool *pool;
static int functional_errors;

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One by one through EAL: the baseline. Returns a checksum so the calls are not elided. */
static uint64_t
baseline(const uint8_t *va, uint64_t pages, uint64_t pgsz, struct row *r)
{
	uint64_t sum = 0, p;
	double t0;

	t0 = now_ns();
	for (p = 0; p < pages; p++)
		sum += rte_mem_virt2iova(va + p * pgsz);
	r->virt2iova_ms = (now_ns() - t0) / NS_PER_MS;
	t0 = now_ns();
	for (p = 0; p < pages; p++) {
		const struct rte_memseg *ms = rte_mem_virt2memseg(va + p * pgsz, NULL);

		sum += ms != NULL ? ms->iova : 0;
	}
	r->memseg_ms = (now_ns() - t0) / NS_PER_MS;
	return sum;
}

/* Build + walk REPEATS times; check the walk against want[] (or EAL when want is NULL). */
static void
build_and_walk(const uint8_t *va, uint64_t len, uint64_t bitmap, uint32_t levels,
	       const rte_iova_t *want, struct row *r)
{
	rte_iova_t *got = malloc(len / PBL_PGSZ_4K * sizeof(*got));
	struct pbl_pool_stats st;
	unsigned int i;

	r->build_ms = r->walk_ms = 1e30;
	for (i = 0; i < REPEATS && got != NULL; i++) {
		struct pbl pbl;
		double t0 = now_ns(), t1;
		uint64_t p, bad = 0;
		int rc = pbl_build_mr(pool, va, len, bitmap, levels, &pbl);

		t1 = now_ns();
		if (rc != 0) {
			printf("# %s: pbl_build_mr failed: %d\n", r->name, rc);
			functional_errors++;
			break;
		}
		rc = pbl_walk(&pbl, 0, pbl.npages, got);
		r->walk_ms = RTE_MIN(r->walk_ms, (now_ns() - t1) / NS_PER_MS);
		r->build_ms = RTE_MIN(r->build_ms, (t1 - t0) / NS_PER_MS);
		r->pages = pbl.npages;
		r->pgsz = UINT64_C(1) << pbl.page_shift;
		r->level = pbl.level;
		pbl_pool_stats_get(pool, &st);
		r->pble_bytes = st.used_pbles * PBL_PBLE_SIZE;
		for (p = 0; rc == 0 && p < pbl.npages; p++) {
			rte_iova_t w = want != NULL ? want[p * r->pgsz / PBL_PGSZ_4K] :
						      rte_mem_virt2iova(va + p * r->pgsz);

			bad += got[p] != w;
		}
		if (rc != 0 || bad != 0) {
			printf("# %s: walk gave %" PRIu64 " wrong IOVAs (rc %d)\n", r->name, bad, rc);
			functional_errors++;
		}
		if (pbl_free(&pbl) != 0)
			functional_errors++;
	}
	free(got);
	r->bytes = len;
}

/* Register [va, va + 1 GiB) with a scattered IOVA table at page size pgsz and measure. */
static void
ext_row(uint8_t *va, uint64_t pgsz, uint32_t levels, const char *name, struct row *r)
{
	uint64_t n = GIB / pgsz, i, n4k = GIB / PBL_PGSZ_4K;
	rte_iova_t *table = malloc(n * sizeof(*table));
	rte_iova_t *per4k = malloc(n4k * sizeof(*per4k));
	double t0;

	memset(r, 0, sizeof(*r));
	r->name = name;
	if (table == NULL || per4k == NULL) {
		functional_errors++;
		goto out;
	}
	/* Every other page, in reverse order: no two neighbours contiguous. */
	for (i = 0; i < n; i++)
		table[i] = TPBL_FAKE_IOVA_BASE + (2 * (n - 1 - i)) * pgsz;
	for (i = 0; i < n4k; i++)
		per4k[i] = table[i * PBL_PGSZ_4K / pgsz] + (i * PBL_PGSZ_4K) % pgsz;
	t0 = now_ns();
	if (pbl_mem_register(va, GIB, table, (unsigned int)n, pgsz, NULL) != 0) {
		printf("# %s: registration failed\n", name);
		functional_errors++;
		goto out;
	}
	r->reg_ms = (now_ns() - t0) / NS_PER_MS;
	build_and_walk(va, GIB, pgsz, levels, per4k, r);
	baseline(va, n, pgsz, r);
	if (pbl_mem_unregister(va, GIB) != 0)
		functional_errors++;
out:
	free(table);
	free(per4k);
}

static void
eal_row(struct row *r)
{
	struct pbl_buf buf;

	memset(r, 0, sizeof(*r));
	r->name = "EAL rte_malloc 64 MiB";
	if (pbl_buf_alloc(EAL_ROW_LEN, SOCKET_ID_ANY, 0, &buf) != 0) {
		printf("# no %" PRIu64 " MiB of EAL memory: row skipped\n", EAL_ROW_LEN / MIB);
		return;
	}
	build_and_walk(buf.va, buf.len, PBL_PGSZ_4K, PBL_LEVELS_ALL, NULL, r);
	baseline(buf.va, r->pages, r->pgsz, r);
	pbl_buf_free(&buf);
}

static void
print_row(const struct row *r)
{
	double bw = r->build_ms + r->walk_ms;
	double ratio = bw > 0 ? r->virt2iova_ms / bw : 0;

	if (r->bytes == 0)
		return;
	printf("%-24s %7" PRIu64 " %5" PRIu64 "K %3u %9.2f %9.3f %8.3f %9.3f %12.2f %8.1fx %10.2f"
	       " %10" PRIu64 " %10.0f\n",
	       r->name, r->pages, r->pgsz / 1024, r->level, r->reg_ms, r->build_ms, r->walk_ms,
	       bw, r->virt2iova_ms, ratio, r->memseg_ms, r->pble_bytes,
	       (double)r->pble_bytes * (double)GIB / (double)r->bytes);
	if (ratio < TARGET_RATIO)
		printf("#   %s: below the %.0fx target%s\n", r->name, TARGET_RATIO,
		       rte_eal_iova_mode() == RTE_IOVA_VA ?
			       " (IOVA as VA: rte_mem_virt2iova is an identity, not a lookup)" : "");
}

int
main(int argc, char **argv)
{
	struct row rows[4];
	uint8_t *map, *va;
	uint64_t off;
	unsigned int i;
	void *region;
	struct pbl_pool_conf conf = { .size = POOL_SIZE, .base_iova = TPBL_POOL_IOVA,
				      .name = "bench" };

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("bench_pbl", NULL) < 0) {
		printf("EAL init failed\n");
		return EXIT_FAILURE;
	}
	region = aligned_alloc(PBL_GRANULE_SIZE, POOL_SIZE);
	conf.base_va = region;
	if (region == NULL || pbl_pool_create(&conf, &pool) != 0)
		return EXIT_FAILURE;
	map = mmap(NULL, GIB + RTE_PGSIZE_2M, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		return EXIT_FAILURE;
	va = RTE_PTR_ALIGN_CEIL(map, RTE_PGSIZE_2M);
	/* Make every page present, so that pagemap lookups find them. */
	for (off = 0; off < GIB; off += PBL_PGSZ_4K)
		va[off] = 1;

	ext_row(va, RTE_PGSIZE_2M, PBL_LEVELS_ALL, "1 GiB as 512 x 2 MB", &rows[0]);
	ext_row(va, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_2), "1 GiB as 256K x 4 KB L2",
		&rows[1]);
	ext_row(va, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_1), "1 GiB as 256K x 4 KB L1",
		&rows[2]);
	eal_row(&rows[3]);

	printf("# pbl benchmark: IOVA as %s, %s; best of %d builds; times in ms\n",
	       rte_eal_iova_mode() == RTE_IOVA_PA ? "PA" : "VA",
	       test_eal_uses_hugepages() ? "EAL on 2 MB hugepages" : "EAL --no-huge",
	       REPEATS);
	printf("%-24s %7s %6s %3s %9s %9s %8s %9s %12s %9s %10s %10s %10s\n", "case", "pages",
	       "page", "lvl", "register", "build", "walk", "build+walk", "virt2iova",
	       "ratio", "virt2memseg", "PBLE bytes", "PBLE/GiB");
	for (i = 0; i < RTE_DIM(rows); i++)
		print_row(&rows[i]);
	munmap(map, GIB + RTE_PGSIZE_2M);
	pbl_pool_destroy(pool);
	free(region);
	rte_eal_cleanup();
	if (functional_errors != 0)
		printf("# %d functional errors\n", functional_errors);
	return functional_errors != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
