/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Memory, IOVA resolution, best page size and the MR builder. Every PBL built here is walked
 * back and compared page by page with EAL's answer (rte_mem_virt2iova for EAL memory; the
 * memseg table and the IOVA table we registered for external memory, whose synthetic IOVAs
 * rte_mem_virt2iova does not consult). External memory with deliberate IOVA gaps is how the
 * fragmented layouts needed for levels 1 and 2 are made in both IOVA modes.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/mman.h>
#include <sys/mman.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "test.h"
#include "test_pbl_common.h"

#define MB (UINT64_C(1) << 20)
#define KB4 PBL_PGSZ_4K
#define POOL_SIZE (8 * MB)
#define EAL_BUF_LEN (12 * MB)
#define EAL_HEAD_SKIP 100
#define EAL_TAIL_SKIP 200
#define EXT4K_PAGES 2000
#define EXT2M_PAGES 600
#define EXT1G_PAGES 2
#define MAX_HOOK_CALLS 16

static const char *
iova_mode_name(void)
{
	return rte_eal_iova_mode() == RTE_IOVA_PA ? "PA" : "VA";
}

/* ---- resolution and page size ------------------------------------------------------------ */

static void
test_resolve_eal(void)
{
	struct pbl_layout *l = NULL;
	struct pbl_buf buf, cbuf;
	uint64_t off, bad = 0;

	TEST_CHECK_EQ(pbl_buf_alloc(EAL_BUF_LEN, SOCKET_ID_ANY, 0, &buf), 0);
	TEST_CHECK(buf.va != NULL && ((uintptr_t)buf.va % PBL_QUEUE_PAGE_SIZE) == 0);
	TEST_CHECK(buf.socket_id >= 0);
	TEST_CHECK_EQ(pbl_mem_resolve(buf.va, buf.len, &l), 0);
	if (l == NULL)
		return;
	for (off = 0; off < buf.len; off += KB4)
		if (pbl_layout_iova(l, off) != rte_mem_virt2iova((uint8_t *)buf.va + off))
			bad++;
	TEST_CHECK_EQ(bad, 0);
	TEST_CHECK_EQ(pbl_layout_iova(l, buf.len), RTE_BAD_IOVA);
	/* The page size EAL itself backs this memory with (2 MB, 1 GB, or 4 KB with --no-huge). */
	TEST_CHECK_EQ(l->min_page_sz, rte_mem_virt2memseg_list(buf.va)->page_sz);
	TEST_CHECK(l->min_page_sz == (test_eal_uses_hugepages() ? l->min_page_sz : KB4));
	TEST_CHECK_EQ(pbl_mem_socket(buf.va), l->socket_id);
	printf("#   IOVA as %s: %zu MB of rte_malloc memory in %u IOVA-contiguous pieces\n",
	       iova_mode_name(), buf.len / MB, l->nsegs);
	pbl_layout_free(l);
	pbl_buf_free(&buf);
	TEST_CHECK(buf.va == NULL);
	pbl_buf_free(&buf);

	TEST_CHECK_EQ(pbl_buf_alloc(MB, SOCKET_ID_ANY, PBL_BUF_F_IOVA_CONTIG, &cbuf), 0);
	TEST_CHECK(cbuf.mz != NULL);
	TEST_CHECK_EQ(pbl_mem_resolve(cbuf.va, cbuf.len, &l), 0);
	TEST_CHECK(l != NULL && l->nsegs == 1);
	pbl_layout_free(l);
	pbl_buf_free(&cbuf);

	TEST_CHECK_EQ(pbl_buf_alloc(0, SOCKET_ID_ANY, 0, &buf), -EINVAL);
	TEST_CHECK_EQ(pbl_buf_alloc(KB4, SOCKET_ID_ANY, 0x80, &buf), -EINVAL);
	TEST_CHECK_EQ(pbl_buf_alloc(SIZE_MAX, SOCKET_ID_ANY, 0, &buf), -EINVAL);
	TEST_CHECK_EQ(pbl_buf_alloc(KB4, SOCKET_ID_ANY, 0, NULL), -EINVAL);
}

static void
test_mem_socket(void)
{
	uint8_t *heap = malloc(KB4);

	/* Outside EAL: libnuma's answer. */
	heap[0] = 1;
	TEST_CHECK(pbl_mem_socket(heap) >= 0);
	free(heap);
}

static struct pbl_layout *
layout_of(uint64_t va, uint64_t len, unsigned int nsegs, const struct pbl_seg *segs)
{
	struct pbl_layout *l = calloc(1, sizeof(*l) + nsegs * sizeof(l->segs[0]));

	l->va = va;
	l->len = len;
	l->nsegs = nsegs;
	memcpy(l->segs, segs, nsegs * sizeof(segs[0]));
	return l;
}

static uint64_t
best_of(uint64_t va, uint64_t len, unsigned int nsegs, const struct pbl_seg *segs,
	uint64_t bitmap)
{
	struct pbl_layout *l = layout_of(va, len, nsegs, segs);
	uint64_t pg = pbl_best_pgsz(l, bitmap);

	free(l);
	return pg;
}

