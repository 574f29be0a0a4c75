/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * CQ resize and queue memory through PBLEs, end to end on the model:
 *  - rdmadev_cq_resize -> MODIFY_CQ: the WQE bytes decoded at doc/hardware.md's positions,
 *    the model's CQ on the new ring (head 0, polarity 1), the struct irdma_cq contract (old
 *    ring kept while it holds unpolled CQEs, -EBUSY for a second resize until drained),
 *    shrinking below the unpolled CQEs refused, limits, a refused MODIFY_CQ (fault
 *    injection) leaving the CQ on its ring;
 *  - ring_pbl=1: CQ and QP rings given as level-1 PBLE runs (CREATE_CQ VIRTMAP / LPBLSIZE 1,
 *    CREATE_QP VQ with PBLE indices in the context); the model resolves every ring page
 *    through the PBLEs to the page's IOVA; QPs go through create / modify / destroy, CQs
 *    through resize; every PBLE goes back to the pool.
 * restrack counts and DMA map balance are checked after each scenario.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_memory.h>

#include <pbl.h>
#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_cq.h"
#include "irdma_qp.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"
#include "test_fixture.h"

#define DEVARGS "irdma_model0,qps=64,cqs=64,mrs=64"

/* doc/hardware.md §5.2 / §5.3, independent of base/. */
#define OP_CREATE_CQ	0x03
#define OP_MODIFY_CQ	0x04
#define OP_CREATE_QP	0x00
#define CQE_BYTES	32u
#define PAGE		4096u

/* Bits hi:lo of qword @p qw of a raw little-endian WQE. */
static uint64_t
wqe_bits(const uint8_t *w, unsigned int qw, unsigned int hi, unsigned int lo)
{
	return test_le_bits(w, (size_t)qw * 8, hi, lo);
}

/* The newest CQP WQE the model fetched whose opcode is @p op. */
static bool
newest_wqe(int id, int op, uint8_t w[64])
{
	unsigned int i;

	for (i = 0; i < 64; i++) {
		int got = irdma_model_cqp_capture(pmd_hw(id), i, w);

		if (got < 0)
			return false;
		if (got == op)
			return true;
	}
	return false;
}

static struct rdmadev_cq *
cq_new(const struct test_env *e, uint32_t cqe)
{
	const struct rdmadev_cq_attr a = { .cqe = cqe, .comp_vector = 0 };
	struct rdmadev_cq *cq = NULL;

	TEST_CHECK_EQ(rdmadev_cq_create(e->ctx, &a, &cq), 0);
	return cq;
}

static struct irdma_model_cq_info
cq_info(const struct test_env *e, const struct rdmadev_cq *cq)
{
	struct irdma_model_cq_info in;

	memset(&in, 0, sizeof(in));
	TEST_CHECK_EQ(irdma_model_cq_get(pmd_hw(e->id), rdmadev_cq_id(cq), &in), 0);
	return in;
}

/* Pretend the device wrote @p n CQEs at the head of the CQ's current ring. */
static void
fake_cqes(struct irdma_cq *q, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct irdma_cqe *c = (struct irdma_cqe *)(void *)(q->cur.base +
							 (size_t)(q->cur.head + i) * CQE_BYTES);

		irdma_set(c, CQE_VALID, q->cur.polarity);
	}
}

