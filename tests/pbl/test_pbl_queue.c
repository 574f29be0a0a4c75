/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * QP and CQ memory: the irdma_handle_q_mem rules (SQ/RQ as addresses when each is
 * contiguous, else one level-1 run with the RQ at index + sq_pages; the QP shadow area on
 * the page after the RQ; the CQ ring at level 0 or 1 with a separate shadow area), checked by
 * translating every ring page the way the engine would and comparing with EAL's answer.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "test.h"
#include "test_pbl_common.h"

#define KB4 PBL_QUEUE_PAGE_SIZE
#define POOL_SIZE (UINT64_C(4) << 20)
#define SQ_PAGES 4
#define RQ_PAGES 4
#define BIG_SQ_PAGES 600
#define BIG_RQ_PAGES 400
#define CQ_PAGES 8
#define BIG_CQ_PAGES 1500

/* Compare every page of a QP ring (first and last byte) with the reference. */
static void
check_qp_ring(const struct pbl_qp *qp, enum pbl_qp_ring ring, uint64_t ring_off,
	      uint32_t pages, uint64_t base_va, tpbl_expect_fn expect, void *ctx)
{
	unsigned int bad = 0;
	rte_iova_t got;
	uint32_t p;

	for (p = 0; p < pages; p++) {
		uint64_t off = (uint64_t)p * KB4;

		if (pbl_qp_translate(qp, ring, off, &got) != 0 ||
		    got != expect(ctx, base_va + ring_off + off))
			bad++;
		if (pbl_qp_translate(qp, ring, off + KB4 - 1, &got) != 0 ||
		    got != expect(ctx, base_va + ring_off + off + KB4 - 1))
			bad++;
	}
	TEST_CHECK_EQ(bad, 0);
	TEST_CHECK_EQ(pbl_qp_translate(qp, ring, (uint64_t)pages * KB4, &got), -EINVAL);
}

static void
check_qp(const struct pbl_qp *qp, uint64_t va, tpbl_expect_fn expect, void *ctx)
{
	uint64_t sq_len = (uint64_t)qp->sq_pages * KB4;

	check_qp_ring(qp, PBL_QP_SQ, 0, qp->sq_pages, va, expect, ctx);
	check_qp_ring(qp, PBL_QP_RQ, sq_len, qp->rq_pages, va, expect, ctx);
	TEST_CHECK_EQ(qp->shadow_pa, expect(ctx, va + sq_len + (uint64_t)qp->rq_pages * KB4));
	if (qp->virtual_map) {
		TEST_CHECK_EQ(qp->pbl.level, PBL_LEVEL_1);
		TEST_CHECK_EQ(qp->sq_addr, qp->pbl.index);
		TEST_CHECK_EQ(qp->rq_addr, (uint64_t)qp->pbl.index + qp->sq_pages);
		TEST_CHECK_EQ(qp->pbl.npages, qp->sq_pages + qp->rq_pages);
		tpbl_check_pbl(&qp->pbl, expect, ctx);
	} else {
		TEST_CHECK_EQ(qp->sq_addr, expect(ctx, va));
		TEST_CHECK_EQ(qp->rq_addr, expect(ctx, va + sq_len));
		TEST_CHECK(qp->pbl.pool == NULL);
	}
}

static void
test_qp_eal(void)
{
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct pbl_buf contig, big;
	struct pbl_qp qp;

	/* IOVA-contiguous buffer: addresses, no PBLEs. */
	TEST_CHECK_EQ(pbl_buf_alloc((SQ_PAGES + RQ_PAGES + 1) * KB4, SOCKET_ID_ANY,
				    PBL_BUF_F_IOVA_CONTIG, &contig), 0);
	TEST_CHECK_EQ(pbl_build_qp(pool, contig.va, contig.len, SQ_PAGES, RQ_PAGES, &qp), 0);
	TEST_CHECK(!qp.virtual_map);
	check_qp(&qp, (uintptr_t)contig.va, tpbl_expect_eal, NULL);
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	pbl_buf_free(&contig);

	/* A 4 MB buffer over (usually) several hugepages: whatever it gives must walk back. */
	TEST_CHECK_EQ(pbl_buf_alloc((BIG_SQ_PAGES + BIG_RQ_PAGES + 1) * KB4, SOCKET_ID_ANY, 0,
				    &big), 0);
	TEST_CHECK_EQ(pbl_build_qp(pool, big.va, big.len, BIG_SQ_PAGES, BIG_RQ_PAGES, &qp), 0);
	printf("#   %u + %u page QP in EAL memory: %s\n", BIG_SQ_PAGES, BIG_RQ_PAGES,
	       qp.virtual_map ? "level-1 run (VQ)" : "SQ and RQ addresses");
	check_qp(&qp, (uintptr_t)big.va, tpbl_expect_eal, NULL);
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	pbl_buf_free(&big);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_pool_destroy(pool);
}