static void
test_best_pgsz(void)
{
	const uint64_t M2 = RTE_PGSIZE_2M, G1 = RTE_PGSIZE_1G;
	struct pbl_seg one_byte[] = { { 0x1000, 0x1000, 64 } };
	struct pbl_seg aligned[] = { { 0x200000, 0x600000, 4 * MB } };
	struct pbl_seg skewed[] = { { 0x200000, 0x601000, 4 * MB } };
	struct pbl_seg broken_2m[] = { { 0x200000, 0xa00000, 2 * MB },
				       { 0x400000, 0x200000, 2 * MB } };
	struct pbl_seg broken_4k[] = { { 0x200000, 0xa00000, 2 * MB + KB4 },
				       { 0x401000, 0x201000, 2 * MB } };
	struct pbl_seg huge[] = { { G1, 7 * G1, 2 * G1 } };
	struct pbl_seg head_off[] = { { G1 + 0x1234, 3 * G1 + 0x1234, G1 } };
	struct pbl_seg ident_2m[] = { { 0x200000, 0x200000, 2 * MB } };
	struct pbl_seg ident_1m[] = { { 0x200000, 0x200000, MB } };
	struct pbl_seg ident_12m[] = { { 0x1000000, 0x1000000, 12 * MB } };
	struct pbl_pool *pool = tpbl_pool_make(MB);
	struct pbl_layout *l;
	struct pbl pbl;

	TEST_CHECK_EQ(best_of(0x1000, 64, 1, one_byte, PBL_PGSZ_CAP), KB4);
	TEST_CHECK_EQ(best_of(0x200000, 4 * MB, 1, aligned, PBL_PGSZ_CAP), M2);
	TEST_CHECK_EQ(best_of(0x200000, 4 * MB, 1, skewed, PBL_PGSZ_CAP), KB4);
	TEST_CHECK_EQ(best_of(0x200000, 4 * MB, 2, broken_2m, PBL_PGSZ_CAP), M2);
	TEST_CHECK_EQ(best_of(0x200000, 4 * MB + KB4, 2, broken_4k, PBL_PGSZ_CAP), KB4);
	TEST_CHECK_EQ(best_of(0x200000, 4 * MB + KB4, 2, broken_4k, PBL_PGSZ_2M), 0);
	TEST_CHECK_EQ(best_of(G1, 2 * G1, 1, huge, PBL_PGSZ_CAP), G1);
	TEST_CHECK_EQ(best_of(G1, 2 * G1, 1, huge, PBL_PGSZ_4K | PBL_PGSZ_2M), M2);
	/* A start inside a page: VA and IOVA still agree below 1 GB. */
	TEST_CHECK_EQ(best_of(G1 + 0x1234, G1, 1, head_off, PBL_PGSZ_CAP), G1);
	/*
	 * IOVA = VA: the smallest allowed page that holds the whole range in one page, as the
	 * kernel picks it (the bits above the highest one in which first and last byte differ).
	 */
	TEST_CHECK_EQ(best_of(0x200000, 2 * MB, 1, ident_2m, PBL_PGSZ_CAP), M2);
	TEST_CHECK_EQ(best_of(0x200000, MB, 1, ident_1m, PBL_PGSZ_CAP), M2);
	TEST_CHECK_EQ(best_of(0x1000000, 12 * MB, 1, ident_12m, PBL_PGSZ_CAP), G1);
	TEST_CHECK_EQ(best_of(0x1000000, 12 * MB, 1, ident_12m, PBL_PGSZ_4K | PBL_PGSZ_2M), M2);
	/*
	 * pbl_build checks the page size itself: VA and IOVA agree modulo 2 MB in both
	 * segments, but the first one ends 4 KB into a 2 MB page.
	 */
	l = layout_of(0x200000, 4 * MB + KB4, 2, broken_4k);
	TEST_CHECK_EQ(pbl_build(pool, l, M2, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build(pool, l, KB4, PBL_LEVEL_MASK(PBL_LEVEL_0), &pbl), -EINVAL);
	/* At 4 KB the same layout is a fragmented range of 1025 pages: level 1. */
	TEST_CHECK_EQ(pbl_build(pool, l, KB4, PBL_LEVELS_ALL, &pbl), 0);
	TEST_CHECK_EQ(pbl.level, PBL_LEVEL_1);
	TEST_CHECK_EQ(pbl.npages, 2 * M2 / KB4 + 1);
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	free(l);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_pool_destroy(pool);
	/* Sub-4 KB bits are not page sizes. */
	TEST_CHECK_EQ(best_of(0x1000, 64, 1, one_byte, 0xfff), 0);
	TEST_CHECK_EQ(pbl_best_pgsz(NULL, PBL_PGSZ_CAP), 0);
}

/* ---- MRs over EAL memory ------------------------------------------------------------------ */

struct mr_case {
	uint64_t bitmap;
	uint32_t levels;
	int want_level;		/* -1: whatever the layout gives (checked separately) */
};

static void
test_mr_eal(void)
{
	static const struct mr_case cases[] = {
		{ PBL_PGSZ_CAP, PBL_LEVELS_ALL, -1 },
		{ PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_1), PBL_LEVEL_1 },
		{ PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_2), PBL_LEVEL_2 },
		{ PBL_PGSZ_4K | PBL_PGSZ_2M, PBL_LEVEL_MASK(PBL_LEVEL_1), PBL_LEVEL_1 },
		{ PBL_PGSZ_2M, PBL_LEVEL_MASK(PBL_LEVEL_1) | PBL_LEVEL_MASK(PBL_LEVEL_2),
		  PBL_LEVEL_1 },
	};
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct pbl_layout *l;
	struct pbl_buf buf;
	unsigned int i;
	uint8_t *va;
	size_t len;

	TEST_CHECK(pool != NULL);
	TEST_CHECK_EQ(pbl_buf_alloc(EAL_BUF_LEN, SOCKET_ID_ANY, 0, &buf), 0);
	if (pool == NULL || buf.va == NULL)
		return;
	/* An MR need not start or end on a page boundary. */
	va = (uint8_t *)buf.va + EAL_HEAD_SKIP;
	len = buf.len - EAL_HEAD_SKIP - EAL_TAIL_SKIP;
	TEST_CHECK_EQ(pbl_mem_resolve(va, len, &l), 0);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct pbl pbl;
		int rc = pbl_build_mr(pool, va, len, cases[i].bitmap, cases[i].levels, &pbl);

		TEST_CHECK_EQ(rc, 0);
		if (rc != 0)
			continue;
		if (cases[i].want_level >= 0)
			TEST_CHECK_EQ(pbl.level, cases[i].want_level);
		else
			TEST_CHECK_EQ(pbl.level, l->nsegs == 1 ? PBL_LEVEL_0 : PBL_LEVEL_1);
		if (cases[i].bitmap == PBL_PGSZ_4K)
			TEST_CHECK_EQ(pbl.page_shift, 12);
		if (cases[i].bitmap == PBL_PGSZ_2M)
			TEST_CHECK_EQ(pbl.page_shift, 21);
		printf("#   case %u: level %u, %" PRIu64 " pages of %u KB\n", i, pbl.level,
		       pbl.npages, (1u << pbl.page_shift) / 1024);
		tpbl_check_pbl(&pbl, tpbl_expect_eal, NULL);
		TEST_CHECK_EQ(pbl_free(&pbl), 0);
	}
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	pbl_layout_free(l);
	pbl_buf_free(&buf);
	tpbl_pool_destroy(pool);
}