static void
test_resize(void)
{
	struct irdma_model_stats st;
	struct irdma_model_cq_info in;
	struct rdmadev_cq *cq;
	struct irdma_cq *q;
	uint8_t *old_base;
	uint8_t w[64];
	struct test_env e;

	if (test_env_up(&e, DEVARGS, 0) != 0 || (cq = cq_new(&e, 64)) == NULL) {
		test_env_down(&e);
		return;
	}
	q = cq->obj.fp.drv;
	in = cq_info(&e, cq);
	TEST_CHECK_EQ(in.size, 130);	/* (64 + 1) x 2 */
	TEST_CHECK_EQ(in.pbl_level, 0);
	/* Grow. */
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 200), 0);
	TEST_CHECK_EQ(rdmadev_cq_size(cq), 200);
	in = cq_info(&e, cq);
	TEST_CHECK_EQ(in.size, 402);
	TEST_CHECK_EQ(in.head, 0);
	TEST_CHECK_EQ(in.polarity, 1);
	TEST_CHECK_EQ(in.pa, rte_mem_virt2iova(q->cur.base));
	TEST_CHECK_EQ(in.shadow_pa, q->shadow_mem.iova);
	TEST_CHECK_EQ(q->cur.size, 402);
	TEST_CHECK_EQ(q->cur.head, 0);
	TEST_CHECK_EQ(q->cur.polarity, 1);
	TEST_CHECK(q->old.base == NULL);	/* nothing was left to poll */
	TEST_CHECK(q->old_ring.buf.va != NULL);	/* freed at the next resize */
	TEST_CHECK(newest_wqe(e.id, OP_MODIFY_CQ, w));
	TEST_CHECK_EQ(wqe_bits(w, 0, 20, 0), 402);		/* CQSIZE: (200 + 1) x 2 */
	TEST_CHECK_EQ(wqe_bits(w, 1, 62, 0), (uint64_t)(uintptr_t)q >> 1);
	TEST_CHECK_EQ(wqe_bits(w, 4, 63, 0), in.pa);		/* new ring PA */
	TEST_CHECK_EQ(wqe_bits(w, 5, 63, 0), in.shadow_pa);
	TEST_CHECK_EQ(wqe_bits(w, 3, 18, 0), rdmadev_cq_id(cq));	/* CQID */
	TEST_CHECK_EQ(wqe_bits(w, 3, 37, 32), OP_MODIFY_CQ);
	TEST_CHECK_EQ(wqe_bits(w, 3, 43, 43), 1);		/* CQRESIZE */
	TEST_CHECK_EQ(wqe_bits(w, 3, 45, 44), 0);		/* LPBLSIZE */
	TEST_CHECK_EQ(wqe_bits(w, 3, 46, 46), 1);		/* CHKOVERFLOW */
	TEST_CHECK_EQ(wqe_bits(w, 3, 47, 47), 0);		/* VIRTMAP */
	TEST_CHECK_EQ(wqe_bits(w, 3, 49, 49), 0);		/* no CEQIDVALID in MODIFY */
	/* Shrink, small. */
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 2), 0);
	/* (2 + 1) x 2 slots: gen2 extended CQEs take two */
	TEST_CHECK_EQ(rdmadev_cq_size(cq), 2);
	TEST_CHECK_EQ(cq_info(&e, cq).size, 6);
	/* Unpolled CQEs: no shrinking below them; they stay in the old ring. */
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 32), 0);
	fake_cqes(q, 3);
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 2), -EINVAL);
	old_base = q->cur.base;
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 16), 0);
	TEST_CHECK(q->old.base == old_base);
	TEST_CHECK_EQ(q->old.size, 66);
	TEST_CHECK_EQ(q->old.head, 0);
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 40), -EBUSY);	/* old ring not drained */
	TEST_CHECK_EQ(rdmadev_cq_size(cq), 16);
	q->old.base = NULL;	/* what the poll path does when it drained it */
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 40), 0);
	TEST_CHECK_EQ(cq_info(&e, cq).size, 82);
	/* A refused MODIFY_CQ leaves the CQ where it was. */
	in = cq_info(&e, cq);
	old_base = q->cur.base;
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(pmd_hw(e.id), OP_MODIFY_CQ, 1, 0xffff, 0x123),
		      0);
	TEST_CHECK(rdmadev_cq_resize(cq, 100) < 0);
	TEST_CHECK_EQ(rdmadev_cq_size(cq), 40);
	TEST_CHECK(q->cur.base == old_base);
	TEST_CHECK_EQ(cq_info(&e, cq).pa, in.pa);
	/* Limits (library) and bad handles. */
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 0), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 524288), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cq_resize(NULL, 10), -EINVAL);
	memset(&st, 0, sizeof(st));
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &st), 0);
	TEST_CHECK_EQ(st.cq_resizes, 5);	/* 200, 2, 32, 16, 40 */
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	test_env_down(&e);
}

/*
 * The largest CQ the device reports is one the driver can create: its ring of (max_cqe + 1) x 2
 * slots fits IRDMA_MAX_CQ_SIZE. One entry more is refused by the driver itself with -EINVAL
 * before any CQP command (with the library's check lifted to reach it), not by a failing
 * CREATE_CQ (-EIO).
 */
static void
test_cq_limit(void)
{
	struct rdmadev_cq_attr a = { .cqe = 0, .comp_vector = 0 };
	struct irdma_model_stats before, after;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_info info;
	struct rdmadev *dev;
	uint32_t reported;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 0))
		return;
	TEST_CHECK_EQ(rdmadev_info_get((int16_t)e.id, &info), 0);
	TEST_CHECK_EQ(info.max_cqe, 524286);
	a.cqe = info.max_cqe;
	TEST_CHECK_EQ(rdmadev_cq_create(e.ctx, &a, &cq), 0);
	if (cq != NULL) {
		TEST_CHECK_EQ(cq_info(&e, cq).size, 1048574);	/* (524286 + 1) x 2 */
		TEST_CHECK_EQ(rdmadev_cq_size(cq), 524286);
		TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	}
	dev = rdmadev_get((int16_t)e.id);
	reported = dev->info.max_cqe;
	dev->info.max_cqe = UINT32_MAX;
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &before), 0);
	cq = NULL;
	a.cqe = 524287;
	TEST_CHECK_EQ(rdmadev_cq_create(e.ctx, &a, &cq), -EINVAL);
	TEST_CHECK(cq == NULL);
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &after), 0);
	TEST_CHECK_EQ(after.cqp_wqes, before.cqp_wqes);	/* no CREATE_CQ was tried */
	dev->info.max_cqe = reported;
	test_env_down(&e);
}