static void
test_qp_ext(void)
{
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	const uint32_t pages = SQ_PAGES + RQ_PAGES + 1;
	struct tpbl_ext e;
	struct pbl_qp qp;

	/* Fully fragmented: one level-1 run, RQ at index + sq_pages. */
	TEST_CHECK_EQ(tpbl_ext_make(&e, pages, KB4, TPBL_DESCENDING, 0, NULL), 0);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, SQ_PAGES, RQ_PAGES, &qp), 0);
	TEST_CHECK(qp.virtual_map);
	check_qp(&qp, (uintptr_t)e.va, tpbl_expect_ext, &e);
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	/* No RQ. */
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, SQ_PAGES, 0, &qp), 0);
	TEST_CHECK(qp.virtual_map);
	TEST_CHECK_EQ(qp.rq_addr, 0);
	TEST_CHECK_EQ(qp.shadow_pa, e.iovas[SQ_PAGES]);
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	tpbl_ext_destroy(&e);

	/* SQ contiguous and RQ contiguous, but not with each other: still addresses. */
	TEST_CHECK_EQ(tpbl_ext_make(&e, pages + 3, KB4, TPBL_GROUPS, SQ_PAGES, NULL), 0);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, SQ_PAGES, RQ_PAGES, &qp), 0);
	TEST_CHECK(!qp.virtual_map);
	TEST_CHECK(qp.rq_addr != qp.sq_addr + SQ_PAGES * KB4);
	check_qp(&qp, (uintptr_t)e.va, tpbl_expect_ext, &e);
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	/* SQ contiguous, RQ split across two groups: one run for both. */
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, 2, RQ_PAGES, &qp), 0);
	TEST_CHECK(qp.virtual_map);
	check_qp(&qp, (uintptr_t)e.va, tpbl_expect_ext, &e);
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	tpbl_ext_destroy(&e);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_pool_destroy(pool);
}

/* Build a 4 + 4 page QP over external memory with the given IOVA slots; want its VQ bit. */
static void
qp_slots_case(struct pbl_pool *pool, const uint64_t *slots, bool want_virtual)
{
	const uint32_t pages = SQ_PAGES + RQ_PAGES + 1;
	struct tpbl_ext e;
	struct pbl_qp qp;

	TEST_CHECK_EQ(tpbl_ext_make_slots(&e, pages, KB4, slots, NULL), 0);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, SQ_PAGES, RQ_PAGES, &qp), 0);
	TEST_CHECK_EQ(qp.virtual_map, want_virtual);
	check_qp(&qp, (uintptr_t)e.va, tpbl_expect_ext, &e);
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	tpbl_ext_destroy(&e);
}

/*
 * Contiguity of each ring is checked to its last page: a ring whose only break is before its
 * last page needs the level-1 run; rings contiguous on their own (but not with each other or
 * with the shadow page) do not.
 */
static void
test_qp_ring_edges(void)
{
	static const uint64_t sq_last_breaks[] = { 10, 11, 12, 20, 30, 31, 32, 33, 40 };
	static const uint64_t rq_last_breaks[] = { 10, 11, 12, 13, 20, 21, 22, 30, 40 };
	static const uint64_t apart[] = { 10, 11, 12, 13, 20, 21, 22, 23, 5 };
	static const uint64_t rq_first_breaks[] = { 10, 11, 12, 13, 30, 20, 21, 22, 40 };
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);

	qp_slots_case(pool, sq_last_breaks, true);
	qp_slots_case(pool, rq_last_breaks, true);
	qp_slots_case(pool, rq_first_breaks, true);
	qp_slots_case(pool, apart, false);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_pool_destroy(pool);
}