/* ---- MRs over fragmented external memory ------------------------------------------------- */

static void
mr_check(struct pbl_pool *pool, struct tpbl_ext *e, uint64_t off, uint64_t len,
	 uint64_t bitmap, uint32_t levels, int want_level, uint64_t want_pgsz)
{
	struct pbl pbl;
	int rc = pbl_build_mr(pool, e->va + off, len, bitmap, levels, &pbl);

	TEST_CHECK_EQ(rc, 0);
	if (rc != 0)
		return;
	TEST_CHECK_EQ(pbl.level, want_level);
	TEST_CHECK_EQ(UINT64_C(1) << pbl.page_shift, want_pgsz);
	tpbl_check_pbl(&pbl, tpbl_expect_ext, e);
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
}

static void
test_mr_ext_4k(void)
{
	const uint32_t l1 = PBL_LEVEL_MASK(PBL_LEVEL_1), l2 = PBL_LEVEL_MASK(PBL_LEVEL_2);
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct tpbl_ext e;
	struct pbl pbl;

	TEST_CHECK_EQ(tpbl_ext_make(&e, EXT4K_PAGES, KB4, TPBL_DESCENDING, 0, NULL), 0);
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_1, KB4);
	/* Level 2: 2000 pages = 3 full leaves and one of 464. */
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_CAP, l2, PBL_LEVEL_2, KB4);
	mr_check(pool, &e, 123, e.len - 4000, PBL_PGSZ_CAP, l2, PBL_LEVEL_2, KB4);
	/* One page is contiguous by definition: level 0. */
	mr_check(pool, &e, KB4 + 8, 100, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_0, KB4);
	/* Level masks that cannot be met. */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_CAP, PBL_LEVEL_MASK(PBL_LEVEL_0),
				   &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, 300 * KB4, PBL_PGSZ_CAP, l2, &pbl), -EINVAL);
	/* 2 MB pages do not fit a 4 KB-fragmented layout. */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_2M, l1, &pbl), -EINVAL);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_ext_destroy(&e);

	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_pool_destroy(pool);
}

static void
test_mr_ext_groups(void)
{
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct tpbl_ext e;

	/*
	 * 4 KB pages whose IOVAs run contiguously in 2 MB groups, with VA and IOVA both 2 MB
	 * aligned (tpbl_ext_make aligns the VA to 2 MB): the best page size is 2 MB.
	 */
	TEST_CHECK_EQ(tpbl_ext_make(&e, 4 * PBL_LEAF_PBLES, KB4, TPBL_GROUPS, PBL_LEAF_PBLES,
				    NULL), 0);
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_1, RTE_PGSIZE_2M);
	/* Starting 4 KB in, the range's VA and IOVA still agree modulo 2 MB. */
	mr_check(pool, &e, KB4, e.len - KB4, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_1,
		 RTE_PGSIZE_2M);
	tpbl_ext_destroy(&e);
	/* Groups of 4 contiguous pages: still 4 KB. */
	TEST_CHECK_EQ(tpbl_ext_make(&e, 64, KB4, TPBL_GROUPS, 4, NULL), 0);
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_1, KB4);
	tpbl_ext_destroy(&e);
	/* Ascending: one IOVA-contiguous piece, level 0. */
	TEST_CHECK_EQ(tpbl_ext_make(&e, 64, KB4, TPBL_ASCENDING, 0, NULL), 0);
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_4K, PBL_LEVELS_ALL, PBL_LEVEL_0, KB4);
	/* Contiguous but level 0 not allowed: level 1 still describes it. */
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_1), PBL_LEVEL_1, KB4);
	tpbl_ext_destroy(&e);
	tpbl_pool_destroy(pool);
}