/* Every page of [va, va + len) resolves through the PBLE run at @p first to its IOVA. */
static void
check_pble_run(const struct test_env *e, uint32_t first, const uint8_t *va, size_t len)
{
	rte_iova_t iova;
	uint32_t p;

	for (p = 0; p < (len + PAGE - 1) / PAGE; p++) {
		iova = 0;
		TEST_CHECK_EQ(irdma_model_pble_lookup(pmd_hw(e->id), 1, first, p, &iova), 0);
		TEST_CHECK_EQ(iova, rte_mem_virt2iova(va + (size_t)p * PAGE));
	}
}

static void
test_cq_pbl(void)
{
	struct irdma_model_cq_info in;
	struct pbl_pool_stats ps;
	struct pbl_pool *pool;
	struct rdmadev_cq *cq;
	struct irdma_cq *q;
	uint8_t w[64];
	struct test_env e;

	if (test_env_up(&e, DEVARGS ",ring_pbl=1", 0) != 0 || (cq = cq_new(&e, 300)) == NULL) {
		test_env_down(&e);
		return;
	}
	q = cq->obj.fp.drv;
	pool = q->pbl.pbl.pool;
	TEST_CHECK(pool != NULL);
	TEST_CHECK(q->pbl.virtual_map);
	in = cq_info(&e, cq);
	TEST_CHECK_EQ(in.pbl_level, 1);
	TEST_CHECK_EQ(in.size, 602);
	TEST_CHECK_EQ(in.pa, 0);
	TEST_CHECK_EQ(in.first_pble, q->pbl.ring_addr);
	check_pble_run(&e, in.first_pble, q->cur.base, 602 * CQE_BYTES);
	TEST_CHECK(newest_wqe(e.id, OP_CREATE_CQ, w));
	TEST_CHECK_EQ(wqe_bits(w, 3, 47, 47), 1);		/* VIRTMAP */
	TEST_CHECK_EQ(wqe_bits(w, 3, 45, 44), 1);		/* LPBLSIZE: level 1 */
	TEST_CHECK_EQ(wqe_bits(w, 6, 27, 0), in.first_pble);	/* FIRSTPMPBLIDX */
	TEST_CHECK_EQ(wqe_bits(w, 4, 63, 0), 0);		/* no PA */
	/* Resize keeps the level; the old run lives until the next resize. */
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 600), 0);
	in = cq_info(&e, cq);
	TEST_CHECK_EQ(in.pbl_level, 1);
	TEST_CHECK_EQ(in.first_pble, q->pbl.ring_addr);
	check_pble_run(&e, in.first_pble, q->cur.base, 601 * CQE_BYTES);
	TEST_CHECK(newest_wqe(e.id, OP_MODIFY_CQ, w));
	TEST_CHECK_EQ(wqe_bits(w, 3, 47, 47), 1);
	TEST_CHECK_EQ(wqe_bits(w, 3, 45, 44), 1);
	TEST_CHECK_EQ(wqe_bits(w, 6, 27, 0), in.first_pble);
	pbl_pool_stats_get(pool, &ps);
	TEST_CHECK_EQ(ps.runs, 2);
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 100), 0);
	pbl_pool_stats_get(pool, &ps);
	TEST_CHECK_EQ(ps.runs, 2);	/* the first run went, the 600-entry one is old now */
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	pbl_pool_stats_get(pool, &ps);
	TEST_CHECK_EQ(ps.runs, 0);
	test_env_down(&e);
}