static void
test_qp_bad_input(void)
{
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	struct pbl_pool *tiny = tpbl_pool_make(PBL_GRANULE_SIZE);
	uint8_t *heap = aligned_alloc(KB4, 16 * KB4);
	const uint32_t pages = SQ_PAGES + RQ_PAGES + 1;
	struct tpbl_ext e;
	struct pbl_qp qp;
	rte_iova_t iova;

	TEST_CHECK_EQ(tpbl_ext_make(&e, pages, KB4, TPBL_DESCENDING, 0, NULL), 0);
	/* No room for the shadow page. */
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len - KB4, SQ_PAGES, RQ_PAGES, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, SQ_PAGES, RQ_PAGES + 1, &qp), -EINVAL);
	/* The shadow area must lie whole inside the buffer: 64 bytes on the page after the RQ. */
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, (SQ_PAGES + RQ_PAGES) * KB4 + 63, SQ_PAGES,
				   RQ_PAGES, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, (SQ_PAGES + RQ_PAGES) * KB4 + 64, SQ_PAGES,
				   RQ_PAGES, &qp), 0);
	TEST_CHECK_EQ(qp.shadow_pa, e.iovas[SQ_PAGES + RQ_PAGES]);
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	/* Page counts whose sum overflows 32 bits; a length near SIZE_MAX. */
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, UINT32_MAX, UINT32_MAX, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, SIZE_MAX, 1, 1, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, SIZE_MAX - (uintptr_t)e.va, UINT32_MAX, UINT32_MAX,
				   &qp), -EINVAL);
	/* Misaligned, empty, no SQ, NULL. */
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va + 64, e.len - KB4, 1, 1, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, 0, SQ_PAGES, RQ_PAGES, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, 0, RQ_PAGES, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, NULL, e.len, SQ_PAGES, RQ_PAGES, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va, e.len, SQ_PAGES, RQ_PAGES, NULL), -EINVAL);
	/* Unregistered, and partly registered (runs past the end). */
	TEST_CHECK_EQ(pbl_build_qp(pool, heap, 16 * KB4, SQ_PAGES, RQ_PAGES, &qp), -EINVAL);
	TEST_CHECK_EQ(pbl_build_qp(pool, e.va + KB4, e.len, SQ_PAGES, RQ_PAGES, &qp), -EINVAL);
	/* Pool exhausted: 8 PBLEs cannot hold 8 ring pages plus anything else. */
	TEST_CHECK_EQ(pbl_build_qp(tiny, e.va, e.len, SQ_PAGES, RQ_PAGES, &qp), 0);
	TEST_CHECK_EQ(pbl_build_qp(tiny, e.va, e.len, SQ_PAGES, RQ_PAGES, &qp), -ENOMEM);
	TEST_CHECK_EQ(tpbl_pool_used(tiny), PBL_GRANULE_PBLES);
	/* A failed build leaves a cleared result: freeing it is harmless. */
	TEST_CHECK_EQ(pbl_qp_free(&qp), 0);
	TEST_CHECK_EQ(pbl_pool_free(tiny, 0, SQ_PAGES + RQ_PAGES), 0);
	TEST_CHECK_EQ(pbl_qp_translate(NULL, PBL_QP_SQ, 0, &iova), -EINVAL);
	TEST_CHECK_EQ(pbl_qp_translate(&qp, (enum pbl_qp_ring)7, 0, &iova), -EINVAL);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	tpbl_ext_destroy(&e);
	free(heap);
	tpbl_pool_destroy(tiny);
	tpbl_pool_destroy(pool);
}

static void
check_cq(const struct pbl_cq *cq, uint64_t va, tpbl_expect_fn expect, void *ctx)
{
	unsigned int bad = 0;
	rte_iova_t got;
	uint32_t p;

	for (p = 0; p < cq->pages; p++) {
		uint64_t off = (uint64_t)p * KB4;

		if (pbl_cq_translate(cq, off, &got) != 0 || got != expect(ctx, va + off))
			bad++;
		if (pbl_cq_translate(cq, off + KB4 - 1, &got) != 0 ||
		    got != expect(ctx, va + off + KB4 - 1))
			bad++;
	}
	TEST_CHECK_EQ(bad, 0);
	TEST_CHECK_EQ(pbl_cq_translate(cq, (uint64_t)cq->pages * KB4, &got), -EINVAL);
	if (cq->virtual_map) {
		TEST_CHECK_EQ(cq->pbl.level, PBL_LEVEL_1);
		TEST_CHECK_EQ(cq->ring_addr, cq->pbl.index);
		tpbl_check_pbl(&cq->pbl, expect, ctx);
	} else {
		TEST_CHECK_EQ(cq->pbl.level, PBL_LEVEL_0);
		TEST_CHECK_EQ(cq->ring_addr, expect(ctx, va));
	}
}