static void
test_mr_ext_2m(void)
{
	const uint64_t M2 = RTE_PGSIZE_2M;
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct tpbl_ext e;

	/* 600 pages of 2 MB (1.2 GB of address space, never touched). */
	TEST_CHECK_EQ(tpbl_ext_make(&e, EXT2M_PAGES, M2, TPBL_DESCENDING, 0, NULL), 0);
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_1, M2);
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_CAP, PBL_LEVEL_MASK(PBL_LEVEL_2), PBL_LEVEL_2, M2);
	mr_check(pool, &e, M2 - 64, M2 + 128, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_1, M2);
	/* The same memory at 4 KB pages: 4096 PBLEs for 16 MB. */
	mr_check(pool, &e, 3 * M2, 8 * M2, PBL_PGSZ_4K, PBL_LEVELS_ALL, PBL_LEVEL_1, KB4);
	mr_check(pool, &e, 3 * M2, 8 * M2, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_2), PBL_LEVEL_2,
		 KB4);
	/* Inside one 2 MB page: level 0. */
	mr_check(pool, &e, 5 * M2 + KB4, M2 / 2, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_0, M2);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_pool_destroy(pool);
}

static void
test_mr_ext_1g(void)
{
	const uint64_t G1 = RTE_PGSIZE_1G;
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct tpbl_ext e;

	/* Two 1 GB pages (3 GB of address space reserved, never touched). */
	TEST_CHECK_EQ(tpbl_ext_make(&e, EXT1G_PAGES, G1, TPBL_DESCENDING, 0, NULL), 0);
	if (e.va == NULL)
		goto out;
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_1, G1);
	mr_check(pool, &e, G1 - 4 * KB4, 8 * KB4, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_1, G1);
	mr_check(pool, &e, G1 - 4 * KB4, 8 * KB4, PBL_PGSZ_4K, PBL_LEVELS_ALL, PBL_LEVEL_1, KB4);
	mr_check(pool, &e, G1 - RTE_PGSIZE_2M, 2 * RTE_PGSIZE_2M, PBL_PGSZ_2M, PBL_LEVELS_ALL,
		 PBL_LEVEL_1, RTE_PGSIZE_2M);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(tpbl_ext_make(&e, EXT1G_PAGES, G1, TPBL_ASCENDING, 0, NULL), 0);
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_CAP, PBL_LEVELS_ALL, PBL_LEVEL_0, G1);
	tpbl_ext_destroy(&e);
out:
	tpbl_pool_destroy(pool);
}

/* ---- level boundaries and the level choice -------------------------------------------- */

/* PBLEs a run of n takes in the pool: whole granules. */
static uint64_t
granule_pbles(uint64_t n)
{
	return RTE_ALIGN_CEIL(n, PBL_GRANULE_PBLES);
}

/*
 * Exactly one leaf of pages is not enough for level 2 (the kernel tries level 2 only for
 * more than 512); 513 pages make two leaves, the last one holding one PBLE.
 */
static void
test_mr_leaf_boundary(void)
{
	const uint32_t l1 = PBL_LEVEL_MASK(PBL_LEVEL_1), l2 = PBL_LEVEL_MASK(PBL_LEVEL_2);
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct tpbl_ext e;
	struct pbl pbl;

	TEST_CHECK_EQ(tpbl_ext_make(&e, PBL_LEAF_PBLES + 1, KB4, TPBL_DESCENDING, 0, NULL), 0);
	/* 512 pages: level 2 alone cannot describe them; with level 1 allowed, level 1. */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, PBL_LEAF_PBLES * KB4, PBL_PGSZ_4K, l2, &pbl),
		      -EINVAL);
	mr_check(pool, &e, 0, PBL_LEAF_PBLES * KB4, PBL_PGSZ_4K, l1 | l2, PBL_LEVEL_1, KB4);
	/* 512 pages that start mid-page touch 513: level 2 is possible then. */
	mr_check(pool, &e, 100, PBL_LEAF_PBLES * KB4, PBL_PGSZ_4K, l2, PBL_LEVEL_2, KB4);
	/* 513 pages at level 2: a root of 2, a full leaf and a leaf of 1. */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_4K, l2, &pbl), 0);
	TEST_CHECK_EQ(pbl.level, PBL_LEVEL_2);
	TEST_CHECK_EQ(pbl.root_count, 2);
	TEST_CHECK_EQ(tpbl_pool_used(pool), granule_pbles(2) + PBL_LEAF_PBLES + granule_pbles(1));
	tpbl_check_pbl(&pbl, tpbl_expect_ext, &e);
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	/* 513 pages, both levels allowed: level 1 (one run of 513). */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_4K, l1 | l2, &pbl), 0);
	TEST_CHECK_EQ(pbl.level, PBL_LEVEL_1);
	TEST_CHECK_EQ(tpbl_pool_used(pool), granule_pbles(PBL_LEAF_PBLES + 1));
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_pool_destroy(pool);
}

