/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#include "test_pbl_common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_memory.h>

#include "test.h"

int
tpbl_ext_make_slots(struct tpbl_ext *e, unsigned int n, size_t pgsz, const uint64_t *slots,
		    const struct pbl_dma_hook *hook)
{
	unsigned int i;
	int rc;

	memset(e, 0, sizeof(*e));
	e->n = n;
	e->pgsz = pgsz;
	e->len = (size_t)n * pgsz;
	/* Aligned to 2 MB at least, so that groups of 4 KB pages can form 2 MB pages. */
	e->map_len = e->len + RTE_MAX(pgsz, (size_t)RTE_PGSIZE_2M);
	e->map = mmap(NULL, e->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (e->map == MAP_FAILED) {
		e->map = NULL;
		return -errno;
	}
	e->va = RTE_PTR_ALIGN_CEIL(e->map, RTE_MAX(pgsz, (size_t)RTE_PGSIZE_2M));
	e->iovas = malloc(n * sizeof(*e->iovas));
	if (e->iovas == NULL) {
		tpbl_ext_destroy(e);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		e->iovas[i] = TPBL_FAKE_IOVA_BASE + slots[i] * pgsz;
	rc = pbl_mem_register(e->va, e->len, e->iovas, n, pgsz, hook);
	if (rc != 0) {
		free(e->iovas);
		munmap(e->map, e->map_len);
		memset(e, 0, sizeof(*e));
	}
	return rc;
}

int
tpbl_ext_make(struct tpbl_ext *e, unsigned int n, size_t pgsz, enum tpbl_order order,
	      unsigned int group, const struct pbl_dma_hook *hook)
{
	uint64_t *slots = malloc(n * sizeof(*slots));
	unsigned int i;
	int rc;

	memset(e, 0, sizeof(*e));
	if (slots == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		slots[i] = i;
		if (order == TPBL_DESCENDING) {
			slots[i] = n - 1 - i;
		} else if (order == TPBL_GROUPS) {
			unsigned int groups = (n + group - 1) / group;

			slots[i] = (uint64_t)(groups - 1 - i / group) * group + i % group;
		}
	}
	rc = tpbl_ext_make_slots(e, n, pgsz, slots, hook);
	free(slots);
	return rc;
}

void
tpbl_ext_destroy(struct tpbl_ext *e)
{
	if (e->va != NULL && e->iovas != NULL)
		pbl_mem_unregister(e->va, e->len);
	free(e->iovas);
	if (e->map != NULL)
		munmap(e->map, e->map_len);
	memset(e, 0, sizeof(*e));
}

struct pbl_pool *
tpbl_pool_make(uint64_t size)
{
	void *region = aligned_alloc(PBL_GRANULE_SIZE, size);
	struct pbl_pool_conf conf = {
		.base_va = region,
		.base_iova = TPBL_POOL_IOVA,
		.size = size,
		.name = "test",
	};
	struct pbl_pool *pool = NULL;

	if (region == NULL)
		return NULL;
	memset(region, 0xa5, size);	/* stale data: the builders must write every entry */
	if (pbl_pool_create(&conf, &pool) != 0) {
		free(region);
		return NULL;
	}
	return pool;
}

void
tpbl_pool_destroy(struct pbl_pool *pool)
{
	void *region;

	if (pool == NULL)
		return;
	region = pbl_pool_pble(pool, 0);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(pbl_pool_destroy(pool), 0);
	free(region);
}

uint64_t
tpbl_pool_used(struct pbl_pool *pool)
{
	struct pbl_pool_stats st;

	pbl_pool_stats_get(pool, &st);
	return st.used_pbles;
}

rte_iova_t
tpbl_expect_eal(void *ctx, uint64_t va)
{
	RTE_SET_USED(ctx);
	return rte_mem_virt2iova((const void *)(uintptr_t)va);
}

rte_iova_t
tpbl_expect_ext(void *ctx, uint64_t va)
{
	const struct tpbl_ext *e = ctx;
	uint64_t off = va - (uintptr_t)e->va;
	const struct rte_memseg *ms = rte_mem_virt2memseg((const void *)(uintptr_t)va, NULL);
	rte_iova_t mine = e->iovas[off / e->pgsz] + off % e->pgsz;

	/* EAL's own table must say the same as the table we gave it. */
	TEST_CHECK(ms != NULL && ms->iova + (va - ms->addr_64) == mine);
	return mine;
}

/* A PBLE as the engine reads it: region base + index * 8, little-endian. */
static uint64_t
raw_pble(const struct pbl *pbl, uint64_t index)
{
	const uint64_t *base = pbl_pool_pble(pbl->pool, 0);

	return rte_le_to_cpu_64(base[index]);
}

/* True when PBLEs [index, index + n) all lie in chunks the pool has added. */
static bool
in_pool(const struct pbl *pbl, uint64_t index, uint64_t n)
{
	return index + n <= PBL_INVALID_INDEX && pbl_pool_pble(pbl->pool, (uint32_t)index) &&
	       pbl_pool_pble(pbl->pool, (uint32_t)(index + n - 1));
}

/*
 * Level-2 structure: root_count = ceil(npages / 512); every root entry is the PBLE index of
 * a leaf (not an address) inside the pool; the runs of root and leaves do not overlap.
 */
static unsigned int
check_level2(const struct pbl *pbl)
{
	uint64_t leaves = (pbl->npages + PBL_LEAF_PBLES - 1) / PBL_LEAF_PBLES;
	uint64_t *starts = calloc(leaves + 1, sizeof(*starts));
	uint64_t *ends = calloc(leaves + 1, sizeof(*ends));
	unsigned int bad = 0;
	uint64_t i, j;

	TEST_CHECK_EQ(pbl->root_count, leaves);
	if (starts == NULL || ends == NULL || pbl->root_count != leaves ||
	    !in_pool(pbl, pbl->index, leaves)) {
		free(starts);
		free(ends);
		TEST_CHECK(!"level-2 root is not in the pool");
		return 1;
	}
	starts[leaves] = pbl->index;
	ends[leaves] = pbl->index + leaves;
	for (i = 0; i < leaves; i++) {
		uint64_t leaf = raw_pble(pbl, pbl->index + i);
		uint64_t cnt = RTE_MIN(pbl->npages - i * PBL_LEAF_PBLES, (uint64_t)PBL_LEAF_PBLES);

		/* A root entry is a PBLE index of a leaf, never an address. */
		if (!in_pool(pbl, leaf, cnt)) {
			bad++;
			TEST_CHECK(!"level-2 root entry is not a leaf index");
			continue;
		}
		starts[i] = leaf;
		ends[i] = leaf + cnt;
	}
	for (i = 0; i <= leaves && bad == 0; i++)
		for (j = i + 1; j <= leaves; j++)
			if (starts[i] < ends[j] && starts[j] < ends[i]) {
				bad++;
				TEST_CHECK(!"level-2 runs overlap");
				break;
			}
	free(starts);
	free(ends);
	return bad;
}

/* Page p's IOVA read straight from the PBLE memory, as the engine would. */
static rte_iova_t
raw_page_iova(const struct pbl *pbl, uint64_t p)
{
	if (pbl->level == PBL_LEVEL_0)
		return pbl->addr + (p << pbl->page_shift);
	if (pbl->level == PBL_LEVEL_1)
		return raw_pble(pbl, pbl->index + p);
	return raw_pble(pbl, raw_pble(pbl, pbl->index + p / PBL_LEAF_PBLES) +
				     p % PBL_LEAF_PBLES);
}

unsigned int
tpbl_check_pbl(const struct pbl *pbl, tpbl_expect_fn expect, void *ctx)
{
	uint64_t pgsz = UINT64_C(1) << pbl->page_shift;
	uint64_t page0 = pbl->va - pbl->first_offset;
	rte_iova_t *iovas = malloc(pbl->npages * sizeof(*iovas));
	unsigned int bad = 0;
	rte_iova_t got;
	uint64_t p;

	TEST_CHECK(iovas != NULL);
	if (iovas == NULL)
		return 1;
	TEST_CHECK_EQ(pbl->npages, (pbl->first_offset + pbl->len + pgsz - 1) / pgsz);
	TEST_CHECK_EQ(pbl->first_offset, pbl->va & (pgsz - 1));
	if (pbl->level == PBL_LEVEL_1 && !in_pool(pbl, pbl->index, pbl->npages)) {
		TEST_CHECK(!"level-1 run is not in the pool");
		free(iovas);
		return 1;
	}
	if (pbl->level == PBL_LEVEL_2 && check_level2(pbl) != 0) {
		free(iovas);
		return 1;
	}
	TEST_CHECK_EQ(pbl_walk(pbl, 0, pbl->npages, iovas), 0);
	for (p = 0; p < pbl->npages; p++) {
		uint64_t first = RTE_MAX(page0 + p * pgsz, pbl->va);
		uint64_t last = RTE_MIN(page0 + (p + 1) * pgsz, pbl->va + pbl->len) - 1;
		rte_iova_t want = expect(ctx, first);
		rte_iova_t want_page = want - (first - (page0 + p * pgsz));
		rte_iova_t raw = raw_page_iova(pbl, p);

		/* Page start: the first byte's IOVA minus its offset in the page. */
		if (iovas[p] != want_page || raw != want_page) {
			if (bad++ < 4)
				printf("#   page %" PRIu64 ": walked 0x%" PRIx64 ", decoded 0x%" PRIx64
				       ", want 0x%" PRIx64 "\n", p, iovas[p], raw, want_page);
		}
		if (pbl_translate(pbl, first - pbl->va, &got) != 0 || got != want)
			bad++;
		if (pbl_translate(pbl, last - pbl->va, &got) != 0 ||
		    got != expect(ctx, last))
			bad++;
	}
	TEST_CHECK_EQ(pbl_translate(pbl, pbl->len, &got), -EINVAL);
	TEST_CHECK_EQ(pbl_walk(pbl, pbl->npages, 1, iovas), -EINVAL);
	TEST_CHECK_EQ(bad, 0);
	free(iovas);
	return bad;
}