static void
test_qp_pbl(void)
{
	const uint32_t sq_bytes = 16384, rq_bytes = 4096;	/* 512 and 64 quanta */
	struct rdmadev_qp_init_attr ia;
	struct irdma_model_qp_info in;
	struct rdmadev_qp *qp = NULL;
	struct pbl_pool_stats ps;
	struct rdmadev_qp_attr a;
	struct rdmadev_cq *cq;
	struct irdma_qp *q;
	uint8_t w[64];
	const uint8_t *ctx;
	struct test_env e;

	if (test_env_up(&e, DEVARGS ",ring_pbl=1", 0) != 0 || (cq = cq_new(&e, 64)) == NULL) {
		test_env_down(&e);
		return;
	}
	memset(&ia, 0, sizeof(ia));
	ia.pd = e.pd;
	ia.send_cq = cq;
	ia.recv_cq = cq;
	ia.qp_type = RDMADEV_QPT_UD;
	ia.cap.max_send_wr = 32;
	ia.cap.max_recv_wr = 16;
	ia.cap.max_send_sge = 2;
	ia.cap.max_recv_sge = 2;
	ia.cap.max_inline_data = 32;
	TEST_CHECK_EQ(rdmadev_qp_create(&ia, &qp), 0);
	if (qp == NULL) {
		TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
		test_env_down(&e);
		return;
	}
	q = qp->obj.fp.drv;
	TEST_CHECK(q->pbl.virtual_map);
	memset(&in, 0, sizeof(in));
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e.id), rdmadev_qp_num(qp), &in), 0);
	TEST_CHECK_EQ(in.pbl_level, 1);
	TEST_CHECK_EQ(in.sq_quanta * 32, sq_bytes);
	TEST_CHECK_EQ(in.rq_quanta * 32 <= rq_bytes, 1);
	/* One run: SQ pages, then RQ pages (index + sq_pages). */
	TEST_CHECK_EQ(in.rq_first_pble, in.sq_first_pble + sq_bytes / PAGE);
	check_pble_run(&e, in.sq_first_pble, q->sq.base, sq_bytes);
	check_pble_run(&e, in.rq_first_pble, q->rq.base, rq_bytes);
	/* The shadow area is an address: the page after the RQ. */
	TEST_CHECK_EQ(in.shadow_pa, rte_mem_virt2iova((uint8_t *)q->sq.base + sq_bytes + rq_bytes));
	ctx = (const uint8_t *)q->hctx.va + 256;
	TEST_CHECK_EQ(wqe_bits(ctx, 1, 63, 0), in.sq_first_pble);	/* byte 8: SQ */
	TEST_CHECK_EQ(wqe_bits(ctx, 2, 63, 0), in.rq_first_pble);	/* byte 16: RQ */
	TEST_CHECK(newest_wqe(e.id, OP_CREATE_QP, w));
	TEST_CHECK_EQ(wqe_bits(w, 3, 45, 45), 1);			/* VQ */
	/* The whole verbs chain on PBLE rings. */
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qkey = 7;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
				       RDMADEV_QP_PORT | RDMADEV_QP_QKEY), 0);
	a.qp_state = RDMADEV_QPS_RTR;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE), 0);
	a.qp_state = RDMADEV_QPS_RTS;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_SQ_PSN), 0);
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e.id), rdmadev_qp_num(qp), &in), 0);
	TEST_CHECK_EQ(in.state, 2);	/* RTS */
	TEST_CHECK_EQ(in.pbl_level, 1);
	a.qp_state = RDMADEV_QPS_ERR;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE), 0);
	a.qp_state = RDMADEV_QPS_RESET;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE), 0);
	pbl_pool_stats_get(q->pbl.pbl.pool, &ps);
	TEST_CHECK_EQ(ps.runs, 2);	/* the QP's and the CQ's */
	{
		struct pbl_pool *pool = q->pbl.pbl.pool;

		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
		pbl_pool_stats_get(pool, &ps);
		TEST_CHECK_EQ(ps.runs, 1);
	}
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	test_env_down(&e);
}

/* Without ring_pbl, IOVA-contiguous rings stay level 0 (the kernel's choice). */
static void
test_level0_default(void)
{
	struct rdmadev_cq *cq;
	struct irdma_cq *q;
	struct test_env e;

	if (test_env_up(&e, DEVARGS, 0) != 0 || (cq = cq_new(&e, 64)) == NULL) {
		test_env_down(&e);
		return;
	}
	q = cq->obj.fp.drv;
	TEST_CHECK(!q->pbl.virtual_map);
	TEST_CHECK_EQ(q->pbl.ring_addr, rte_mem_virt2iova(q->cur.base));
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	TEST_CHECK_EQ(rdmadev_open("irdma_model1,ring_pbl=2"), -EINVAL);
	test_env_down(&e);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_cq") < 0)
		return test_eal_bail();
	TEST_RUN(test_resize);
	TEST_RUN(test_cq_limit);
	TEST_RUN(test_cq_pbl);
	TEST_RUN(test_qp_pbl);
	TEST_RUN(test_level0_default);
	rte_eal_cleanup();
	return test_done();
}