/*
 * Fill chunk 0 of a pool with runs of 512 PBLEs and free every other one: holes of exactly
 * one leaf. Returns the runs still allocated (n / 2 of them) through 'kept'.
 */
static unsigned int
pool_fragment(struct pbl_pool *pool, struct pbl_run *kept, unsigned int n)
{
	struct pbl_run run;
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_LEAF_PBLES, &run), 0);
		TEST_CHECK_EQ(run.index, i * PBL_LEAF_PBLES);
		if (i % 2 == 1)
			kept[k++] = run;
	}
	for (i = 0; i < n; i += 2)
		TEST_CHECK_EQ(pbl_pool_free(pool, i * PBL_LEAF_PBLES, PBL_LEAF_PBLES), 0);
	return k;
}

static void
pool_unfragment(struct pbl_pool *pool, const struct pbl_run *kept, unsigned int k)
{
	while (k-- > 0)
		TEST_CHECK_EQ(pbl_pool_free(pool, kept[k].index, kept[k].count), 0);
}

/*
 * Leaves that are not neighbours in the pool: every leaf must be found through its own root
 * entry, and the last (short) leaf lands before the first one.
 */
static void
test_mr_scattered_leaves(void)
{
	const unsigned int n_runs = 16;
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct pbl_run kept[8];
	struct tpbl_ext e;
	struct pbl pbl;
	unsigned int k;

	TEST_CHECK_EQ(tpbl_ext_make(&e, EXT4K_PAGES, KB4, TPBL_DESCENDING, 0, NULL), 0);
	k = pool_fragment(pool, kept, n_runs);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_2),
				   &pbl), 0);
	TEST_CHECK_EQ(pbl.level, PBL_LEVEL_2);
	TEST_CHECK_EQ(pbl.index, 0);
	/* Root in hole 0; leaves 0-2 in holes 1-3; the short last leaf after the root. */
	TEST_CHECK_EQ(*pbl_pool_pble(pool, 0), 2 * PBL_LEAF_PBLES);
	TEST_CHECK_EQ(*pbl_pool_pble(pool, 3), PBL_GRANULE_PBLES);
	tpbl_check_pbl(&pbl, tpbl_expect_ext, &e);
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	pool_unfragment(pool, kept, k);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_pool_destroy(pool);
}

/*
 * The kernel's order: level 1, then level 2, in the chunks already added; only then a new
 * chunk. With chunk 0 cut into one-leaf holes, 1500 pages get level 2 in chunk 0 although a
 * new chunk would hold one level-1 run.
 */
static void
test_mr_level2_before_growth(void)
{
	const unsigned int n_runs = PBL_CHUNK_PBLES / PBL_LEAF_PBLES;
	const unsigned int pages = 1500;
	struct pbl_pool *pool = tpbl_pool_make(2 * PBL_CHUNK_SIZE);
	struct pbl_run *kept = calloc(n_runs / 2, sizeof(*kept));
	struct pbl_pool_stats st;
	struct tpbl_ext e;
	unsigned int k;

	TEST_CHECK_EQ(tpbl_ext_make(&e, pages, KB4, TPBL_DESCENDING, 0, NULL), 0);
	k = pool_fragment(pool, kept, n_runs);
	pbl_pool_stats_get(pool, &st);
	TEST_CHECK_EQ(st.chunks, 1);
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_4K, PBL_LEVELS_ALL, PBL_LEVEL_2, KB4);
	pbl_pool_stats_get(pool, &st);
	TEST_CHECK_EQ(st.chunks, 1);
	/* Level 1 only: now the pool has to grow. */
	mr_check(pool, &e, 0, e.len, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_1), PBL_LEVEL_1, KB4);
	pbl_pool_stats_get(pool, &st);
	TEST_CHECK_EQ(st.chunks, 2);
	pool_unfragment(pool, kept, k);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	free(kept);
	tpbl_pool_destroy(pool);
}

/*
 * A corrupted level-2 PBL (a root entry naming another owner's run) is refused whole: no
 * leaf is freed and the other owner's run stays allocated.
 */