static void
test_cq(void)
{
	struct pbl_pool *pool = tpbl_pool_make(POOL_SIZE);
	uint8_t *shadow = rte_zmalloc(NULL, 2 * PBL_SHADOW_AREA_ALIGN, PBL_SHADOW_AREA_ALIGN);
	uint8_t *heap = aligned_alloc(KB4, KB4);
	struct pbl_buf ring, big;
	struct tpbl_ext e;
	struct pbl_cq cq;
	rte_iova_t iova;

	TEST_CHECK(shadow != NULL);
	/* Contiguous ring: level 0. */
	TEST_CHECK_EQ(pbl_buf_alloc(CQ_PAGES * KB4, SOCKET_ID_ANY, PBL_BUF_F_IOVA_CONTIG, &ring),
		      0);
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, ring.len, shadow, &cq), 0);
	TEST_CHECK(!cq.virtual_map);
	TEST_CHECK_EQ(cq.shadow_pa, rte_mem_virt2iova(shadow));
	TEST_CHECK_EQ(cq.pages, CQ_PAGES);
	check_cq(&cq, (uintptr_t)ring.va, tpbl_expect_eal, NULL);
	TEST_CHECK_EQ(pbl_cq_free(&cq), 0);
	/* A large ring in EAL memory: whatever level, it walks back. */
	TEST_CHECK_EQ(pbl_buf_alloc(BIG_CQ_PAGES * KB4, SOCKET_ID_ANY, 0, &big), 0);
	TEST_CHECK_EQ(pbl_build_cq(pool, big.va, big.len, shadow, &cq), 0);
	check_cq(&cq, (uintptr_t)big.va, tpbl_expect_eal, NULL);
	TEST_CHECK_EQ(pbl_cq_free(&cq), 0);

	/* Fragmented ring: level 1 (VIRTMAP). */
	TEST_CHECK_EQ(tpbl_ext_make(&e, CQ_PAGES, KB4, TPBL_DESCENDING, 0, NULL), 0);
	TEST_CHECK_EQ(pbl_build_cq(pool, e.va, e.len, shadow, &cq), 0);
	TEST_CHECK(cq.virtual_map);
	check_cq(&cq, (uintptr_t)e.va, tpbl_expect_ext, &e);
	TEST_CHECK_EQ(pbl_cq_free(&cq), 0);
	/* The shadow area may live in registered external memory too. */
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, ring.len, e.va + 3 * KB4 + 128, &cq), 0);
	TEST_CHECK_EQ(cq.shadow_pa, e.iovas[3] + 128);
	TEST_CHECK_EQ(pbl_cq_free(&cq), 0);

	/* Bad input. */
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, ring.len, shadow + 8, &cq), -EINVAL);
	/* 64-byte aligned is not enough: irdma aligns shadow areas to 128 bytes. */
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, ring.len, shadow + 64, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, SIZE_MAX, shadow, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, ring.len, NULL, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, ring.len, heap, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_build_cq(pool, (uint8_t *)ring.va + 64, KB4, shadow, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, 0, shadow, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_build_cq(pool, heap, KB4, shadow, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_build_cq(pool, e.va, e.len + KB4, shadow, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_build_cq(pool, ring.va, ring.len, shadow, NULL), -EINVAL);
	/* A fragmented ring with no pool to hold its PBLEs. */
	TEST_CHECK_EQ(pbl_build_cq(NULL, e.va, e.len, shadow, &cq), -EINVAL);
	TEST_CHECK_EQ(pbl_cq_translate(NULL, 0, &iova), -EINVAL);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);

	tpbl_ext_destroy(&e);
	pbl_buf_free(&big);
	pbl_buf_free(&ring);
	rte_free(shadow);
	free(heap);
	tpbl_pool_destroy(pool);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("test_pbl_queue", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return EXIT_FAILURE;
	}
	printf("# IOVA as %s\n", rte_eal_iova_mode() == RTE_IOVA_PA ? "PA" : "VA");
	rte_log_set_level_pattern("lib.pbl", RTE_LOG_CRIT);
	TEST_RUN(test_qp_eal);
	TEST_RUN(test_qp_ext);
	TEST_RUN(test_qp_ring_edges);
	TEST_RUN(test_qp_bad_input);
	TEST_RUN(test_cq);
	rte_eal_cleanup();
	return test_done();
}