static void
test_mr_corrupt_tree_free(void)
{
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct pbl_pool_stats before, after;
	struct pbl_run other;
	struct tpbl_ext e;
	struct pbl pbl, copy;
	uint64_t *root, saved;

	TEST_CHECK_EQ(tpbl_ext_make(&e, EXT4K_PAGES, KB4, TPBL_DESCENDING, 0, NULL), 0);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_2),
				   &pbl), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_LEAF_PBLES, &other), 0);
	root = pbl_pool_pble(pool, pbl.index);
	TEST_CHECK(root != NULL);
	if (root == NULL)
		return;
	/* The last entry now names the other run (a full leaf's size, wrong for the last). */
	saved = root[pbl.root_count - 1];
	root[pbl.root_count - 1] = other.index;
	pbl_pool_stats_get(pool, &before);
	copy = pbl;
	TEST_CHECK_EQ(pbl_free(&copy), -EINVAL);
	/* The second entry names the first leaf: a leaf twice. */
	root[pbl.root_count - 1] = saved;
	saved = root[1];
	root[1] = root[0];
	copy = pbl;
	TEST_CHECK_EQ(pbl_free(&copy), -EINVAL);
	root[1] = saved;
	pbl_pool_stats_get(pool, &after);
	TEST_CHECK_EQ(after.used_pbles, before.used_pbles);
	TEST_CHECK_EQ(after.runs, before.runs);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	/* Repaired: it frees, and the other run is still there to free. */
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, other.index, other.count), 0);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);

	/*
	 * 513 pages: the root (2 PBLEs) and the last leaf (1 PBLE) are both one granule, so a
	 * last entry that names the root itself looks like a leaf: still refused whole.
	 */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, (PBL_LEAF_PBLES + 1) * KB4, PBL_PGSZ_4K,
				   PBL_LEVEL_MASK(PBL_LEVEL_2), &pbl), 0);
	TEST_CHECK_EQ(pbl.root_count, 2);
	root = pbl_pool_pble(pool, pbl.index);
	saved = root[1];
	root[1] = pbl.index;
	pbl_pool_stats_get(pool, &before);
	copy = pbl;
	TEST_CHECK_EQ(pbl_free(&copy), -EINVAL);
	pbl_pool_stats_get(pool, &after);
	TEST_CHECK_EQ(after.used_pbles, before.used_pbles);
	TEST_CHECK_EQ(after.runs, before.runs);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	root[1] = saved;
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_ext_destroy(&e);
	tpbl_pool_destroy(pool);
}

/*
 * An application's own hugepage mapping (MAP_HUGETLB), registered without an IOVA table:
 * EAL mode decides the IOVAs (VA, or the physical addresses read once at registration), and
 * rte_mem_virt2iova gives the same answer, so the walk is compared with it. Skipped when the
 * kernel has no free hugepages of that size.
 */
static void
app_hugepages(uint64_t pgsz, int size_flag, unsigned int pages)
{
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	size_t len = (size_t)pgsz * pages;
	struct pbl pbl;
	uint8_t *va;
	int rc;

	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE | size_flag, -1, 0);
	if (va == MAP_FAILED) {
		printf("#   no %" PRIu64 " MB hugepages for an application mapping: skipped\n",
		       pgsz / MB);
		tpbl_pool_destroy(pool);
		return;
	}
	TEST_CHECK_EQ(mlock(va, len), 0);
	rc = pbl_mem_register(va, len, NULL, 0, pgsz, NULL);
	TEST_CHECK_EQ(rc, 0);
	if (rc == 0) {
		TEST_CHECK_EQ(pbl_build_mr(pool, va + 64, len - 128, PBL_PGSZ_CAP, PBL_LEVELS_ALL,
					   &pbl), 0);
		printf("#   %u x %" PRIu64 " MB application hugepages: level %u, %" PRIu64
		       " pages of %" PRIu64 " KB\n", pages, pgsz / MB, pbl.level, pbl.npages,
		       (UINT64_C(1) << pbl.page_shift) / 1024);
		TEST_CHECK((UINT64_C(1) << pbl.page_shift) >= pgsz);
		tpbl_check_pbl(&pbl, tpbl_expect_eal, NULL);
		TEST_CHECK_EQ(pbl_free(&pbl), 0);
		TEST_CHECK_EQ(pbl_mem_unregister(va, len), 0);
	}
	munmap(va, len);
	tpbl_pool_destroy(pool);
}

static void
test_mr_app_hugepages(void)
{
	app_hugepages(RTE_PGSIZE_2M, MAP_HUGE_2MB, 4);
	app_hugepages(RTE_PGSIZE_1G, MAP_HUGE_1GB, 1);
}

/* ---- bad input ---------------------------------------------------------------------------- */

static void
test_mr_bad_input(void)
{
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct pbl_pool *tiny = tpbl_pool_make(PBL_GRANULE_SIZE * 4);
	uint8_t *heap = aligned_alloc(KB4, 4 * KB4);
	struct pbl_layout *l = NULL;
	struct tpbl_ext e;
	struct pbl pbl, copy;
	rte_iova_t iova;

	TEST_CHECK_EQ(tpbl_ext_make(&e, 64, KB4, TPBL_DESCENDING, 0, NULL), 0);
	/* Empty, NULL, wrapping. */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, 0, PBL_PGSZ_CAP, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, NULL, KB4, PBL_PGSZ_CAP, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, (void *)(UINTPTR_MAX - KB4), 2 * KB4, PBL_PGSZ_CAP,
				   PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, KB4, PBL_PGSZ_CAP, PBL_LEVELS_ALL, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_mem_resolve(e.va, KB4, NULL), -EINVAL);
	/* Unregistered memory, and a range running past the registered end. */
	TEST_CHECK_EQ(pbl_build_mr(pool, heap, KB4, PBL_PGSZ_CAP, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va + e.len - KB4, 2 * KB4, PBL_PGSZ_CAP,
				   PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va - KB4, 2 * KB4, PBL_PGSZ_CAP, PBL_LEVELS_ALL,
				   &pbl), -EINVAL);
	/* No usable page size, bad level masks. */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, 0, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_1G, PBL_LEVELS_ALL, &pbl),
		      -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_CAP, 0, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_CAP, 0x10, &pbl), -EINVAL);
	/* pbl_build's own checks: odd page size, one the layout forbids, no pool. */
	TEST_CHECK_EQ(pbl_mem_resolve(e.va, e.len, &l), 0);
	TEST_CHECK_EQ(pbl_build(pool, l, 3 * KB4, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build(pool, l, KB4 / 2, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build(pool, l, RTE_PGSIZE_2M, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build(NULL, l, KB4, PBL_LEVELS_ALL, &pbl), -EINVAL);
	TEST_CHECK_EQ(pbl_build(pool, NULL, KB4, PBL_LEVELS_ALL, &pbl), -EINVAL);
	/* Exhausted pool: 32 PBLEs cannot hold 64 pages. */
	TEST_CHECK_EQ(pbl_build(tiny, l, KB4, PBL_LEVELS_ALL, &pbl), -ENOMEM);
	TEST_CHECK_EQ(tpbl_pool_used(tiny), 0);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(pbl_pool_check(tiny), 0);

	/* Walk and translate outside the PBL; freeing twice. */
	TEST_CHECK_EQ(pbl_build(pool, l, KB4, PBL_LEVELS_ALL, &pbl), 0);
	TEST_CHECK_EQ(pbl_translate(&pbl, e.len, &iova), -EINVAL);
	TEST_CHECK_EQ(pbl_translate(NULL, 0, &iova), -EINVAL);
	TEST_CHECK_EQ(pbl_walk(&pbl, 60, 5, &iova), -EINVAL);
	TEST_CHECK_EQ(pbl_walk(&pbl, UINT64_MAX, 2, &iova), -EINVAL);
	copy = pbl;
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	TEST_CHECK_EQ(pbl_free(&pbl), 0);	/* cleared: ignored */
	TEST_CHECK_EQ(pbl_free(&copy), -EINVAL);	/* a stale copy: the pool refuses */
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	/* The same for a level-2 tree. */
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_1),
				   &pbl), 0);
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	pbl_layout_free(l);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(tpbl_ext_make(&e, 1024, KB4, TPBL_DESCENDING, 0, NULL), 0);
	TEST_CHECK_EQ(pbl_build_mr(pool, e.va, e.len, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_2),
				   &pbl), 0);
	TEST_CHECK_EQ(pbl.level, PBL_LEVEL_2);
	copy = pbl;
	TEST_CHECK_EQ(pbl_free(&pbl), 0);
	TEST_CHECK_EQ(pbl_free(&copy), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	/* A level-2 tree that cannot be completed leaves nothing behind. */
	TEST_CHECK_EQ(pbl_build_mr(tiny, e.va, e.len, PBL_PGSZ_4K, PBL_LEVEL_MASK(PBL_LEVEL_2),
				   &pbl), -ENOMEM);
	TEST_CHECK_EQ(tpbl_pool_used(tiny), 0);
	tpbl_ext_destroy(&e);
	free(heap);
	tpbl_pool_destroy(tiny);
	tpbl_pool_destroy(pool);
}

/* ---- registration -------------------------------------------------------------------------- */

struct dma_log {
	unsigned int maps;
	unsigned int unmaps;
	unsigned int fail_at;	/* 1-based map call to fail, 0: never */
	uint64_t va[MAX_HOOK_CALLS];
	rte_iova_t iova[MAX_HOOK_CALLS];
	uint64_t len[MAX_HOOK_CALLS];
	uint64_t mapped_bytes;
};

static int
dma_map(void *ctx, void *va, rte_iova_t iova, size_t len)
{
	struct dma_log *d = ctx;

	if (d->fail_at != 0 && d->maps + 1 == d->fail_at)
		return -EIO;
	if (d->maps < MAX_HOOK_CALLS) {
		d->va[d->maps] = (uintptr_t)va;
		d->iova[d->maps] = iova;
		d->len[d->maps] = len;
	}
	d->maps++;
	d->mapped_bytes += len;
	return 0;
}

static int
dma_unmap(void *ctx, void *va, rte_iova_t iova, size_t len)
{
	struct dma_log *d = ctx;

	RTE_SET_USED(va);
	RTE_SET_USED(iova);
	d->unmaps++;
	d->mapped_bytes -= len;
	return 0;
}

static void
test_register(void)
{
	struct dma_log log = { 0 };
	struct pbl_dma_hook hook = { .map = dma_map, .unmap = dma_unmap, .ctx = &log };
	struct pbl_dma_hook no_map = { .unmap = dma_unmap };
	struct pbl_layout *l = NULL;
	struct tpbl_ext e, other;
	rte_iova_t table[8];
	uint8_t *map, *va;
	unsigned int i;

	/* Groups of 4: two IOVA-contiguous pieces, each mapped once. */
	TEST_CHECK_EQ(tpbl_ext_make(&e, 8, KB4, TPBL_GROUPS, 4, &hook), 0);
	TEST_CHECK_EQ(log.maps, 2);
	TEST_CHECK_EQ(log.va[0], (uintptr_t)e.va);
	TEST_CHECK_EQ(log.iova[0], e.iovas[0]);
	TEST_CHECK_EQ(log.len[0], 4 * KB4);
	TEST_CHECK_EQ(log.va[1], (uintptr_t)e.va + 4 * KB4);
	TEST_CHECK_EQ(log.iova[1], e.iovas[4]);
	/* Overlap with a registered range. */
	TEST_CHECK_EQ(pbl_mem_register(e.va, KB4, NULL, 0, KB4, NULL), -EEXIST);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(log.unmaps, 2);
	TEST_CHECK_EQ(log.mapped_bytes, 0);

	/* A failing map undoes the maps done and the EAL registration. */
	memset(&log, 0, sizeof(log));
	log.fail_at = 3;
	TEST_CHECK_EQ(tpbl_ext_make(&e, 16, KB4, TPBL_GROUPS, 4, &hook), -EIO);
	TEST_CHECK_EQ(log.maps, 2);
	TEST_CHECK_EQ(log.unmaps, 2);
	TEST_CHECK_EQ(log.mapped_bytes, 0);
	log.fail_at = 0;
	TEST_CHECK_EQ(tpbl_ext_make(&e, 16, KB4, TPBL_GROUPS, 4, &hook), 0);
	TEST_CHECK_EQ(pbl_mem_unregister(e.va, e.len - KB4), -ENOENT);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(log.mapped_bytes, 0);

	/* Bad arguments. */
	map = mmap(NULL, 8 * RTE_PGSIZE_2M, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	TEST_CHECK(map != MAP_FAILED);
	va = RTE_PTR_ALIGN_CEIL(map, RTE_PGSIZE_2M);
	for (i = 0; i < RTE_DIM(table); i++)
		table[i] = TPBL_FAKE_IOVA_BASE + i * KB4;
	TEST_CHECK_EQ(pbl_mem_register(NULL, KB4, table, 1, KB4, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_mem_register(va, 0, table, 0, KB4, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_mem_register(va + 8, KB4, table, 1, KB4, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_mem_register(va, KB4 + 8, table, 1, KB4, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_mem_register(va, 3 * KB4, table, 1, 3 * KB4, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_mem_register(va, 2 * KB4, table, 1, KB4, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_mem_register(va, KB4, table, 1, KB4 / 2, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_mem_register(va, RTE_PGSIZE_2M, table, 1, RTE_PGSIZE_2M, &no_map),
		      -EINVAL);
	TEST_CHECK_EQ(pbl_mem_unregister(va, KB4), -ENOENT);
	/* Nothing of that stayed registered. */
	TEST_CHECK_EQ(pbl_mem_resolve(va, KB4, &l), -EINVAL);

	/*
	 * No IOVA table: IOVA = VA in VA mode; in PA mode the physical address, read once at
	 * registration (the pages must be present and locked for that).
	 */
	memset(va, 1, 4 * KB4);
	TEST_CHECK_EQ(mlock(va, 4 * KB4), 0);
	TEST_CHECK_EQ(pbl_mem_register(va, 4 * KB4, NULL, 0, KB4, NULL), 0);
	TEST_CHECK_EQ(pbl_mem_resolve(va, 4 * KB4, &l), 0);
	for (i = 0; l != NULL && i < 4; i++) {
		rte_iova_t want = rte_eal_iova_mode() == RTE_IOVA_VA ?
					  (uintptr_t)(va + i * KB4) :
					  rte_mem_virt2phy(va + i * KB4);

		TEST_CHECK_EQ(pbl_layout_iova(l, i * KB4), want);
	}
	pbl_layout_free(l);
	TEST_CHECK_EQ(pbl_mem_unregister(va, 4 * KB4), 0);
	munlock(va, 4 * KB4);
	/* A second range right after the first: both resolvable independently. */
	TEST_CHECK_EQ(tpbl_ext_make(&other, 4, KB4, TPBL_ASCENDING, 0, NULL), 0);
	TEST_CHECK_EQ(pbl_mem_resolve(other.va, other.len, &l), 0);
	TEST_CHECK(l != NULL && l->nsegs == 1);
	pbl_layout_free(l);
	tpbl_ext_destroy(&other);
	munmap(map, 8 * RTE_PGSIZE_2M);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	if (test_eal_init("test_pbl_mr", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return EXIT_FAILURE;
	}
	printf("# IOVA as %s\n", iova_mode_name());
	RTE_SET_USED(argv);
	/* Refusals are logged on purpose; keep them at a level the TAP output can afford. */
	rte_log_set_level_pattern("lib.pbl", RTE_LOG_CRIT);
	TEST_RUN(test_resolve_eal);
	TEST_RUN(test_mem_socket);
	TEST_RUN(test_best_pgsz);
	TEST_RUN(test_mr_eal);
	TEST_RUN(test_mr_ext_4k);
	TEST_RUN(test_mr_ext_groups);
	TEST_RUN(test_mr_ext_2m);
	TEST_RUN(test_mr_ext_1g);
	TEST_RUN(test_mr_leaf_boundary);
	TEST_RUN(test_mr_scattered_leaves);
	TEST_RUN(test_mr_level2_before_growth);
	TEST_RUN(test_mr_corrupt_tree_free);
	TEST_RUN(test_mr_app_hugepages);
	TEST_RUN(test_mr_bad_input);
	TEST_RUN(test_register);
	rte_eal_cleanup();
	return test_done();
}
